/* test_op.c — unit tests of runtime/op.c: which (op, type) pairs op_check accepts, and every
 * kernel against a plain scalar loop on odd lengths (vector body plus scalar tail), aligned
 * and misaligned, with negative values, zeros, and integer wrap-around. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* around the kernels' 256-byte blocks: 32 doubles, 64 floats, 256 bytes (runtime/op.c) */
static const size_t lengths[] = {1, 3, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1000, 1001};

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Integers over their whole range (sums and products wrap), floats small and integer-or-half
 * valued with both signs; every 7th value zero for the logical ops. */
static int64_t gen_int(uint64_t seed, size_t i)
{
    return i % 7 == 3 ? 0 : (int64_t)mix(seed * 1000003u + i);
}

static double gen_real(uint64_t seed, size_t i)
{
    return i % 7 == 3 ? 0.0 : (double)((int64_t)(mix(seed * 1000003u + i) % 2001) - 1000) / 2;
}

/* Reference results, element by element, with 64-bit modular arithmetic for integers. */
#define REF_INT(T)                                                                                 \
    static T ref_##T(rmp_op_t op, T a, T b)                                                        \
    {                                                                                              \
        switch (op) {                                                                              \
        case RMP_SUM:                                                                              \
            return (T)((uint64_t)a + (uint64_t)b);                                                 \
        case RMP_PROD:                                                                             \
            return (T)((uint64_t)a * (uint64_t)b);                                                 \
        case RMP_MIN:                                                                              \
            return a < b ? a : b;                                                                  \
        case RMP_MAX:                                                                              \
            return a > b ? a : b;                                                                  \
        case RMP_BAND:                                                                             \
            return (T)(a & b);                                                                     \
        case RMP_BOR:                                                                              \
            return (T)(a | b);                                                                     \
        case RMP_BXOR:                                                                             \
            return (T)(a ^ b);                                                                     \
        case RMP_LAND:                                                                             \
            return (T)(a && b);                                                                    \
        case RMP_LOR:                                                                              \
            return (T)(a || b);                                                                    \
        }                                                                                          \
        cr_assert_fail("op %d", op);                                                               \
        return (T)0;                                                                               \
    }
#define REF_REAL(T)                                                                                \
    static T ref_##T(rmp_op_t op, T a, T b)                                                        \
    {                                                                                              \
        switch (op) {                                                                              \
        case RMP_SUM:                                                                              \
            return a + b;                                                                          \
        case RMP_PROD:                                                                             \
            return a * b;                                                                          \
        case RMP_MIN:                                                                              \
            return a < b ? a : b;                                                                  \
        case RMP_MAX:                                                                              \
            return a > b ? a : b;                                                                  \
        case RMP_LAND:                                                                             \
            return (T)(a != 0 && b != 0);                                                          \
        case RMP_LOR:                                                                              \
            return (T)(a != 0 || b != 0);                                                          \
        }                                                                                          \
        cr_assert_fail("op %d", op);                                                               \
        return (T)0;                                                                               \
    }

REF_INT(int8_t)
REF_INT(int16_t)
REF_INT(int32_t)
REF_INT(int64_t)
REF_INT(uint8_t)
REF_INT(uint16_t)
REF_INT(uint32_t)
REF_INT(uint64_t)
REF_REAL(float)
REF_REAL(double)

/* Every accepted op on every length, at an aligned and a misaligned start. */
#define CHECK_TYPE(T, BASE, GEN)                                                                   \
    static void check_##T(void)                                                                    \
    {                                                                                              \
        T *in = malloc(sizeof(T) * 1002), *io = malloc(sizeof(T) * 1002);                          \
        T *want = malloc(sizeof(T) * 1002);                                                        \
        int checked = 0;                                                                           \
        for (rmp_op_t op = RMP_SUM; op <= RMP_LOR; op++) {                                         \
            if (op_check(op, BASE) != RMP_SUCCESS)                                                 \
                continue;                                                                          \
            for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++) {                    \
                for (size_t skew = 0; skew < 2; skew++) {                                          \
                    size_t n = lengths[l];                                                         \
                    for (size_t i = 0; i < n; i++) {                                               \
                        in[skew + i] = (T)GEN((uint64_t)op * 2 + 1, i);                            \
                        io[skew + i] = (T)GEN((uint64_t)op * 2 + 2, i);                            \
                        want[i] = ref_##T(op, in[skew + i], io[skew + i]);                         \
                    }                                                                              \
                    op_reduce(op, BASE, in + skew, io + skew, n);                                  \
                    for (size_t i = 0; i < n; i++)                                                 \
                        cr_assert(memcmp(&io[skew + i], &want[i], sizeof(T)) == 0,                 \
                                  #T " op %d n %zu skew %zu index %zu", op, n, skew, i);           \
                }                                                                                  \
            }                                                                                      \
            checked++;                                                                             \
        }                                                                                          \
        cr_assert_gt(checked, 0);                                                                  \
        free(in);                                                                                  \
        free(io);                                                                                  \
        free(want);                                                                                \
    }

CHECK_TYPE(int8_t, DT_INT8, gen_int)
CHECK_TYPE(int16_t, DT_INT16, gen_int)
CHECK_TYPE(int32_t, DT_INT32, gen_int)
CHECK_TYPE(int64_t, DT_INT64, gen_int)
CHECK_TYPE(uint8_t, DT_UINT8, gen_int)
CHECK_TYPE(uint16_t, DT_UINT16, gen_int)
CHECK_TYPE(uint32_t, DT_UINT32, gen_int)
CHECK_TYPE(uint64_t, DT_UINT64, gen_int)
CHECK_TYPE(float, DT_FLOAT, gen_real)
CHECK_TYPE(double, DT_DOUBLE, gen_real)

Test(op, int8, .timeout = 30)
{
    check_int8_t();
}
Test(op, int16, .timeout = 30)
{
    check_int16_t();
}
Test(op, int32, .timeout = 30)
{
    check_int32_t();
}
Test(op, int64, .timeout = 30)
{
    check_int64_t();
}
Test(op, uint8, .timeout = 30)
{
    check_uint8_t();
}
Test(op, uint16, .timeout = 30)
{
    check_uint16_t();
}
Test(op, uint32, .timeout = 30)
{
    check_uint32_t();
}
Test(op, uint64, .timeout = 30)
{
    check_uint64_t();
}
Test(op, float, .timeout = 30)
{
    check_float();
}
Test(op, double, .timeout = 30)
{
    check_double();
}

Test(op, byte, .timeout = 30)
{
    uint8_t in[1001], io[1001], want[1001];
    const rmp_op_t bitwise[] = {RMP_BAND, RMP_BOR, RMP_BXOR};
    for (size_t k = 0; k < 3; k++) {
        for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++) {
            size_t n = lengths[l];
            for (size_t i = 0; i < n; i++) {
                in[i] = (uint8_t)mix(i);
                io[i] = (uint8_t)mix(i + 5000);
                want[i] = ref_uint8_t(bitwise[k], in[i], io[i]);
            }
            op_reduce(bitwise[k], DT_BYTE, in, io, n);
            cr_assert_arr_eq(io, want, n, "byte op %d n %zu", bitwise[k], n);
        }
    }
}

Test(op, check_matrix, .timeout = 30)
{
    /* the first builtins; the predefined types of issue 20 are checked by tests/mpi/mpi_predef */
    for (int b = DT_INT8; b <= DT_SHORT_INT; b++) {
        bool real = b == DT_FLOAT || b == DT_DOUBLE, byte = b == DT_BYTE, pair = b >= DT_2INT;
        for (rmp_op_t op = RMP_SUM; op <= RMP_MAXLOC; op++) {
            bool bitwise = op == RMP_BAND || op == RMP_BOR || op == RMP_BXOR;
            bool loc = op == RMP_MINLOC || op == RMP_MAXLOC;
            bool ok = pair ? loc : !loc && (byte ? bitwise : !(real && bitwise));
            cr_assert_eq(op_check(op, (dt_base_t)b), ok ? RMP_SUCCESS : RMP_ERR_OP, "op %d base %d",
                         op, b);
        }
        cr_assert_eq(op_check(RMP_OP_NULL, (dt_base_t)b), RMP_ERR_OP);
        cr_assert_eq(op_check(RMP_REPLACE, (dt_base_t)b), RMP_ERR_OP);
        cr_assert_eq(op_check(RMP_NO_OP, (dt_base_t)b), RMP_ERR_OP);
        cr_assert_eq(op_check(RMP_NO_OP + 1, (dt_base_t)b), RMP_ERR_OP);
        cr_assert_eq(op_check(-1, (dt_base_t)b), RMP_ERR_OP);
    }
    for (rmp_op_t op = RMP_OP_NULL; op <= RMP_NO_OP; op++) /* packed bytes: no op applies */
        cr_assert_eq(op_check(op, DT_PACKED), RMP_ERR_OP, "op %d on DT_PACKED", op);
    cr_assert_eq(op_check(RMP_SUM, DT_NONE), RMP_ERR_OP);
    cr_assert_eq(op_check(RMP_SUM, DT_NBUILTIN), RMP_ERR_OP);
    cr_assert_eq(op_check(RMP_SUM, (dt_base_t)-1), RMP_ERR_OP);
}

Test(op, wrap_and_signs, .timeout = 30)
{
    uint32_t u_in[3] = {UINT32_MAX, 5, 0}, u_io[3] = {2, UINT32_MAX, 0};
    op_reduce(RMP_SUM, DT_UINT32, u_in, u_io, 3);
    cr_assert(u_io[0] == 1 && u_io[1] == 4 && u_io[2] == 0);
    int8_t s_in[2] = {127, -128}, s_io[2] = {1, -1};
    op_reduce(RMP_SUM, DT_INT8, s_in, s_io, 2);
    cr_assert(s_io[0] == -128 && s_io[1] == 127);
    uint16_t p_in[1] = {65535}, p_io[1] = {65535};
    op_reduce(RMP_PROD, DT_UINT16, p_in, p_io, 1);
    cr_assert_eq(p_io[0], 1); /* 65535^2 mod 2^16, no int overflow on the way */
    double d_in[3] = {-3.5, 2, -0.0}, d_io[3] = {1, -7, 4};
    op_reduce(RMP_MIN, DT_DOUBLE, d_in, d_io, 3);
    cr_assert(d_io[0] == -3.5 && d_io[1] == -7 && d_io[2] == -0.0);
    int64_t l_in[2] = {INT64_MIN, -1}, l_io[2] = {INT64_MAX, -2};
    op_reduce(RMP_MAX, DT_INT64, l_in, l_io, 2);
    cr_assert(l_io[0] == INT64_MAX && l_io[1] == -1);
}

Test(op, invalid_is_noop, .timeout = 30)
{
    float in[4] = {1, 2, 3, 4}, io[4] = {5, 6, 7, 8};
    op_reduce(RMP_BAND, DT_FLOAT, in, io, 4);
    op_reduce(RMP_OP_NULL, DT_FLOAT, in, io, 4);
    op_reduce(RMP_SUM, DT_NONE, in, io, 4);
    op_reduce(RMP_SUM, DT_FLOAT, in, io, 0);
    cr_assert(io[0] == 5 && io[3] == 8);
}
