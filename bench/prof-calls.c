/* prof-calls.c — the time RMP_PROFILE adds to one MPI call, on one rank (no peer, so the
 * machine's load moves it little): ITERS calls of MPI_Comm_rank (the cheapest call: all but
 * the wrapper is a table lookup) and of an 8-byte MPI_Sendrecv to itself, ns per call.
 * bench/prof-cost builds it with rmpcc and runs it with the profile off and on. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define ITERS 2000000

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int r;
    char a[8] = {0}, b[8];
    MPI_Init(&argc, &argv);
    double t0 = now();
    for (int i = 0; i < ITERS; i++)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    double t1 = now();
    for (int i = 0; i < ITERS / 10; i++)
        MPI_Sendrecv(a, 8, MPI_BYTE, 0, 1, b, 8, MPI_BYTE, 0, 1, MPI_COMM_SELF,
                     MPI_STATUS_IGNORE);
    double t2 = now();
    printf("comm_rank %.2f ns\nsendrecv_self %.2f ns\n", (t1 - t0) / ITERS,
           (t2 - t1) / (ITERS / 10));
    MPI_Finalize();
    return 0;
}
