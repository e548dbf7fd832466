/* test_types.c — derived datatypes (struct, resized, indexed) and the MINLOC/MAXLOC pair
 * reductions across processes: runs tests/progs/types (its own checks against a serial
 * reference) at n = 1..8, and with every message by rendezvous at n = 4. */
#include "run.h"

static void types(int n, const char *const env[])
{
    run_prog_ok(n, "types", env, 60);
}

RUN_SIZES(types, n1_to_8, 1, 2, 3, 4, 5, 6, 7, 8)

ParameterizedTest(int *n, types, n1_to_8, .timeout = 120)
{
    types(*n, NULL);
}

Test(types, n4_eager_limit_0, .timeout = 120)
{
    const char *env[] = {"RMP_EAGER_LIMIT=0", NULL};
    types(4, env);
}
