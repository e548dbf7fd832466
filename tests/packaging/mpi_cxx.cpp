// mpi_cxx.cpp — mpi.h (and rmp.h under it) as C++ sees them: compiled with g++/clang++
// -Wall -Wextra -Werror -pedantic by tests/packaging/rmpicxx.sh, then run under mrun. Every
// rank checks a sum and a type name and says so.
#include <mpi.h>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    int rank = -1, size = 0, sum = 0, len = 0;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    MPI_Status st;
    st.MPI_SOURCE = 0; // the status fields, as C++ names them
    bool ok = sum == size * (size - 1) / 2 && std::strcmp(name, "MPI_DOUBLE") == 0 &&
              len == 10 && st.MPI_SOURCE == 0;
    std::printf("mpi c++ rank %d of %d: %s\n", rank, size, ok ? "OK" : "FAILED");
    MPI_Finalize();
    return ok ? 0 : 1;
}
