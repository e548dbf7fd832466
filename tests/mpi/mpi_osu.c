/* mpi_osu.c — the run-time behaviours the OSU micro-benchmarks rely on, each against exact
 * values: type names (also from threads, with MPI_Type_size), windows without one-sided
 * operations, MPI_IN_PLACE wherever OSU passes it, NULL receive buffers at gather's non-roots,
 * reduce_scatter counts with zeros, MPI_Wait on a request MPI_Test completed, and 400 live
 * communicators from MPI_Comm_split (osu_mbw_mr makes one per message size). */
#include <pthread.h>
#include <stdint.h>

#include "mpicheck.h"

enum { N = 4 };
static int size;

static void expect_name(MPI_Datatype t, const char *want)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    memset(name, 'x', sizeof name);
    CHECK(MPI_Type_get_name(t, name, &len));
    if (strcmp(name, want) != 0 || len != (int)strlen(want))
        FAIL("MPI_Type_get_name gave \"%.*s\" (length %d), expected \"%s\"", MPI_MAX_OBJECT_NAME,
             name, len, want);
}

static void t_names(void)
{
    expect_name(MPI_CHAR, "MPI_CHAR");
    expect_name(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"); /* a handle of its own (issue 20) */
    expect_name(MPI_INT, "MPI_INT");
    expect_name(MPI_FLOAT, "MPI_FLOAT");
    expect_name(MPI_DOUBLE, "MPI_DOUBLE");
    expect_name(MPI_BYTE, "MPI_BYTE");
    expect_name(MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
    MPI_Datatype d;
    CHECK(MPI_Type_contiguous(3, MPI_INT, &d));
    expect_name(d, ""); /* derived, uncommitted */
    CHECK(MPI_Type_commit(&d));
    expect_name(d, "");
    CHECK(MPI_Type_free(&d));
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    EXPECT_INT(MPI_Type_get_name(d, name, &len), MPI_ERR_TYPE); /* freed: MPI_DATATYPE_NULL */
    EXPECT_INT(MPI_Type_get_name((MPI_Datatype)9999, name, &len), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_get_name(MPI_INT, name, NULL), MPI_ERR_ARG);
}

/* osu_latency_mt: several threads ask sizes and names at once. */
static void *names_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2000; i++) {
        int sz = 0;
        CHECK(MPI_Type_size(i % 2 ? MPI_DOUBLE : MPI_CHAR, &sz));
        EXPECT_INT(sz, i % 2 ? 8 : 1);
        expect_name(i % 2 ? MPI_DOUBLE : MPI_CHAR, i % 2 ? "MPI_DOUBLE" : "MPI_CHAR");
    }
    return NULL;
}

static void t_names_threads(void)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        if (pthread_create(&t[i], NULL, names_thread, NULL) != 0)
            FAIL("pthread_create failed");
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
}

static void t_windows(void)
{
    /* create over my buffer: every rank's base, size and unit are known to every rank */
    long long mine[8];
    MPI_Win w = MPI_WIN_NULL;
    CHECK(MPI_Win_create(mine, (MPI_Aint)(8 * (mc_rank % 3)), 8, MPI_INFO_NULL, MPI_COMM_WORLD,
                         &w));
    MPI_Aint addr = 0;
    CHECK(MPI_Get_address(mine, &addr));
    EXPECT_INT(addr, (MPI_Aint)(intptr_t)mine);
    long long all[N * 8];
    CHECK(MPI_Allgather(&addr, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD));
    for (int r = 0; r < size && r < N * 8; r++) {
        intptr_t base = 0;
        ptrdiff_t sz = -1;
        int unit = 0;
        CHECK(rmp_win_get_peer(w, r, &base, &sz, &unit));
        EXPECT_INT(base, all[r]);
        EXPECT_INT(sz, 8 * (r % 3));
        EXPECT_INT(unit, 8);
    }
    CHECK(MPI_Win_free(&w));
    EXPECT_INT(w, MPI_WIN_NULL);
    /* allocate: aligned memory that is mine to write */
    double *p = NULL;
    CHECK(MPI_Win_allocate((MPI_Aint)(sizeof(double) * 100), sizeof(double), MPI_INFO_NULL,
                           MPI_COMM_WORLD, &p, &w));
    if (!p || (uintptr_t)p % sizeof(double))
        FAIL("MPI_Win_allocate gave %p", (void *)p);
    else
        for (int i = 0; i < 100; i++)
            p[i] = i;
    CHECK(MPI_Win_free(&w));
    /* dynamic: attach and detach local memory */
    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    CHECK(MPI_Win_attach(w, mine, sizeof mine));
    CHECK(MPI_Win_detach(w, mine));
    EXPECT_INT(MPI_Win_detach(w, mine), MPI_ERR_ARG); /* no longer attached */
    CHECK(MPI_Win_free(&w));
    /* errors */
    EXPECT_INT(MPI_Win_free(&w), MPI_ERR_WIN); /* MPI_WIN_NULL */
    MPI_Win bogus = 12345;
    EXPECT_INT(MPI_Win_attach(bogus, mine, 8), MPI_ERR_WIN);
    EXPECT_INT(MPI_Win_create(mine, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_ARG);
    EXPECT_INT(MPI_Win_create(mine, 8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_ARG);
}

/* ---- MPI_IN_PLACE and NULL buffers where OSU passes them ---- */
static void t_reduce_in_place(void)
{
    /* the NBC programs' statistics: MPI_IN_PLACE at the root, sendbuf == recvbuf elsewhere */
    double v[3] = {mc_rank, 2.0 * mc_rank, 1.0};
    for (int root = 0; root < size; root++) {
        double x[3] = {v[0], v[1], v[2]};
        CHECK(MPI_Reduce(mc_rank == root ? MPI_IN_PLACE : x, x, 3, MPI_DOUBLE, MPI_SUM, root,
                         MPI_COMM_WORLD));
        if (mc_rank == root) {
            EXPECT_INT(x[0], size * (size - 1) / 2);
            EXPECT_INT(x[1], size * (size - 1));
            EXPECT_INT(x[2], size);
        }
        MPI_Request r = MPI_REQUEST_NULL;
        double y[3] = {v[0], v[1], v[2]};
        CHECK(MPI_Ireduce(mc_rank == root ? MPI_IN_PLACE : y, y, 3, MPI_DOUBLE, MPI_MAX, root,
                          MPI_COMM_WORLD, &r));
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        if (mc_rank == root)
            EXPECT_INT(y[0], size - 1);
    }
}

static void t_gather_scatter(void)
{
    int mine[2] = {mc_rank, -mc_rank}, all[2 * 8];
    for (int root = 0; root < size; root++) {
        memset(all, 0xff, sizeof all);
        CHECK(MPI_Gather(mine, 2, MPI_INT, mc_rank == root ? all : NULL, 2, MPI_INT, root,
                         MPI_COMM_WORLD));
        if (mc_rank == root)
            for (int r = 0; r < size; r++)
                EXPECT_INT(all[2 * r] * 1000 + all[2 * r + 1], r * 1000 - r);
        int counts[8], displs[8];
        for (int r = 0; r < size; r++) {
            counts[r] = 2;
            displs[r] = 2 * (size - 1 - r);
        }
        CHECK(MPI_Gatherv(mine, 2, MPI_INT, mc_rank == root ? all : NULL, counts, displs,
                          MPI_INT, root, MPI_COMM_WORLD));
        if (mc_rank == root)
            for (int r = 0; r < size; r++)
                EXPECT_INT(all[displs[r]], r);
        /* scatter with MPI_IN_PLACE as the root's recvbuf: its block stays where it is */
        int src[2 * 8], got[2] = {-1, -1};
        for (int i = 0; i < 2 * size; i++)
            src[i] = 100 + i;
        CHECK(MPI_Scatter(src, 2, MPI_INT, mc_rank == root ? MPI_IN_PLACE : got, 2, MPI_INT,
                          root, MPI_COMM_WORLD));
        if (mc_rank != root)
            EXPECT_INT(got[0] * 1000 + got[1], (100 + 2 * mc_rank) * 1000 + 101 + 2 * mc_rank);
        else
            EXPECT_INT(src[2 * root], 100 + 2 * root);
        got[0] = got[1] = -1;
        CHECK(MPI_Scatterv(src, counts, displs, MPI_INT, mc_rank == root ? MPI_IN_PLACE : got, 2,
                           MPI_INT, root, MPI_COMM_WORLD));
        if (mc_rank != root)
            EXPECT_INT(got[0], 100 + displs[mc_rank]);
    }
}

static void t_in_place_everywhere(void)
{
    int buf[8 * 2];
    /* allgather: my block already in its slot */
    for (int i = 0; i < 2 * size; i++)
        buf[i] = i / 2 == mc_rank ? 10 * mc_rank + i % 2 : -1;
    CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < 2 * size; i++)
        EXPECT_INT(buf[i], 10 * (i / 2) + i % 2);
    int counts[8], displs[8];
    for (int r = 0; r < size; r++) {
        counts[r] = 2;
        displs[r] = 2 * r;
    }
    for (int i = 0; i < 2 * size; i++)
        buf[i] = i / 2 == mc_rank ? 7 * mc_rank + i % 2 : -1;
    CHECK(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, MPI_INT,
                         MPI_COMM_WORLD));
    for (int i = 0; i < 2 * size; i++)
        EXPECT_INT(buf[i], 7 * (i / 2) + i % 2);
    /* alltoall(v, w): block r goes to rank r, comes back from rank r */
    for (int i = 0; i < 2 * size; i++)
        buf[i] = 100 * mc_rank + i;
    CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        EXPECT_INT(buf[2 * r], 100 * r + 2 * mc_rank);
    for (int i = 0; i < 2 * size; i++)
        buf[i] = 100 * mc_rank + i;
    CHECK(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, counts, displs,
                        MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        EXPECT_INT(buf[2 * r + 1], 100 * r + 2 * mc_rank + 1);
    int bdispls[8];
    MPI_Datatype types[8];
    for (int r = 0; r < size; r++) {
        bdispls[r] = (int)sizeof(int) * displs[r];
        types[r] = MPI_INT;
    }
    for (int i = 0; i < 2 * size; i++)
        buf[i] = 100 * mc_rank + i;
    CHECK(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buf, counts, bdispls, types,
                        MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        EXPECT_INT(buf[2 * r], 100 * r + 2 * mc_rank);
    /* allreduce and reduce_scatter (with zero counts: fewer elements than ranks) */
    int x[2] = {mc_rank, 1};
    CHECK(MPI_Allreduce(MPI_IN_PLACE, x, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    EXPECT_INT(x[0], size * (size - 1) / 2);
    EXPECT_INT(x[1], size);
    int rc[8], total = 0;
    for (int r = 0; r < size; r++)
        total += rc[r] = r % 2 ? 0 : 2; /* odd ranks get nothing */
    int v[16];
    for (int i = 0; i < total; i++)
        v[i] = mc_rank + i;
    CHECK(MPI_Reduce_scatter(MPI_IN_PLACE, v, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    int first = 0;
    for (int r = 0; r < mc_rank; r++)
        first += rc[r];
    for (int i = 0; i < rc[mc_rank]; i++)
        EXPECT_INT(v[i], size * (size - 1) / 2 + size * (first + i));
    int w[16], out[2] = {-1, -1};
    for (int i = 0; i < total; i++)
        w[i] = 1;
    CHECK(MPI_Reduce_scatter(w, out, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (rc[mc_rank])
        EXPECT_INT(out[0] + out[1], 2 * size);
    else
        EXPECT_INT(out[0] + out[1], -2); /* untouched */
}

/* OSU's -t option: MPI_Test completes the request, then MPI_Wait sees MPI_REQUEST_NULL. */
static void t_wait_after_test(void)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int flag = 0, x = mc_rank, s = 0;
    CHECK(MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    while (!flag)
        CHECK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    EXPECT_INT(r == MPI_REQUEST_NULL, 1);
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    EXPECT_INT(s, size * (size - 1) / 2);
}

/* osu_mbw_mr 7.5: a split per message size, never freed, then MPI_Finalize. */
static void t_many_splits(void)
{
    MPI_Comm c[400];
    for (int i = 0; i < 400; i++) {
        CHECK(MPI_Comm_split(MPI_COMM_WORLD, mc_rank < (size + 1) / 2, 0, &c[i]));
        if (i % 100 == 99) {
            int n = 0, one = 1;
            CHECK(MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_INT, MPI_SUM, c[i]));
            CHECK(MPI_Comm_size(c[i], &n));
            EXPECT_INT(one, n);
            EXPECT_INT(n, mc_rank < (size + 1) / 2 ? (size + 1) / 2 : size / 2);
        }
    }
}

int main(int argc, char **argv)
{
    mc_watchdog(100);
    int provided = -1;
    CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size > 8) {
        FAIL("mpi_osu runs at n = 1..8, not %d", size);
        return 1;
    }
    t_names();
    t_names_threads();
    t_windows();
    t_reduce_in_place();
    t_gather_scatter();
    t_in_place_everywhere();
    t_wait_after_test();
    t_many_splits();
    CHECK(MPI_Finalize());
    return mc_done("mpi_osu");
}
