/* mpi_pmpi.c — a program to profile (MPI-3.1 14.2): a fixed number of calls of each kind,
 * every result checked, run with and without tests/packaging/pmpi_counter.c linked ahead of
 * librmp-mpi (tests/integration/test_pmpi.c). Per rank, whatever n (>= 2), it calls exactly:
 *   Init 1, Comm_rank 1, Comm_size 1 (plus PMPI_Comm_size 1, which no tool sees), Send 4
 *   (one to an invalid rank under MPI_ERRORS_RETURN), Recv 3, Isend 2, Irecv 2, Wait 2,
 *   Waitall 1, Sendrecv 5, Sendrecv_replace 2, Bcast 1, Reduce 1, Allreduce 4, Barrier 2,
 *   Comm_dup 1, Comm_free 1, Error_string 1, Error_class 1, Pcontrol 1 (plus PMPI_Pcontrol
 *   1), Finalize 1,
 * so that a counter that sees more has seen a call the MPI layer made to itself.
 * With the argument "fatal", rank 0 sends to an invalid rank under MPI_ERRORS_ARE_FATAL: the
 * job ends and the message names MPI_Send (the user's call, not PMPI_Send). */
#include "mpicheck.h"

int main(int argc, char **argv)
{
    mc_watchdog(60);
    MPI_Init(&argc, &argv);
    int rank, n, pn = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    mc_rank = rank;
    PMPI_Comm_size(MPI_COMM_WORLD, &pn);
    EXPECT_INT(pn, n);
    if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
        int x = 1;
        if (rank == 0)
            MPI_Send(&x, 1, MPI_INT, n, 0, MPI_COMM_WORLD); /* ends the job */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (n < 2) {
        FAIL("needs n >= 2, got %d", n);
        MPI_Finalize();
        return mc_done("mpi_pmpi");
    }
    int right = (rank + 1) % n, left = (rank + n - 1) % n;

    /* A ring of blocking sends: even ranks send first, odd ranks receive first. */
    for (int i = 0; i < 3; i++) {
        int out = rank * 100 + i, in = -1;
        if (rank % 2 == 0) {
            CHECK(MPI_Send(&out, 1, MPI_INT, right, i, MPI_COMM_WORLD));
            CHECK(MPI_Recv(&in, 1, MPI_INT, left, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            CHECK(MPI_Recv(&in, 1, MPI_INT, left, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(MPI_Send(&out, 1, MPI_INT, right, i, MPI_COMM_WORLD));
        }
        EXPECT_INT(in, left * 100 + i);
    }

    /* Nonblocking, completed by Wait twice, then by one Waitall. */
    MPI_Request req[2];
    int out = rank + 7, in = -1;
    CHECK(MPI_Irecv(&in, 1, MPI_INT, left, 10, MPI_COMM_WORLD, &req[0]));
    CHECK(MPI_Isend(&out, 1, MPI_INT, right, 10, MPI_COMM_WORLD, &req[1]));
    CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
    EXPECT_INT(in, left + 7);
    in = -1;
    CHECK(MPI_Irecv(&in, 1, MPI_INT, right, 11, MPI_COMM_WORLD, &req[0]));
    CHECK(MPI_Isend(&out, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &req[1]));
    CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    EXPECT_INT(in, right + 7);

    /* A token passed around the ring: after k shifts rank r holds (r - k) mod n. */
    int token = rank;
    for (int k = 1; k <= 5; k++) {
        int next = -1;
        MPI_Status st;
        CHECK(MPI_Sendrecv(&token, 1, MPI_INT, right, 20, &next, 1, MPI_INT, left, 20,
                           MPI_COMM_WORLD, &st));
        EXPECT_INT(st.MPI_SOURCE, left);
        token = next;
        EXPECT_INT(token, ((rank - k) % n + n) % n);
    }
    for (int k = 1; k <= 2; k++) {
        CHECK(MPI_Sendrecv_replace(&token, 1, MPI_INT, left, 21, right, 21, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
        EXPECT_INT(token, ((rank - 5 + k) % n + n) % n);
    }

    /* Collectives, on a duplicate of the world too. */
    int root_val = rank == 0 ? 4242 : -1;
    CHECK(MPI_Bcast(&root_val, 1, MPI_INT, 0, MPI_COMM_WORLD));
    EXPECT_INT(root_val, 4242);
    int sum = -1;
    CHECK(MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0)
        EXPECT_INT(sum, n * (n - 1) / 2);
    MPI_Comm dup;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (int i = 0; i < 4; i++) {
        int v = rank + i, total = -1;
        CHECK(MPI_Allreduce(&v, &total, 1, MPI_INT, i % 2 ? MPI_MAX : MPI_SUM,
                            i < 2 ? dup : MPI_COMM_WORLD));
        EXPECT_INT(total, i % 2 ? n - 1 + i : n * (n - 1) / 2 + n * i);
    }
    CHECK(MPI_Barrier(dup));
    CHECK(MPI_Comm_free(&dup));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));

    /* An error returned (MPI_ERRORS_RETURN), its class and its text. */
    int x = 0, cls = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    int rc = MPI_Send(&x, 1, MPI_INT, n, 0, MPI_COMM_WORLD);
    EXPECT_INT(rc != MPI_SUCCESS, 1);
    CHECK(MPI_Error_class(rc, &cls));
    EXPECT_INT(cls, MPI_ERR_RANK);
    CHECK(MPI_Error_string(rc, text, &len));
    EXPECT_INT(len > 0, 1);

    /* MPI_Pcontrol: rmp's ignores any level and arguments (MPI-3.1 14.2.4). */
    CHECK(MPI_Pcontrol(1));
    CHECK(PMPI_Pcontrol(2, "extra", 3));

    int status = mc_done("mpi_pmpi");
    MPI_Finalize();
    return status;
}
