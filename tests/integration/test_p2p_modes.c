/* test_p2p_modes.c — the point-to-point calls beyond send/recv (send modes, persistent
 * requests, waitsome/testsome, request_free, matched probes, sendrecv_replace, split_type):
 * tests/progs/p2p_modes (its own exact checks) at n = 1..8, once more with every message past
 * 16 bytes going by rendezvous, tests/mpi/mpi_p2p_modes (the MPI bindings) at n = 1..8, and
 * tests/progs/rndv_failed (a rendezvous message whose sender failed before it was received). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif

static void p2p_modes(int n, const char *const env[])
{
    run_opts_t o = {.limit = 150, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("p2p_modes"), NULL);
    expect_success(r);
    expect_line(r, out, "p2p_modes: OK", 1);
    run_free(&r);
}

RUN_SIZES(p2p_modes, n1_to_8, 1, 2, 3, 4, 5, 6, 7, 8)

ParameterizedTest(int *n, p2p_modes, n1_to_8, .timeout = 200)
{
    p2p_modes(*n, NULL);
}

/* Persistent and buffered sends, matched probes and sendrecv_replace through rendezvous. */
Test(p2p_modes, n3_eager_limit_16B, .timeout = 200)
{
    const char *env[] = {"RMP_EAGER_LIMIT=16", NULL};
    p2p_modes(3, env);
}

RUN_SIZES(p2p_modes, mpi_n1_to_8, 1, 2, 3, 4, 5, 6, 7, 8)

ParameterizedTest(int *n, p2p_modes, mpi_n1_to_8, .timeout = 120)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, RMP_TEST_MPIPROGS "/mpi_p2p_modes", NULL);
    expect_success(r);
    for (int i = 0; i < *n; i++) {
        char line[64];
        snprintf(line, sizeof line, "mpi_p2p_modes: rank %d OK", i);
        expect_line(r, out, line, 1);
    }
    run_free(&r);
}

/* A rendezvous message held by mprobe, or waiting unexpected, when its sender fails: the
 * receive fails with the sender's error. It hung before with RMP_CMA=0 (a CTS to a failed
 * peer, then a stream that never came), and read the failed peer's memory with CMA. */
static void rndv_failed(const char *cma)
{
    const char *env[] = {cma, NULL};
    run_opts_t o = {.limit = 40, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("rndv_failed"), NULL);
    expect_exit(r, 3);
    expect_line(r, out, "rank 0: receive of nothing from rank 1: transport failure", 1);
    expect_line(r, out, "rank 0: mrecv from rank 1: transport failure", 1);
    expect_line(r, out, "rank 0: receive of a waiting RTS from rank 1: transport failure", 1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

Test(p2p_modes, rndv_from_failed_peer_cma, .timeout = 60)
{
    rndv_failed("RMP_CMA=1");
}

Test(p2p_modes, rndv_from_failed_peer_no_cma, .timeout = 60)
{
    rndv_failed("RMP_CMA=0");
}
