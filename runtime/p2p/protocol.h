/* protocol.h — rmp's wire protocol above the transports: packet headers, the per-peer queue
 * of packets waiting for transport resources, and the eager / rendezvous entry points. */
#ifndef RMP_PROTOCOL_H
#define RMP_PROTOCOL_H

#include "core.h"

/* CANCEL: "drop my message number xlen if nobody matched it, and answer request sreq";
 * CANCELLED: "dropped" (rreq: the send request its RTS named, 0 for an eager message);
 * NOT_CANCELLED: "it was matched already" (send_cancel.c). */
enum { PKT_EAGER = 1, PKT_RTS, PKT_CTS, PKT_DATA, PKT_FIN, PKT_CANCEL, PKT_CANCELLED,
       PKT_NOT_CANCELLED, PKT_RMA };
enum { PKT_F_GET = 1 }; /* RTS: rkey is valid, the receiver may get() the data */

/* Header of EAGER and RTS: what matching needs. */
typedef struct pkt_match {
    uint8_t type, flags;
    uint16_t pad;
    uint32_t ctx;
    int32_t src; /* sender's rank in the communicator */
    int32_t tag;
    uint32_t seq; /* per (sender, receiver) pair: checks FIFO delivery */
    uint32_t pad2;
    uint64_t len; /* whole message, bytes */
} pkt_match_t;

typedef struct pkt_rts {
    pkt_match_t m;
    uint64_t sreq; /* sender's request */
    tp_rkey_t rkey;
} pkt_rts_t;

/* CTS: "stream me xlen bytes" (rendezvous when get() is impossible); FIN: "done reading". */
typedef struct pkt_ctl {
    uint8_t type, flags;
    uint8_t pad[6];
    uint64_t sreq, rreq;
    uint64_t xlen;
} pkt_ctl_t;

typedef struct pkt_data {
    uint8_t type, flags;
    uint8_t pad[6];
    uint64_t rreq;
    uint64_t off;
} pkt_data_t;

/* RMA: a one-sided operation's active message (rma/am.c makes and applies them; the runtime
 * only checks their shape and hands them to c->rma_deliver). Requests, origin to target:
 *   PUT   payload: len bytes to write at the target's `off`
 *   GET   no payload: answer with DATA of the len bytes at `off`, then ACK
 *   ACC   payload: len bytes of `base` elements combined with op into `off` (PKT_RMA_F_NODATA:
 *         no payload, RMP_NO_OP); PKT_RMA_F_RESULT: DATA of the elements before, then ACK.
 *         PKT_RMA_F_PIECES: the len bytes go to `pad` pieces of target memory (elements whose
 *         parts sit apart, as a pair type's value and index), listed first in the payload as
 *         pkt_rma_piece_t, offsets from `off`; the packet holds whole elements
 *   CAS   payload: one element (len bytes) to store, then the element to compare with
 *   LOCK  op: the lock type (rma.h's rma_lock_t): ACK once granted; UNLOCK, FLUSH: ACK
 * Replies, target to origin: ACK (op: the outcome, RMP_SUCCESS or an error code), DATA
 * (payload: len bytes for the origin's buffer at `pos`). `id` names the origin's operation and
 * `pos` the piece's place in its packed data; both are echoed back, never trusted blindly. */
enum { PKT_RMA_PUT = 1, PKT_RMA_GET, PKT_RMA_ACC, PKT_RMA_CAS, PKT_RMA_LOCK, PKT_RMA_UNLOCK,
       PKT_RMA_FLUSH, PKT_RMA_ACK, PKT_RMA_DATA, PKT_RMA_NKINDS };
enum { PKT_RMA_F_RESULT = 1, PKT_RMA_F_NODATA = 2, PKT_RMA_F_PIECES = 4 };
typedef struct pkt_rma_piece {
    int64_t off; /* from the packet's off (pieces may lie below it) */
    uint64_t len;
} pkt_rma_piece_t;

typedef struct pkt_rma {
    uint8_t type, kind; /* PKT_RMA, PKT_RMA_* */
    uint8_t base;       /* ACC, CAS: the elements' dt_base_t */
    uint8_t flags;      /* PKT_RMA_F_* */
    uint32_t ctx;       /* the window's communicator's ctx id (every rank names it so) */
    int32_t op;         /* ACC: rmp_op_t; LOCK: the lock type; ACK: the outcome */
    uint32_t pad;
    uint64_t id;        /* the origin's operation */
    uint64_t off;       /* target memory: offset from its base (dynamic window: address) */
    uint64_t pos;       /* where the piece sits in the origin's packed data */
    uint64_t len;       /* bytes of target memory concerned */
} pkt_rma_t;

/* A packet that could not be handed to the transport yet (back-pressure). */
struct outq_item {
    struct outq_item *next;
    union {
        pkt_match_t m;
        pkt_rts_t rts;
        pkt_ctl_t ctl;
        pkt_rma_t rma;
    } hdr;
    size_t hdrlen;
    const void *payload;
    size_t len;
    struct rmp_request *req; /* eager send: complete once pushed; stream: the send being streamed */
    bool stream;
};

/* outq.c: send a packet now if the peer's queue is empty and the transport accepts it,
 * else queue it. `req` (may be NULL) completes when an eager packet is pushed. */
int outq_send(rmp_ctx_t *c, int peer, const void *hdr, size_t hdrlen, const void *payload,
              size_t len, struct rmp_request *req);
/* The first half of outq_send, for a caller that has no request to complete later (peer
 * ready): push now, or RMP_AGAIN when packets are queued before it or the transport is full
 * (nothing sent), or the transport's error. */
int outq_push_now(rmp_ctx_t *c, int peer, const void *hdr, size_t hdrlen, const void *payload,
                  size_t len);
/* outq_send without a request, for a caller whose payload may not outlive the call (one-sided
 * replies read from window memory that later packets change, origin buffers the user may
 * reuse): when the packet has to wait, the queue keeps a copy of the payload. */
int outq_send_copy(rmp_ctx_t *c, int peer, const void *hdr, size_t hdrlen, const void *payload,
                   size_t len);
/* Queue a DATA stream of send request r (after a CTS). */
int outq_stream(rmp_ctx_t *c, int peer, struct rmp_request *r);
/* Push what the transports accept now; returns packets pushed. */
int outq_flush(rmp_ctx_t *c);
/* Fail every queued packet to `peer` with err. */
void outq_fail_peer(rmp_ctx_t *c, int peer, int err);

/* protocol.c */
/* Start a send (lock held): r has buf, bytes, ctx_id, tag, comm, peer, peer_world. */
int proto_send(rmp_ctx_t *c, struct rmp_request *r);
/* An eager message of `bytes` contiguous bytes to comm rank dst on context ctx_id, pushed now
 * (lock held): a blocking send needs no request then, a nonblocking one is complete at once.
 * RMP_AGAIN when it cannot be (rendezvous size, the peer not connected yet, failed, or with
 * packets queued before it): then nothing was sent, and the request's way (proto_send) must
 * be taken. */
int proto_send_now(rmp_ctx_t *c, comm_t *comm, uint32_t ctx_id, const void *buf, size_t bytes,
                   int dst, int tag);
/* Post a receive (lock held): matches the unexpected queue first, else queues r. */
int proto_recv(rmp_ctx_t *c, struct rmp_request *r);
/* Receive r the unexpected message u taken from matching (lock held): its status, its data
 * or the rendezvous that fetches it; u is freed. */
struct unexp;
void proto_recv_unexp(rmp_ctx_t *c, struct rmp_request *r, struct unexp *u);
/* Largest eager payload to peer. */
size_t proto_eager_limit(rmp_ctx_t *c, int peer);

/* rendezvous.c */
/* Sends waiting for FIN/CTS and receives with data to come (c->rndv_active: for failures,
 * finalize). */
void rndv_track(rmp_ctx_t *c, struct rmp_request *r);
void rndv_untrack(rmp_ctx_t *c, struct rmp_request *r);
/* A matched RTS: pull the data into r (get, or ask for a stream). */
void rndv_recv_start(rmp_ctx_t *c, struct rmp_request *r, int src_world, size_t len,
                     uint64_t sreq, const tp_rkey_t *rkey, bool can_get);
/* A CTS/FIN, a DATA fragment from src_world, their headers checked by wire_parse. They name
 * our request by the handle we sent (sreq, rreq): one that names no request waiting for that
 * packet (late, duplicated, forged, corrupt) fails the peer as garbled. */
void rndv_on_ctl(rmp_ctx_t *c, int src_world, const pkt_ctl_t *h);
void rndv_on_data(rmp_ctx_t *c, int src_world, const pkt_data_t *h, const void *payload,
                  size_t len);
/* send_cancel.c: cancelling a send whose message no receive has matched yet. */
/* rmp_cancel of a send (lock held): asks the receiver to drop the message if still
 * unmatched; the request is done once the answer came (and the send itself is over): cancelled
 * (PKT_CANCELLED) or as usual. No-op when there is nothing to cancel. */
void send_cancel(rmp_ctx_t *c, struct rmp_request *r);
void send_cancel_on_cancel(rmp_ctx_t *c, int src_world, const pkt_ctl_t *h);
/* PKT_CANCELLED and PKT_NOT_CANCELLED. */
void send_cancel_on_answer(rmp_ctx_t *c, int src_world, const pkt_ctl_t *h);
/* Finalize: nothing waits for an answer (the list's memory goes). */
bool send_cancel_idle(const rmp_ctx_t *c);
void send_cancel_fini(rmp_ctx_t *c);
/* rma_hook.c: PKT_RMA to the one-sided layer's handler (core.h's rma_deliver), or kept until
 * it is installed and takes it. */
void rma_hook_deliver(rmp_ctx_t *c, int src, const pkt_rma_t *h, const void *payload,
                      size_t len);
/* Install the one-sided layer's handlers (NULL: left as they are) and replay. fini: called
 * once at teardown, to release the layer's state of active messages. */
void rma_hook_set(rmp_ctx_t *c,
                  bool (*deliver)(rmp_ctx_t *, int, const pkt_rma_t *, const void *, size_t),
                  void (*peer_failed)(rmp_ctx_t *, int, int), void (*fini)(rmp_ctx_t *));
/* Offer the kept arrivals to the handler again, in order (a window was registered): those it
 * takes go, the others stay, still in order. */
void rma_hook_replay(rmp_ctx_t *c);
/* Teardown (the transports closed): the layer's fini, and what was kept for a handler never
 * installed is dropped. */
void rma_hook_fini(rmp_ctx_t *c);
/* fault.c */
/* src sent a packet the protocol cannot produce (`why`): it fails as if dead (once), and
 * nothing it sends later is delivered. */
void fault_peer_garbled(rmp_ctx_t *c, int src, const void *data, size_t len, const char *why);

#endif
