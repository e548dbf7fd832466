/* test_mpi_t.c — the tools interface under mrun: tests/mpi/mpi_t (cvars, categories, events,
 * error classes; n = 1 and 2, with RMP_SHM_RING_KB=64, which it reads back through its cvar),
 * tests/mpi/mpi_t_pvar (exact pvar counts; n = 1, 2 and 3, as a rank beyond the pair must not
 * disturb them; at n = 2 also with a thread reading them all along) and tests/progs/stats
 * (the native calls under MPI_T, with a cvar written at run time; n = 1, 2 and 3). Each
 * program checks its values itself ("FAIL" per problem, then "<prog>: rank R OK" or
 * "stats: OK"); tests/mpi/mpi_t_event (the events a known traffic raises; n = 1..3, and at
 * n = 2 with threads, which make check-tsan runs). */
#include "run.h"

RUN_SIZES(mpi_t, cvars, 1, 2)

ParameterizedTest(int *n, mpi_t, cvars, .timeout = 100)
{
    const char *env[] = {"RMP_SHM_RING_KB=64", NULL};
    run_opts_t o = {.limit = 90, .env = env};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_t"), NULL);
    expect_ranks_ok(r, "mpi_t", *n);
    run_free(&r);
}

RUN_SIZES(mpi_t, pvars, 1, 2, 3)

ParameterizedTest(int *n, mpi_t, pvars, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_t_pvar"), NULL);
    expect_ranks_ok(r, "mpi_t_pvar", *n);
    run_free(&r);
}

/* The same while a second thread reads every pvar (MPI_THREAD_MULTIPLE). */
Test(mpi_t, pvars_threads, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, 2, MPIPROG("mpi_t_pvar"), "threads", NULL);
    expect_ranks_ok(r, "mpi_t_pvar", 2);
    run_free(&r);
}

RUN_SIZES(mpi_t, native, 1, 2, 3)

ParameterizedTest(int *n, mpi_t, native, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, PROG("stats"), NULL);
    expect_success(r);
    expect_line(r, out, "stats: OK", 1);
    run_free(&r);
}

/* MPI_T events: what the callbacks hear is exactly the known traffic (tests/mpi/mpi_t_event). */
RUN_SIZES(mpi_t, events, 1, 2, 3)

ParameterizedTest(int *n, mpi_t, events, .timeout = 100)
{
    run_mpi_ok(*n, "mpi_t_event", NULL, NULL, NULL, 90);
}

/* Rank 1's four threads receive messages each heard once by a thread-safe callback (TSan). */
Test(mpi_t, events_threads, .timeout = 100)
{
    run_mpi_ok(2, "mpi_t_event", NULL, "threads", NULL, 90);
}
