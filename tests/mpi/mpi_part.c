/* mpi_part.c — MPI-4 partitioned communication: every rank sends to the next and receives from
 * the previous (a ring; n = 2: a ping-ping), with different partition counts on the two sides,
 * exact bytes per round, Parrived false before the sender readied anything and true partition
 * by partition after, Pready / Pready_range / Pready_list in several orders, large
 * (rendezvous) partitions, a non-contiguous receive type, matching in init order, and the
 * error classes. `threads`: 4 threads per rank mark partitions ready in scrambled order. */
#include <pthread.h>

#include "mpicheck.h"

static int rank, size, next, prev;

static double val(int i, int round, int from)
{
    return from * 1e7 + round * 1e5 + i;
}

/* How the sender marks its partitions ready: one by one backwards, two halves by range,
 * evens then odds by list. */
enum { BY_ONE, BY_RANGE, BY_LIST };

static void mark(MPI_Request req, int np, int how)
{
    if (how == BY_ONE) {
        for (int i = np - 1; i >= 0; i--)
            CHECK(MPI_Pready(i, req));
    } else if (how == BY_RANGE) {
        CHECK(MPI_Pready_range(np / 2, np - 1, req));
        if (np / 2 > 0)
            CHECK(MPI_Pready_range(0, np / 2 - 1, req));
    } else {
        int *l = malloc(sizeof(int) * (size_t)np), n = 0;
        for (int pass = 0; pass < 2; pass++, n = 0) {
            for (int i = pass; i < np; i += 2)
                l[n++] = i;
            CHECK(MPI_Pready_list(n, l, req));
        }
        free(l);
    }
}

/* Receive partitions in order: each must arrive (Parrived) with its exact bytes. */
static void await_parts(MPI_Request req, const double *rbuf, int rp, int rc, int round)
{
    for (int q = 0; q < rp; q++) {
        int flag = 0;
        while (!flag)
            CHECK(MPI_Parrived(req, q, &flag));
        for (int j = 0; j < rc; j++)
            if (rbuf[q * rc + j] != val(q * rc + j, round, prev)) {
                FAIL("partition %d element %d: %.0f, expected %.0f", q, j, rbuf[q * rc + j],
                     val(q * rc + j, round, prev));
                return;
            }
    }
}

/* Three rounds of a pair with sp send and rp receive partitions over total doubles. */
static void exchange(int sp, int rp, int total, int how)
{
    int sc = total / sp, rc = total / rp;
    double *sbuf = calloc((size_t)total, sizeof(double));
    double *rbuf = calloc((size_t)total, sizeof(double));
    MPI_Request r[2];
    CHECK(MPI_Psend_init(sbuf, sp, sc, MPI_DOUBLE, next, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK(MPI_Precv_init(rbuf, rp, rc, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < total; i++) {
            sbuf[i] = val(i, round, rank);
            rbuf[i] = -1;
        }
        CHECK(MPI_Startall(2, r));
        int flag = -1; /* my sender waits for my "go": nothing of this round can be here */
        CHECK(MPI_Parrived(r[1], rp - 1, &flag));
        EXPECT_INT(flag, 0);
        CHECK(MPI_Send(NULL, 0, MPI_INT, prev, 8, MPI_COMM_WORLD));
        CHECK(MPI_Recv(NULL, 0, MPI_INT, next, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        mark(r[0], sp, how);
        await_parts(r[1], rbuf, rp, rc, round);
        /* MPI-4.0 3.2.5: a multiple completion updates MPI_ERROR if and only if it returns
         * MPI_ERR_IN_STATUS; partitioned requests follow the rule like all others (MPICH's
         * part/multipart reads the field of an uninitialized status after a successful
         * Waitall: it expects MPI_SUCCESS there, which neither the standard nor MPICH's own
         * MPIR_Request_extract_status writes) */
        MPI_Status st[2] = {{.MPI_ERROR = MPI_ERR_DIMS}, {.MPI_ERROR = MPI_ERR_DIMS}};
        CHECK(MPI_Waitall(2, r, st));
        EXPECT_INT(st[0].MPI_ERROR, MPI_ERR_DIMS);
        EXPECT_INT(st[1].MPI_ERROR, MPI_ERR_DIMS);
        int n = -1;
        CHECK(MPI_Get_count(&st[1], MPI_DOUBLE, &n));
        EXPECT_INT(n, total);
        EXPECT_INT(st[1].MPI_SOURCE, prev);
        EXPECT_INT(st[1].MPI_TAG, 7);
        flag = 0; /* inactive again: Parrived says everything is there */
        CHECK(MPI_Parrived(r[1], 0, &flag));
        EXPECT_INT(flag, 1);
    }
    CHECK(MPI_Request_free(&r[0]));
    CHECK(MPI_Request_free(&r[1]));
    free(sbuf);
    free(rbuf);
}

/* Receive into a vector type (every other int): the gaps stay untouched. */
static void noncontig(void)
{
    enum { N = 32 };
    int s[N], g[2 * N];
    MPI_Datatype v0, v; /* two ints, one apart; extent 4 ints */
    CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &v0));
    CHECK(MPI_Type_create_resized(v0, 0, 4 * sizeof(int), &v));
    CHECK(MPI_Type_commit(&v));
    CHECK(MPI_Type_free(&v0));
    for (int i = 0; i < N; i++)
        s[i] = rank * 1000 + i;
    for (int i = 0; i < 2 * N; i++)
        g[i] = -5;
    MPI_Request r[2];
    CHECK(MPI_Psend_init(s, 4, N / 4, MPI_INT, next, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK(MPI_Precv_init(g, 2, N / 4, v, prev, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    CHECK(MPI_Startall(2, r));
    CHECK(MPI_Pready_range(0, 3, r[0]));
    CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++) {
        EXPECT_INT(g[2 * i], prev * 1000 + i);
        EXPECT_INT(g[2 * i + 1], -5);
    }
    CHECK(MPI_Request_free(&r[0]));
    CHECK(MPI_Request_free(&r[1]));
    CHECK(MPI_Type_free(&v));
}

/* Two pairs of one tag started in the other order match in the order of their inits. */
static void init_order(void)
{
    int a[4] = {1, 1, 1, 1}, b[4] = {2, 2, 2, 2}, x[4] = {0}, y[4] = {0};
    MPI_Request s[2], r[2];
    CHECK(MPI_Psend_init(a, 2, 2, MPI_INT, next, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &s[0]));
    CHECK(MPI_Psend_init(b, 1, 4, MPI_INT, next, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &s[1]));
    CHECK(MPI_Precv_init(x, 4, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK(MPI_Precv_init(y, 2, 2, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    CHECK(MPI_Start(&r[1]));
    CHECK(MPI_Start(&s[1]));
    CHECK(MPI_Pready(0, s[1]));
    CHECK(MPI_Start(&s[0]));
    CHECK(MPI_Pready_range(0, 1, s[0]));
    CHECK(MPI_Start(&r[0]));
    CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(MPI_Waitall(2, s, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 4; i++)
        if (x[i] != 1 || y[i] != 2)
            FAIL("init order: x[%d] = %d, y[%d] = %d, expected 1 and 2", i, x[i], i, y[i]);
    for (int i = 0; i < 2; i++) {
        CHECK(MPI_Request_free(&s[i]));
        CHECK(MPI_Request_free(&r[i]));
    }
}

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    MPI_Error_class(rc, &got);
    if (got != cls)
        FAIL("%s: error class %d, expected %d", what, got, cls);
}

/* Local errors on one rank's requests, a pair never started, MPI_PROC_NULL peers. */
static void errors_local(void)
{
    int buf[8] = {0}, flag = 0;
    MPI_Request s, r, x;
    MPI_Info bad = (MPI_Info)12345;
    expect_class("ANY_SOURCE", MPI_Precv_init(buf, 2, 4, MPI_INT, MPI_ANY_SOURCE, 0,
                                              MPI_COMM_WORLD, MPI_INFO_NULL, &x), MPI_ERR_RANK);
    expect_class("ANY_TAG", MPI_Precv_init(buf, 2, 4, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD,
                                           MPI_INFO_NULL, &x), MPI_ERR_TAG);
    expect_class("partitions -1", MPI_Psend_init(buf, -1, 4, MPI_INT, next, 0, MPI_COMM_WORLD,
                                                 MPI_INFO_NULL, &x), MPI_ERR_ARG);
    expect_class("bad info", MPI_Psend_init(buf, 2, 4, MPI_INT, next, 0, MPI_COMM_WORLD, bad, &x),
                 MPI_ERR_INFO);
    CHECK(MPI_Psend_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK(MPI_Precv_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    expect_class("Pready inactive", MPI_Pready(0, s), MPI_ERR_REQUEST);
    expect_class("Pready on a receive", MPI_Pready(0, r), MPI_ERR_REQUEST);
    expect_class("Parrived on a send", MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST);
    expect_class("Parrived range", MPI_Parrived(r, 2, &flag), MPI_ERR_ARG);
    CHECK(MPI_Start(&s));
    CHECK(MPI_Start(&r));
    expect_class("Pready 2 of 2", MPI_Pready(2, s), MPI_ERR_ARG);
    expect_class("Pready -1", MPI_Pready(-1, s), MPI_ERR_ARG);
    expect_class("Pready_range 1..0", MPI_Pready_range(1, 0, s), MPI_ERR_ARG);
    int l[2] = {0, 5};
    expect_class("Pready_list 5", MPI_Pready_list(2, l, s), MPI_ERR_ARG);
    CHECK(MPI_Pready(1, s));
    expect_class("Pready twice", MPI_Pready(1, s), MPI_ERR_ARG);
    expect_class("free active", MPI_Request_free(&s), MPI_ERR_REQUEST);
    CHECK(MPI_Pready(0, s));
    MPI_Status st;
    CHECK(MPI_Wait(&r, &st));
    EXPECT_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    CHECK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK(MPI_Request_free(&s));
    CHECK(MPI_Request_free(&r));
    /* a pair inited and freed, never started (MPICH's no_start) */
    CHECK(MPI_Psend_init(buf, 2, 4, MPI_INT, next, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK(MPI_Precv_init(buf, 2, 4, MPI_INT, prev, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK(MPI_Request_free(&s));
    CHECK(MPI_Request_free(&r));
}

/* Totals that differ (16 ints sent, 20 expected): both sides' rounds end in MPI_ERR_TRUNCATE,
 * twice, and nothing lands. */
static void errors_mismatch(void)
{
    int s[16], r[20];
    for (int i = 0; i < 20; i++)
        r[i] = -3;
    MPI_Request q[2];
    CHECK(MPI_Psend_init(s, 4, 4, MPI_INT, next, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]));
    CHECK(MPI_Precv_init(r, 4, 5, MPI_INT, prev, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]));
    for (int round = 0; round < 2; round++) {
        CHECK(MPI_Startall(2, q));
        CHECK(MPI_Pready_range(0, 3, q[0]));
        expect_class("mismatch recv", MPI_Wait(&q[1], MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE);
        expect_class("mismatch send", MPI_Wait(&q[0], MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE);
    }
    for (int i = 0; i < 20; i++)
        EXPECT_INT(r[i], -3);
    CHECK(MPI_Request_free(&q[0]));
    CHECK(MPI_Request_free(&q[1]));
}

typedef struct thr {
    MPI_Request req;
    int np, t, nt;
} thr_t;

/* Thread t marks the partitions i with i % nt == t, in a scrambled order. */
static void *thr_mark(void *arg)
{
    thr_t *a = arg;
    int mine = (a->np - a->t + a->nt - 1) / a->nt;
    for (int k = 0; k < mine; k++) {
        int j = (k * 7 + a->t) % mine; /* 7 is prime to the counts used */
        CHECK(MPI_Pready(a->t + j * a->nt, a->req));
    }
    return NULL;
}

static void threads(int sp, int rp, int total)
{
    double *sbuf = calloc((size_t)total, sizeof(double));
    double *rbuf = calloc((size_t)total, sizeof(double));
    MPI_Request r[2];
    CHECK(MPI_Psend_init(sbuf, sp, total / sp, MPI_DOUBLE, next, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                         &r[0]));
    CHECK(MPI_Precv_init(rbuf, rp, total / rp, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                         &r[1]));
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < total; i++) {
            sbuf[i] = val(i, round, rank);
            rbuf[i] = -1;
        }
        CHECK(MPI_Startall(2, r));
        pthread_t tid[4];
        thr_t a[4];
        for (int t = 0; t < 4; t++) {
            a[t] = (thr_t){.req = r[0], .np = sp, .t = t, .nt = 4};
            pthread_create(&tid[t], NULL, thr_mark, &a[t]);
        }
        await_parts(r[1], rbuf, rp, total / rp, round);
        for (int t = 0; t < 4; t++)
            pthread_join(tid[t], NULL);
        CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    }
    CHECK(MPI_Request_free(&r[0]));
    CHECK(MPI_Request_free(&r[1]));
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    int thr = strcmp(mode, "threads") == 0, provided = 0;
    mc_watchdog(120);
    if (thr)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mc_rank = rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    if (thr) {
        EXPECT_INT(provided, MPI_THREAD_MULTIPLE);
        threads(64, 16, 1024);
        threads(16, 64, 1024);
        threads(8, 8, 1 << 19); /* 512 KiB partitions: rendezvous */
    } else {
        static const int cases[][3] = {{1, 1, 64}, {8, 8, 64}, {1, 16, 64}, {16, 32, 64},
                                       {32, 16, 64}, {6, 4, 24}, {4, 8, 1 << 19}};
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
            for (int how = BY_ONE; how <= BY_LIST; how++)
                exchange(cases[c][0], cases[c][1], cases[c][2], how);
        noncontig();
        init_order();
        errors_local();
        errors_mismatch();
    }
    MPI_Finalize();
    return mc_done("mpi_part");
}
