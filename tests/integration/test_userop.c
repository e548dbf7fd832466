/* test_userop.c — user-defined reductions: runs tests/progs/userop (a non-commutative matrix
 * product in rank order through every reduction, a commutative op on a strided type, the
 * handle rules) at n = 1..8. */
#include "run.h"

RUN_SIZES(userop, n1_to_8, 1, 2, 3, 4, 5, 6, 7, 8)

ParameterizedTest(int *n, userop, n1_to_8, .timeout = 120)
{
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, *n, PROG("userop"), NULL);
    expect_success(r);
    expect_like(r, out, "userop: OK", "", 1);
    run_free(&r);
}
