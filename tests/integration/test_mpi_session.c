/* test_mpi_session.c — MPI-4 sessions (tests/mpi/mpi_session.c) under mrun at n = 1 and 3:
 * psets, pset info, communicators from groups (exact allreduce values), an intercommunicator
 * from two groups (n = 3), session handlers and info, in the three ways a program mixes
 * sessions with the world model (mixed: a session outlives MPI_Finalize; only: no MPI_Init at
 * all; before: MPI_Init inside a session). */
#include "run.h"

static void run_ok(int n, const char *arg)
{
    run_mpi_ok(n, "mpi_session", NULL, arg, NULL, 60);
}

RUN_SIZES(mpi_session, modes, 1, 3)
ParameterizedTest(int *n, mpi_session, modes, .timeout = 120)
{
    run_ok(*n, "mixed");
    run_ok(*n, "only");
    run_ok(*n, "before");
}

