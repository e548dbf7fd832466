/* flush.c — completion and the epoch check (MPI-3.1 11.5.4): whether an operation may go to
 * a target now (rma_epoch_check, on every operation), and flush, flush_local, their _all forms
 * and win_sync. Completion is counted per target (rma_issued / rma_completed): to flush a
 * target is to progress until its counts meet. Every synchronization mode ends its epochs
 * through rma_flush_target (fence.c, pscw.c, lock.c), which also finishes what ops.c deferred
 * until a target's operations complete (unpacking a get, completing a request). */
#include <stdlib.h>

#include "rma.h"

/* ---- deferred completion ---- */
typedef struct rma_defer {
    struct rma_defer *next;
    win_t *w;
    int r;
    void *tmp;             /* freed when done */
    const dtype_t *dt;     /* non-NULL: unpack tmp (bytes) into user as count elements */
    int count;
    void *user;
    size_t bytes;
    struct rmp_request *req; /* non-NULL: completed then (on coll_active meanwhile) */
} rma_defer_t;

static bool defer_ready(const win_t *w, int r)
{
    return w->t[r].completed == w->t[r].issued;
}

static void defer_finish(rma_defer_t *d)
{
    win_t *w = d->w;
    for (rma_defer_t **p = &w->defer; *p; p = &(*p)->next)
        if (*p == d) {
            *p = d->next;
            break;
        }
    if (d->dt)
        dtype_unpack(d->dt, d->count, d->tmp, d->bytes, d->user);
    free(d->tmp);
    if (d->req) {
        progress_coll_remove(&rmp_ctx, d->req);
        d->req->coll = NULL;
        req_complete(d->req, w->t[d->r].error);
    }
    free(d);
}

void rma_defer_run(win_t *w, int r)
{
    rma_defer_t *d = w->defer, *nx;
    for (; d; d = nx) {
        nx = d->next;
        if (d->r == r)
            defer_finish(d);
    }
}

/* A request's share of progress: done once its target's operations all completed. Only its
 * own record is finished here (progress_poll walks the list it sits on). */
static int defer_poll(struct rmp_request *rq)
{
    rma_defer_t *d = rq->coll;
    if (!defer_ready(d->w, d->r))
        return 0;
    defer_finish(d);
    return 1;
}

/* A request already complete (rq NULL: none wanted). */
int rma_req_done_now(rmp_request_t *rq, int err)
{
    if (!rq)
        return err;
    if (err)
        return err;
    struct rmp_request *r = req_alloc(REQ_COLL);
    if (!r)
        return RMP_ERR_NO_MEM;
    r->freeable = true;
    req_complete(r, RMP_SUCCESS);
    *rq = req_handle(r);
    return RMP_SUCCESS;
}

/* Finish later what cannot be finished now; tmp is owned from here on. */
int rma_defer(win_t *w, int r, void *tmp, const dtype_t *dt, int count, void *user,
              size_t bytes, rmp_request_t *rq)
{
    rma_defer_t *d = calloc(1, sizeof(*d));
    struct rmp_request *q = d && rq ? req_alloc(REQ_COLL) : NULL;
    if (!d || (rq && !q)) {
        free(d);
        /* cannot wait in the background: wait here (correct, only slower) */
        int err = rma_flush_target(w, r, false);
        if (dt)
            dtype_unpack(dt, count, tmp, bytes, user);
        free(tmp);
        return rma_req_done_now(rq, err);
    }
    *d = (rma_defer_t){.w = w, .r = r, .tmp = tmp, .dt = dt, .count = count, .user = user,
                       .bytes = bytes, .req = q, .next = w->defer};
    w->defer = d;
    if (q) {
        q->freeable = true;
        q->coll = d;
        q->coll_progress = defer_poll;
        progress_coll_add(&rmp_ctx, q);
        *rq = req_handle(q);
    }
    return RMP_SUCCESS;
}

int rma_epoch_check(win_t *w, int r, bool req)
{
    rma_target_t *t = &w->t[r];
    bool passive = t->lock != RMA_LK_NONE || w->access == RMA_EP_LOCK_ALL;
    if (req) /* request forms: passive target only (MPI-3.1 11.3.5) */
        return passive ? RMP_SUCCESS : RMP_ERR_RMA_SYNC;
    if (passive || (w->access == RMA_EP_FENCE && w->fence_open) ||
        (w->access == RMA_EP_PSCW && t->in_access_group))
        return RMP_SUCCESS;
    return RMP_ERR_RMA_SYNC;
}

typedef struct flush_wait {
    win_t *w;
    int r;
    bool local;
} flush_wait_t;

static bool flushed(void *arg)
{
    flush_wait_t *f = arg;
    rma_target_t *t = &f->w->t[f->r];
    if (rmp_ctx.peers[t->world].failed)
        return true; /* nothing more will come from it: its error is the answer */
    return f->local ? t->completed_local == t->issued_local : t->completed == t->issued;
}

int rma_flush_target(win_t *w, int r, bool local)
{
    rma_target_t *t = &w->t[r];
    if (rma_idle(w, r))
        return RMP_SUCCESS; /* nothing in flight (lock, put to mapped memory, unlock) */
    flush_wait_t f = {w, r, local};
    if (!flushed(&f))
        progress_wait_until(&rmp_ctx, flushed, &f);
    int err = t->error;
    if (!err && t->completed != t->issued && rmp_ctx.peers[t->world].failed)
        err = rmp_ctx.peers[t->world].failed;
    if (t->completed == t->issued)
        rma_defer_run(w, r);
    t->error = RMP_SUCCESS;
    return err;
}

int rma_flush_all(win_t *w, bool local)
{
    int err = RMP_SUCCESS;
    for (int r = 0; r < w->size; r++) {
        int e = rma_flush_target(w, r, local);
        err = err ? err : e;
    }
    return err;
}

/* flush and flush_local: a passive-target epoch to rank (or to all: rank < 0). */
static int flush_call(rmp_win_t win, int rank, bool local)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (rank >= w->size || (rank < 0 && rank != -1 && rank != RMP_PROC_NULL))
        err = RMP_ERR_RANK;
    else if (rank == RMP_PROC_NULL)
        err = RMP_SUCCESS;
    else if (rank >= 0 && rma_epoch_check(w, rank, true))
        err = RMP_ERR_RMA_SYNC;
    else if (rank < 0 && w->access != RMA_EP_LOCK && w->access != RMA_EP_LOCK_ALL)
        err = RMP_ERR_RMA_SYNC;
    else if (rank >= 0)
        err = rma_flush_target(w, rank, local);
    else
        err = rma_flush_all(w, local);
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_win_flush(int rank, rmp_win_t win)
{
    return rank == -1 ? RMP_ERR_RANK : flush_call(win, rank, false);
}

int rmp_win_flush_all(rmp_win_t win)
{
    return flush_call(win, -1, false);
}

int rmp_win_flush_local(int rank, rmp_win_t win)
{
    return rank == -1 ? RMP_ERR_RANK : flush_call(win, rank, true);
}

int rmp_win_flush_local_all(rmp_win_t win)
{
    return flush_call(win, -1, true);
}

int rmp_win_sync(rmp_win_t win)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!win_lookup(win))
        return RMP_ERR_WIN;
    /* the unified model: memory is coherent; what remains is the processor's ordering of my
     * loads and stores against the peers' (shared segments) */
    atomic_thread_fence(memory_order_seq_cst);
    return RMP_SUCCESS;
}
