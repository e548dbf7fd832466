/* test_type_decode.c — unit tests of runtime/type_env.c, type_ctor.c and type_pack.c through
 * the native API: a freed old type named by a live type keeps its slot even when the table
 * wraps around and reuses slots (its layout and its record stay right), the contents of a
 * type, native pack/unpack and external32, and the calls before rmp_init. Each test runs as a
 * singleton (no launcher). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "rmp.h"

static void setup(void)
{
    cr_assert_eq(rmp_init(NULL, NULL), RMP_SUCCESS);
}

static void teardown(void)
{
    cr_assert_eq(rmp_finalize(), RMP_SUCCESS);
}

#define TD .init = setup, .fini = teardown, .timeout = 60

Test(type_decode, freed_old_type_survives_slot_reuse, TD)
{
    rmp_datatype_t v, s, c;
    cr_assert_eq(rmp_type_vector(3, 1, 2, RMP_INT32, &v), RMP_SUCCESS); /* ints 0, 2, 4 */
    int bl[2] = {1, 1};
    ptrdiff_t d[2] = {0, 8};
    rmp_datatype_t ty[2] = {RMP_DOUBLE, v};
    cr_assert_eq(rmp_type_create_struct(2, bl, d, ty, &s), RMP_SUCCESS);
    cr_assert_eq(rmp_type_free(&v), RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&s), RMP_SUCCESS);
    /* wrap the table around: every free slot but the held ones gets reused */
    for (int i = 0; i < DT_MAX_DERIVED + 100; i++) {
        rmp_datatype_t t;
        cr_assert_eq(rmp_type_contiguous(5, RMP_INT8, &t), RMP_SUCCESS, "iteration %d", i);
        cr_assert_eq(rmp_type_free(&t), RMP_SUCCESS);
    }
    int ni, na, nt, comb;
    cr_assert_eq(rmp_type_get_envelope(s, &ni, &na, &nt, &comb), RMP_SUCCESS);
    cr_assert(comb == RMP_COMBINER_STRUCT && ni == 3 && na == 2 && nt == 2);
    int ints[3];
    ptrdiff_t addrs[2];
    rmp_datatype_t types[2];
    cr_assert_eq(rmp_type_get_contents(s, 3, 2, 2, ints, addrs, types), RMP_SUCCESS);
    cr_assert(ints[0] == 2 && ints[1] == 1 && ints[2] == 1 && addrs[0] == 0 && addrs[1] == 8);
    cr_assert_eq(types[0], RMP_DOUBLE);
    c = types[1];
    cr_assert_geq(c, DT_FIRST_DERIVED);
    cr_assert_eq(rmp_type_get_envelope(c, &ni, &na, &nt, &comb), RMP_SUCCESS);
    cr_assert(comb == RMP_COMBINER_VECTOR && ni == 3 && na == 0 && nt == 1);
    cr_assert_eq(rmp_type_get_contents(c, 3, 0, 1, ints, NULL, types), RMP_SUCCESS);
    cr_assert(ints[0] == 3 && ints[1] == 1 && ints[2] == 2 && types[0] == RMP_INT32);
    /* the struct still packs its vector right */
    struct {
        double x;
        int32_t v[5];
    } in = {2.5, {10, 11, 12, 13, 14}};
    unsigned char buf[32];
    size_t pos = 0;
    cr_assert_eq(rmp_pack(&in, 1, s, buf, sizeof buf, &pos), RMP_SUCCESS);
    cr_assert_eq(pos, 8 + 12);
    int32_t got[3];
    memcpy(got, buf + 8, 12);
    cr_assert(got[0] == 10 && got[1] == 12 && got[2] == 14);
    cr_assert_eq(rmp_type_free(&c), RMP_SUCCESS);
    cr_assert_eq(rmp_type_free(&s), RMP_SUCCESS);
}

Test(type_decode, pack_native_and_external32, TD)
{
    rmp_datatype_t sa;
    int sz[2] = {3, 4}, sub[2] = {2, 2}, st[2] = {1, 2};
    cr_assert_eq(rmp_type_create_subarray(2, sz, sub, st, RMP_ORDER_C, RMP_INT16, &sa),
                 RMP_SUCCESS);
    cr_assert_eq(rmp_type_commit(&sa), RMP_SUCCESS);
    int16_t a[12], b[12];
    for (int i = 0; i < 12; i++)
        a[i] = (int16_t)(0x0100 + i), b[i] = -1;
    unsigned char buf[16];
    size_t pos = 0, need = 0;
    cr_assert_eq(rmp_pack_size(1, sa, &need), RMP_SUCCESS);
    cr_assert_eq(need, 8);
    cr_assert_eq(rmp_pack_external("external32", a, 1, sa, buf, sizeof buf, &pos), RMP_SUCCESS);
    cr_assert_eq(pos, 8);
    /* elements 6, 7, 10, 11 of the array, big-endian */
    const unsigned char want[8] = {1, 6, 1, 7, 1, 10, 1, 11};
    cr_assert_arr_eq(buf, want, 8);
    size_t ip = 0;
    cr_assert_eq(rmp_unpack_external("external32", buf, pos, &ip, b, 1, sa), RMP_SUCCESS);
    for (int i = 0; i < 12; i++)
        cr_assert_eq(b[i], (i == 6 || i == 7 || i == 10 || i == 11) ? a[i] : -1, "b[%d]", i);
    ip = 0;
    cr_assert_eq(rmp_unpack(buf, 7, &ip, b, 1, sa), RMP_ERR_TRUNCATE);
    cr_assert_eq(rmp_pack(a, 1, sa, buf, 8, NULL), RMP_ERR_ARG);
    cr_assert_eq(rmp_pack_external("external", a, 1, sa, buf, 8, &ip), RMP_ERR_ARG);
    cr_assert_eq(rmp_type_free(&sa), RMP_SUCCESS);
}

Test(type_decode, before_init, .timeout = 30)
{
    rmp_datatype_t t = RMP_INT32;
    int i, n[3] = {1, 1, 1};
    ptrdiff_t a = 0;
    size_t pos = 0, s;
    char buf[8];
    cr_assert_eq(rmp_type_create_hvector(1, 1, 4, RMP_INT32, &t), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_create_indexed_block(1, 1, n, RMP_INT32, &t), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_create_hindexed_block(1, 1, &a, RMP_INT32, &t),
                 RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_create_subarray(1, n, n, &i, RMP_ORDER_C, RMP_INT32, &t),
                 RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_create_darray(1, 0, 1, n, n, n, n, RMP_ORDER_C, RMP_INT32, &t),
                 RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_dup(RMP_INT32, &t), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_get_envelope(RMP_INT32, &i, &i, &i, &i), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_get_contents(RMP_INT32, 0, 0, 0, NULL, NULL, NULL),
                 RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_type_get_true_extent(RMP_INT32, &a, &a), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_pack(buf, 1, RMP_INT32, buf, 8, &pos), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_unpack(buf, 8, &pos, buf, 1, RMP_INT32), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_pack_size(1, RMP_INT32, &s), RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_pack_external("external32", buf, 1, RMP_INT32, buf, 8, &pos),
                 RMP_ERR_NOT_INITIALIZED);
    cr_assert_eq(rmp_pack_external_size("external32", 1, RMP_INT32, &s),
                 RMP_ERR_NOT_INITIALIZED);
}

/* Many derived types alive at once, as HDF5's link-chunk collective I/O holds one per chunk
 * (160,000 in its parallel tests): each is made, then all are freed. */
Test(type_decode, many_alive_at_once, TD)
{
    enum { N = 200000 };
    rmp_datatype_t *t = malloc(sizeof(*t) * N);
    cr_assert(t);
    for (int i = 0; i < N; i++)
        cr_assert_eq(rmp_type_contiguous(1 + i % 7, RMP_INT8, &t[i]), RMP_SUCCESS, "type %d", i);
    for (int i = 0; i < N; i++) {
        size_t size = 0;
        cr_assert_eq(rmp_type_size(t[i], &size), RMP_SUCCESS);
        cr_assert_eq(size, (size_t)(1 + i % 7));
        cr_assert_eq(rmp_type_free(&t[i]), RMP_SUCCESS);
    }
    free(t);
}
