/* am.c — active messages: one-sided operations applied by the target's progress (PKT_RMA). */
#include "rma.h"

void rma_am_init(rmp_ctx_t *c)
{
    (void)c;
}

int rma_am_put(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs,
               const void *packed, size_t bytes)
{
    (void)w, (void)r, (void)off, (void)pcs, (void)npcs, (void)packed, (void)bytes;
    return RMP_ERR_NOT_SUPPORTED;
}

int rma_am_get(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, void *dst,
               size_t bytes)
{
    (void)w, (void)r, (void)off, (void)pcs, (void)npcs, (void)dst, (void)bytes;
    return RMP_ERR_NOT_SUPPORTED;
}

int rma_am_acc(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, dt_base_t base,
               rmp_op_t op, const void *packed, size_t bytes, void *result,
               const void *compare)
{
    (void)w, (void)r, (void)off, (void)pcs, (void)npcs, (void)base, (void)op, (void)packed;
    (void)bytes, (void)result, (void)compare;
    return RMP_ERR_NOT_SUPPORTED;
}

int rma_am_lock(win_t *w, int r, rma_lock_t type)
{
    (void)w, (void)r, (void)type;
    return RMP_ERR_NOT_SUPPORTED;
}

int rma_am_unlock(win_t *w, int r)
{
    (void)w, (void)r;
    return RMP_ERR_NOT_SUPPORTED;
}

int rma_am_flush(win_t *w, int r)
{
    (void)w, (void)r;
    return RMP_ERR_NOT_SUPPORTED;
}

int rma_am_register(win_t *w)
{
    (void)w;
    return RMP_SUCCESS;
}

void rma_am_unregister(win_t *w)
{
    (void)w;
}
