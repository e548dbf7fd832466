/* test_mpi_wrappers.c — build systems find rmp through its wrappers as they find Open MPI or
 * MPICH: CMake's FindMPI, given only MPI_C_COMPILER=rmpcc and MPI_CXX_COMPILER=rmpicxx,
 * configures and builds a C and a C++ program, which then run under mrun
 * (tests/packaging/cmake-findmpi.sh; skipped where cmake is not installed). The wrappers'
 * --showme:* and -compile-info answers themselves are checked by tests/packaging/rmpcc.sh. */
#include "run.h"

#include <errno.h>
#include <stdlib.h>

#if !defined(RMP_TEST_SRCDIR) || !defined(RMP_TEST_LIBDIR) || !defined(RMP_TEST_BINDIR) ||    \
    !defined(RMP_TEST_CC) || !defined(RMP_TEST_CXX) || !defined(RMP_TEST_LDFLAGS)
#error "build with -DRMP_TEST_SRCDIR, _LIBDIR, _BINDIR, _CC, _CXX, _LDFLAGS (the Makefile does)"
#endif

static void remove_tree(const char *dir)
{
    const char *argv[] = {"/bin/rm", "-rf", dir, NULL};
    run_result_t r = run_cmd(&(run_opts_t){.limit = 30}, argv);
    run_free(&r);
}

Test(mpi_wrappers, cmake_findmpi_builds_c_and_cxx_then_they_run_n3, .timeout = 400)
{
    char dir[] = "/tmp/rmp-findmpi.XXXXXX";
    cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
    const char *argv[] = {RMP_TEST_SRCDIR "/tests/packaging/cmake-findmpi.sh",
                          RMP_TEST_CC,
                          RMP_TEST_CXX,
                          RMP_TEST_SRCDIR,
                          RMP_TEST_BINDIR,
                          RMP_TEST_LIBDIR,
                          dir,
                          RMP_TEST_LDFLAGS,
                          NULL};
    run_result_t build = run_cmd(&(run_opts_t){.limit = 300}, argv);
    if (build.code == 0 && count_prefix(build.out, "cmake-findmpi: SKIP") == 1) {
        char why[256] = "";
        find_prefix(build.out, "cmake-findmpi: SKIP", why, sizeof why);
        run_free(&build);
        remove_tree(dir);
        cr_skip_test("%s", why);
    }
    char c_prog[sizeof dir + 32], cxx_prog[sizeof dir + 32];
    snprintf(c_prog, sizeof c_prog, "%s/build/hello", dir);
    snprintf(cxx_prog, sizeof cxx_prog, "%s/build/hellocxx", dir);
    run_result_t rc = {0}, rcxx = {0};
    if (build.code == 0) {
        rc = run_mrun(&(run_opts_t){.limit = 30}, 3, c_prog, NULL);
        rcxx = run_mrun(&(run_opts_t){.limit = 30}, 3, cxx_prog, NULL);
    }
    remove_tree(dir);
    expect_success(build);
    expect_line(build, out, "cmake-findmpi: OK", 1);
    expect_success(rc);
    expect_success(rcxx);
    for (int i = 0; i < 3; i++) {
        char line[64];
        snprintf(line, sizeof line, "mpi hello from rank %d of 3 ", i);
        expect_like(rc, out, line, "", 1);
        snprintf(line, sizeof line, "mpi c++ rank %d of 3: OK", i);
        expect_line(rcxx, out, line, 1);
    }
    run_free(&build);
    run_free(&rc);
    run_free(&rcxx);
}
