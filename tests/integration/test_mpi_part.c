/* test_mpi_part.c — MPI-4 partitioned communication (tests/mpi/mpi_part.c) under mrun at
 * n = 2 (a ping-ping) and 3 (a ring): differing partition counts, exact bytes, Parrived,
 * Pready_range/list, rendezvous partitions, init-order matching, errors; threads marking
 * partitions ready concurrently; and everything through rendezvous (eager limit 0). */
#include "run.h"

static void run_ok(int n, const char *arg, const char *const *env)
{
    run_mpi_ok(n, "mpi_part", NULL, arg, env, 120);
}

RUN_SIZES(mpi_part, all, 2, 3)
ParameterizedTest(int *n, mpi_part, all, .timeout = 150)
{
    run_ok(*n, "all", NULL);
}

RUN_SIZES(mpi_part, threads, 2, 3)
/* 4 threads per rank call MPI_Pready at once (MPI_THREAD_MULTIPLE). */
ParameterizedTest(int *n, mpi_part, threads, .timeout = 150)
{
    run_ok(*n, "threads", NULL);
}

/* Every partition, HELLO and CTS through rendezvous. */
Test(mpi_part, eager_off, .timeout = 150)
{
    const char *env[] = {"RMP_EAGER_LIMIT=0", NULL};
    run_ok(2, "all", env);
}
