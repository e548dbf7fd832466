/* mpicheck.h — what the MPI-style test programs share: one "FAIL rank R: ..." line per
 * problem, MPI calls that must succeed, an alarm that ends a hung program, and the exact
 * expected values. Uses only mpi.h: these programs are built with rmpcc as a user would. */
#ifndef RMP_TEST_MPICHECK_H
#define RMP_TEST_MPICHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Weak, not static: a program built from several files (tests/mpi/<prog>/) counts its
 * failures once; the linker keeps one definition. */
__attribute__((weak)) int mc_rank = -1;
__attribute__((weak)) int mc_failures;

#define FAIL(...)                                                                              \
    do {                                                                                       \
        printf("FAIL rank %d: ", mc_rank);                                                     \
        printf(__VA_ARGS__);                                                                   \
        printf("\n");                                                                          \
        fflush(stdout);                                                                        \
        mc_failures++;                                                                         \
    } while (0)

/* An MPI call that must return MPI_SUCCESS (under MPI_ERRORS_RETURN; the default handler
 * would have ended the job already). */
#define CHECK(call)                                                                            \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != MPI_SUCCESS)                                                                \
            FAIL("%s:%d: %s returned %d", __FILE__, __LINE__, #call, rc_);                     \
    } while (0)

#define EXPECT_INT(got, want)                                                                  \
    do {                                                                                       \
        long long g_ = (long long)(got), w_ = (long long)(want);                               \
        if (g_ != w_)                                                                          \
            FAIL("%s:%d: %s is %lld, expected %lld", __FILE__, __LINE__, #got, g_, w_);        \
    } while (0)

/* A call in its blocking form B, or its nonblocking form I completed at once by MPI_Wait, as
 * the program's nb says: MC_COLL(nb, MPI_Bcast, MPI_Ibcast, buf, n, MPI_INT, 0, comm). */
#define MC_COLL(nb, B, I, ...)                                                                 \
    do {                                                                                       \
        if (nb) {                                                                              \
            MPI_Request r_ = MPI_REQUEST_NULL;                                                 \
            CHECK(I(__VA_ARGS__, &r_));                                                        \
            CHECK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                           \
        } else {                                                                               \
            CHECK(B(__VA_ARGS__));                                                             \
        }                                                                                      \
    } while (0)

/* No test program may hang: SIGALRM's default action ends it (and mrun reports it). */
static inline void mc_watchdog(unsigned seconds)
{
    alarm(seconds);
}

/* The start of most programs: the watchdog, MPI_Init, errors returned on MPI_COMM_WORLD (so
 * that CHECK reports them), mc_rank set. */
static inline void mc_init(int *argc, char ***argv, unsigned seconds)
{
    mc_watchdog(seconds);
    MPI_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank);
}

/* mc_init, then the size of MPI_COMM_WORLD (the rank is mc_rank). */
static inline int mc_init_size(int *argc, char ***argv, unsigned seconds)
{
    int size = 0;
    mc_init(argc, argv, seconds);
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    return size;
}

/* "<prog>: rank R OK" when nothing failed; the status for main to return. */
static inline int mc_done(const char *prog)
{
    if (mc_failures == 0)
        printf("%s: rank %d OK\n", prog, mc_rank);
    fflush(stdout);
    return mc_failures ? 1 : 0;
}

#endif
