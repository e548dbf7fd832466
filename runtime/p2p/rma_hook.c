/* rma_hook.c — where PKT_RMA packets go: the one-sided layer (rma/am.c) sits above the
 * runtime, which therefore calls it only through the handlers it installs in rmp_ctx_t. A
 * peer may create its window and send the first operation before this rank's creation has
 * installed them or registered that window (creation is collective, its steps are not
 * simultaneous): such arrivals are kept, in order, and offered again at installation and at
 * every registration (rma_hook_replay), never dropped. */
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

/* Whether a packet of window ctx is kept: a later one of that window must not overtake it. */
static bool window_waits(const rmp_ctx_t *c, uint32_t ctx)
{
    for (const struct rma_early *e = c->rma_early; e; e = e->next)
        if (e->h.ctx == ctx)
            return true;
    return false;
}

void rma_hook_deliver(rmp_ctx_t *c, int src, const pkt_rma_t *h, const void *payload, size_t len)
{
    if (c->rma_deliver && !window_waits(c, h->ctx) && c->rma_deliver(c, src, h, payload, len))
        return;
    /* an answer: to nothing, since operations are sent only after the handler is installed */
    if (!c->rma_deliver && (h->kind == PKT_RMA_ACK || h->kind == PKT_RMA_DATA)) {
        fault_peer_garbled(c, src, h, sizeof(*h), "one-sided answer before any window");
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

void rma_hook_replay(rmp_ctx_t *c)
{
    if (!c->rma_deliver)
        return;
    struct rma_early **pp = &c->rma_early;
    c->rma_early_tail = NULL;
    while (*pp) {
        struct rma_early *e = *pp;
        if (c->peers[e->src].garbled || c->rma_deliver(c, e->src, &e->h, e->payload, e->len)) {
            *pp = e->next;
            free(e);
        } else {
            pp = &e->next;
        }
    }
    c->rma_early_tail = pp;
}

void rma_hook_set(rmp_ctx_t *c,
                  bool (*deliver)(rmp_ctx_t *, int, const pkt_rma_t *, const void *, size_t),
                  void (*peer_failed)(rmp_ctx_t *, int, int), void (*fini)(rmp_ctx_t *))
{
    if (peer_failed)
        c->rma_peer_failed = peer_failed;
    if (fini)
        c->rma_fini = fini;
    if (deliver) {
        c->rma_deliver = deliver;
        rma_hook_replay(c);
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
    c->rma_win_valid = NULL;
}
