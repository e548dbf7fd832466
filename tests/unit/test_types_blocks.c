/* test_types_blocks.c — unit tests of the block-kind datatypes (runtime/datatype.c): indexed
 * with negative and unordered displacements, hindexed, struct over a real C struct, resized,
 * the MINLOC/MAXLOC pair types, their bounds and extents, pack/unpack against the expected
 * byte offsets, rmp_get_elements, and every refused argument. Singleton rmp (no launcher). */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "rmp.h"

static void tb_setup(void)
{
    cr_assert_eq(rmp_init(NULL, NULL), RMP_SUCCESS);
}

static void tb_teardown(void)
{
    cr_assert_eq(rmp_finalize(), RMP_SUCCESS);
}

#define TB .init = tb_setup, .fini = tb_teardown, .timeout = 30

/* Pack `count` elements of h from a buffer whose byte i is i (relative to base, which may lie
 * inside the buffer for negative bounds); the packed bytes must be exactly the user bytes at
 * want[0..n-1] (offsets from the origin). Unpacking into a zeroed buffer writes those bytes
 * and nothing else. */
static void expect_layout(rmp_datatype_t h, int count, const ptrdiff_t *want, size_t n,
                          ptrdiff_t base)
{
    const dtype_t *t = dtype_get(h, true);
    cr_assert_not_null(t);
    size_t span = 4096;
    unsigned char *user = malloc(span), *packed = malloc(n ? n : 1), *back = calloc(span, 1);
    for (size_t i = 0; i < span; i++)
        user[i] = (unsigned char)(i * 7 + 3);
    size_t bytes;
    cr_assert_eq(dtype_bytes(t, (size_t)count, &bytes), RMP_SUCCESS);
    cr_assert_eq(bytes, n, "packed size %zu, expected %zu", bytes, n);
    dtype_pack(t, count, user + base, packed);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(packed[i], user[base + want[i]], "packed byte %zu: from offset %td", i,
                     want[i]);
    dtype_unpack(t, count, packed, n, back + base);
    size_t touched = 0;
    for (size_t i = 0; i < span; i++)
        if (back[i]) {
            touched++;
            cr_assert_eq(back[i], user[i], "unpack wrote byte %zu wrong", i);
        }
    size_t nonzero = 0;
    for (size_t i = 0; i < n; i++)
        nonzero += user[base + want[i]] != 0;
    cr_assert_eq(touched, nonzero, "unpack wrote outside the type's bytes");
    free(user);
    free(packed);
    free(back);
}

/* offsets of `len` bytes starting at `at` appended to w */
static size_t run(ptrdiff_t *w, size_t n, ptrdiff_t at, size_t len)
{
    for (size_t i = 0; i < len; i++)
        w[n++] = at + (ptrdiff_t)i;
    return n;
}

Test(types_blocks, indexed_unordered_negative, TB)
{
    /* blocks of int32: 2 at +3 extents, 1 at -2, 3 at 0 (in that order) */
    int bl[] = {2, 1, 3}, dp[] = {3, -2, 0};
    rmp_datatype_t t;
    cr_assert_eq(rmp_type_indexed(3, bl, dp, RMP_INT32, &t), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&t), RMP_SUCCESS);
    ptrdiff_t lb, ext;
    cr_assert_eq(rmp_type_get_extent(t, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(lb, -8);
    cr_assert_eq(ext, 28, "from -2 to +5 ints: 7 ints");
    size_t sz;
    cr_assert_eq(rmp_type_size(t, &sz), RMP_SUCCESS);
    cr_assert_eq(sz, 24);
    ptrdiff_t w[128];
    size_t n = 0;
    for (int e = 0; e < 2; e++) { /* two elements, 28 bytes apart */
        n = run(w, n, 28 * e + 12, 8);
        n = run(w, n, 28 * e - 8, 4);
        n = run(w, n, 28 * e + 0, 12);
    }
    expect_layout(t, 2, w, n, 64);
    cr_assert_eq(rmp_type_free(&t), RMP_SUCCESS);
}

struct rec {
    char c;
    double d;
    int i[3];
};

/* A struct type's extent is padded as C pads the struct (MPI-3.1 4.1.6): up to the strictest
 * alignment of its members, whatever their order or nesting; a resized member is the user's
 * word on the bounds, and nothing containing it is padded. */
Test(types_blocks, struct_extent_padded_to_alignment, TB)
{
    struct ic { int i; char c; };
    struct cd { char c; double d; };
    struct sc { short s; char c; };
    struct nest { struct ic a; char c; };
    int one[] = {1, 1}, zero_dbl[] = {1, 0};
    ptrdiff_t d_ic[] = {offsetof(struct ic, i), offsetof(struct ic, c)},
              d_cd[] = {offsetof(struct cd, c), offsetof(struct cd, d)},
              d_sc[] = {offsetof(struct sc, s), offsetof(struct sc, c)},
              d_nest[] = {offsetof(struct nest, a), offsetof(struct nest, c)};
    rmp_datatype_t t_ic[] = {RMP_INT32, RMP_INT8}, t_cd[] = {RMP_INT8, RMP_DOUBLE},
                   t_sc[] = {RMP_INT16, RMP_INT8}, ic, cd, sc, nest, empty_dbl, rs, in_rs;
    ptrdiff_t lb, ext;
    cr_assert_eq(rmp_type_create_struct(2, one, d_ic, t_ic, &ic), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(ic, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(ext, (ptrdiff_t)sizeof(struct ic), "{int, char}: %td, C says %zu", ext,
                 sizeof(struct ic));
    size_t size;
    cr_assert_eq(rmp_type_size(ic, &size), RMP_SUCCESS);
    cr_assert_eq(size, 5, "the padding is no data");
    cr_assert_not(dtype_get(ic, false)->contig, "the padding is a gap");
    cr_assert_eq(rmp_type_create_struct(2, one, d_cd, t_cd, &cd), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(cd, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(ext, (ptrdiff_t)sizeof(struct cd));
    cr_assert_eq(rmp_type_create_struct(2, one, d_sc, t_sc, &sc), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(sc, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(ext, (ptrdiff_t)sizeof(struct sc));
    rmp_datatype_t t_nest[] = {ic, RMP_INT8};
    cr_assert_eq(rmp_type_create_struct(2, one, d_nest, t_nest, &nest), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(nest, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(ext, (ptrdiff_t)sizeof(struct nest), "nested: the inner int's alignment counts");
    /* a member of count 0 lays out nothing and aligns nothing */
    cr_assert_eq(rmp_type_create_struct(2, zero_dbl, d_cd, t_cd, &empty_dbl), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(empty_dbl, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(ext, 1);
    /* resized to 5: the user's bounds stay, in the type and in a struct of it */
    cr_assert_eq(rmp_type_create_resized(ic, 0, 5, &rs), RMP_SUCCESS);
    rmp_datatype_t t_rs[] = {rs};
    cr_assert_eq(rmp_type_create_struct(1, one, d_ic, t_rs, &in_rs), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(in_rs, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(ext, 5);
    rmp_datatype_t all[] = {ic, cd, sc, nest, empty_dbl, rs, in_rs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        cr_assert_eq(rmp_type_free(&all[i]), RMP_SUCCESS);
}

/* Every builtin knows its C alignment (a struct of it is padded by it). */
Test(types_blocks, builtins_aligned, TB)
{
    for (int b = DT_INT8; b < DT_NBUILTIN; b++) {
        const dtype_t *t = dtype_get(b, true);
        cr_assert(t && t->align >= 1 && (t->align & (t->align - 1)) == 0,
                  "builtin %d has alignment %u", b, t ? t->align : 0);
    }
    cr_assert_eq(dtype_get(RMP_DOUBLE, true)->align, _Alignof(double));
    cr_assert_eq(dtype_get(RMP_LONG_DOUBLE, true)->align, _Alignof(long double));
}

Test(types_blocks, struct_resized_array, TB)
{
    int bl[] = {1, 1, 3};
    ptrdiff_t dp[] = {offsetof(struct rec, c), offsetof(struct rec, d), offsetof(struct rec, i)};
    rmp_datatype_t ty[] = {RMP_INT8, RMP_DOUBLE, RMP_INT32}, st, arr;
    cr_assert_eq(rmp_type_create_struct(3, bl, dp, ty, &st), RMP_SUCCESS);
    ptrdiff_t lb, ext;
    cr_assert_eq(rmp_type_get_extent(st, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(lb, 0);
    cr_assert_eq(ext, (ptrdiff_t)sizeof(struct rec), "padded to the double's alignment, as C");
    cr_assert_eq(rmp_type_create_resized(st, 0, sizeof(struct rec), &arr), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&arr), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(arr, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(ext, (ptrdiff_t)sizeof(struct rec));
    cr_assert_eq(dtype_get(arr, true)->base, DT_NONE, "mixed types: no reduction base");
    ptrdiff_t w[256];
    size_t n = 0;
    for (int e = 0; e < 3; e++) {
        ptrdiff_t at = e * (ptrdiff_t)sizeof(struct rec);
        n = run(w, n, at + (ptrdiff_t)offsetof(struct rec, c), 1);
        n = run(w, n, at + (ptrdiff_t)offsetof(struct rec, d), 8);
        n = run(w, n, at + (ptrdiff_t)offsetof(struct rec, i), 12);
    }
    expect_layout(arr, 3, w, n, 0);
    /* the basic elements of 1.5 records: 5 per record; 21 + 9 bytes = c, d, 3 ints + c, d */
    rmp_status_t s = {.count = 21 + 9};
    int k;
    cr_assert_eq(rmp_get_elements(&s, arr, &k), RMP_SUCCESS);
    cr_assert_eq(k, 7);
    cr_assert_eq(rmp_get_count(&s, arr, &k), RMP_SUCCESS);
    cr_assert_eq(k, RMP_UNDEFINED);
    s.count = 21 + 5; /* ends inside the double */
    cr_assert_eq(rmp_get_elements(&s, arr, &k), RMP_SUCCESS);
    cr_assert_eq(k, RMP_UNDEFINED);
    cr_assert_eq(rmp_type_free(&arr), RMP_SUCCESS);
    cr_assert_eq(rmp_type_free(&st), RMP_SUCCESS);
}

Test(types_blocks, hindexed_of_vector_and_resized_lb, TB)
{
    rmp_datatype_t v, h, r;
    cr_assert_eq(rmp_type_vector(2, 1, 3, RMP_INT16, &v), RMP_SUCCESS); /* 2 shorts, 6 apart */
    int bl[] = {1, 2};
    ptrdiff_t dp[] = {40, 0};
    cr_assert_eq(rmp_type_create_hindexed(2, bl, dp, v, &h), RMP_SUCCESS);
    ptrdiff_t lb, ext;
    cr_assert_eq(rmp_type_get_extent(h, &lb, &ext), RMP_SUCCESS);
    cr_assert_eq(lb, 0);
    cr_assert_eq(ext, 48, "v's extent 8: the block at 40 ends at 48");
    cr_assert_eq(rmp_type_create_resized(h, -4, 64, &r), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&r), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(r, &lb, &ext), RMP_SUCCESS);
    cr_assert(lb == -4 && ext == 64);
    cr_assert_eq(dtype_get(r, true)->base, DT_INT16);
    ptrdiff_t w[64];
    size_t n = 0;
    for (int e = 0; e < 2; e++) {
        ptrdiff_t at = 64 * e;
        n = run(w, n, at + 40, 2); /* block 1: one v at 40 */
        n = run(w, n, at + 46, 2);
        n = run(w, n, at + 0, 2);  /* block 2: two v at 0 */
        n = run(w, n, at + 6, 2);
        n = run(w, n, at + 8, 2);
        n = run(w, n, at + 14, 2);
    }
    expect_layout(r, 2, w, n, 8);
    rmp_status_t s = {.count = 24};
    int k;
    cr_assert_eq(rmp_get_elements(&s, r, &k), RMP_SUCCESS);
    cr_assert_eq(k, 12);
    cr_assert_eq(rmp_type_free(&r), RMP_SUCCESS);
    cr_assert_eq(rmp_type_free(&h), RMP_SUCCESS);
    cr_assert_eq(rmp_type_free(&v), RMP_SUCCESS);
}

Test(types_blocks, pair_types, TB)
{
    struct { rmp_datatype_t h; size_t size, ext; } want[] = {
        {RMP_2INT, 8, 8},
        {RMP_FLOAT_INT, 8, sizeof(struct { float v; int i; })},
        {RMP_DOUBLE_INT, 12, sizeof(struct { double v; int i; })},
        {RMP_LONG_INT, sizeof(long) + 4, sizeof(struct { long v; int i; })},
        {RMP_SHORT_INT, 6, sizeof(struct { short v; int i; })},
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        size_t s, e;
        cr_assert_eq(rmp_type_size(want[i].h, &s), RMP_SUCCESS);
        cr_assert_eq(rmp_type_extent(want[i].h, &e), RMP_SUCCESS);
        cr_assert(s == want[i].size && e == want[i].ext, "pair %d: size %zu extent %zu",
                  want[i].h, s, e);
        cr_assert_eq(op_check(RMP_MINLOC, dtype_get(want[i].h, true)->base), RMP_SUCCESS);
        cr_assert_eq(op_check(RMP_SUM, dtype_get(want[i].h, true)->base), RMP_ERR_OP);
    }
    /* a message of 5 ints received as RMP_2INT: two whole pairs and a value */
    rmp_status_t st5 = {.count = 20};
    int k5;
    cr_assert_eq(rmp_get_elements(&st5, RMP_2INT, &k5), RMP_SUCCESS);
    cr_assert_eq(k5, 5);
    cr_assert_eq(rmp_get_count(&st5, RMP_2INT, &k5), RMP_SUCCESS);
    cr_assert_eq(k5, RMP_UNDEFINED);
    st5.count = 12 + 8; /* a DOUBLE_INT record and a double: 3 */
    cr_assert_eq(rmp_get_elements(&st5, RMP_DOUBLE_INT, &k5), RMP_SUCCESS);
    cr_assert_eq(k5, 3);
    struct { double v; int i; } di[3] = {{1.5, 7}, {-2.0, 1}, {9.0, 4}};
    unsigned char packed[36];
    dtype_pack(dtype_get(RMP_DOUBLE_INT, true), 3, di, packed);
    for (int k = 0; k < 3; k++) {
        double v;
        int32_t x;
        memcpy(&v, packed + 12 * k, 8);
        memcpy(&x, packed + 12 * k + 8, 4);
        cr_assert(v == di[k].v && x == di[k].i, "record %d packed as %g/%d", k, v, x);
    }
    /* MINLOC and MAXLOC on packed records, ties to the smaller index */
    struct { double v; int i; } a[3] = {{1.0, 5}, {3.0, 2}, {2.0, 9}}, b[3] = {{1.0, 3}, {4.0, 1}, {0.5, 8}};
    unsigned char pa[36], pb[36], out[36];
    dtype_pack(dtype_get(RMP_DOUBLE_INT, true), 3, a, pa);
    dtype_pack(dtype_get(RMP_DOUBLE_INT, true), 3, b, pb);
    op_reduce3(RMP_MINLOC, DT_DOUBLE_INT, pa, pb, out, 3);
    dtype_unpack(dtype_get(RMP_DOUBLE_INT, true), 3, out, 36, a);
    cr_assert(a[0].v == 1.0 && a[0].i == 3 && a[1].v == 3.0 && a[1].i == 2 && a[2].v == 0.5 &&
              a[2].i == 8);
    dtype_pack(dtype_get(RMP_DOUBLE_INT, true), 3, b, pa);
    op_reduce(RMP_MAXLOC, DT_DOUBLE_INT, pb, pa, 3); /* b with itself: unchanged */
    dtype_unpack(dtype_get(RMP_DOUBLE_INT, true), 3, pa, 36, a);
    cr_assert(a[1].v == 4.0 && a[1].i == 1);
}

Test(types_blocks, refused, TB)
{
    int bl[] = {1, -1}, dp[] = {0, 1};
    ptrdiff_t bd[] = {0, 8};
    rmp_datatype_t t = 77, ty[] = {RMP_INT32, 9999};
    cr_assert_eq(rmp_type_indexed(2, bl, dp, RMP_INT32, &t), RMP_ERR_COUNT);
    cr_assert_eq(rmp_type_indexed(-1, bl, dp, RMP_INT32, &t), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_indexed(1, NULL, dp, RMP_INT32, &t), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_indexed(1, bl, NULL, RMP_INT32, &t), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_indexed(1, bl, dp, 9999, &t), RMP_ERR_TYPE);
    cr_assert_eq(rmp_type_create_hindexed(1, bl, bd, RMP_DATATYPE_NULL, &t), RMP_ERR_TYPE);
    int ok[] = {1, 1};
    cr_assert_eq(rmp_type_create_struct(2, ok, bd, ty, &t), RMP_ERR_TYPE);
    cr_assert_eq(rmp_type_create_struct(2, ok, bd, NULL, &t), RMP_ERR_ARG);
    /* a negative extent is MPI's (MPICH's large-count test: resized(int, 0, -1024)) */
    rmp_datatype_t neg;
    cr_assert_eq(rmp_type_create_resized(RMP_INT32, 0, -4, &neg), RMP_SUCCESS);
    ptrdiff_t nlb = 1, next = 0;
    cr_assert_eq(rmp_type_get_extent(neg, &nlb, &next), RMP_SUCCESS);
    cr_assert(nlb == 0 && next == -4, "resized(int32, 0, -4): lb %td extent %td", nlb, next);
    /* and built upon, walking backwards (MPICH's lbub): the second element's markers are at
     * lb -4, ub -8, so by MPI's formulas lb = min(0, -4) = -4, ub = max(-4, -8) = -4 */
    cr_assert_eq(rmp_type_contiguous(2, neg, &t), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(t, &nlb, &next), RMP_SUCCESS);
    cr_assert(nlb == -4 && next == 0, "contiguous(2, neg): lb %td extent %td", nlb, next);
    cr_assert_eq(rmp_type_free(&t), RMP_SUCCESS);
    t = 77;
    cr_assert_eq(rmp_type_free(&neg), RMP_SUCCESS);
    cr_assert_eq(rmp_type_create_resized(RMP_INT32, 0, 4, NULL), RMP_ERR_ARG);
    int big[] = {1 << 30, 1 << 30};
    ptrdiff_t far[] = {PTRDIFF_MAX - 8, 0};
    cr_assert_eq(rmp_type_create_hindexed(2, big, far, RMP_DOUBLE, &t), RMP_ERR_COUNT);
    cr_assert_eq(t, 77, "a refused constructor wrote a handle");
    ptrdiff_t lb, ext;
    cr_assert_eq(rmp_type_get_extent(9999, &lb, &ext), RMP_ERR_TYPE);
    cr_assert_eq(rmp_type_get_extent(RMP_INT32, NULL, &ext), RMP_ERR_ARG);
    /* an empty struct: size and extent 0 */
    cr_assert_eq(rmp_type_create_struct(0, NULL, NULL, NULL, &t), RMP_SUCCESS);
    cr_assert_eq(rmp_type_get_extent(t, &lb, &ext), RMP_SUCCESS);
    cr_assert(lb == 0 && ext == 0);
    cr_assert_eq(rmp_type_free(&t), RMP_SUCCESS);
}
