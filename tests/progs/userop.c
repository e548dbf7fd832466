/* userop.c — user-defined reductions against a serial reference: a non-commutative one (2x2
 * matrix products, mod 2^64: the order of the ranks matters) through allreduce, reduce to
 * every root, reduce_scatter_block, scan and exscan, blocking and not; a commutative one on a
 * strided (non-contiguous) type, which the function must see in the type's own layout; the
 * handle rules, and an op freed while a nonblocking allreduce holds it. "userop: OK" from
 * rank 0. */
#include "progs.h"

static int me, np;
static rmp_datatype_t mat_t, vec_t; /* 4 uint64 contiguous; vector(2,1,3) of int32 */
static _Atomic int calls_wrong_type;

typedef struct { uint64_t a, b, c, d; } mat;

static mat mul(mat x, mat y)
{
    return (mat){x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                 x.c * y.b + x.d * y.d};
}

static mat mine(int r, int k)
{
    return (mat){(uint64_t)(r + k + 1), 1, 1, (uint64_t)(r % 3)};
}

/* inout = in x inout */
static void matmul(void *in, void *inout, int *len, rmp_datatype_t *t)
{
    if (*t != mat_t)
        calls_wrong_type++;
    mat *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i] = mul(x[i], y[i]);
}

/* int32 at offsets 0 and 3 of each 4-int element: add; the gaps hold 0 here */
static void vsum(void *in, void *inout, int *len, rmp_datatype_t *t)
{
    if (*t != vec_t)
        calls_wrong_type++;
    int32_t *x = in, *y = inout;
    for (int i = 0; i < *len; i++) {
        y[4 * i] += x[4 * i];
        y[4 * i + 3] += x[4 * i + 3];
        if (y[4 * i + 1] || y[4 * i + 2])
            calls_wrong_type++; /* the gaps are not data: never filled by rmp */
    }
}

static mat prefix(int lo, int hi, int k) /* M_lo x ... x M_hi */
{
    mat p = mine(lo, k);
    for (int r = lo + 1; r <= hi; r++)
        p = mul(p, mine(r, k));
    return p;
}

static bool same(mat x, mat y)
{
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

static void t_noncommutative(rmp_op_t op, int nb)
{
    enum { K = 3 };
    mat in[8 * K], out[8 * K];
    rmp_request_t r;
    for (int k = 0; k < K; k++)
        in[k] = mine(me, k);
    memset(out, 0, sizeof(out));
    CHECK(nb ? rmp_iallreduce(in, out, K, mat_t, op, RMP_COMM_WORLD, &r)
             : rmp_allreduce(in, out, K, mat_t, op, RMP_COMM_WORLD));
    if (nb)
        CHECK(rmp_wait(&r, RMP_STATUS_IGNORE));
    for (int k = 0; k < K; k++)
        EXPECT(same(out[k], prefix(0, np - 1, k)), "allreduce matmul slot %d (nb %d)", k, nb);
    for (int root = 0; root < np; root++) {
        memset(out, 0, sizeof(out));
        CHECK(rmp_reduce(in, out, K, mat_t, op, root, RMP_COMM_WORLD));
        for (int k = 0; me == root && k < K; k++)
            EXPECT(same(out[k], prefix(0, np - 1, k)), "reduce matmul to %d slot %d", root, k);
    }
    /* reduce_scatter_block: slot k of rank q's part is k + q */
    mat all[8 * K];
    for (int i = 0; i < np * K; i++)
        all[i] = mine(me, i);
    CHECK(rmp_reduce_scatter_block(all, out, K, mat_t, op, RMP_COMM_WORLD));
    for (int k = 0; k < K; k++)
        EXPECT(same(out[k], prefix(0, np - 1, me * K + k)), "reduce_scatter matmul slot %d", k);
    CHECK(rmp_scan(in, out, K, mat_t, op, RMP_COMM_WORLD));
    for (int k = 0; k < K; k++)
        EXPECT(same(out[k], prefix(0, me, k)), "scan matmul slot %d", k);
    memset(out, 0, sizeof(out));
    CHECK(rmp_exscan(in, out, K, mat_t, op, RMP_COMM_WORLD));
    for (int k = 0; me > 0 && k < K; k++)
        EXPECT(same(out[k], prefix(0, me - 1, k)), "exscan matmul slot %d", k);
}

static void t_strided(rmp_op_t op)
{
    enum { K = 3 };
    int32_t in[4 * K], out[4 * K];
    for (int k = 0; k < K; k++) {
        in[4 * k] = me + k;
        in[4 * k + 3] = 10 * me - k;
        in[4 * k + 1] = in[4 * k + 2] = -99;
        out[4 * k + 1] = out[4 * k + 2] = 77; /* gaps: must stay */
    }
    CHECK(rmp_allreduce(in, out, K, vec_t, op, RMP_COMM_WORLD));
    int s = np * (np - 1) / 2;
    for (int k = 0; k < K; k++) {
        EXPECT(out[4 * k] == s + np * k && out[4 * k + 3] == 10 * s - np * k,
               "strided user sum slot %d: %d %d", k, out[4 * k], out[4 * k + 3]);
        EXPECT(out[4 * k + 1] == 77 && out[4 * k + 2] == 77, "a gap was written");
    }
}

static void iadd(void *in, void *inout, int *len, rmp_datatype_t *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        ((int32_t *)inout)[i] += ((const int32_t *)in)[i];
}

static void impostor(void *in, void *inout, int *len, rmp_datatype_t *t)
{
    (void)in, (void)t;
    for (int i = 0; i < *len; i++)
        ((int32_t *)inout)[i] = -7;
}

/* Freed while a nonblocking allreduce holds it, and a new op created at once: the allreduce
 * still applies the freed op (MPI's rule), never the new one in its slot. Counts for the
 * shared-memory path and for the software schedules. */
static void t_freed_in_flight(void)
{
    static const int counts[] = {4, 1024, 70000};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        int n = counts[k];
        size_t bytes = sizeof(int32_t) * (size_t)n;
        int32_t *in = malloc(bytes), *out = malloc(bytes);
        if (!in || !out) {
            FAIL("no memory for %d ints", n);
            return;
        }
        for (int i = 0; i < n; i++)
            in[i] = me + i, out[i] = -1;
        rmp_op_t op, other;
        rmp_request_t req;
        MUST(rmp_op_create(iadd, 1, &op));
        CHECK(rmp_iallreduce(in, out, n, RMP_INT32, op, RMP_COMM_WORLD, &req));
        CHECK(rmp_op_free(&op));
        CHECK(rmp_op_create(impostor, 1, &other));
        CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
        for (int i = 0; i < n; i++)
            if (out[i] != np * (np - 1) / 2 + np * i) {
                FAIL("op freed in flight, %d ints: out[%d] = %d, expected %d", n, i, out[i],
                     np * (np - 1) / 2 + np * i);
                break;
            }
        CHECK(rmp_op_free(&other));
        free(in);
        free(out);
    }
}

/* A pipeline that creates, uses and frees an op per step while the previous step's request is
 * still in flight: more steps than there are op slots, so freed ops must be given back as
 * their calls end, not only when no collective at all is in flight. */
static void t_op_per_step(void)
{
    enum { STEPS = 1100 };
    int32_t in[2][4], out[2][4];
    rmp_request_t req[2] = {RMP_REQUEST_NULL, RMP_REQUEST_NULL};
    for (int k = 0; k <= STEPS; k++) {
        int b = k % 2;
        if (k < STEPS) {
            rmp_op_t op;
            int rc = rmp_op_create(iadd, 1, &op);
            if (rc != RMP_SUCCESS) {
                FAIL("step %d: rmp_op_create returned %d (%s)", k, rc, rmp_strerror(rc));
                break;
            }
            for (int i = 0; i < 4; i++)
                in[b][i] = me + i + k, out[b][i] = -1;
            CHECK(rmp_iallreduce(in[b], out[b], 4, RMP_INT32, op, RMP_COMM_WORLD, &req[b]));
            CHECK(rmp_op_free(&op));
        }
        if (k > 0) { /* the previous step's */
            int pb = 1 - b, pk = k - 1;
            CHECK(rmp_wait(&req[pb], RMP_STATUS_IGNORE));
            for (int i = 0; i < 4; i++)
                if (out[pb][i] != np * (np - 1) / 2 + np * (i + pk)) {
                    FAIL("step %d: out[%d] = %d, expected %d", pk, i, out[pb][i],
                         np * (np - 1) / 2 + np * (i + pk));
                    return;
                }
        }
    }
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &me);
    rmp_comm_size(RMP_COMM_WORLD, &np);
    prog_rank = me;
    phase("userop", 60);
    MUST(rmp_type_contiguous(4, RMP_UINT64, &mat_t));
    MUST(rmp_type_commit(&mat_t));
    MUST(rmp_type_vector(2, 1, 3, RMP_INT32, &vec_t));
    rmp_datatype_t v4;
    MUST(rmp_type_create_resized(vec_t, 0, 16, &v4)); /* element: 4 ints, data at 0 and 3 */
    MUST(rmp_type_free(&vec_t));
    vec_t = v4;
    MUST(rmp_type_commit(&vec_t));
    rmp_op_t mm, vs;
    MUST(rmp_op_create(matmul, 0, &mm));
    MUST(rmp_op_create(vsum, 1, &vs));
    t_noncommutative(mm, 0);
    t_noncommutative(mm, 1);
    t_strided(vs);
    t_freed_in_flight();
    t_op_per_step();
    EXPECT(calls_wrong_type == 0, "the user functions saw %d wrong types or filled gaps",
           calls_wrong_type);
    rmp_op_t b = RMP_SUM, stale = mm;
    EXPECT_RC(RMP_ERR_OP, rmp_op_free(&b));
    EXPECT_RC(RMP_ERR_ARG, rmp_op_create(NULL, 1, &b));
    CHECK(rmp_op_free(&mm));
    EXPECT(mm == RMP_OP_NULL, "freed op handle is %d", mm);
    EXPECT_RC(RMP_ERR_OP, rmp_op_free(&stale));
    mat x = mine(me, 0), y;
    EXPECT_RC(RMP_ERR_OP, rmp_allreduce(&x, &y, 1, mat_t, stale, RMP_COMM_WORLD));
    CHECK(rmp_op_free(&vs));
    MUST(rmp_type_free(&vec_t));
    MUST(rmp_type_free(&mat_t));
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("userop: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
