/* datatype.c — the datatype table: the builtins (sizes, alignments, external32 forms), the
 * MINLOC/MAXLOC pair types, the named synonyms, the table's life (dtype_init/fini) and copies
 * of a type under a new handle. A derived type is either one vector descriptor over an `old`
 * type or a list of blocks (type_build.c makes them; type_walk.c packs through them;
 * type_query.c answers about them). */

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

/* The size of a pair type's value member (MINLOC/MAXLOC records), 0 for other bases. */
size_t dtype_pair_value_size(dt_base_t b)
{
    return (b > DT_NONE && b < DT_NBUILTIN) ? pair_value_sizes[b] : 0;
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
