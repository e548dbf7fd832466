/* test_mpi_session.c — MPI-4 sessions (tests/mpi/mpi_session.c) under mrun at n = 1 and 3:
 * psets, pset info, communicators from groups (exact allreduce values), an intercommunicator
 * from two groups (n = 3), session handlers and info, in the three ways a program mixes
 * sessions with the world model (mixed: a session outlives MPI_Finalize; only: no MPI_Init at
 * all; before: MPI_Init inside a session). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif

static void run_ok(int n, const char *arg)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, "mpi_session");
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, n, path, arg, NULL);
    expect_ranks_ok(r, "mpi_session", n);
    run_free(&r);
}

ParameterizedTestParameters(mpi_session, modes)
{
    static int ns[] = {1, 3};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}
ParameterizedTest(int *n, mpi_session, modes, .timeout = 120)
{
    run_ok(*n, "mixed");
    run_ok(*n, "only");
    run_ok(*n, "before");
}

