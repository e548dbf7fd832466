/* amo.c — element-wise atomic accumulates on the window's atomic path, and the completion
 * counters shared by ops.c, amo.c and am.c. */
#include "rma.h"

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

int rma_ctrl_amo(win_t *w, int r, tp_amo_t op, uint64_t operand, uint64_t compare,
                 uint64_t *old)
{
    (void)w, (void)r, (void)op, (void)operand, (void)compare, (void)old;
    return RMP_ERR_NOT_SUPPORTED;
}

int rma_amo(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, dt_base_t base,
            rmp_op_t op, const void *packed, size_t bytes, void *result, const void *compare)
{
    (void)w, (void)r, (void)off, (void)pcs, (void)npcs, (void)base, (void)op, (void)packed;
    (void)bytes, (void)result, (void)compare;
    return RMP_ERR_NOT_SUPPORTED;
}
