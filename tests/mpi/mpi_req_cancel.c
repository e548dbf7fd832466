/* mpi_req_cancel.c — MPI_Cancel of sends, as MPICH's test/mpi/pt2pt scancel, scancel2,
 * pscancel and scancel_unmatch test it, and more: every rank sends to its right neighbour in
 * a ring (itself at n = 1: the self transport; on one node the others go by shm) in every
 * mode (standard, synchronous, buffered, ready, and their persistent forms) and at sizes
 * around the eager limits (8 KiB verbs, 16 KiB shm and self) and far above them, cancels,
 * waits, and tells the neighbour what MPI_Test_cancelled said. A send nobody has matched is
 * cancelled whatever its mode or size (its message dropped from the receiver's unexpected
 * queue); one whose receive was posted before it never is. The neighbour receives the
 * message if it was not cancelled, finds none if it was, and a later message with the same
 * tag arrives intact (nothing lost, nothing twice). Then: a cancelled buffered send gives its
 * space in the attached buffer back; a cancel racing a receive posted at about the same time
 * ends as exactly one of the two, many times over; a cancel whose request is freed at once
 * still drops the message; the first test of a send whose cancel took effect (to itself, or
 * answered by the neighbour) says complete and cancelled, in whichever call tests it, and a
 * send received before its cancel says not cancelled; and a send to a rank that already called MPI_Finalize is
 * cancelled, its wait returning (MPI-3.1 Example 8.8), and neither finalize hangs. */
#include "mpicheck.h"

#define BIG 400000 /* bytes: above every eager limit */
enum { T_DATA = 10, T_INFO = 11, T_RACE = 12, T_FREED = 13, T_MARK = 14 };
enum {
    M_SEND,
    M_SSEND,
    M_BSEND,
    M_RSEND,
    M_SEND_INIT,
    M_SSEND_INIT,
    M_BSEND_INIT,
    M_RSEND_INIT,
    M_COUNT
};
static const char *mode_name[M_COUNT] = {"Isend",     "Issend",     "Ibsend",     "Irsend",
                                         "Send_init", "Ssend_init", "Bsend_init", "Rsend_init"};

static unsigned char sbuf[BIG], rbuf[BIG];
static void *bbuf;
static int bsize;

static void fill(unsigned char *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 31 + i * 7);
}

static int check(const unsigned char *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 31 + i * 7))
            return i;
    return -1;
}

static int start_mode(int mode, int n, int right, MPI_Request *s)
{
    switch (mode) {
    case M_SEND:
        return MPI_Isend(sbuf, n, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, s);
    case M_SSEND:
        return MPI_Issend(sbuf, n, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, s);
    case M_BSEND:
        return MPI_Ibsend(sbuf, n, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, s);
    case M_RSEND:
        return MPI_Irsend(sbuf, n, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, s);
    case M_SEND_INIT:
        return MPI_Send_init(sbuf, n, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, s);
    case M_SSEND_INIT:
        return MPI_Ssend_init(sbuf, n, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, s);
    case M_BSEND_INIT:
        return MPI_Bsend_init(sbuf, n, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, s);
    default:
        return MPI_Rsend_init(sbuf, n, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, s);
    }
}

/* One send of `mode` and n bytes to the right, cancelled; `posted`: the neighbour's receive
 * was posted before it (a ready send needs that). */
static void one(int rank, int size, int mode, int n, int posted, int round)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, seed = round * 100 + rank;
    int lseed = round * 100 + left, persistent = mode >= M_SEND_INIT;
    MPI_Request s, rr = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = -1, lflag = -1;
    if (posted)
        CHECK(MPI_Irecv(rbuf, n, MPI_BYTE, left, T_DATA, MPI_COMM_WORLD, &rr));
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* receives posted (or not) everywhere */
    fill(sbuf, n, seed);
    CHECK(start_mode(mode, n, right, &s));
    if (persistent)
        CHECK(MPI_Start(&s));
    CHECK(MPI_Cancel(&s));
    CHECK(MPI_Wait(&s, &st));
    CHECK(MPI_Test_cancelled(&st, &flag));
    if (flag != !posted)
        FAIL("%s of %d bytes, receive posted %d: cancelled %d, expected %d", mode_name[mode], n,
             posted, flag, !posted);
    CHECK(MPI_Sendrecv(&flag, 1, MPI_INT, right, T_INFO, &lflag, 1, MPI_INT, left, T_INFO,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (posted) {
        CHECK(MPI_Wait(&rr, &st));
        if (check(rbuf, n, lseed) >= 0)
            FAIL("%s: posted receive got wrong data at %d", mode_name[mode], check(rbuf, n, lseed));
    } else if (!lflag) {
        memset(rbuf, 0, (size_t)n);
        CHECK(MPI_Recv(rbuf, n, MPI_BYTE, left, T_DATA, MPI_COMM_WORLD, &st));
        if (check(rbuf, n, lseed) >= 0)
            FAIL("%s: the send not cancelled arrived wrong at %d", mode_name[mode],
                 check(rbuf, n, lseed));
    } else {
        int there = -1;
        CHECK(MPI_Iprobe(left, T_DATA, MPI_COMM_WORLD, &there, &st));
        if (there)
            FAIL("%s, %d bytes: a cancelled send can still be received", mode_name[mode], n);
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* nobody sends the tag again before every probe */
    /* a persistent send runs again, whole, after its cancelled start */
    if (persistent) {
        fill(sbuf, n, seed + 50);
        if (mode == M_RSEND_INIT) { /* ready: the receive first */
            CHECK(MPI_Irecv(rbuf, n, MPI_BYTE, left, T_DATA, MPI_COMM_WORLD, &rr));
            CHECK(MPI_Barrier(MPI_COMM_WORLD));
        }
        CHECK(MPI_Start(&s));
        if (mode == M_RSEND_INIT)
            CHECK(MPI_Wait(&rr, &st));
        else
            CHECK(MPI_Recv(rbuf, n, MPI_BYTE, left, T_DATA, MPI_COMM_WORLD, &st));
        CHECK(MPI_Wait(&s, &st));
        CHECK(MPI_Test_cancelled(&st, &flag));
        EXPECT_INT(flag, 0);
        if (check(rbuf, n, lseed + 50) >= 0)
            FAIL("%s restart: wrong data at %d", mode_name[mode], check(rbuf, n, lseed + 50));
        CHECK(MPI_Request_free(&s));
    }
    /* the next message of the tag is the next one sent: nothing left of the cancelled one */
    int marker = rank * 3 + round, got = -1;
    CHECK(MPI_Sendrecv(&marker, 1, MPI_INT, right, T_DATA, &got, 1, MPI_INT, left, T_DATA,
                       MPI_COMM_WORLD, &st));
    EXPECT_INT(got, left * 3 + round);
    if (mode == M_BSEND || mode == M_BSEND_INIT) {
        /* every buffered send, cancelled or not, gives its space back: detach waits for that
         * (a cancelled send whose space stayed taken would hang it) */
        void *b;
        int bs;
        CHECK(MPI_Buffer_detach(&b, &bs));
        CHECK(MPI_Buffer_attach(bbuf, bsize));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

/* A cancelled buffered send's space is free at once: a buffer with room for one big message
 * takes another right after the cancel. */
static void bsend_space(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, flag = -1, lflag = -1;
    void *b;
    int bs;
    CHECK(MPI_Buffer_detach(&b, &bs));
    int small = BIG + MPI_BSEND_OVERHEAD;
    CHECK(MPI_Buffer_attach(bbuf, small));
    MPI_Request s;
    MPI_Status st;
    fill(sbuf, BIG, rank);
    CHECK(MPI_Ibsend(sbuf, BIG, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, &s));
    CHECK(MPI_Cancel(&s));
    CHECK(MPI_Wait(&s, &st));
    CHECK(MPI_Test_cancelled(&st, &flag));
    EXPECT_INT(flag, 1);
    int rc = MPI_Ibsend(sbuf, BIG, MPI_BYTE, right, T_DATA, MPI_COMM_WORLD, &s);
    if (rc != MPI_SUCCESS)
        FAIL("a cancelled Ibsend kept its space in the attached buffer (Ibsend returned %d)", rc);
    else
        CHECK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK(MPI_Sendrecv(&flag, 1, MPI_INT, right, T_INFO, &lflag, 1, MPI_INT, left, T_INFO,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    memset(rbuf, 0, BIG);
    if (rc == MPI_SUCCESS) {
        CHECK(MPI_Recv(rbuf, BIG, MPI_BYTE, left, T_DATA, MPI_COMM_WORLD, &st));
        if (check(rbuf, BIG, left) >= 0)
            FAIL("bsend after a cancelled one: wrong data at %d", check(rbuf, BIG, left));
    }
    CHECK(MPI_Buffer_detach(&b, &bs));
    CHECK(MPI_Buffer_attach(bbuf, bsize));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

/* A cancel racing the receive that would match it: the receiver posts its receive after a
 * delay that varies around the time the cancel takes. Each round is exactly one of: the send
 * cancelled and the receive got nothing (it is then cancelled itself), or the send not
 * cancelled and the receive got it whole; and the next message of the tag comes next. */
static void race(int rank, int size, int rounds)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int ncancelled = 0, nreceived = 0;
    for (int i = 0; i < rounds; i++) {
        int n = i % 3 == 0 ? BIG : i % 3 == 1 ? 4 : 16384; /* rendezvous, eager, at the limit */
        MPI_Request s, r;
        MPI_Status st;
        int flag = -1, lflag = -1, rflag = -1;
        CHECK(MPI_Barrier(MPI_COMM_WORLD));
        fill(sbuf, n, i * 8 + rank);
        CHECK(MPI_Isend(sbuf, n, MPI_BYTE, right, T_RACE, MPI_COMM_WORLD, &s));
        double until = MPI_Wtime() + (i % 7) * 10e-6; /* 0..60 us */
        while (MPI_Wtime() < until)
            ;
        if (i % 2) { /* the cancel first, or the receive first */
            CHECK(MPI_Cancel(&s));
            if (i % 4 == 1) { /* progress in between (at n = 1 the answer can come first) */
                int any;
                CHECK(MPI_Iprobe(MPI_ANY_SOURCE, T_MARK, MPI_COMM_WORLD, &any, MPI_STATUS_IGNORE));
            }
            CHECK(MPI_Irecv(rbuf, n, MPI_BYTE, left, T_RACE, MPI_COMM_WORLD, &r));
        } else {
            CHECK(MPI_Irecv(rbuf, n, MPI_BYTE, left, T_RACE, MPI_COMM_WORLD, &r));
            CHECK(MPI_Cancel(&s));
        }
        CHECK(MPI_Wait(&s, &st));
        CHECK(MPI_Test_cancelled(&st, &flag));
        CHECK(MPI_Sendrecv(&flag, 1, MPI_INT, right, T_INFO, &lflag, 1, MPI_INT, left, T_INFO,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (lflag) { /* my receive must not have got it: nothing else of the tag was sent */
            CHECK(MPI_Cancel(&r));
            CHECK(MPI_Wait(&r, &st));
            CHECK(MPI_Test_cancelled(&st, &rflag));
            if (!rflag)
                FAIL("race %d: the send was cancelled and received too", i);
            ncancelled++;
        } else {
            CHECK(MPI_Wait(&r, &st));
            CHECK(MPI_Test_cancelled(&st, &rflag));
            EXPECT_INT(rflag, 0);
            if (check(rbuf, n, i * 8 + left) >= 0)
                FAIL("race %d: the send not cancelled arrived wrong at %d", i,
                     check(rbuf, n, i * 8 + left));
            nreceived++;
        }
        /* every receive of the round is over before anyone sends the tag again */
        CHECK(MPI_Barrier(MPI_COMM_WORLD));
        int marker = i * 10 + rank, got = -1;
        CHECK(MPI_Sendrecv(&marker, 1, MPI_INT, right, T_RACE, &got, 1, MPI_INT, left, T_RACE,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        EXPECT_INT(got, i * 10 + left);
    }
    if (ncancelled + nreceived != rounds)
        FAIL("race: %d cancelled + %d received of %d", ncancelled, nreceived, rounds);
}

/* Cancel and free at once: the message is dropped all the same. The marker on another tag
 * comes after the CANCEL (one sender's packets arrive in order), so once it is in, the
 * cancelled message is gone for good. */
static void cancel_then_free(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, x = 42, mark = 1, got = 0;
    MPI_Request s;
    for (int k = 0; k < 2; k++) {
        int n = k ? BIG : 1;
        CHECK(MPI_Isend(k ? (void *)sbuf : &x, n, k ? MPI_BYTE : MPI_INT, right, T_FREED,
                        MPI_COMM_WORLD, &s));
        CHECK(MPI_Cancel(&s));
        CHECK(MPI_Request_free(&s));
        EXPECT_INT(s == MPI_REQUEST_NULL, 1);
        CHECK(MPI_Sendrecv(&mark, 1, MPI_INT, right, T_MARK, &got, 1, MPI_INT, left, T_MARK,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int there = -1;
        CHECK(MPI_Iprobe(left, T_FREED, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE));
        if (there)
            FAIL("a send cancelled and freed (%d bytes) can still be received", k ? BIG : 4);
        CHECK(MPI_Barrier(MPI_COMM_WORLD));
    }
}

/* The first test of a send whose cancel took effect says so: complete and cancelled, through
 * each of the calls that test (how: Test, Request_get_status, Testany, Testall, Testsome,
 * Wait). To itself the cancel takes effect within MPI_Cancel; to the right neighbour, once
 * the neighbour has answered it, which the ring of markers behind the CANCEL makes sure of
 * (packets from one sender arrive in order, and the answer goes before the neighbour's ack).
 * A program that read "not complete" once would go on to receive the withdrawn message. */
static int test_once(int how, MPI_Request *s, MPI_Status *st)
{
    int flag = 0, idx = -1, outcount = -1;
    switch (how) {
    case 0:
        CHECK(MPI_Test(s, &flag, st));
        break;
    case 1:
        CHECK(MPI_Request_get_status(*s, &flag, st));
        if (flag)
            CHECK(MPI_Wait(s, MPI_STATUS_IGNORE));
        break;
    case 2:
        CHECK(MPI_Testany(1, s, &idx, &flag, st));
        break;
    case 3:
        CHECK(MPI_Testall(1, s, &flag, st));
        break;
    case 4:
        CHECK(MPI_Testsome(1, s, &outcount, &idx, st));
        flag = outcount == 1;
        break;
    default:
        CHECK(MPI_Wait(s, st));
        flag = 1;
    }
    return flag;
}

static const char *how_name[6] = {"Test", "Request_get_status", "Testany", "Testall",
                                  "Testsome", "Wait"};

static void first_test(int rank, int size, int to_self, int mode, int n, int how)
{
    int dest = to_self ? rank : (rank + 1) % size, left = (rank - 1 + size) % size, mark = 0;
    MPI_Request s;
    MPI_Status st;
    CHECK(start_mode(mode, n, dest, &s));
    CHECK(MPI_Cancel(&s));
    if (!to_self) {
        CHECK(MPI_Sendrecv(&mark, 1, MPI_INT, dest, T_MARK, &mark, 1, MPI_INT, left, T_MARK,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(MPI_Sendrecv(&mark, 1, MPI_INT, left, T_MARK, &mark, 1, MPI_INT, dest, T_MARK,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    int flag = test_once(how, &s, &st), cancelled = -1;
    if (!flag) {
        FAIL("%s of %d bytes to %s, cancelled: the first %s says not complete", mode_name[mode],
             n, to_self ? "self" : "a peer", how_name[how]);
        CHECK(MPI_Wait(&s, &st));
    }
    CHECK(MPI_Test_cancelled(&st, &cancelled));
    if (cancelled != 1)
        FAIL("%s of %d bytes to %s, cancelled: %s says cancelled %d", mode_name[mode], n,
             to_self ? "self" : "a peer", how_name[how], cancelled);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

/* A send whose message was received before the cancel: cancelled 0, in every mode. */
static void matched_then_cancelled(int rank, int size, int to_self, int mode, int n, int how)
{
    int dest = to_self ? rank : (rank + 1) % size, src = to_self ? rank : (rank - 1 + size) % size;
    MPI_Request s, r;
    MPI_Status st;
    CHECK(MPI_Irecv(rbuf, n, MPI_BYTE, src, T_DATA, MPI_COMM_WORLD, &r));
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* a ready send needs the receive posted */
    fill(sbuf, n, rank + how);
    CHECK(start_mode(mode, n, dest, &s));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* every message received: every send matched */
    CHECK(MPI_Cancel(&s));
    while (!test_once(how, &s, &st))
        ;
    int cancelled = -1;
    CHECK(MPI_Test_cancelled(&st, &cancelled));
    if (cancelled != 0)
        FAIL("%s of %d bytes to %s, received, then cancelled: %s says cancelled %d",
             mode_name[mode], n, to_self ? "self" : "a peer", how_name[how], cancelled);
    if (check(rbuf, n, src + how) >= 0)
        FAIL("%s, received then cancelled: wrong data at %d", mode_name[mode],
             check(rbuf, n, src + how));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

static void first_tests(int rank, int size)
{
    static const int ns[] = {4, BIG};
    for (int to_self = 1; to_self >= (size > 1 ? 0 : 1); to_self--)
        for (int k = 0; k < 2; k++)
            for (int how = 0; how < 6; how++) {
                for (int mode = M_SEND; mode <= M_BSEND; mode++)
                    first_test(rank, size, to_self, mode, ns[k], how);
                for (int mode = M_SEND; mode <= M_RSEND; mode++)
                    matched_then_cancelled(rank, size, to_self, mode, ns[k], how);
            }
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 150), rank = mc_rank;
    bsize = 2 * (BIG + MPI_BSEND_OVERHEAD);
    bbuf = malloc((size_t)bsize);
    CHECK(MPI_Buffer_attach(bbuf, bsize));
    static const int sizes[] = {0, 1, 8191, 8192, 8193, 16383, 16384, 16385, BIG};
    int round = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int mode = 0; mode < M_COUNT; mode++) {
            if (mode != M_RSEND && mode != M_RSEND_INIT) /* ready: only with the receive */
                one(rank, size, mode, sizes[k], 0, round++);
            one(rank, size, mode, sizes[k], 1, round++);
        }
    bsend_space(rank, size);
    first_tests(rank, size);
    race(rank, size, 300);
    cancel_then_free(rank, size);
    /* cancelling a send twice, and a received send: no effect, no error */
    MPI_Request s;
    int flag = -1, x = 5, y;
    MPI_Status st;
    CHECK(MPI_Isend(&x, 1, MPI_INT, rank, 99, MPI_COMM_WORLD, &s));
    CHECK(MPI_Recv(&y, 1, MPI_INT, rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_Cancel(&s));
    CHECK(MPI_Cancel(&s));
    CHECK(MPI_Wait(&s, &st));
    CHECK(MPI_Test_cancelled(&st, &flag));
    EXPECT_INT(flag, 0);
    EXPECT_INT(y, 5);
    void *b;
    CHECK(MPI_Buffer_detach(&b, &bsize));
    free(bbuf);
    /* Rank 1 finalizes while rank 0 still cancels sends to it (eager and synchronous): the
     * cancels succeed, the waits return, and both finalizes end. */
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0 && size > 1) {
        usleep(200 * 1000); /* rank 1 is in MPI_Finalize by now */
        for (int mode = 0; mode < 2; mode++) {
            CHECK((mode ? MPI_Issend : MPI_Isend)(&x, 1, MPI_INT, 1, 98, MPI_COMM_WORLD, &s));
            CHECK(MPI_Cancel(&s));
            CHECK(MPI_Wait(&s, &st));
            CHECK(MPI_Test_cancelled(&st, &flag));
            if (!flag)
                FAIL("%s to a finalizing rank was not cancelled", mode ? "Issend" : "Isend");
        }
    }
    MPI_Finalize();
    return mc_done("mpi_req_cancel");
}
