/* test_mpi4.c — the MPI-4.0/4.1/5.0 calls of issue 33 (tests/mpi/mpi_mpi4.c checks each
 * call's results and error classes itself) at n = 1, 2, 4, and MPI_ERRORS_ABORT ending the
 * job with the error class as its status and a message naming the handler. */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif
#define MPI4 RMP_TEST_MPIPROGS "/mpi_mpi4"

RUN_SIZES(mpi4, calls, 1, 2, 4)

ParameterizedTest(int *n, mpi4, calls, .timeout = 150)
{
    run_opts_t o = {.limit = 120};
    run_result_t r = run_mrun(&o, *n, MPI4, NULL);
    expect_ranks_ok(r, "mpi_mpi4", *n);
    run_free(&r);
}

RUN_SIZES(mpi4, errors_abort, 1, 3)

/* The last rank sends to an invalid rank under MPI_ERRORS_ABORT: the job ends with status 6
 * (MPI_ERR_RANK), no rank gets past it. */
ParameterizedTest(int *n, mpi4, errors_abort, .timeout = 100)
{
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, *n, MPI4, "abort", NULL);
    expect_exit(r, 6);
    char line[128];
    snprintf(line, sizeof line, "rmp: MPI_Send on rank %d: MPI_ERR_RANK: invalid rank", *n - 1);
    expect_line(r, err, line, 1);
    expect_line(r, err,
                "rmp: MPI_ERRORS_ABORT ends the job; after MPI_Comm_set_errhandler("
                "comm, MPI_ERRORS_RETURN) MPI_Send returns 6 instead",
                1);
    cr_assert_eq(count_prefix(r.out, "mpi_mpi4: rank"), 0, "a rank went on:\n%s", r.out);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}
