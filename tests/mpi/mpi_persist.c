/* mpi_persist.c — MPI-4's persistent collectives and MPI_Isendrecv(_replace), the way MPICH's
 * test/mpi/coll/p_*.c and pt2pt/isendrecv*.c test them: every persistent collective made once
 * and started ROUNDS times with new data in the same buffers, each result checked exactly
 * against a serial reference; Startall over persistent collectives and point-to-point requests
 * together; requests started in different orders on different ranks; blocking collectives in
 * between; and the MPI_ERRORS_RETURN codes (an active request started or freed, a bad info,
 * root, count, type, op, communicator). Argument: "coll", "isendrecv" or nothing (both). */
#include "mpi_persist/mpi_persist.h"

int rank, size;

/* The value rank r contributes at index i in round k (small: sums over 8 ranks fit). */
int val(int r, int i, int k)
{
    return r * 1000 + i * 7 + k * 13 + 1;
}

void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* Start, wait, and check that the request stays (inactive, not MPI_REQUEST_NULL). */
void run(MPI_Request *req)
{
    MPI_Request keep = *req;
    CHECK(MPI_Start(req));
    CHECK(MPI_Wait(req, MPI_STATUS_IGNORE));
    if (*req != keep || *req == MPI_REQUEST_NULL)
        FAIL("a persistent collective's request changed after MPI_Wait");
}

static void t_barrier_bcast_reduce(void)
{
    MPI_Request rb, rbc, rr, rar, rip;
    int buf[CNT] = {0}, sb[CNT] = {0}, rbuf[CNT] = {0}, ar[CNT] = {0}, ip[CNT] = {0};
    int root = size - 1;
    CHECK(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rb));
    CHECK(MPI_Bcast_init(buf, CNT, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rbc));
    CHECK(MPI_Reduce_init(sb, rbuf, CNT, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rr));
    CHECK(MPI_Allreduce_init(sb, ar, CNT, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &rar));
    CHECK(MPI_Allreduce_init(MPI_IN_PLACE, ip, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &rip));
    for (int k = 0; k < ROUNDS; k++) {
        run(&rb);
        for (int i = 0; i < CNT; i++) {
            buf[i] = rank == root ? val(root, i, k) : -1;
            sb[i] = val(rank, i, k);
            rbuf[i] = ar[i] = -1;
            ip[i] = val(rank, i, k);
        }
        run(&rbc);
        run(&rr);
        run(&rar);
        run(&rip);
        for (int i = 0; i < CNT; i++) {
            int sum = 0, max = 0;
            for (int r = 0; r < size; r++)
                sum += val(r, i, k), max = val(r, i, k) > max ? val(r, i, k) : max;
            EXPECT_INT(buf[i], val(root, i, k));
            if (rank == 0)
                EXPECT_INT(rbuf[i], sum);
            EXPECT_INT(ar[i], max);
            EXPECT_INT(ip[i], sum);
        }
        /* a blocking collective between starts takes its own tag */
        int one = 1, all = 0;
        CHECK(MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        EXPECT_INT(all, size);
    }
    MPI_Request *rs[] = {&rb, &rbc, &rr, &rar, &rip};
    for (int i = 0; i < 5; i++) {
        CHECK(MPI_Request_free(rs[i]));
        if (*rs[i] != MPI_REQUEST_NULL)
            FAIL("MPI_Request_free left the request");
    }
}

/* A non-contiguous type: every start must pack the data the buffer holds then. */
static void t_derived(void)
{
    MPI_Datatype vec;
    CHECK(MPI_Type_vector(CNT, 1, 2, MPI_INT, &vec));
    CHECK(MPI_Type_commit(&vec));
    int sb[2 * CNT] = {0}, rb[2 * CNT] = {0};
    MPI_Request req;
    CHECK(MPI_Allreduce_init(sb, rb, 1, vec, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < 2 * CNT; i++)
            sb[i] = val(rank, i, k), rb[i] = -5;
        run(&req);
        for (int i = 0; i < 2 * CNT; i++) {
            int sum = 0;
            for (int r = 0; r < size; r++)
                sum += val(r, i, k);
            EXPECT_INT(rb[i], i % 2 ? -5 : sum);
        }
    }
    CHECK(MPI_Request_free(&req));
    CHECK(MPI_Type_free(&vec));
}

static void t_gather_scatter(void)
{
    int root = size / 2;
    int sb[CNT] = {0}, *rb = calloc(1, sizeof(int) * CNT * (size_t)size);
    int *all = calloc(1, sizeof(int) * CNT * (size_t)size), sc[CNT] = {0};
    int *vcounts = malloc(sizeof(int) * (size_t)size),
        *vdispls = malloc(sizeof(int) * (size_t)size);
    int *vb = calloc(1, sizeof(int) * (CNT + 1) * (size_t)size * 2), vmine = rank % CNT + 1;
    int *avb = malloc(sizeof(int) * (CNT + 1) * (size_t)size * 2), vs[CNT + 1] = {0};
    int tot = 0;
    for (int r = 0; r < size; r++) {
        vcounts[r] = r % CNT + 1;
        vdispls[r] = tot + r; /* a gap of r ints before each block */
        tot += vcounts[r] + r;
    }
    MPI_Request g, s, ag, gv, sv, agv;
    CHECK(MPI_Gather_init(sb, CNT, MPI_INT, rb, CNT, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &g));
    CHECK(MPI_Scatter_init(all, CNT, MPI_INT, sc, CNT, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &s));
    CHECK(MPI_Allgather_init(sb, CNT, MPI_INT, all, CNT, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &ag));
    CHECK(MPI_Gatherv_init(vs, vmine, MPI_INT, vb, vcounts, vdispls, MPI_INT, root, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &gv));
    CHECK(MPI_Scatterv_init(vb, vcounts, vdispls, MPI_INT, vs, vmine, MPI_INT, root, MPI_COMM_WORLD,
                            MPI_INFO_NULL, &sv));
    CHECK(MPI_Allgatherv_init(vs, vmine, MPI_INT, avb, vcounts, vdispls, MPI_INT, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &agv));
    /* the arrays were copied at init: changing them now changes nothing */
    int *keepc = malloc(sizeof(int) * (size_t)size);
    memcpy(keepc, vcounts, sizeof(int) * (size_t)size);
    for (int r = 0; r < size; r++)
        vcounts[r] = -7;
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < CNT; i++)
            sb[i] = val(rank, i, k);
        for (int i = 0; i < CNT * size; i++)
            rb[i] = all[i] = -1;
        run(&g);
        run(&ag);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < CNT; i++) {
                if (rank == root)
                    EXPECT_INT(rb[r * CNT + i], val(r, i, k));
                EXPECT_INT(all[r * CNT + i], val(r, i, k));
            }
        /* scatter back what allgather gave, shifted by the round */
        for (int i = 0; i < CNT * size; i++)
            all[i] += k;
        run(&s);
        for (int i = 0; i < CNT; i++)
            EXPECT_INT(sc[i], val(rank, i, k) + k);
        /* v-forms */
        for (int i = 0; i <= CNT; i++)
            vs[i] = i < vmine ? val(rank, i, k) : -3;
        for (int i = 0; i < tot; i++)
            vb[i] = avb[i] = -2;
        run(&gv);
        run(&agv);
        for (int r = 0, at = 0; r < size; r++) {
            for (int i = 0; i < r; i++, at++) {
                if (rank == root)
                    EXPECT_INT(vb[at], -2);
                EXPECT_INT(avb[at], -2);
            }
            for (int i = 0; i < keepc[r]; i++, at++) {
                if (rank == root)
                    EXPECT_INT(vb[at], val(r, i, k));
                EXPECT_INT(avb[at], val(r, i, k));
            }
        }
        if (rank == root)
            for (int i = 0; i < tot; i++)
                vb[i] = vb[i] == -2 ? -2 : vb[i] * 2;
        for (int i = 0; i <= CNT; i++)
            vs[i] = -9;
        run(&sv);
        for (int i = 0; i <= CNT; i++)
            EXPECT_INT(vs[i], i < vmine ? 2 * val(rank, i, k) : -9);
    }
    MPI_Request *rs[] = {&g, &s, &ag, &gv, &sv, &agv};
    for (int i = 0; i < 6; i++)
        CHECK(MPI_Request_free(rs[i]));
    free(rb), free(all), free(vcounts), free(vdispls), free(vb), free(avb), free(keepc);
}

static void t_alltoall(void)
{
    size_t n = (size_t)size;
    int *sb = calloc(1, sizeof(int) * CNT * n), *rb = malloc(sizeof(int) * CNT * n);
    int *sc = malloc(sizeof(int) * n), *sd = malloc(sizeof(int) * n);
    int *rc = malloc(sizeof(int) * n), *rd = malloc(sizeof(int) * n);
    int *wsd = malloc(sizeof(int) * n), *wrd = malloc(sizeof(int) * n);
    MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * n);
    int *vsb = calloc(1, sizeof(int) * CNT * n), *vrb = malloc(sizeof(int) * CNT * n);
    int *wrb = malloc(sizeof(int) * CNT * n);
    /* v: I send (dest % CNT) + 1 ints to dest, from block dest; I get (rank % CNT) + 1 */
    for (int r = 0; r < size; r++) {
        sc[r] = r % CNT + 1;
        sd[r] = r * CNT;
        rc[r] = rank % CNT + 1;
        rd[r] = (size - 1 - r) * CNT; /* reversed order in the receive buffer */
        wsd[r] = sd[r] * (int)sizeof(int);
        wrd[r] = rd[r] * (int)sizeof(int);
        ty[r] = MPI_INT;
    }
    MPI_Request a, av, aw;
    CHECK(MPI_Alltoall_init(sb, CNT, MPI_INT, rb, CNT, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &a));
    CHECK(MPI_Alltoallv_init(vsb, sc, sd, MPI_INT, vrb, rc, rd, MPI_INT, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &av));
    CHECK(
        MPI_Alltoallw_init(vsb, sc, wsd, ty, wrb, rc, wrd, ty, MPI_COMM_WORLD, MPI_INFO_NULL, &aw));
    for (int k = 0; k < ROUNDS; k++) {
        for (int d = 0; d < size; d++)
            for (int i = 0; i < CNT; i++) {
                sb[d * CNT + i] = val(rank, d * CNT + i, k);
                vsb[d * CNT + i] = val(rank, d * CNT + i, k) + 5;
                rb[d * CNT + i] = vrb[d * CNT + i] = wrb[d * CNT + i] = -1;
            }
        /* both in flight at once */
        MPI_Request both[3] = {a, av, aw};
        CHECK(MPI_Startall(3, both));
        CHECK(MPI_Waitall(3, both, MPI_STATUSES_IGNORE));
        for (int s = 0; s < size; s++)
            for (int i = 0; i < CNT; i++) {
                EXPECT_INT(rb[s * CNT + i], val(s, rank * CNT + i, k));
                int at = (size - 1 - s) * CNT + i;
                int want = i < rank % CNT + 1 ? val(s, rank * CNT + i, k) + 5 : -1;
                EXPECT_INT(vrb[at], want);
                EXPECT_INT(wrb[at], want);
            }
    }
    CHECK(MPI_Request_free(&a));
    CHECK(MPI_Request_free(&av));
    CHECK(MPI_Request_free(&aw));
    free(sb), free(rb), free(sc), free(sd), free(rc), free(rd), free(wsd), free(wrd), free(ty);
    free(vsb), free(vrb), free(wrb);
}

int main(int argc, char **argv)
{
    mc_watchdog(80);
    const char *what = argc > 1 ? argv[1] : "";
    int provided = -1;
    CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    mc_rank = rank;
    bool all = !what[0];
    if (all || !strcmp(what, "coll")) {
        t_barrier_bcast_reduce();
        t_derived();
        t_gather_scatter();
        t_alltoall();
        t_reductions();
        t_neighbor();
        t_mixed();
        t_errors();
    }
    if (all || !strcmp(what, "isendrecv"))
        t_isendrecv();
    if (all || !strcmp(what, "threads")) {
        EXPECT_INT(provided, MPI_THREAD_MULTIPLE);
        t_threads();
    }
    CHECK(MPI_Finalize());
    return mc_done("mpi_persist");
}
