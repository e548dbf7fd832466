/* test_groups.c — groups, rmp_comm_create and rmp_comm_compare: runs tests/progs/groups (its
 * own checks against the expected members, orders and error codes) at n = 1..8. */
#include "run.h"

RUN_SIZES(groups, n1_to_8, 1, 2, 3, 4, 5, 6, 7, 8)

ParameterizedTest(int *n, groups, n1_to_8, .timeout = 120)
{
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, *n, PROG("groups"), NULL);
    expect_success(r);
    expect_like(r, out, "groups: OK", "", 1);
    run_free(&r);
}
