/* prof-calls.c — the time RMP_PROFILE adds to one MPI call, on one rank (no peer, so the
 * machine's load moves it little): ITERS calls of MPI_Comm_rank (the cheapest call: all but
 * the wrapper is a table lookup) and of an 8-byte MPI_Sendrecv to itself, ns per call.
 * bench/prof-cost builds it with rmpcc and runs it with the profile off and on.
 * `prof-calls ITERS mpi|pmpi|sendrecv` makes only ITERS calls of MPI_Comm_rank (or of
 * PMPI_Comm_rank, which no wrapper precedes, or of the 8-byte MPI_Sendrecv to itself): run
 * under callgrind at two ITERS, the difference of the instruction counts over the difference
 * of ITERS is what one call costs in instructions, which the machine's load does not change
 * (bench/prof-cost does it; bench/README). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int ITERS = 2000000;

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
    if (argc > 2) { /* only the calls, for an instruction count */
        ITERS = atoi(argv[1]);
        int pmpi = !strcmp(argv[2], "pmpi"), sr = !strcmp(argv[2], "sendrecv");
        for (int i = 0; i < ITERS; i++)
            if (sr)
                MPI_Sendrecv(a, 8, MPI_BYTE, 0, 1, b, 8, MPI_BYTE, 0, 1, MPI_COMM_SELF,
                             MPI_STATUS_IGNORE);
            else if (pmpi)
                PMPI_Comm_rank(MPI_COMM_WORLD, &r);
            else
                MPI_Comm_rank(MPI_COMM_WORLD, &r);
        MPI_Finalize();
        return 0;
    }
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
