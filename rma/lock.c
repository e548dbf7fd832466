/* lock.c — passive target (MPI-3.1 11.5.3): lock/unlock of one target, lock_all/unlock_all.
 * The lock is a word in the target's control block (RMA_CTRL_LOCK) that origins update with
 * the window's atomics (rma_ctrl_amo: CPU atomics in a shared segment, or the transport's),
 * so a target that never calls rmp meanwhile does not stop anyone:
 *   exclusive  CAS 0 -> RMA_LOCK_EXCL
 *   shared     FADD +1; if an exclusive holder was there, FADD -1 and try again
 *   unlock     flush to the target, then FADD of minus what was added
 * Windows whose atomics are active messages lock through the target's progress instead
 * (rma_am_lock: the target grants in arrival order). Waiting for a held lock backs off
 * exponentially up to a millisecond, progressing (my own targets' messages) between tries.
 * lock_all takes a shared lock on every rank at once (not lazily at the first operation). */
#include <time.h>

#include "rma.h"

#define BACKOFF_MAX_NS 1000000L

static void backoff(long *ns)
{
    rmp_ctx_t *c = &rmp_ctx;
    progress_poll(c);
    if (*ns < BACKOFF_MAX_NS)
        *ns = *ns ? *ns * 2 : 1000;
    struct timespec ts = {0, *ns};
    ctx_unlock(c); /* other threads of mine may progress, or unlock, meanwhile */
    nanosleep(&ts, NULL);
    ctx_lock(c);
}

/* One atomic on r's lock word: a CPU atomic right here when the word is mapped (the common
 * case on a node: no call for a load, an add and a store), else the window's atomic path. */
static int word_amo(win_t *w, int r, tp_amo_t op, uint64_t operand, uint64_t *old)
{
    _Atomic uint64_t *word = w->t[r].ctrl;
    if (w->amo_path != RMA_DIRECT || !word)
        return rma_ctrl_amo(w, r, op, operand, 0, old);
    uint64_t zero = 0;
    if (op == TP_AMO_FADD)
        *old = atomic_fetch_add(word + RMA_CTRL_LOCK / 8, operand);
    else if (atomic_compare_exchange_strong(word + RMA_CTRL_LOCK / 8, &zero, operand))
        *old = 0;
    else
        *old = zero;
    return RMP_SUCCESS;
}

static int lock_word(win_t *w, int r, rma_lock_t type)
{
    if (w->amo_path == RMA_AM)
        return rma_am_lock(w, r, type);
    long ns = 0;
    for (;;) {
        uint64_t old;
        int err = type == RMA_LK_EXCL ? word_amo(w, r, TP_AMO_CSWAP, RMA_LOCK_EXCL, &old)
                                      : word_amo(w, r, TP_AMO_FADD, 1, &old);
        if (err)
            return err;
        if (type == RMA_LK_EXCL ? old == 0 : old < RMA_LOCK_EXCL)
            return RMP_SUCCESS;
        if (type == RMA_LK_SHARED) { /* an exclusive holder: take my share back */
            err = word_amo(w, r, TP_AMO_FADD, (uint64_t)-1, &old);
            if (err)
                return err;
        }
        backoff(&ns);
    }
}

static int unlock_word(win_t *w, int r, rma_lock_t type)
{
    if (w->amo_path == RMA_AM)
        return rma_am_unlock(w, r);
    uint64_t old, minus = type == RMA_LK_EXCL ? (uint64_t)0 - RMA_LOCK_EXCL : (uint64_t)-1;
    return word_amo(w, r, TP_AMO_FADD, minus, &old);
}

int rmp_win_lock(int lock_type, int rank, int assert_mode, rmp_win_t win)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (lock_type != RMP_LOCK_SHARED && lock_type != RMP_LOCK_EXCLUSIVE)
        err = RMP_ERR_ARG;
    else if (rank == RMP_PROC_NULL)
        err = RMP_SUCCESS;
    else if (rank < 0 || rank >= w->size)
        err = RMP_ERR_RANK;
    /* a fence that opened an epoch nobody used yields to a lock (MPI-3.1 11.5.1: the fence
     * starts an epoch only if RMA calls follow it) */
    else if ((w->access != RMA_EP_NONE && w->access != RMA_EP_LOCK &&
              w->access != RMA_EP_FENCE) ||
             w->t[rank].lock != RMA_LK_NONE)
        err = RMP_ERR_RMA_SYNC; /* PSCW, lock_all, or locked already */
    else {
        rma_lock_t type = lock_type == RMP_LOCK_EXCLUSIVE ? RMA_LK_EXCL : RMA_LK_SHARED;
        bool nocheck = assert_mode & RMP_MODE_NOCHECK; /* no conflicting lock, promised */
        if (!nocheck)
            err = lock_word(w, rank, type);
        if (!err) {
            w->t[rank].lock = type;
            w->t[rank].lock_nocheck = nocheck;
            w->access = RMA_EP_LOCK;
            w->fence_open = false;
            w->nlocks++;
        }
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

/* Flush to r and give its lock back (lock held). */
static int release(win_t *w, int r)
{
    rma_target_t *t = &w->t[r];
    int err = rma_idle(w, r) ? RMP_SUCCESS : rma_flush_target(w, r, false);
    if (!t->lock_nocheck) {
        int e = unlock_word(w, r, t->lock);
        err = err ? err : e;
    }
    t->lock = RMA_LK_NONE;
    t->lock_nocheck = false;
    return err;
}

int rmp_win_unlock(int rank, rmp_win_t win)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (rank == RMP_PROC_NULL)
        err = RMP_SUCCESS;
    else if (rank < 0 || rank >= w->size)
        err = RMP_ERR_RANK;
    else if (w->access != RMA_EP_LOCK || w->t[rank].lock == RMA_LK_NONE)
        err = RMP_ERR_RMA_SYNC; /* not locked (or under lock_all: unlock_all ends it) */
    else {
        err = release(w, rank);
        if (--w->nlocks == 0)
            w->access = RMA_EP_NONE;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_win_lock_all(int assert_mode, rmp_win_t win)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (w->access != RMA_EP_NONE && w->access != RMA_EP_FENCE) { /* as in rmp_win_lock */
        ctx_unlock(&rmp_ctx);
        return RMP_ERR_RMA_SYNC;
    }
    bool nocheck = assert_mode & RMP_MODE_NOCHECK;
    int r = 0;
    for (; r < w->size && !err; r++) {
        if (!nocheck)
            err = lock_word(w, r, RMA_LK_SHARED);
        if (!err) {
            w->t[r].lock = RMA_LK_SHARED;
            w->t[r].lock_nocheck = nocheck;
        }
    }
    if (err) /* give back what was taken: the epoch did not open */
        for (int k = 0; k < r - 1; k++)
            release(w, k);
    else {
        w->access = RMA_EP_LOCK_ALL;
        w->fence_open = false;
        w->nlocks = w->size;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_win_unlock_all(rmp_win_t win)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (w->access != RMA_EP_LOCK_ALL) {
        ctx_unlock(&rmp_ctx);
        return RMP_ERR_RMA_SYNC;
    }
    for (int r = 0; r < w->size; r++) {
        int e = release(w, r);
        err = err ? err : e;
    }
    w->access = RMA_EP_NONE;
    w->nlocks = 0;
    ctx_unlock(&rmp_ctx);
    return err;
}
