/* test_comm.c — rmp_comm_dup / rmp_comm_split / rmp_comm_free under mrun (tests/progs/comm):
 * isolation of dup'ed contexts, split orderings, RMP_UNDEFINED, traffic inside new comms. */
#include "run.h"

static void comm(int n)
{
    run_opts_t o = {.limit = 40};
    run_result_t r = run_mrun(&o, n, PROG("comm"), NULL);
    expect_success(r);
    char line[32];
    snprintf(line, sizeof line, "comm: OK n=%d", n);
    expect_line(r, out, line, 1);
    run_free(&r);
}

RUN_SIZES(comm, dup_split_free, 1, 2, 3, 4, 5, 8)

ParameterizedTest(int *n, comm, dup_split_free, .timeout = 60)
{
    comm(*n);
}
