/* test_mpi_dtype.c — the datatype constructors, decoding and packing programs (tests/mpi/
 * mpi_dtype.c, mpi_pack.c) under mrun at MPI_SIZES (run.h): each checks exact values itself (a
 * "FAIL" line per problem, "<prog>: rank R OK" at the end). */
#include "run.h"

static void run_ok(int n, const char *prog)
{
    run_mpi_ok(n, prog, NULL, NULL, NULL, 0);
}

RUN_SIZES(mpi_dtype, constructors, MPI_SIZES)

/* hvector, indexed_block, hindexed_block, subarray, darray, dup, envelope and contents, true
 * extent, _x, MPI-1 names, get_elements of partial messages, error classes */
ParameterizedTest(int *n, mpi_dtype, constructors, .timeout = 100)
{
    run_ok(*n, "mpi_dtype");
}

RUN_SIZES(mpi_dtype, pack, MPI_SIZES)

/* Pack/Unpack/Pack_size, MPI_PACKED messages, external32, MPI_BOTTOM, error classes */
ParameterizedTest(int *n, mpi_dtype, pack, .timeout = 100)
{
    run_ok(*n, "mpi_pack");
}

RUN_SIZES(mpi_dtype, edge, 1, 2)

/* Issue 33: an indexed type with an empty first block (packed, sent, broadcast), counts above
 * INT_MAX, handles reused by the hundred thousand */
ParameterizedTest(int *n, mpi_dtype, edge, .timeout = 150)
{
    run_ok(*n, "mpi_dtype_edge");
}
