/* test_thread.c — RMP_THREAD_MULTIPLE with 4 threads per rank (tests/progs/threads): same and
 * different peers, wildcard sources and tags, every message exactly once. The suite name starts
 * with "thread": make check-tsan runs exactly these under ThreadSanitizer. */
#include "run.h"

static void threads(int n, const char *m, const char *const env[])
{
    run_opts_t o = {.limit = 100, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("threads"), m, NULL);
    expect_success(r);
    char line[96];
    long per_peer = atol(m);
    snprintf(line, sizeof line, "threads: OK n=%d threads=4 messages=%ld", n,
             (long)n * n * per_peer * 7);
    expect_line(r, out, line, 1);
    run_free(&r);
}

Test(thread, n1_four_threads_to_self, .timeout = 120)
{
    threads(1, "200", NULL);
}

Test(thread, n2_four_threads_each, .timeout = 120)
{
    threads(2, "200", NULL);
}

Test(thread, n3_four_threads_each, .timeout = 120)
{
    threads(3, "100", NULL);
}

Test(thread, n4_four_threads_each, .timeout = 120)
{
    threads(4, "60", NULL);
}

Test(thread, n8_oversubscribed, .timeout = 120)
{
    threads(8, "20", NULL);
}

Test(thread, n2_eager_limit_256B, .timeout = 120)
{
    const char *env[] = {"RMP_EAGER_LIMIT=256", NULL};
    threads(2, "100", env);
}

Test(thread, n2_cma_off, .timeout = 120)
{
    const char *env[] = {"RMP_CMA=0", NULL};
    threads(2, "100", env);
}

/* A thread asleep for its rank is woken by the sibling that posts its work (tests/progs/
 * thread_wake): through the shm futex (n = 2), the poll() of a rank without peers (n = 1), and
 * the progress thread's eventfd. */
static void thread_wake(int n, const char *const env[])
{
    run_opts_t o = {.limit = 60, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("thread_wake"), NULL);
    expect_success(r);
    char line[48];
    snprintf(line, sizeof line, "thread_wake: OK n=%d", n);
    expect_line(r, out, line, 1);
    run_free(&r);
}

Test(thread, sibling_wakes_sleeper_n1, .timeout = 90)
{
    thread_wake(1, NULL);
}

Test(thread, sibling_wakes_sleeper_n2, .timeout = 90)
{
    thread_wake(2, NULL);
}

Test(thread, sibling_wakes_sleeper_progress_thread_n2, .timeout = 90)
{
    const char *env[] = {"RMP_PROGRESS_THREAD=1", NULL};
    thread_wake(2, env);
}
