/* test_mrun_conv.c — mrun under the conventions of mpiexec: the MPIEXEC_TIMEOUT variable
 * (as --timeout; the option wins; a bad value is a usage error, status 2), -N/--npernode/--ppn
 * (ranks per node: one node, or the K virtual ones of --nodes K; with -n they must agree),
 * and --allow-run-as-root (accepted, nothing to do). */
#include "run.h"

static run_result_t mrun_env(const char *const args[], const char *env_entry, double limit)
{
    const char *argv[24] = {RMP_TEST_MRUN};
    for (int i = 0; args[i] && i < 22; i++)
        argv[i + 1] = args[i];
    const char *env[] = {env_entry, NULL};
    return run_cmd(&(run_opts_t){.limit = limit, .env = env_entry ? env : NULL}, argv);
}

Test(mrun_conv, help_documents_npernode_and_mpiexec_timeout, .timeout = 20)
{
    const char *args[] = {"--help", NULL};
    run_result_t r = mrun_env(args, NULL, 10);
    expect_exit(r, 0);
    expect_like(r, out, "  -N, --npernode P", "", 1);
    expect_like(r, out, "                  MPIEXEC_TIMEOUT", "", 1);
    expect_like(r, out, "  --allow-run-as-root", "", 1);
    run_free(&r);
}

/* The job hangs; MPIEXEC_TIMEOUT (or --timeout) ends it with 124 after `shown` seconds. */
static void timeout_case(const char *env_entry, const char *opt_secs, const char *shown)
{
    const char *args[8] = {"-n", "2"};
    int k = 2;
    if (opt_secs) {
        args[k++] = "--timeout";
        args[k++] = opt_secs;
    }
    args[k++] = PROG("hang");
    args[k] = NULL;
    run_result_t r = mrun_env(args, env_entry, 30);
    expect_exit(r, 124);
    char line[96];
    snprintf(line, sizeof line, "mrun: job timed out after %s s; terminating 2 ranks", shown);
    expect_line(r, err, line, 1);
    cr_assert_lt(r.elapsed, atof(shown) + 4, "timeout %s s took %.1f s", shown, r.elapsed);
    cr_assert_gt(r.elapsed, atof(shown) - 0.05, "timeout %s s after %.2f s", shown, r.elapsed);
    expect_clean(r);
    run_free(&r);
}

Test(mrun_conv, mpiexec_timeout_ends_a_hanging_job_124, .timeout = 40)
{
    timeout_case("MPIEXEC_TIMEOUT=1.5", NULL, "1.5");
}

Test(mrun_conv, timeout_option_wins_over_mpiexec_timeout, .timeout = 40)
{
    timeout_case("MPIEXEC_TIMEOUT=60", "1", "1");
}

Test(mrun_conv, timeout_option_wins_over_a_bad_mpiexec_timeout, .timeout = 40)
{
    timeout_case("MPIEXEC_TIMEOUT=soon", "1", "1");
}

Test(mrun_conv, empty_mpiexec_timeout_is_unset, .timeout = 40)
{
    const char *args[] = {"-n", "2", PROG("quick"), NULL};
    run_result_t r = mrun_env(args, "MPIEXEC_TIMEOUT=", 30);
    expect_success(r);
    expect_line(r, out, "rank 1 of 2 ok", 1);
    run_free(&r);
}

/* Each refused command line (or environment): status 2, this one line, nothing started. */
typedef struct conv_refused {
    const char *env;
    const char *args[8];
    const char *message;
} conv_refused_t;

static const conv_refused_t refused[] = {
    {"MPIEXEC_TIMEOUT=soon", {"-n", "2"},
     "mrun: MPIEXEC_TIMEOUT needs a number of seconds above 0 and at most 100000000, not 'soon'; "
     "try mrun --help"},
    {"MPIEXEC_TIMEOUT=0", {"-n", "2"},
     "mrun: MPIEXEC_TIMEOUT needs a number of seconds above 0 and at most 100000000, not '0'; "
     "try mrun --help"},
    {"MPIEXEC_TIMEOUT=-3", {"-n", "2"},
     "mrun: MPIEXEC_TIMEOUT needs a number of seconds above 0 and at most 100000000, not '-3'; "
     "try mrun --help"},
    {NULL, {"-n", "4", "-N", "2"},
     "mrun: -n 4 and --npernode 2 disagree: mrun starts one node, so --npernode 2 is -n 2 "
     "(give one of them, or --nodes K for K virtual nodes); try mrun --help"},
    {NULL, {"-n", "3", "--nodes", "2", "--npernode", "2"},
     "mrun: -n 3 and --npernode 2 disagree: on the 2 nodes of --nodes that is -n 4; try mrun "
     "--help"},
    {NULL, {"-N", "0"},
     "mrun: --npernode needs a number of ranks per node from 1 to 4096, not '0'; try mrun "
     "--help"},
    {NULL, {"--ppn", "x"},
     "mrun: --npernode needs a number of ranks per node from 1 to 4096, not 'x'; try mrun "
     "--help"},
    {NULL, {"-N", "3000", "--nodes", "2"},
     "mrun: --npernode 3000 on 2 nodes is 6000 ranks, more than 4096; try mrun --help"},
    {NULL, {"-H", "localhost:2", "-N", "3"},
     "mrun: -n 3 is more than the 2 slots -H gives: add --oversubscribe, or give more slots "
     "(-H localhost:3); try mrun --help"},
    {NULL, {"-n", "2", "--allow-run-as-root=yes"},
     "mrun: unknown option '--allow-run-as-root=yes'; try mrun --help"},
};

RUN_INDICES(mrun_conv, refused, sizeof refused / sizeof refused[0])

ParameterizedTest(int *index, mrun_conv, refused, .timeout = 20)
{
    const conv_refused_t *c = &refused[*index];
    const char *args[12];
    int k = 0;
    for (; c->args[k]; k++)
        args[k] = c->args[k];
    args[k++] = "/bin/echo";
    args[k++] = "STARTED";
    args[k] = NULL;
    run_result_t r = mrun_env(args, c->env, 10);
    expect_exit(r, 2);
    expect_line(r, err, c->message, 1);
    cr_assert_eq(count_prefix(r.err, ""), 1, "more than one line on stderr:\n%s", r.err);
    cr_assert_str_empty(r.out);
    expect_clean(r);
    run_free(&r);
}

/* Each accepted command line runs PROG("quick") with `ranks` ranks. (Not with --nodes K > 1:
 * virtual nodes reach each other over RDMA only, which the machine may not have; the refused
 * cases above check the arithmetic of -N with --nodes.) */
typedef struct conv_accepted {
    const char *args[8];
    int ranks;
} conv_accepted_t;

static const conv_accepted_t accepted[] = {
    {{"-N", "3"}, 3},
    {{"--npernode", "2", "-n", "2"}, 2},
    {{"-npernode", "2"}, 2},
    {{"-ppn", "3"}, 3},
    {{"--ppn=2"}, 2},
    {{"-H", "localhost:4", "-N", "2"}, 2},
    {{"-n", "2", "--allow-run-as-root"}, 2},
    {{"-allow-run-as-root", "-np", "3", "--oversubscribe"}, 3},
};

RUN_INDICES(mrun_conv, accepted, sizeof accepted / sizeof accepted[0])

ParameterizedTest(int *index, mrun_conv, accepted, .timeout = 40)
{
    const conv_accepted_t *c = &accepted[*index];
    const char *args[12];
    int k = 0;
    for (; c->args[k]; k++)
        args[k] = c->args[k];
    args[k++] = PROG("quick");
    args[k] = NULL;
    run_result_t r = mrun_env(args, NULL, 30);
    expect_success(r);
    for (int i = 0; i < c->ranks; i++) {
        char line[64];
        snprintf(line, sizeof line, "rank %d of %d ok", i, c->ranks);
        expect_line(r, out, line, 1);
    }
    cr_assert_eq(count_prefix(r.out, "rank "), c->ranks, "%s", r.out);
    run_free(&r);
}
