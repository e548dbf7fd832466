/* mpi_p2p_modes.c — the MPI point-to-point calls beyond Send/Recv through mpi.h, as an MPI
 * program uses them, exact values at any n: Ssend/Issend (pending until the receive is
 * posted), Bsend/Ibsend with Buffer_attach/detach and MPI_BSEND_OVERHEAD, Rsend/Irsend, the
 * persistent *_init calls with Start/Startall, Waitsome/Testsome, Request_free,
 * Mprobe/Improbe/Mrecv/Imrecv, Sendrecv_replace, Comm_split_type, and their error codes under
 * MPI_ERRORS_RETURN. */
#include "mpicheck.h"

enum { N = 64, BIG = 1 << 18 }; /* BIG ints: past the eager limit */

static int rank, size, right, left;

static int val(int from, int it, int i)
{
    return from * 1000003 + it * 7919 + i;
}

static void fill(int *buf, int n, int from, int it)
{
    for (int i = 0; i < n; i++)
        buf[i] = val(from, it, i);
}

static void expect_data(const int *buf, int n, int from, int it, const char *what)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != val(from, it, i)) {
            FAIL("%s: element %d is %d, expected %d", what, i, buf[i], val(from, it, i));
            return;
        }
}

static void modes(void)
{
    int out[N], in[N], flag;
    MPI_Request rq[2];
    /* Issend to self stays pending until the receive is posted */
    fill(out, N, rank, 1);
    CHECK(MPI_Issend(out, N, MPI_INT, rank, 1, MPI_COMM_WORLD, &rq[0]));
    double t0 = MPI_Wtime();
    for (flag = 0; MPI_Wtime() - t0 < 0.05 && !flag;)
        CHECK(MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Irecv(in, N, MPI_INT, rank, 1, MPI_COMM_WORLD, &rq[1]));
    CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    expect_data(in, N, rank, 1, "Issend to self");
    /* Ssend and Rsend to a posted receive */
    CHECK(MPI_Irecv(in, N, MPI_INT, left, 2, MPI_COMM_WORLD, &rq[0]));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    fill(out, N, rank, 2);
    CHECK(MPI_Ssend(out, N, MPI_INT, right, 2, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    expect_data(in, N, left, 2, "Ssend");
    CHECK(MPI_Irecv(in, N, MPI_INT, left, 3, MPI_COMM_WORLD, &rq[0]));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    fill(out, N, rank, 3);
    CHECK(MPI_Rsend(out, N / 2, MPI_INT, right, 3, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    expect_data(in, N / 2, left, 3, "Rsend");
    CHECK(MPI_Irecv(in, N, MPI_INT, left, 4, MPI_COMM_WORLD, &rq[0]));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Irsend(out, N, MPI_INT, right, 4, MPI_COMM_WORLD, &rq[1]));
    CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    expect_data(in, N, left, 3, "Irsend");
}

static void buffered(void)
{
    int bsize = 2 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *buf = malloc((size_t)bsize);
    int out[N], in[N], *big = malloc(BIG * sizeof(int));
    CHECK(MPI_Buffer_attach(buf, bsize));
    fill(out, N, rank, 5);
    CHECK(MPI_Bsend(out, N, MPI_INT, right, 5, MPI_COMM_WORLD));
    MPI_Request rq;
    CHECK(MPI_Ibsend(out, N, MPI_INT, right, 6, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    EXPECT_INT(MPI_Bsend(big, BIG, MPI_INT, right, 7, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK(MPI_Recv(in, N, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect_data(in, N, left, 5, "Bsend");
    CHECK(MPI_Recv(in, N, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect_data(in, N, left, 5, "Ibsend");
    void *got = NULL;
    int gsize = 0;
    CHECK(MPI_Buffer_detach(&got, &gsize));
    EXPECT_INT(got == buf, 1);
    EXPECT_INT(gsize, bsize);
    free(buf);
    free(big);
}

static void persistent(void)
{
    int out[N], in[N];
    MPI_Request rq[2];
    CHECK(MPI_Recv_init(in, N, MPI_INT, left, 8, MPI_COMM_WORLD, &rq[0]));
    CHECK(MPI_Send_init(out, N, MPI_INT, right, 8, MPI_COMM_WORLD, &rq[1]));
    for (int it = 0; it < 200; it++) {
        fill(out, N, rank, it);
        CHECK(MPI_Startall(2, rq));
        MPI_Status st[2];
        CHECK(MPI_Waitall(2, rq, st));
        EXPECT_INT(st[0].MPI_SOURCE, left);
        expect_data(in, N, left, it, "Send_init/Recv_init");
    }
    EXPECT_INT(rq[0] != MPI_REQUEST_NULL, 1);
    CHECK(MPI_Request_free(&rq[1]));
    /* the other send modes, started one by one */
    char *buf = malloc(N * sizeof(int) + MPI_BSEND_OVERHEAD);
    CHECK(MPI_Buffer_attach(buf, N * (int)sizeof(int) + MPI_BSEND_OVERHEAD));
    MPI_Request s[3];
    CHECK(MPI_Ssend_init(out, N, MPI_INT, right, 8, MPI_COMM_WORLD, &s[0]));
    CHECK(MPI_Bsend_init(out, N, MPI_INT, right, 8, MPI_COMM_WORLD, &s[1]));
    CHECK(MPI_Rsend_init(out, N, MPI_INT, right, 8, MPI_COMM_WORLD, &s[2]));
    for (int k = 0; k < 3; k++) {
        CHECK(MPI_Start(&rq[0]));
        CHECK(MPI_Barrier(MPI_COMM_WORLD));
        fill(out, N, rank, 1000 + k);
        CHECK(MPI_Start(&s[k]));
        EXPECT_INT(MPI_Start(&s[k]), MPI_ERR_REQUEST); /* active */
        CHECK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
        CHECK(MPI_Wait(&s[k], MPI_STATUS_IGNORE));
        expect_data(in, N, left, 1000 + k, "persistent send mode");
        CHECK(MPI_Request_free(&s[k]));
    }
    CHECK(MPI_Request_free(&rq[0]));
    void *got;
    int gsize;
    CHECK(MPI_Buffer_detach(&got, &gsize));
    free(buf);
}

static void some(void)
{
    int in[3] = {0, 0, 0}, v = 42, outcount = -1, idx[3];
    MPI_Request rq[3];
    MPI_Status st[3];
    for (int k = 0; k < 3; k++)
        CHECK(MPI_Irecv(&in[k], 1, MPI_INT, rank, 20 + k, MPI_COMM_WORLD, &rq[k]));
    CHECK(MPI_Testsome(3, rq, &outcount, idx, st));
    EXPECT_INT(outcount, 0);
    CHECK(MPI_Send(&v, 1, MPI_INT, rank, 22, MPI_COMM_WORLD));
    CHECK(MPI_Waitsome(3, rq, &outcount, idx, st));
    EXPECT_INT(outcount, 1);
    EXPECT_INT(idx[0], 2);
    EXPECT_INT(st[0].MPI_TAG, 22);
    EXPECT_INT(in[2], 42);
    CHECK(MPI_Send(&v, 1, MPI_INT, rank, 20, MPI_COMM_WORLD));
    CHECK(MPI_Send(&v, 1, MPI_INT, rank, 21, MPI_COMM_WORLD));
    int seen = 0;
    while (seen < 2) {
        CHECK(MPI_Waitsome(3, rq, &outcount, idx, MPI_STATUSES_IGNORE));
        if (outcount < 1)
            break;
        seen += outcount;
    }
    EXPECT_INT(seen, 2);
    CHECK(MPI_Waitsome(3, rq, &outcount, idx, st));
    EXPECT_INT(outcount, MPI_UNDEFINED);
    EXPECT_INT(MPI_Waitsome(3, rq, NULL, idx, st), MPI_ERR_ARG);
}

static void request_free(void)
{
    int *out = malloc(BIG * sizeof(int)), *in = malloc(BIG * sizeof(int));
    fill(out, BIG, rank, 9);
    MPI_Request rq;
    CHECK(MPI_Isend(out, BIG, MPI_INT, right, 9, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Request_free(&rq));
    EXPECT_INT(rq == MPI_REQUEST_NULL, 1);
    CHECK(MPI_Recv(in, BIG, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect_data(in, BIG, left, 9, "freed Isend");
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    EXPECT_INT(MPI_Request_free(&rq), MPI_ERR_REQUEST);
    free(out);
    free(in);
}

static void matched(void)
{
    int a = 100 + rank, b = 200 + rank, ra = 0, rb = 0, flag = 1;
    CHECK(MPI_Send(&a, 1, MPI_INT, right, 10, MPI_COMM_WORLD));
    CHECK(MPI_Send(&b, 1, MPI_INT, right, 10, MPI_COMM_WORLD));
    MPI_Message m;
    MPI_Status st;
    CHECK(MPI_Mprobe(left, 10, MPI_COMM_WORLD, &m, &st));
    int count = -1;
    CHECK(MPI_Get_count(&st, MPI_INT, &count));
    EXPECT_INT(count, 1);
    CHECK(MPI_Recv(&rb, 1, MPI_INT, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT_INT(rb, 200 + left); /* the probed message is not matched by Recv */
    CHECK(MPI_Mrecv(&ra, 1, MPI_INT, &m, &st));
    EXPECT_INT(ra, 100 + left);
    EXPECT_INT(m == MPI_MESSAGE_NULL, 1);
    CHECK(MPI_Improbe(left, 10, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Send(&a, 1, MPI_INT, right, 11, MPI_COMM_WORLD));
    for (flag = 0; !flag;)
        CHECK(MPI_Improbe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &flag, &m, &st));
    EXPECT_INT(st.MPI_SOURCE, left);
    MPI_Request rq;
    CHECK(MPI_Imrecv(&ra, 1, MPI_INT, &m, &rq));
    CHECK(MPI_Wait(&rq, &st));
    EXPECT_INT(ra, 100 + left);
    CHECK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &st));
    EXPECT_INT(m == MPI_MESSAGE_NO_PROC, 1);
    CHECK(MPI_Mrecv(&ra, 1, MPI_INT, &m, &st));
    EXPECT_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    m = MPI_MESSAGE_NULL;
    EXPECT_INT(MPI_Mrecv(&ra, 1, MPI_INT, &m, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
}

static void replace_and_split(void)
{
    int *buf = malloc(BIG * sizeof(int));
    fill(buf, BIG, rank, 12);
    MPI_Status st;
    CHECK(MPI_Sendrecv_replace(buf, BIG, MPI_INT, right, 12, left, 12, MPI_COMM_WORLD, &st));
    EXPECT_INT(st.MPI_SOURCE, left);
    expect_data(buf, BIG, left, 12, "Sendrecv_replace");
    free(buf);
    MPI_Comm node;
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    /* whatever the node layout: the members are in world order (key = rank), and world rank w
     * is in my node's communicator exactly when its node's lowest rank is my node's */
    int ns = -1, nr = -1, members[64], first[64];
    CHECK(MPI_Comm_size(node, &ns));
    CHECK(MPI_Comm_rank(node, &nr));
    if (ns < 1 || ns > 64 || size > 64) {
        FAIL("Comm_split_type: %d members of %d ranks", ns, size);
        return;
    }
    CHECK(MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, node));
    EXPECT_INT(members[nr], rank);
    for (int i = 1; i < ns; i++)
        EXPECT_INT(members[i] > members[i - 1], 1);
    CHECK(MPI_Allgather(&members[0], 1, MPI_INT, first, 1, MPI_INT, MPI_COMM_WORLD));
    for (int w = 0, k = 0; w < size; w++) {
        int in_mine = k < ns && members[k] == w;
        k += in_mine;
        EXPECT_INT(in_mine, first[w] == members[0]);
    }
    CHECK(MPI_Comm_free(&node));
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &node));
    EXPECT_INT(node, MPI_COMM_NULL);
    EXPECT_INT(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &node),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, 3, &node),
               MPI_ERR_INFO);
}

int main(int argc, char **argv)
{
    mc_watchdog(100);
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    mc_rank = rank;
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    modes();
    buffered();
    persistent();
    some();
    request_free();
    matched();
    replace_and_split();
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Finalize());
    return mc_done("mpi_p2p_modes");
}
