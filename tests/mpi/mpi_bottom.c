/* mpi_bottom.c — every call family that takes a buffer accepts MPI_BOTTOM with a type that
 * holds absolute addresses (MPI_Get_address + MPI_Type_create_struct, as mpi4py builds them):
 * point-to-point (plain, nonblocking, persistent, matched), pack, every collective in its
 * blocking, nonblocking and persistent form, and the neighbourhood ones on a ring. Exact
 * values: block d of rank s holds val(s, d, j). */
#include "mpicheck.h"

enum { K = 3, MAXN = 8 };

static int me, size, left, right;
static int sb[MAXN * K], rb[MAXN * K];
static MPI_Datatype tsb, trb; /* K ints at sb, at rb: absolute addresses */

static int val(int src, int blk, int j)
{
    return src * 1000 + blk * 10 + j + 1;
}

/* len ints at p, by absolute address: only MPI_BOTTOM reaches them. */
static MPI_Datatype abs_type(const void *p, int len)
{
    MPI_Aint at;
    MPI_Datatype t, ints = MPI_INT;
    MPI_Get_address(p, &at);
    CHECK(MPI_Type_create_struct(1, &len, &at, &ints, &t));
    CHECK(MPI_Type_commit(&t));
    return t;
}

static void reset(void)
{
    for (int i = 0; i < MAXN * K; i++) {
        sb[i] = val(me, i / K, i % K);
        rb[i] = -1;
    }
}

/* rb's block b holds val(src, blk, j) */
static void expect_blk(const char *what, int b, int src, int blk)
{
    for (int j = 0; j < K; j++)
        if (rb[b * K + j] != val(src, blk, j))
            FAIL("%s: block %d [%d] is %d, expected %d", what, b, j, rb[b * K + j],
                 val(src, blk, j));
}

/* A matched receive of a message past the eager size (rendezvous), into absolute addresses. */
static void big_mrecv(void)
{
    enum { BIG = 1 << 16 };
    static int bs[BIG], br[BIG];
    MPI_Datatype ts = abs_type(bs, BIG), tr = abs_type(br, BIG);
    MPI_Request r;
    MPI_Message m;
    for (int i = 0; i < BIG; i++) {
        bs[i] = me * BIG + i;
        br[i] = -1;
    }
    CHECK(MPI_Isend(MPI_BOTTOM, 1, ts, right, 6, MPI_COMM_WORLD, &r));
    CHECK(MPI_Mprobe(left, 6, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE));
    CHECK(MPI_Mrecv(MPI_BOTTOM, 1, tr, &m, MPI_STATUS_IGNORE));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < BIG; i++)
        if (br[i] != left * BIG + i) {
            FAIL("big Mrecv: [%d] is %d, expected %d", i, br[i], left * BIG + i);
            break;
        }
    MPI_Type_free(&ts);
    MPI_Type_free(&tr);
}

/* ---- point-to-point: to the right, from the left ---- */
static void p2p(void)
{
    MPI_Request r[2];
    MPI_Status st;
    MPI_Message m;
    reset();
    CHECK(MPI_Sendrecv(MPI_BOTTOM, 1, tsb, right, 1, MPI_BOTTOM, 1, trb, left, 1, MPI_COMM_WORLD,
                       &st));
    expect_blk("Sendrecv", 0, left, 0);
    reset();
    CHECK(MPI_Irecv(MPI_BOTTOM, 1, trb, left, 2, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Issend(MPI_BOTTOM, 1, tsb, right, 2, MPI_COMM_WORLD, &r[1]));
    CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    expect_blk("Irecv/Issend", 0, left, 0);
    reset();
    CHECK(MPI_Recv_init(MPI_BOTTOM, 1, trb, left, 3, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Send_init(MPI_BOTTOM, 1, tsb, right, 3, MPI_COMM_WORLD, &r[1]));
    CHECK(MPI_Startall(2, r));
    CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(MPI_Request_free(&r[0]));
    CHECK(MPI_Request_free(&r[1]));
    expect_blk("Recv_init/Send_init", 0, left, 0);
    for (int imrecv = 0; imrecv < 2; imrecv++) {
        reset();
        CHECK(MPI_Isend(MPI_BOTTOM, 1, tsb, right, 4, MPI_COMM_WORLD, &r[1]));
        CHECK(MPI_Mprobe(left, 4, MPI_COMM_WORLD, &m, &st));
        if (imrecv) {
            CHECK(MPI_Imrecv(MPI_BOTTOM, 1, trb, &m, &r[0]));
            CHECK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
        } else {
            CHECK(MPI_Mrecv(MPI_BOTTOM, 1, trb, &m, MPI_STATUS_IGNORE));
        }
        CHECK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
        expect_blk(imrecv ? "Imrecv" : "Mrecv", 0, left, 0);
    }
    big_mrecv();
    reset();
    for (int j = 0; j < K; j++)
        rb[j] = val(me, 0, j);
    CHECK(MPI_Sendrecv_replace(MPI_BOTTOM, 1, trb, right, 5, left, 5, MPI_COMM_WORLD, &st));
    expect_blk("Sendrecv_replace", 0, left, 0);
}

static void pack(void)
{
    char packed[K * sizeof(int)];
    int pos = 0;
    reset();
    CHECK(MPI_Pack(MPI_BOTTOM, 1, tsb, packed, sizeof packed, &pos, MPI_COMM_WORLD));
    pos = 0;
    CHECK(MPI_Unpack(packed, sizeof packed, &pos, MPI_BOTTOM, 1, trb, MPI_COMM_WORLD));
    expect_blk("Pack/Unpack", 0, me, 0);
}

/* ---- collectives, in the form `mode` says ---- */
static int mode; /* 0 blocking, 1 nonblocking, 2 persistent */
static const char *const mode_name[] = {"blocking", "nonblocking", "persistent"};

#define COLL(Name, IName, ...)                                                                     \
    do {                                                                                           \
        MPI_Request r_ = MPI_REQUEST_NULL;                                                         \
        if (mode == 0) {                                                                           \
            CHECK(MPI_##Name(__VA_ARGS__));                                                        \
        } else if (mode == 1) {                                                                    \
            CHECK(MPI_##IName(__VA_ARGS__, &r_));                                                  \
            CHECK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                               \
        } else {                                                                                   \
            CHECK(MPI_##Name##_init(__VA_ARGS__, MPI_INFO_NULL, &r_));                             \
            if (r_ != MPI_REQUEST_NULL) {                                                          \
                CHECK(MPI_Start(&r_));                                                             \
                CHECK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                           \
                CHECK(MPI_Request_free(&r_));                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static void rooted(const char *m)
{
    int ones[MAXN], displs[MAXN], root = size - 1;
    for (int i = 0; i < size; i++) {
        ones[i] = 1;
        displs[i] = i;
    }
    reset();
    if (me == root)
        for (int j = 0; j < K; j++)
            rb[j] = val(root, 0, j);
    COLL(Bcast, Ibcast, MPI_BOTTOM, 1, trb, root, MPI_COMM_WORLD);
    expect_blk(m, 0, root, 0);
    reset();
    COLL(Gather, Igather, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, 1, trb, root, MPI_COMM_WORLD);
    for (int s = 0; me == root && s < size; s++)
        expect_blk("gather", s, s, 0);
    reset();
    COLL(Gatherv, Igatherv, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, ones, displs, trb, root,
         MPI_COMM_WORLD);
    for (int s = 0; me == root && s < size; s++)
        expect_blk("gatherv", s, s, 0);
    reset();
    COLL(Scatter, Iscatter, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, 1, trb, root, MPI_COMM_WORLD);
    expect_blk("scatter", 0, root, me);
    reset();
    COLL(Scatterv, Iscatterv, MPI_BOTTOM, ones, displs, tsb, MPI_BOTTOM, 1, trb, root,
         MPI_COMM_WORLD);
    expect_blk("scatterv", 0, root, me);
}

static void all_to(void)
{
    int ones[MAXN], displs[MAXN], bdispls[MAXN];
    MPI_Datatype st[MAXN], rt[MAXN];
    for (int i = 0; i < size; i++) {
        ones[i] = 1;
        displs[i] = i;
        bdispls[i] = i * K * (int)sizeof(int);
        st[i] = tsb;
        rt[i] = trb;
    }
    reset();
    COLL(Allgather, Iallgather, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, 1, trb, MPI_COMM_WORLD);
    for (int s = 0; s < size; s++)
        expect_blk("allgather", s, s, 0);
    reset();
    COLL(Allgatherv, Iallgatherv, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, ones, displs, trb,
         MPI_COMM_WORLD);
    for (int s = 0; s < size; s++)
        expect_blk("allgatherv", s, s, 0);
    reset();
    COLL(Alltoall, Ialltoall, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, 1, trb, MPI_COMM_WORLD);
    for (int s = 0; s < size; s++)
        expect_blk("alltoall", s, s, me);
    reset();
    COLL(Alltoallv, Ialltoallv, MPI_BOTTOM, ones, displs, tsb, MPI_BOTTOM, ones, displs, trb,
         MPI_COMM_WORLD);
    for (int s = 0; s < size; s++)
        expect_blk("alltoallv", s, s, me);
    reset();
    COLL(Alltoallw, Ialltoallw, MPI_BOTTOM, ones, bdispls, st, MPI_BOTTOM, ones, bdispls, rt,
         MPI_COMM_WORLD);
    for (int s = 0; s < size; s++)
        expect_blk("alltoallw", s, s, me);
}

/* Reductions: MPI_IN_PLACE on MPI_BOTTOM (one type names both buffers), and a non-root's
 * MPI_BOTTOM contribution to reduce. rb's block b starts as val(me, b, j). */
static void sum_expect(const char *what, int b, int blk, int from, int to)
{
    for (int j = 0; j < K; j++) {
        int want = 0;
        for (int s = from; s < to; s++)
            want += val(s, blk, j);
        if (rb[b * K + j] != want)
            FAIL("%s: block %d [%d] is %d, expected %d", what, b, j, rb[b * K + j], want);
    }
}

static void reset_rb(void)
{
    reset();
    for (int i = 0; i < MAXN * K; i++)
        rb[i] = sb[i];
}

static void reductions(void)
{
    int root = 0, ones[MAXN];
    for (int i = 0; i < size; i++)
        ones[i] = 1;
    reset_rb();
    COLL(Allreduce, Iallreduce, MPI_IN_PLACE, MPI_BOTTOM, 1, trb, MPI_SUM, MPI_COMM_WORLD);
    sum_expect("allreduce", 0, 0, 0, size);
    reset_rb();
    COLL(Reduce, Ireduce, me == root ? MPI_IN_PLACE : MPI_BOTTOM, MPI_BOTTOM, 1, trb, MPI_SUM, root,
         MPI_COMM_WORLD);
    if (me == root)
        sum_expect("reduce", 0, 0, 0, size);
    reset_rb();
    COLL(Scan, Iscan, MPI_IN_PLACE, MPI_BOTTOM, 1, trb, MPI_SUM, MPI_COMM_WORLD);
    sum_expect("scan", 0, 0, 0, me + 1);
    reset_rb();
    COLL(Exscan, Iexscan, MPI_IN_PLACE, MPI_BOTTOM, 1, trb, MPI_SUM, MPI_COMM_WORLD);
    if (me > 0)
        sum_expect("exscan", 0, 0, 0, me);
    reset_rb();
    COLL(Reduce_scatter_block, Ireduce_scatter_block, MPI_IN_PLACE, MPI_BOTTOM, 1, trb, MPI_SUM,
         MPI_COMM_WORLD);
    sum_expect("reduce_scatter_block", 0, me, 0, size);
    reset_rb();
    COLL(Reduce_scatter, Ireduce_scatter, MPI_IN_PLACE, MPI_BOTTOM, ones, trb, MPI_SUM,
         MPI_COMM_WORLD);
    sum_expect("reduce_scatter", 0, me, 0, size);
}

/* A one-way ring as a distributed graph: one block to the right, one from the left. */
static void neighbors(MPI_Comm ring)
{
    int one = 1;
    MPI_Aint zero = 0;
    reset();
    COLL(Neighbor_allgather, Ineighbor_allgather, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, 1, trb, ring);
    expect_blk("neighbor_allgather", 0, left, 0);
    reset();
    int d0 = 0;
    COLL(Neighbor_allgatherv, Ineighbor_allgatherv, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, &one, &d0, trb,
         ring);
    expect_blk("neighbor_allgatherv", 0, left, 0);
    reset();
    COLL(Neighbor_alltoall, Ineighbor_alltoall, MPI_BOTTOM, 1, tsb, MPI_BOTTOM, 1, trb, ring);
    expect_blk("neighbor_alltoall", 0, left, 0);
    reset();
    COLL(Neighbor_alltoallv, Ineighbor_alltoallv, MPI_BOTTOM, &one, &d0, tsb, MPI_BOTTOM, &one, &d0,
         trb, ring);
    expect_blk("neighbor_alltoallv", 0, left, 0);
    reset();
    COLL(Neighbor_alltoallw, Ineighbor_alltoallw, MPI_BOTTOM, &one, &zero, &tsb, MPI_BOTTOM, &one,
         &zero, &trb, ring);
    expect_blk("neighbor_alltoallw", 0, left, 0);
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 60);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    me = mc_rank;
    if (size > MAXN) {
        FAIL("at most %d ranks", MAXN);
        return mc_done("mpi_bottom");
    }
    left = (me + size - 1) % size;
    right = (me + 1) % size;
    tsb = abs_type(sb, K);
    trb = abs_type(rb, K);
    MPI_Comm ring;
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                         MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &ring));
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    p2p();
    pack();
    for (mode = 0; mode < 3; mode++) {
        rooted(mode_name[mode]);
        all_to();
        reductions();
        neighbors(ring);
    }
    MPI_Comm_free(&ring);
    MPI_Type_free(&tsb);
    MPI_Type_free(&trb);
    MPI_Finalize();
    return mc_done("mpi_bottom");
}
