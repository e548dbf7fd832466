/* test_match_scale.c — a 150,000-message unexpected backlog (3 senders x 50,000) drained by
 * rank 0 sender by sender and then in arrival order (tests/progs/unexpected_drain.c): every
 * payload and the per-sender order checked. With linear matching the by-sender drain took
 * minutes; the limit is generous, the test asserts results, never speed. */
#include "run.h"

Test(match_scale, unexpected_backlog_150k_drained_by_source_and_any_source, .timeout = 150)
{
    run_opts_t o = {.limit = 120};
    run_result_t r = run_mrun(&o, 4, PROG("unexpected_drain"), "50000", NULL);
    expect_success(r);
    expect_line(r, out, "unexpected_drain: OK n=4 messages=150000", 1);
    run_free(&r);
}

Test(match_scale, unexpected_backlog_oversubscribed_n8, .timeout = 150)
{
    run_opts_t o = {.limit = 120};
    run_result_t r = run_mrun(&o, 8, PROG("unexpected_drain"), "5000", NULL);
    expect_success(r);
    expect_line(r, out, "unexpected_drain: OK n=8 messages=35000", 1);
    run_free(&r);
}
