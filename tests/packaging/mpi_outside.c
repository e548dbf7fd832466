/* mpi_outside.c — a program that calls an MPI function outside rmp's subset (declared here
 * the way another MPI's mpi.h would declare it): building it with rmpcc must fail at link
 * time, naming the function, never produce a program that fails when it gets there. */
#include <mpi.h>

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, int info, int root,
                   MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]);

int main(int argc, char **argv)
{
    MPI_Comm child;
    MPI_Init(&argc, &argv);
    MPI_Comm_spawn("true", NULL, 1, 0, 0, MPI_COMM_SELF, &child, NULL);
    MPI_Finalize();
    return 0;
}
