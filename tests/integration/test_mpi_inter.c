/* test_mpi_inter.c — intercommunicators through mpi.h (tests/mpi/mpi_inter.c, built with rmpcc)
 * under mrun at MPI_SIZES (run.h), the collectives blocking and nonblocking; the program checks
 * exact values itself (a "FAIL" line per problem, "mpi_inter: rank R OK" at the end). */
#include "run.h"

static void inter_run(int n, const char *arg)
{
    run_mpi_ok(n, "mpi_inter", NULL, arg, NULL, 0);
}

RUN_SIZES(mpi_inter, blocking, MPI_SIZES)

ParameterizedTest(int *n, mpi_inter, blocking, .timeout = 100)
{
    inter_run(*n, "blocking");
}

RUN_SIZES(mpi_inter, nonblocking, MPI_SIZES)

ParameterizedTest(int *n, mpi_inter, nonblocking, .timeout = 100)
{
    inter_run(*n, "nonblocking");
}
