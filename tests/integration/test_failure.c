/* test_failure.c — a failing rank ends the whole job promptly with its status: exit code,
 * signal (128+N), rmp_abort code, a rank that skips rmp_init or rmp_finalize; mrun prints one
 * line saying which rank and why, and nothing of the job survives it (processes, /dev/shm
 * segments, temp dirs: expect_clean). */
#include "run.h"

/* Seconds from the failure (the failing rank's "rank N: ..." line) to mrun's exit. */
#define FAIL_LIMIT 5.0

static run_result_t run_failing(int n, const char *prog, const char *arg1, const char *arg2)
{
    run_opts_t o = {.limit = 20, .mark_when = "rank "};
    return run_mrun(&o, n, prog, arg1, arg2, NULL);
}

static void expect_prompt(const run_result_t *r)
{
    cr_assert_lt(run_since_cause(r), FAIL_LIMIT, "mrun took %.1f s to end a failed job (%.1f s "
                 "in all)", run_since_cause(r), r->elapsed);
}

static void rank_exits_3(int n)
{
    run_result_t r = run_failing(n, PROG("fail_exit"), NULL, NULL);
    expect_exit(r, 3);
    expect_prompt(&r);
    expect_line(r, out, "rank 1: exiting with status 3", 1);
    expect_like(r, err, "mrun: rank 1 (pid ", ") exited with status 3; terminating the job", 1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

Test(failure, rank_exit_3_n2, .timeout = 30)
{
    rank_exits_3(2);
}

Test(failure, rank_exit_3_n8, .timeout = 30)
{
    rank_exits_3(8);
}

static void rank_killed(int n)
{
    run_result_t r = run_failing(n, PROG("fail_kill"), NULL, NULL);
    expect_exit(r, 128 + 9);
    expect_prompt(&r);
    expect_line(r, out, "rank 1: raising SIGKILL", 1);
    expect_like(r, err, "mrun: rank 1 (pid ", ") killed by signal 9 (Killed); terminating the job",
                1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

Test(failure, rank_sigkill_n2, .timeout = 30)
{
    rank_killed(2);
}

Test(failure, rank_sigkill_n4, .timeout = 30)
{
    rank_killed(4);
}

Test(failure, rank_sigkill_n8, .timeout = 30)
{
    rank_killed(8);
}

static void rank_aborts(int n, const char *code, const char *who, int status)
{
    run_result_t r = run_failing(n, PROG("fail_abort"), code, who);
    expect_exit(r, status);
    expect_prompt(&r);
    char line[128];
    snprintf(line, sizeof line, "mrun: rank %s called rmp_abort with code %s; terminating the job",
             who, code);
    expect_line(r, err, line, 1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

Test(failure, rmp_abort_7_n2, .timeout = 30)
{
    rank_aborts(2, "7", "1", 7);
}

Test(failure, rmp_abort_7_from_rank_0_n4, .timeout = 30)
{
    rank_aborts(4, "7", "0", 7);
}

Test(failure, rmp_abort_255_n3, .timeout = 30)
{
    rank_aborts(3, "255", "2", 255);
}

Test(failure, rmp_abort_single_rank, .timeout = 30)
{
    rank_aborts(1, "9", "0", 9);
}

static void rank_skips_init(int n)
{
    run_result_t r = run_failing(n, PROG("fail_noinit"), NULL, NULL);
    expect_exit(r, 1);
    expect_prompt(&r);
    expect_line(r, err,
                "mrun: rank 1 exited without calling rmp_init while other ranks did; "
                "terminating the job",
                1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

Test(failure, rank_without_rmp_init_n2, .timeout = 30)
{
    rank_skips_init(2);
}

Test(failure, rank_without_rmp_init_n4, .timeout = 30)
{
    rank_skips_init(4);
}

Test(failure, rank_without_rmp_finalize_n2, .timeout = 30)
{
    run_result_t r = run_failing(2, PROG("fail_nofinalize"), NULL, NULL);
    expect_exit(r, 1);
    expect_prompt(&r);
    expect_line(r, err, "mrun: rank 1 exited without calling rmp_finalize; terminating the job",
                1);
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

/* Plain programs (no rmp at all) are fine under mrun; their failures are reported the same. */
Test(failure, plain_program_exit_status, .timeout = 30)
{
    const char *argv[] = {RMP_TEST_MRUN, "-n", "3", "/bin/sh", "-c", "exit 5", NULL};
    run_opts_t o = {.limit = 20};
    run_result_t r = run_cmd(&o, argv);
    expect_exit(r, 5);
    expect_prompt(&r);
    expect_like(r, err, "mrun: rank ", ") exited with status 5; terminating the job", 1);
    expect_clean(r);
    run_free(&r);
}
