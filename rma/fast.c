/* fast.c — the short path of the commonest one-sided calls (OSU's loops, shared counters):
 * put, get, accumulate, get_accumulate, fetch_and_op and compare_and_swap with one predefined
 * type on every side, the same count, a static window whose memory (put/get) or atomic
 * domain (accumulates) is mapped here, no request. Predefined handles (below
 * DT_FIRST_DERIVED) name descriptors that never change, so the type checks are a compare of
 * handles and one table read; the range is one multiply and one compare against the target's
 * size. Whatever does not fit, and every error, goes to the general path (ops.c), which checks
 * everything again and reports it: this file decides nothing ops.c would decide otherwise.
 * A put or get copies outside the runtime lock: the mapping lives as long as the window. */
#include <string.h>

#include "rma.h"

/* The predefined type h (count elements, count > 0) if it fits a short path: NULL otherwise. */
static const dtype_t *fast_type(rmp_datatype_t h, int count)
{
    if (h <= 0 || h >= DT_FIRST_DERIVED || count <= 0)
        return NULL;
    const dtype_t *dt = dtype_get(h, true);
    return dt && dt->builtin && dt->contig && dt->base != DT_NONE ? dt : NULL;
}

static bool fast_buf(const void *p)
{
    return p && p != RMP_IN_PLACE;
}

/* Window h's target r at disp for bytes, in a static window: its record and the byte offset,
 * or NULL (general path). */
static rma_target_t *fast_target(rmp_win_t h, int r, ptrdiff_t disp, size_t bytes, win_t **wp,
                                 uint64_t *off)
{
    win_t *w = ctx_check() ? NULL : win_lookup(h);
    if (!w || r < 0 || r >= w->size || w->flavor == RMP_WIN_FLAVOR_DYNAMIC)
        return NULL;
    rma_target_t *t = &w->t[r];
    ptrdiff_t at;
    if (__builtin_mul_overflow(disp, (ptrdiff_t)t->disp_unit, &at) || at < 0 ||
        (int64_t)bytes > t->size - at)
        return NULL;
    *wp = w;
    *off = (uint64_t)at;
    return t;
}

/* Lock held: may the operation go now, with nothing to report (epoch open, no earlier error,
 * the peer alive, no profile to feed)? */
static bool fast_may(win_t *w, int r)
{
    rmp_ctx_t *c = &rmp_ctx;
    const rma_target_t *t = &w->t[r];
    bool epoch = t->lock != RMA_LK_NONE || !rma_epoch_check(w, r, false); /* locked: inline */
    return epoch && !t->error && !c->peers[t->world].failed && !c->prof;
}

/* The types compare-and-swap takes (MPI-3.1 11.3.4: C integer, Fortran integer, logical,
 * byte): the same set on the fast path and the checked one (ops.c). */
bool rma_cas_type(dt_base_t b)
{
    switch (b) {
    case DT_INT8: case DT_INT16: case DT_INT32: case DT_INT64: case DT_UINT8: case DT_UINT16:
    case DT_UINT32: case DT_UINT64: case DT_BYTE: case DT_C_BOOL: case DT_WCHAR: case DT_LOGICAL:
        return true;
    default:
        return false;
    }
}

bool rma_fast_move(bool put, void *origin, int count, rmp_datatype_t type, int target,
                   ptrdiff_t disp, int tcount, rmp_datatype_t ttype, rmp_win_t win, int *err)
{
    const dtype_t *dt = type == ttype && count == tcount ? fast_type(type, count) : NULL;
    win_t *w;
    uint64_t off;
    size_t bytes = dt ? (size_t)count * dt->size : 0;
    rma_target_t *t = dt && fast_buf(origin) ? fast_target(win, target, disp, bytes, &w, &off)
                                             : NULL;
    if (!t || t->data_path != RMA_DIRECT)
        return false;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    bool may = fast_may(w, target);
    ctx_unlock(c);
    if (!may)
        return false;
    if (put)
        memcpy(t->mapped + off, origin, bytes);
    else
        memcpy(origin, t->mapped + off, bytes);
    *err = RMP_SUCCESS;
    return true;
}

bool rma_fast_acc(const void *origin, void *result, const void *compare, int count,
                  rmp_datatype_t type, int target, ptrdiff_t disp, rmp_op_t op, rmp_win_t win,
                  int *err)
{
    const dtype_t *dt = fast_type(type, count);
    if (!dt || (result && !fast_buf(result)) || (op != RMP_NO_OP && !fast_buf(origin)))
        return false;
    if (compare ? !rma_cas_type(dt->base) || count != 1
                : op != RMP_REPLACE && (op != RMP_NO_OP || !result) &&
                      op_builtin_check(op, dt->base))
        return false; /* NO_OP is get_accumulate's only; user ops are refused by ops.c */
    win_t *w;
    uint64_t off;
    size_t bytes = (size_t)count * dt->size;
    if (!fast_target(win, target, disp, bytes, &w, &off) || w->amo_path != RMA_DIRECT)
        return false;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    bool may = fast_may(w, target);
    rma_piece_t one = {0, bytes};
    if (may) /* blocking on a DIRECT domain: complete at the target on return */
        *err = rma_amo(w, target, off, &one, 1, dt->base, op, origin, bytes, result, compare);
    ctx_unlock(c);
    return may;
}
