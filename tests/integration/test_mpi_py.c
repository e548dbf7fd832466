/* test_mpi_py.c — what mpi4py's test suite and mpi4py.futures ask of MPI, as our C programs
 * tests/mpi/mpi_py_*.c check it: spawn as test_spawn.py and futures' pools do it (on
 * MPI_COMM_SELF of every rank at once, arguments at the root only, a root that is not 0,
 * a manager thread, two pools at once), MPI_UNIVERSE_SIZE under mrun (--universe-size, else
 * the slots), ports, names and join as test_dynproc.py uses them, MPI_File's handle calls
 * (test_file.py), the error classes of null and predefined handles (test_exceptions.py), and
 * MPI_Info's key order (test_info.py), statuses and null requests (test_status.py,
 * test_request.py), communicators and split types (test_comm.py), windows of every flavor
 * (test_win.py), nonblocking collectives on intercommunicators (test_cco_nb_buf.py). */
#include <unistd.h>

#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif
#ifndef RMP_TEST_BINDIR
#error "build with -DRMP_TEST_BINDIR=<the variant's bin directory> (the Makefile does)"
#endif
#define MPIPROG(name) RMP_TEST_MPIPROGS "/" name

/* Each program at the rank counts mpi4py's CI uses (dynproc and inter_nb need two ranks for
 * most of what they check; dynproc at 4 has every rank opening and publishing at once, which
 * raced the private directory's tidy-up). Every rank says OK (a spawned child's failure is its parent's,
 * through the barrier and the exit status); nothing is left behind (run_mrun checks). */
typedef struct py_job {
    char prog[24]; /* not a pointer: Criterion's workers are new processes, at new addresses */
    int n;
} py_job_t;

ParameterizedTestParameters(mpi_py, programs)
{
    static py_job_t jobs[] = {
        {"mpi_py_spawn", 1},   {"mpi_py_spawn", 2},   {"mpi_py_spawn", 3},
        {"mpi_py_dynproc", 1}, {"mpi_py_dynproc", 2}, {"mpi_py_dynproc", 4},
        {"mpi_py_inter_nb", 2}, {"mpi_py_inter_nb", 3}, {"mpi_py_inter_nb", 4},
        {"mpi_py_file", 1},    {"mpi_py_file", 2},    {"mpi_py_errors", 1},
        {"mpi_py_errors", 2},  {"mpi_py_info", 1},    {"mpi_py_info", 2},
        {"mpi_py_status", 1},  {"mpi_py_status", 2},  {"mpi_py_comm", 1},
        {"mpi_py_comm", 2},    {"mpi_py_comm", 3},    {"mpi_py_win", 1},
        {"mpi_py_win", 2},
    };
    return cr_make_param_array(py_job_t, jobs, sizeof jobs / sizeof jobs[0]);
}

ParameterizedTest(py_job_t *j, mpi_py, programs, .timeout = 240)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, j->prog);
    run_result_t r = run_mrun(&(run_opts_t){.limit = 200}, j->n, path, NULL);
    expect_ranks_ok(r, j->prog, j->n);
    run_free(&r);
}

/* MPIPoolExecutor from a program started without mrun: the universe is the singleton world,
 * and its pool of one worker is started by a child mrun */
Test(mpi_py, futures_singleton, .timeout = 120)
{
    const char *argv[] = {MPIPROG("mpi_py_spawn"), "futures", "1", NULL};
    run_result_t r = run_cmd(&(run_opts_t){.limit = 100}, argv);
    expect_ranks_ok(r, "mpi_py_spawn", 1);
    run_free(&r);
}

/* mrun -n 1 --universe-size 3: futures' pool has 2 workers */
Test(mpi_py, universe_size_option, .timeout = 120)
{
    const char *argv[] = {RMP_TEST_BINDIR "/mrun", "-n", "1", "--universe-size", "3",
                          MPIPROG("mpi_py_spawn"), "futures", "3", NULL};
    run_result_t r = run_cmd(&(run_opts_t){.limit = 100}, argv);
    expect_ranks_ok(r, "mpi_py_spawn", 1);
    run_free(&r);
}

/* Without the option: the slots, as Open MPI's mpirun counts them (the CPUs), at least -n. */
Test(mpi_py, universe_size_default, .timeout = 120)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char want[24];
    snprintf(want, sizeof want, "%ld", cpus > 2 ? cpus : 2);
    run_result_t r = run_mrun(&(run_opts_t){.limit = 100}, 2, MPIPROG("mpi_py_spawn"),
                              "futures", want, NULL);
    expect_ranks_ok(r, "mpi_py_spawn", 2);
    run_free(&r);
}

Test(mpi_py, universe_size_refused, .timeout = 30)
{
    const char *argv[] = {RMP_TEST_BINDIR "/mrun", "-n", "2", "--universe-size", "1",
                          MPIPROG("mpi_py_spawn"), NULL};
    run_result_t r = run_cmd(&(run_opts_t){.limit = 20}, argv);
    expect_exit(r, 2);
    expect_line(r, err, "mrun: --universe-size 1 is less than the 2 ranks; try mrun --help",
                1);
    run_free(&r);
}
