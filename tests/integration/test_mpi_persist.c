/* test_mpi_persist.c — MPI-4's persistent collectives and MPI_Isendrecv(_replace)
 * (tests/mpi/mpi_persist.c), and the large-count _c forms (tests/mpi/mpi_bigcount.c), under
 * mrun at MPI_SIZES (run.h): each program checks exact values itself (a "FAIL" line per problem,
 * "<prog>: rank R OK" at the end). */
#include "run.h"

/* Every rank printed "<prog>: rank R OK" and nothing failed. */

static void run_ok(int n, const char *prog, const char *arg, const char *const *env)
{
    run_mpi_ok(n, prog, NULL, arg, env, 0);
}

RUN_SIZES(mpi_persist, coll, MPI_SIZES)
/* Every persistent collective started 6 times with new data, Startall with point-to-point
 * requests, starts in different orders, error codes. */
ParameterizedTest(int *n, mpi_persist, coll, .timeout = 100)
{
    run_ok(*n, "mpi_persist", "coll", NULL);
}

RUN_SIZES(mpi_persist, coll_eager_off, MPI_SIZES)
/* The same with every message through rendezvous (eager limit 0). */
ParameterizedTest(int *n, mpi_persist, coll_eager_off, .timeout = 100)
{
    const char *env[] = {"RMP_EAGER_LIMIT=0", NULL};
    run_ok(*n, "mpi_persist", "coll", env);
}

RUN_SIZES(mpi_persist, isendrecv, MPI_SIZES)
ParameterizedTest(int *n, mpi_persist, isendrecv, .timeout = 100)
{
    run_ok(*n, "mpi_persist", "isendrecv", NULL);
}

RUN_SIZES(mpi_persist, threads, MPI_SIZES)
/* Two threads per rank, each on its own communicator, with persistent collectives and
 * isendrecv at the same time (MPI_THREAD_MULTIPLE). */
ParameterizedTest(int *n, mpi_persist, threads, .timeout = 100)
{
    run_ok(*n, "mpi_persist", "threads", NULL);
}

RUN_SIZES(mpi_persist, bigcount_small, MPI_SIZES)
/* Every _c call with counts past a limit lowered to 100 (RMPI_BIGCOUNT_LIMIT): the derived
 * types (factored and chunk struct), reductions in pieces, v-forms through alltoallw. */
ParameterizedTest(int *n, mpi_persist, bigcount_small, .timeout = 100)
{
    const char *env[] = {"RMPI_BIGCOUNT_LIMIT=100", NULL};
    run_ok(*n, "mpi_bigcount", "small", env);
    run_ok(*n, "mpi_bigcount2", NULL, env); /* the families of issue 35's 94 twins */
}

RUN_SIZES(mpi_persist, bigcount_int_path, MPI_SIZES)
/* The same calls and values with the real limit: every count takes the int path. */
ParameterizedTest(int *n, mpi_persist, bigcount_int_path, .timeout = 100)
{
    run_ok(*n, "mpi_bigcount", "small", NULL);
    run_ok(*n, "mpi_bigcount2", NULL, NULL);
}

/* One real message of 2^31 + 16 bytes, sent then broadcast back, at n = 2; skipped (a SKIP
 * line) when the machine has not 12 GiB available. */
Test(mpi_persist, bigcount_huge, .timeout = 300)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, "mpi_bigcount");
    run_opts_t o = {.limit = 280};
    run_result_t r = run_mrun(&o, 2, path, "huge", NULL);
    expect_ranks_ok(r, "mpi_bigcount", 2);
    const char *skip = strstr(r.out, "mpi_bigcount: SKIP huge:");
    if (skip) { /* not run at all: reported as skipped, with the program's reason */
        char why[256];
        snprintf(why, sizeof why, "%.*s", (int)strcspn(skip, "\n"), skip);
        run_free(&r);
        cr_skip_test("%s", why);
    }
    expect_line(r, out, "mpi_bigcount: huge: 2147483664 bytes sent and broadcast", 1);
    run_free(&r);
}
