/* tpwait.c — what every path of rma/ leans on: the completion counters per target
 * (rma_issued / rma_completed, counted by ops.c, amo.c and am.c, waited for by flush.c) and
 * one blocking transport write, read or atomic (rma_tp_io, rma_tp_amo), retried on AGAIN. */
#include "rma.h"

/* ---- completion counters ---- */

void rma_issued(win_t *w, int r)
{
    rma_target_t *t = &w->t[r];
    t->issued++;
    t->issued_local++;
}

void rma_completed(win_t *w, int r, int err, bool local)
{
    rma_target_t *t = &w->t[r];
    if (err != RMP_SUCCESS && t->error == RMP_SUCCESS)
        t->error = err;
    t->completed_local++;
    if (!local)
        t->completed++;
}

/* ---- blocking transport calls ---- */

typedef struct tp_wait {
    tp_rma_cb_t cb;
    bool done;
    int status;
} tp_wait_t;

static void tp_wait_done(tp_rma_cb_t *cb, int status)
{
    tp_wait_t *tw = (tp_wait_t *)cb;
    tw->status = status;
    tw->done = true;
}

static bool tp_wait_over(void *arg)
{
    return ((tp_wait_t *)arg)->done;
}

/* The outcome of a transport call that may complete later (tw's callback), or be refused for
 * now (RMP_AGAIN: *again, retry after progress). */
static int tp_finish(int rc, tp_wait_t *tw, int world, bool *again)
{
    rmp_ctx_t *c = &rmp_ctx;
    *again = false;
    if (rc == RMP_INPROGRESS) {
        progress_wait_until(c, tp_wait_over, tw);
        return tw->status;
    }
    if (rc == RMP_AGAIN) {
        if (c->peers[world].failed)
            return c->peers[world].failed;
        progress_poll(c);
        *again = true;
    }
    return rc;
}

int rma_tp_amo(tp_t *tp, int world, const tp_rkey_t *key, uint64_t off, tp_amo_t op,
               uint64_t operand, uint64_t compare, uint64_t *old)
{
    for (bool again = true; again;) {
        tp_wait_t tw = {.cb.done = tp_wait_done};
        int rc = tp->rma->atomic(tp, world, op, operand, compare, old, key, off, &tw.cb);
        rc = tp_finish(rc, &tw, world, &again);
        if (!again)
            return rc;
    }
    return RMP_ERR_INTERNAL; /* not reached */
}

int rma_tp_io(tp_t *tp, int world, const tp_rkey_t *key, uint64_t off, void *buf, size_t len,
              bool write)
{
    for (bool again = true; again;) {
        tp_wait_t tw = {.cb.done = tp_wait_done};
        int rc = write ? tp->rma->write(tp, world, buf, len, key, off, &tw.cb)
                       : tp->rma->read(tp, world, buf, len, key, off, &tw.cb);
        rc = tp_finish(rc, &tw, world, &again);
        if (!again)
            return rc;
    }
    return RMP_ERR_INTERNAL; /* not reached */
}
