/* test_mpi_attr.c — attribute caching and user error classes and handlers through mpi.h
 * (tests/mpi/mpi_attr.c, mpi_errcls.c, built with rmpcc) under mrun at MPI_SIZES (run.h), each
 * program checking exact values itself (a "FAIL" line per problem, "<prog>: rank R OK" at the
 * end); and a user error code under MPI_ERRORS_ARE_FATAL ending the job with its own string. */
#include "run.h"


RUN_SIZES(mpi_attr, attributes, MPI_SIZES)

/* Every rank passed, and at MPI_Finalize MPI_COMM_SELF's attributes were deleted, last set
 * first (each rank's callback says so after its "OK"). */
ParameterizedTest(int *n, mpi_attr, attributes, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_attr"), NULL);
    expect_ranks_ok(r, "mpi_attr", *n);
    for (int i = 0; i < *n; i++) {
        char line[128];
        snprintf(line, sizeof line, "mpi_attr: rank %d finalize deleted self attributes in order",
                 i);
        expect_line(r, out, line, 1);
    }
    run_free(&r);
}

RUN_SIZES(mpi_attr, error_classes_and_handlers, MPI_SIZES)

ParameterizedTest(int *n, mpi_attr, error_classes_and_handlers, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_errcls"), NULL);
    expect_ranks_ok(r, "mpi_errcls", *n);
    run_free(&r);
}

/* The first user class is MPI_ERR_LASTCODE + 1 = 128, its first code 129: the job ends with
 * the class as its status, the message quoting the code's string. */
static void user_code_fatal(int n)
{
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, n, MPIPROG("mpi_errcls"), "fatal", NULL);
    expect_exit(r, 128);
    char line[256];
    snprintf(line, sizeof line, "rmp: MPI_Comm_call_errhandler on rank %d: a user error: the "
             "test's own", n - 1);
    expect_line(r, err, line, 1);
    expect_no_fail(r);
    cr_assert_eq(count_prefix(r.out, "mpi_errcls: rank"), 0, "a rank finished:\n%s", r.out);
    expect_clean(r);
    run_free(&r);
}

Test(mpi_attr, user_code_fatal_n1, .timeout = 100)
{
    user_code_fatal(1);
}

Test(mpi_attr, user_code_fatal_n3, .timeout = 100)
{
    user_code_fatal(3);
}
