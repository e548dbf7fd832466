/* mpi_dims.c — MPI_Dims_create against a serial brute force: for every nnodes up to 512 in 2,
 * 3 and 4 dimensions (and with some dimensions fixed), the result must multiply out, be
 * non-increasing over the free dimensions, keep the fixed ones, and be the most balanced split
 * (the smallest largest-minus-smallest; on ties, the larger smallest factor, then the larger
 * next-smallest, as MPICH's table has it: 5040 in 3-D is 21 x 16 x 15, not 20 x 18 x 14).
 * Then exact answers that MPICH's balanced-decomposition table lists (72 in 2-D is 9 x 8, not
 * 12 x 6), large inputs that must come back at once, and the error codes. Every rank checks
 * the same things (a local call). */
#include <limits.h>
#include <string.h>

#include "mpicheck.h"

/* The best split of n into k non-increasing factors, found by trying every one: the smallest
 * spread (largest minus smallest), on ties the larger smallest factor, then the larger
 * next-smallest... (how MPICH's table orders them). cur[0..depth-1] is the prefix so far. */
typedef struct {
    int k, cur[4], best[4], spread;
} split_t;

static void best_split(split_t *s, int n, int cap, int depth)
{
    if (depth == s->k - 1) {
        if (n > cap)
            return;
        s->cur[depth] = n;
        int spread = s->cur[0] - n, better = spread < s->spread;
        for (int i = s->k - 1; spread == s->spread && i >= 0 && !better; i--)
            if (s->cur[i] != s->best[i]) {
                better = s->cur[i] > s->best[i];
                break;
            }
        if (better) {
            s->spread = spread;
            memcpy(s->best, s->cur, sizeof s->best);
        }
        return;
    }
    for (int d = 1; d <= cap && d <= n; d++)
        if (n % d == 0) {
            s->cur[depth] = d;
            best_split(s, n / d, d, depth + 1);
        }
}

static void check_one(int nnodes, int ndims, const int *fixed)
{
    int dims[4], free_vals[4], nfree = 0, prod = 1, fprod = 1;
    for (int i = 0; i < ndims; i++)
        dims[i] = fixed[i], fprod *= fixed[i] ? fixed[i] : 1;
    int rc = MPI_Dims_create(nnodes, ndims, dims);
    if (nnodes % fprod) {
        if (rc == MPI_SUCCESS)
            FAIL("Dims_create(%d, %d) with fixed product %d: success, expected an error", nnodes,
                 ndims, fprod);
        return;
    }
    if (rc != MPI_SUCCESS) {
        FAIL("Dims_create(%d, %d): returned %d", nnodes, ndims, rc);
        return;
    }
    for (int i = 0; i < ndims; i++) {
        prod *= dims[i];
        if (fixed[i] && dims[i] != fixed[i])
            FAIL("Dims_create(%d, %d): fixed dims[%d] = %d became %d", nnodes, ndims, i,
                 fixed[i], dims[i]);
        if (!fixed[i])
            free_vals[nfree++] = dims[i];
    }
    if (prod != nnodes)
        FAIL("Dims_create(%d, %d): the product is %d", nnodes, ndims, prod);
    for (int i = 1; i < nfree; i++)
        if (free_vals[i] > free_vals[i - 1])
            FAIL("Dims_create(%d, %d): the free dimensions increase (%d then %d)", nnodes, ndims,
                 free_vals[i - 1], free_vals[i]);
    if (nfree == 0)
        return;
    split_t s = {.k = nfree, .spread = INT_MAX};
    best_split(&s, nnodes / fprod, nnodes / fprod, 0);
    for (int i = 0; i < nfree; i++)
        if (free_vals[i] != s.best[i]) {
            FAIL("Dims_create(%d, %d): free dims[%d] = %d, the best split has %d (spread %d)",
                 nnodes, ndims, i, free_vals[i], s.best[i], s.spread);
            break;
        }
}

static void t_brute(void)
{
    static const int fixes[][4] = {{0, 0, 0, 0}, {2, 0, 0, 0}, {0, 3, 0, 0}, {0, 0, 0, 4}};
    for (int ndims = 2; ndims <= 4; ndims++)
        for (int nnodes = 1; nnodes <= (ndims == 4 ? 200 : 512); nnodes++)
            for (size_t f = 0; f < sizeof fixes / sizeof fixes[0]; f++)
                check_one(nnodes, ndims, fixes[f]);
    /* the first sizes where two splits share the smallest spread */
    for (int nnodes = 5000; nnodes <= 5100; nnodes++)
        check_one(nnodes, 3, fixes[0]);
    for (int nnodes = 5600; nnodes <= 5620; nnodes++)
        check_one(nnodes, 4, fixes[0]);
}

/* Entries of MPICH's table of balanced decompositions (test/mpi/topo), and the classics. */
static void t_table(void)
{
    static const struct {
        int n, k, want[4];
    } t[] = {
        {72, 2, {9, 8}},          {180, 2, {15, 12}},       {1323, 2, {49, 27}},
        {6125, 2, {125, 49}},     {453420, 3, {229, 45, 44}}, {454140, 3, {87, 87, 60}},
        {461125, 3, {125, 119, 31}}, {455625, 3, {81, 75, 75}}, {453528, 3, {6299, 9, 8}},
        {459270, 3, {81, 81, 70}}, {472311, 3, {119, 63, 63}}, {1000000000, 3, {1000, 1000, 1000}},
        {12, 2, {4, 3}},          {16, 3, {4, 2, 2}},       {7, 2, {7, 1}},
        {24, 4, {3, 2, 2, 2}},    {1, 3, {1, 1, 1}},       {5040, 3, {21, 16, 15}},
        {10800, 3, {27, 20, 20}}, {118800, 3, {55, 48, 45}}, {586224, 3, {118, 72, 69}},
        {5616, 4, {13, 9, 8, 6}}, {2095133040, 2, {46189, 45360}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int d[4] = {0, 0, 0, 0};
        CHECK(MPI_Dims_create(t[i].n, t[i].k, d));
        for (int j = 0; j < t[i].k; j++)
            if (d[j] != t[i].want[j]) {
                FAIL("Dims_create(%d, %d) gave %d x %d x %d x %d, expected %d x %d x %d x %d",
                     t[i].n, t[i].k, d[0], d[1], d[2], d[3], t[i].want[0], t[i].want[1],
                     t[i].want[2], t[i].want[3]);
                break;
            }
    }
    /* large inputs: many divisors, many dimensions (the watchdog bounds the time) */
    int big[20] = {0}, prod = 1;
    CHECK(MPI_Dims_create(735134400, 20, big));
    for (int i = 0; i < 20; i++)
        prod *= big[i];
    EXPECT_INT(prod, 735134400);
    int pw[31] = {0};
    CHECK(MPI_Dims_create(1 << 30, 31, pw));
    EXPECT_INT(pw[0], 2);
    EXPECT_INT(pw[30], 1);
    int most[4] = {0}; /* the int with the most divisors (1600) */
    CHECK(MPI_Dims_create(2095133040, 4, most));
    EXPECT_INT(most[0] * most[1] * most[2] * most[3], 2095133040);
    int prime[2] = {0, 0};
    CHECK(MPI_Dims_create(2147483647, 2, prime));
    EXPECT_INT(prime[0], 2147483647);
    EXPECT_INT(prime[1], 1);
}

static void t_errors(void)
{
    int d[3] = {0, 0, 0}, cls = -1;
    int rc = MPI_Dims_create(0, 2, d);
    MPI_Error_class(rc, &cls);
    EXPECT_INT(cls, MPI_ERR_DIMS);
    int neg[2] = {-1, 0};
    rc = MPI_Dims_create(4, 2, neg);
    MPI_Error_class(rc, &cls);
    EXPECT_INT(cls, MPI_ERR_DIMS);
    int nodiv[3] = {2, 2, 0};
    rc = MPI_Dims_create(26, 3, nodiv);
    MPI_Error_class(rc, &cls);
    EXPECT_INT(cls, MPI_ERR_DIMS);
    rc = MPI_Dims_create(4, -1, d);
    MPI_Error_class(rc, &cls);
    EXPECT_INT(cls, MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    t_brute();
    t_table();
    t_errors();
    CHECK(MPI_Finalize());
    return mc_done("mpi_dims");
}
