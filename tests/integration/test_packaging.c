/* test_packaging.c — the library as users build against it: only the API is exported (a
 * program may define any name the library uses inside), pkg-config --static links librmp.a,
 * install/uninstall leave nothing of rmp behind, and make without the packages says what to
 * do. The checks themselves are the scripts in tests/packaging/. */
#include "rmp.h"
#include "run.h"

#include <errno.h>
#include <unistd.h>

#if !defined(RMP_TEST_SRCDIR) || !defined(RMP_TEST_LIBDIR) || !defined(RMP_TEST_VARIANT) ||    \
    !defined(RMP_TEST_CC) || !defined(RMP_TEST_LDFLAGS)
#error "build with -DRMP_TEST_SRCDIR, _LIBDIR, _VARIANT, _CC, _LDFLAGS (the Makefile does)"
#endif

#define SCRIPT(name) RMP_TEST_SRCDIR "/tests/packaging/" name

/* Runs a self-checking script of tests/packaging: it exits 0 and prints `ok_line`. */
static void expect_script(const char *const argv[], const char *ok_line, double limit)
{
    run_opts_t o = {.limit = limit};
    run_result_t r = run_cmd(&o, argv);
    expect_success(r);
    expect_line(r, out, ok_line, 1);
    run_free(&r);
}

Test(packaging, exports_exactly_the_declared_api, .timeout = 60)
{
    const char *argv[] = {SCRIPT("check-exports.sh"), RMP_TEST_CC, RMP_TEST_LIBDIR,
                          RMP_TEST_SRCDIR "/include/rmp.h", NULL};
    run_opts_t o = {.limit = 50};
    run_result_t r = run_cmd(&o, argv);
    expect_success(r);
    expect_like(r, out, "exports: librmp.so ", "", 1);
    run_free(&r);
}

/* clash-static / clash-shared define every internal name of the library (the Makefile
 * generates the list from the objects); the job must not notice. */
static void clash(const char *prog)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 2, prog, NULL);
    expect_success(r);
    expect_line(r, out, "clash: rank 0 OK", 1);
    expect_line(r, out, "clash: rank 1 OK", 1);
    run_free(&r);
}

Test(packaging, program_defining_every_internal_name_static_n2, .timeout = 30)
{
    clash(PROG("clash-static"));
}

Test(packaging, program_defining_every_internal_name_shared_n2, .timeout = 30)
{
    clash(PROG("clash-shared"));
}

/* examples/hello.c linked from `pkg-config --static` output with librmp.a, then run. */
Test(packaging, pkg_config_static_links_hello_n2, .timeout = 120)
{
    char dir[] = "/tmp/rmp-static.XXXXXX";
    cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
    char exe[sizeof dir + 16];
    snprintf(exe, sizeof exe, "%s/hello", dir);

    const char *argv[] = {SCRIPT("static-link.sh"),     RMP_TEST_CC, RMP_TEST_LIBDIR "/pkgconfig",
                          RMP_TEST_SRCDIR "/examples/hello.c", exe, RMP_TEST_LDFLAGS, NULL};
    run_opts_t o = {.limit = 100};
    run_result_t link = run_cmd(&o, argv);
    run_result_t r = {0};
    if (link.code == 0)
        r = run_mrun(&(run_opts_t){.limit = 20}, 2, exe, NULL);
    unlink(exe);
    rmdir(dir);
    expect_success(link);
    expect_line(link, out, "static-link: OK", 1);
    expect_success(r);
    expect_line(r, out, "hello from rank 0 of 2", 1);
    expect_line(r, out, "hello from rank 1 of 2", 1);
    run_free(&link);
    run_free(&r);
}

Test(packaging, install_then_uninstall_leaves_no_file, .timeout = 120)
{
    const char *argv[] = {SCRIPT("install-uninstall.sh"), RMP_TEST_SRCDIR, RMP_TEST_VARIANT, NULL};
    expect_script(argv, "install-uninstall: OK", 100);
}

Test(packaging, make_without_packages_says_make_deps, .timeout = 120)
{
    const char *argv[] = {SCRIPT("missing-deps.sh"), RMP_TEST_SRCDIR, RMP_TEST_VARIANT, NULL};
    expect_script(argv, "missing-deps: OK", 100);
}

/* librmp-mpi exports exactly the MPI_ functions mpi.h declares: nothing of its own helpers,
 * no declared call missing (a call outside the subset has no symbol to link to). */
Test(packaging, mpi_exports_exactly_the_declared_subset, .timeout = 60)
{
    /* (mpi.h includes the headers make generates in build/include/rmp) */
    const char *argv[] = {SCRIPT("check-exports.sh"),
                          RMP_TEST_CC " -I" RMP_TEST_SRCDIR "/build/include/rmp", RMP_TEST_LIBDIR,
                          RMP_TEST_SRCDIR "/include/rmp/mpi.h", "rmp-mpi", "MPI_", NULL};
    run_opts_t o = {.limit = 50};
    run_result_t r = run_cmd(&o, argv);
    expect_success(r);
    expect_like(r, out, "exports: librmp-mpi.so ", "", 1);
    run_free(&r);
}

#ifndef RMP_TEST_BINDIR
#error "build with -DRMP_TEST_BINDIR=<the variant's bin directory> (the Makefile does)"
#endif

/* rmpcc -show / -c / -static-rmp / rmpicc, pkg-config rmp-mpi, a call outside the subset
 * refused at link time (tests/packaging/rmpcc.sh); then the programs it built run. */
Test(packaging, rmpcc_and_pkg_config_rmp_mpi_n2, .timeout = 200)
{
    char dir[] = "/tmp/rmp-rmpcc.XXXXXX";
    cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
    const char *argv[] = {SCRIPT("rmpcc.sh"), RMP_TEST_CC,     RMP_TEST_SRCDIR, RMP_TEST_LIBDIR,
                          RMP_TEST_BINDIR,    dir, RMP_TEST_LDFLAGS, NULL};
    run_result_t build = run_cmd(&(run_opts_t){.limit = 150}, argv);
    static const char *const exes[] = {"hello-shared", "hello-static", "hello-pc"};
    run_result_t runs[3] = {{0}};
    char path[3][sizeof dir + 32];
    for (int i = 0; i < 3; i++) {
        snprintf(path[i], sizeof path[i], "%s/%s", dir, exes[i]);
        if (build.code == 0)
            runs[i] = run_mrun(&(run_opts_t){.limit = 20}, 2, path[i], NULL);
    }
    const char *junk[] = {"hello-shared", "hello-static", "hello-pc", "outside", "outside.err"};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        char p[sizeof dir + 32];
        snprintf(p, sizeof p, "%s/%s", dir, junk[i]);
        unlink(p);
    }
    rmdir(dir);
    expect_success(build);
    expect_line(build, out, "rmpcc: OK", 1);
    for (int i = 0; i < 3; i++) {
        expect_success(runs[i]);
        expect_line(runs[i], out,
                    "mpi hello from rank 0 of 2 (rmp " RMP_VERSION_STRING
                    " (MPI 3.1 subset through rmp/mpi.h))", 1);
        expect_line(runs[i], out,
                    "mpi hello from rank 1 of 2 (rmp " RMP_VERSION_STRING
                    " (MPI 3.1 subset through rmp/mpi.h))", 1);
        run_free(&runs[i]);
    }
    run_free(&build);
}
