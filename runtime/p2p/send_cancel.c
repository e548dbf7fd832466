/* send_cancel.c — MPI_Cancel of a send (MPI-3.1 3.8.4), in every mode and on every transport.
 * A send can be cancelled only while no receive has matched its message, and only the
 * receiver knows that, whether the message is an eager one (its data already copied into the
 * receiver's unexpected queue) or an RTS (its data still here). The sender asks with a CANCEL
 * packet naming the message by its sequence number to that receiver (unique among what the
 * receiver holds of it) and the request to answer; the receiver decides under its runtime
 * lock, which every match takes too: if the message is still unexpected it drops it and
 * answers CANCELLED, else NOT_CANCELLED. Never both: a dropped message can no longer match,
 * a matched one is delivered as usual; and nothing is lost. Packets to one peer arrive in
 * order, so a CANCEL always finds the message it names arrived.
 *
 * MPI_Cancel itself only sends the CANCEL (it is local), and takes the answer at once only
 * when it is its own receiver; the request is not done until the answer came: an eager send that was complete is made not done again, and the completion of
 * a send still in flight is held (req_complete, cancel_held) until the answer releases it.
 * A dropped RTS names its send request (rreq in the answer), which ends cancelled, its
 * registration released: that is the request itself, or the inner send of a buffered send
 * (sendmodes.c), whose space in the attached buffer is then reaped. Pending cancels are
 * listed in the context (c->cancels): finalize waits for their answers, a failed peer's end
 * (not cancelled). All under the lock. */
#include <stdlib.h>

#include "match.h"
#include "protocol.h"
#include "wire.h"

static int send_ctl(rmp_ctx_t *c, int peer, uint8_t type, uint64_t sreq, uint64_t rreq,
                    uint64_t seq)
{
    pkt_ctl_t h = {.type = type, .sreq = sreq, .rreq = rreq, .xlen = seq};
    int rc = outq_send(c, peer, &h, sizeof(h), NULL, 0, NULL);
    if (rc != RMP_SUCCESS) /* the peer failed: fault.c ends what waited for it */
        core_verbose(c, "cannot send a cancel packet (type %u) to rank %d: %s", type, peer,
                     rmp_strerror(rc));
    return rc;
}

static bool pending_add(rmp_ctx_t *c, struct rmp_request *r)
{
    if (c->ncancels == c->cancels_cap) {
        int cap = c->cancels_cap ? 2 * c->cancels_cap : 8;
        struct rmp_request **a = realloc(c->cancels, (size_t)cap * sizeof(*a));
        if (!a)
            return false;
        c->cancels = a;
        c->cancels_cap = cap;
    }
    c->cancels[c->ncancels++] = r;
    return true;
}

static bool cancel_answered(void *arg)
{
    return !((struct rmp_request *)arg)->cancel_wait;
}

void send_cancel(rmp_ctx_t *c, struct rmp_request *r)
{
    int peer = r->peer_world;
    /* nothing to ask: no message (PROC_NULL, an inactive persistent request), an answer
     * already awaited or given yes, a stream (its CTS said it matched), a failed peer */
    if (peer < 0 || r->cancel_wait || r->status.cancelled || (r->persistent && !r->active) ||
        r->state == RS_STREAM || c->peers[peer].failed)
        return;
    if (!pending_add(c, r))
        return; /* no memory to track it: the cancel fails (allowed: the send completes) */
    /* set before the packet goes: the answer may come back within the next progress call */
    r->cancel_wait = true;
    r->cancel_held = atomic_load_explicit(&r->done, memory_order_acquire) != 0;
    atomic_store_explicit(&r->done, 0, memory_order_release);
    if (send_ctl(c, peer, PKT_CANCEL, (uint64_t)(uintptr_t)req_handle(r), 0, r->msg_seq))
        req_cancel_settle(c, r); /* the peer failed: no cancel, the send ends as it would */
    else if (peer == c->rank)
        /* the receiver is this process: its answer needs nothing but progress here (a few
         * passes of the self FIFO), so the cancel takes effect before MPI_Cancel returns and
         * the first test of the request says so; else a program that reads the status once
         * ("not complete") goes on to receive the withdrawn message and hangs */
        progress_wait_until(c, cancel_answered, r);
}

void send_cancel_on_cancel(rmp_ctx_t *c, int src_world, const pkt_ctl_t *h)
{
    if (h->xlen > UINT32_MAX) {
        fault_peer_garbled(c, src_world, h, sizeof(*h), "CANCEL of no message number");
        return;
    }
    unexp_t *u = match_take_unexp_seq(c->mq, src_world, (uint32_t)h->xlen);
    if (!u) { /* matched (or probed by mprobe): it is received */
        send_ctl(c, src_world, PKT_NOT_CANCELLED, h->sreq, 0, h->xlen);
        return;
    }
    uint64_t rndv = u->rndv ? u->sreq : 0;
    free(u->data);
    free(u);
    send_ctl(c, src_world, PKT_CANCELLED, h->sreq, rndv, h->xlen);
}

/* The receiver dropped the RTS of send s: it ends cancelled, its data never read. */
static bool drop_rndv(rmp_ctx_t *c, int src_world, uint64_t sreq)
{
    struct rmp_request *s = req_lookup((rmp_request_t)(uintptr_t)sreq);
    if (!wire_req_expects(s, src_world, REQ_SEND, RS_RNDV_WAIT_FIN))
        return false;
    rndv_untrack(c, s);
    tp_t *tp = c->peers[src_world].tp;
    if (s->memh && tp)
        tp->ops->mem_dereg(tp, s->memh);
    s->memh = NULL;
    s->state = RS_NONE;
    s->status.cancelled = 1;
    req_complete(s, RMP_SUCCESS); /* held if s is the request waiting for this answer */
    return true;
}

void send_cancel_on_answer(rmp_ctx_t *c, int src_world, const pkt_ctl_t *h)
{
    struct rmp_request *r = req_lookup((rmp_request_t)(uintptr_t)h->sreq);
    if (!r || r->kind != REQ_SEND || r->peer_world != src_world || !r->cancel_wait ||
        h->xlen != r->msg_seq) {
        fault_peer_garbled(c, src_world, h, sizeof(*h), "cancel answer for no send of mine");
        return;
    }
    if (h->type == PKT_CANCELLED) {
        if (h->rreq && !drop_rndv(c, src_world, h->rreq)) {
            fault_peer_garbled(c, src_world, h, sizeof(*h), "CANCELLED names no RTS of mine");
            return;
        }
        r->status.cancelled = 1;
    }
    req_cancel_settle(c, r);
}

bool send_cancel_idle(const rmp_ctx_t *c)
{
    return c->ncancels == 0;
}

void send_cancel_fini(rmp_ctx_t *c)
{
    free(c->cancels);
    c->cancels = NULL;
    c->ncancels = c->cancels_cap = 0;
}
