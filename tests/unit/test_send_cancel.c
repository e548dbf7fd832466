/* test_send_cancel.c — the CANCEL / CANCELLED packets of send cancellation
 * (runtime/send_cancel.c) as a singleton rank sees them from itself: a CANCEL naming no queued
 * RTS is ignored (the send matched: it completes as usual), a malformed one or a CANCELLED
 * naming no send of ours fails the sender as garbled, and a real synchronous send to myself is
 * cancelled end to end (dropped from the unexpected queue, the status says cancelled). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "protocol.h"

static void setup(void)
{
    cr_assert_eq(rmp_init(NULL, NULL), RMP_SUCCESS);
    cr_assert_eq(rmp_ctx.size, 1);
}

static void teardown(void)
{
    rmp_finalize();
}

static void deliver(const void *pkt, size_t len)
{
    void *copy = malloc(len);
    cr_assert_not_null(copy);
    memcpy(copy, pkt, len);
    core_deliver(&rmp_ctx, 0, copy, len);
    free(copy);
}

TestSuite(send_cancel, .init = setup, .fini = teardown, .timeout = 30);

Test(send_cancel, cancel_of_no_queued_rts_is_ignored)
{
    pkt_ctl_t h = {.type = PKT_CANCEL, .sreq = 0x4141414141414141ull};
    deliver(&h, sizeof(h));
    cr_assert_eq(rmp_ctx.peers[0].failed, 0);
    cr_assert_not(rmp_ctx.peers[0].garbled);
}

Test(send_cancel, cancelled_for_no_send_fails_the_sender)
{
    pkt_ctl_t h = {.type = PKT_CANCELLED, .sreq = 0x4141414141414141ull};
    deliver(&h, sizeof(h));
    cr_assert_eq(rmp_ctx.peers[0].failed, RMP_ERR_TRANSPORT);
    cr_assert(rmp_ctx.peers[0].garbled);
}

Test(send_cancel, cancel_longer_than_its_header_fails_the_sender)
{
    char pkt[sizeof(pkt_ctl_t) + 8] = {0};
    pkt_ctl_t h = {.type = PKT_CANCEL};
    memcpy(pkt, &h, sizeof(h));
    deliver(pkt, sizeof(pkt));
    cr_assert(rmp_ctx.peers[0].garbled);
}

Test(send_cancel, unmatched_ssend_to_myself_is_cancelled)
{
    int x = 7, y = 0, flag = -1;
    rmp_request_t s;
    rmp_status_t st;
    cr_assert_eq(rmp_issend(&x, 1, RMP_INT, 0, 3, RMP_COMM_WORLD, &s), RMP_SUCCESS);
    cr_assert_eq(rmp_iprobe(0, 3, RMP_COMM_WORLD, &flag, &st), RMP_SUCCESS);
    cr_assert_eq(flag, 1); /* its RTS waits in the unexpected queue */
    cr_assert_eq(rmp_cancel(&s), RMP_SUCCESS);
    cr_assert_eq(rmp_wait(&s, &st), RMP_SUCCESS);
    cr_assert_eq(rmp_test_cancelled(&st, &flag), RMP_SUCCESS);
    cr_assert_eq(flag, 1);
    cr_assert_eq(rmp_iprobe(0, 3, RMP_COMM_WORLD, &flag, &st), RMP_SUCCESS);
    cr_assert_eq(flag, 0);
    cr_assert_eq(match_unexp_count(rmp_ctx.mq), 0);
    /* the same send again, received this time: not cancelled, whole */
    cr_assert_eq(rmp_issend(&x, 1, RMP_INT, 0, 3, RMP_COMM_WORLD, &s), RMP_SUCCESS);
    cr_assert_eq(rmp_recv(&y, 1, RMP_INT, 0, 3, RMP_COMM_WORLD, &st), RMP_SUCCESS);
    cr_assert_eq(rmp_cancel(&s), RMP_SUCCESS);
    cr_assert_eq(rmp_wait(&s, &st), RMP_SUCCESS);
    cr_assert_eq(rmp_test_cancelled(&st, &flag), RMP_SUCCESS);
    cr_assert_eq(flag, 0);
    cr_assert_eq(y, 7);
}
