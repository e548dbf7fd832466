/* test_mpi_port.c — ports, accept/connect, disconnect, join and their errors through mpi.h
 * (tests/mpi/mpi_port.c) under mrun: the world's halves meet at n = 2..5 (n = 1: the errors
 * alone), and two separate mruns meet through a port name in a file. The program checks exact
 * values itself; the harness checks that no socket, process or segment is left. */
#include <unistd.h>

#include "run.h"

RUN_SIZES(mpi_port, halves, 1, 2, 3, 4, 5)

ParameterizedTest(int *n, mpi_port, halves, .timeout = 150)
{
    run_opts_t o = {.limit = 120};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_port"), NULL);
    expect_ranks_ok(r, "mpi_port", *n);
    run_free(&r);
}

/* Two jobs started separately (the client first: it waits for the server's file). */
Test(mpi_port, two_mruns, .timeout = 150)
{
    char file[128];
    snprintf(file, sizeof file, "/tmp/rmp-test.port.%d", (int)getpid());
    char script[1024];
    snprintf(script, sizeof script,
             "%s -n 3 %s client %s & c=$!; %s -n 2 %s server %s; s=$?; wait $c; "
             "exit $((s + $?))", RMP_TEST_MRUN, MPIPROG("mpi_port"), file, RMP_TEST_MRUN,
             MPIPROG("mpi_port"), file);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    run_opts_t o = {.limit = 120};
    run_result_t r = run_cmd(&o, argv);
    cr_expect_eq(r.code, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.err);
    cr_expect_eq(count_like(r.out, "mpi_port: rank ", " OK"), 5, "stdout:\n%s", r.out);
    cr_expect_str_empty(r.leftovers, "left behind: %s", r.leftovers);
    unlink(file);
    run_free(&r);
}

/* The same through the name service: the server publishes, the client looks it up. */
Test(mpi_port, two_mruns_by_name, .timeout = 150)
{
    char svc[64];
    snprintf(svc, sizeof svc, "rmp-test-svc-%d", (int)getpid());
    char script[1024];
    snprintf(script, sizeof script,
             "%s -n 2 %s client-name %s & c=$!; %s -n 3 %s server-name %s; s=$?; wait $c; "
             "exit $((s + $?))", RMP_TEST_MRUN, MPIPROG("mpi_port"), svc, RMP_TEST_MRUN,
             MPIPROG("mpi_port"), svc);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    run_result_t r = run_cmd(&(run_opts_t){.limit = 120}, argv);
    cr_expect_eq(r.code, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.err);
    cr_expect_eq(count_like(r.out, "mpi_port: rank ", " OK"), 5, "stdout:\n%s", r.out);
    cr_expect_str_empty(r.leftovers, "left behind: %s", r.leftovers);
    run_free(&r);
}
