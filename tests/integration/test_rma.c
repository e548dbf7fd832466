/* test_rma.c — one-sided communication (issue 22) on shm and self, at n = 1..8:
 *   rma/ops_n*        tests/progs/rma_ops: every operation x synchronization mode x window
 *                     flavor, byte-exact through a noncontiguous target type, concurrent
 *                     accumulates and fetch_and_op counters that must end exact
 *   rma/special_n*    tests/progs/rma_special: the sleeping target (origins finish while it is
 *                     in sleep()), a compare_and_swap mutex, allocate_shared's direct stores,
 *                     and the error cases (range, sync, flavor, types, free with a lock open)
 *   rma/cases_n*      tests/progs/rma_cases: zero-size operations, pair types' MINLOC/MAXLOC/
 *                     REPLACE/NO_OP, shared_query of a 0-byte rank, dynamic windows with many
 *                     regions and accesses across adjacent ones (rma_am/cases_n*: under
 *                     RMP_RMA_PATH=am)
 *   rma_am/special_n* rma_special again with RMP_RMA_PATH=am: everything through active
 *                     messages, the fallback every window keeps (the sleeper then must wait,
 *                     not hang); rma_ops under it is test_rma_am.c's rma_am/ops_*
 *   thread_rma/...    rma_ops with a progress thread (the runtime locks: TSan's case)
 * Each program checks itself and prints one OK line from rank 0. */
#include "run.h"

static int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8};

/* The sanitizer passes run these at the sizes RMP_TEST_RMA_NS lists (every size runs in the
 * release pass); a size not listed is skipped, and says so. */
static void run_prog(int n, const char *prog, const char *ok, const char *const *env)
{
    run_size_filter(n, "RMP_TEST_RMA_NS");
    run_opts_t o = {.limit = 150, .env = env};
    run_result_t r = run_mrun(&o, n, prog, NULL);
    expect_success(r);
    expect_like(r, out, ok, "", 1);
    run_free(&r);
}

ParameterizedTestParameters(rma, ops)
{
    return cr_make_param_array(int, sizes, sizeof sizes / sizeof sizes[0]);
}

ParameterizedTest(int *n, rma, ops, .timeout = 200)
{
    run_prog(*n, PROG("rma_ops"), "rma_ops: OK", NULL);
}

ParameterizedTestParameters(rma, special)
{
    return cr_make_param_array(int, sizes, sizeof sizes / sizeof sizes[0]);
}

ParameterizedTest(int *n, rma, special, .timeout = 200)
{
    run_prog(*n, PROG("rma_special"), "rma_special: OK", NULL);
}

static const char *const am_env[] = {"RMP_RMA_PATH=am", NULL};

RUN_SIZES(rma, cases, 1, 2, 3, 4)

ParameterizedTest(int *n, rma, cases, .timeout = 200)
{
    run_prog(*n, PROG("rma_cases"), "rma_cases: OK", NULL);
}

RUN_SIZES(rma_am, cases, 1, 2, 3, 4)

ParameterizedTest(int *n, rma_am, cases, .timeout = 200)
{
    run_prog(*n, PROG("rma_cases"), "rma_cases: OK", am_env);
}

ParameterizedTestParameters(rma_am, special)
{
    return cr_make_param_array(int, sizes, sizeof sizes / sizeof sizes[0]);
}

ParameterizedTest(int *n, rma_am, special, .timeout = 200)
{
    run_prog(*n, PROG("rma_special"), "rma_special: OK", am_env);
}

/* A bad value is refused at rmp_init with a line naming the knob. */
Test(rma_am, knob_refused, .timeout = 60)
{
    const char *env[] = {"RMP_RMA_PATH=fast", NULL};
    run_opts_t o = {.limit = 40, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("rma_ops"), NULL);
    cr_assert_neq(r.code, 0, "RMP_RMA_PATH=fast accepted");
    cr_assert(strstr(r.err, "RMP_RMA_PATH"), "no line names the knob:\n%s", tail(r.err));
    run_free(&r);
}

static const char *const thr_env[] = {"RMP_PROGRESS_THREAD=1", NULL};

RUN_SIZES(thread_rma, progress_thread, 2, 4)

ParameterizedTest(int *n, thread_rma, progress_thread, .timeout = 200)
{
    run_prog(*n, PROG("rma_ops"), "rma_ops: OK", thr_env);
}
