/* test_mpi_t.c — the tools interface under mrun: tests/mpi/mpi_t (cvars, categories, events,
 * error classes; n = 1 and 2, with RMP_SHM_RING_KB=64, which it reads back through its cvar),
 * tests/mpi/mpi_t_pvar (exact pvar counts; n = 1, 2 and 3, as a rank beyond the pair must not
 * disturb them; at n = 2 also with a thread reading them all along) and tests/progs/stats
 * (the native calls under MPI_T, with a cvar written at run time; n = 1, 2 and 3). Each
 * program checks its values itself ("FAIL" per problem, then "<prog>: rank R OK" or
 * "stats: OK"); tests/mpi/mpi_t_event (the events a known traffic raises; n = 1..3, and at
 * n = 2 with threads, which make check-tsan runs). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif

/* prog (with mode, or NULL) at n ranks: every rank OK. */
static void ranks_ok(int n, const char *prog, const char *mode, const char *const *env)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, prog);
    run_opts_t o = {.limit = 90, .env = env};
    run_result_t r = run_mrun(&o, n, path, mode, NULL);
    expect_ranks_ok(r, prog, n);
    run_free(&r);
}

ParameterizedTestParameters(mpi_t, cvars)
{
    static int ns[] = {1, 2};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_t, cvars, .timeout = 100)
{
    const char *env[] = {"RMP_SHM_RING_KB=64", NULL};
    ranks_ok(*n, "mpi_t", NULL, env);
}

ParameterizedTestParameters(mpi_t, pvars)
{
    static int ns[] = {1, 2, 3};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_t, pvars, .timeout = 100)
{
    ranks_ok(*n, "mpi_t_pvar", NULL, NULL);
}

/* The same while a second thread reads every pvar (MPI_THREAD_MULTIPLE). */
Test(mpi_t, pvars_threads, .timeout = 100)
{
    ranks_ok(2, "mpi_t_pvar", "threads", NULL);
}

ParameterizedTestParameters(mpi_t, native)
{
    static int ns[] = {1, 2, 3};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_t, native, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, PROG("stats"), NULL);
    expect_success(r);
    expect_line(r, out, "stats: OK", 1);
    run_free(&r);
}

/* MPI_T events: what the callbacks hear is exactly the known traffic (tests/mpi/mpi_t_event). */
ParameterizedTestParameters(mpi_t, events)
{
    static int ns[] = {1, 2, 3};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_t, events, .timeout = 100)
{
    ranks_ok(*n, "mpi_t_event", NULL, NULL);
}

/* Rank 1's four threads receive messages each heard once by a thread-safe callback (TSan). */
Test(mpi_t, events_threads, .timeout = 100)
{
    ranks_ok(2, "mpi_t_event", "threads", NULL);
}
