/* test_comm_threads.c — RMP_THREAD_MULTIPLE communicator creation (tests/progs/comm_threads):
 * 3 threads per rank dup and split different parents at the same time, 200 times each, and
 * check that no two communicators share a context; then the ids run out with a clear error.
 * The suite is named thread_comm so that the TSan run of `make check` (thread*) takes it. */
#include "run.h"

static void comm_threads(int n, const char *threads, const char *iters)
{
    run_opts_t o = {.limit = 240};
    run_result_t r = run_mrun(&o, n, PROG("comm_threads"), threads, iters, NULL);
    expect_success(r);
    char line[128];
    snprintf(line, sizeof line, "comm_threads: OK n=%d threads=%s iterations=%s", n, threads,
             iters);
    expect_line(r, out, line, 1);
    /* every rank says why its last dup failed */
    int said = 0;
    for (const char *p = r.err; (p = strstr(p, "no context id free in common")); p++)
        said++;
    cr_assert_eq(said, n, "expected %d explanations of the exhausted ids, found %d:\n%s", n,
                 said, tail(r.err));
    run_free(&r);
}

RUN_SIZES(thread_comm, concurrent_create_n2_to_4, 2, 3, 4)

ParameterizedTest(int *n, thread_comm, concurrent_create_n2_to_4, .timeout = 300)
{
    comm_threads(*n, "3", "200");
}

Test(thread_comm, four_threads_n4, .timeout = 300)
{
    comm_threads(4, "4", "100");
}
