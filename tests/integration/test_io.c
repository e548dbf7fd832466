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

static const char *const progress_thread[] = {"RMP_PROGRESS_THREAD=1", NULL};

RUN_SIZES(io, nbc, 1, 2, 4)

/* nonblocking collective I/O computed over: the same bytes as blocking, several outstanding
 * on one file and on two, completed out of order and by Test loops, split collectives */
ParameterizedTest(int *n, io, nbc, .timeout = 150)
{
    run_ok(*n, "mpi_io_nbc");
}

RUN_SIZES(io, nbc_thread, 1, 2, 4)

/* the same with the progress thread, which runs the schedules by itself */
ParameterizedTest(int *n, io, nbc_thread, .timeout = 150)
{
    run_mpi_ok(*n, "mpi_io_nbc", NULL, NULL, progress_thread, 120);
}
