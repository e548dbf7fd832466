/* type_build.c — construction of derived types: the vector kind (contiguous, vector: count
 * blocks of blocklen `old` elements, stride apart; contiguous(n) is one block of n), the block
 * kind (indexed, hindexed, struct, resized: each block `count` elements of its own type at a
 * byte displacement), their construction records, and commit. */

#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype.h"
#include "type_env.h"

/* Fill t as `count` blocks of `blocklen` o-elements, `stride` o-extents apart. Sizes are
 * bounded by PTRDIFF_MAX so offsets stay valid pointer arithmetic. */
static int dt_layout(dtype_t *t, int count, int blocklen, int stride, const dtype_t *o)
{
    size_t n, size, span, extent = 0;
    if (o->neg_extent) /* see dtype_t.neg_extent */
        return RMP_ERR_ARG;
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
    ptrdiff_t last = 0; /* offset of the last old element: extent bounds it */
    if (count > 0 && blocklen > 0)
        last = ((ptrdiff_t)(count - 1) * stride + (blocklen - 1)) * (ptrdiff_t)o->extent;
    bool empty = count == 0 || blocklen == 0 || o->size == 0;
    *t = (dtype_t){.in_use = true,
                   .base = o->base,
                   .size = size,
                   .extent = extent,
                   .lb = count > 0 ? o->lb : 0,
                   .true_lb = empty ? 0 : o->true_lb,
                   .true_ub = empty ? 0 : last + o->true_ub,
                   .contig = o->contig && (count <= 1 || stride == blocklen),
                   .align = o->align,
                   .sticky = o->sticky,
                   .count = count,
                   .blocklen = blocklen,
                   .stride = stride};
    return RMP_SUCCESS;
}

/* The vector kind: its stride is never negative (rmp_type_vector lays a negative one out as
 * blocks), so every block lies at or after the start of the element, which keeps extent and
 * pointer arithmetic simple. */
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
        t.old = old;
        err = dtype_store(&t, newtype);
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

/* The record of a constructor's arguments (type_env.h): ni ints (the listed ones first, then
 * n from each of arr1 and arr2), na addresses, one type or one per address. NULL: no memory. */
static dt_env_t *dt_env(int combiner, int ni, const int *head, int nhead, const int *arr1,
                        const int *arr2, int n, const ptrdiff_t *addrs, int na,
                        const rmp_datatype_t *types, int nt)
{
    dt_env_t *e = dtype_env_alloc(combiner, ni, na, nt);
    if (!e)
        return NULL;
    if (nhead > 0)
        memcpy(e->ints, head, sizeof(int) * (size_t)nhead);
    if (arr1 && n > 0)
        memcpy(e->ints + nhead, arr1, sizeof(int) * (size_t)n);
    if (arr2 && n > 0)
        memcpy(e->ints + nhead + n, arr2, sizeof(int) * (size_t)n);
    if (na > 0)
        memcpy(e->addrs, addrs, sizeof(ptrdiff_t) * (size_t)na);
    if (nt > 0)
        memcpy(e->types, types, sizeof(rmp_datatype_t) * (size_t)nt);
    return e;
}

static int vector_backwards(int count, int blocklen, int stride, rmp_datatype_t old,
                            rmp_datatype_t *newtype);

/* Whether old exists with a negative extent: its repetitions go backwards (vector_backwards). */
static bool dt_backwards(rmp_datatype_t old)
{
    const dtype_t *o = dtype_get(old, false);
    return o && o->neg_extent;
}

int rmp_type_contiguous(int count, rmp_datatype_t old, rmp_datatype_t *newtype)
{
    int rc = count > 1 && newtype && dt_backwards(old)
                 ? vector_backwards(1, count, 0, old, newtype)
                 : dt_create(1, count, count, old, newtype);
    if (rc)
        return rc;
    int a[] = {count};
    return dtype_env_attach(rc, newtype,
                            dt_env(RMP_COMBINER_CONTIGUOUS, 1, a, 1, NULL, NULL, 0, NULL, 0,
                                   &old, 1));
}

/* A negative stride (legal MPI: the blocks go backwards in memory, as MPICH's DTPools types
 * and sendself use) or an old type of negative extent is laid out as the block kind, one
 * block per vector block at its offset in extents of old, since the vector kind walks
 * forwards only; the record still says VECTOR (or CONTIGUOUS) with the caller's arguments. */
static int vector_backwards(int count, int blocklen, int stride, rmp_datatype_t old,
                            rmp_datatype_t *newtype)
{
    int *lens = malloc(sizeof(int) * (size_t)count), *at = malloc(sizeof(int) * (size_t)count);
    int rc = lens && at ? RMP_SUCCESS : RMP_ERR_NO_MEM;
    for (int i = 0; !rc && i < count; i++) {
        lens[i] = blocklen;
        if (__builtin_mul_overflow(i, stride, &at[i]))
            rc = RMP_ERR_COUNT;
    }
    if (!rc)
        rc = rmp_type_indexed(count, lens, at, old, newtype);
    free(lens);
    free(at);
    return rc;
}

int rmp_type_vector(int count, int blocklen, int stride, rmp_datatype_t old,
                    rmp_datatype_t *newtype)
{
    bool back = (stride < 0 && count > 1) || (count > 0 && blocklen > 0 && dt_backwards(old));
    int rc = back && newtype && blocklen >= 0
                 ? vector_backwards(count, blocklen, stride, old, newtype)
                 : dt_create(count, blocklen, stride < 0 ? 0 : stride, old, newtype);
    if (rc)
        return rc;
    int a[] = {count, blocklen, stride};
    return dtype_env_attach(rc, newtype,
                            dt_env(RMP_COMBINER_VECTOR, 3, a, 3, NULL, NULL, 0, NULL, 0, &old,
                                   1));
}

/* ---- block kind: indexed, hindexed, struct, resized ---- */

/* A struct's extent rounded up to its strictest member alignment: {int, char} is 8 bytes
 * apart in an array, as sizeof says, so that count > 1 of them (or a contiguous type of them)
 * lands where the C array's elements are. Not after a resize anywhere inside (sticky). */
static int dt_struct_pad(dtype_t *t)
{
    size_t a = t->align, r = a > 1 ? t->extent % a : 0;
    if (t->sticky || r == 0)
        return RMP_SUCCESS;
    if (__builtin_add_overflow(t->extent, a - r, &t->extent) || t->extent > PTRDIFF_MAX)
        return RMP_ERR_COUNT;
    t->contig = false; /* the padding is a gap */
    return RMP_SUCCESS;
}

static int dt_blocks_create(const dt_spec_t *sp, rmp_datatype_t *newtype)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!newtype || sp->n < 0 || (sp->n > 0 && (!sp->counts || (!sp->disps && !sp->idisps))))
        return RMP_ERR_ARG;
    dtype_t t = {0};
    ctx_lock(&rmp_ctx);
    err = dtype_blocks_fill(sp, &t);
    if (!err && sp->n == 0 && !sp->structure && !dtype_get(sp->type, false))
        err = RMP_ERR_TYPE;
    if (!err)
        err = dtype_blocks_layout(&t);
    if (!err && sp->structure)
        err = dt_struct_pad(&t);
    if (!err && sp->resize) {
        t.lb = sp->lb;
        t.neg_extent = sp->extent < 0 ? sp->extent : 0; /* see dtype_t.neg_extent */
        t.extent = sp->extent < 0 ? 0 : (size_t)sp->extent;
        t.contig = t.contig && sp->lb == 0 && sp->extent >= 0 && (size_t)sp->extent == t.size;
        t.sticky = true;
    }
    if (!err)
        err = dtype_store(&t, newtype);
    ctx_unlock(&rmp_ctx);
    if (err)
        free(t.blocks);
    return err;
}

int rmp_type_indexed(int count, const int blocklens[], const int displs[], rmp_datatype_t old,
                     rmp_datatype_t *newtype)
{
    dt_spec_t sp = {.n = count, .counts = blocklens, .idisps = displs, .type = old};
    int rc = dt_blocks_create(&sp, newtype);
    if (rc)
        return rc;
    return dtype_env_attach(rc, newtype,
                            dt_env(RMP_COMBINER_INDEXED, 2 * count + 1, &count, 1, blocklens,
                                   displs, count, NULL, 0, &old, 1));
}

int rmp_type_create_hindexed(int count, const int blocklens[], const ptrdiff_t displs[],
                             rmp_datatype_t old, rmp_datatype_t *newtype)
{
    dt_spec_t sp = {.n = count, .counts = blocklens, .disps = displs, .type = old};
    int rc = dt_blocks_create(&sp, newtype);
    if (rc)
        return rc;
    return dtype_env_attach(rc, newtype,
                            dt_env(RMP_COMBINER_HINDEXED, count + 1, &count, 1, blocklens, NULL,
                                   count, displs, count, &old, 1));
}

int rmp_type_create_struct(int count, const int blocklens[], const ptrdiff_t displs[],
                           const rmp_datatype_t types[], rmp_datatype_t *newtype)
{
    if (count > 0 && !types)
        return RMP_ERR_ARG;
    dt_spec_t sp = {.n = count, .counts = blocklens, .disps = displs, .types = types,
                    .structure = true};
    int rc = dt_blocks_create(&sp, newtype);
    if (rc)
        return rc;
    return dtype_env_attach(rc, newtype,
                            dt_env(RMP_COMBINER_STRUCT, count + 1, &count, 1, blocklens, NULL,
                                   count, displs, count, types, count));
}

int rmp_type_create_resized(rmp_datatype_t old, ptrdiff_t lb, ptrdiff_t extent,
                            rmp_datatype_t *newtype)
{
    static const int one = 1;
    static const ptrdiff_t zero = 0;
    dt_spec_t sp = {.n = 1, .counts = &one, .disps = &zero, .type = old, .resize = true,
                    .lb = lb, .extent = extent}; /* extent < 0: see dtype_t.neg_extent */
    int rc = dt_blocks_create(&sp, newtype);
    if (rc)
        return rc;
    ptrdiff_t a[] = {lb, extent};
    return dtype_env_attach(rc, newtype,
                            dt_env(RMP_COMBINER_RESIZED, 0, NULL, 0, NULL, NULL, 0, a, 2, &old,
                                   1));
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
