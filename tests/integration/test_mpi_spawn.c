/* test_mpi_spawn.c — MPI_Comm_spawn through mpi.h (tests/mpi/mpi_spawn.c) under mrun at
 * n = 1..3 (argv, errcodes, traffic, collectives, merge, disconnect, every error case),
 * nested spawn, and a singleton parent (no mrun: it starts the children's mrun itself). Under
 * mrun the children are mrun's (its PMIx server's spawn): their lines come labelled
 * "[spawnN:rank] ", a child that fails before connecting is the parents' MPI_ERR_SPAWN, and
 * mrun waits for children that outlive their parents; under Open MPI's mpirun, its own PMIx
 * server spawns them. The program checks exact values itself; the harness checks that nothing
 * is left behind (processes, sockets, /dev/shm). */
#include <string.h>
#include <unistd.h>

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
    /* every child's line labelled with its job and rank, and /bin/false's end reported by the
     * children's own mrun and as the parents' MPI_ERR_SPAWN, with the line that says why */
    expect_like(r, out, "[spawn1:0] child 0 OK", "", 1);
    expect_like(r, out, "[spawn1:1] child 1 OK", "", 1);
    expect_like(r, err, "mrun [spawn2]: rank ", " exited with status 1; terminating the job", 1);
    expect_like(r, err, "rmp[0]: rmp_comm_spawn: the children's job (namespace mrun-",
                " ended before the children connected (its own line says why)", 1);
    run_free(&r);
}

/* Children that outlive their parents by a second: mrun ends after them, with their output. */
RUN_SIZES(mpi_spawn, late_children, 1, 2)

ParameterizedTest(int *n, mpi_spawn, late_children, .timeout = 150)
{
    run_result_t r = run_mrun(&(run_opts_t){.limit = 120}, *n, MPIPROG("mpi_spawn"), "late",
                              NULL);
    expect_ranks_ok(r, "mpi_spawn", *n);
    expect_like(r, out, "[spawn1:0] child 0 OK", "", 1);
    expect_like(r, out, "[spawn1:1] child 1 OK", "", 1);
    cr_expect_geq(r.elapsed, 1.0, "mrun ended %.2f s after start, before its children", r.elapsed);
    run_free(&r);
}

/* Open MPI's mpirun: its PMIx server starts the children (spawn_multiple, and nested). */
static void under_mpirun(const char *mode, int children)
{
    char mpirun[512];
    if (!run_find_mpirun(mpirun, sizeof mpirun))
        cr_skip_test("mpirun (Open MPI) is not installed: apt-get install openmpi-bin");
    const char *argv[] = {mpirun, "--oversubscribe", "-n", "2", MPIPROG("mpi_spawn"), mode, NULL,
                          NULL};
    if (geteuid() == 0) { /* Open MPI refuses root without it */
        memmove(argv + 2, argv + 1, sizeof(argv[0]) * 6);
        argv[1] = "--allow-run-as-root";
    }
    run_result_t r = run_cmd(&(run_opts_t){.limit = 120}, argv);
    expect_ranks_ok(r, "mpi_spawn", 2);
    cr_expect_eq(count_like(r.out, "child ", " OK"), children, "stdout:\n%s", r.out);
    run_free(&r);
}

Test(mpi_spawn, mpirun_multiple, .timeout = 150) { under_mpirun("multi", 3); }
Test(mpi_spawn, mpirun_nested, .timeout = 150) { under_mpirun("nest", 3); }

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
