/* test_mpi_part.c — MPI-4 partitioned communication (tests/mpi/mpi_part.c) under mrun at
 * n = 2 (a ping-ping) and 3 (a ring): differing partition counts, exact bytes, Parrived,
 * Pready_range/list, rendezvous partitions, init-order matching, errors; threads marking
 * partitions ready concurrently; and everything through rendezvous (eager limit 0). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif

static void run_ok(int n, const char *arg, const char *const *env)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, "mpi_part");
    run_opts_t o = {.limit = 120, .env = env};
    run_result_t r = run_mrun(&o, n, path, arg, NULL);
    expect_ranks_ok(r, "mpi_part", n);
    run_free(&r);
}

ParameterizedTestParameters(mpi_part, all)
{
    static int ns[] = {2, 3};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}
ParameterizedTest(int *n, mpi_part, all, .timeout = 150)
{
    run_ok(*n, "all", NULL);
}

ParameterizedTestParameters(mpi_part, threads)
{
    static int ns[] = {2, 3};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}
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
