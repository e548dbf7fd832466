/* test_mpi_predef.c — the predefined datatypes and ops through mpi.h (tests/mpi/mpi_predef*.c,
 * built with rmpcc) under mrun at n = 1..8: every handle's size, extent and name, type
 * matching by size and by Fortran kind, MPI_Op_commutative, MPI_Reduce_local; and every op on
 * every type it is defined for through Reduce, Allreduce, Iallreduce and Reduce_local against
 * serial references, MPI_ERR_OP for the others. Each program checks exact values itself (a
 * "FAIL" line per problem, "<prog>: rank R OK" at the end). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif
#define MPIPROG(name) RMP_TEST_MPIPROGS "/" name

static void run_ok(int n, const char *path, const char *prog)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, n, path, NULL, NULL);
    expect_ranks_ok(r, prog, n);
    run_free(&r);
}

ParameterizedTestParameters(mpi_predef, types)
{
    static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_predef, types, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_predef"), "mpi_predef");
}

ParameterizedTestParameters(mpi_predef, ops)
{
    static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, mpi_predef, ops, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_predef_ops"), "mpi_predef_ops");
}
