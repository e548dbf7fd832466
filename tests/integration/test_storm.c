/* test_storm.c — 100,000 messages of random sizes (0 B..64 KiB, some above the eager limit)
 * and tags, received with specific and wildcard receives; every one accounted for, in
 * per-sender order. */
#include "run.h"

static void storm(int n, const char *const env[])
{
    run_opts_t o = {.limit = 60, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("storm"), "100000", NULL);
    expect_success(r);
    char line[64];
    snprintf(line, sizeof line, "storm: OK n=%d messages=100000", n);
    expect_line(r, out, line, 1);
    run_free(&r);
}

Test(storm, n1_self, .timeout = 90)
{
    storm(1, NULL);
}

Test(storm, n2, .timeout = 90)
{
    storm(2, NULL);
}

Test(storm, n3, .timeout = 90)
{
    storm(3, NULL);
}

Test(storm, n4, .timeout = 90)
{
    storm(4, NULL);
}

Test(storm, n8_oversubscribed, .timeout = 90)
{
    storm(8, NULL);
}

Test(storm, n4_eager_limit_256B, .timeout = 90)
{
    const char *env[] = {"RMP_EAGER_LIMIT=256", NULL};
    storm(4, env);
}

Test(storm, n3_cma_off_small_rings, .timeout = 90)
{
    const char *env[] = {"RMP_CMA=0", "RMP_SHM_RING_KB=16", NULL};
    storm(3, env);
}
