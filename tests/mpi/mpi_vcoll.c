/* mpi_vcoll.c — mpi.h's v-collectives, scans, MINLOC/MAXLOC and user-defined ops, blocking or
 * nonblocking (argv[1] "blocking" or "nonblocking"), against values computed serially. Blocks
 * have unequal lengths (some empty) at displacements out of rank order with gaps that must stay
 * untouched; the user op is a non-commutative 2x2 matrix product on a derived type. */
#include "mpicheck.h"

enum { GAP = -7 }; /* what the gaps between blocks hold, before and after */

static int nb; /* 1: the I* forms, completed with MPI_Wait */

/* Runs the blocking call, or its nonblocking form followed by MPI_Wait. */
#define COLL(Name, name, ...) MC_COLL(nb, MPI_##Name, MPI_I##name, __VA_ARGS__)

static const char *mode(void)
{
    return nb ? "nonblocking" : "blocking";
}

static void check_ints(const char *what, const int *got, const int *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            FAIL("%s (%s): element %d is %d, expected %d", what, mode(), i, got[i], want[i]);
            return;
        }
}

/* Rank r's block: cnt(r) elements (0 for rank 3), value v(r, k). */
static int cnt(int r)
{
    return (r * 3 + 1) % 5;
}

static int v(int r, int k)
{
    return (r + 1) * 100 + k;
}

/* Blocks laid out in reverse rank order, one gap element after each: displs[r], and the
 * total length. */
static int layout(int size, const int *counts, int *displs)
{
    int at = 0;
    for (int r = size - 1; r >= 0; r--) {
        displs[r] = at;
        at += counts[r] + 1;
    }
    return at;
}

/* The buffer gatherv leaves at the root: every block in its slot, gaps untouched. */
static void gathered(int size, const int *counts, const int *displs, int len, int *want)
{
    for (int i = 0; i < len; i++)
        want[i] = GAP;
    for (int r = 0; r < size; r++)
        for (int k = 0; k < counts[r]; k++)
            want[displs[r] + k] = v(r, k);
}

static void t_gatherv_scatterv(int rank, int size)
{
    int counts[8], displs[8], mine[5], got[5], want5[5];
    for (int r = 0; r < size; r++)
        counts[r] = cnt(r);
    int len = layout(size, counts, displs);
    int *buf = malloc(sizeof(int) * (size_t)len), *want = malloc(sizeof(int) * (size_t)len);
    if (!buf || !want) {
        FAIL("out of memory");
        exit(1);
    }
    gathered(size, counts, displs, len, want);
    for (int k = 0; k < cnt(rank); k++)
        mine[k] = v(rank, k);
    for (int root = 0; root < size; root++) {
        for (int i = 0; i < len; i++)
            buf[i] = GAP;
        COLL(Gatherv, gatherv, mine, cnt(rank), MPI_INT, buf, counts, displs, MPI_INT, root,
             MPI_COMM_WORLD);
        if (rank == root)
            check_ints("gatherv", buf, want, len);
        /* Scatterv sends the same layout back out. */
        for (int k = 0; k < 5; k++)
            got[k] = GAP, want5[k] = k < cnt(rank) ? v(rank, k) : GAP;
        COLL(Scatterv, scatterv, rank == root ? want : NULL, counts, displs, MPI_INT, got,
             cnt(rank), MPI_INT, root, MPI_COMM_WORLD);
        check_ints("scatterv", got, want5, 5);
    }
    /* Allgatherv, from a send buffer and in place. */
    for (int i = 0; i < len; i++)
        buf[i] = GAP;
    COLL(Allgatherv, allgatherv, mine, cnt(rank), MPI_INT, buf, counts, displs, MPI_INT,
         MPI_COMM_WORLD);
    check_ints("allgatherv", buf, want, len);
    for (int i = 0; i < len; i++)
        buf[i] = GAP;
    for (int k = 0; k < cnt(rank); k++)
        buf[displs[rank] + k] = v(rank, k);
    COLL(Allgatherv, allgatherv, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, MPI_INT,
         MPI_COMM_WORLD);
    check_ints("allgatherv in place", buf, want, len);
    free(buf);
    free(want);
}

/* Rank r sends (r + 2j) % 4 elements w(r, j, k) to rank j. */
static int acnt(int r, int j)
{
    return (r + 2 * j) % 4;
}

static int w(int r, int j, int k)
{
    return r * 1000 + j * 10 + k;
}

static void t_alltoallv(int rank, int size)
{
    int scounts[8], sdispls[8], rcounts[8], rdispls[8];
    for (int j = 0; j < size; j++)
        scounts[j] = acnt(rank, j), rcounts[j] = acnt(j, rank);
    int slen = layout(size, scounts, sdispls), rlen = layout(size, rcounts, rdispls);
    int sbuf[40], rbuf[40], want[40];
    for (int i = 0; i < slen; i++)
        sbuf[i] = GAP;
    for (int j = 0; j < size; j++)
        for (int k = 0; k < scounts[j]; k++)
            sbuf[sdispls[j] + k] = w(rank, j, k);
    for (int i = 0; i < rlen; i++)
        rbuf[i] = want[i] = GAP;
    for (int j = 0; j < size; j++)
        for (int k = 0; k < rcounts[j]; k++)
            want[rdispls[j] + k] = w(j, rank, k);
    COLL(Alltoallv, alltoallv, sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT,
         MPI_COMM_WORLD);
    check_ints("alltoallv", rbuf, want, rlen);
}

/* The same exchange as alltoallw: displacements in bytes, and every other peer's blocks as
 * a contiguous type of one int (a type per peer). */
static void t_alltoallw(int rank, int size)
{
    int scounts[8], sdispls[8], rcounts[8], rdispls[8];
    MPI_Datatype one, stypes[8], rtypes[8];
    MPI_Type_contiguous(1, MPI_INT, &one);
    MPI_Type_commit(&one);
    for (int j = 0; j < size; j++) {
        scounts[j] = acnt(rank, j), rcounts[j] = acnt(j, rank);
        stypes[j] = rtypes[j] = (j + rank) % 2 ? one : MPI_INT;
    }
    int slen = layout(size, scounts, sdispls), rlen = layout(size, rcounts, rdispls);
    int sbuf[40], rbuf[40], want[40];
    for (int i = 0; i < slen; i++)
        sbuf[i] = GAP;
    for (int j = 0; j < size; j++)
        for (int k = 0; k < scounts[j]; k++)
            sbuf[sdispls[j] + k] = w(rank, j, k);
    for (int i = 0; i < rlen; i++)
        rbuf[i] = want[i] = GAP;
    for (int j = 0; j < size; j++)
        for (int k = 0; k < rcounts[j]; k++)
            want[rdispls[j] + k] = w(j, rank, k);
    for (int j = 0; j < size; j++) { /* in bytes */
        sdispls[j] *= (int)sizeof(int);
        rdispls[j] *= (int)sizeof(int);
    }
    COLL(Alltoallw, alltoallw, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
         MPI_COMM_WORLD);
    check_ints("alltoallw", rbuf, want, rlen);
    MPI_Type_free(&one);
}

/* Scan and exscan of MPI_SUM over 3 ints, and of MPI_MAX in place. */
static void t_scan(int rank, int size)
{
    (void)size;
    int in[3], out[3], want[3];
    for (int k = 0; k < 3; k++) {
        in[k] = v(rank, k), out[k] = GAP, want[k] = 0;
        for (int r = 0; r <= rank; r++)
            want[k] += v(r, k);
    }
    COLL(Scan, scan, in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    check_ints("scan", out, want, 3);
    for (int k = 0; k < 3; k++) {
        out[k] = GAP, want[k] -= v(rank, k);
        if (rank == 0)
            want[k] = GAP; /* exscan leaves rank 0's buffer alone */
    }
    COLL(Exscan, exscan, in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    check_ints("exscan", out, want, 3);
    /* In place: max of (r * 7) % 5 over ranks 0..rank. */
    int x = (rank * 7) % 5, wx = 0;
    for (int r = 0; r <= rank; r++)
        wx = (r * 7) % 5 > wx ? (r * 7) % 5 : wx;
    COLL(Scan, scan, MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_INT(x, wx);
}

/* MINLOC and MAXLOC: values repeat across ranks (ties go to the lowest index). */
static void t_loc(int rank, int size)
{
    struct {
        int v, i;
    } a[2], ra[2];
    struct {
        double v;
        int i;
    } d[1], rd[1];
    struct {
        short v;
        int i;
    } s[1], rs[1];
    struct {
        long v;
        int i;
    } l[1], rl[1];
    struct {
        float v;
        int i;
    } f[1], rf[1];
    a[0].v = rank % 3, a[0].i = rank;            /* min 0: tie of ranks 0, 3, 6 -> 0 */
    a[1].v = rank / 2, a[1].i = 10 * rank;       /* max: tie of the last two (even) ranks */
    d[0].v = -(double)(rank % 2), d[0].i = rank; /* min -1 at ranks 1, 3, ... -> 1 */
    s[0].v = (short)(rank % 2), s[0].i = rank;   /* max 1 at ranks 1, 3, ... -> 1 */
    l[0].v = 5 - rank / 3, l[0].i = rank;        /* min: the last ranks tie */
    f[0].v = 0.5f, f[0].i = size - rank;         /* all tie: the lowest index, 1 */
    int wmin_i = 0, wmax_v = (size - 1) / 2, wmax_i = 10 * (2 * wmax_v);
    int lmin_i = ((size - 1) / 3) * 3;
    COLL(Allreduce, allreduce, &a[0], &ra[0], 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
    COLL(Allreduce, allreduce, &a[1], &ra[1], 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    EXPECT_INT(ra[0].v, 0);
    EXPECT_INT(ra[0].i, wmin_i);
    EXPECT_INT(ra[1].v, wmax_v);
    EXPECT_INT(ra[1].i, wmax_i);
    COLL(Allreduce, allreduce, d, rd, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
    EXPECT_INT(rd[0].v, size > 1 ? -1 : 0);
    EXPECT_INT(rd[0].i, size > 1 ? 1 : 0);
    COLL(Allreduce, allreduce, s, rs, 1, MPI_SHORT_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    EXPECT_INT(rs[0].v, size > 1 ? 1 : 0);
    EXPECT_INT(rs[0].i, size > 1 ? 1 : 0);
    COLL(Allreduce, allreduce, l, rl, 1, MPI_LONG_INT, MPI_MINLOC, MPI_COMM_WORLD);
    EXPECT_INT(rl[0].v, 5 - (size - 1) / 3);
    EXPECT_INT(rl[0].i, lmin_i);
    for (int root = 0; root < size; root++) {
        rf[0].v = -1.0f, rf[0].i = -1;
        COLL(Reduce, reduce, f, rf, 1, MPI_FLOAT_INT, MPI_MAXLOC, root, MPI_COMM_WORLD);
        if (rank == root && (rf[0].v != 0.5f || rf[0].i != 1))
            FAIL("reduce MAXLOC of MPI_FLOAT_INT to %d (%s): (%g, %d), expected (0.5, 1)", root,
                 mode(), (double)rf[0].v, rf[0].i);
    }
    /* The MINLOC scan: rank r sees the minimum of ranks 0..r, the lowest index on ties. */
    struct {
        int v, i;
    } sc = {(rank * 5) % 3, rank}, rsc;
    int wv = 3, wi = -1;
    for (int r = 0; r <= rank; r++)
        if ((r * 5) % 3 < wv)
            wv = (r * 5) % 3, wi = r;
    COLL(Scan, scan, &sc, &rsc, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
    EXPECT_INT(rsc.v, wv);
    EXPECT_INT(rsc.i, wi);
}

/* The user op: inout = in x inout, for 2x2 matrices of int64 mod P (a derived type of 4). */
enum { P = 1000003 };
static MPI_Datatype mat_type = MPI_DATATYPE_NULL;
static int matmul_bad_type; /* set when the op was handed another type (it cannot print) */

typedef struct mat {
    int64_t m[4]; /* row-major */
} mat_t;

static mat_t mat_mul(mat_t a, mat_t b)
{
    mat_t c;
    c.m[0] = (a.m[0] * b.m[0] + a.m[1] * b.m[2]) % P;
    c.m[1] = (a.m[0] * b.m[1] + a.m[1] * b.m[3]) % P;
    c.m[2] = (a.m[2] * b.m[0] + a.m[3] * b.m[2]) % P;
    c.m[3] = (a.m[2] * b.m[1] + a.m[3] * b.m[3]) % P;
    return c;
}

static void matmul_op(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    if (*datatype != mat_type)
        matmul_bad_type = 1;
    mat_t *in = invec, *io = inoutvec;
    for (int i = 0; i < *len; i++)
        io[i] = mat_mul(in[i], io[i]);
}

/* Rank r's e-th matrix [[r + 2 + e, 1], [1, 0]]: no two ranks' commute. */
static mat_t mat_of(int r, int e)
{
    return (mat_t){{r + 2 + e, 1, 1, 0}};
}

/* M_lo x ... x M_hi-1 (the identity if empty). */
static mat_t mat_prod(int lo, int hi, int e)
{
    mat_t p = {{1, 0, 0, 1}};
    for (int r = lo; r < hi; r++)
        p = mat_mul(p, mat_of(r, e));
    return p;
}

static void check_mats(const char *what, const mat_t *got, int lo, int hi)
{
    for (int e = 0; e < 2; e++) {
        mat_t want = mat_prod(lo, hi, e);
        if (memcmp(&got[e], &want, sizeof want) != 0)
            FAIL("%s (%s), element %d: [%lld %lld; %lld %lld], expected [%lld %lld; %lld %lld] "
                 "(ranks %d..%d in order)",
                 what, mode(), e, (long long)got[e].m[0], (long long)got[e].m[1],
                 (long long)got[e].m[2], (long long)got[e].m[3], (long long)want.m[0],
                 (long long)want.m[1], (long long)want.m[2], (long long)want.m[3], lo, hi - 1);
    }
}

static void t_user_op(int rank, int size)
{
    MPI_Op op = MPI_OP_NULL;
    CHECK(MPI_Type_contiguous(4, MPI_INT64_T, &mat_type));
    CHECK(MPI_Type_commit(&mat_type));
    CHECK(MPI_Op_create(matmul_op, 0, &op));
    mat_t in[2] = {mat_of(rank, 0), mat_of(rank, 1)}, out[2];
    for (int root = 0; root < size; root++) {
        memset(out, 0, sizeof out);
        COLL(Reduce, reduce, in, out, 2, mat_type, op, root, MPI_COMM_WORLD);
        if (rank == root)
            check_mats("reduce of the matrix product", out, 0, size);
    }
    memset(out, 0, sizeof out);
    COLL(Allreduce, allreduce, in, out, 2, mat_type, op, MPI_COMM_WORLD);
    check_mats("allreduce of the matrix product", out, 0, size);
    memset(out, 0, sizeof out);
    COLL(Scan, scan, in, out, 2, mat_type, op, MPI_COMM_WORLD);
    check_mats("scan of the matrix product", out, 0, rank + 1);
    if (size > 1) {
        memset(out, 0, sizeof out);
        COLL(Exscan, exscan, in, out, 2, mat_type, op, MPI_COMM_WORLD);
        if (rank > 0)
            check_mats("exscan of the matrix product", out, 0, rank);
    }
    EXPECT_INT(matmul_bad_type, 0);
    CHECK(MPI_Op_free(&op));
    EXPECT_INT(op, MPI_OP_NULL);
    CHECK(MPI_Type_free(&mat_type));
}

/* A commutative user op (sum of ints) through Allreduce: the same as MPI_SUM. */
static void sum_op(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    (void)datatype;
    for (int i = 0; i < *len; i++)
        ((int *)inoutvec)[i] += ((int *)invec)[i];
}

static void t_user_commutative(int rank, int size)
{
    MPI_Op op;
    int in[3] = {rank, 2 * rank, 1}, out[3] = {0, 0, 0};
    int want[3] = {size * (size - 1) / 2, size * (size - 1), size};
    CHECK(MPI_Op_create(sum_op, 1, &op));
    COLL(Allreduce, allreduce, in, out, 3, MPI_INT, op, MPI_COMM_WORLD);
    check_ints("allreduce of a commutative user op", out, want, 3);
    CHECK(MPI_Op_free(&op));
}

/* MPI_ERRORS_RETURN codes, alike on every rank (so no rank waits for another): bad arguments
 * are refused when the call is made; a block longer than its slot is cut, and its
 * MPI_ERR_TRUNCATE comes from the call (blocking) or from MPI_Wait (nonblocking). */
static void t_errors(int rank, int size)
{
    int counts[8], displs[8], buf[40] = {0}, x = rank, y = -1;
    MPI_Request r = MPI_REQUEST_NULL;
    for (int i = 0; i < size; i++)
        counts[i] = 1, displs[i] = i;
    EXPECT_INT(MPI_Alltoallv(buf, NULL, displs, MPI_INT, buf + 10, counts, displs, MPI_INT,
                             MPI_COMM_WORLD),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Ialltoallv(buf, counts, displs, MPI_INT, buf + 10, counts, NULL, MPI_INT,
                              MPI_COMM_WORLD, &r),
               MPI_ERR_ARG);
    counts[size - 1] = -1;
    EXPECT_INT(MPI_Allgatherv(&x, 1, MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD),
               MPI_ERR_COUNT);
    counts[size - 1] = 1;
    EXPECT_INT(MPI_Scan(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_INT(MPI_Iexscan(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &r), MPI_ERR_OP);
    EXPECT_INT(MPI_Scatterv(buf, counts, displs, MPI_INT, &y, 1, MPI_INT, size, MPI_COMM_WORLD),
               MPI_ERR_ROOT);
    /* Two ints from every rank into slots of one: each slot gets the first. */
    int two[2] = {v(rank, 0), v(rank, 1)}, want[8];
    for (int i = 0; i < size; i++)
        buf[i] = GAP, want[i] = v(i, 0);
    int rc;
    if (nb) {
        CHECK(MPI_Iallgatherv(two, 2, MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD,
                              &r));
        rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        rc = MPI_Allgatherv(two, 2, MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD);
    }
    EXPECT_INT(rc, MPI_ERR_TRUNCATE);
    check_ints("allgatherv of blocks longer than their slots", buf, want, size);
}

int main(int argc, char **argv)
{
    nb = argc > 1 && strcmp(argv[1], "nonblocking") == 0;
    int size = mc_init_size(&argc, &argv, 100);
    if (size > 8) {
        FAIL("mpi_vcoll runs at n = 1..8, not %d", size);
        return 1;
    }
    t_gatherv_scatterv(mc_rank, size);
    t_alltoallv(mc_rank, size);
    t_alltoallw(mc_rank, size);
    t_scan(mc_rank, size);
    t_loc(mc_rank, size);
    t_user_op(mc_rank, size);
    t_user_commutative(mc_rank, size);
    t_errors(mc_rank, size);
    CHECK(MPI_Finalize());
    return mc_done(nb ? "mpi_vcoll nonblocking" : "mpi_vcoll blocking");
}
