/* flush.c — completion and the epoch check (MPI-3.1 11.5.4): whether an operation may go to
 * a target now (rma_epoch_check, on every operation), and flush, flush_local, their _all forms
 * and win_sync. Completion is counted per target (rma_issued / rma_completed): to flush a
 * target is to progress until its counts meet. Every synchronization mode ends its epochs
 * through rma_flush_target (fence.c, pscw.c, lock.c). */
#include "rma.h"

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
