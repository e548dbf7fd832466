/* coll_more.c — mpi_persist's persistent reductions, neighbourhood collectives, collectives
 * mixed with point-to-point in one Startall, and the error codes. */
#include "mpi_persist.h"

void t_reductions(void)
{
    size_t n = (size_t)size;
    /* zeroed: with size a global of another file, gcc -O3 no longer sees that every round
     * writes sb before its start, and warns at the _init calls (which read nothing) */
    int *sb = calloc(CNT * n, sizeof(int)), *rsb = malloc(sizeof(int) * CNT);
    int *counts = malloc(sizeof(int) * n), *rsv = malloc(sizeof(int) * CNT * n);
    int scan[CNT] = {0}, exs[CNT] = {0};
    int off = 0, mine = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = r % 3; /* some ranks get nothing */
        if (r < rank)
            off += counts[r];
    }
    mine = counts[rank];
    MPI_Request rs, rsbk, sc, ex;
    CHECK(MPI_Reduce_scatter_init(sb, rsv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                                  &rs));
    CHECK(MPI_Reduce_scatter_block_init(sb, rsb, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                        MPI_INFO_NULL, &rsbk));
    CHECK(MPI_Scan_init(sb, scan, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &sc));
    CHECK(MPI_Exscan_init(sb, exs, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ex));
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < CNT * size; i++)
            sb[i] = val(rank, i, k), rsv[i] = -1;
        for (int i = 0; i < CNT; i++)
            rsb[i] = scan[i] = exs[i] = -1;
        run(&rs);
        run(&rsbk);
        run(&sc);
        run(&ex);
        for (int i = 0; i < mine; i++) {
            int sum = 0;
            for (int r = 0; r < size; r++)
                sum += val(r, off + i, k);
            EXPECT_INT(rsv[i], sum);
        }
        for (int i = 0; i < CNT; i++) {
            int sum = 0, pre = 0;
            for (int r = 0; r < size; r++)
                sum += val(r, rank * CNT + i, k);
            EXPECT_INT(rsb[i], sum);
            for (int r = 0; r <= rank; r++)
                pre += val(r, i, k);
            EXPECT_INT(scan[i], pre);
            if (rank > 0)
                EXPECT_INT(exs[i], pre - val(rank, i, k));
            else
                EXPECT_INT(exs[i], -1);
        }
    }
    CHECK(MPI_Request_free(&rs));
    CHECK(MPI_Request_free(&rsbk));
    CHECK(MPI_Request_free(&sc));
    CHECK(MPI_Request_free(&ex));
    free(sb), free(rsb), free(counts), free(rsv);
}

/* Neighbourhood forms on a periodic ring (Cartesian, 1 dimension). */
void t_neighbor(void)
{
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int lo = (rank - 1 + size) % size, hi = (rank + 1) % size;
    int sb[2 * CNT] = {0}, ag[2 * CNT], a2[2 * CNT], av[2 * CNT], aw[2 * CNT], agv[2 * CNT];
    int cnt2[2] = {CNT, CNT}, dsp[2] = {0, CNT};
    MPI_Aint bd[2] = {0, CNT * sizeof(int)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
    MPI_Request r[5];
    CHECK(MPI_Neighbor_allgather_init(sb, CNT, MPI_INT, ag, CNT, MPI_INT, ring, MPI_INFO_NULL,
                                      &r[0]));
    CHECK(
        MPI_Neighbor_alltoall_init(sb, CNT, MPI_INT, a2, CNT, MPI_INT, ring, MPI_INFO_NULL, &r[1]));
    CHECK(MPI_Neighbor_alltoallv_init(sb, cnt2, dsp, MPI_INT, av, cnt2, dsp, MPI_INT, ring,
                                      MPI_INFO_NULL, &r[2]));
    CHECK(MPI_Neighbor_alltoallw_init(sb, cnt2, bd, ty, aw, cnt2, bd, ty, ring, MPI_INFO_NULL,
                                      &r[3]));
    CHECK(MPI_Neighbor_allgatherv_init(sb, CNT, MPI_INT, agv, cnt2, dsp, MPI_INT, ring,
                                       MPI_INFO_NULL, &r[4]));
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < 2 * CNT; i++) {
            sb[i] = val(rank, i, k);
            ag[i] = a2[i] = av[i] = aw[i] = agv[i] = -1;
        }
        CHECK(MPI_Startall(5, r));
        CHECK(MPI_Waitall(5, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < CNT; i++) {
            /* allgather: block 0 from below, block 1 from above, each its first CNT */
            EXPECT_INT(ag[i], val(lo, i, k));
            EXPECT_INT(ag[CNT + i], val(hi, i, k));
            EXPECT_INT(agv[i], val(lo, i, k));
            EXPECT_INT(agv[CNT + i], val(hi, i, k));
            /* alltoall: from below what it sent upwards (its block 1), from above its block 0 */
            EXPECT_INT(a2[i], val(lo, CNT + i, k));
            EXPECT_INT(a2[CNT + i], val(hi, i, k));
            EXPECT_INT(av[i], val(lo, CNT + i, k));
            EXPECT_INT(av[CNT + i], val(hi, i, k));
            EXPECT_INT(aw[i], val(lo, CNT + i, k));
            EXPECT_INT(aw[CNT + i], val(hi, i, k));
        }
    }
    for (int i = 0; i < 5; i++)
        CHECK(MPI_Request_free(&r[i]));
    CHECK(MPI_Comm_free(&ring));
}

/* Startall over persistent collectives and point-to-point requests together; two requests
 * started in opposite orders on even and odd ranks; completion by Test. */
void t_mixed(void)
{
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    int s1[CNT] = {0}, r1[CNT], a[CNT], b[CNT], ps = 0, pr;
    MPI_Request q[4];
    CHECK(MPI_Allreduce_init(s1, a, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]));
    CHECK(MPI_Bcast_init(b, CNT, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]));
    CHECK(MPI_Send_init(&ps, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &q[2]));
    CHECK(MPI_Recv_init(&pr, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &q[3]));
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < CNT; i++) {
            s1[i] = val(rank, i, k);
            b[i] = rank == 0 ? val(0, i, k) + 1 : -1;
            a[i] = r1[i] = -1;
        }
        ps = val(rank, 0, k);
        pr = -1;
        if (k % 2 == 0) {
            CHECK(MPI_Startall(4, q));
        } else { /* opposite orders on even and odd ranks */
            int first = rank % 2 ? 1 : 0;
            CHECK(MPI_Start(&q[first]));
            CHECK(MPI_Start(&q[1 - first]));
            CHECK(MPI_Start(&q[3]));
            CHECK(MPI_Start(&q[2]));
        }
        /* starting an active request is an error */
        expect_class("MPI_Start of an active persistent collective", MPI_Start(&q[0]),
                     MPI_ERR_REQUEST);
        expect_class("MPI_Request_free of an active persistent collective", MPI_Request_free(&q[0]),
                     MPI_ERR_REQUEST);
        int flag = 0;
        while (!flag)
            CHECK(MPI_Testall(4, q, &flag, MPI_STATUSES_IGNORE));
        for (int i = 0; i < CNT; i++) {
            int sum = 0;
            for (int r = 0; r < size; r++)
                sum += val(r, i, k);
            EXPECT_INT(a[i], sum);
            EXPECT_INT(b[i], val(0, i, k) + 1);
        }
        EXPECT_INT(pr, val(left, 0, k));
        /* waiting again on inactive requests returns at once */
        CHECK(MPI_Waitall(4, q, MPI_STATUSES_IGNORE));
    }
    for (int i = 0; i < 4; i++)
        CHECK(MPI_Request_free(&q[i]));
}

void t_errors(void)
{
    int x[4] = {0}, y[4] = {0};
    MPI_Request r = MPI_REQUEST_NULL;
    /* a valid info is accepted (its hints ignored); an invalid handle is MPI_ERR_INFO */
    MPI_Info hints = MPI_INFO_NULL;
    CHECK(MPI_Info_create(&hints));
    CHECK(MPI_Info_set(hints, "mpi_assert_no_any_source", "true"));
    CHECK(MPI_Barrier_init(MPI_COMM_WORLD, hints, &r));
    CHECK(MPI_Start(&r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Request_free(&r));
    CHECK(MPI_Info_free(&hints));
    expect_class("Bcast_init with an invalid info",
                 MPI_Bcast_init(x, 1, MPI_INT, 0, MPI_COMM_WORLD, (MPI_Info)0x7ffffff, &r),
                 MPI_ERR_INFO);
    expect_class("Bcast_init bad root",
                 MPI_Bcast_init(x, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                 MPI_ERR_ROOT);
    expect_class("Allreduce_init count -1",
                 MPI_Allreduce_init(x, y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                 MPI_ERR_COUNT);
    expect_class("Allreduce_init bad type",
                 MPI_Allreduce_init(x, y, 1, 9999, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                 MPI_ERR_TYPE);
    expect_class("Allreduce_init bad op",
                 MPI_Allreduce_init(x, y, 1, MPI_INT, 999, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                 MPI_ERR_OP);
    expect_class("Barrier_init bad comm", MPI_Barrier_init(77, MPI_INFO_NULL, &r), MPI_ERR_COMM);
    expect_class("Barrier_init NULL request", MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, NULL),
                 MPI_ERR_ARG);
    expect_class("Neighbor_allgather_init without topology",
                 MPI_Neighbor_allgather_init(x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD,
                                             MPI_INFO_NULL, &r),
                 MPI_ERR_TOPOLOGY);
    if (r != MPI_REQUEST_NULL)
        FAIL("a refused init set the request");
    /* the refused inits took no tag: the next collectives still agree */
    MPI_Request b;
    int v = rank == 0 ? 42 : 0;
    CHECK(MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &b));
    run(&b);
    EXPECT_INT(v, 42);
    /* wait/test on an inactive one: at once, an empty status */
    MPI_Status st;
    int flag = 0;
    CHECK(MPI_Test(&b, &flag, &st));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Request_free(&b));
}
