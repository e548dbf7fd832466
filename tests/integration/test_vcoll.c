/* test_vcoll.c — the v-collectives and the prefix reductions against a serial reference:
 * runs tests/progs/vcoll (its own checks: every root, unequal and empty blocks, gaps, a
 * strided type, in place, blocking and nonblocking, truncation, bad arguments) at n = 1..8. */
#include "run.h"

static void vcoll(int n, const char *const env[])
{
    run_prog_ok(n, "vcoll", env, 100);
}

RUN_SIZES(vcoll, n1_to_8, 1, 2, 3, 4, 5, 6, 7, 8)

ParameterizedTest(int *n, vcoll, n1_to_8, .timeout = 150)
{
    vcoll(*n, NULL);
}

/* Every block above 16 bytes goes by rendezvous. */
Test(vcoll, n5_eager_limit_16B, .timeout = 150)
{
    const char *env[] = {"RMP_EAGER_LIMIT=16", NULL};
    vcoll(5, env);
}
