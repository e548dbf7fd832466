/* mpi_p2p.c — point-to-point and completion calls through mpi.h, exact values at any n: a
 * ring with Send/Recv, Isend/Irecv + Waitall/Waitany/Test/Testall, Sendrecv, Probe/Iprobe
 * + Get_count, Cancel, MPI_PROC_NULL (also with no datatype), wildcards and statuses, vector
 * and contiguous types. */
#include "mpicheck.h"

enum { N = 1000, BIG = 1 << 18 }; /* BIG ints: past the eager limit, rendezvous */

static int val(int from, int i)
{
    return from * 1000003 + i;
}

static void ring_blocking(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *out = malloc(BIG * sizeof *out), *in = malloc(BIG * sizeof *in);
    for (int i = 0; i < BIG; i++)
        out[i] = val(rank, i);
    MPI_Status st;
    /* even ranks send first; with size 1 a rank sends to itself through Isend */
    if (size == 1) {
        MPI_Request r;
        CHECK(MPI_Isend(out, BIG, MPI_INT, right, 7, MPI_COMM_WORLD, &r));
        CHECK(MPI_Recv(in, BIG, MPI_INT, left, 7, MPI_COMM_WORLD, &st));
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else if (rank % 2 == 0) {
        CHECK(MPI_Send(out, BIG, MPI_INT, right, 7, MPI_COMM_WORLD));
        CHECK(MPI_Recv(in, BIG, MPI_INT, left, 7, MPI_COMM_WORLD, &st));
    } else {
        CHECK(MPI_Recv(in, BIG, MPI_INT, left, 7, MPI_COMM_WORLD, &st));
        CHECK(MPI_Send(out, BIG, MPI_INT, right, 7, MPI_COMM_WORLD));
    }
    EXPECT_INT(st.MPI_SOURCE, left);
    EXPECT_INT(st.MPI_TAG, 7);
    int count = -1;
    CHECK(MPI_Get_count(&st, MPI_INT, &count));
    EXPECT_INT(count, BIG);
    for (int i = 0; i < BIG; i++)
        if (in[i] != val(left, i)) {
            FAIL("ring: element %d is %d, expected %d", i, in[i], val(left, i));
            break;
        }
    free(out);
    free(in);
}

/* Every rank sends N doubles to every rank (itself too); receives with MPI_ANY_SOURCE, and
 * finds each sender from the statuses. */
static void all_pairs_nonblocking(int rank, int size)
{
    double *out = malloc((size_t)size * N * sizeof *out), *in = malloc((size_t)size * N * sizeof *in);
    MPI_Request *reqs = malloc(2 * (size_t)size * sizeof *reqs);
    MPI_Status *sts = malloc(2 * (size_t)size * sizeof *sts);
    for (int p = 0; p < size; p++) {
        for (int i = 0; i < N; i++)
            out[p * N + i] = rank * 1e6 + p * 1e3 + i;
        CHECK(MPI_Irecv(in + p * N, N, MPI_DOUBLE, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &reqs[p]));
    }
    for (int p = 0; p < size; p++)
        CHECK(MPI_Isend(out + p * N, N, MPI_DOUBLE, p, 11, MPI_COMM_WORLD, &reqs[size + p]));
    for (int p = 0; p < 2 * size; p++) /* a Waitall that succeeds leaves them alone */
        sts[p].MPI_ERROR = MPI_ERR_DIMS;
    CHECK(MPI_Waitall(2 * size, reqs, sts));
    int seen = 0;
    for (int p = 0; p < size; p++) {
        int from = sts[p].MPI_SOURCE;
        EXPECT_INT(sts[p].MPI_TAG, 11);
        EXPECT_INT(sts[p].MPI_ERROR, MPI_ERR_DIMS);
        EXPECT_INT(reqs[p], MPI_REQUEST_NULL);
        if (from < 0 || from >= size) {
            FAIL("all_pairs: status %d has source %d", p, from);
            continue;
        }
        seen |= 1 << from;
        for (int i = 0; i < N; i++)
            if (in[p * N + i] != from * 1e6 + rank * 1e3 + i) {
                FAIL("all_pairs: from %d element %d is %g", from, i, in[p * N + i]);
                break;
            }
    }
    EXPECT_INT(seen, (1 << size) - 1);
    free(out);
    free(in);
    free(reqs);
    free(sts);
}

/* Waitany, Test and Testall over a self-message each; NULL requests complete at once. */
static void completion_calls(int rank)
{
    int a = rank, b = -1, idx = -1, flag = 0;
    MPI_Request r[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st;
    CHECK(MPI_Irecv(&b, 1, MPI_INT, rank, 21, MPI_COMM_WORLD, &r[1]));
    CHECK(MPI_Send(&a, 1, MPI_INT, rank, 21, MPI_COMM_WORLD));
    CHECK(MPI_Waitany(3, r, &idx, &st));
    EXPECT_INT(idx, 1);
    EXPECT_INT(b, rank);
    EXPECT_INT(st.MPI_SOURCE, rank);
    CHECK(MPI_Waitany(3, r, &idx, &st));
    EXPECT_INT(idx, MPI_UNDEFINED);

    CHECK(MPI_Irecv(&b, 1, MPI_INT, rank, 22, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Test(&r[0], &flag, &st));
    EXPECT_INT(flag, 0); /* nothing sent yet */
    a = rank + 100;
    CHECK(MPI_Send(&a, 1, MPI_INT, rank, 22, MPI_COMM_WORLD));
    for (int i = 0; i < 1000000 && !flag; i++)
        CHECK(MPI_Test(&r[0], &flag, &st));
    EXPECT_INT(flag, 1);
    EXPECT_INT(b, rank + 100);
    EXPECT_INT(st.MPI_TAG, 22);

    MPI_Status sts[2];
    CHECK(MPI_Irecv(&b, 1, MPI_INT, rank, 23, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Isend(&a, 1, MPI_INT, rank, 23, MPI_COMM_WORLD, &r[1]));
    flag = 0;
    for (int i = 0; i < 1000000 && !flag; i++)
        CHECK(MPI_Testall(2, r, &flag, sts));
    EXPECT_INT(flag, 1);
    EXPECT_INT(sts[0].MPI_TAG, 23);
    EXPECT_INT(r[0], MPI_REQUEST_NULL);
    EXPECT_INT(r[1], MPI_REQUEST_NULL);
}

static void sendrecv_probe_cancel(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[5], in[5] = {0};
    for (int i = 0; i < 5; i++)
        out[i] = val(rank, i);
    MPI_Status st;
    CHECK(MPI_Sendrecv(out, 5, MPI_INT, right, 31, in, 5, MPI_INT, left, 31, MPI_COMM_WORLD, &st));
    EXPECT_INT(st.MPI_SOURCE, left);
    for (int i = 0; i < 5; i++)
        EXPECT_INT(in[i], val(left, i));

    /* Probe tells the size before the receive. */
    CHECK(MPI_Send(out, 3, MPI_INT, rank, 32, MPI_COMM_WORLD));
    int flag = 0, count = -1;
    for (int i = 0; i < 1000000 && !flag; i++)
        CHECK(MPI_Iprobe(rank, 32, MPI_COMM_WORLD, &flag, &st));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Probe(rank, MPI_ANY_TAG, MPI_COMM_WORLD, &st)); /* the left rank's may be in */
    EXPECT_INT(st.MPI_TAG, 32);
    EXPECT_INT(st.MPI_SOURCE, rank);
    CHECK(MPI_Get_count(&st, MPI_INT, &count));
    EXPECT_INT(count, 3);
    CHECK(MPI_Get_count(&st, MPI_DOUBLE, &count));
    EXPECT_INT(count, MPI_UNDEFINED); /* 12 bytes are no whole number of doubles */
    CHECK(MPI_Recv(in, 5, MPI_INT, rank, 32, MPI_COMM_WORLD, &st));
    EXPECT_INT(in[2], val(rank, 2));

    /* A cancelled receive completes with nothing received. */
    MPI_Request r;
    in[0] = -5;
    CHECK(MPI_Irecv(in, 1, MPI_INT, rank, 33, MPI_COMM_WORLD, &r));
    CHECK(MPI_Cancel(&r));
    CHECK(MPI_Wait(&r, &st));
    EXPECT_INT(in[0], -5);

    /* MPI_PROC_NULL: completes at once, moves nothing. */
    CHECK(MPI_Send(out, 5, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    CHECK(MPI_Recv(in, 5, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    EXPECT_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    CHECK(MPI_Get_count(&st, MPI_INT, &count));
    EXPECT_INT(count, 0);
}

/* A column of a 6x4 int matrix (a vector type) sent to the right, received as contiguous. */
static void derived_types(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int m[6][4], col[6];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 4; j++)
            m[i][j] = val(rank, i * 4 + j);
    MPI_Datatype column, six;
    CHECK(MPI_Type_vector(6, 1, 4, MPI_INT, &column));
    CHECK(MPI_Type_commit(&column));
    CHECK(MPI_Type_contiguous(6, MPI_INT, &six));
    CHECK(MPI_Type_commit(&six));
    int tsize = -1;
    MPI_Aint lb = -1, extent = -1;
    CHECK(MPI_Type_size(column, &tsize));
    EXPECT_INT(tsize, 6 * (int)sizeof(int));
    CHECK(MPI_Type_get_extent(column, &lb, &extent));
    EXPECT_INT(lb, 0);
    EXPECT_INT(extent, (5 * 4 + 1) * (int)sizeof(int));
    CHECK(MPI_Type_get_extent(MPI_DOUBLE, &lb, &extent));
    EXPECT_INT(extent, sizeof(double));
    MPI_Request r;
    MPI_Status st;
    CHECK(MPI_Irecv(col, 1, six, left, 41, MPI_COMM_WORLD, &r));
    CHECK(MPI_Send(&m[0][2], 1, column, right, 41, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&r, &st));
    for (int i = 0; i < 6; i++)
        EXPECT_INT(col[i], val(left, i * 4 + 2));
    int count = -1;
    CHECK(MPI_Get_count(&st, MPI_INT, &count));
    EXPECT_INT(count, 6);
    CHECK(MPI_Type_free(&column));
    CHECK(MPI_Type_free(&six));
    EXPECT_INT(column, MPI_DATATYPE_NULL);
}

/* MPI-3.1 3.2.5 (MPICH's cancelrecv): a call leaves MPI_ERROR alone unless it completes
 * several requests and returns MPI_ERR_IN_STATUS: a Testall that completes nothing, the
 * Waitall of cancelled receives, and a Test of one keep the caller's value. */
static void status_error_untouched(int rank)
{
    MPI_Request r[2];
    MPI_Status st[2];
    int a = 0, b = 0, flag = -1, c = 0;
    CHECK(MPI_Irecv(&a, 1, MPI_INT, rank, 900, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Irecv(&b, 1, MPI_INT, rank, 901, MPI_COMM_WORLD, &r[1]));
    st[0].MPI_ERROR = st[1].MPI_ERROR = MPI_ERR_DIMS;
    CHECK(MPI_Testall(2, r, &flag, st));
    EXPECT_INT(flag, 0);
    EXPECT_INT(st[0].MPI_ERROR, MPI_ERR_DIMS);
    EXPECT_INT(st[1].MPI_ERROR, MPI_ERR_DIMS);
    CHECK(MPI_Cancel(&r[0]));
    CHECK(MPI_Cancel(&r[1]));
    CHECK(MPI_Waitall(2, r, st));
    CHECK(MPI_Test_cancelled(&st[0], &c));
    EXPECT_INT(c, 1);
    EXPECT_INT(st[0].MPI_ERROR, MPI_ERR_DIMS);
    EXPECT_INT(st[1].MPI_ERROR, MPI_ERR_DIMS);
    CHECK(MPI_Irecv(&a, 1, MPI_INT, rank, 902, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Cancel(&r[0]));
    flag = 0;
    while (!flag)
        CHECK(MPI_Test(&r[0], &flag, &st[0]));
    EXPECT_INT(st[0].MPI_ERROR, MPI_ERR_DIMS);
}

/* Zero elements of MPI_DATATYPE_NULL to or from MPI_PROC_NULL are accepted (as MPICH does;
 * mpi4py relies on it), in every call that moves messages, with the PROC_NULL status; zero
 * elements of it to a real rank move an empty message (MPICH's partitioned tests send one);
 * one element of it is still MPI_ERR_TYPE. */
static void proc_null_no_type(int rank)
{
    MPI_Request r[3];
    MPI_Status st;
    int x = 7, cls = -1;
    const MPI_Datatype T = MPI_DATATYPE_NULL;
    const int P = MPI_PROC_NULL;
    CHECK(MPI_Send(NULL, 0, T, P, 1, MPI_COMM_WORLD));
    CHECK(MPI_Ssend(NULL, 0, T, P, 1, MPI_COMM_WORLD));
    st.MPI_SOURCE = st.MPI_TAG = -5;
    CHECK(MPI_Recv(NULL, 0, T, P, 1, MPI_COMM_WORLD, &st));
    EXPECT_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    EXPECT_INT(st.MPI_TAG, MPI_ANY_TAG);
    CHECK(MPI_Isend(NULL, 0, T, P, 1, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Irecv(NULL, 0, T, P, 1, MPI_COMM_WORLD, &r[1]));
    CHECK(MPI_Issend(NULL, 0, T, P, 1, MPI_COMM_WORLD, &r[2]));
    CHECK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    st.MPI_SOURCE = -5;
    CHECK(MPI_Sendrecv(NULL, 0, T, P, 1, NULL, 0, T, P, 1, MPI_COMM_WORLD, &st));
    EXPECT_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    int got = -1;
    CHECK(MPI_Get_count(&st, MPI_INT, &got));
    EXPECT_INT(got, 0);
    CHECK(MPI_Send_init(NULL, 0, T, P, 1, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Start(&r[0]));
    CHECK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK(MPI_Request_free(&r[0]));
    CHECK(MPI_Isend(NULL, 0, T, rank, 3, MPI_COMM_WORLD, &r[0]));
    st.MPI_SOURCE = st.MPI_TAG = -5;
    CHECK(MPI_Recv(NULL, 0, T, rank, 3, MPI_COMM_WORLD, &st));
    CHECK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    EXPECT_INT(st.MPI_SOURCE, rank);
    EXPECT_INT(st.MPI_TAG, 3);
    int rcs[4] = {MPI_Send(&x, 1, T, P, 1, MPI_COMM_WORLD),
                  MPI_Recv(&x, 1, T, P, 1, MPI_COMM_WORLD, &st),
                  MPI_Isend(&x, 1, T, rank, 1, MPI_COMM_WORLD, &r[0]),
                  MPI_Sendrecv(NULL, 0, T, P, 1, &x, 1, T, P, 1, MPI_COMM_WORLD, &st)};
    for (int i = 0; i < 4; i++) {
        cls = -1;
        MPI_Error_class(rcs[i], &cls);
        if (cls != MPI_ERR_TYPE)
            FAIL("DATATYPE_NULL case %d (an element, or a real rank): class %d, expected "
                 "MPI_ERR_TYPE", i, cls);
    }
    EXPECT_INT(x, 7);
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 100);
    ring_blocking(mc_rank, size);
    all_pairs_nonblocking(mc_rank, size);
    completion_calls(mc_rank);
    sendrecv_probe_cancel(mc_rank, size);
    derived_types(mc_rank, size);
    status_error_untouched(mc_rank);
    proc_null_no_type(mc_rank);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Finalize());
    return mc_done("mpi_p2p");
}
