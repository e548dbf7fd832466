/* test_prof.c — RMP_PROFILE under mrun: tests/mpi/mpi_prof checks its own profile.json after
 * MPI_Finalize (exact messages and bytes per pair and protocol for a ring, an all-to-all and a
 * master-worker with skew, n = 1..8 and 64; calls and collective imbalance, n = 2, 4); the page in
 * headless Chromium (tests/prof/check-html.py: well-formed, no console error, the heat map in
 * the DOM and in a screenshot's pixels); mrun --profile and rmp-prof; a refused value; a failed
 * job's one line, or for a rank aborted or killed after traffic the partial report or that line;
 * a report that cannot be written changes nothing but one line. */
#include "run.h"

#include <sys/stat.h>
#include <unistd.h>

#if !defined(RMP_TEST_MPIPROGS) || !defined(RMP_TEST_SRCDIR) || !defined(RMP_TEST_BINDIR)
#error "build with -DRMP_TEST_MPIPROGS, _SRCDIR, _BINDIR (the Makefile does)"
#endif
#define MPIPROG(name) RMP_TEST_MPIPROGS "/" name

/* A fresh directory name for one job's report (removed first). */
static void report_dir(char *dir, size_t len, const char *what, int n)
{
    snprintf(dir, len, "/tmp/rmp-prof-test-%d-%s-%d", (int)getpid(), what, n);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static void remove_dir(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

/* mpi_prof in `mode` at n ranks with RMP_PROFILE=dir: every rank OK. */
static void prof_run(int n, const char *mode, const char *dir)
{
    char env_dir[300];
    snprintf(env_dir, sizeof env_dir, "RMP_PROFILE=%s", dir);
    const char *env[] = {env_dir, NULL};
    run_opts_t o = {.limit = 150, .env = env};
    run_result_t r = run_mrun(&o, n, MPIPROG("mpi_prof"), mode, NULL);
    expect_ranks_ok(r, "mpi_prof", n);
    run_free(&r);
}

ParameterizedTestParameters(prof, exact_p2p)
{
    static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 64}; /* 64: 2 s here, oversubscribed 32x */
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

/* One job of mpi_prof in `mode`, its report checked by the program itself, then removed. */
static void self_checked(int n, const char *mode)
{
    char dir[256];
    report_dir(dir, sizeof dir, mode, n);
    prof_run(n, mode, dir);
    remove_dir(dir);
}

ParameterizedTest(int *n, prof, exact_p2p, .timeout = 160)
{
    self_checked(*n, "p2p");
}

RUN_SIZES(prof, collectives, 2, 4)

ParameterizedTest(int *n, prof, collectives, .timeout = 160)
{
    self_checked(*n, "coll");
}

/* The page as Chromium draws it (skipped, saying why, without chromium). */
ParameterizedTestParameters(prof, html_in_chromium)
{
    static int ns[] = {2, 8, 100}; /* 100: rows and columns of 2 ranks each */
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

ParameterizedTest(int *n, prof, html_in_chromium, .timeout = 300)
{
    char dir[256], ranks[16];
    report_dir(dir, sizeof dir, "html", *n);
    prof_run(*n, "p2p", dir);
    snprintf(ranks, sizeof ranks, "%d", *n);
    const char *argv[] = {"/usr/bin/env", "python3", RMP_TEST_SRCDIR "/tests/prof/check-html.py",
                          dir, ranks, NULL};
    run_opts_t o = {.limit = 280};
    run_result_t r = run_cmd(&o, argv);
    if (r.code == 77) {
        remove_dir(dir);
        cr_skip_test("%s", tail(r.out));
    }
    expect_success(r);
    expect_line(r, out, "check-html: OK", 1);
    run_free(&r);
    remove_dir(dir);
}

/* mrun --profile=DIR sets the variable for every rank; rmp-prof prints the summary and the
 * page's address. */
Test(prof, mrun_option_and_rmp_prof, .timeout = 100)
{
    char dir[256], opt[300], page[400];
    report_dir(dir, sizeof dir, "mrun", 2);
    snprintf(opt, sizeof opt, "--profile=%s", dir);
    const char *argv[] = {RMP_TEST_MRUN, "-n", "2", opt, MPIPROG("mpi_prof"), NULL};
    run_opts_t o = {.limit = 90};
    run_result_t r = run_cmd(&o, argv);
    expect_ranks_ok(r, "mpi_prof", 2);
    run_free(&r);
    const char *sum[] = {RMP_TEST_BINDIR "/rmp-prof", dir, NULL};
    r = run_cmd(&o, sum);
    expect_success(r);
    expect_line(r, out, "@ rmp profile: 2 rank(s)", 1);
    expect_like(r, out, "MPI_Sendrecv ", "", 3); /* the total, then ranks 0 and 1 */
    run_free(&r);
    const char *open[] = {RMP_TEST_BINDIR "/rmp-prof", "--open", dir, NULL};
    r = run_cmd(&o, open);
    expect_success(r);
    snprintf(page, sizeof page, "file://%s/report.html", dir);
    expect_line(r, out, page, 1);
    run_free(&r);
    remove_dir(dir);
}

/* Not a boolean and not a directory to write: refused at MPI_Init like every knob. */
Test(prof, bad_value_refused_at_init, .timeout = 60)
{
    const char *env[] = {"RMP_PROFILE=yes", NULL};
    run_opts_t o = {.limit = 50, .env = env};
    run_result_t r = run_mrun(&o, 2, MPIPROG("mpi_prof"), NULL);
    cr_assert_neq(r.code, 0, "the job ran with RMP_PROFILE=yes");
    expect_like(r, err, "rmp: RMP_PROFILE=yes is not valid: expected 0, 1 or a directory", "",
                1);
    run_free(&r);
}

/* A rank that fails before MPI_Finalize: the job's status is the rank's, and one line says
 * why there is no report. */
Test(prof, failed_job_says_why_no_report, .timeout = 60)
{
    char dir[256], env_dir[300];
    report_dir(dir, sizeof dir, "crash", 3);
    snprintf(env_dir, sizeof env_dir, "RMP_PROFILE=%s", dir);
    const char *env[] = {env_dir, NULL};
    run_opts_t o = {.limit = 50, .env = env};
    run_result_t r = run_mrun(&o, 3, MPIPROG("mpi_prof"), "crash", NULL);
    cr_assert_eq(r.code, 3, "exit status %d, expected the rank's 3\n%s", r.code, tail(r.err));
    expect_like(r, err, "mrun: RMP_PROFILE: no report written: the job failed (status 3)", "",
                1);
    run_free(&r);
    remove_dir(dir);
}

/* A rank that calls MPI_Abort or is killed after traffic: the job fails, and either rank 0
 * wrote a partial report naming the missing rank or one line says why there is none. */
ParameterizedTestParameters(prof, aborted_or_killed_rank)
{
    static int modes[] = {0, 1}; /* abort, kill */
    return cr_make_param_array(int, modes, sizeof modes / sizeof modes[0]);
}

ParameterizedTest(int *how, prof, aborted_or_killed_rank, .timeout = 100)
{
    const char *mode = *how ? "kill" : "abort";
    char dir[256], env_dir[300], json[300];
    report_dir(dir, sizeof dir, mode, 3);
    snprintf(env_dir, sizeof env_dir, "RMP_PROFILE=%s", dir);
    snprintf(json, sizeof json, "%s/profile.json", dir);
    const char *env[] = {env_dir, NULL};
    run_opts_t o = {.limit = 90, .env = env};
    run_result_t r = run_mrun(&o, 3, MPIPROG("mpi_prof"), mode, NULL);
    cr_assert_neq(r.code, 0, "%s: the job succeeded", mode);
    bool none = strstr(r.err, "mrun: RMP_PROFILE: no report written: the job failed") != NULL;
    bool partial = strstr(r.err, "RMP_PROFILE: partial report in") != NULL;
    cr_assert(none != partial, "%s: %s", mode, tail(r.err));
    if (partial) {
        FILE *f = fopen(json, "r");
        char head[200] = "";
        cr_assert(f && fgets(head, sizeof head, f), "%s: no %s", mode, json);
        fclose(f);
        cr_assert(strstr(head, "\"missing\":[1]"), "%s: %s", mode, head);
    } else
        cr_assert(access(json, F_OK) != 0, "%s: a report and the line saying there is none", mode);
    run_free(&r);
    remove_dir(dir);
}

/* A full disk, a directory that became a file: one line, the job succeeds all the same. */
ParameterizedTestParameters(prof, unwritable_report)
{
    static int modes[] = {0, 1}; /* full, notdir (ints: criterion copies the values) */
    return cr_make_param_array(int, modes, sizeof modes / sizeof modes[0]);
}

ParameterizedTest(int *how, prof, unwritable_report, .timeout = 60)
{
    const char *mode[] = {*how ? "notdir" : "full"};
    char dir[256];
    report_dir(dir, sizeof dir, *mode, 2);
    char env_dir[300];
    snprintf(env_dir, sizeof env_dir, "RMP_PROFILE=%s", dir);
    const char *env[] = {env_dir, NULL};
    run_opts_t o = {.limit = 50, .env = env};
    run_result_t r = run_mrun(&o, 2, MPIPROG("mpi_prof"), *mode, NULL);
    expect_ranks_ok(r, "mpi_prof", 2);
    expect_like(r, err, "rmp[0]: RMP_PROFILE: no report written: ",
                "(the job's result is unchanged)", 1);
    run_free(&r);
    remove_dir(dir);
}
