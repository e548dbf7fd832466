/* test_rma_am.c — one-sided communication with every operation as an active message
 * (RMP_RMA_PATH=am: the fallback any transport has, forced here on shm), at every size from 1
 * to 8 ranks: rma_ops (every operation x synchronization mode x flavor) and rma_am_big (data
 * several packets long, concurrent accumulates, an exclusive lock contended by every rank). */
#include "run.h"

static const char *const am_env[] = {"RMP_RMA_PATH=am", NULL};

/* Sizes not in RMP_TEST_RMA_NS (set by the sanitizer passes) are skipped, and say so. */
static void run_prog(const char *path, const char *ok, int n, const char *const *env)
{
    run_size_filter(n, "RMP_TEST_RMA_NS");
    run_opts_t o = {.limit = 240, .env = env};
    run_result_t r = run_mrun(&o, n, path, NULL);
    const char *prog = strrchr(path, '/') + 1;
    cr_log_info("%s n=%d%s: %.1f s", prog, n, env ? " (am)" : "", r.elapsed);
    expect_success(r);
    expect_line(r, out, ok, 1);
    run_free(&r);
}

#define SIZES(name, prog, ok, env)                                                             \
    Test(rma_am, name##_1, .timeout = 300) { run_prog(prog, ok, 1, env); }                     \
    Test(rma_am, name##_2, .timeout = 300) { run_prog(prog, ok, 2, env); }                     \
    Test(rma_am, name##_3, .timeout = 300) { run_prog(prog, ok, 3, env); }                     \
    Test(rma_am, name##_4, .timeout = 300) { run_prog(prog, ok, 4, env); }                     \
    Test(rma_am, name##_5, .timeout = 300) { run_prog(prog, ok, 5, env); }                     \
    Test(rma_am, name##_6, .timeout = 300) { run_prog(prog, ok, 6, env); }                     \
    Test(rma_am, name##_7, .timeout = 300) { run_prog(prog, ok, 7, env); }                     \
    Test(rma_am, name##_8, .timeout = 300) { run_prog(prog, ok, 8, env); }

SIZES(ops, PROG("rma_ops"), "rma_ops: OK", am_env)
SIZES(big, PROG("rma_am_big"), "rma_am_big: OK", am_env)

/* The same program on the automatic paths (shared memory, the accumulate lock, CPU atomics). */
Test(rma_am, big_auto_2, .timeout = 300)
{
    run_prog(PROG("rma_am_big"), "rma_am_big: OK", 2, NULL);
}

Test(rma_am, big_auto_5, .timeout = 300)
{
    run_prog(PROG("rma_am_big"), "rma_am_big: OK", 5, NULL);
}
