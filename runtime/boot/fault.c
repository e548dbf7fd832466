/* fault.c — a peer that failed (its process died, its QP went to the error state, it sent a
 * packet no rmp rank sends): every operation pending with it fails with the reason instead of
 * waiting forever, and every later operation with it fails at once. Reaches down into the
 * queues that hold such operations (outq, rendezvous list, matching), never back up. */
#include <stdio.h>
#include <time.h>

#include "match.h"
#include "protocol.h"

/* Posted receives naming this peer explicitly (wildcard receives may still match others). */
static void fail_posted(rmp_ctx_t *c, int peer, int status)
{
    for (int h = 0; c->comms && h < RMP_MAX_COMMS; h++) {
        comm_t *cm = &c->comms[h]; /* freed ones too: their collectives in flight hold them */
        if (!cm->in_use)
            continue;
        int cr = comm_rank_of_world(cm, peer);
        if (cr < 0)
            continue;
        comm_hold(cm); /* its receives' unholds must not release it under the loop */
        for (int off = 0; off < 2; off++) {
            struct rmp_request *r;
            while ((r = match_take_posted_from(c->mq, cm->ctx_id + (uint32_t)off, cr)))
                req_recv_finish(r, status);
        }
        comm_unhold(cm);
    }
}

void core_peer_failed(rmp_ctx_t *c, int peer, int status, const char *why)
{
    if (peer < 0 || peer >= c->npeers || c->peers[peer].failed)
        return;
    core_error(c, "rank %d failed: %s", peer, why);
    if (peer < c->size) /* (mrun knows nothing of dynamic peers) */
        boot_peer_failed(c, peer);
    if (c->failed_at_us <= 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        c->first_failed = peer;
        c->failed_at_us = ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
    }
    c->peers[peer].failed = status;
    EV_RAISE(RMP_EV_PEER_FAILED, peer, status);
    outq_fail_peer(c, peer, status);
    list_t *it, *nx;
    LIST_FOR_EACH_SAFE(&c->rndv_active, it, nx) {
        struct rmp_request *r = LIST_ENTRY(it, struct rmp_request, link);
        if (r->peer_world != peer)
            continue;
        list_remove(&r->link); /* rendezvous.c's list: the request leaves it, failed */
        if (r->kind == REQ_RECV) {
            req_recv_finish(r, status);
        } else {
            /* its buffer is no longer to be read (with shm, the slot that named it goes) */
            tp_t *tp = c->peers[peer].tp;
            if (r->memh && tp)
                tp->ops->mem_dereg(tp, r->memh);
            r->memh = NULL;
            req_complete(r, status);
        }
    }
    /* no cancel answer will come from it: those waiting end, not cancelled, as their sends
     * did (failed above, or complete before) */
    for (int i = c->ncancels; i-- > 0;)
        if (c->cancels[i]->peer_world == peer)
            req_cancel_settle(c, c->cancels[i]);
    fail_posted(c, peer, status);
    if (c->rma_peer_failed) /* one-sided operations and lock requests of the RMA layer */
        c->rma_peer_failed(c, peer, status);
}

/* A peer that sends what the protocol cannot produce is broken or hostile: it fails like a
 * dead one, and nothing it sends afterwards is looked at. */
void fault_peer_garbled(rmp_ctx_t *c, int src, const void *data, size_t len, const char *why)
{
    peer_t *p = &c->peers[src];
    if (p->garbled)
        return;
    p->garbled = true;
    char msg[200];
    snprintf(msg, sizeof(msg), "corrupt packet (%s; type %u, %zu bytes): does every rank "
             "run the same rmp build?", why, len ? *(const uint8_t *)data : 0u, len);
    core_peer_failed(c, src, RMP_ERR_TRANSPORT, msg);
}

/* A peer's failure ends the job: a dead process is seen by the launcher (mrun ends the job,
 * Slurm's KillOnBadExit ends the step), and then this rank goes with it. A failure the
 * launcher cannot see does not end it: a QP in error (transport retries exhausted) while the
 * peer lives on. That peer, and every rank that waits for it or for this rank in a collective,
 * would wait for ever, since only this rank knows (the peer's own QP is fine: it is not
 * told). So a rank still waiting FAULT_GRACE_S after the first failure it saw ends the job
 * itself, as an error handler would: the launcher's abort (Slurm's returns), then the exit. */
#define FAULT_GRACE_S 10.0

void fault_wait_check(rmp_ctx_t *c, double now_us)
{
    if (c->failed_at_us <= 0 || now_us - c->failed_at_us < FAULT_GRACE_S * 1e6)
        return;
    char msg[160];
    snprintf(msg, sizeof(msg), "rank %d failed %.0f s ago and the job did not end: rank %d "
             "ends it (ranks that did not see the failure would wait for ever)",
             c->first_failed, (now_us - c->failed_at_us) / 1e6, c->rank);
    core_error(c, "%s", msg);
    boot_abort(c, 1, 1, msg);
}
