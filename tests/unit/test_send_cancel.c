/* test_send_cancel.c — the CANCEL / CANCELLED / NOT_CANCELLED packets of send cancellation
 * (runtime/send_cancel.c) as a singleton rank sees them from itself: a CANCEL naming no queued
 * message does not fail its sender (it is answered NOT_CANCELLED), a malformed one or an
 * answer naming no send of ours waiting for one fails the sender as garbled, and real
 * synchronous and eager sends to myself are cancelled end to end (dropped from the unexpected
 * queue, the status says cancelled), or not once received. */
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

Test(send_cancel, cancel_of_no_queued_message_is_answered_no)
{
    pkt_ctl_t h = {.type = PKT_CANCEL, .sreq = 0x4141414141414141ull, .xlen = 12345};
    deliver(&h, sizeof(h));
    cr_assert_eq(rmp_ctx.peers[0].failed, 0);
    cr_assert_not(rmp_ctx.peers[0].garbled);
    /* the answer (NOT_CANCELLED) comes back to the forged request it names: that fails */
    for (int i = 0; i < 100 && !rmp_ctx.peers[0].garbled; i++)
        progress_poll(&rmp_ctx);
    cr_assert(rmp_ctx.peers[0].garbled);
}

Test(send_cancel, cancel_of_no_message_number_fails_the_sender)
{
    pkt_ctl_t h = {.type = PKT_CANCEL, .sreq = 1, .xlen = (uint64_t)UINT32_MAX + 1};
    deliver(&h, sizeof(h));
    cr_assert(rmp_ctx.peers[0].garbled);
}

Test(send_cancel, cancelled_for_no_send_fails_the_sender)
{
    pkt_ctl_t h = {.type = PKT_CANCELLED, .sreq = 0x4141414141414141ull};
    deliver(&h, sizeof(h));
    cr_assert_eq(rmp_ctx.peers[0].failed, RMP_ERR_TRANSPORT);
    cr_assert(rmp_ctx.peers[0].garbled);
}

Test(send_cancel, not_cancelled_for_no_send_fails_the_sender)
{
    pkt_ctl_t h = {.type = PKT_NOT_CANCELLED, .sreq = 0x4141414141414141ull};
    deliver(&h, sizeof(h));
    cr_assert(rmp_ctx.peers[0].garbled);
}

/* A real send of mine, but no cancel of it waits for an answer: forged. */
Test(send_cancel, answer_for_a_send_not_being_cancelled_fails_the_sender)
{
    int x = 1;
    rmp_request_t s;
    cr_assert_eq(rmp_isend(&x, 1, RMP_INT, 0, 4, RMP_COMM_WORLD, &s), RMP_SUCCESS);
    struct rmp_request *r = req_lookup(s);
    cr_assert_not_null(r);
    pkt_ctl_t h = {.type = PKT_CANCELLED, .sreq = (uint64_t)(uintptr_t)s, .xlen = r->msg_seq};
    deliver(&h, sizeof(h));
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

/* A send to myself (synchronous: an RTS; else an eager message) that waits unexpected is
 * cancelled: it leaves the queue and no cancel stays pending. The same send received first
 * is not, and its data arrived whole. */
static void cancel_to_myself(bool sync, int tag)
{
    int x = 7, y = 0, flag = -1;
    rmp_request_t s;
    rmp_status_t st;
    int (*isend)(const void *, int, rmp_datatype_t, int, int, rmp_comm_t, rmp_request_t *) =
        sync ? rmp_issend : rmp_isend;
    cr_assert_eq(isend(&x, 1, RMP_INT, 0, tag, RMP_COMM_WORLD, &s), RMP_SUCCESS);
    cr_assert_eq(rmp_iprobe(0, tag, RMP_COMM_WORLD, &flag, &st), RMP_SUCCESS);
    cr_assert_eq(flag, 1); /* it waits in the unexpected queue (an eager send is complete) */
    cr_assert_eq(rmp_cancel(&s), RMP_SUCCESS);
    cr_assert_eq(rmp_wait(&s, &st), RMP_SUCCESS);
    cr_assert_eq(rmp_test_cancelled(&st, &flag), RMP_SUCCESS);
    cr_assert_eq(flag, 1);
    cr_assert_eq(rmp_iprobe(0, tag, RMP_COMM_WORLD, &flag, &st), RMP_SUCCESS);
    cr_assert_eq(flag, 0);
    cr_assert_eq(match_unexp_count(rmp_ctx.mq), 0);
    cr_assert_eq(rmp_ctx.ncancels, 0);
    cr_assert_eq(isend(&x, 1, RMP_INT, 0, tag, RMP_COMM_WORLD, &s), RMP_SUCCESS);
    cr_assert_eq(rmp_recv(&y, 1, RMP_INT, 0, tag, RMP_COMM_WORLD, &st), RMP_SUCCESS);
    cr_assert_eq(rmp_cancel(&s), RMP_SUCCESS);
    cr_assert_eq(rmp_wait(&s, &st), RMP_SUCCESS);
    cr_assert_eq(rmp_test_cancelled(&st, &flag), RMP_SUCCESS);
    cr_assert_eq(flag, 0);
    cr_assert_eq(y, 7);
}

Test(send_cancel, unmatched_ssend_to_myself_is_cancelled)
{
    cancel_to_myself(true, 3);
}

Test(send_cancel, unmatched_eager_send_to_myself_is_cancelled)
{
    cancel_to_myself(false, 5);
}
