/* test_pmpi.c — the profiling interface (MPI-3.1 14.2): a tool's MPI_X (tests/packaging/
 * pmpi_counter.c: counts, then calls PMPI_X) replaces rmp's whether it is linked ahead of
 * librmp-mpi.so, preloaded, or linked as an object with librmp-mpi.a; it sees exactly the
 * program's own calls (tests/mpi/mpi_pmpi.c), none of those the MPI layer makes to itself; and
 * the libraries are built that way (tests/packaging/pmpi-check.sh). */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>

#if !defined(RMP_TEST_MPIPROGS) || !defined(RMP_TEST_SRCDIR) || !defined(RMP_TEST_LIBDIR) ||   \
    !defined(RMP_TEST_CC)
#error "build with -DRMP_TEST_MPIPROGS, _SRCDIR, _LIBDIR, _CC (the Makefile does)"
#endif
/* The Makefile builds the profiled programs beside tests/mpi. */
#define PMPIDIR RMP_TEST_MPIPROGS "/../pmpi"

/* What pmpi_counter prints at MPI_Finalize for mpi_pmpi's calls (its header comment). */
#define COUNTS                                                                                 \
    "Init=1 Init_thread=0 Finalize=1 Comm_rank=1 Comm_size=1 Send=4 Recv=3 Isend=2 Irecv=2 "   \
    "Wait=2 Waitall=1 Sendrecv=5 Sendrecv_replace=2 Bcast=1 Reduce=1 Allreduce=4 Barrier=2 "   \
    "Comm_dup=1 Comm_free=1 Error_string=1 Error_class=1 Pcontrol=1"

/* Every rank OK, and `counted` lines of the counter per rank, with exactly COUNTS. */
static void expect_counts(run_result_t *r, int n, int counted)
{
    expect_success(*r);
    for (int i = 0; i < n; i++) {
        char line[512];
        snprintf(line, sizeof line, "mpi_pmpi: rank %d OK", i);
        expect_line(*r, out, line, 1);
        snprintf(line, sizeof line, "pmpi_counter rank %d: " COUNTS, i);
        expect_line(*r, out, line, counted);
    }
    cr_expect_eq(count_prefix(r->out, "pmpi_counter "), n * counted, "counter lines:\n%s",
                 tail(r->out));
}

RUN_SIZES(pmpi, counter, 2, 3, 4)

/* -lpmpi_counter before -lrmp-mpi: the tool's MPI_X come first. */
ParameterizedTest(int *n, pmpi, counter, .timeout = 100)
{
    run_result_t r = run_mrun(&(run_opts_t){.limit = 90}, *n, PMPIDIR "/mpi_pmpi-shared", NULL);
    expect_counts(&r, *n, 1);
    run_free(&r);
}

RUN_SIZES(pmpi, counter_static, 2, 3, 4)

/* The tool as an object linked with librmp-mpi.a: its strong MPI_X over rmp's weak ones. */
ParameterizedTest(int *n, pmpi, counter_static, .timeout = 100)
{
    run_result_t r = run_mrun(&(run_opts_t){.limit = 90}, *n, PMPIDIR "/mpi_pmpi-static", NULL);
    expect_counts(&r, *n, 1);
    run_free(&r);
}

RUN_SIZES(pmpi, counter_preload, 2, 3, 4)

/* The program built plainly runs unprofiled, then with the tool preloaded into the ranks only
 * (through env, not into mrun). Under ASan the preloaded library comes before the sanitizer's
 * runtime, which ASan must be told to accept. */
ParameterizedTest(int *n, pmpi, counter_preload, .timeout = 150)
{
    run_result_t plain = run_mrun(&(run_opts_t){.limit = 60}, *n,
                                  RMP_TEST_MPIPROGS "/mpi_pmpi", NULL);
    expect_counts(&plain, *n, 0);
    run_free(&plain);

    const char *asan = getenv("ASAN_OPTIONS");
    char asan_env[1024];
    snprintf(asan_env, sizeof asan_env, "ASAN_OPTIONS=%s%sverify_asan_link_order=0",
             asan ? asan : "", asan && *asan ? ":" : "");
    const char *env[] = {asan_env, NULL};
    run_result_t r = run_mrun(&(run_opts_t){.limit = 60, .env = env}, *n, "/usr/bin/env",
                              "LD_PRELOAD=" PMPIDIR "/libpmpi_counter.so",
                              RMP_TEST_MPIPROGS "/mpi_pmpi", NULL);
    expect_counts(&r, *n, 1);
    run_free(&r);
}

/* An error raised under MPI_ERRORS_ARE_FATAL names the call the user made (MPI_Send), not
 * the PMPI_ name the layer's code is compiled under; with the tool linked too. */
Test(pmpi, fatal_error_names_the_mpi_call, .timeout = 60)
{
    run_result_t r = run_mrun(&(run_opts_t){.limit = 50}, 2, PMPIDIR "/mpi_pmpi-static",
                              "fatal", NULL);
    cr_expect_neq(r.code, 0, "the job must fail");
    cr_expect(!r.timed_out, "hung");
    expect_like(r, err, "rmp: MPI_Send on rank 0: MPI_ERR_RANK", "", 1);
    cr_expect_null(strstr(r.err, "PMPI_"), "stderr names PMPI_:\n%s", tail(r.err));
    run_free(&r);
}

/* pmpi.h up to date (as committed too), no MPI_ reference inside librmp-mpi, MPI_X weak over
 * PMPI_X in librmp-mpi.a. */
Test(pmpi, libraries_and_header, .timeout = 60)
{
    const char *argv[] = {RMP_TEST_SRCDIR "/tests/packaging/pmpi-check.sh", RMP_TEST_CC,
                          RMP_TEST_SRCDIR, RMP_TEST_LIBDIR, NULL};
    run_result_t r = run_cmd(&(run_opts_t){.limit = 50}, argv);
    expect_success(r);
    expect_like(r, out, "pmpi-check: ", "; OK", 1);
    run_free(&r);
}

/* api/mpi.api valid, mpi_proto.h generated from it (as committed too), no MPI_ prototype of
 * the description written by hand in another header. */
Test(pmpi, api_description, .timeout = 60)
{
    const char *argv[] = {RMP_TEST_SRCDIR "/tests/packaging/api-check.sh", RMP_TEST_SRCDIR, NULL};
    run_result_t r = run_cmd(&(run_opts_t){.limit = 50}, argv);
    expect_success(r);
    expect_like(r, out, "api-check: ", "; OK", 1);
    run_free(&r);
}
