/* test_mpi.c — MPI programs through mpi.h (tests/mpi/, built with rmpcc) under mrun at MPI_SIZES
 * (run.h), each checking exact values itself (a "FAIL" line per problem, "<prog>: rank R OK" at
 * the end); the error model: MPI_ERRORS_RETURN codes, and MPI_ERRORS_ARE_FATAL ending the job with
 * a message that names the call and the exit status of the error class. */
#include "run.h"

RUN_SIZES(mpi, env, MPI_SIZES)

/* Every rank printed "<prog>: rank R OK" and nothing failed. */

static void run_ok(int n, const char *path, const char *prog, const char *arg)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, n, path, arg, NULL);
    expect_ranks_ok(r, prog, n);
    run_free(&r);
}

/* The thread level asked for cycles with n, so each is tried. */
ParameterizedTest(int *n, mpi, env, .timeout = 100)
{
    char level[4];
    snprintf(level, sizeof level, "%d", (*n - 1) % 4);
    run_ok(*n, MPIPROG("mpi_env"), "mpi_env", level);
}

RUN_SIZES(mpi, p2p, MPI_SIZES)

ParameterizedTest(int *n, mpi, p2p, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_p2p"), "mpi_p2p", NULL);
}

RUN_SIZES(mpi, poll, 2, 3, 5, 16)

/* Waiting by polling MPI_Test*, MPI_Iprobe, MPI_Improbe, MPI_Request_get_status with more
 * ranks than cores (issue 34): every loop ends (before the fix, n = 3 took 9 s and n = 16
 * met the program's 60 s watchdog) with exact results. */
ParameterizedTest(int *n, mpi, poll, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_poll"), "mpi_poll", NULL);
}

RUN_SIZES(mpi, coll_blocking, MPI_SIZES)

ParameterizedTest(int *n, mpi, coll_blocking, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_coll"), "mpi_coll blocking", "blocking");
}

RUN_SIZES(mpi, coll_nonblocking, MPI_SIZES)

ParameterizedTest(int *n, mpi, coll_nonblocking, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_coll"), "mpi_coll nonblocking", "nonblocking");
}

RUN_SIZES(mpi, errors_return, MPI_SIZES)

ParameterizedTest(int *n, mpi, errors_return, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_errors"), "mpi_errors", "return");
}

RUN_SIZES(mpi, vcoll_blocking, MPI_SIZES)

/* v-collectives, scans, MINLOC/MAXLOC ties, a non-commutative user op (mpi_vcoll.c). */
ParameterizedTest(int *n, mpi, vcoll_blocking, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_vcoll"), "mpi_vcoll blocking", "blocking");
}

RUN_SIZES(mpi, vcoll_nonblocking, MPI_SIZES)

ParameterizedTest(int *n, mpi, vcoll_nonblocking, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_vcoll"), "mpi_vcoll nonblocking", "nonblocking");
}

RUN_SIZES(mpi, groups, MPI_SIZES)

/* The Fortran handle conversions (mpi_f2c.c). */
RUN_SIZES(mpi, f2c, 1, 2, 3)

ParameterizedTest(int *n, mpi, f2c, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_f2c"), "mpi_f2c", NULL);
}

/* MPI_Dims_create against a brute force and MPICH's table of balanced decompositions. */
RUN_SIZES(mpi, dims, 1, 2, 4)

ParameterizedTest(int *n, mpi, dims, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_dims"), "mpi_dims", NULL);
}

/* Every handle's bytes read as an unsigned integer equal its cast to uintptr_t (mpi4py). */
RUN_SIZES(mpi, handles, 1, 2)

ParameterizedTest(int *n, mpi, handles, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_handles"), "mpi_handles", NULL);
}

/* Groups, Comm_create, Comm_compare and their error codes (mpi_groups.c). */
ParameterizedTest(int *n, mpi, groups, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_groups"), "mpi_groups", NULL);
}

RUN_SIZES(mpi, types, MPI_SIZES)

/* Indexed, hindexed, struct and resized types, Get_count/Get_elements (mpi_types.c). */
ParameterizedTest(int *n, mpi, types, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_types"), "mpi_types", NULL);
}

/* MPI_BOTTOM with types of absolute addresses in every call family (mpi_bottom.c). */
RUN_SIZES(mpi, bottom, 1, 2, 4)

ParameterizedTest(int *n, mpi, bottom, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_bottom"), "mpi_bottom", NULL);
}

/* Invalid arguments under MPI_ERRORS_RETURN: aliased collective buffers, NULL outputs,
 * Cart_create too large, compare-and-swap types, Bsend too large, truncation's status
 * (mpi_errors_args.c); every rank still in step after each. */
RUN_SIZES(mpi, errors_args, 1, 2, 4)

ParameterizedTest(int *n, mpi, errors_args, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_errors_args"), "mpi_errors_args", NULL);
}

/* The default handler: the job ends with the error class as its status, one message naming
 * the call, the rank and the error, one saying how to get the code returned instead. */
typedef struct fatal_case {
    const char *call;
    int cls;
    const char *error;
} fatal_case_t;

static const fatal_case_t fatal_cases[] = {
    {"MPI_Send", 6, "MPI_ERR_RANK: invalid rank"},
    {"MPI_Sendrecv", 15, "MPI_ERR_TRUNCATE: message truncated: receive buffer too small"},
    {"MPI_Comm_split", 13, "MPI_ERR_ARG: invalid argument"},
    {"MPI_Group_incl", 6, "MPI_ERR_RANK: invalid rank"},
};

static void fatal(const fatal_case_t *c, int n)
{
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, n, MPIPROG("mpi_errors"), "fatal", c->call, NULL);
    expect_exit(r, c->cls);
    char line[256], how[256];
    snprintf(line, sizeof line, "rmp: %s on rank %d: %s", c->call, n > 1 ? 1 : 0, c->error);
    snprintf(how, sizeof how, "rmp: MPI_ERRORS_ARE_FATAL ends the job; after "
             "MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN) %s returns %d instead",
             c->call, c->cls);
    expect_line(r, err, line, 1);
    expect_line(r, err, how, 1);
    expect_no_fail(r);
    cr_assert_eq(count_prefix(r.out, "mpi_errors: rank"), 0, "a rank finished:\n%s", r.out);
    expect_clean(r);
    run_free(&r);
}

Test(mpi, errors_are_fatal_by_default_n1, .timeout = 100)
{
    for (size_t i = 0; i < sizeof fatal_cases / sizeof fatal_cases[0]; i++)
        fatal(&fatal_cases[i], 1);
}

Test(mpi, errors_are_fatal_by_default_n3, .timeout = 100)
{
    for (size_t i = 0; i < sizeof fatal_cases / sizeof fatal_cases[0]; i++)
        fatal(&fatal_cases[i], 3);
}
