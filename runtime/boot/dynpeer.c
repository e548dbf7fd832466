/* dynpeer.c — peers gained after init (processes of another job met through a port): each
 * gets a world id above the world's (c->peers has room for RMP_MAX_DYN_PEERS of them), named
 * by its endpoint address on the sock transport, which is opened on first need. The world
 * communicator and the world's transports are untouched; communicators that name a dynamic
 * peer count it (comm.c), and when the last one goes the peer is let go and its id reused. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "protocol.h"

typedef struct dyn {
    tp_t *tp; /* the sock transport */
    char addr[RMP_MAX_DYN_PEERS][RMP_DYN_ADDR_MAX];
    int refs[RMP_MAX_DYN_PEERS];
    bool used[RMP_MAX_DYN_PEERS];
} dyn_t;

/* Lock held: the table and the transport, made on first need. */
static int dyn_open_locked(rmp_ctx_t *c)
{
    if (c->dyn && c->dyn->tp)
        return RMP_SUCCESS;
    if (!c->dyn && !(c->dyn = calloc(1, sizeof(dyn_t))))
        return RMP_ERR_NO_MEM;
    c->dyn_peer_by_addr = dyn_peer_locked;
    return tps_open_late(c, &tp_sock_ops, &c->dyn->tp);
}

int dyn_my_addr(rmp_ctx_t *c, char *addr, size_t len)
{
    ctx_lock(c);
    int rc = dyn_open_locked(c);
    if (rc == RMP_SUCCESS) {
        const void *blob;
        size_t n;
        rc = c->dyn->tp->ops->addr_pack(c->dyn->tp, &blob, &n);
        if (rc == RMP_SUCCESS && n > len)
            rc = RMP_ERR_INTERNAL;
        if (rc == RMP_SUCCESS)
            memcpy(addr, blob, n);
    }
    ctx_unlock(c);
    return rc;
}

int dyn_peer_locked(rmp_ctx_t *c, const char *addr)
{
    if (strlen(addr) >= RMP_DYN_ADDR_MAX || dyn_open_locked(c) != RMP_SUCCESS)
        return -1;
    dyn_t *d = c->dyn;
    int free_slot = -1;
    for (int i = 0; i < RMP_MAX_DYN_PEERS; i++) {
        if (d->used[i] && !strcmp(d->addr[i], addr))
            return c->size + i;
        if (!d->used[i] && free_slot < 0)
            free_slot = i;
    }
    if (free_slot < 0) {
        core_error(c, "more than %d dynamic peers at once: disconnect some first",
                   RMP_MAX_DYN_PEERS);
        return -1;
    }
    int w = c->size + free_slot;
    d->used[free_slot] = true;
    d->refs[free_slot] = 0;
    strcpy(d->addr[free_slot], addr);
    c->peers[w] = (peer_t){.tp = d->tp, .node = -1};
    if (w >= c->npeers)
        c->npeers = w + 1;
    core_verbose(c, "dynamic peer %d: %s", w, addr);
    return w;
}

static void dyn_let_go(rmp_ctx_t *c, int w)
{
    dyn_t *d = c->dyn;
    if (c->peers[w].outq_head)
        outq_fail_peer(c, w, RMP_ERR_PEER); /* (disconnect waited for its traffic) */
    if (d->tp->caps & TP_CAP_DROP)
        d->tp->ops->drop(d->tp, w);
    d->used[w - c->size] = false;
    c->peers[w] = (peer_t){0};
    while (c->npeers > c->size && !d->used[c->npeers - 1 - c->size])
        c->npeers--;
    core_verbose(c, "dynamic peer %d let go", w);
}

void dyn_ref_locked(rmp_ctx_t *c, const int *world, int n, int delta)
{
    for (int i = 0; i < n && c->dyn; i++) {
        int k = world[i] - c->size;
        if (k < 0 || k >= RMP_MAX_DYN_PEERS || !c->dyn->used[k])
            continue;
        c->dyn->refs[k] += delta;
        if (c->dyn->refs[k] <= 0)
            dyn_let_go(c, world[i]);
    }
}

int dyn_modex_get(rmp_ctx_t *c, int peer, const void **blob_p, size_t *len_p)
{
    int k = peer - c->size;
    if (!c->dyn || k < 0 || k >= RMP_MAX_DYN_PEERS || !c->dyn->used[k])
        return RMP_ERR_PEER;
    *blob_p = c->dyn->addr[k];
    *len_p = strlen(c->dyn->addr[k]) + 1;
    return RMP_SUCCESS;
}

/* At teardown, after the transports closed (the sock one with them). */
void dyn_fini(rmp_ctx_t *c)
{
    free(c->dyn);
    c->dyn = NULL;
}
