/* test_wire.c — what the runtime does with a packet a peer should never have sent: a singleton
 * rank hands malformed packets to core_deliver (the entry every transport calls) and checks
 * that the sender is failed with RMP_ERR_TRANSPORT, nothing is read out of bounds (the ASan
 * build), and what that peer sends afterwards is dropped. tests/fuzz covers wire.c itself. */
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

/* Deliver a copy of exactly len bytes (ASan sees any read past them) from rank 0 (myself). */
static void deliver(const void *pkt, size_t len)
{
    void *copy = malloc(len);
    cr_assert_not_null(copy);
    memcpy(copy, pkt, len);
    core_deliver(&rmp_ctx, 0, copy, len);
    free(copy);
}

/* After a bad packet: rank 0 failed, and a well-formed message from it is not queued. */
static void assert_peer_garbled(void)
{
    cr_assert_eq(rmp_ctx.peers[0].failed, RMP_ERR_TRANSPORT);
    cr_assert(rmp_ctx.peers[0].garbled);
    uint32_t ctx = comm_get(RMP_COMM_WORLD)->ctx_id;
    pkt_match_t m = {.type = PKT_EAGER, .ctx = ctx, .tag = 5, .seq = rmp_ctx.peers[0].recv_seq};
    deliver(&m, sizeof(m));
    cr_assert_null(match_find_unexp(rmp_ctx.mq, ctx, 0, 5, false));
}

TestSuite(wire, .init = setup, .fini = teardown, .timeout = 30);

Test(wire, eager_longer_than_its_packet_fails_the_sender)
{
    struct {
        pkt_match_t m;
        char data[3];
    } p = {.m = {.type = PKT_EAGER, .len = 1u << 20}, .data = "abc"};
    deliver(&p, sizeof(p.m) + 3);
    assert_peer_garbled();
}

Test(wire, fin_with_a_bogus_request_cookie_fails_the_sender)
{
    pkt_ctl_t h = {.type = PKT_FIN, .sreq = 0x4141414141414141ull};
    deliver(&h, sizeof(h));
    assert_peer_garbled();
}

Test(wire, data_with_a_bogus_cookie_fails_the_sender)
{
    pkt_data_t h = {.type = PKT_DATA, .rreq = 0x10, .off = UINT64_MAX - 7};
    char pkt[sizeof(h) + 16] = {0};
    memcpy(pkt, &h, sizeof(h));
    deliver(pkt, sizeof(pkt));
    assert_peer_garbled();
}

Test(wire, out_of_order_message_fails_the_sender)
{
    pkt_match_t m = {.type = PKT_EAGER, .tag = 1, .seq = rmp_ctx.peers[0].recv_seq + 3};
    deliver(&m, sizeof(m));
    assert_peer_garbled();
}

Test(wire, unknown_type_and_truncated_header_fail_the_sender)
{
    uint8_t t[40] = {9};
    deliver(t, sizeof(t));
    assert_peer_garbled();
}

Test(wire, well_formed_eager_is_queued)
{
    struct {
        pkt_match_t m;
        char data[3];
    } p = {.m = {.type = PKT_EAGER, .tag = 5, .seq = rmp_ctx.peers[0].recv_seq, .len = 3},
           .data = "abc"};
    p.m.ctx = comm_get(RMP_COMM_WORLD)->ctx_id;
    deliver(&p, sizeof(p.m) + 3);
    cr_assert_eq(rmp_ctx.peers[0].failed, 0);
    char buf[3];
    rmp_status_t st;
    cr_assert_eq(rmp_recv(buf, 3, RMP_BYTE, 0, 5, RMP_COMM_WORLD, &st), RMP_SUCCESS);
    cr_assert_eq(memcmp(buf, "abc", 3), 0);
    cr_assert_eq(st.count, 3);
}
