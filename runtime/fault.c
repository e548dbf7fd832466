/* fault.c — a peer that failed (its process died, its QP went to the error state): every
 * operation pending with it fails with the transport's reason instead of waiting forever,
 * and every later operation with it fails at once. */
#include "match.h"
#include "protocol.h"

/* Posted receives naming this peer explicitly (wildcard receives may still match others). */
static void fail_posted(rmp_ctx_t *c, int peer, int status)
{
    for (int h = 0; h < RMP_MAX_COMMS; h++) {
        comm_t *cm = comm_get(h);
        if (!cm)
            continue;
        int cr = comm_rank_of_world(cm, peer);
        if (cr < 0)
            continue;
        for (int off = 0; off < 2; off++) {
            struct rmp_request *r;
            while ((r = match_take_posted_from(c->mq, cm->ctx_id + (uint32_t)off, cr)))
                proto_recv_finish(c, r, status);
        }
    }
}

void core_peer_failed(rmp_ctx_t *c, int peer, int status, const char *why)
{
    if (peer < 0 || peer >= c->size || c->peers[peer].failed)
        return;
    core_error(c, "rank %d failed: %s", peer, why);
    boot_peer_failed(c, peer);
    c->peers[peer].failed = status;
    outq_fail_peer(c, peer, status);
    for (struct rmp_request *r = c->rndv_active, *n; r; r = n) {
        n = r->next;
        if (r->peer_world != peer)
            continue;
        rndv_untrack(c, r);
        if (r->kind == REQ_RECV)
            proto_recv_finish(c, r, status);
        else
            req_complete(r, status);
    }
    fail_posted(c, peer, status);
}
