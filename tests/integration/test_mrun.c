/* test_mrun.c — the launcher's command line and job control: --help, --version, usage errors
 * (status 2), programs that cannot run (126/127), -x, --tag-output, argument pass-through,
 * --timeout (124), and signals to mrun itself: the job ends with 128+N and nothing survives,
 * not even ranks that ignore SIGTERM or processes the ranks forked. The open-file limit: mrun
 * raises its own to what the job needs, or refuses before starting any rank. */
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>

#include "rmp.h"
#include "run.h"

static run_result_t mrun_args(const char *const argv[], double limit)
{
    run_opts_t o = {.limit = limit};
    return run_cmd(&o, argv);
}

Test(mrun, help, .timeout = 20)
{
    const char *argv[] = {RMP_TEST_MRUN, "--help", NULL};
    run_result_t r = mrun_args(argv, 10);
    expect_exit(r, 0);
    expect_line(r, out, "Usage: mrun -n N [options] prog [args...]", 1);
    expect_like(r, out, "  --timeout SEC", "", 1);
    expect_like(r, out, "  -x VAR[=VAL]", "", 1);
    expect_like(r, out, "  --tag-output", "", 1);
    cr_assert_str_empty(r.err);
    run_free(&r);
}

Test(mrun, version, .timeout = 20)
{
    const char *argv[] = {RMP_TEST_MRUN, "--version", NULL};
    run_result_t r = mrun_args(argv, 10);
    expect_exit(r, 0);
    expect_line(r, out, "mrun (rmp) " RMP_VERSION_STRING, 1);
    run_free(&r);
    const char *argv2[] = {RMP_TEST_MRUN, "-V", NULL};
    r = mrun_args(argv2, 10);
    expect_exit(r, 0);
    expect_line(r, out, "mrun (rmp) " RMP_VERSION_STRING, 1);
    run_free(&r);
}

/* Each bad command line: status 2, one line on stderr, nothing started. */
typedef struct usage_case {
    const char *args[6];
    const char *message;
} usage_case_t;

static const usage_case_t usage_cases[] = {
    {{NULL}, "mrun: missing -n N, the number of ranks; try mrun --help"},
    {{"-n", "2", NULL}, "mrun: missing the program to run; try mrun --help"},
    {{"/bin/true", NULL}, "mrun: missing -n N, the number of ranks; try mrun --help"},
    {{"-n", "0", "/bin/true", NULL},
     "mrun: -n needs a number of ranks from 1 to 4096, not '0'; try mrun --help"},
    {{"-n", "abc", "/bin/true", NULL},
     "mrun: -n needs a number of ranks from 1 to 4096, not 'abc'; try mrun --help"},
    {{"-n", "5000", "/bin/true", NULL},
     "mrun: -n needs a number of ranks from 1 to 4096, not '5000'; try mrun --help"},
    {{"-n", "2", "--timeout", "-1", "/bin/true", NULL},
     "mrun: --timeout needs a number of seconds above 0 and at most 100000000, not '-1'; "
     "try mrun --help"},
    {{"-n", "2", "--timeout", "soon", "/bin/true", NULL},
     "mrun: --timeout needs a number of seconds above 0 and at most 100000000, not 'soon'; "
     "try mrun --help"},
    {{"-n", "2", "--timeout", "1e9", "/bin/true", NULL},
     "mrun: --timeout needs a number of seconds above 0 and at most 100000000, not '1e9'; "
     "try mrun --help"},
    {{"-n", "2", "--nodes", "3", "/bin/true", NULL},
     "mrun: --nodes 3 is more than the 2 ranks; try mrun --help"},
    {{"-n", "2", "-x", "=x", "/bin/true", NULL},
     "mrun: -x needs VAR or VAR=VALUE, not '=x'; try mrun --help"},
    {{"-n", "2", "--bogus", "/bin/true", NULL},
     "mrun: unknown option '--bogus'; try mrun --help"},
    {{"-q", "-n", "2", "/bin/true", NULL}, "mrun: unknown option '-q'; try mrun --help"},
    {{"-n", NULL}, "mrun: option '-n' needs a value; try mrun --help"},
};

/* Parameters are indexes: the cases hold pointers, which a test worker must not inherit. */
RUN_INDICES(mrun, usage_error, sizeof usage_cases / sizeof usage_cases[0])

ParameterizedTest(int *index, mrun, usage_error, .timeout = 20)
{
    const usage_case_t *c = &usage_cases[*index];
    const char *argv[8] = {RMP_TEST_MRUN};
    for (int i = 0; i < 6 && c->args[i]; i++)
        argv[i + 1] = c->args[i];
    run_result_t r = mrun_args(argv, 10);
    expect_exit(r, 2);
    expect_line(r, err, c->message, 1);
    cr_assert_str_empty(r.out);
    expect_clean(r);
    run_free(&r);
}

Test(mrun, program_not_found_127, .timeout = 20)
{
    const char *argv[] = {RMP_TEST_MRUN, "-n", "2", "/nonexistent/prog", NULL};
    run_result_t r = mrun_args(argv, 10);
    expect_exit(r, 127);
    expect_line(r, err, "mrun: cannot execute '/nonexistent/prog': No such file or directory", 1);
    expect_clean(r);
    run_free(&r);
    const char *argv2[] = {RMP_TEST_MRUN, "-n", "1", "no-such-command-in-path", NULL};
    r = mrun_args(argv2, 10);
    expect_exit(r, 127);
    expect_clean(r);
    run_free(&r);
}

Test(mrun, program_not_executable_126, .timeout = 20)
{
    /* a directory: found, but cannot be executed */
    const char *argv[] = {RMP_TEST_MRUN, "-n", "2", "/", NULL};
    run_result_t r = mrun_args(argv, 10);
    expect_exit(r, 126);
    expect_like(r, err, "mrun: cannot execute '/': ", "", 1);
    expect_clean(r);
    run_free(&r);
}

Test(mrun, plain_program_and_argument_pass_through, .timeout = 20)
{
    /* options after the program are the program's */
    const char *argv[] = {RMP_TEST_MRUN, "-n", "3", "/bin/echo", "-n", "2", "--help", NULL};
    run_result_t r = mrun_args(argv, 10);
    expect_exit(r, 0);
    cr_assert_str_eq(r.out, "2 --help2 --help2 --help");
    expect_clean(r);
    run_free(&r);
}

Test(mrun, export_variables_with_x, .timeout = 20)
{
    const char *env[] = {"RMP_TEST_FROM_MRUN=inherited", "RMP_TEST_PASSED=from-env", NULL};
    run_opts_t o = {.limit = 15, .env = env};
    const char *argv[] = {RMP_TEST_MRUN, "-n", "2", "-x", "RMP_TEST_SET=a=b c", "-x",
                          "RMP_TEST_PASSED", "-x", "RMP_TEST_FROM_MRUN=overridden", "-x",
                          "RMP_TEST_NOT_SET", PROG("env"), "RMP_TEST_SET", "RMP_TEST_PASSED",
                          "RMP_TEST_FROM_MRUN", "RMP_TEST_NOT_SET", NULL};
    run_result_t r = run_cmd(&o, argv);
    expect_success(r);
    for (int k = 0; k < 2; k++) {
        char line[128];
        snprintf(line, sizeof line, "rank %d of 2: RMP_TEST_SET=a=b c", k);
        expect_line(r, out, line, 1);
        snprintf(line, sizeof line, "rank %d of 2: RMP_TEST_PASSED=from-env", k);
        expect_line(r, out, line, 1);
        snprintf(line, sizeof line, "rank %d of 2: RMP_TEST_FROM_MRUN=overridden", k);
        expect_line(r, out, line, 1);
        snprintf(line, sizeof line, "rank %d of 2: RMP_TEST_NOT_SET unset", k);
        expect_line(r, out, line, 1);
    }
    expect_line(r, err,
                "mrun: warning: -x RMP_TEST_NOT_SET: RMP_TEST_NOT_SET is not set in mrun's "
                "environment",
                1);
    run_free(&r);
}

Test(mrun, tag_output, .timeout = 20)
{
    const char *argv[] = {RMP_TEST_MRUN, "-n", "3", "--tag-output", PROG("env"), "RMP_NONE",
                          NULL};
    run_result_t r = mrun_args(argv, 15);
    expect_success(r);
    for (int k = 0; k < 3; k++) {
        char line[64];
        snprintf(line, sizeof line, "[%d] rank %d of 3: RMP_NONE unset", k, k);
        expect_line(r, out, line, 1);
        snprintf(line, sizeof line, "[%d] rank %d: stderr", k, k);
        expect_line(r, err, line, 1);
    }
    cr_assert_eq(count_prefix(r.out, "["), 3, "untagged stdout lines:\n%s", r.out);
    run_free(&r);
}

Test(mrun, untagged_output_by_default, .timeout = 20)
{
    const char *argv[] = {RMP_TEST_MRUN, "-n", "2", PROG("env"), "RMP_NONE", NULL};
    run_result_t r = mrun_args(argv, 15);
    expect_success(r);
    expect_line(r, out, "rank 0 of 2: RMP_NONE unset", 1);
    expect_line(r, out, "rank 1 of 2: RMP_NONE unset", 1);
    expect_line(r, err, "rank 1: stderr", 1);
    run_free(&r);
}

static void timeout_case(int n, const char *secs, const char *shown)
{
    char nbuf[8];
    snprintf(nbuf, sizeof nbuf, "%d", n);
    const char *argv[] = {RMP_TEST_MRUN, "-n", nbuf, "--timeout", secs, PROG("hang"), NULL};
    run_result_t r = mrun_args(argv, 20);
    expect_exit(r, 124);
    char line[96];
    snprintf(line, sizeof line, "mrun: job timed out after %s s; terminating %d ranks", shown, n);
    expect_line(r, err, line, 1);
    cr_assert_lt(r.elapsed, atof(secs) + 4, "timeout %s s took %.1f s", secs, r.elapsed);
    cr_assert_gt(r.elapsed, atof(secs) - 0.05, "timeout %s s after only %.2f s", secs, r.elapsed);
    expect_clean(r);
    run_free(&r);
}

Test(mrun, timeout_hanging_job_124, .timeout = 30)
{
    timeout_case(2, "2", "2");
}

Test(mrun, timeout_fractional_n4, .timeout = 30)
{
    timeout_case(4, "1.5", "1.5");
}

Test(mrun, timeout_not_reached, .timeout = 30)
{
    const char *argv[] = {RMP_TEST_MRUN, "-n", "2", "--timeout", "20", PROG("env"), NULL};
    run_result_t r = mrun_args(argv, 25);
    expect_success(r);
    cr_assert_lt(r.elapsed, 10);
    run_free(&r);
}

/* mrun gets `sig` once every rank printed "ready". */
static void signal_case(int n, int sig, const char *arg1, const char *arg2, double max_secs)
{
    run_opts_t o = {.limit = 20, .signal = sig, .signal_when = "ready", .signal_after_lines = n};
    run_result_t r = run_mrun(&o, n, PROG("sleeper"), arg1, arg2, NULL);
    expect_exit(r, 128 + sig);
    char line[96];
    snprintf(line, sizeof line, "mrun: received signal %d (%s); terminating the job", sig,
             strsignal(sig));
    expect_line(r, err, line, 1);
    expect_line(r, out, "ready", n);
    cr_assert_lt(run_since_cause(&r), max_secs, "the job took %.1f s to end after the signal",
                 run_since_cause(&r));
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

Test(mrun, sigterm_ends_sleeping_ranks, .timeout = 30)
{
    signal_case(3, SIGTERM, NULL, NULL, 8);
}

Test(mrun, sigint_ends_sleeping_ranks, .timeout = 30)
{
    signal_case(2, SIGINT, NULL, NULL, 8);
}

Test(mrun, sigterm_with_ranks_ignoring_sigterm, .timeout = 30)
{
    signal_case(2, SIGTERM, "ignore-term", NULL, 10);
}

Test(mrun, sigterm_kills_processes_forked_by_ranks, .timeout = 30)
{
    signal_case(2, SIGTERM, "fork", NULL, 10);
}

Test(mrun, sigterm_oversubscribed_n8_ignoring_and_forking, .timeout = 30)
{
    signal_case(8, SIGTERM, "ignore-term", "fork", 12);
}

/* The CPUs a job's ranks may run on, one "[r] Cpus_allowed_list:\t..." line per rank. */
static run_result_t cpus_of_ranks(const char *n, const char *bind)
{
    const char *argv[10] = {RMP_TEST_MRUN, "-n", n, "--tag-output"};
    int k = 4;
    if (bind) {
        argv[k++] = "--bind-to";
        argv[k++] = bind;
    }
    argv[k++] = "/bin/grep";
    argv[k++] = "Cpus_allowed_list";
    argv[k++] = "/proc/self/status";
    argv[k] = NULL;
    return mrun_args(argv, 10);
}

/* Ranks that fit the CPUs are bound one per CPU by default (what a ping-pong pair needs to
 * not share a CPU); more ranks than CPUs are left to the scheduler; --bind-to none never
 * binds, --bind-to core always does (round robin). */
Test(mrun, bind_to_core_by_default_when_ranks_fit, .timeout = 20)
{
    cpu_set_t set;
    cr_assert_eq(sched_getaffinity(0, sizeof set, &set), 0);
    int ncpu = CPU_COUNT(&set), first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
        if (CPU_ISSET(c, &set))
            first = c;
    char line[64], n[16];
    snprintf(n, sizeof n, "%d", ncpu);
    run_result_t r = cpus_of_ranks(n, NULL);
    expect_exit(r, 0);
    snprintf(line, sizeof line, "[0] Cpus_allowed_list:\t%d", first);
    expect_line(r, out, line, 1);
    run_free(&r);

    snprintf(n, sizeof n, "%d", ncpu + 1); /* one more than fits: not bound */
    r = cpus_of_ranks(n, NULL);
    expect_exit(r, 0);
    expect_line(r, out, line, 0);
    run_free(&r);

    r = cpus_of_ranks(n, "core"); /* forced: rank ncpu shares rank 0's CPU */
    expect_exit(r, 0);
    expect_line(r, out, line, 1);
    snprintf(line, sizeof line, "[%d] Cpus_allowed_list:\t%d", ncpu, first);
    expect_line(r, out, line, 1);
    run_free(&r);

    r = cpus_of_ranks("1", "none");
    expect_exit(r, 0);
    snprintf(line, sizeof line, "[0] Cpus_allowed_list:\t%d", first);
    if (ncpu > 1)
        expect_line(r, out, line, 0);
    run_free(&r);
}

Test(mrun, bind_to_bad_value_is_a_usage_error, .timeout = 20)
{
    const char *argv[] = {RMP_TEST_MRUN, "--bind-to", "socket", "-n", "1", "/bin/true", NULL};
    run_result_t r = mrun_args(argv, 10);
    expect_exit(r, 2);
    expect_line(r, err, "mrun: --bind-to needs core or none, not 'socket'; try mrun --help", 1);
    run_free(&r);
}

/* `sh -c "ulimit <limit> && exec mrun -n <n> <prog...>"`; the hard limit must allow what the
 * test needs, or it is skipped (a shell cannot raise it). */
static run_result_t mrun_ulimit(const char *limit, rlim_t hard_needed, const char *n,
                                const char *const prog[])
{
    struct rlimit rl;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
    if (rl.rlim_max < hard_needed)
        cr_skip_test("the hard open-file limit is %lu, the test needs %lu",
                     (unsigned long)rl.rlim_max, (unsigned long)hard_needed);
    char script[128];
    snprintf(script, sizeof script, "ulimit %s && exec \"$@\"", limit);
    const char *argv[16] = {"/bin/sh", "-c", script, "sh", RMP_TEST_MRUN, "-n", n};
    for (int i = 0; prog[i] && i < 8; i++)
        argv[7 + i] = prog[i];
    run_opts_t o = {.limit = 60, .env = (const char *const[]){"RMP_SHM_RING_KB=16", NULL}};
    return run_cmd(&o, argv);
}

/* r ended with status 1 and `line` as its only output: nothing was started. Frees r. */
static void expect_refused(run_result_t *r, const char *line)
{
    expect_exit(*r, 1);
    expect_line(*r, err, line, 1);
    cr_assert_eq(count_prefix(r->err, ""), 1, "%s", tail(r->err));
    cr_assert_str_empty(r->out);
    expect_clean(*r);
    run_free(r);
}

/* mrun reserved 3 open files per rank + 64 but holds 5 per rank while starting them: under
 * `ulimit -Sn 256` (hard 20000), 64 ranks failed with "starting rank 48 failed: Too many open
 * files". Now mrun raises its soft limit to what it needs, and the ranks still get 256. */
Test(mrun, soft_fd_limit_is_raised_for_64_ranks, .timeout = 90)
{
    run_result_t r;
#if !defined(__SANITIZE_ADDRESS__) /* 64 instrumented ranks outlast the limit on 2 loaded cores;
                                    * the plain ranks below hold 4 of mrun's 5 files each */
    const char *quick[] = {PROG("quick"), NULL};
    r = mrun_ulimit("-Sn 256", 5 * 64 + 64, "64", quick);
    expect_success(r);
    cr_assert_eq(count_like(r.out, "rank ", " of 64 ok"), 64, "%s", tail(r.out));
    cr_assert_str_empty(r.err);
    run_free(&r);
#endif
    const char *limit[] = {"/bin/sh", "-c", "ulimit -Sn", NULL};
    r = mrun_ulimit("-Sn 256", 5 * 64 + 64, "64", limit);
    expect_success(r);
    expect_line(r, out, "256", 64);
    run_free(&r);
}

/* A hard limit below what the job needs: refused before any rank starts, with the numbers. */
Test(mrun, hard_fd_limit_too_low_is_refused_before_starting, .timeout = 30)
{
    const char *quick[] = {PROG("quick"), NULL};
    run_result_t r = mrun_ulimit("-n 100", 100, "64", quick);
    expect_refused(&r, "mrun: 64 ranks need 384 open files in mrun (5 per rank + 64), but the "
                   "hard limit is 100: raise it (ulimit -Hn, limits.conf), or run at most 7 "
                   "ranks");
}

/* `ulimit -n 10` was blamed on "the PMIx installation", after PMIx's and libevent's own
 * complaints; now one line says what the limit is and what a rank needs. */
Test(mrun, tiny_fd_limit_is_named, .timeout = 30)
{
    const char *quick[] = {PROG("quick"), NULL};
    run_result_t r = mrun_ulimit("-n 10", 10, "2", quick);
    expect_refused(&r, "mrun: the open-file limit is 10, and a rank needs at least 32 (rmp's "
                   "own and the program's): raise it (ulimit -n)");
}

/* Without mrun (a singleton, or under another launcher), rmp_init itself names the limit. */
Test(mrun, rmp_init_names_a_tiny_fd_limit, .timeout = 30)
{
    const char *argv[] = {"/bin/sh", "-c", "ulimit -Sn 18 && exec \"$0\"", PROG("quick"),
                          NULL};
    run_result_t r = mrun_args(argv, 20);
    expect_exit(r, 1);
    expect_like(r, err, "rmp: this process has ", " of its 18 open files (ulimit -n) in use, "
                "and rmp_init needs 16 free: raise the limit", 1);
    cr_assert_eq(count_prefix(r.out, "rank "), 0, "%s", tail(r.out));
    run_free(&r);
}
