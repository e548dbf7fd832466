/* mpi_persist.c — MPI-4's persistent collectives and MPI_Isendrecv(_replace), the way MPICH's
 * test/mpi/coll/p_*.c and pt2pt/isendrecv*.c test them: every persistent collective made once
 * and started ROUNDS times with new data in the same buffers, each result checked exactly
 * against a serial reference; Startall over persistent collectives and point-to-point requests
 * together; requests started in different orders on different ranks; blocking collectives in
 * between; and the MPI_ERRORS_RETURN codes (an active request started or freed, a bad info,
 * root, count, type, op, communicator). Argument: "coll", "isendrecv" or nothing (both). */
#include <pthread.h>
#include <stdbool.h>

#include "mpicheck.h"

#define ROUNDS 6
#define CNT    5 /* elements per block */

static int rank, size;

/* The value rank r contributes at index i in round k (small: sums over 8 ranks fit). */
static int val(int r, int i, int k)
{
    return r * 1000 + i * 7 + k * 13 + 1;
}

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* Start, wait, and check that the request stays (inactive, not MPI_REQUEST_NULL). */
static void run(MPI_Request *req)
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

static void t_reductions(void)
{
    size_t n = (size_t)size;
    int *sb = malloc(sizeof(int) * CNT * n), *rsb = malloc(sizeof(int) * CNT);
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
static void t_neighbor(void)
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
static void t_mixed(void)
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

static void t_errors(void)
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

static void t_isendrecv(void)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int sb[CNT] = {0}, rb[CNT + 2] = {0};
    MPI_Request r;
    MPI_Status st;
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < CNT; i++)
            sb[i] = val(rank, i, k);
        for (int i = 0; i < CNT + 2; i++)
            rb[i] = -1;
        CHECK(MPI_Isendrecv(sb, CNT, MPI_INT, right, 3 + k, rb, CNT + 2, MPI_INT, left, 3 + k,
                            MPI_COMM_WORLD, &r));
        CHECK(MPI_Wait(&r, &st));
        if (r != MPI_REQUEST_NULL)
            FAIL("MPI_Wait left an isendrecv request");
        EXPECT_INT(st.MPI_SOURCE, left);
        EXPECT_INT(st.MPI_TAG, 3 + k);
        int c = -1;
        CHECK(MPI_Get_count(&st, MPI_INT, &c));
        EXPECT_INT(c, CNT);
        for (int i = 0; i < CNT + 2; i++)
            EXPECT_INT(rb[i], i < CNT ? val(left, i, k) : -1);
    }
    /* replace, with a message over the eager limit (rendezvous): the buffer receives while
     * the outgoing copy is still being read */
    size_t big = 1 << 18;
    int *buf = malloc(sizeof(int) * big);
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < big; i++)
            buf[i] = val(rank, (int)(i % 1000), k) + (int)(i / 1000);
        CHECK(MPI_Isendrecv_replace(buf, (int)big, MPI_INT, right, 7, left, 7, MPI_COMM_WORLD, &r));
        CHECK(MPI_Wait(&r, &st));
        EXPECT_INT(st.MPI_SOURCE, left);
        size_t bad = 0;
        for (size_t i = 0; i < big; i++)
            bad += buf[i] != val(left, (int)(i % 1000), k) + (int)(i / 1000);
        EXPECT_INT(bad, 0);
    }
    free(buf);
    /* a derived type, replace: only the vector's elements move */
    MPI_Datatype vec;
    CHECK(MPI_Type_vector(CNT, 1, 2, MPI_INT, &vec));
    CHECK(MPI_Type_commit(&vec));
    int vb[2 * CNT];
    for (int i = 0; i < 2 * CNT; i++)
        vb[i] = val(rank, i, 0);
    CHECK(MPI_Isendrecv_replace(vb, 1, vec, right, 1, left, 1, MPI_COMM_WORLD, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 2 * CNT; i++)
        EXPECT_INT(vb[i], i % 2 ? val(rank, i, 0) : val(left, i, 0));
    CHECK(MPI_Type_free(&vec));
    /* MPI_PROC_NULL on both sides: completes, empty status, buffer untouched */
    int one = 5;
    CHECK(MPI_Isendrecv_replace(&one, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0,
                                MPI_COMM_WORLD, &r));
    CHECK(MPI_Wait(&r, &st));
    EXPECT_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    EXPECT_INT(one, 5);
    /* several in flight, completed by Waitall, wildcards */
    MPI_Request many[2];
    int o1 = rank, o2 = -rank, i1 = -1, i2 = -1;
    CHECK(MPI_Isendrecv(&o1, 1, MPI_INT, right, 20, &i1, 1, MPI_INT, MPI_ANY_SOURCE, 20,
                        MPI_COMM_WORLD, &many[0]));
    CHECK(MPI_Isendrecv(&o2, 1, MPI_INT, left, 21, &i2, 1, MPI_INT, right, MPI_ANY_TAG,
                        MPI_COMM_WORLD, &many[1]));
    MPI_Status sts[2];
    CHECK(MPI_Waitall(2, many, sts));
    EXPECT_INT(i1, left);
    EXPECT_INT(i2, -right);
    EXPECT_INT(sts[1].MPI_TAG, 21);
    /* MPI_Request_free of a running isendrecv: it completes in the background; a second one
     * on the same tag matches after it (messages do not overtake), so once that is done the
     * first (small, eager) one has landed */
    int f1 = rank + 100, g1 = -1, f2 = rank + 200, g2 = -1;
    CHECK(MPI_Isendrecv(&f1, 1, MPI_INT, right, 40, &g1, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &r));
    CHECK(MPI_Request_free(&r));
    if (r != MPI_REQUEST_NULL)
        FAIL("MPI_Request_free left an isendrecv request");
    CHECK(MPI_Isendrecv(&f2, 1, MPI_INT, right, 40, &g2, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    EXPECT_INT(g2, left + 200);
    EXPECT_INT(g1, left + 100);
    /* truncation: the receive's error */
    int big2[4] = {1, 2, 3, 4}, small2[2];
    CHECK(MPI_Isendrecv(big2, 4, MPI_INT, right, 30, small2, 2, MPI_INT, left, 30, MPI_COMM_WORLD,
                        &r));
    expect_class("isendrecv truncated", MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
    /* errors */
    r = MPI_REQUEST_NULL;
    expect_class(
        "isendrecv bad dest",
        MPI_Isendrecv(sb, 1, MPI_INT, size, 0, rb, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r),
        MPI_ERR_RANK);
    expect_class(
        "isendrecv bad tag",
        MPI_Isendrecv(sb, 1, MPI_INT, right, -5, rb, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r),
        MPI_ERR_TAG);
    expect_class("isendrecv_replace bad count",
                 MPI_Isendrecv_replace(sb, -1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &r),
                 MPI_ERR_COUNT);
    expect_class(
        "isendrecv NULL request",
        MPI_Isendrecv(sb, 1, MPI_INT, right, 0, rb, 1, MPI_INT, left, 0, MPI_COMM_WORLD, NULL),
        MPI_ERR_ARG);
    expect_class("isendrecv bad comm",
                 MPI_Isendrecv(sb, 1, MPI_INT, 0, 0, rb, 1, MPI_INT, 0, 0, 99, &r), MPI_ERR_COMM);
    if (r != MPI_REQUEST_NULL)
        FAIL("a refused isendrecv set the request");
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* nothing of the refused calls was posted */
}

/* MPI_THREAD_MULTIPLE: two threads, each on its own duplicate of MPI_COMM_WORLD, make, start
 * and free persistent collectives and isendrecv at the same time (the init's dry run and the
 * start's mode are per thread). */
typedef struct thr_arg {
    MPI_Comm comm;
    int id;
} thr_arg_t;

static void *thr_main(void *p)
{
    thr_arg_t *a = p;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (int it = 0; it < 3; it++) {
        int sb[CNT] = {0}, rb[CNT] = {0}, b[CNT] = {0};
        MPI_Request q[2];
        CHECK(MPI_Allreduce_init(sb, rb, CNT, MPI_INT, MPI_SUM, a->comm, MPI_INFO_NULL, &q[0]));
        CHECK(MPI_Bcast_init(b, CNT, MPI_INT, 0, a->comm, MPI_INFO_NULL, &q[1]));
        for (int k = 0; k < ROUNDS; k++) {
            for (int i = 0; i < CNT; i++) {
                sb[i] = val(rank, i, k) + a->id;
                b[i] = rank == 0 ? val(0, i, k) * 2 + a->id : -1;
            }
            CHECK(MPI_Startall(2, q));
            CHECK(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
            for (int i = 0; i < CNT; i++) {
                int sum = 0;
                for (int r = 0; r < size; r++)
                    sum += val(r, i, k) + a->id;
                EXPECT_INT(rb[i], sum);
                EXPECT_INT(b[i], val(0, i, k) * 2 + a->id);
            }
            int x = val(rank, a->id, k), y = -1;
            MPI_Request r;
            CHECK(MPI_Isendrecv(&x, 1, MPI_INT, right, a->id, &y, 1, MPI_INT, left, a->id, a->comm,
                                &r));
            CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            EXPECT_INT(y, val(left, a->id, k));
        }
        CHECK(MPI_Request_free(&q[0]));
        CHECK(MPI_Request_free(&q[1]));
    }
    return NULL;
}

static void t_threads(void)
{
    thr_arg_t a[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        a[i].id = i;
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &a[i].comm));
        CHECK(MPI_Comm_set_errhandler(a[i].comm, MPI_ERRORS_RETURN));
    }
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, thr_main, &a[i]))
            FAIL("pthread_create");
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++)
        CHECK(MPI_Comm_free(&a[i].comm));
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
