/* test_io.c — the MPI-IO programs (tests/mpi/mpi_io*.c) under mrun at n = 1, 2, 4: each
 * checks the file's bytes against a serial reference itself (a "FAIL" line per problem,
 * "<prog>: rank R OK" at the end). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif

static void run_ok(int n, const char *prog)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, prog);
    run_opts_t o = {.limit = 120};
    run_result_t r = run_mrun(&o, n, path, NULL);
    expect_ranks_ok(r, prog, n);
    run_free(&r);
}

ParameterizedTestParameters(io, files)
{
    static int ns[] = {1, 2, 4};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

/* open's access modes, close, delete, sizes, group, hints reported, error handlers, the I/O
 * error classes (no such file, exists, read-only, access, no space on a small tmpfs) */
ParameterizedTest(int *n, io, files, .timeout = 150)
{
    run_ok(*n, "mpi_io");
}

ParameterizedTestParameters(io, access)
{
    static int ns[] = {1, 2, 4};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

/* every positioning x blocking / nonblocking / collective / split, status counts, MPI_BOTTOM */
ParameterizedTest(int *n, io, access, .timeout = 150)
{
    run_ok(*n, "mpi_io_rw");
}
