/* test_fortran.c — the Fortran bindings (fortran/, mk/fortran.mk, mk/f08.mk): the tests/fortran programs,
 * built with rmpifort as a user builds them, under mrun at n = 1, 2, 4, each checking exact
 * values itself ("FAIL" lines, "<prog>: rank R OK"); `use mpi` refusing a wrong argument list
 * at compile time; rmpifort's queries. Skipped, saying why, when rmp was built without a
 * Fortran compiler (make defines RMP_TEST_FORTRAN, the programs' directory, only when it
 * builds them). */
#include <unistd.h>

#include "run.h"

#ifndef RMP_TEST_BINDIR
#error "build with -DRMP_TEST_BINDIR=<the variant's bin directory> (the Makefile does)"
#endif

#ifdef RMP_TEST_FORTRAN
#define FPROG(name) RMP_TEST_FORTRAN "/" name
#define NEED_FORTRAN() ((void)0)
#else
#define FPROG(name) name
#define NEED_FORTRAN()                                                                         \
    cr_skip_test("rmp was built without the Fortran bindings (no gfortran: "                  \
                 "apt-get install gfortran, then make)")
#endif

static const char *const fprogs[] = {"f_p2p", "f_coll", "f_fixed", "f_strings",
                                     "f_attr", "f_op", "f_errh", "f_types", "f_greq",
                                     "f08_p2p", "f08_sections", "f08_cb", "f_io77",
                                     "f_io", "f08_io"};
#define NFPROGS (sizeof fprogs / sizeof fprogs[0])

typedef struct fcase {
    int prog, n;
} fcase_t;

ParameterizedTestParameters(fortran, programs)
{
    static fcase_t cases[NFPROGS * 3];
    static const int ns[] = {1, 2, 4};
    for (size_t p = 0; p < NFPROGS; p++)
        for (int i = 0; i < 3; i++)
            cases[p * 3 + (size_t)i] = (fcase_t){(int)p, ns[i]};
    return cr_make_param_array(fcase_t, cases, NFPROGS * 3);
}

ParameterizedTest(fcase_t *c, fortran, programs, .timeout = 100)
{
    NEED_FORTRAN();
    char path[512];
    snprintf(path, sizeof path, "%s", FPROG(""));
    snprintf(path + strlen(path), sizeof path - strlen(path), "%s", fprogs[c->prog]);
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, c->n, path, NULL);
    expect_ranks_ok(r, fprogs[c->prog], c->n);
    run_free(&r);
}

/* Writes a Fortran source to a temporary file; returns its path (static storage). */
static const char *write_source(const char *text)
{
    static char path[] = "/tmp/rmp-ftest-XXXXXX.f90";
    int fd = mkstemps(path, 4);
    cr_assert(fd >= 0, "mkstemps failed");
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* `use mpi` has explicit interfaces: MPI_Send without its ierror does not compile (mpif.h,
 * without interfaces, would take it and crash at run time). */
Test(fortran, use_mpi_wrong_argument_count, .timeout = 100)
{
    NEED_FORTRAN();
    const char *src = write_source("program bad\n  use mpi\n  integer :: buf(1)\n"
                                   "  call MPI_Send(buf, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD)\n"
                                   "end program bad\n");
    const char *const argv[] = {RMP_TEST_BINDIR "/rmpifort", "-c", "-o", "/dev/null", src, NULL};
    run_opts_t o = {.limit = 60};
    run_result_t r = run_cmd(&o, argv);
    unlink(src);
    cr_expect_neq(r.code, 0, "a wrong argument count compiled:\n%s", r.err);
    cr_expect(strstr(r.err, "MPI_Send") || strstr(r.err, "mpi_send"), "no error about MPI_Send:\n%s",
              r.err);
    run_free(&r);
}

/* `use mpi_f08` has typed handles: an INTEGER where TYPE(MPI_Comm) belongs does not compile
 * (the same call with MPI_COMM_WORLD and no ierror does: checked by f08_p2p). */
Test(fortran, use_mpi_f08_typed_handles, .timeout = 100)
{
    NEED_FORTRAN();
    const char *src = write_source("program bad\n  use mpi_f08\n  integer :: buf(1)\n"
                                   "  call MPI_Send(buf, 1, MPI_INTEGER, 0, 0, 0)\n"
                                   "end program bad\n");
    const char *const argv[] = {RMP_TEST_BINDIR "/rmpifort", "-c", "-o", "/dev/null", src, NULL};
    run_opts_t o = {.limit = 60};
    run_result_t r = run_cmd(&o, argv);
    unlink(src);
    cr_expect_neq(r.code, 0, "an INTEGER communicator compiled:\n%s", r.err);
    cr_expect(strstr(r.err, "MPI_Send") || strstr(r.err, "mpi_send"), "no error about MPI_Send:\n%s",
              r.err);
    run_free(&r);
}

/* rmpifort answers the queries build tools ask of mpifort: the module directory, the libraries. */
Test(fortran, rmpifort_showme, .timeout = 60)
{
    NEED_FORTRAN();
    const char *const argv[] = {RMP_TEST_BINDIR "/rmpif90", "--showme:link", NULL};
    run_opts_t o = {.limit = 30};
    run_result_t r = run_cmd(&o, argv);
    cr_expect_eq(r.code, 0);
    cr_expect(strstr(r.out, "-lrmp-mpifort -lrmp-mpi -lrmp"), "link flags: %s", r.out);
    run_free(&r);
    const char *const argv2[] = {RMP_TEST_BINDIR "/rmpifort", "--showme:incdirs", NULL};
    r = run_cmd(&o, argv2);
    cr_expect_eq(r.code, 0);
    char mod[600];
    snprintf(mod, sizeof mod, "%.*s/mpi.mod", (int)strcspn(r.out, "\n"), r.out);
    cr_expect(access(mod, R_OK) == 0, "no mpi.mod at %s", mod);
    run_free(&r);
}
