/* poll-ring.c — waiting by polling, against waiting by blocking (issue 34): a ring of 8-byte
 * messages completed by polling MPI_Testany, then an MPI_Ibarrier polled with MPI_Test, as a
 * graph code's own progress layer does; and the same with MPI_Waitall / MPI_Wait. Plain MPI,
 * so the same source builds with rmpcc and with mpicc.openmpi (the Makefile's `bench`).
 *
 *   mrun -n 4 build/bench/poll-ring-rmp [rounds]
 *   mpirun.openmpi --oversubscribe -n 4 build/bench/poll-ring-openmpi [rounds]
 *
 * Prints, on rank 0, microseconds per round (mean over ranks of each rank's mean) for: ring
 * and barrier together, the ring alone, the barrier alone; polled and blocking. Every ring
 * message is checked (sender and round): a wrong one ends the program with status 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { RING = 1, BARRIER = 2 };

static int rank, size, errors;

/* One ring step: receive from the left, send to the right, 8 bytes naming sender and round;
 * completed by polling MPI_Testany (poll) or by MPI_Waitall. */
static void ring(long round, int poll)
{
    long out[1] = {round * 1000 + rank}, in[1] = {-1};
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Request rq[2];
    MPI_Irecv(in, 1, MPI_LONG, left, 7, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(out, 1, MPI_LONG, right, 7, MPI_COMM_WORLD, &rq[1]);
    if (poll) {
        for (int left_to_do = 2; left_to_do > 0;) {
            int idx, flag;
            MPI_Testany(2, rq, &idx, &flag, MPI_STATUS_IGNORE);
            if (flag && idx != MPI_UNDEFINED)
                left_to_do--;
        }
    } else {
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    }
    if (in[0] != round * 1000 + left && errors++ == 0)
        fprintf(stderr, "poll-ring: rank %d round %ld got %ld from %d\n", rank, round, in[0],
                left);
}

static void barrier(int poll)
{
    MPI_Request rq;
    MPI_Ibarrier(MPI_COMM_WORLD, &rq);
    if (poll) {
        int flag = 0;
        while (!flag)
            MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
}

/* us per round of `what`, mean over ranks. */
static double measure(int what, int poll, long rounds)
{
    long warm = rounds / 10 + 1;
    double t0 = 0;
    for (long i = 0; i < warm + rounds; i++) {
        if (i == warm) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (what & RING)
            ring(i, poll);
        if (what & BARRIER)
            barrier(poll);
    }
    double us = (MPI_Wtime() - t0) * 1e6 / (double)rounds, sum = 0;
    MPI_Reduce(&us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return sum / size;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long rounds = argc > 1 ? atol(argv[1]) : 2000;
    if (rounds < 1)
        rounds = 1;
    static const struct {
        int what;
        const char *name;
    } rows[] = {{RING | BARRIER, "ring+ibarrier"}, {RING, "ring"}, {BARRIER, "ibarrier"}};
    if (rank == 0)
        printf("# poll-ring n = %d, %ld rounds: us per round\n# %-14s %10s %10s\n", size,
               rounds, "part", "polled", "blocking");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        double polled = measure(rows[i].what, 1, rounds);
        double blocking = measure(rows[i].what, 0, rounds);
        if (rank == 0)
            printf("  %-14s %10.1f %10.1f\n", rows[i].name, polled, blocking);
    }
    int bad = 0;
    MPI_Allreduce(&errors, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && bad)
        printf("poll-ring: %d wrong messages\n", bad);
    MPI_Finalize();
    return bad ? 1 : 0;
}
