/* test_mpi_inter.c — intercommunicators through mpi.h (tests/mpi/mpi_inter.c, built with
 * rmpcc) under mrun at n = 1..8, the collectives blocking and nonblocking; the program checks
 * exact values itself (a "FAIL" line per problem, "mpi_inter: rank R OK" at the end). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif
#define MPIPROG(name) RMP_TEST_MPIPROGS "/" name

static void inter_run(int n, const char *arg)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, n, MPIPROG("mpi_inter"), arg, NULL);
    expect_ranks_ok(r, "mpi_inter", n);
    run_free(&r);
}

ParameterizedTestParameters(mpi_inter, blocking)
{
    static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_inter, blocking, .timeout = 100)
{
    inter_run(*n, "blocking");
}

ParameterizedTestParameters(mpi_inter, nonblocking)
{
    static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_inter, nonblocking, .timeout = 100)
{
    inter_run(*n, "nonblocking");
}
