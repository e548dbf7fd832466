/* type_blocks.c — the block kind's layout (indexed, hindexed, struct, resized; datatype.c):
 * the blocks from a constructor's arguments, then the type's size and bounds from its blocks
 * by the standard's formulas (lb the least lower bound of an element, ub the greatest upper
 * bound). An old type of negative extent (resized to one) walks backwards: each of its
 * elements gets a block of its own at its displacement, since a block steps forwards. */
#include <stdint.h>
#include <stdlib.h>

#include "datatype.h"

/* o's extent, negative ones included (dtype_t.neg_extent). */
static ptrdiff_t signed_extent(const dtype_t *o)
{
    return o->neg_extent ? o->neg_extent : (ptrdiff_t)o->extent;
}

/* The blocks sp makes: one per argument block, one per element for a negative extent. */
static int blocks_count(const dt_spec_t *sp, int *n)
{
    size_t total = 0;
    for (int i = 0; i < sp->n; i++) {
        const dtype_t *o = dtype_get(sp->types ? sp->types[i] : sp->type, false);
        if (sp->counts[i] < 0)
            return RMP_ERR_COUNT;
        if (!o)
            return RMP_ERR_TYPE;
        total += o->neg_extent && sp->counts[i] > 1 ? (size_t)sp->counts[i] : 1;
    }
    if (total > INT32_MAX)
        return RMP_ERR_COUNT;
    *n = (int)total;
    return RMP_SUCCESS;
}

int dtype_blocks_fill(const dt_spec_t *sp, dtype_t *t)
{
    int n = 0, err = blocks_count(sp, &n);
    if (err)
        return err;
    if (!(t->blocks = malloc(sizeof(dt_block_t) * (size_t)(n ? n : 1))))
        return RMP_ERR_NO_MEM;
    t->nblocks = n;
    for (int i = 0, k = 0; i < sp->n; i++) {
        rmp_datatype_t old = sp->types ? sp->types[i] : sp->type;
        ptrdiff_t ext = signed_extent(dtype_get(old, false)), d = 0;
        if (sp->disps)
            d = sp->disps[i];
        else if (__builtin_mul_overflow((ptrdiff_t)sp->idisps[i], ext, &d))
            return RMP_ERR_COUNT;
        if (ext >= 0 || sp->counts[i] <= 1) {
            t->blocks[k++] = (dt_block_t){.disp = d, .count = sp->counts[i], .old = old};
            continue;
        }
        for (int j = 0; j < sp->counts[i]; j++) { /* backwards: element j at d + j * ext */
            ptrdiff_t at;
            if (__builtin_mul_overflow((ptrdiff_t)j, ext, &at) ||
                __builtin_add_overflow(at, d, &at))
                return RMP_ERR_COUNT;
            t->blocks[k++] = (dt_block_t){.disp = at, .count = 1, .old = old};
        }
    }
    return RMP_SUCCESS;
}

/* The span of block k of o (count > 0): [*lo, *hi) of its elements' bounds, and the reach
 * of its data [*tlo, *thi]. Elements step by o's extent (count is 1 when it is negative). */
static int block_bounds(const dt_block_t *k, const dtype_t *o, ptrdiff_t *lo, ptrdiff_t *hi,
                        ptrdiff_t *tlo, ptrdiff_t *thi)
{
    ptrdiff_t span;
    if (__builtin_mul_overflow((ptrdiff_t)k->count, signed_extent(o), &span) ||
        __builtin_add_overflow(k->disp, o->lb, lo) || __builtin_add_overflow(*lo, span, hi))
        return RMP_ERR_COUNT;
    /* the data: from the first element's true_lb to the last one's true_ub (no overflow:
     * both lie within the span widened by the old type's own reach, bounded above) */
    *tlo = k->disp + o->true_lb;
    *thi = k->disp + (ptrdiff_t)(k->count - 1) * signed_extent(o) + o->true_ub;
    return RMP_SUCCESS;
}

/* The type's bounds: lb, and the extent (negative: dtype_t.neg_extent). */
static int set_extent(dtype_t *t, ptrdiff_t lo, ptrdiff_t hi)
{
    ptrdiff_t ext;
    if (__builtin_sub_overflow(hi, lo, &ext))
        return RMP_ERR_COUNT;
    t->lb = lo;
    t->extent = ext < 0 ? 0 : (size_t)ext;
    t->neg_extent = ext < 0 ? ext : 0;
    return RMP_SUCCESS;
}

/* Spans and sizes stay within PTRDIFF_MAX (RMP_ERR_COUNT otherwise); a block's type must
 * exist (RMP_ERR_TYPE). Empty blocks count for nothing, as in MPI. */
int dtype_blocks_layout(dtype_t *t)
{
    size_t size = 0, bytes;
    ptrdiff_t lo = PTRDIFF_MAX, hi = PTRDIFF_MIN, tlo = PTRDIFF_MAX, thi = PTRDIFF_MIN;
    dt_base_t base = DT_NONE;
    bool mixed = false, any = false;
    t->align = 1;
    t->sticky = false;
    for (int b = 0; b < t->nblocks; b++) {
        const dt_block_t *k = &t->blocks[b];
        const dtype_t *o = dtype_get(k->old, false);
        ptrdiff_t l, h, dl, dh;
        if (!o)
            return RMP_ERR_TYPE;
        if (k->count == 0)
            continue;
        t->align = o->align > t->align ? o->align : t->align;
        t->sticky |= o->sticky;
        if (__builtin_mul_overflow((size_t)k->count, o->size, &bytes) ||
            __builtin_add_overflow(size, bytes, &size) || size > PTRDIFF_MAX ||
            block_bounds(k, o, &l, &h, &dl, &dh))
            return RMP_ERR_COUNT;
        lo = l < lo ? l : lo;
        hi = h > hi ? h : hi;
        if (o->size > 0) { /* types without data (an empty darray part) bound no data */
            tlo = dl < tlo ? dl : tlo;
            thi = dh > thi ? dh : thi;
        }
        mixed |= any && o->base != base;
        base = o->base;
        any = true;
    }
    t->true_lb = size ? tlo : 0;
    t->true_ub = size ? thi : 0;
    if (set_extent(t, any ? lo : 0, any ? hi : 0))
        return RMP_ERR_COUNT;
    const dtype_t *first = t->nblocks ? dtype_get(t->blocks[0].old, false) : NULL;
    t->in_use = true;
    t->base = mixed ? DT_NONE : base;
    t->size = size;
    t->contig = !any || (t->nblocks == 1 && t->blocks[0].disp == 0 && first->contig &&
                         t->lb == 0 && !t->neg_extent && t->extent == size);
    return RMP_SUCCESS;
}
