/* test_mpi_rma.c — MPI's one-sided communication through mpi.h (tests/mpi/mpi_rma_*.c, built
 * with rmpcc) under mrun at MPI_SIZES (run.h): every operation under every synchronization on every
 * window flavor (mpi_rma_ops), derived datatypes on both sides, MPI_PROC_NULL and zero counts
 * (mpi_rma_dtype), the error classes on the window's handler (mpi_rma_errors), and programs
 * built on RMA (mpi_rma_apps: counter, CAS lock, linked list on a dynamic window, halo
 * exchange, shared memory), accumulates of every predefined type and op (mpi_rma_accops); ops and apps also with RMP_RMA_PATH=am, the active-message path
 * for everything. Each program checks exact values itself ("FAIL" lines, "<prog>: rank R OK"). */
#include "run.h"

static void run_ok(int n, const char *prog, const char *const *env)
{
    run_mpi_ok(n, prog, NULL, NULL, env, 0);
}

static const char *const am_env[] = {"RMP_RMA_PATH=am", NULL};

/* A test of prog (with env) at MPI_SIZES (run.h). */
#define RMA_TEST(name, prog, env)                                                              \
    RUN_SIZES(mpi_rma, name, MPI_SIZES)                                                        \
    ParameterizedTest(int *n, mpi_rma, name, .timeout = 100)                                   \
    {                                                                                          \
        run_ok(*n, prog, env);                                                                 \
    }

RMA_TEST(ops, "mpi_rma_ops", NULL)
RMA_TEST(ops_am, "mpi_rma_ops", am_env)
RMA_TEST(dtype, "mpi_rma_dtype", NULL)
RMA_TEST(errors, "mpi_rma_errors", NULL)
RMA_TEST(apps, "mpi_rma_apps", NULL)
RMA_TEST(apps_am, "mpi_rma_apps", am_env)

/* Every predefined type with every op that applies, against a serial reference (the bulk and
 * short paths of the accumulates, dynamic windows through active messages): n = 1, 2, 4 are
 * enough (one origin per target). Under RMP_RMA_PATH=am too: the pair types' elements (value,
 * hole, index) reach the target as piece lists of whole elements (issue 34). */
ParameterizedTestParameters(mpi_rma, accops)
{
    static int ns[] = {1, 2, 4};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}
ParameterizedTest(int *n, mpi_rma, accops, .timeout = 200)
{
    run_ok(*n, "mpi_rma_accops", NULL);
}
Test(mpi_rma, accops_am, .timeout = 200)
{
    run_ok(2, "mpi_rma_accops", am_env);
}

/* Under the default handler (MPI_ERRORS_ARE_FATAL) an RMA error ends the job, naming the call
 * and the class: a put outside an epoch. */
Test(mpi_rma, fatal_sync_error_ends_job, .timeout = 100)
{
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, 2, MPIPROG("mpi_rma_errors"), "fatal", NULL);
    expect_exit(r, 37); /* MPI_ERR_RMA_SYNC */
    cr_assert_eq(count_prefix(r.err, "rmp: MPI_Put on rank 0: "), 1, "stderr:\n%s", r.err);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}
