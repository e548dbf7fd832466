/* mpi_errors_args.c — invalid arguments return their error class under MPI_ERRORS_RETURN and
 * leave every rank in step: aliased collective buffers (MPI_ERR_BUFFER, at the root alone
 * for rooted collectives, before any message), NULL output handles of communicator
 * constructors (MPI_ERR_ARG, even on a communicator made before MPI_COMM_WORLD's handler
 * was set), a Cartesian grid larger than the communicator (MPI_COMM_NULL out), compare-and-
 * swap types, a persistent buffered send larger than the buffer (and buffered sends that
 * wait for earlier ones to give their space back), a truncated receive's
 * status, a message whose type signature cannot match the receive's, Comm_idup with no
 * communicator left (the request fails). After each group of errors, a correct collective
 * checks exact values. */
#include "mpicheck.h"

enum { K = 2, MAXN = 8 };

static int me, size;

static void expect_class(const char *what, int rc, int want)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls != want)
        FAIL("%s: error class %d, expected %d", what, cls, want);
}

/* Every rank still runs collectives in step: the sum of the ranks, by allreduce. */
static void in_step(const char *after)
{
    int one = me, sum = -1;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (sum != size * (size - 1) / 2)
        FAIL("after %s: allreduce gave %d, expected %d", after, sum, size * (size - 1) / 2);
}

/* Send and receive buffer one (or the send buffer this rank's slot of the receive buffer):
 * every rank calls, every rank fails. */
static void alias_all(void)
{
    int b[MAXN * K], counts[MAXN], displs[MAXN];
    MPI_Datatype types[MAXN];
    MPI_Request r = MPI_REQUEST_NULL;
    for (int i = 0; i < size; i++) {
        counts[i] = K;
        displs[i] = i * K;
        types[i] = MPI_INT;
    }
    for (int i = 0; i < MAXN * K; i++)
        b[i] = i;
    MPI_Comm w = MPI_COMM_WORLD;
    expect_class("Allreduce", MPI_Allreduce(b, b, K, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER);
    expect_class("Iallreduce", MPI_Iallreduce(b, b, K, MPI_INT, MPI_SUM, w, &r), MPI_ERR_BUFFER);
    expect_class("Allgather", MPI_Allgather(b + me * K, K, MPI_INT, b, K, MPI_INT, w),
                 MPI_ERR_BUFFER);
    expect_class("Allgatherv",
                 MPI_Allgatherv(b + me * K, K, MPI_INT, b, counts, displs, MPI_INT, w),
                 MPI_ERR_BUFFER);
    expect_class("Alltoall", MPI_Alltoall(b, K, MPI_INT, b, K, MPI_INT, w), MPI_ERR_BUFFER);
    expect_class("Alltoallv",
                 MPI_Alltoallv(b, counts, displs, MPI_INT, b, counts, displs, MPI_INT, w),
                 MPI_ERR_BUFFER);
    for (int i = 0; i < size; i++)
        displs[i] *= (int)sizeof(int);
    expect_class("Alltoallw", MPI_Alltoallw(b, counts, displs, types, b, counts, displs, types, w),
                 MPI_ERR_BUFFER);
    expect_class("Reduce_scatter", MPI_Reduce_scatter(b, b, counts, MPI_INT, MPI_SUM, w),
                 MPI_ERR_BUFFER);
    expect_class("Reduce_scatter_block", MPI_Reduce_scatter_block(b, b, K, MPI_INT, MPI_SUM, w),
                 MPI_ERR_BUFFER);
    expect_class("Scan", MPI_Scan(b, b, K, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER);
    expect_class("Exscan", MPI_Exscan(b, b, K, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER);
    if (r != MPI_REQUEST_NULL)
        FAIL("Iallreduce: a request although it failed");
    in_step("aliased collectives");
}

/* Rooted: only the root sees the alias and fails before any message, so the peers' calls
 * meet the root's correct make-up call; with a root of its own, alone (MPICH's noalias2). */
static void alias_rooted(void)
{
    int b[MAXN * K], out[MAXN * K], counts[MAXN], displs[MAXN], root = size - 1;
    for (int i = 0; i < size; i++) {
        counts[i] = K;
        displs[i] = i * K;
    }
    for (int i = 0; i < MAXN * K; i++)
        b[i] = me * 100 + i;
    MPI_Comm w = MPI_COMM_WORLD;
    if (me == root) {
        expect_class("Gather", MPI_Gather(b + me * K, K, MPI_INT, b, K, MPI_INT, root, w),
                     MPI_ERR_BUFFER);
        expect_class("Gatherv",
                     MPI_Gatherv(b + me * K, K, MPI_INT, b, counts, displs, MPI_INT, root, w),
                     MPI_ERR_BUFFER);
        expect_class("Scatter", MPI_Scatter(b, K, MPI_INT, b + me * K, K, MPI_INT, root, w),
                     MPI_ERR_BUFFER);
        expect_class("Scatterv",
                     MPI_Scatterv(b, counts, displs, MPI_INT, b + me * K, K, MPI_INT, root, w),
                     MPI_ERR_BUFFER);
        expect_class("Reduce", MPI_Reduce(b, b, K, MPI_INT, MPI_SUM, root, w), MPI_ERR_BUFFER);
    }
    in_step("aliased rooted collectives at the root alone");
    /* the peers' reduce meets the root's second, correct one */
    int rc = MPI_Reduce(b, me == root ? b : out, K, MPI_INT, MPI_SUM, root, w);
    expect_class("Reduce, aliased at the root", rc, me == root ? MPI_ERR_BUFFER : MPI_SUCCESS);
    if (rc != MPI_SUCCESS)
        CHECK(MPI_Reduce(b, out, K, MPI_INT, MPI_SUM, root, w));
    for (int j = 0; me == root && j < K; j++)
        EXPECT_INT(out[j], 100 * size * (size - 1) / 2 + size * j);
    /* MPI_IN_PLACE at the root is no alias */
    CHECK(MPI_Reduce(me == root ? MPI_IN_PLACE : b, b, K, MPI_INT, MPI_SUM, root, w));
    in_step("rooted collectives");
}

/* NULL for the new communicator: MPI_ERR_ARG on every rank, nothing sent. A communicator
 * whose handler nobody set (a dup of MPI_COMM_SELF) sends its errors to MPI_COMM_WORLD's
 * handler (as MPICH does), which returns them. */
static void null_outputs(void)
{
    MPI_Comm dup, selfdup, cart = MPI_COMM_WORLD;
    MPI_Group g, gs;
    MPI_Request r;
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &selfdup));
    CHECK(MPI_Comm_group(selfdup, &gs));
    expect_class("Comm_create on a dup of MPI_COMM_SELF", MPI_Comm_create(selfdup, gs, NULL),
                 MPI_ERR_ARG);
    CHECK(MPI_Group_free(&gs));
    CHECK(MPI_Comm_free(&selfdup));
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Comm_group(dup, &g));
    expect_class("Comm_create", MPI_Comm_create(dup, g, NULL), MPI_ERR_ARG);
    expect_class("Comm_create_group", MPI_Comm_create_group(dup, g, 0, NULL), MPI_ERR_ARG);
    expect_class("Comm_split", MPI_Comm_split(dup, 0, me, NULL), MPI_ERR_ARG);
    expect_class("Comm_split_type",
                 MPI_Comm_split_type(dup, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, NULL),
                 MPI_ERR_ARG);
    expect_class("Comm_dup", MPI_Comm_dup(dup, NULL), MPI_ERR_ARG);
    expect_class("Comm_idup", MPI_Comm_idup(dup, NULL, &r), MPI_ERR_ARG);
    int zero = 0;
    expect_class("Intercomm_create", MPI_Intercomm_create(MPI_COMM_SELF, 0, dup, 0, 5, NULL),
                 MPI_ERR_ARG);
    expect_class("Group_incl", MPI_Group_incl(g, 1, &zero, NULL), MPI_ERR_ARG);
    expect_class("Type_contiguous", MPI_Type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG);
    int dims[2] = {size, 2}, periods[2] = {0, 0};
    expect_class("Cart_create, NULL", MPI_Cart_create(dup, 2, dims, periods, 0, NULL), MPI_ERR_ARG);
    /* a grid of 2 * size ranks: an error, and no communicator */
    int rc = MPI_Cart_create(dup, 2, dims, periods, 0, &cart);
    if (rc == MPI_SUCCESS)
        FAIL("Cart_create of %d ranks on %d: success", 2 * size, size);
    if (cart != MPI_COMM_NULL)
        FAIL("Cart_create of %d ranks on %d: the new communicator is not MPI_COMM_NULL", 2 * size,
             size);
    CHECK(MPI_Group_free(&g));
    CHECK(MPI_Comm_free(&dup));
    in_step("NULL outputs");
}

/* Compare-and-swap: one predefined integer, logical or byte element; floating point and
 * derived types are MPI_ERR_TYPE (MPI-3.1 11.3.4). */
static void cas_types(void)
{
    long long win_mem = 0, v = 1, cmp = 0, res = -1;
    MPI_Win win;
    MPI_Datatype four_bytes;
    CHECK(MPI_Type_contiguous(4, MPI_BYTE, &four_bytes));
    CHECK(MPI_Type_commit(&four_bytes));
    CHECK(MPI_Win_create(&win_mem, sizeof win_mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK(MPI_Win_fence(0, win));
    struct {
        MPI_Datatype t;
        const char *name;
        int want;
    } cases[] = {
        {MPI_INT, "MPI_INT", MPI_SUCCESS},
        {MPI_C_BOOL, "MPI_C_BOOL", MPI_SUCCESS},
        {MPI_AINT, "MPI_AINT", MPI_SUCCESS},
        {MPI_BYTE, "MPI_BYTE", MPI_SUCCESS},
        {MPI_FLOAT, "MPI_FLOAT", MPI_ERR_TYPE},
        {MPI_DOUBLE, "MPI_DOUBLE", MPI_ERR_TYPE},
        {four_bytes, "contiguous(4, MPI_BYTE)", MPI_ERR_TYPE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_class(cases[i].name, MPI_Compare_and_swap(&v, &cmp, &res, cases[i].t, me, 0, win),
                     cases[i].want);
    CHECK(MPI_Win_fence(0, win));
    CHECK(MPI_Win_free(&win));
    CHECK(MPI_Type_free(&four_bytes));
    in_step("compare-and-swap types");
}

/* A persistent buffered send larger than the attached buffer: MPI_ERR_BUFFER, no abort. */
static void bsend_too_big(void)
{
    static char attach[1024 + MPI_BSEND_OVERHEAD], big[64 << 10];
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK(MPI_Buffer_attach(attach, sizeof attach));
    CHECK(MPI_Bsend_init(big, sizeof big, MPI_BYTE, me, 9, MPI_COMM_WORLD, &r));
    int rc = MPI_Start(&r);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    expect_class("Bsend_init + Start of 64 KiB into 1 KiB", rc, MPI_ERR_BUFFER);
    if (r != MPI_REQUEST_NULL)
        CHECK(MPI_Request_free(&r));
    void *p;
    int n;
    CHECK(MPI_Buffer_detach(&p, &n));
    in_step("a buffered send too large");
}

/* Room for two buffered sends of 256 KiB, three sent (their receives posted first): the third
 * waits until an earlier one gives its space back, and succeeds (several threads' persistent
 * buffered sends of large messages rely on it: MPICH's threads/pt2pt/mt_bsendrecv_pers_huge). */
static void bsend_room(void)
{
    enum { M = 64 << 10, NMSG = 3 }; /* ints */
    int left = (me + size - 1) % size, right = (me + 1) % size;
    int *out = malloc(sizeof(int) * M), *in = malloc(sizeof(int) * M * NMSG);
    int bsize = 2 * (M * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *attach = malloc((size_t)bsize);
    MPI_Request r[NMSG];
    for (int i = 0; i < M; i++)
        out[i] = me * M + i;
    CHECK(MPI_Buffer_attach(attach, bsize));
    for (int k = 0; k < NMSG; k++)
        CHECK(MPI_Irecv(in + k * M, M, MPI_INT, left, 20 + k, MPI_COMM_WORLD, &r[k]));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    for (int k = 0; k < NMSG; k++)
        CHECK(MPI_Bsend(out, M, MPI_INT, right, 20 + k, MPI_COMM_WORLD));
    CHECK(MPI_Waitall(NMSG, r, MPI_STATUSES_IGNORE));
    for (int k = 0, bad = 0; k < NMSG && !bad; k++)
        for (int i = 0; i < M && !bad; i++)
            if (in[k * M + i] != left * M + i) {
                FAIL("Bsend %d: [%d] is %d, expected %d", k, i, in[k * M + i], left * M + i);
                bad = 1;
            }
    void *p;
    int n;
    CHECK(MPI_Buffer_detach(&p, &n));
    free(attach);
    free(in);
    free(out);
}

/* A truncated receive: MPI_ERR_TRUNCATE, and the status counts what was received (the
 * receive buffer's size, as MPICH does), the source and tag set. */
static void truncated(void)
{
    int x[4] = {1, 2, 3, 4}, y[2] = {0, 0}, count = -1;
    MPI_Request r;
    MPI_Status st;
    CHECK(MPI_Isend(x, 4, MPI_INT, me, 11, MPI_COMM_WORLD, &r));
    expect_class("Recv of 4 ints into 2", MPI_Recv(y, 2, MPI_INT, me, 11, MPI_COMM_WORLD, &st),
                 MPI_ERR_TRUNCATE);
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Get_count(&st, MPI_INT, &count));
    EXPECT_INT(count, 2);
    EXPECT_INT(st.MPI_SOURCE, me);
    EXPECT_INT(st.MPI_TAG, 11);
    EXPECT_INT(y[0], 1);
    EXPECT_INT(y[1], 2);
}

/* 3 chars into a (non-contiguous) type of ints: the message ends inside an int, its type
 * signature cannot match: MPI_ERR_TYPE rather than a success. */
static void signature_mismatch(void)
{
    char x[3] = {1, 2, 3};
    int y[24] = {0}, lens[3] = {1, 2, 1}, at[3] = {4, 8, 16};
    MPI_Datatype ints;
    MPI_Request r;
    CHECK(MPI_Type_indexed(3, lens, at, MPI_INT, &ints));
    CHECK(MPI_Type_commit(&ints));
    CHECK(MPI_Isend(x, 3, MPI_CHAR, me, 12, MPI_COMM_WORLD, &r));
    expect_class("Recv of 3 chars as ints",
                 MPI_Recv(y, 1, ints, me, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TYPE);
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Type_free(&ints));
}

/* Comm_idup until no communicator can be made: the request completes with the error (which
 * MPI_Wait returns), nothing aborts, and every rank is still in step once they are freed. */
static void idup_exhausted(void)
{
    enum { MAXC = 1 << 16 };
    static MPI_Comm c[MAXC];
    int made = 0, rc = MPI_SUCCESS;
    while (made < MAXC) {
        MPI_Request r = MPI_REQUEST_NULL;
        rc = MPI_Comm_idup(MPI_COMM_WORLD, &c[made], &r);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            break;
        made++;
    }
    if (rc == MPI_SUCCESS)
        FAIL("Comm_idup: %d communicators and no error", made);
    if (c[made] != MPI_COMM_NULL)
        FAIL("Comm_idup failed: the new communicator is not MPI_COMM_NULL");
    for (int i = 0; i < made; i++)
        CHECK(MPI_Comm_free(&c[i]));
    in_step("Comm_idup out of communicators");
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 60);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    me = mc_rank;
    if (size > MAXN) {
        FAIL("at most %d ranks", MAXN);
        return mc_done("mpi_errors_args");
    }
    alias_all();
    alias_rooted();
    null_outputs();
    cas_types();
    bsend_too_big();
    bsend_room();
    truncated();
    signature_mismatch();
    idup_exhausted();
    MPI_Finalize();
    return mc_done("mpi_errors_args");
}
