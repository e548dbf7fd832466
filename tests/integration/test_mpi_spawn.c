/* test_mpi_spawn.c — MPI_Comm_spawn through mpi.h (tests/mpi/mpi_spawn.c) under mrun at
 * n = 1..3 (argv, errcodes, traffic, collectives, merge, disconnect, every error case),
 * nested spawn, and a singleton parent (no mrun: it starts the children's mrun itself). The
 * program checks exact values itself; the harness checks that nothing is left behind. */
#include "run.h"

static void expect_children(run_result_t r, int parents, int children)
{
    expect_ranks_ok(r, "mpi_spawn", parents);
    cr_expect_eq(count_like(r.out, "[spawn", " OK"), children, "stdout:\n%s", r.out);
    expect_like(r, err, "rmp[0]: rmp_comm_spawn: command '/no/such/program' not found", "", 1);
}

RUN_SIZES(mpi_spawn, spawn, 1, 2, 3)

ParameterizedTest(int *n, mpi_spawn, spawn, .timeout = 150)
{
    run_result_t r = run_mrun(&(run_opts_t){.limit = 120}, *n, MPIPROG("mpi_spawn"), NULL);
    expect_children(r, *n, 2);
    run_free(&r);
}

Test(mpi_spawn, nested, .timeout = 150)
{
    run_result_t r = run_mrun(&(run_opts_t){.limit = 120}, 2, MPIPROG("mpi_spawn"), "nest",
                              NULL);
    expect_ranks_ok(r, "mpi_spawn", 2);
    cr_expect_eq(count_like(r.out, "[spawn", " OK"), 3, "stdout:\n%s", r.out);
    run_free(&r);
}

/* spawn_multiple: two apps in one world, MPI_APPNUM per app */
Test(mpi_spawn, multiple, .timeout = 150)
{
    run_result_t r = run_mrun(&(run_opts_t){.limit = 120}, 2, MPIPROG("mpi_spawn"), "multi",
                              NULL);
    expect_ranks_ok(r, "mpi_spawn", 2);
    cr_expect_eq(count_like(r.out, "[spawn", " OK"), 3, "stdout:\n%s", r.out);
    run_free(&r);
}

/* under MPI_THREAD_MULTIPLE, with another thread's traffic meanwhile */
RUN_SIZES(mpi_spawn, thread_multiple, 2, 3)

ParameterizedTest(int *n, mpi_spawn, thread_multiple, .timeout = 150)
{
    run_result_t r = run_mrun(&(run_opts_t){.limit = 120}, *n, MPIPROG("mpi_spawn"), "thread",
                              NULL);
    expect_ranks_ok(r, "mpi_spawn", *n);
    cr_expect_eq(count_like(r.out, "[spawn", " OK"), 2, "stdout:\n%s", r.out);
    run_free(&r);
}

Test(mpi_spawn, singleton, .timeout = 150)
{
    const char *argv[] = {MPIPROG("mpi_spawn"), NULL};
    run_result_t r = run_cmd(&(run_opts_t){.limit = 120}, argv);
    expect_children(r, 1, 2);
    run_free(&r);
}
