/* test_io.c — the MPI-IO programs (tests/mpi/mpi_io*.c) under mrun at n = 1, 2, 4: each
 * checks the file's bytes against a serial reference itself (a "FAIL" line per problem,
 * "<prog>: rank R OK" at the end). */
#include "run.h"

static void run_ok(int n, const char *prog)
{
    run_mpi_ok(n, prog, NULL, NULL, NULL, 120);
}

RUN_SIZES(io, files, 1, 2, 4)

/* open's access modes, close, delete, sizes, group, hints reported, error handlers, the I/O
 * error classes (no such file, exists, read-only, access, no space on a small tmpfs) */
ParameterizedTest(int *n, io, files, .timeout = 150)
{
    run_ok(*n, "mpi_io");
}

RUN_SIZES(io, access, 1, 2, 4)

/* every positioning x blocking / nonblocking / collective / split, status counts, MPI_BOTTOM */
ParameterizedTest(int *n, io, access, .timeout = 150)
{
    run_ok(*n, "mpi_io_rw");
}

RUN_SIZES(io, views, 1, 2, 4)

/* vector, subarray, darray and negative-lb views, get_view, external32 byte for byte, a
 * registered datarep, atomic mode with overlapping writers */
ParameterizedTest(int *n, io, views, .timeout = 150)
{
    run_ok(*n, "mpi_io_view");
}
