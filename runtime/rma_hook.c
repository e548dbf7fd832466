/* rma_hook.c — where PKT_RMA packets go: the one-sided layer (rma/am.c) sits above the
 * runtime, which therefore calls it only through the handlers it installs in rmp_ctx_t. A
 * peer may create its window and send the first operation before this rank's creation has
 * installed them (creation is collective, its steps are not simultaneous): such arrivals are
 * kept, in order, and handed over at installation, never dropped. */
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

struct rma_early {
    struct rma_early *next;
    int src;
    pkt_rma_t h;
    size_t len;
    unsigned char payload[]; /* len bytes */
};

void rma_hook_deliver(rmp_ctx_t *c, int src, const pkt_rma_t *h, const void *payload,
                      size_t len)
{
    if (c->rma_deliver) {
        c->rma_deliver(c, src, h, payload, len);
        return;
    }
    struct rma_early *e = malloc(sizeof(*e) + len);
    if (!e) {
        core_error(c, "out of memory keeping a one-sided packet from rank %d: aborting", src);
        boot_abort(c, 1, 1, "out of memory");
        return;
    }
    e->next = NULL;
    e->src = src;
    e->h = *h;
    e->len = len;
    if (len)
        memcpy(e->payload, payload, len);
    if (!c->rma_early_tail)
        c->rma_early_tail = &c->rma_early;
    *c->rma_early_tail = e;
    c->rma_early_tail = &e->next;
}

void rma_hook_set(rmp_ctx_t *c,
                  void (*deliver)(rmp_ctx_t *, int, const pkt_rma_t *, const void *, size_t),
                  void (*peer_failed)(rmp_ctx_t *, int, int), void (*fini)(rmp_ctx_t *))
{
    if (peer_failed)
        c->rma_peer_failed = peer_failed;
    if (fini)
        c->rma_fini = fini;
    if (!deliver)
        return;
    c->rma_deliver = deliver;
    struct rma_early *e;
    while ((e = c->rma_early)) {
        c->rma_early = e->next; /* unlinked first: the handler may deliver more */
        if (!c->rma_early)
            c->rma_early_tail = NULL;
        if (!c->peers[e->src].garbled)
            deliver(c, e->src, &e->h, e->payload, e->len);
        free(e);
    }
}

void rma_hook_fini(rmp_ctx_t *c)
{
    if (c->rma_fini)
        c->rma_fini(c);
    struct rma_early *e;
    while ((e = c->rma_early)) {
        c->rma_early = e->next;
        free(e);
    }
    c->rma_early_tail = NULL;
    c->rma_deliver = NULL;
    c->rma_peer_failed = NULL;
    c->rma_fini = NULL;
}
