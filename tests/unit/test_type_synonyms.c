/* test_type_synonyms.c — rmp's named synonyms (rmp.h; MPI's MPI_INT32_T, MPI_LONG, MPI_INTEGER,
 * MPI_CXX_BOOL... are them): each a handle of its own whose descriptor is its builtin's (same
 * base, so the same op kernels, layout and packing), builtin (not freeable), with its own
 * name; and external32 sizes by name (a long 4 bytes, a wchar_t 2, a long double 16). */
#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>
#include <wchar.h>

#include "core.h"
#include "rmp.h"

static void syn_setup(void)
{
    cr_assert_eq(rmp_init(NULL, NULL), RMP_SUCCESS);
}

static void syn_teardown(void)
{
    cr_assert_eq(rmp_finalize(), RMP_SUCCESS);
}

#define SYN_FIXTURE .init = syn_setup, .fini = syn_teardown, .timeout = 30

static const struct {
    rmp_datatype_t h, of;
    const char *name;
} syn[] = {
    {RMP_SIGNED_CHAR, RMP_INT8, "RMP_SIGNED_CHAR"},
    {RMP_INT8_T, RMP_INT8, "RMP_INT8_T"},
    {RMP_INT16_T, RMP_INT16, "RMP_INT16_T"},
    {RMP_INT32_T, RMP_INT32, "RMP_INT32_T"},
    {RMP_INT64_T, RMP_INT64, "RMP_INT64_T"},
    {RMP_UINT8_T, RMP_UINT8, "RMP_UINT8_T"},
    {RMP_UINT16_T, RMP_UINT16, "RMP_UINT16_T"},
    {RMP_UINT32_T, RMP_UINT32, "RMP_UINT32_T"},
    {RMP_UINT64_T, RMP_UINT64, "RMP_UINT64_T"},
    {RMP_LONG, sizeof(long) == 8 ? RMP_INT64 : RMP_INT32, "RMP_LONG"},
    {RMP_UNSIGNED_LONG, sizeof(long) == 8 ? RMP_UINT64 : RMP_UINT32, "RMP_UNSIGNED_LONG"},
    {RMP_LONG_LONG, RMP_INT64, "RMP_LONG_LONG"},
    {RMP_AINT, sizeof(ptrdiff_t) == 8 ? RMP_INT64 : RMP_INT32, "RMP_AINT"},
    {RMP_OFFSET, RMP_INT64, "RMP_OFFSET"},
    {RMP_COUNT, RMP_INT64, "RMP_COUNT"},
    {RMP_C_COMPLEX, RMP_C_FLOAT_COMPLEX, "RMP_C_COMPLEX"},
    {RMP_CXX_BOOL, RMP_C_BOOL, "RMP_CXX_BOOL"},
    {RMP_CXX_FLOAT_COMPLEX, RMP_C_FLOAT_COMPLEX, "RMP_CXX_FLOAT_COMPLEX"},
    {RMP_CXX_DOUBLE_COMPLEX, RMP_C_DOUBLE_COMPLEX, "RMP_CXX_DOUBLE_COMPLEX"},
    {RMP_CXX_LONG_DOUBLE_COMPLEX, RMP_C_LONG_DOUBLE_COMPLEX, "RMP_CXX_LONG_DOUBLE_COMPLEX"},
    {RMP_INTEGER, RMP_INT32, "RMP_INTEGER"},
    {RMP_REAL, RMP_FLOAT, "RMP_REAL"},
    {RMP_DOUBLE_PRECISION, RMP_DOUBLE, "RMP_DOUBLE_PRECISION"},
    {RMP_COMPLEX, RMP_C_FLOAT_COMPLEX, "RMP_COMPLEX"},
    {RMP_DOUBLE_COMPLEX, RMP_C_DOUBLE_COMPLEX, "RMP_DOUBLE_COMPLEX"},
    {RMP_CHARACTER, RMP_INT8, "RMP_CHARACTER"},
    {RMP_INTEGER1, RMP_INT8, "RMP_INTEGER1"},
    {RMP_INTEGER2, RMP_INT16, "RMP_INTEGER2"},
    {RMP_INTEGER4, RMP_INT32, "RMP_INTEGER4"},
    {RMP_INTEGER8, RMP_INT64, "RMP_INTEGER8"},
    {RMP_REAL4, RMP_FLOAT, "RMP_REAL4"},
    {RMP_REAL8, RMP_DOUBLE, "RMP_REAL8"},
    {RMP_COMPLEX8, RMP_C_FLOAT_COMPLEX, "RMP_COMPLEX8"},
    {RMP_COMPLEX16, RMP_C_DOUBLE_COMPLEX, "RMP_COMPLEX16"},
    {RMP_2INTEGER, RMP_2INT, "RMP_2INTEGER"},
};
#define NSYN (sizeof syn / sizeof syn[0])

Test(type_synonyms, same_descriptor_own_handle, SYN_FIXTURE)
{
    cr_assert_eq(NSYN, (size_t)(RMP_2INTEGER - RMP_SIGNED_CHAR + 1), "every synonym listed");
    for (size_t i = 0; i < NSYN; i++) {
        const dtype_t *t = dtype_get(syn[i].h, true), *o = dtype_get(syn[i].of, true);
        cr_assert(t && o, "%s is a committed type", syn[i].name);
        cr_assert(t->builtin && t->base == o->base && t->size == o->size &&
                      t->extent == o->extent && t->align == o->align && t->contig == o->contig &&
                      t->nblocks == o->nblocks && !t->env,
                  "%s has its builtin's descriptor", syn[i].name);
        for (rmp_op_t op = RMP_SUM; op <= RMP_NO_OP; op++)
            cr_assert_eq(op_check(op, t->base), op_check(op, o->base), "%s op %d", syn[i].name,
                         op);
        char name[RMP_MAX_OBJECT_NAME];
        int len = -1;
        cr_assert_eq(rmp_type_get_name(syn[i].h, name, &len), RMP_SUCCESS);
        cr_assert_str_eq(name, syn[i].name);
        int ni, na, nt, comb;
        cr_assert_eq(rmp_type_get_envelope(syn[i].h, &ni, &na, &nt, &comb), RMP_SUCCESS);
        cr_assert(comb == RMP_COMBINER_NAMED && !ni && !na && !nt, "%s is named", syn[i].name);
        rmp_datatype_t h = syn[i].h;
        cr_assert_eq(rmp_type_free(&h), RMP_ERR_TYPE, "%s cannot be freed", syn[i].name);
        cr_assert_eq(h, syn[i].h);
        for (size_t j = 0; j < i; j++)
            cr_assert_neq(syn[i].h, syn[j].h);
    }
}

/* external32 sizes go by the named type, not the builtin's layout */
Test(type_synonyms, external32_sizes, SYN_FIXTURE)
{
    static const struct {
        rmp_datatype_t h;
        size_t ext;
    } x[] = {
        {RMP_LONG, 4},     {RMP_UNSIGNED_LONG, 4}, {RMP_INT64, 8},   {RMP_INT64_T, 8},
        {RMP_LONG_LONG, 8}, {RMP_AINT, 8},         {RMP_WCHAR, 2},   {RMP_LONG_DOUBLE, 16},
        {RMP_C_LONG_DOUBLE_COMPLEX, 32}, {RMP_CXX_LONG_DOUBLE_COMPLEX, 32},
        {RMP_LONG_INT, 8}, {RMP_LONG_DOUBLE_INT, 20}, {RMP_INTEGER, 4}, {RMP_2INTEGER, 8},
    };
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
        size_t sz = 0;
        cr_assert_eq(rmp_pack_external_size("external32", 5, x[i].h, &sz), RMP_SUCCESS);
        cr_assert_eq(sz, 5 * x[i].ext, "handle %d: %zu bytes for 5", x[i].h, sz);
    }
    /* a long truncated to its low 32 bits, sign-extended back */
    long v[2] = {-7, (long)0x0123456789ABCDEFLL}, r[2] = {0, 0};
    unsigned char buf[8];
    size_t pos = 0, ip = 0;
    cr_assert_eq(rmp_pack_external("external32", v, 2, RMP_LONG, buf, sizeof buf, &pos),
                 RMP_SUCCESS);
    cr_assert_eq(pos, 8);
    const unsigned char want[8] = {0xFF, 0xFF, 0xFF, 0xF9, 0x89, 0xAB, 0xCD, 0xEF};
    cr_assert_arr_eq(buf, want, 8);
    cr_assert_eq(rmp_unpack_external("external32", buf, pos, &ip, r, 2, RMP_LONG), RMP_SUCCESS);
    cr_assert_eq(r[0], -7);
    cr_assert_eq(r[1], (long)(int32_t)0x89ABCDEF);
    cr_assert_eq(rmp_pack_external("external32", v, 2, RMP_LONG, buf, 7, &(size_t){0}),
                 RMP_ERR_TRUNCATE);
}
