/* test_hostile.c — a rank that sends what no rmp rank sends (tests/progs/hostile.c) is failed
 * by its receiver with one clear line, the receive waiting on it returns RMP_ERR_TRANSPORT
 * instead of reading or writing out of bounds, and the job ends cleanly. The parsers behind
 * this are fuzzed in tests/fuzz. */
#include "run.h"

static void bad_packet_when(const char *mode, const char *when, const char *why)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 2, PROG("hostile"), mode, when, NULL);
    expect_exit(r, 3);
    expect_line(r, out, "rank 0: receive from rank 1: transport failure", 1);
    char want[160];
    snprintf(want, sizeof(want), "rmp[0]: rank 1 failed: corrupt packet (%s;", why);
    cr_assert_eq(count_prefix(r.err, want), 1, "no line '%s...'\n--- stderr:\n%s", want,
                 tail(r.err));
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

static void bad_packet(const char *mode, const char *why)
{
    bad_packet_when(mode, NULL, why);
}

Test(hostile, eager_longer_than_its_packet, .timeout = 30)
{
    bad_packet("eager-len", "eager length differs from the bytes that arrived");
}

Test(hostile, fin_for_no_request, .timeout = 30)
{
    bad_packet("fin-cookie", "CTS/FIN for no send of mine");
}

Test(hostile, data_for_no_request, .timeout = 30)
{
    bad_packet("data-cookie", "DATA for no receive of mine");
}

Test(hostile, message_out_of_order, .timeout = 30)
{
    bad_packet("seq", "message out of order");
}

/* The receive is posted after the bad packet failed the peer (it hung before: a receive
 * from a failed peer was posted and waited for ever). */
Test(hostile, receive_posted_after_the_failure, .timeout = 30)
{
    bad_packet_when("seq", "late", "message out of order");
}

/* The same for a blocking probe of the failed peer. */
Test(hostile, probe_after_the_failure, .timeout = 30)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 2, PROG("hostile"), "seq", "late", NULL);
    expect_exit(r, 3);
    expect_line(r, out, "rank 0: probe of rank 1: transport failure", 1);
    run_free(&r);
}

/* One-sided active messages (PKT_RMA) to a rank that created no window: the shape is checked
 * before any handler (wire.c), and an answer naming no operation fails its sender too. */
Test(hostile, rma_put_longer_than_its_packet, .timeout = 30)
{
    bad_packet("rma-len", "one-sided packet length differs from the bytes that arrived");
}

Test(hostile, rma_compare_and_swap_without_comparand, .timeout = 30)
{
    bad_packet("rma-cas", "compare-and-swap not one element and its comparand");
}

Test(hostile, rma_answer_to_nothing, .timeout = 30)
{
    bad_packet("rma-answer", "one-sided answer before any window");
}
