/* test_mpi_osu.c — what the OSU micro-benchmarks need of the MPI layer (issue 12), through
 * programs of tests/mpi built with rmpcc: topologies and neighbourhood collectives
 * (mpi_neighbor.c) and the run-time behaviours OSU relies on (mpi_osu.c) at MPI_SIZES (run.h)
 * against serial references, exiting without MPI_Finalize (mpi_nofinalize.c), and the C++ driver
 * rmpicxx linking what rmpcc -c compiled. */
#include <unistd.h>

#include "rmp.h"
#include "run.h"

/* Every rank printed "<prog>: rank R OK", nothing failed, nothing left behind. */
static void run_ok(int n, const char *prog, const char *label, const char *arg)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, n, prog, arg, NULL);
    expect_ranks_ok(r, label, n);
    run_free(&r);
}

RUN_SIZES(mpi_osu, neighbor, MPI_SIZES)

/* A ring and an irregular graph, periodic and open 2-D grids: every neighbourhood collective,
 * the topology queries and their error codes. */
ParameterizedTest(int *n, mpi_osu, neighbor, .timeout = 200)
{
    run_ok(*n, MPIPROG("mpi_neighbor"), "mpi_neighbor blocking", "blocking");
    run_ok(*n, MPIPROG("mpi_neighbor"), "mpi_neighbor nonblocking", "nonblocking");
}

RUN_SIZES(mpi_osu, behaviours, MPI_SIZES)

/* Type names (from threads too), windows, MPI_IN_PLACE and NULL buffers as OSU passes them,
 * zero reduce_scatter counts, MPI_Wait after MPI_Test, 400 live split communicators
 * (mpi_osu.c). */
ParameterizedTest(int *n, mpi_osu, behaviours, .timeout = 100)
{
    run_ok(*n, MPIPROG("mpi_osu"), "mpi_osu", NULL);
}

RUN_SIZES(mpi_osu, exit_without_finalize, 1, 2, 4)

/* Returning 0 from main without MPI_Finalize (after MPI_THREAD_MULTIPLE threads, or after a
 * forked helper exit(0)ed, too) is a success; exit(3) without it still ends the job with
 * status 3, the failed rank named. */
ParameterizedTest(int *n, mpi_osu, exit_without_finalize, .timeout = 200)
{
    run_ok(*n, MPIPROG("mpi_nofinalize"), "mpi_nofinalize", "return");
    run_ok(*n, MPIPROG("mpi_nofinalize"), "mpi_nofinalize", "threads");
    run_ok(*n, MPIPROG("mpi_nofinalize"), "mpi_nofinalize", "fork");
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, *n, MPIPROG("mpi_nofinalize"), "exit3", NULL);
    expect_exit(r, 3);
    expect_like(r, err, "mrun: rank ", " exited with status 3; terminating the job", 1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

#if !defined(RMP_TEST_BINDIR) || !defined(RMP_TEST_CXX)
#error "build with -DRMP_TEST_BINDIR=<bin directory> -DRMP_TEST_CXX=<rmpicxx's compiler> (the Makefile does)"
#endif

/* OSU's build path: C objects from `rmpcc -c` linked by `rmpicxx`, and mpi.h as C++
 * (tests/packaging/rmpicxx.sh); then both programs run. */
Test(mpi_osu, rmpicxx_links_c_objects_n2, .timeout = 200)
{
    char dir[] = "/tmp/rmp-rmpicxx.XXXXXX";
    cr_assert_not_null(mkdtemp(dir), "mkdtemp failed");
    const char *argv[] = {RMP_TEST_SRCDIR "/tests/packaging/rmpicxx.sh", RMP_TEST_CXX,
                          RMP_TEST_SRCDIR, RMP_TEST_LIBDIR, RMP_TEST_BINDIR, dir,
                          RMP_TEST_LDFLAGS, NULL};
    run_result_t build = run_cmd(&(run_opts_t){.limit = 150}, argv);
    char hello[sizeof dir + 32], cxx[sizeof dir + 32], obj[sizeof dir + 32];
    snprintf(hello, sizeof hello, "%s/hello-cxx", dir);
    snprintf(cxx, sizeof cxx, "%s/cxx-src", dir);
    snprintf(obj, sizeof obj, "%s/hello.o", dir);
    run_result_t r1 = {0}, r2 = {0};
    if (build.code == 0) {
        r1 = run_mrun(&(run_opts_t){.limit = 30}, 2, hello, NULL);
        r2 = run_mrun(&(run_opts_t){.limit = 30}, 2, cxx, NULL);
    }
    unlink(hello);
    unlink(cxx);
    unlink(obj);
    rmdir(dir);
    expect_success(build);
    expect_line(build, out, "rmpicxx: OK", 1);
    expect_success(r1);
    expect_line(r1, out,
                "mpi hello from rank 1 of 2 (rmp " RMP_VERSION_STRING
                " (MPI 3.1 subset through rmp/mpi.h))", 1);
    expect_success(r2);
    expect_line(r2, out, "mpi c++ rank 0 of 2: OK", 1);
    expect_line(r2, out, "mpi c++ rank 1 of 2: OK", 1);
    run_free(&r1);
    run_free(&r2);
    run_free(&build);
}
