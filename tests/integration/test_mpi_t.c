/* test_mpi_t.c — the tools interface (tests/mpi/mpi_t.c, mpi_t_pvar.c, built with rmpcc)
 * under mrun: cvars, categories, events and error classes at n = 1 and 2 (with
 * RMP_SHM_RING_KB=64, which mpi_t reads back through its cvar), exact counts of the pvars at
 * n = 1, 2 and 3 (a rank beyond the pair must not disturb them). Each program checks its
 * values itself ("FAIL" per problem, "<prog>: rank R OK" at the end). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif
#define MPIPROG(name) RMP_TEST_MPIPROGS "/" name

ParameterizedTestParameters(mpi_t, cvars)
{
    static int ns[] = {1, 2};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_t, cvars, .timeout = 100)
{
    const char *env[] = {"RMP_SHM_RING_KB=64", NULL};
    run_opts_t o = {.limit = 90, .env = env};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_t"), NULL);
    expect_ranks_ok(r, "mpi_t", *n);
    run_free(&r);
}

ParameterizedTestParameters(mpi_t, pvars)
{
    static int ns[] = {1, 2, 3};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_t, pvars, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_t_pvar"), NULL);
    expect_ranks_ok(r, "mpi_t_pvar", *n);
    run_free(&r);
}
