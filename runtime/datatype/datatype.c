/* datatype.c — the datatype table (builtins, the MINLOC/MAXLOC pair types, and derived types
 * nested to any depth) and pack/unpack between a type's memory layout and contiguous bytes. A
 * derived type is either one vector descriptor over an `old` type (contiguous(n) is a single
 * block of n) or a list of blocks, each `count` elements of its own type at a byte
 * displacement (indexed, hindexed, struct, resized). */

#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "datatype.h"
#include "type_env.h"
#include "objmeta.h"

_Static_assert((int)DT_INT8 == RMP_INT8 && (int)DT_BYTE == RMP_BYTE &&
                   (int)DT_2INT == RMP_2INT && (int)DT_SHORT_INT == RMP_SHORT_INT &&
                   (int)DT_PACKED == RMP_PACKED,
               "builtin handles double as dt_base_t values");
_Static_assert((int)DT_LONG_DOUBLE == RMP_LONG_DOUBLE && (int)DT_WCHAR == RMP_WCHAR &&
                   (int)DT_C_BOOL == RMP_C_BOOL && (int)DT_C_FLOAT_COMPLEX == RMP_C_FLOAT_COMPLEX &&
                   (int)DT_C_DOUBLE_COMPLEX == RMP_C_DOUBLE_COMPLEX &&
                   (int)DT_C_LONG_DOUBLE_COMPLEX == RMP_C_LONG_DOUBLE_COMPLEX &&
                   (int)DT_LONG_DOUBLE_INT == RMP_LONG_DOUBLE_INT &&
                   (int)DT_LOGICAL == RMP_LOGICAL && (int)DT_2REAL == RMP_2REAL &&
                   (int)DT_2DOUBLE == RMP_2DOUBLE_PRECISION && DT_NBUILTIN <= DT_FIRST_DERIVED,
               "the predefined types' handles double as dt_base_t values");

/* The pair types' memory layout, as C lays out {T value; int index;}. */
struct pair_fi { float v; int i; };
struct pair_di { double v; int i; };
struct pair_li { long v; int i; };
struct pair_si { short v; int i; };
struct pair_ldi { long double v; int i; };

static const size_t base_sizes[DT_NBUILTIN] = {
    [DT_INT8] = 1,  [DT_INT16] = 2,  [DT_INT32] = 4,  [DT_INT64] = 8,
    [DT_UINT8] = 1, [DT_UINT16] = 2, [DT_UINT32] = 4, [DT_UINT64] = 8,
    [DT_FLOAT] = 4, [DT_DOUBLE] = 8, [DT_BYTE] = 1,
    /* packed records: value, then int */
    [DT_2INT] = 8, [DT_FLOAT_INT] = 8, [DT_DOUBLE_INT] = 12,
    [DT_LONG_INT] = sizeof(long) + 4, [DT_SHORT_INT] = 6,
    [DT_LONG_DOUBLE] = sizeof(long double), [DT_WCHAR] = sizeof(wchar_t),
    [DT_C_BOOL] = sizeof(_Bool), [DT_C_FLOAT_COMPLEX] = sizeof(float _Complex),
    [DT_C_DOUBLE_COMPLEX] = sizeof(double _Complex),
    [DT_C_LONG_DOUBLE_COMPLEX] = sizeof(long double _Complex),
    [DT_LONG_DOUBLE_INT] = sizeof(long double) + 4, [DT_LOGICAL] = 4,
    [DT_2REAL] = 2 * sizeof(float), [DT_2DOUBLE] = 2 * sizeof(double),
    [DT_PACKED] = 1,
};

/* The pairs' value sizes (the index follows it); 0 for a type that is not a pair. */
static const size_t pair_value_sizes[DT_NBUILTIN] = {
    [DT_2INT] = 4, [DT_FLOAT_INT] = 4, [DT_DOUBLE_INT] = 8, [DT_LONG_INT] = sizeof(long),
    [DT_SHORT_INT] = 2, [DT_LONG_DOUBLE_INT] = sizeof(long double), [DT_2REAL] = 4,
    [DT_2DOUBLE] = 8,
};

static const size_t base_extents[DT_NBUILTIN] = {
    [DT_2INT] = 2 * sizeof(int), [DT_FLOAT_INT] = sizeof(struct pair_fi),
    [DT_DOUBLE_INT] = sizeof(struct pair_di), [DT_LONG_INT] = sizeof(struct pair_li),
    [DT_SHORT_INT] = sizeof(struct pair_si), [DT_LONG_DOUBLE_INT] = sizeof(struct pair_ldi),
};

/* The C alignment of each builtin (of the struct, for the pairs). */
static const unsigned short base_aligns[DT_NBUILTIN] = {
    [DT_INT8] = _Alignof(int8_t),   [DT_INT16] = _Alignof(int16_t), [DT_INT32] = _Alignof(int32_t),
    [DT_INT64] = _Alignof(int64_t), [DT_UINT8] = _Alignof(uint8_t), [DT_UINT16] = _Alignof(uint16_t),
    [DT_UINT32] = _Alignof(uint32_t), [DT_UINT64] = _Alignof(uint64_t),
    [DT_FLOAT] = _Alignof(float),   [DT_DOUBLE] = _Alignof(double), [DT_BYTE] = 1,
    [DT_2INT] = _Alignof(int),      [DT_FLOAT_INT] = _Alignof(struct pair_fi),
    [DT_DOUBLE_INT] = _Alignof(struct pair_di), [DT_LONG_INT] = _Alignof(struct pair_li),
    [DT_SHORT_INT] = _Alignof(struct pair_si),
    [DT_LONG_DOUBLE] = _Alignof(long double), [DT_WCHAR] = _Alignof(wchar_t),
    [DT_C_BOOL] = _Alignof(_Bool),  [DT_C_FLOAT_COMPLEX] = _Alignof(float _Complex),
    [DT_C_DOUBLE_COMPLEX] = _Alignof(double _Complex),
    [DT_C_LONG_DOUBLE_COMPLEX] = _Alignof(long double _Complex),
    [DT_LONG_DOUBLE_INT] = _Alignof(struct pair_ldi), [DT_LOGICAL] = _Alignof(int),
    [DT_2REAL] = _Alignof(float),   [DT_2DOUBLE] = _Alignof(double), [DT_PACKED] = 1,
};

/* The pairs as blocks: the value, then the int at its offset. */
#define PAIR(T, VT)                                                                            \
    {{.disp = 0, .count = 1, .old = VT}, {.disp = offsetof(T, i), .count = 1, .old = RMP_INT32}}
static const dt_block_t pair_blocks[DT_NBUILTIN][2] = {
    [DT_2INT] = {{.disp = 0, .count = 2, .old = RMP_INT32}},
    [DT_FLOAT_INT] = PAIR(struct pair_fi, RMP_FLOAT),
    [DT_DOUBLE_INT] = PAIR(struct pair_di, RMP_DOUBLE),
    [DT_LONG_INT] = PAIR(struct pair_li, RMP_LONG), /* a long: 4 bytes in external32 */
    [DT_SHORT_INT] = PAIR(struct pair_si, RMP_INT16),
    [DT_LONG_DOUBLE_INT] = PAIR(struct pair_ldi, RMP_LONG_DOUBLE),
};

/* The named synonyms (rmp.h): each handle's builtin. long and ptrdiff_t by their size here. */
#define DT_LONG_BASE(U) (sizeof(long) == 8 ? DT_##U##INT64 : DT_##U##INT32)
static const dt_base_t synonyms[DT_FIRST_DERIVED] = {
    [RMP_SIGNED_CHAR] = DT_INT8,    [RMP_INT8_T] = DT_INT8,       [RMP_INT16_T] = DT_INT16,
    [RMP_INT32_T] = DT_INT32,       [RMP_INT64_T] = DT_INT64,     [RMP_UINT8_T] = DT_UINT8,
    [RMP_UINT16_T] = DT_UINT16,     [RMP_UINT32_T] = DT_UINT32,   [RMP_UINT64_T] = DT_UINT64,
    [RMP_LONG] = DT_LONG_BASE(),    [RMP_UNSIGNED_LONG] = DT_LONG_BASE(U),
    [RMP_LONG_LONG] = DT_INT64,
    [RMP_AINT] = sizeof(ptrdiff_t) == 8 ? DT_INT64 : DT_INT32,
    [RMP_OFFSET] = DT_INT64,        [RMP_COUNT] = DT_INT64,
    [RMP_C_COMPLEX] = DT_C_FLOAT_COMPLEX,          [RMP_CXX_BOOL] = DT_C_BOOL,
    [RMP_CXX_FLOAT_COMPLEX] = DT_C_FLOAT_COMPLEX,  [RMP_CXX_DOUBLE_COMPLEX] = DT_C_DOUBLE_COMPLEX,
    [RMP_CXX_LONG_DOUBLE_COMPLEX] = DT_C_LONG_DOUBLE_COMPLEX,
    [RMP_INTEGER] = DT_INT32,       [RMP_REAL] = DT_FLOAT,        [RMP_DOUBLE_PRECISION] = DT_DOUBLE,
    [RMP_COMPLEX] = DT_C_FLOAT_COMPLEX,            [RMP_DOUBLE_COMPLEX] = DT_C_DOUBLE_COMPLEX,
    [RMP_CHARACTER] = DT_INT8,      [RMP_INTEGER1] = DT_INT8,     [RMP_INTEGER2] = DT_INT16,
    [RMP_INTEGER4] = DT_INT32,      [RMP_INTEGER8] = DT_INT64,    [RMP_REAL4] = DT_FLOAT,
    [RMP_REAL8] = DT_DOUBLE,        [RMP_COMPLEX8] = DT_C_FLOAT_COMPLEX,
    [RMP_COMPLEX16] = DT_C_DOUBLE_COMPLEX,         [RMP_2INTEGER] = DT_2INT,
    [RMP_LOGICAL1] = DT_C_BOOL,     [RMP_LOGICAL2] = DT_INT16,    [RMP_LOGICAL4] = DT_LOGICAL,
    [RMP_LOGICAL8] = DT_INT64,
};
_Static_assert(RMP_SIGNED_CHAR >= DT_NBUILTIN && RMP_LOGICAL8 < DT_FIRST_DERIVED,
               "the synonyms lie between the builtins and the derived types");

/* A builtin's external32 form by handle (see dt_ext_t): where the standard's size for its
 * name is not the native one. */
static dt_ext_t dt_ext_of(int h)
{
    if ((h == RMP_LONG || h == RMP_UNSIGNED_LONG) && sizeof(long) == 8)
        return h == RMP_LONG ? EXT_INT4 : EXT_UINT4;
    if (h == RMP_WCHAR && sizeof(wchar_t) == 4)
        return EXT_WCHAR2;
    if (LDBL_MANT_DIG != 113 && h == RMP_LONG_DOUBLE)
        return EXT_QUAD;
    if (LDBL_MANT_DIG != 113 &&
        (h == RMP_C_LONG_DOUBLE_COMPLEX || h == RMP_CXX_LONG_DOUBLE_COMPLEX))
        return EXT_QUAD2;
    return EXT_NATIVE;
}

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
    for (int b = DT_INT8; b < DT_NBUILTIN; b++) {
        size_t ext = base_extents[b] ? base_extents[b] : base_sizes[b];
        tab[b] = (dtype_t){.in_use = true,
                           .committed = true,
                           .builtin = true,
                           .base = (dt_base_t)b,
                           .size = base_sizes[b],
                           .extent = ext,
                           .true_ub = (ptrdiff_t)ext,
                           .contig = ext == base_sizes[b],
                           .align = base_aligns[b]};
        if (!tab[b].contig) {
            tab[b].nblocks = 2;
            tab[b].blocks = (dt_block_t *)pair_blocks[b]; /* never freed: builtins stay */
        }
    }
    for (int h = DT_NBUILTIN; h < DT_FIRST_DERIVED; h++)
        if (synonyms[h])
            tab[h] = tab[synonyms[h]]; /* same base, layout and blocks: only the handle differs */
    for (int h = DT_INT8; h < DT_FIRST_DERIVED; h++)
        tab[h].ext = dt_ext_of(h);
    c->dtypes = tab;
    c->dtype_pool = hpool_make(DT_FIRST_DERIVED, DT_TABLE_CAP);
    return RMP_SUCCESS;
}

void dtype_fini(rmp_ctx_t *c)
{
    for (int h = DT_FIRST_DERIVED; c->dtypes && h < hpool_high(&c->dtype_pool); h++) {
        free(c->dtypes[h].blocks);
        dtype_env_free(c->dtypes[h].env);
    }
    free(c->dtypes);
    c->dtypes = NULL;
    hpool_fini(&c->dtype_pool);
}

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

/* The checks of the queries: initialized, outputs given (args_ok), a type that exists
 * (committed or not: size and extent may be asked of uncommitted types, as in MPI). */
static int dt_lookup(rmp_datatype_t type, bool args_ok, const dtype_t **t)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!args_ok)
        return RMP_ERR_ARG;
    *t = dtype_get(type, false);
    return *t ? RMP_SUCCESS : RMP_ERR_TYPE;
}

static int dt_query(rmp_datatype_t type, size_t *out, bool extent)
{
    const dtype_t *t;
    int err = dt_lookup(type, out != NULL, &t);
    if (err)
        return err;
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
    const dtype_t *t;
    int err = dt_lookup(type, status && count, &t);
    if (err)
        return err;
    if (t->size == 0)
        *count = 0;
    else if (status->count % t->size || status->count / t->size > INT_MAX)
        *count = RMP_UNDEFINED;
    else
        *count = (int)(status->count / t->size);
    return RMP_SUCCESS;
}

int rmp_type_get_extent(rmp_datatype_t type, ptrdiff_t *lb, ptrdiff_t *extent)
{
    const dtype_t *t;
    int err = dt_lookup(type, lb && extent, &t);
    if (err)
        return err;
    *lb = t->lb;
    *extent = t->neg_extent ? t->neg_extent : (ptrdiff_t)t->extent;
    return RMP_SUCCESS;
}

/* Basic elements in one whole element of t: O(blocks) per level, never a walk over every
 * repetition (a vector of 2^29 ints must count at once). */
static size_t dt_per(const dtype_t *t)
{
    if (t->builtin && t->nblocks == 0)
        return pair_value_sizes[t->base] ? 2 : 1; /* pairs: value and index */
    if (t->nblocks == 0)
        return (size_t)t->count * (size_t)t->blocklen * dt_per(&rmp_ctx.dtypes[t->old]);
    size_t n = 0;
    for (int b = 0; b < t->nblocks; b++)
        n += (size_t)t->blocks[b].count * dt_per(&rmp_ctx.dtypes[t->blocks[b].old]);
    return n;
}

/* Basic elements in the first `budget` packed bytes of count elements of t: adds them to
 * *elems and returns the bytes they cover (less than budget when it ends inside one). The
 * whole elements the budget covers are counted by one product (dt_per); only the one partial
 * element is entered, and in it the whole blocks are again one product. */
static size_t dt_elems(const dtype_t *t, size_t count, size_t budget, size_t *elems)
{
    if (t->size == 0 || count == 0)
        return 0;
    size_t whole = budget / t->size < count ? budget / t->size : count;
    if (t->builtin && t->nblocks == 0) {
        size_t sz = t->size, vs = pair_value_sizes[t->base];
        bool pair = vs != 0;
        *elems += whole * (pair ? 2 : 1);
        if (pair && whole < count && budget - whole * sz >= vs) { /* ends after a value */
            *elems += 1;
            return whole * sz + vs;
        }
        return whole * sz;
    }
    *elems += whole * dt_per(t);
    size_t done = whole * t->size;
    if (whole == count || done == budget)
        return done;
    /* one partial element */
    size_t rest = budget - done;
    if (t->nblocks == 0) {
        const dtype_t *o = &rmp_ctx.dtypes[t->old];
        size_t bsz = (size_t)t->blocklen * o->size;
        if (bsz == 0)
            return done;
        size_t nb = rest / bsz; /* < t->count: the element is not whole */
        *elems += nb * (size_t)t->blocklen * dt_per(o);
        return done + nb * bsz + dt_elems(o, (size_t)t->blocklen, rest - nb * bsz, elems);
    }
    for (int b = 0; b < t->nblocks && rest > 0; b++) {
        const dt_block_t *k = &t->blocks[b];
        const dtype_t *o = &rmp_ctx.dtypes[k->old];
        size_t got = dt_elems(o, (size_t)k->count, rest, elems);
        done += got;
        rest -= got;
        if (got < (size_t)k->count * o->size)
            return done;
    }
    return done;
}

int rmp_get_elements_x(const rmp_status_t *status, rmp_datatype_t type, long long *count)
{
    const dtype_t *t;
    int err = dt_lookup(type, status && count, &t);
    if (err)
        return err;
    size_t per = t->size ? dt_per(t) : 0, whole = t->size ? status->count / t->size : 0;
    size_t rest = t->size ? status->count % t->size : 0, part = 0;
    size_t covered = dt_elems(t, 1, rest, &part);
    if (covered != rest || (per && whole > (LLONG_MAX - part) / per))
        *count = RMP_UNDEFINED; /* ends inside a basic element, or too many */
    else
        *count = (long long)(whole * per + part);
    return RMP_SUCCESS;
}

int rmp_get_elements(const rmp_status_t *status, rmp_datatype_t type, int *count)
{
    long long n = 0;
    int err = rmp_get_elements_x(status, type, count ? &n : NULL);
    if (!err)
        *count = n > INT_MAX ? RMP_UNDEFINED : (int)n;
    return err;
}

/* A copy of builtin b under a handle of its own, recording env (MPI_Type_create_f90_*: a
 * "predefined-like" type with an F90 combiner). It stays builtin: the same base for the op
 * tables, the same packing, and rmp_type_free refuses it. Caller holds the runtime lock. */
int dtype_named_copy(rmp_datatype_t b, dt_env_t *env, rmp_datatype_t *out)
{
    dtype_t t = rmp_ctx.dtypes[b];
    if (!t.builtin || t.nblocks != 0 || !env)
        return RMP_ERR_TYPE;
    t.env = env;
    return dtype_store(&t, out);
}

int dtype_clone(rmp_datatype_t h, rmp_datatype_t *out)
{
    ctx_lock(&rmp_ctx);
    const dtype_t *src = &rmp_ctx.dtypes[h]; /* a live or freed derived type's descriptor */
    dtype_t t = *src;
    int err = RMP_SUCCESS;
    t.in_use = true;
    t.committed = true; /* as the handle MPI gives back: the type that was used */
    t.blocks = NULL;
    t.env = NULL;
    if (src->nblocks > 0 &&
        !(t.blocks = malloc(sizeof(dt_block_t) * (size_t)src->nblocks)))
        err = RMP_ERR_NO_MEM;
    else if (t.blocks)
        memcpy(t.blocks, src->blocks, sizeof(dt_block_t) * (size_t)src->nblocks);
    if (!err && src->env && !(t.env = dtype_env_copy(src->env)))
        err = RMP_ERR_NO_MEM;
    if (!err)
        err = dtype_store(&t, out);
    ctx_unlock(&rmp_ctx);
    if (err) {
        free(t.blocks);
        dtype_env_free(t.env);
    }
    return err;
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

/* p + off on a user's address: integer arithmetic, since p may be NULL (RMP_BOTTOM: the
 * offsets are then absolute addresses, and NULL + offset is undefined for the compiler). */
#define DT_AT(p, off) ((char *)((uintptr_t)(p) + (uintptr_t)(off)))

/* Walk the first nblk blocks (element e, block b at user + e*extent + b*step); p advances
 * through the packed bytes. N is a constant in the common cases so each copy is inlined; the
 * inner loop has a plain trip count (whole elements, then the blocks of a partial one). */
#define DT_RUNS_LOOP(COPY, N)                                                                      \
    for (size_t e = 0; e <= nblk / per; e++) {                                                     \
        char *u = DT_AT(user, e * t->extent);                                                      \
        size_t m = e < nblk / per ? per : nblk % per;                                              \
        for (size_t b = 0; b < m; b++, u = DT_AT(u, step), p += (N))                               \
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
        dt_move(dir, DT_AT(user, nblk / per * t->extent + nblk % per * step), p, rem);
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
    if (t->nblocks > 0) { /* block kind: each element, each block of its own type */
        size_t done = 0;
        for (size_t e = 0; done < budget; e++) {
            char *u = DT_AT(user, e * t->extent);
            for (int b = 0; b < t->nblocks && done < budget; b++) {
                const dt_block_t *k = &t->blocks[b];
                done += dt_copy(&rmp_ctx.dtypes[k->old], (size_t)k->count, DT_AT(u, k->disp),
                                packed + done, budget - done, dir);
            }
        }
        return done;
    }
    /* Freed old types keep their slot's descriptor, so no validity check here. */
    const dtype_t *o = &rmp_ctx.dtypes[t->old];
    size_t step = (size_t)t->stride * o->extent;
    if (o->contig)
        return dt_runs(t, user, packed, budget, dir, (size_t)t->blocklen * o->size, step);
    size_t done = 0;
    for (size_t e = 0; done < budget; e++) {
        char *u = DT_AT(user, e * t->extent);
        for (int b = 0; b < t->count && done < budget; b++, u = DT_AT(u, step))
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
