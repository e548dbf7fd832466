/* test_datatype.c — unit tests of runtime/datatype.c: builtin and derived sizes/extents,
 * pack/unpack of contiguous, vector and nested types against an independent model of the
 * layout, the truncation bound of unpack, rmp_get_count, handle validity and error codes.
 * The API needs rmp_init: each test runs as a singleton (no launcher). */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "rmp.h"

static void dt_setup(void)
{
    cr_assert_eq(rmp_init(NULL, NULL), RMP_SUCCESS);
}

static void dt_teardown(void)
{
    cr_assert_eq(rmp_finalize(), RMP_SUCCESS);
}

/* every test but before_init runs between rmp_init and rmp_finalize */
#define DT_FIXTURE .init = dt_setup, .fini = dt_teardown, .timeout = 30

/* ---- an independent model of a layout: byte offsets of the packed bytes, in order ---- */

typedef struct model {
    int count, blocklen, stride; /* stride in child extents; child NULL: a builtin */
    const struct model *child;
    size_t base; /* builtin size (child == NULL) */
} model_t;

static size_t model_extent(const model_t *m)
{
    if (!m->child)
        return m->base;
    if (m->count == 0)
        return 0;
    return ((size_t)(m->count - 1) * (size_t)m->stride + (size_t)m->blocklen) *
           model_extent(m->child);
}

/* Append the offsets of one element at `at`; returns the new length of `out`. */
static size_t model_offsets(const model_t *m, size_t at, size_t *out, size_t n)
{
    if (!m->child) {
        for (size_t b = 0; b < m->base; b++)
            out[n++] = at + b;
        return n;
    }
    size_t ce = model_extent(m->child);
    for (int i = 0; i < m->count; i++)
        for (int j = 0; j < m->blocklen; j++)
            n = model_offsets(m->child, at + ((size_t)i * m->stride + j) * ce, out, n);
    return n;
}

/* Pack `count` elements of h from a patterned buffer and compare with the model; then unpack
 * into a clean buffer and check exactly the modelled bytes were written. */
static void check_layout(rmp_datatype_t h, const model_t *m, int count)
{
    const dtype_t *t = dtype_get(h, true);
    cr_assert_not_null(t);
    size_t ext = model_extent(m), span = ext * (size_t)count + 64;
    size_t *off = malloc(sizeof(size_t) * (t->size * (size_t)count + 1));
    size_t n = 0;
    for (int e = 0; e < count; e++)
        n = model_offsets(m, (size_t)e * ext, off, n);
    cr_assert_eq(t->size * (size_t)count, n, "size %zu x %d vs model %zu", t->size, count, n);
    cr_assert_eq(t->extent, ext);

    unsigned char *user = malloc(span), *packed = malloc(n + 1), *back = malloc(span);
    for (size_t i = 0; i < span; i++)
        user[i] = (unsigned char)(i * 7 + 3);
    dtype_pack(t, count, user, packed);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(packed[i], user[off[i]], "packed byte %zu", i);

    memset(back, 0xEE, span);
    dtype_unpack(t, count, packed, n, back);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(back[off[i]], user[off[i]], "unpacked byte at %zu", off[i]);
    size_t touched = 0;
    for (size_t i = 0; i < span; i++)
        touched += back[i] != 0xEE;
    cr_assert_leq(touched, n, "unpack wrote outside the type's bytes");
    free(off);
    free(user);
    free(packed);
    free(back);
}

Test(datatype, builtin_sizes, DT_FIXTURE)
{
    const size_t want[] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 1};
    for (rmp_datatype_t h = RMP_INT8; h <= RMP_BYTE; h++) {
        size_t s, e;
        cr_assert_eq(rmp_type_size(h, &s), RMP_SUCCESS);
        cr_assert_eq(rmp_type_extent(h, &e), RMP_SUCCESS);
        cr_assert_eq(s, want[h]);
        cr_assert_eq(e, want[h]);
        const dtype_t *t = dtype_get(h, true);
        cr_assert(t && t->builtin && t->contig && (int)t->base == h);
        cr_assert_eq(dtype_base_size(t->base), want[h]);
    }
}

Test(datatype, contiguous, DT_FIXTURE)
{
    rmp_datatype_t c;
    cr_assert_eq(rmp_type_contiguous(5, RMP_DOUBLE, &c), RMP_SUCCESS);
    cr_assert_geq(c, 64);
    cr_assert_null(dtype_get(c, true), "uncommitted types are not usable for communication");
    cr_assert_not_null(dtype_get(c, false));
    cr_assert_eq(rmp_type_commit(&c), RMP_SUCCESS);
    size_t s, e;
    rmp_type_size(c, &s);
    rmp_type_extent(c, &e);
    cr_assert(s == 40 && e == 40 && dtype_get(c, true)->contig);
    model_t dbl = {.base = 8}, m = {1, 5, 5, &dbl, 0};
    check_layout(c, &m, 1);
    check_layout(c, &m, 3);
    cr_assert_eq(rmp_type_free(&c), RMP_SUCCESS);
    cr_assert_eq(c, RMP_DATATYPE_NULL);
}

Test(datatype, vector, DT_FIXTURE)
{
    rmp_datatype_t v;
    cr_assert_eq(rmp_type_vector(3, 2, 4, RMP_INT32, &v), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&v), RMP_SUCCESS);
    size_t s, e;
    rmp_type_size(v, &s);
    rmp_type_extent(v, &e);
    cr_assert(s == 24 && e == 40, "size %zu extent %zu", s, e);
    cr_assert_not(dtype_get(v, true)->contig);

    int32_t src[20], packed[12];
    for (int i = 0; i < 20; i++)
        src[i] = i;
    dtype_pack(dtype_get(v, true), 2, src, packed);
    const int32_t want[12] = {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19};
    cr_assert_arr_eq(packed, want, sizeof(want));

    model_t i32 = {.base = 4}, m = {3, 2, 4, &i32, 0};
    for (int count = 1; count <= 4; count++)
        check_layout(v, &m, count);
}

Test(datatype, vector_shapes, DT_FIXTURE)
{
    /* block sizes hitting each fast path (1, 2, 4, 8, 16 bytes and others), strides equal to
     * the block (contiguous), zero stride (repeats) and zero-length pieces */
    const int shapes[][4] = {{4, 1, 3, RMP_INT8},   {5, 1, 2, RMP_INT16},  {7, 1, 3, RMP_FLOAT},
                             {6, 1, 2, RMP_DOUBLE}, {3, 2, 5, RMP_DOUBLE}, {4, 3, 4, RMP_INT8},
                             {4, 2, 2, RMP_INT32},  {3, 1, 0, RMP_INT64},  {0, 3, 4, RMP_INT32},
                             {3, 0, 2, RMP_INT32},  {1, 5, 9, RMP_UINT16}};
    const size_t bsz[] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 1};
    for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
        const int *sh = shapes[k];
        rmp_datatype_t v;
        cr_assert_eq(rmp_type_vector(sh[0], sh[1], sh[2], sh[3], &v), RMP_SUCCESS);
        cr_assert_eq(rmp_type_commit(&v), RMP_SUCCESS);
        model_t b = {.base = bsz[sh[3]]}, m = {sh[0], sh[1], sh[2], &b, 0};
        check_layout(v, &m, 1);
        check_layout(v, &m, 3);
        cr_assert_eq(dtype_get(v, true)->contig, sh[0] <= 1 || sh[1] == sh[2]);
        rmp_type_free(&v);
    }
}

Test(datatype, nested_vector_of_vector, DT_FIXTURE)
{
    rmp_datatype_t inner, outer, cont;
    cr_assert_eq(rmp_type_vector(2, 1, 3, RMP_INT16, &inner), RMP_SUCCESS); /* uncommitted */
    cr_assert_eq(rmp_type_vector(3, 2, 5, inner, &outer), RMP_SUCCESS);
    cr_assert_eq(rmp_type_contiguous(2, outer, &cont), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&outer), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&cont), RMP_SUCCESS);
    model_t i16 = {.base = 2}, mi = {2, 1, 3, &i16, 0}, mo = {3, 2, 5, &mi, 0};
    model_t mc = {1, 2, 2, &mo, 0};
    for (int count = 1; count <= 3; count++) {
        check_layout(outer, &mo, count);
        check_layout(cont, &mc, count);
    }
    /* freeing the building blocks leaves the types built on them intact (as in MPI) */
    cr_assert_eq(rmp_type_free(&inner), RMP_SUCCESS);
    cr_assert_eq(rmp_type_free(&outer), RMP_SUCCESS);
    check_layout(cont, &mc, 2);
}

Test(datatype, unpack_truncation_bound, DT_FIXTURE)
{
    rmp_datatype_t v;
    cr_assert_eq(rmp_type_vector(4, 3, 5, RMP_INT32, &v), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&v), RMP_SUCCESS);
    const dtype_t *t = dtype_get(v, true);
    model_t i32 = {.base = 4}, m = {4, 3, 5, &i32, 0};
    size_t off[2 * 48], n = model_offsets(&m, 0, off, 0);
    n = model_offsets(&m, t->extent, off, n); /* two elements: 96 packed bytes */
    unsigned char packed[96], user[2 * 68 + 16];
    for (size_t i = 0; i < sizeof(packed); i++)
        packed[i] = (unsigned char)(i + 1);
    /* every cut, including ones inside a base element and inside a block */
    for (size_t bytes = 0; bytes <= n + 8; bytes++) {
        memset(user, 0, sizeof(user));
        dtype_unpack(t, 2, packed, bytes, user);
        size_t got = bytes < n ? bytes : n;
        for (size_t i = 0; i < got; i++)
            cr_assert_eq(user[off[i]], packed[i], "cut %zu byte %zu", bytes, i);
        size_t nonzero = 0;
        for (size_t i = 0; i < sizeof(user); i++)
            nonzero += user[i] != 0;
        cr_assert_eq(nonzero, got, "cut at %zu wrote %zu bytes", bytes, nonzero);
    }
}

Test(datatype, get_count, DT_FIXTURE)
{
    rmp_status_t st = {.count = 12};
    int n;
    cr_assert_eq(rmp_get_count(&st, RMP_INT32, &n), RMP_SUCCESS);
    cr_assert_eq(n, 3);
    st.count = 13;
    rmp_get_count(&st, RMP_INT32, &n);
    cr_assert_eq(n, RMP_UNDEFINED);
    st.count = 0;
    rmp_get_count(&st, RMP_DOUBLE, &n);
    cr_assert_eq(n, 0);
    st.count = (size_t)INT_MAX + 1;
    rmp_get_count(&st, RMP_BYTE, &n);
    cr_assert_eq(n, RMP_UNDEFINED, "a count that does not fit in an int");

    rmp_datatype_t v, z;
    rmp_type_vector(3, 2, 4, RMP_INT32, &v);
    rmp_type_commit(&v);
    st.count = 48;
    rmp_get_count(&st, v, &n);
    cr_assert_eq(n, 2);
    st.count = 44;
    rmp_get_count(&st, v, &n);
    cr_assert_eq(n, RMP_UNDEFINED);
    rmp_type_contiguous(0, RMP_INT32, &z);
    rmp_type_commit(&z);
    st.count = 0;
    cr_assert_eq(rmp_get_count(&st, z, &n), RMP_SUCCESS);
    cr_assert_eq(n, 0);

    cr_assert_eq(rmp_get_count(NULL, RMP_INT32, &n), RMP_ERR_ARG);
    cr_assert_eq(rmp_get_count(&st, RMP_INT32, NULL), RMP_ERR_ARG);
    cr_assert_eq(rmp_get_count(&st, 999, &n), RMP_ERR_TYPE);
}

Test(datatype, handle_validity, DT_FIXTURE)
{
    /* 67: past the named synonyms (RMP_LOGICAL8 is the last), below the derived types; 80:
     * the first derived slot, not handed out yet */
    const int bad[] = {RMP_DATATYPE_NULL, -1, -5, RMP_LOGICAL8 + 1, 79, 80, 999, 1 << 20,
                       INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_t s;
        cr_assert_null(dtype_get(bad[i], false), "handle %d", bad[i]);
        cr_assert_eq(rmp_type_size(bad[i], &s), RMP_ERR_TYPE);
        rmp_datatype_t h = bad[i], nt;
        cr_assert_eq(rmp_type_commit(&h), RMP_ERR_TYPE);
        cr_assert_eq(rmp_type_free(&h), RMP_ERR_TYPE);
        cr_assert_eq(rmp_type_contiguous(2, bad[i], &nt), RMP_ERR_TYPE);
    }
    rmp_datatype_t b = RMP_INT32;
    cr_assert_eq(rmp_type_free(&b), RMP_ERR_TYPE, "builtins cannot be freed");
    cr_assert_eq(b, RMP_INT32);
    cr_assert_eq(rmp_type_commit(&b), RMP_SUCCESS, "committing a builtin is a no-op");

    rmp_datatype_t c, keep;
    rmp_type_contiguous(2, RMP_INT32, &c);
    keep = c;
    cr_assert_eq(rmp_type_free(&c), RMP_SUCCESS);
    cr_assert_null(dtype_get(keep, false), "a freed handle is invalid");
    cr_assert_eq(rmp_type_free(&keep), RMP_ERR_TYPE);
    cr_assert_eq(rmp_type_commit(&keep), RMP_ERR_TYPE);
}

Test(datatype, argument_errors, DT_FIXTURE)
{
    rmp_datatype_t nt;
    size_t s;
    cr_assert_eq(rmp_type_contiguous(2, RMP_INT32, NULL), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_vector(2, 1, 2, RMP_INT32, NULL), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_contiguous(-1, RMP_INT32, &nt), RMP_ERR_COUNT);
    cr_assert_eq(rmp_type_vector(-1, 1, 2, RMP_INT32, &nt), RMP_ERR_COUNT);
    cr_assert_eq(rmp_type_vector(2, -1, 2, RMP_INT32, &nt), RMP_ERR_COUNT);
    /* a negative stride is legal: the blocks go backwards (3 blocks of 2, 3 ints apart) */
    cr_assert_eq(rmp_type_vector(3, 2, -3, RMP_INT32, &nt), RMP_SUCCESS, "negative stride");
    cr_assert_eq(rmp_type_commit(&nt), RMP_SUCCESS);
    int32_t src[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, packed[6];
    ptrdiff_t vlb, vext;
    cr_assert_eq(rmp_type_get_extent(nt, &vlb, &vext), RMP_SUCCESS);
    cr_assert_eq(vlb, -6 * (ptrdiff_t)sizeof(int32_t));
    cr_assert_eq(vext, 8 * (ptrdiff_t)sizeof(int32_t));
    dtype_pack(dtype_get(nt, true), 1, src + 6, packed); /* blocks at 6, 3, 0 */
    const int32_t want[6] = {6, 7, 3, 4, 0, 1};
    cr_assert_arr_eq(packed, want, sizeof want, "packed %d %d %d %d %d %d", packed[0],
                     packed[1], packed[2], packed[3], packed[4], packed[5]);
    int vc[3] = {-1, -1, -1}, vn[3];
    cr_assert_eq(rmp_type_get_envelope(nt, &vn[0], &vn[1], &vn[2], &vc[0]), RMP_SUCCESS);
    cr_assert_eq(vc[0], RMP_COMBINER_VECTOR, "the record keeps the caller's constructor");
    cr_assert_eq(rmp_type_free(&nt), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(NULL), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_free(NULL), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_size(RMP_INT32, NULL), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_extent(RMP_INT32, NULL), RMP_ERR_ARG);
    /* sizes that do not fit the address space */
    rmp_datatype_t big, huge;
    cr_assert_eq(rmp_type_contiguous(INT_MAX, RMP_INT64, &big), RMP_SUCCESS);
    cr_assert_eq(rmp_type_vector(INT_MAX, INT_MAX, INT_MAX, big, &huge), RMP_ERR_COUNT);
    cr_assert_eq(rmp_type_size(big, &s), RMP_SUCCESS);
    cr_assert_eq(s, (size_t)INT_MAX * 8);
}

Test(datatype, many_types_reuse_slots, DT_FIXTURE)
{
    /* create and free far more types than the table holds at once: slots are reused */
    for (int i = 0; i < 70000; i++) {
        rmp_datatype_t t;
        cr_assert_eq(rmp_type_vector(2, 1, 2, RMP_INT32, &t), RMP_SUCCESS, "iteration %d", i);
        cr_assert_eq(rmp_type_free(&t), RMP_SUCCESS);
    }
}

Test(datatype, before_init, .timeout = 30)
{
    rmp_datatype_t t = RMP_INT32;
    size_t s;
    int n;
    rmp_status_t st = {0};
    cr_assert_eq(rmp_type_size(RMP_INT32, &s), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_extent(RMP_INT32, &s), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_contiguous(1, RMP_INT32, &t), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_vector(1, 1, 1, RMP_INT32, &t), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_commit(&t), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_free(&t), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_get_count(&st, RMP_INT32, &n), RMP_ERR_NOT_INITIALIZED);
    cr_assert_null(dtype_get(RMP_INT32, false));
    cr_assert_eq(rmp_init(NULL, NULL), RMP_SUCCESS);
    cr_assert_eq(rmp_finalize(), RMP_SUCCESS);
    cr_assert_eq(rmp_type_size(RMP_INT32, &s), RMP_ERR_NOT_INITIALIZED, "after finalize");
}
