/* datatype.c — the datatype table (builtins and derived contiguous/vector types, nested to any
 * depth) and pack/unpack between a type's memory layout and contiguous bytes. A derived type is
 * one vector descriptor over an `old` type: contiguous(n) is stored as a single block of n. */

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype.h"

_Static_assert((int)DT_INT8 == RMP_INT8 && (int)DT_BYTE == RMP_BYTE,
               "builtin handles double as dt_base_t values");

static const size_t base_sizes[DT_NBUILTIN] = {
    [DT_INT8] = 1,  [DT_INT16] = 2,  [DT_INT32] = 4,  [DT_INT64] = 8,
    [DT_UINT8] = 1, [DT_UINT16] = 2, [DT_UINT32] = 4, [DT_UINT64] = 8,
    [DT_FLOAT] = 4, [DT_DOUBLE] = 8, [DT_BYTE] = 1,
};

size_t dtype_base_size(dt_base_t b)
{
    return (b > DT_NONE && b < DT_NBUILTIN) ? base_sizes[b] : 0;
}

int dtype_init(rmp_ctx_t *c)
{
    /* One allocation for the whole capacity: a large calloc maps zero pages lazily, so only
     * the slots in use cost memory, and the table never moves (see datatype.h). */
    dtype_t *tab = calloc(DT_TABLE_CAP, sizeof(*tab));
    if (!tab)
        return RMP_ERR_NO_MEM;
    for (int b = DT_INT8; b < DT_NBUILTIN; b++)
        tab[b] = (dtype_t){.in_use = true,
                           .committed = true,
                           .builtin = true,
                           .base = (dt_base_t)b,
                           .size = base_sizes[b],
                           .extent = base_sizes[b],
                           .contig = true};
    c->dtypes = tab;
    c->ndtypes = DT_FIRST_DERIVED; /* slots handed out so far (high-water mark) */
    return RMP_SUCCESS;
}

void dtype_fini(rmp_ctx_t *c)
{
    free(c->dtypes);
    c->dtypes = NULL;
    c->ndtypes = 0;
}

/* Lock-free on purpose: callers may or may not hold the runtime lock, and the table never
 * moves. A freed type keeps its descriptor (types built on it still need the layout). */
const dtype_t *dtype_get(rmp_datatype_t h, bool need_commit)
{
    const dtype_t *tab = rmp_ctx.dtypes;
    if (!tab || h <= 0 || h >= DT_TABLE_CAP)
        return NULL;
    const dtype_t *t = &tab[h];
    if (!t->in_use || (need_commit && !t->committed))
        return NULL;
    return t;
}

/* A free slot (lock held). Fresh slots first; once all were used, a freed slot that no live
 * type is built on, so reuse comes as late as possible for requests still using a freed type. */
static int dt_alloc_slot(rmp_ctx_t *c)
{
    if (c->ndtypes < DT_TABLE_CAP)
        return c->ndtypes++;
    unsigned char *ref = calloc(DT_TABLE_CAP, 1);
    if (!ref)
        return -1;
    for (int h = DT_FIRST_DERIVED; h < DT_TABLE_CAP; h++) {
        if (!c->dtypes[h].in_use)
            continue;
        for (int o = c->dtypes[h].old; o >= DT_FIRST_DERIVED && !ref[o]; o = c->dtypes[o].old)
            ref[o] = 1;
    }
    int slot = -1;
    for (int h = DT_FIRST_DERIVED; h < DT_TABLE_CAP && slot < 0; h++)
        if (!c->dtypes[h].in_use && !ref[h])
            slot = h;
    free(ref);
    return slot;
}

/* Fill t as `count` blocks of `blocklen` o-elements, `stride` o-extents apart. Sizes are
 * bounded by PTRDIFF_MAX so offsets stay valid pointer arithmetic. */
static int dt_layout(dtype_t *t, int count, int blocklen, int stride, const dtype_t *o)
{
    size_t n, size, span, extent = 0;
    if (count <= 1) /* one block: the stride means nothing, and pack must not step by it */
        stride = blocklen;
    if (__builtin_mul_overflow((size_t)count, (size_t)blocklen, &n) ||
        __builtin_mul_overflow(n, o->size, &size) || size > PTRDIFF_MAX)
        return RMP_ERR_COUNT;
    if (count > 0) {
        if (__builtin_mul_overflow((size_t)(count - 1), (size_t)stride, &span) ||
            __builtin_add_overflow(span, (size_t)blocklen, &span) ||
            __builtin_mul_overflow(span, o->extent, &extent) || extent > PTRDIFF_MAX)
            return RMP_ERR_COUNT;
    }
    *t = (dtype_t){.in_use = true,
                   .base = o->base,
                   .size = size,
                   .extent = extent,
                   .contig = o->contig && (count <= 1 || stride == blocklen),
                   .count = count,
                   .blocklen = blocklen,
                   .stride = stride};
    return RMP_SUCCESS;
}

/* Negative strides are rejected (RMP_ERR_ARG): every block then lies at or after the start
 * of the element, which keeps extent and pointer arithmetic simple. */
static int dt_create(int count, int blocklen, int stride, rmp_datatype_t old,
                     rmp_datatype_t *newtype)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!newtype)
        return RMP_ERR_ARG;
    if (count < 0 || blocklen < 0)
        return RMP_ERR_COUNT;
    if (stride < 0)
        return RMP_ERR_ARG;
    ctx_lock(&rmp_ctx);
    const dtype_t *o = dtype_get(old, false); /* building on an uncommitted type is fine */
    dtype_t t;
    if (!o)
        err = RMP_ERR_TYPE;
    else
        err = dt_layout(&t, count, blocklen, stride, o);
    if (!err) {
        int slot = dt_alloc_slot(&rmp_ctx);
        if (slot < 0) {
            err = RMP_ERR_NO_MEM;
        } else {
            t.old = old;
            rmp_ctx.dtypes[slot] = t;
            *newtype = slot;
        }
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_type_contiguous(int count, rmp_datatype_t old, rmp_datatype_t *newtype)
{
    return dt_create(1, count, count, old, newtype);
}

int rmp_type_vector(int count, int blocklen, int stride, rmp_datatype_t old,
                    rmp_datatype_t *newtype)
{
    return dt_create(count, blocklen, stride, old, newtype);
}

int rmp_type_commit(rmp_datatype_t *type)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!type)
        return RMP_ERR_ARG;
    ctx_lock(&rmp_ctx);
    if (!dtype_get(*type, false))
        err = RMP_ERR_TYPE;
    else
        rmp_ctx.dtypes[*type].committed = true; /* builtins already are: a no-op */
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_type_free(rmp_datatype_t *type)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!type)
        return RMP_ERR_ARG;
    ctx_lock(&rmp_ctx);
    const dtype_t *t = dtype_get(*type, false);
    if (!t || t->builtin) {
        err = RMP_ERR_TYPE;
    } else {
        rmp_ctx.dtypes[*type].in_use = false;
        rmp_ctx.dtypes[*type].committed = false;
        *type = RMP_DATATYPE_NULL;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

/* Size and extent may be asked of uncommitted types (as in MPI). */
static int dt_query(rmp_datatype_t type, size_t *out, bool extent)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!out)
        return RMP_ERR_ARG;
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    *out = extent ? t->extent : t->size;
    return RMP_SUCCESS;
}

int rmp_type_size(rmp_datatype_t type, size_t *size)
{
    return dt_query(type, size, false);
}

int rmp_type_extent(rmp_datatype_t type, size_t *extent)
{
    return dt_query(type, extent, true);
}

int rmp_get_count(const rmp_status_t *status, rmp_datatype_t type, int *count)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!status || !count)
        return RMP_ERR_ARG;
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    if (t->size == 0)
        *count = 0;
    else if (status->count % t->size || status->count / t->size > INT_MAX)
        *count = RMP_UNDEFINED;
    else
        *count = (int)(status->count / t->size);
    return RMP_SUCCESS;
}

/* ---- pack / unpack ---------------------------------------------------------------------- */

typedef enum { DT_PACK, DT_UNPACK } dt_dir_t;

static inline void dt_move(dt_dir_t dir, char *user, char *packed, size_t n)
{
    if (dir == DT_PACK)
        memcpy(packed, user, n);
    else
        memcpy(user, packed, n);
}

/* Walk the first nblk blocks (element e, block b at user + e*extent + b*step); p advances
 * through the packed bytes. N is a constant in the common cases so each copy is inlined; the
 * inner loop has a plain trip count (whole elements, then the blocks of a partial one). */
#define DT_RUNS_LOOP(COPY, N)                                                                      \
    for (size_t e = 0; e <= nblk / per; e++) {                                                     \
        char *u = user + e * t->extent;                                                            \
        size_t m = e < nblk / per ? per : nblk % per;                                              \
        for (size_t b = 0; b < m; b++, u += step, p += (N))                                        \
            COPY;                                                                                  \
    }
#define DT_RUNS(N)                                                                                 \
    do {                                                                                           \
        if (dir == DT_PACK) {                                                                      \
            DT_RUNS_LOOP(memcpy(p, u, (N)), N)                                                     \
        } else {                                                                                   \
            DT_RUNS_LOOP(memcpy(u, p, (N)), N)                                                     \
        }                                                                                          \
    } while (0)

/* A vector over a contiguous old type: every block is one run of blk bytes. Copies `budget`
 * packed bytes (the last block possibly in part). */
static size_t dt_runs(const dtype_t *t, char *user, char *packed, size_t budget, dt_dir_t dir,
                      size_t blk, size_t step)
{
    size_t nblk = budget / blk, per = (size_t)t->count;
    char *p = packed;
    switch (blk) {
    case 1:
        DT_RUNS(1);
        break;
    case 2:
        DT_RUNS(2);
        break;
    case 4:
        DT_RUNS(4);
        break;
    case 8:
        DT_RUNS(8);
        break;
    case 16:
        DT_RUNS(16);
        break;
    default:
        DT_RUNS(blk);
        break;
    }
    size_t rem = budget - nblk * blk;
    if (rem)
        dt_move(dir, user + nblk / per * t->extent + nblk % per * step, p, rem);
    return budget;
}

/* Copy between `count` elements of t at `user` and packed bytes, at most `budget` packed
 * bytes, in packed order; returns the bytes copied. */
static size_t dt_copy(const dtype_t *t, size_t count, char *user, char *packed, size_t budget,
                      dt_dir_t dir)
{
    size_t total;
    if (__builtin_mul_overflow(count, t->size, &total))
        total = SIZE_MAX;
    if (budget > total)
        budget = total;
    if (budget == 0)
        return 0;
    if (t->contig) {
        dt_move(dir, user, packed, budget);
        return budget;
    }
    /* Freed old types keep their slot's descriptor, so no validity check here. */
    const dtype_t *o = &rmp_ctx.dtypes[t->old];
    size_t step = (size_t)t->stride * o->extent;
    if (o->contig)
        return dt_runs(t, user, packed, budget, dir, (size_t)t->blocklen * o->size, step);
    size_t done = 0;
    for (size_t e = 0; done < budget; e++) {
        char *u = user + e * t->extent;
        for (int b = 0; b < t->count && done < budget; b++, u += step)
            done += dt_copy(o, (size_t)t->blocklen, u, packed + done, budget - done, dir);
    }
    return done;
}

void dtype_pack(const dtype_t *t, int count, const void *src, void *dst)
{
    if (count > 0)
        dt_copy(t, (size_t)count, (char *)src, dst, SIZE_MAX, DT_PACK);
}

void dtype_unpack(const dtype_t *t, int count, const void *src, size_t bytes, void *dst)
{
    if (count > 0)
        dt_copy(t, (size_t)count, dst, (char *)src, bytes, DT_UNPACK);
}
