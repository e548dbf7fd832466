/* test_mpi_predef.c — the predefined datatypes and ops through mpi.h (tests/mpi/mpi_predef*.c,
 * built with rmpcc) under mrun at MPI_SIZES (run.h): every handle's size, extent and name, type
 * matching by size and by Fortran kind, MPI_Op_commutative, MPI_Reduce_local; and every op on
 * every type it is defined for through Reduce, Allreduce, Iallreduce and Reduce_local against
 * serial references, MPI_ERR_OP for the others. Each program checks exact values itself (a
 * "FAIL" line per problem, "<prog>: rank R OK" at the end). */
#include "run.h"

static void run_ok(int n, const char *path, const char *prog)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, n, path, NULL, NULL);
    expect_ranks_ok(r, prog, n);
    run_free(&r);
}

RUN_SIZES(mpi_predef, types, MPI_SIZES)

ParameterizedTest(int *n, mpi_predef, types, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_predef"), "mpi_predef");
}

RUN_SIZES(mpi_predef, ops, MPI_SIZES)

ParameterizedTest(int *n, mpi_predef, ops, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_predef_ops"), "mpi_predef_ops");
}
