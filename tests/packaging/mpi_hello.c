/* mpi_hello.c — the smallest MPI program, for the packaging tests (rmpcc, pkg-config rmp-mpi,
 * an installed tree): every rank says who it is, with the library's version. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, len;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_library_version(version, &len);
    printf("mpi hello from rank %d of %d (%s)\n", rank, size, version);
    MPI_Finalize();
    return 0;
}
