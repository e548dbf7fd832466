/* spawn-time.c — how long MPI_Comm_spawn of N children takes, from the call to a usable
 * intercommunicator (one allreduce over it), and the disconnect; the same source built with
 * rmpcc and Open MPI's mpicc (bench/README.md, "Spawning"). Usage: spawn-time N REPS. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int one = 1, sum = 0;
    if (parent != MPI_COMM_NULL) {
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    int n = argc > 1 ? atoi(argv[1]) : 1, reps = argc > 2 ? atoi(argv[2]) : 5;
    char *cargs[] = {"child", NULL};
    for (int i = 0; i < reps; i++) {
        double t0 = MPI_Wtime();
        MPI_Comm ic;
        MPI_Comm_spawn(argv[0], cargs, n, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic,
                       MPI_ERRCODES_IGNORE);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ic);
        double t1 = MPI_Wtime();
        MPI_Comm_disconnect(&ic);
        double t2 = MPI_Wtime();
        printf("n=%d spawn+allreduce %.1f ms disconnect %.1f ms\n", n, (t1 - t0) * 1e3,
               (t2 - t1) * 1e3);
    }
    MPI_Finalize();
    return 0;
}
