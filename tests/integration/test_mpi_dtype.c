/* test_mpi_dtype.c — the datatype constructors, decoding and packing programs (tests/mpi/
 * mpi_dtype.c, mpi_pack.c) under mrun at n = 1..8: each checks exact values itself (a "FAIL"
 * line per problem, "<prog>: rank R OK" at the end). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif
#define MPIPROG(name) RMP_TEST_MPIPROGS "/" name

static void run_ok(int n, const char *prog)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, prog);
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, n, path, NULL);
    expect_ranks_ok(r, prog, n);
    run_free(&r);
}

ParameterizedTestParameters(mpi_dtype, constructors)
{
    static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

/* hvector, indexed_block, hindexed_block, subarray, darray, dup, envelope and contents, true
 * extent, _x, MPI-1 names, get_elements of partial messages, error classes */
ParameterizedTest(int *n, mpi_dtype, constructors, .timeout = 100)
{
    run_ok(*n, "mpi_dtype");
}

ParameterizedTestParameters(mpi_dtype, pack)
{
    static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

/* Pack/Unpack/Pack_size, MPI_PACKED messages, external32, MPI_BOTTOM, error classes */
ParameterizedTest(int *n, mpi_dtype, pack, .timeout = 100)
{
    run_ok(*n, "mpi_pack");
}

ParameterizedTestParameters(mpi_dtype, edge)
{
    static int ns[] = {1, 2};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

/* Issue 33: an indexed type with an empty first block (packed, sent, broadcast), counts above
 * INT_MAX, handles reused by the hundred thousand */
ParameterizedTest(int *n, mpi_dtype, edge, .timeout = 150)
{
    run_ok(*n, "mpi_dtype_edge");
}
