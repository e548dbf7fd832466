/* send_cancel.c — MPI_Cancel of a send (MPI-3.1 3.8.4). A send can be cancelled only while no
 * receive has matched it, and only the receiver knows that: rmp cancels rendezvous sends (and
 * synchronous ones, which always go by rendezvous) whose RTS is still in the receiver's
 * unexpected queue. The sender asks with a CANCEL packet naming its request; the receiver,
 * if the RTS is still unmatched, drops it (nothing of the message was delivered: the data
 * never left the sender) and answers CANCELLED, which completes the send with
 * status.cancelled set. If it matched already, the receiver says nothing and the send
 * completes as usual (FIN or the stream after a CTS): never both, and the message is neither
 * lost nor delivered twice. Packets to one peer arrive in order, so a CANCEL always finds the
 * RTS it names arrived, and cannot reach a later start of the same persistent request.
 * An eager send is complete when it is pushed, long before a CANCEL could arrive: cancelling
 * it (or a buffered send) has no effect, and its status says so. All under the lock. */
#include <stdlib.h>

#include "match.h"
#include "protocol.h"
#include "wire.h"

static void send_ctl(rmp_ctx_t *c, int peer, uint8_t type, uint64_t sreq)
{
    pkt_ctl_t h = {.type = type, .sreq = sreq};
    int rc = outq_send(c, peer, &h, sizeof(h), NULL, 0, NULL);
    if (rc != RMP_SUCCESS) /* the peer failed: the send fails with it (fault.c) */
        core_verbose(c, "cannot send %s to rank %d: %s",
                     type == PKT_CANCEL ? "CANCEL" : "CANCELLED", peer, rmp_strerror(rc));
}

void send_cancel(rmp_ctx_t *c, struct rmp_request *r)
{
    if (atomic_load(&r->done) || r->state != RS_RNDV_WAIT_FIN || c->peers[r->peer_world].failed)
        return;
    send_ctl(c, r->peer_world, PKT_CANCEL, (uint64_t)(uintptr_t)req_handle(r));
}

void send_cancel_on_cancel(rmp_ctx_t *c, int src_world, const pkt_ctl_t *h)
{
    unexp_t *u = match_take_unexp_rts(c->mq, src_world, h->sreq);
    if (!u)
        return; /* matched (or probed by mprobe): it will be received */
    free(u->data);
    free(u);
    send_ctl(c, src_world, PKT_CANCELLED, h->sreq);
}

void send_cancel_on_cancelled(rmp_ctx_t *c, int src_world, const pkt_ctl_t *h)
{
    struct rmp_request *r = req_lookup((rmp_request_t)(uintptr_t)h->sreq);
    if (!wire_req_expects(r, src_world, REQ_SEND, RS_RNDV_WAIT_FIN)) {
        fault_peer_garbled(c, src_world, h, sizeof(*h), "CANCELLED for no send of mine");
        return;
    }
    rndv_untrack(c, r);
    tp_t *tp = c->peers[r->peer_world].tp;
    if (r->memh && tp)
        tp->ops->mem_dereg(tp, r->memh);
    r->memh = NULL;
    r->state = RS_NONE;
    r->status.cancelled = 1;
    req_complete(r, RMP_SUCCESS);
}
