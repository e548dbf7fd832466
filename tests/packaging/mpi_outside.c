/* mpi_outside.c — a program that calls an MPI function outside rmp's subset (declared here
 * the way another MPI's mpi.h would declare it; MPICH's fault-tolerance extension, which rmp
 * does not have): building it with rmpcc must fail at link time, naming the function, never
 * produce a program that fails when it gets there. */
#include <mpi.h>

int MPIX_Comm_revoke(MPI_Comm comm);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPIX_Comm_revoke(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
