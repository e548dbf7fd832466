/* bsend.c — buffered sends (MPI-4.1 3.6): the data is copied into an attached buffer and sent
 * from there, its space given back once that send completed. A communicator's own buffer
 * (rmp_comm_attach_buffer) serves the bsends on it, else its session's
 * (rmp_session_attach_buffer), else the process's (rmp_buffer_attach); RMP_BUFFER_AUTOMATIC
 * as the address makes rmp allocate each message's space. Flush waits until the messages
 * buffered before it have left the buffer (iflush: as a request). */
#include <stdlib.h>
#include <string.h>

#include "p2p.h"

/* A message in a buffer: bytes [off, off + len) of it (its data first, then the
 * RMP_BSEND_OVERHEAD bytes it is charged for, which rmp does not write), or its own
 * allocation in an automatic buffer; and its send. */
typedef struct bsend_seg {
    struct bsend_seg *next; /* by offset (automatic: newest first) */
    size_t off, len;
    uint64_t seq; /* the order of buffering: a flush waits for those before it */
    char *own;    /* automatic buffer: the message's data */
    struct rmp_request *req;
} bsend_seg_t;

/* An attached buffer (under the runtime lock): the process's is rmp_ctx.bsend, a
 * communicator's comm_t.bsend, a session's rmp_ctx.session_bsend. */
typedef struct bsend_buf {
    char *buf; /* RMP_BUFFER_AUTOMATIC: rmp allocates */
    size_t size;
    bsend_seg_t *segs;           /* in use */
    uint64_t seq;                /* the next message's */
    int flushes;                 /* iflush requests on it: a detach waits for them too */
    struct bsend_buf *next_dead; /* rmp_ctx.bsend_dead: a freed communicator's, still busy */
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
        free(s->own);
        free(s);
    }
}

/* The buffers of freed communicators whose messages are still in flight: reaped, and
 * dropped once empty (lock held). */
static void bsend_reap_dead(rmp_ctx_t *c)
{
    for (bsend_buf_t **pp = &c->bsend_dead; *pp;) {
        bsend_buf_t *b = *pp;
        bsend_reap(c, b);
        if (b->segs || b->flushes) {
            pp = &b->next_dead;
            continue;
        }
        *pp = b->next_dead;
        free(b);
    }
}

/* The buffer in *slot is detached and kept until its messages left (lock held). */
static void bsend_release(rmp_ctx_t *ctx, bsend_buf_t **slot)
{
    bsend_buf_t *b = *slot;
    if (!b)
        return;
    *slot = NULL;
    b->next_dead = ctx->bsend_dead;
    ctx->bsend_dead = b;
    bsend_reap_dead(ctx);
}

void bsend_comm_release(rmp_ctx_t *ctx, comm_t *c)
{
    bsend_release(ctx, &c->bsend); /* MPI-4.1 3.6.1: freeing the communicator detaches it */
}

void bsend_session_release(rmp_ctx_t *ctx, int session)
{
    if (session >= 1 && session <= SESSION_MAX)
        bsend_release(ctx, &ctx->session_bsend[session - 1]);
}

void bsend_fini(rmp_ctx_t *c)
{
    for (int i = 0; c->comms && i < RMP_MAX_COMMS; i++) /* buffers still attached to them */
        bsend_comm_release(c, &c->comms[i]);
    for (int s = 1; s <= SESSION_MAX; s++)
        bsend_session_release(c, s);
    bsend_reap_dead(c); /* (what is still in flight in an abandoned job stays) */
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
 * (*at) and its offset; false if no gap is large enough. An automatic buffer always fits. */
static bool bsend_fit(bsend_buf_t *b, size_t len, bsend_seg_t ***at, size_t *off)
{
    size_t end = 0;
    bsend_seg_t **pp = &b->segs;
    for (; *pp && b->buf != RMP_BUFFER_AUTOMATIC; pp = &(*pp)->next) {
        if ((*pp)->off - end >= len)
            break;
        end = (*pp)->off + (*pp)->len;
    }
    if (b->buf != RMP_BUFFER_AUTOMATIC && !*pp && (end > b->size || b->size - end < len))
        return false;
    *at = pp;
    *off = end;
    return true;
}

/* How long a buffered send with no room waits for earlier ones to give theirs back. */
#define BSEND_ROOM_WAIT_MS 2000

/* bsend_fit, and when no gap is large enough yet, waits for one: the space of earlier sends
 * comes back as they complete, which takes only progress once their receives are matched
 * (MPICH too progresses before it gives up; several threads' sends of large messages fill the
 * buffer while the first are still in flight). Polls while any is in flight, for a bounded
 * time: one whose receive is never posted would never give its space back (lock held). */
static bool bsend_wait_fit(bsend_buf_t *b, size_t len, bsend_seg_t ***at, size_t *off)
{
    if (bsend_fit(b, len, at, off))
        return true;
    double t0 = progress_now_us();
    while (len <= b->size && b->segs && progress_now_us() - t0 < BSEND_ROOM_WAIT_MS * 1e3) {
        progress_poll(&rmp_ctx);
        bsend_reap(&rmp_ctx, b);
        if (bsend_fit(b, len, at, off))
            return true;
    }
    return false;
}

/* Room for the message in b (NULL: none attached): its segment, with s->own allocated in an
 * automatic buffer, linked in at *at by the caller; NULL and the error in *rc otherwise. */
static bsend_seg_t *bsend_room(bsend_buf_t *b, size_t bytes, int dst, bsend_seg_t ***at, int *rc)
{
    size_t off;
    *rc = RMP_ERR_BUFFER;
    if (!b || bytes > SIZE_MAX - RMP_BSEND_OVERHEAD ||
        !bsend_wait_fit(b, bytes + RMP_BSEND_OVERHEAD, at, &off)) {
        core_verbose(&rmp_ctx, "bsend of %zu bytes to rank %d: %s", bytes, dst,
                     b ? "no room left in the attached buffer (wait for earlier buffered "
                         "sends, or attach a larger buffer)"
                       : "no buffer attached (rmp_buffer_attach)");
        return NULL;
    }
    *rc = RMP_ERR_NO_MEM;
    bsend_seg_t *s = calloc(1, sizeof(*s));
    if (s && b->buf == RMP_BUFFER_AUTOMATIC && !(s->own = malloc(bytes ? bytes : 1))) {
        free(s);
        s = NULL;
    }
    if (s)
        *s = (bsend_seg_t){.off = off, .len = bytes + RMP_BSEND_OVERHEAD, .own = s->own};
    return s;
}

int p2p_bsend_locked(comm_t *c, const void *buf, int count, const dtype_t *t, size_t bytes, int dst,
                     int tag, struct rmp_request *user)
{
    rmp_ctx_t *ctx = &rmp_ctx;
    bsend_buf_t *b = c->bsend; /* the communicator's first, then its session's */
    if (!b && c->session >= 1 && c->session <= SESSION_MAX)
        b = ctx->session_bsend[c->session - 1];
    if (!b)
        b = ctx->bsend;
    if (dst == RMP_PROC_NULL)
        return RMP_SUCCESS;
    if (b)
        bsend_reap(ctx, b);
    bsend_reap_dead(ctx);
    bsend_seg_t **at, *s;
    int rc;
    if (!(s = bsend_room(b, bytes, dst, &at, &rc)))
        return rc;
    char *data = s->own ? s->own : b->buf + s->off;
    if (t->contig) {
        if (bytes)
            memcpy(data, buf, bytes);
    } else {
        dtype_pack(t, count, buf, data);
    }
    if ((rc = p2p_isend_locked(c, 0, data, bytes, dst, tag, &s->req))) {
        free(s->own);
        free(s);
        return rc;
    }
    s->seq = b->seq++;
    s->next = *at;
    *at = s;
    user->peer_world = s->req->peer_world;
    user->msg_seq = s->req->msg_seq;
    return RMP_SUCCESS;
}

int rmp_ibsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag, rmp_comm_t comm,
               rmp_request_t *req)
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

int rmp_bsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag, rmp_comm_t comm)
{
    rmp_request_t r;
    int rc = rmp_ibsend(buf, count, type, dest, tag, comm, &r);
    return rc ? rc : rmp_wait(&r, RMP_STATUS_IGNORE);
}

/* ---- attach, detach, flush ---- */

/* Where a buffer is kept: a session's (session > 0, checked by the caller), comm's, or the
 * process's (comm NULL). */
typedef struct bsend_owner {
    comm_t *c;
    int session;
} bsend_owner_t;
static bsend_buf_t **bsend_slot(rmp_ctx_t *ctx, bsend_owner_t o)
{
    return o.session ? &ctx->session_bsend[o.session - 1] : o.c ? &o.c->bsend : &ctx->bsend;
}

/* Attach to the process, a communicator or a session. */
static int bsend_attach(bsend_owner_t o, void *buf, int size, const char *call)
{
    if (buf != RMP_BUFFER_AUTOMATIC && size < 0)
        return RMP_ERR_COUNT;
    if (!buf && size > 0)
        return RMP_ERR_BUFFER;
    bsend_buf_t *b = malloc(sizeof(*b));
    if (!b)
        return RMP_ERR_NO_MEM;
    *b = (bsend_buf_t){.buf = buf, .size = buf == RMP_BUFFER_AUTOMATIC ? 0 : (size_t)size};
    rmp_ctx_t *ctx = &rmp_ctx;
    int rc = RMP_SUCCESS;
    ctx_lock(ctx);
    bsend_buf_t **slot = bsend_slot(ctx, o);
    if (*slot) {
        rc = RMP_ERR_BUFFER;
        core_verbose(ctx, "%s: a buffer is attached already (detach it first)", call);
    } else {
        *slot = b;
        b = NULL;
    }
    ctx_unlock(ctx);
    free(b);
    return rc;
}

/* What a flush waits for: the messages of b buffered before seq, and (a detach) its iflush
 * requests. */
typedef struct bsend_flush {
    bsend_buf_t *b;
    uint64_t seq;
    bool detach;
} bsend_flush_t;

static bool bsend_flushed(void *arg)
{
    bsend_flush_t *f = arg;
    bsend_reap(&rmp_ctx, f->b);
    for (bsend_seg_t *s = f->b->segs; s; s = s->next)
        if (s->seq < f->seq)
            return false;
    return !f->detach || f->b->flushes == 0;
}

static int bsend_detach(bsend_owner_t o, void **buf, int *size)
{
    if (!buf || !size)
        return RMP_ERR_ARG;
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    bsend_buf_t **slot = bsend_slot(ctx, o), *b = *slot;
    *slot = NULL; /* detached at once: a bsend from another thread finds no buffer */
    if (b)
        progress_wait_until(ctx, bsend_flushed, &(bsend_flush_t){b, UINT64_MAX, true});
    ctx_unlock(ctx);
    *buf = b ? b->buf : NULL;
    *size = b ? (int)b->size : 0;
    free(b);
    return RMP_SUCCESS;
}

static int bsend_flush(bsend_owner_t o)
{
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    bsend_buf_t *b = *bsend_slot(ctx, o);
    if (b) /* no buffer: nothing to wait for */
        progress_wait_until(ctx, bsend_flushed, &(bsend_flush_t){b, b->seq, false});
    ctx_unlock(ctx);
    return RMP_SUCCESS;
}

/* An iflush's schedule: done once its messages left (progress.c runs it, lock held). */
static int bsend_iflush_progress(struct rmp_request *r)
{
    bsend_flush_t *f = r->coll;
    if (!bsend_flushed(f))
        return 0;
    f->b->flushes--;
    free(f);
    r->coll = NULL;
    progress_coll_remove(&rmp_ctx, r);
    req_complete(r, RMP_SUCCESS);
    return 1;
}

static int bsend_iflush(bsend_owner_t o, rmp_request_t *req)
{
    if (!req)
        return RMP_ERR_ARG;
    struct rmp_request *r = req_alloc(REQ_COLL);
    bsend_flush_t *f = r ? malloc(sizeof(*f)) : NULL;
    if (!f) {
        if (r)
            req_free(r);
        return RMP_ERR_NO_MEM;
    }
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    r->freeable = true; /* nothing of the program's waits on it: it may be freed */
    rmp_ctx_t *ctx = &rmp_ctx;
    *req = req_handle(r);
    ctx_lock(ctx);
    bsend_buf_t *b = *bsend_slot(ctx, o);
    *f = (bsend_flush_t){b, b ? b->seq : 0, false};
    if (!b || bsend_flushed(f)) {
        free(f);
        req_complete(r, RMP_SUCCESS);
    } else {
        b->flushes++;
        r->coll = f;
        r->coll_progress = bsend_iflush_progress;
        progress_coll_add(ctx, r);
    }
    ctx_unlock(ctx);
    return RMP_SUCCESS;
}

int rmp_buffer_attach(void *buf, int size)
{
    int rc = ctx_check();
    return rc ? rc : bsend_attach((bsend_owner_t){0}, buf, size, __func__);
}

int rmp_buffer_detach(void **buf, int *size)
{
    int rc = ctx_check();
    return rc ? rc : bsend_detach((bsend_owner_t){0}, buf, size);
}

int rmp_buffer_flush(void)
{
    int rc = ctx_check();
    return rc ? rc : bsend_flush((bsend_owner_t){0});
}

int rmp_buffer_iflush(rmp_request_t *req)
{
    int rc = ctx_check();
    return rc ? rc : bsend_iflush((bsend_owner_t){0}, req);
}

/* A communicator's buffer calls: comm must be valid (RMP_ERR_COMM). */
static int bsend_comm(rmp_comm_t comm, comm_t **c)
{
    int rc = ctx_check();
    if (!rc && !(*c = comm_get(comm)))
        rc = RMP_ERR_COMM;
    return rc;
}

int rmp_comm_attach_buffer(rmp_comm_t comm, void *buf, int size)
{
    comm_t *c;
    int rc = bsend_comm(comm, &c);
    return rc ? rc : bsend_attach((bsend_owner_t){c, 0}, buf, size, __func__);
}

int rmp_comm_detach_buffer(rmp_comm_t comm, void **buf, int *size)
{
    comm_t *c;
    int rc = bsend_comm(comm, &c);
    return rc ? rc : bsend_detach((bsend_owner_t){c, 0}, buf, size);
}

int rmp_comm_flush_buffer(rmp_comm_t comm)
{
    comm_t *c;
    int rc = bsend_comm(comm, &c);
    return rc ? rc : bsend_flush((bsend_owner_t){c, 0});
}

int rmp_comm_iflush_buffer(rmp_comm_t comm, rmp_request_t *req)
{
    comm_t *c;
    int rc = bsend_comm(comm, &c);
    return rc ? rc : bsend_iflush((bsend_owner_t){c, 0}, req);
}

/* A session's buffer calls: session must be live (RMP_ERR_SESSION, as every session call). */
static int bsend_session(rmp_session_t session, bsend_owner_t *o)
{
    int rc = ctx_check();
    if (!rc && (session < 1 || session > SESSION_MAX ||
                !(rmp_ctx.session_live & (1ull << (session - 1)))))
        rc = RMP_ERR_SESSION;
    *o = (bsend_owner_t){NULL, session};
    return rc;
}

int rmp_session_attach_buffer(rmp_session_t session, void *buf, int size)
{
    bsend_owner_t o;
    int rc = bsend_session(session, &o);
    return rc ? rc : bsend_attach(o, buf, size, __func__);
}

int rmp_session_detach_buffer(rmp_session_t session, void **buf, int *size)
{
    bsend_owner_t o;
    int rc = bsend_session(session, &o);
    return rc ? rc : bsend_detach(o, buf, size);
}

int rmp_session_flush_buffer(rmp_session_t session)
{
    bsend_owner_t o;
    int rc = bsend_session(session, &o);
    return rc ? rc : bsend_flush(o);
}

int rmp_session_iflush_buffer(rmp_session_t session, rmp_request_t *req)
{
    bsend_owner_t o;
    int rc = bsend_session(session, &o);
    return rc ? rc : bsend_iflush(o, req);
}
