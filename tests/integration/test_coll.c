/* test_coll.c — every collective against a serial reference, for every op and type: runs
 * tests/progs/coll (its own checks) at n = 1..9 and expects exit 0 and one "coll: OK" line. */
#include "run.h"

static void coll(int n, const char *const env[])
{
    run_prog_ok(n, "coll", env, 100);
}

RUN_SIZES(coll, n1_to_9, 1, 2, 3, 4, 5, 6, 7, 8, 9)

ParameterizedTest(int *n, coll, n1_to_9, .timeout = 150)
{
    run_size_filter(*n, "RMP_TEST_MPI_NS"); /* the ASan pass: 2 5 8 */
    coll(*n, NULL);
}

Test(coll, n4_eager_limit_128B, .timeout = 150)
{
    const char *env[] = {"RMP_EAGER_LIMIT=128", NULL};
    coll(4, env);
}
