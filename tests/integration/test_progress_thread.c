/* test_progress_thread.c — RMP_PROGRESS_THREAD=1 (tests/progs/progress): an 8 MiB rendezvous
 * and a 2 MiB iallreduce complete while the ranks compute without calling rmp, at n = 2 and 4,
 * with 4 user threads at RMP_THREAD_MULTIPLE; the thread is gone after finalize; a rank killed
 * while it sleeps still ends the job; a bad value is refused. The suite name starts with
 * "thread": make check-tsan runs these under ThreadSanitizer. */
#include "run.h"

static const char *const with_thread[] = {"RMP_PROGRESS_THREAD=1", NULL};
static const char *const without_thread[] = {"RMP_PROGRESS_THREAD=0", NULL};

/* Expects every receiver's p2p line (threads per receiver) and every rank's iallreduce line to
 * say `landed`; with check_coll false, the iallreduce lines are only counted. */
static void expect_landed(run_result_t *r, int n, int threads, const char *landed,
                          bool check_coll)
{
    char line[96];
    for (int rank = n / 2; rank < n; rank++)
        for (int t = 0; t < threads; t++) {
            snprintf(line, sizeof line, "rank %d thread %d: p2p landed during compute: %s", rank,
                     t, landed);
            expect_line(*r, out, line, 1);
        }
    for (int rank = 0; rank < n && check_coll; rank++) {
        snprintf(line, sizeof line, "rank %d: iallreduce landed during compute: %s", rank,
                 landed);
        expect_line(*r, out, line, 1);
    }
    cr_assert_eq(count_like(r->out, "rank ", ": iallreduce landed during compute: yes") +
                     count_like(r->out, "rank ", ": iallreduce landed during compute: no"),
                 n, "%s", tail(r->out));
    snprintf(line, sizeof line, "progress: OK n=%d threads=%d", n, threads);
    expect_line(*r, out, line, 1);
}

static void overlap(int n, const char *const *env, const char *threads, const char *landed,
                    bool check_coll)
{
    run_opts_t o = {.limit = 90, .env = env};
    /* With the thread, receivers compute until their data is there (10 s at most): a loaded
     * machine may give it little CPU. Without it, 1 s is plenty for the data not to come. */
    const char *max_ms = !strcmp(landed, "yes") ? "10000" : "1000";
    run_result_t r = run_mrun(&o, n, PROG("progress"), "overlap", threads, max_ms, NULL);
    expect_success(r);
    expect_landed(&r, n, atoi(threads), landed, check_coll);
    run_free(&r);
}

Test(thread_progress, overlap_n2, .timeout = 120)
{
    overlap(2, with_thread, "1", "yes", true);
}

Test(thread_progress, overlap_n4, .timeout = 120)
{
    overlap(4, with_thread, "1", "yes", true);
}

Test(thread_progress, overlap_multiple_4_threads_n2, .timeout = 120)
{
    overlap(2, with_thread, "4", "yes", true);
}

Test(thread_progress, overlap_multiple_2_threads_n4, .timeout = 120)
{
    overlap(4, with_thread, "2", "yes", true);
}

/* The control: without the thread nothing moves the receive while its rank computes (the
 * sender posts once the receiver said it computes, so no earlier rmp call can have matched
 * it). The iallreduce is not asserted here: its start call may find the peers'
 * first messages already there and advance the schedule (at n = 2, to the end). */
Test(thread_progress, control_without_thread_n2, .timeout = 120)
{
    overlap(2, without_thread, "1", "no", false);
}

Test(thread_progress, control_without_thread_n4, .timeout = 120)
{
    overlap(4, without_thread, "1", "no", false);
}

/* Threads in the process before init, after it and after finalize, per rank. */
static void task_counts(const char *const *env, int n, int counts[][3])
{
    run_opts_t o = {.limit = 60, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("progress"), "tasks", NULL);
    expect_success(r);
    for (int rank = 0; rank < n; rank++) {
        char prefix[32], line[128];
        snprintf(prefix, sizeof prefix, "rank %d tasks: ", rank);
        cr_assert(find_prefix(r.out, prefix, line, sizeof line), "%s", tail(r.out));
        cr_assert_eq(sscanf(line + strlen(prefix), "before=%d init=%d finalized=%d",
                            &counts[rank][0], &counts[rank][1], &counts[rank][2]),
                     3, "%s", line);
    }
    run_free(&r);
}

Test(thread_progress, joined_at_finalize, .timeout = 120)
{
    int off[2][3], on[2][3];
    task_counts(without_thread, 2, off);
    task_counts(with_thread, 2, on);
    for (int rank = 0; rank < 2; rank++) {
        cr_assert_eq(on[rank][1], off[rank][1] + 1, "rank %d: %d threads after init with the "
                     "progress thread, %d without", rank, on[rank][1], off[rank][1]);
        /* Against the run without it, not against "before init": a sanitizer may start a
         * thread of its own on the way. */
        cr_assert_eq(on[rank][2], off[rank][2], "rank %d: %d threads after finalize with the "
                     "progress thread, %d without: it was left running", rank, on[rank][2],
                     off[rank][2]);
    }
}

Test(thread_progress, rank_killed_while_it_sleeps, .timeout = 60)
{
    run_opts_t o = {.limit = 30, .env = with_thread, .mark_when = "rank 1: raising SIGKILL"};
    run_result_t r = run_mrun(&o, 3, PROG("progress"), "kill", NULL);
    expect_exit(r, 128 + 9);
    cr_assert_lt(run_since_cause(&r), 10.0, "the job took %.1f s to end after rank 1 died",
                 run_since_cause(&r));
    expect_line(r, out, "rank 1: raising SIGKILL", 1);
    expect_like(r, err, "mrun: rank 1 (pid ", ") killed by signal 9 (Killed); terminating the job",
                1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

Test(thread_progress, bad_value_refused, .timeout = 60)
{
    static const char *const bad[] = {"RMP_PROGRESS_THREAD=abc", NULL};
    run_opts_t o = {.limit = 30, .env = bad};
    run_result_t r = run_mrun(&o, 2, PROG("progress"), "tasks", NULL);
    expect_exit(r, 1);
    expect_line(r, err, "rmp: RMP_PROGRESS_THREAD=abc is not valid: expected 0 or 1", 1);
    cr_assert_eq(count_prefix(r.out, "rank "), 0, "a rank ran with the bad value:\n%s", r.out);
    expect_clean(r);
    run_free(&r);
}

/* The suites' own programs with the thread on: every collective against its reference, every
 * size class of point-to-point (also through the shm rings without CMA, where the thread
 * streams the data), and 4 threads per rank at RMP_THREAD_MULTIPLE. Same verdicts as without. */
static void whole_program(int n, const char *const *env, const char *prog, const char *ok,
                          const char *arg1, const char *arg2)
{
    run_opts_t o = {.limit = 150, .env = env};
    run_result_t r = run_mrun(&o, n, prog, arg1, arg2, NULL);
    expect_success(r);
    expect_like(r, out, ok, "", 1);
    run_free(&r);
}

Test(thread_progress, coll_n3, .timeout = 200)
{
    whole_program(3, with_thread, PROG("coll"), "coll: OK", NULL, NULL);
}

Test(thread_progress, coll_n4, .timeout = 200)
{
    whole_program(4, with_thread, PROG("coll"), "coll: OK", NULL, NULL);
}

Test(thread_progress, pingpong_n2_0B_to_16MiB, .timeout = 200)
{
    whole_program(2, with_thread, PROG("pingpong"), "pingpong: OK n=2 ", "0", "16m");
}

Test(thread_progress, pingpong_n3_no_cma, .timeout = 200)
{
    static const char *const env[] = {"RMP_PROGRESS_THREAD=1", "RMP_CMA=0", NULL};
    whole_program(3, env, PROG("pingpong"), "pingpong: OK n=3 ", "0", "4m");
}

Test(thread_progress, threads_multiple_n2, .timeout = 200)
{
    whole_program(2, with_thread, PROG("threads"), "threads: OK n=2 threads=4 ", "100", NULL);
}

/* rmp_abort stops and joins the thread before it abandons the transports: the job ends with
 * the program's code, promptly, leaving nothing behind (the others wait in a receive, so
 * their threads idle while the aborting rank's may be asleep on its transports). */
Test(thread_progress, rmp_abort_with_thread_n3, .timeout = 60)
{
    run_opts_t o = {.limit = 30, .env = with_thread, .mark_when = "rank 1: calling rmp_abort"};
    run_result_t r = run_mrun(&o, 3, PROG("fail_abort"), "7", "1", NULL);
    expect_exit(r, 7);
    cr_assert_lt(run_since_cause(&r), 10.0, "the job took %.1f s to end after rmp_abort",
                 run_since_cause(&r));
    expect_line(r, err, "mrun: rank 1 called rmp_abort with code 7; terminating the job", 1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}
