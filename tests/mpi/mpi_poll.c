/* mpi_poll.c — waiting by polling (issue 34): a ring of 8-byte messages completed by polling
 * MPI_Testany, MPI_Ibarrier and MPI_Iallreduce polled with MPI_Test, messages found by polling
 * MPI_Iprobe and MPI_Improbe, requests polled with MPI_Request_get_status, MPI_Testall and
 * MPI_Testsome. Run with more ranks than cores, every loop must still finish (the watchdog
 * ends a program whose polling starves the rank holding the data) with exact results.
 *
 *   mrun -n N mpi_poll [rounds]      prints "mpi_poll: rank R OK" */
#include "mpicheck.h"

static int size, left, right;

static long word(long round, int from)
{
    return round * 1000 + from;
}

/* The ring: receive from the left, send to the right, both completed by polling Testany. */
static void ring_testany(long rounds)
{
    for (long i = 0; i < rounds; i++) {
        long out = word(i, mc_rank), in = -1;
        MPI_Request rq[2];
        int done = 0, seen[2] = {0, 0};
        CHECK(MPI_Irecv(&in, 1, MPI_LONG, left, 1, MPI_COMM_WORLD, &rq[0]));
        CHECK(MPI_Isend(&out, 1, MPI_LONG, right, 1, MPI_COMM_WORLD, &rq[1]));
        while (done < 2) {
            int idx = -1, flag = 0;
            CHECK(MPI_Testany(2, rq, &idx, &flag, MPI_STATUS_IGNORE));
            if (flag && idx >= 0 && idx < 2) {
                seen[idx]++;
                done++;
            } else if (flag) {
                FAIL("ring round %ld: Testany said done with index %d", i, idx);
                return;
            }
        }
        EXPECT_INT(seen[0] * 10 + seen[1], 11);
        EXPECT_INT(in, word(i, left));
    }
}

/* A nonblocking collective completed by polling MPI_Test alone. */
static void test_until(MPI_Request *rq)
{
    int flag = 0;
    while (!flag)
        CHECK(MPI_Test(rq, &flag, MPI_STATUS_IGNORE));
    EXPECT_INT(*rq == MPI_REQUEST_NULL, 1);
}

static void coll_test(long rounds)
{
    long barriers = 0;
    for (long i = 0; i < rounds; i++) {
        MPI_Request rq;
        CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &rq));
        test_until(&rq);
        barriers++;
        long mine = word(i, mc_rank), sum = -1;
        CHECK(MPI_Iallreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &rq));
        test_until(&rq);
        EXPECT_INT(sum, i * 1000 * size + (long)size * (size - 1) / 2);
    }
    long all = 0;
    CHECK(MPI_Allreduce(&barriers, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    EXPECT_INT(all, rounds * size);
}

/* Messages from the left found by polling Iprobe (then received), and by polling Improbe
 * (then Mrecv'd): each the exact word, source and tag. */
static void probes(long rounds)
{
    for (long i = 0; i < rounds; i++) {
        long out = word(i, mc_rank), in = -1;
        int tag = (int)(i % 2) + 2, flag = 0, count = -1;
        MPI_Request sr;
        MPI_Status st;
        CHECK(MPI_Isend(&out, 1, MPI_LONG, right, tag, MPI_COMM_WORLD, &sr));
        if (i % 2 == 0) {
            while (!flag)
                CHECK(MPI_Iprobe(left, tag, MPI_COMM_WORLD, &flag, &st));
            CHECK(MPI_Recv(&in, 1, MPI_LONG, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            MPI_Message m = MPI_MESSAGE_NULL;
            while (!flag)
                CHECK(MPI_Improbe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &m, &st));
            CHECK(MPI_Mrecv(&in, 1, MPI_LONG, &m, MPI_STATUS_IGNORE));
        }
        CHECK(MPI_Get_count(&st, MPI_LONG, &count));
        EXPECT_INT(count, 1);
        EXPECT_INT(st.MPI_SOURCE, left);
        EXPECT_INT(st.MPI_TAG, tag);
        EXPECT_INT(in, word(i, left));
        CHECK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    }
}

/* The ring again, its receive polled by MPI_Request_get_status (which keeps it live), then by
 * Testsome and Testall in turn. */
static void status_some_all(long rounds)
{
    for (long i = 0; i < rounds; i++) {
        long out = word(i, mc_rank), in = -1;
        MPI_Request rq[2];
        int flag = 0;
        CHECK(MPI_Irecv(&in, 1, MPI_LONG, left, 4, MPI_COMM_WORLD, &rq[0]));
        CHECK(MPI_Isend(&out, 1, MPI_LONG, right, 4, MPI_COMM_WORLD, &rq[1]));
        if (i % 3 == 0) {
            while (!flag)
                CHECK(MPI_Request_get_status(rq[0], &flag, MPI_STATUS_IGNORE));
            EXPECT_INT(rq[0] != MPI_REQUEST_NULL, 1);
            CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        } else if (i % 3 == 1) {
            int got = 0, outcount = 0, idx[2];
            while (got < 2 && !mc_failures) {
                CHECK(MPI_Testsome(2, rq, &outcount, idx, MPI_STATUSES_IGNORE));
                got += outcount == MPI_UNDEFINED ? 0 : outcount;
            }
            EXPECT_INT(got, 2);
        } else {
            while (!flag)
                CHECK(MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE));
        }
        EXPECT_INT(in, word(i, left));
        EXPECT_INT(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL, 1);
    }
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 60);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (mc_rank + size - 1) % size;
    right = (mc_rank + 1) % size;
    long rounds = argc > 1 ? atol(argv[1]) : 100;
    ring_testany(rounds);
    coll_test(rounds);
    probes(rounds);
    status_some_all(rounds);
    return mc_done("mpi_poll") + (MPI_Finalize() != MPI_SUCCESS);
}
