/* sendmodes.c — MPI's other send modes over the standard one: synchronous sends (rendezvous
 * whatever the size, so the send completes only once the receiver matched), ready sends (a
 * standard send is a correct ready send), buffered sends (the data copied into the attached
 * buffer, sent from there, the space given back once that send completed), and
 * sendrecv_replace (the outgoing data copied aside, so the receive may land in the buffer). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hang.h"
#include "p2p.h"

/* ---- synchronous and ready ---- */

int rmp_issend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req)
{
    return p2p_isend_mode(buf, count, type, dest, tag, comm, true, req);
}

int rmp_ssend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm)
{
    rmp_request_t r;
    int rc = rmp_issend(buf, count, type, dest, tag, comm, &r);
    if (rc)
        return rc;
    const char *prev = hang_enter(__func__);
    rc = rmp_wait(&r, RMP_STATUS_IGNORE);
    hang_leave(prev);
    return rc;
}

int rmp_irsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req)
{
    return p2p_isend_mode(buf, count, type, dest, tag, comm, false, req);
}

int rmp_rsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm)
{
    return rmp_send(buf, count, type, dest, tag, comm);
}

/* ---- buffered ---- */

/* A message in the attached buffer: bytes [off, off + len) of it (its data first, then the
 * RMP_BSEND_OVERHEAD bytes it is charged for, which rmp does not write), and its send. */
typedef struct bsend_seg {
    struct bsend_seg *next; /* by offset */
    size_t off, len;
    struct rmp_request *req;
} bsend_seg_t;

/* The attached buffer (rmp_ctx.bsend, under the runtime lock). */
typedef struct bsend_buf {
    char *buf;
    size_t size;
    bsend_seg_t *segs; /* in use, by offset */
} bsend_buf_t;

/* Give back the space of every buffered send that completed (lock held). Its error (a failed
 * peer) has no one to go to: MPI's bsend returned long ago. */
static void bsend_reap(rmp_ctx_t *c, bsend_buf_t *b)
{
    for (bsend_seg_t **pp = &b->segs; *pp;) {
        bsend_seg_t *s = *pp;
        if (!atomic_load_explicit(&s->req->done, memory_order_acquire)) {
            pp = &s->next;
            continue;
        }
        if (s->req->status.error)
            core_verbose(c, "a buffered send to rank %d failed: %s", s->req->peer_world,
                         rmp_strerror(s->req->status.error));
        req_free(s->req);
        *pp = s->next;
        free(s);
    }
}

void bsend_fini(rmp_ctx_t *c)
{
    bsend_buf_t *b = c->bsend;
    if (!b)
        return;
    bsend_reap(c, b);
    if (b->segs)
        return; /* an abandoned job: messages still in flight keep their space */
    free(b);
    c->bsend = NULL;
}

/* First fit of len bytes between the messages in the buffer: where to link the new one
 * (*at) and its offset; false if no gap is large enough. */
static bool bsend_fit(bsend_buf_t *b, size_t len, bsend_seg_t ***at, size_t *off)
{
    size_t end = 0;
    bsend_seg_t **pp = &b->segs;
    for (; *pp; pp = &(*pp)->next) {
        if ((*pp)->off - end >= len)
            break;
        end = (*pp)->off + (*pp)->len;
    }
    if (!*pp && (end > b->size || b->size - end < len))
        return false;
    *at = pp;
    *off = end;
    return true;
}

/* How long a buffered send with no room waits for earlier ones to give theirs back. */
#define BSEND_ROOM_WAIT_MS 2000

/* No gap for len bytes yet: the space of earlier sends comes back as they complete, which
 * takes only progress once their receives are matched (MPICH too progresses before it gives
 * up; several threads' sends of large messages fill the buffer while the first are still in
 * flight). Polls while any is in flight, for a bounded time: one whose receive is never
 * posted would never give its space back, and the send fails (lock held). */
static bool bsend_room(rmp_ctx_t *ctx, bsend_buf_t *b, size_t len, bsend_seg_t ***at,
                       size_t *off)
{
    if (bsend_fit(b, len, at, off))
        return true;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (len <= b->size && b->segs) {
        progress_poll(ctx);
        bsend_reap(ctx, b);
        if (bsend_fit(b, len, at, off))
            return true;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >
            BSEND_ROOM_WAIT_MS)
            break;
    }
    return false;
}

int p2p_bsend_locked(comm_t *c, const void *buf, int count, const dtype_t *t, size_t bytes,
                     int dst, int tag, struct rmp_request *user)
{
    rmp_ctx_t *ctx = &rmp_ctx;
    bsend_buf_t *b = ctx->bsend;
    if (dst == RMP_PROC_NULL)
        return RMP_SUCCESS;
    if (b)
        bsend_reap(ctx, b);
    bsend_seg_t **at, *s;
    size_t off;
    if (!b || bytes > SIZE_MAX - RMP_BSEND_OVERHEAD ||
        !bsend_room(ctx, b, bytes + RMP_BSEND_OVERHEAD, &at, &off)) {
        core_verbose(ctx, "bsend of %zu bytes to rank %d: %s", bytes, dst,
                     b ? "no room left in the attached buffer (wait for earlier buffered "
                         "sends, or attach a larger buffer)"
                       : "no buffer attached (rmp_buffer_attach)");
        return RMP_ERR_BUFFER;
    }
    if (!(s = malloc(sizeof(*s))))
        return RMP_ERR_NO_MEM;
    char *data = b->buf + off;
    if (t->contig) {
        if (bytes)
            memcpy(data, buf, bytes);
    } else {
        dtype_pack(t, count, buf, data);
    }
    int rc = p2p_isend_locked(c, 0, data, bytes, dst, tag, &s->req);
    if (rc) {
        free(s);
        return rc;
    }
    *s = (bsend_seg_t){.next = *at, .off = off, .len = bytes + RMP_BSEND_OVERHEAD,
                       .req = s->req};
    *at = s;
    user->peer_world = s->req->peer_world;
    user->msg_seq = s->req->msg_seq;
    return RMP_SUCCESS;
}

int rmp_ibsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req)
{
    p2p_args_t a;
    int rc = p2p_check_args(comm, &a, buf, count, type, dest, tag, false);
    if (rc)
        return rc;
    if (!req)
        return RMP_ERR_ARG;
    struct rmp_request *r = req_alloc(REQ_SEND); /* complete once the data is copied */
    if (!r)
        return RMP_ERR_NO_MEM;
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    rc = p2p_bsend_locked(a.c, buf, count, a.t, a.bytes, dest, tag, r);
    ctx_unlock(ctx);
    if (rc) {
        req_free(r);
        return rc;
    }
    atomic_store_explicit(&r->done, 1, memory_order_release);
    *req = req_handle(r);
    return RMP_SUCCESS;
}

int rmp_bsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm)
{
    rmp_request_t r;
    int rc = rmp_ibsend(buf, count, type, dest, tag, comm, &r);
    return rc ? rc : rmp_wait(&r, RMP_STATUS_IGNORE);
}

int rmp_buffer_attach(void *buf, int size)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (size < 0)
        return RMP_ERR_COUNT;
    if (!buf && size > 0)
        return RMP_ERR_BUFFER;
    bsend_buf_t *b = malloc(sizeof(*b));
    if (!b)
        return RMP_ERR_NO_MEM;
    *b = (bsend_buf_t){.buf = buf, .size = (size_t)size};
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    if (ctx->bsend) {
        rc = RMP_ERR_BUFFER;
        core_verbose(ctx, "rmp_buffer_attach: a buffer is attached already (detach it first)");
    } else {
        ctx->bsend = b;
        b = NULL;
    }
    ctx_unlock(ctx);
    free(b);
    return rc;
}

static bool bsend_drained(void *arg)
{
    bsend_buf_t *b = arg;
    bsend_reap(&rmp_ctx, b);
    return b->segs == NULL;
}

int rmp_buffer_detach(void **buf, int *size)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!buf || !size)
        return RMP_ERR_ARG;
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    bsend_buf_t *b = ctx->bsend;
    ctx->bsend = NULL; /* detached at once: a bsend from another thread finds no buffer */
    if (b)
        progress_wait_until(ctx, bsend_drained, b);
    ctx_unlock(ctx);
    *buf = b ? b->buf : NULL;
    *size = b ? (int)b->size : 0;
    free(b);
    return RMP_SUCCESS;
}

/* ---- sendrecv_replace ---- */

/* Both halves are checked before anything is posted (as rmp_sendrecv); the outgoing data is
 * packed into a copy first, so the receive may fill the buffer while the copy is sent (a
 * rendezvous reads the sender's buffer until the receiver is done). */
int rmp_sendrecv_replace(void *buf, int count, rmp_datatype_t type, int dest, int sendtag,
                         int source, int recvtag, rmp_comm_t comm, rmp_status_t *status)
{
    p2p_args_t ra, sa;
    int rc = p2p_check_args(comm, &ra, buf, count, type, source, recvtag, true);
    if (!rc)
        rc = p2p_check_args(comm, &sa, buf, count, type, dest, sendtag, false);
    if (rc)
        return rc;
    void *copy = malloc(sa.bytes ? sa.bytes : 1);
    if (!copy)
        return RMP_ERR_NO_MEM;
    dtype_pack(sa.t, count, buf, copy);
    struct rmp_request *rr, *sr;
    if ((rc = p2p_recv_typed(ra.c, 0, buf, count, ra.t, ra.bytes, source, recvtag, &rr))) {
        free(copy);
        return rc;
    }
    rmp_request_t r[2] = {req_handle(rr), RMP_REQUEST_NULL};
    rc = p2p_isend_bytes(sa.c, 0, copy, sa.bytes, dest, sendtag, &sr);
    if (rc) {
        rmp_cancel(&r[0]);
        rmp_wait(&r[0], status);
        free(copy);
        return rc;
    }
    r[1] = req_handle(sr);
    int rc_send = rmp_wait(&r[1], RMP_STATUS_IGNORE);
    rc = rmp_wait(&r[0], status);
    free(copy);
    return rc ? rc : rc_send;
}
