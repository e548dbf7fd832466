/* test_mpi_ccreate.c — the MPI programs of info objects, names and hints (tests/mpi/mpi_info.c)
 * and of the MPI-3 communicator creations (tests/mpi/mpi_ccreate.c: Comm_create_group,
 * Comm_idup, Comm_dup_with_info) under mrun at MPI_SIZES (run.h), and their threaded forms (with
 * intercommunicators: tests/mpi/mpi_icreate_threads.c); each program checks exact values
 * itself and prints "<prog>: rank R OK" when nothing failed. */
#include "run.h"


RUN_SIZES(mpi_ccreate, info, MPI_SIZES)

/* The arguments are what MPI_INFO_ENV's "argv" must show. */
ParameterizedTest(int *n, mpi_ccreate, info, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_info"), "first", "second", NULL);
    expect_ranks_ok(r, "mpi_info", *n);
    run_free(&r);
}

RUN_SIZES(mpi_ccreate, create, MPI_SIZES)

ParameterizedTest(int *n, mpi_ccreate, create, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_ccreate"), NULL);
    expect_ranks_ok(r, "mpi_ccreate", *n);
    run_free(&r);
}

RUN_SIZES(mpi_ccreate, idup_inter, 2, 3, 4, 5, 9)

/* MPI_Comm_idup of intercommunicators, where a blocking one deadlocks (one group's next step
 * is matched by the other only before its idup), at even, odd and one-sided group sizes. */
ParameterizedTest(int *n, mpi_ccreate, idup_inter, .timeout = 100)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_ccreate"), "inter", NULL);
    expect_ranks_ok(r, "mpi_ccreate", *n);
    run_free(&r);
}

RUN_SIZES(mpi_ccreate, threads, MPI_SIZES)

/* 4 threads per rank creating communicators at once (MPI_THREAD_MULTIPLE). */
ParameterizedTest(int *n, mpi_ccreate, threads, .timeout = 160)
{
    run_opts_t o = {.limit = 150};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_ccreate_threads"), NULL);
    expect_ranks_ok(r, "mpi_ccreate_threads", *n);
    run_free(&r);
}

ParameterizedTestParameters(mpi_ccreate, intercomm_threads)
{
    /* n = 2 hung in 3 of 126 runs until two intercommunicator creations could no longer tie
     * on their agreement key (collectives/ctxid.h's `who`) */
    static int ns[] = {2, 3, 4};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

/* 4 threads per rank creating intercommunicators while others dup (MPI_THREAD_MULTIPLE):
 * before the groups agreed on the creation's priority (collectives/ctxid.c), every size
 * livelocked until the watchdog. */
ParameterizedTest(int *n, mpi_ccreate, intercomm_threads, .timeout = 120)
{
    run_opts_t o = {.limit = 100};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_icreate_threads"), NULL);
    expect_ranks_ok(r, "mpi_icreate_threads", *n);
    run_free(&r);
}
