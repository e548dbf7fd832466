/* test_op_predef.c — unit tests of the predefined types' kernels in runtime/op.c (issue 20):
 * the whole (op, base) matrix of op_check against MPI-3.1 5.9.2 for the added bases, and the
 * long double, complex, bool, LOGICAL and pair kernels on misaligned packed buffers (both
 * forms, in-place and three-operand), against scalar C. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core.h"

static bool want_ok(rmp_op_t op, int b)
{
    switch (b) {
    case DT_LONG_DOUBLE: /* the logical ops too, as on float and double (MPICH's oplxor) */
        return op == RMP_SUM || op == RMP_PROD || op == RMP_MIN || op == RMP_MAX ||
               op == RMP_LAND || op == RMP_LOR || op == RMP_LXOR;
    case DT_C_FLOAT_COMPLEX:
    case DT_C_DOUBLE_COMPLEX:
    case DT_C_LONG_DOUBLE_COMPLEX:
        return op == RMP_SUM || op == RMP_PROD;
    case DT_C_BOOL:
    case DT_LOGICAL:
        return op == RMP_LAND || op == RMP_LOR || op == RMP_LXOR;
    case DT_LONG_DOUBLE_INT:
    case DT_2REAL:
    case DT_2DOUBLE:
        return op == RMP_MINLOC || op == RMP_MAXLOC;
    default: /* DT_WCHAR */
        return false;
    }
}

Test(op_predef, check_matrix, .timeout = 30)
{
    for (int b = DT_LONG_DOUBLE; b < DT_NBUILTIN; b++) {
        for (rmp_op_t op = RMP_SUM; op <= RMP_NO_OP; op++)
            cr_assert_eq(op_check(op, (dt_base_t)b), want_ok(op, b) ? RMP_SUCCESS : RMP_ERR_OP,
                         "op %d base %d", op, b);
        cr_assert_eq(op_check(RMP_OP_NULL, (dt_base_t)b), RMP_ERR_OP);
    }
    /* LXOR on every integer type, and on float and double as LAND and LOR are */
    for (int b = DT_INT8; b <= DT_DOUBLE; b++)
        cr_assert_eq(op_check(RMP_LXOR, (dt_base_t)b), RMP_SUCCESS, "LXOR base %d", b);
    cr_assert_eq(op_check(RMP_LXOR, DT_BYTE), RMP_ERR_OP);
    cr_assert_eq(op_check(RMP_LXOR, DT_2INT), RMP_ERR_OP);
    for (int b = DT_INT8; b < DT_NBUILTIN; b++) {
        cr_assert_eq(op_check(RMP_REPLACE, (dt_base_t)b), RMP_ERR_OP);
        cr_assert_eq(op_check(RMP_NO_OP, (dt_base_t)b), RMP_ERR_OP);
    }
}

/* n elements of T at offsets 1, 3 and 5 times A (A = 1: misaligned, for the memcpy kernels of
 * long double and complex; the integer kernels LOGICAL and bool share want natural alignment,
 * as packed buffers of those types always have): op_reduce (in place) and op_reduce3 against
 * EXPR */
#define CHECK_AL(T, A, BASE, OP, EXPR, GA, GB)                                                 \
    do {                                                                                       \
        enum { N = 37 };                                                                       \
        static _Alignas(16) char ib[N * sizeof(T) + 8 * (A)], iob[sizeof ib], ob[sizeof ib];   \
        char *in = ib + 1 * (A), *io = iob + 3 * (A), *out = ob + 5 * (A);                     \
        T want[N];                                                                             \
        for (int i = 0; i < N; i++) {                                                          \
            T a = GA, b = GB;                                                                  \
            memcpy(in + i * sizeof(T), &a, sizeof a);                                          \
            memcpy(io + i * sizeof(T), &b, sizeof b);                                          \
            want[i] = (T)(EXPR);                                                               \
        }                                                                                      \
        op_reduce3(OP, BASE, in, io, out, N);                                                  \
        op_reduce(OP, BASE, in, io, N);                                                        \
        for (int i = 0; i < N; i++) {                                                          \
            T g, h;                                                                            \
            memcpy(&g, io + i * sizeof(T), sizeof g);                                          \
            memcpy(&h, out + i * sizeof(T), sizeof h);                                         \
            cr_assert(g == want[i] && h == want[i], "%s op %d element %d", #T, OP, i);         \
        }                                                                                      \
    } while (0)
#define CHECK_MC(T, BASE, OP, EXPR, GA, GB) CHECK_AL(T, 1, BASE, OP, EXPR, GA, GB)
#define CHECK_IK(T, BASE, OP, EXPR, GA, GB) CHECK_AL(T, sizeof(T), BASE, OP, EXPR, GA, GB)

Test(op_predef, kernels, .timeout = 30)
{
    CHECK_MC(long double, DT_LONG_DOUBLE, RMP_SUM, a + b, (long double)i / 4, 1e300L * 1e300L);
    CHECK_MC(long double, DT_LONG_DOUBLE, RMP_PROD, a * b, (long double)i - 3, 1e-3000L);
    CHECK_MC(long double, DT_LONG_DOUBLE, RMP_MIN, a < b ? a : b, (long double)(i % 5),
             (long double)(i % 3));
    CHECK_MC(long double, DT_LONG_DOUBLE, RMP_MAX, a > b ? a : b, (long double)(i % 5),
             (long double)(i % 3));
    /* logical: nonzero (NaN, -0.0 is zero) is true, the result 1 or 0 */
    CHECK_MC(long double, DT_LONG_DOUBLE, RMP_LAND, (a != 0 && b != 0) ? 1 : 0,
             (long double)(i % 3) - 1.5L * (i % 2), i % 4 == 1 ? -0.0L : (long double)(i % 5));
    CHECK_MC(long double, DT_LONG_DOUBLE, RMP_LOR, (a != 0 || b != 0) ? 1 : 0,
             (long double)(i % 3) * 0.25L, i % 4 == 1 ? -0.0L : (long double)(i % 5));
    CHECK_MC(long double, DT_LONG_DOUBLE, RMP_LXOR, (a != 0) != (b != 0) ? 1 : 0,
             (long double)(i % 3) - 1, i % 7 == 3 ? __builtin_nanl("") : (long double)(i % 2));
    CHECK_MC(float _Complex, DT_C_FLOAT_COMPLEX, RMP_SUM, a + b, (float)i + 2.0fi, -1.5f * i);
    CHECK_MC(float _Complex, DT_C_FLOAT_COMPLEX, RMP_PROD, a * b, (float)i + 2.0fi,
             0.5f - (float)(i % 4) * 1.0fi);
    CHECK_MC(double _Complex, DT_C_DOUBLE_COMPLEX, RMP_SUM, a + b, (double)i - 1.0i, 3.0i);
    CHECK_MC(double _Complex, DT_C_DOUBLE_COMPLEX, RMP_PROD, a * b, (double)i - 1.0i,
             2.0 + (double)i * 1.0i);
    CHECK_MC(long double _Complex, DT_C_LONG_DOUBLE_COMPLEX, RMP_SUM, a + b,
             (long double)i + 1.0Li, -2.0Li);
    CHECK_MC(long double _Complex, DT_C_LONG_DOUBLE_COMPLEX, RMP_PROD, a * b,
             (long double)i + 1.0Li, (long double)(i % 3) - 2.0Li);
    CHECK_IK(_Bool, DT_C_BOOL, RMP_LAND, a && b, i % 2, i % 3);
    CHECK_IK(_Bool, DT_C_BOOL, RMP_LOR, a || b, i % 2, i % 3);
    CHECK_IK(_Bool, DT_C_BOOL, RMP_LXOR, a != b, i % 2, i % 3);
    /* LOGICAL: any nonzero is true (some compilers use -1), results are 0 or 1 */
    CHECK_IK(int32_t, DT_LOGICAL, RMP_LAND, (a != 0) && (b != 0), i % 2 ? -1 : 0, i % 3);
    CHECK_IK(int32_t, DT_LOGICAL, RMP_LOR, (a != 0) || (b != 0), i % 2 ? -1 : 0, i % 3 == 0);
    CHECK_IK(int32_t, DT_LOGICAL, RMP_LXOR, (a != 0) != (b != 0), i % 2 ? 7 : 0, i % 3 == 0);
    CHECK_IK(int64_t, DT_INT64, RMP_LXOR, (a != 0) != (b != 0), i % 2 ? INT64_MIN : 0, i % 3);
    CHECK_IK(uint8_t, DT_UINT8, RMP_LXOR, (a != 0) != (b != 0), (uint8_t)(i % 2 ? 128 : 0),
             (uint8_t)(i % 3));
}

/* MINLOC / MAXLOC on records whose index is not an int, and on 20-byte long double records */
Test(op_predef, loc, .timeout = 30)
{
    float r_in[6] = {1, 5, 2, 3, 2, 9}, r_io[6] = {1, 2, 2, 1, 3, 4}; /* {v, i} x 3 */
    op_reduce(RMP_MINLOC, DT_2REAL, r_in, r_io, 3);
    cr_assert(r_io[0] == 1 && r_io[1] == 2 && r_io[2] == 2 && r_io[3] == 1 && r_io[4] == 2 &&
              r_io[5] == 9);
    double d_in[4] = {4, 0.5, -1, 7}, d_io[4] = {4, 0.25, -1, 8}, d_out[4];
    op_reduce3(RMP_MAXLOC, DT_2DOUBLE, d_in, d_io, d_out, 2);
    cr_assert(d_out[0] == 4 && d_out[1] == 0.25 && d_out[2] == -1 && d_out[3] == 7);
    size_t rs = sizeof(long double) + 4;
    char a[2 * sizeof(long double) + 8 + 1], b[sizeof a];
    long double v;
    int32_t ix;
    for (int k = 0; k < 2; k++) {
        v = k ? 2.5L : -1.0L, ix = k ? 7 : 3;
        memcpy(a + 1 + k * rs, &v, sizeof v), memcpy(a + 1 + k * rs + sizeof v, &ix, 4);
        v = k ? 2.5L : 0.0L, ix = k ? 6 : 1;
        memcpy(b + 1 + k * rs, &v, sizeof v), memcpy(b + 1 + k * rs + sizeof v, &ix, 4);
    }
    op_reduce(RMP_MAXLOC, DT_LONG_DOUBLE_INT, a + 1, b + 1, 2);
    memcpy(&v, b + 1, sizeof v), memcpy(&ix, b + 1 + sizeof v, 4);
    cr_assert(v == 0.0L && ix == 1);
    memcpy(&v, b + 1 + rs, sizeof v), memcpy(&ix, b + 1 + rs + sizeof v, 4);
    cr_assert(v == 2.5L && ix == 6, "tie: the smaller index");
}
