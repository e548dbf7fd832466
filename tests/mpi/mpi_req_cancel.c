/* mpi_req_cancel.c — MPI_Cancel of sends, as MPICH's test/mpi/pt2pt scancel, scancel2 and
 * pscancel test it: every rank sends to its right neighbour in a ring (itself at n = 1) in
 * each mode and size, cancels, waits, and tells the neighbour what MPI_Test_cancelled said;
 * the neighbour then receives the message if it was not cancelled, finds none if it was, and
 * a later message with the same tag arrives intact (nothing lost, nothing twice). rmp cancels
 * rendezvous and synchronous sends nobody has matched (so those must say cancelled here), and
 * completes eager and buffered sends at once (not cancelled); a send whose receive was posted
 * before it is never cancelled. */
#include "mpicheck.h"

#define BIG 100000 /* ints: above every eager limit */
enum { T_DATA = 10, T_INFO = 11 };

static int bigbuf[BIG], rbuf[BIG];

static void fill(int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = seed * 7919 + i;
}

static int check(const int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        if (b[i] != seed * 7919 + i)
            return i;
    return -1;
}

/* mode: 0 Isend, 1 Issend, 2 Ibsend, 3 Irsend (a ready send needs the receive posted: only
 * with `posted`), 4 a persistent Send_init. */
static void one(int rank, int size, int mode, int n, int posted, int round)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, seed = round * 100 + rank;
    int lseed = round * 100 + left;
    MPI_Request s, rr = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = -1, lflag = -1;
    if (posted)
        CHECK(MPI_Irecv(rbuf, n, MPI_INT, left, T_DATA, MPI_COMM_WORLD, &rr));
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* receives posted (or not) everywhere */
    fill(bigbuf, n, seed);
    switch (mode) {
    case 0: CHECK(MPI_Isend(bigbuf, n, MPI_INT, right, T_DATA, MPI_COMM_WORLD, &s)); break;
    case 1: CHECK(MPI_Issend(bigbuf, n, MPI_INT, right, T_DATA, MPI_COMM_WORLD, &s)); break;
    case 2: CHECK(MPI_Ibsend(bigbuf, n, MPI_INT, right, T_DATA, MPI_COMM_WORLD, &s)); break;
    case 3: CHECK(MPI_Irsend(bigbuf, n, MPI_INT, right, T_DATA, MPI_COMM_WORLD, &s)); break;
    default:
        CHECK(MPI_Send_init(bigbuf, n, MPI_INT, right, T_DATA, MPI_COMM_WORLD, &s));
        CHECK(MPI_Start(&s));
        break;
    }
    CHECK(MPI_Cancel(&s));
    CHECK(MPI_Wait(&s, &st));
    CHECK(MPI_Test_cancelled(&st, &flag));
    int big = n > 1000 || mode == 1;
    int want = posted || mode == 2 ? 0 : big; /* what rmp does, see the top comment */
    if (flag != want)
        FAIL("mode %d, %d ints, posted %d: cancelled %d, expected %d", mode, n, posted, flag,
             want);
    CHECK(MPI_Sendrecv(&flag, 1, MPI_INT, right, T_INFO, &lflag, 1, MPI_INT, left, T_INFO,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (posted) {
        CHECK(MPI_Wait(&rr, &st));
        if (check(rbuf, n, lseed) >= 0)
            FAIL("mode %d: posted receive got wrong data at %d", mode, check(rbuf, n, lseed));
    } else if (!lflag) {
        memset(rbuf, 0, sizeof(int) * (size_t)n);
        CHECK(MPI_Recv(rbuf, n, MPI_INT, left, T_DATA, MPI_COMM_WORLD, &st));
        if (check(rbuf, n, lseed) >= 0)
            FAIL("mode %d: the send not cancelled arrived wrong at %d", mode,
                 check(rbuf, n, lseed));
    } else {
        int there = -1;
        CHECK(MPI_Iprobe(left, T_DATA, MPI_COMM_WORLD, &there, &st));
        if (there)
            FAIL("mode %d, %d ints: a cancelled send can still be received", mode, n);
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* nobody sends the tag again before every probe */
    /* a persistent send runs again, whole, after its cancelled start */
    if (mode == 4) {
        fill(bigbuf, n, seed + 50);
        CHECK(MPI_Start(&s));
        CHECK(MPI_Recv(rbuf, n, MPI_INT, left, T_DATA, MPI_COMM_WORLD, &st));
        CHECK(MPI_Wait(&s, &st));
        CHECK(MPI_Test_cancelled(&st, &flag));
        EXPECT_INT(flag, 0);
        if (check(rbuf, n, lseed + 50) >= 0)
            FAIL("persistent restart: wrong data at %d", check(rbuf, n, lseed + 50));
        CHECK(MPI_Request_free(&s));
    }
    /* the next message of the tag is the next one sent: nothing left of the cancelled one */
    int marker = rank * 3 + round, got = -1;
    CHECK(MPI_Sendrecv(&marker, 1, MPI_INT, right, T_DATA, &got, 1, MPI_INT, left, T_DATA,
                       MPI_COMM_WORLD, &st));
    EXPECT_INT(got, left * 3 + round);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int rank, size;
    mc_watchdog(90);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mc_rank = rank;
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int bsize = (int)sizeof(int) * BIG + 4 * MPI_BSEND_OVERHEAD;
    void *bbuf = malloc((size_t)bsize);
    CHECK(MPI_Buffer_attach(bbuf, bsize));
    int round = 0, sizes[2] = {1, BIG};
    for (int k = 0; k < 2; k++)
        for (int mode = 0; mode < 5; mode++) {
            if (mode != 3)
                one(rank, size, mode, sizes[k], 0, round++);
            one(rank, size, mode, sizes[k], 1, round++);
        }
    /* cancelling a send twice, and a completed send: no effect, no error */
    MPI_Request s;
    int flag = -1, x = 5, y;
    CHECK(MPI_Isend(&x, 1, MPI_INT, rank, 99, MPI_COMM_WORLD, &s));
    CHECK(MPI_Cancel(&s));
    CHECK(MPI_Cancel(&s));
    MPI_Status st;
    CHECK(MPI_Wait(&s, &st));
    CHECK(MPI_Test_cancelled(&st, &flag));
    CHECK(MPI_Recv(&y, 1, MPI_INT, rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT_INT(y, 5);
    void *b;
    CHECK(MPI_Buffer_detach(&b, &bsize));
    free(bbuf);
    MPI_Finalize();
    return mc_done("mpi_req_cancel");
}
