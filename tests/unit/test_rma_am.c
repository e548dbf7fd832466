/* test_rma_am.c — active messages (rma/am.c, am_target.c, the PKT_RMA packet) in a singleton
 * rank that is its own target through the self transport: every operation applied by the
 * target's progress as it would be from a peer, ranges checked there again, the lock and its
 * answers, packets for a window not registered yet kept until it is, a failed target ending
 * what waits on it; and packets no rmp rank sends (malformed, or naming nothing) failing their
 * sender as garbled, without a crash (the ASan build reads nothing outside them). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../rma/rma.h"
#include "protocol.h"

#define MEM 256

static win_t w;
static rma_target_t t;
static _Alignas(64) char mem[MEM];

static void setup(void)
{
    cr_assert_eq(rmp_init(NULL, NULL), RMP_SUCCESS);
    cr_assert_eq(rmp_ctx.size, 1);
    memset(mem, 0, sizeof(mem));
    t = (rma_target_t){.world = 0, .size = MEM, .disp_unit = 1,
                       .base = (uint64_t)(uintptr_t)mem, .data_path = RMA_AM};
    /* a window of the AM domain on the world communicator's ctx id (windows use a dup of
     * their communicator: no real window shares it) */
    w = (win_t){.comm = RMP_COMM_WORLD, .c = comm_get(RMP_COMM_WORLD), .rank = 0, .size = 1,
                .flavor = RMP_WIN_FLAVOR_ALLOCATE, .base = mem, .bytes = MEM, .disp_unit = 1,
                .t = &t, .amo_path = RMA_AM};
    rma_am_init(&rmp_ctx);
    cr_assert_eq(rma_am_register(&w), RMP_SUCCESS);
}

static void teardown(void)
{
    rma_am_unregister(&w);
    rmp_finalize();
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Progress until everything issued completed (bounded: a lost answer fails the test). */
static void wait_all(void)
{
    double end = now() + 10;
    while (t.completed != t.issued && now() < end)
        progress_poll(&rmp_ctx);
    cr_assert_eq(t.completed, t.issued, "an operation never completed");
}

/* Progress a little, for arrivals that must have no effect. */
static void spin(void)
{
    for (int i = 0; i < 100; i++)
        progress_poll(&rmp_ctx);
}

TestSuite(rma_am, .init = setup, .fini = teardown, .timeout = 30);

Test(rma_am, put_then_get_in_pieces)
{
    char src[64], dst[64];
    for (int i = 0; i < 64; i++)
        src[i] = (char)(i + 1);
    rma_piece_t pcs[2] = {{8, 32}, {100, 32}};
    cr_assert_eq(rma_am_put(&w, 0, 0, pcs, 2, src, 64), RMP_SUCCESS);
    cr_assert_eq(t.issued, 1);
    wait_all();
    cr_assert_eq(t.error, RMP_SUCCESS);
    cr_assert_eq(memcmp(mem + 8, src, 32), 0);
    cr_assert_eq(memcmp(mem + 100, src + 32, 32), 0);
    cr_assert_eq(mem[40], 0, "nothing between the pieces");
    cr_assert_eq(rma_am_get(&w, 0, 0, pcs, 2, dst, 64), RMP_SUCCESS);
    wait_all();
    cr_assert_eq(memcmp(dst, src, 64), 0);
    cr_assert_gt(w.am_applied, 0);
}

Test(rma_am, accumulates_at_the_target)
{
    int32_t *m = (int32_t *)(void *)mem;
    for (int i = 0; i < 4; i++)
        m[i] = 10 * i;
    int32_t in[4] = {1, 2, 3, 4}, res[4];
    rma_piece_t pc = {0, 16};
    cr_assert_eq(rma_am_acc(&w, 0, 0, &pc, 1, DT_INT32, RMP_SUM, in, 16, res, NULL),
                 RMP_SUCCESS);
    wait_all();
    cr_assert(m[0] == 1 && m[1] == 12 && m[2] == 23 && m[3] == 34);
    cr_assert(res[0] == 0 && res[1] == 10 && res[2] == 20 && res[3] == 30);
    cr_assert_eq(rma_am_acc(&w, 0, 0, &pc, 1, DT_INT32, RMP_NO_OP, NULL, 16, res, NULL),
                 RMP_SUCCESS);
    wait_all();
    cr_assert(res[0] == 1 && res[3] == 34 && m[3] == 34, "NO_OP reads, leaves the target");
    cr_assert_eq(rma_am_acc(&w, 0, 0, &pc, 1, DT_INT32, RMP_REPLACE, in, 16, NULL, NULL),
                 RMP_SUCCESS);
    wait_all();
    cr_assert(m[0] == 1 && m[3] == 4);
    rma_piece_t one = {8, 4};
    int32_t nv = 99, cmp = 3, old = 0;
    cr_assert_eq(rma_am_acc(&w, 0, 0, &one, 1, DT_INT32, RMP_OP_NULL, &nv, 4, &old, &cmp),
                 RMP_SUCCESS);
    wait_all();
    cr_assert(old == 3 && m[2] == 99, "compare-and-swap that matched");
    cr_assert_eq(rma_am_acc(&w, 0, 0, &one, 1, DT_INT32, RMP_OP_NULL, &cmp, 4, &old, &cmp),
                 RMP_SUCCESS);
    wait_all();
    cr_assert(old == 99 && m[2] == 99, "compare-and-swap that did not");
    cr_assert_eq(t.error, RMP_SUCCESS);
    cr_assert_eq(rma_am_acc(&w, 0, 0, &pc, 1, DT_DOUBLE, RMP_BXOR, in, 16, NULL, NULL),
                 RMP_ERR_OP, "refused at the origin: nothing issued");
}

/* MPI_SHORT_INT's elements: short value, a 2-byte hole, int index. Two of them flatten to
 * pieces of 2, 6 and 4 bytes, none whole elements: they go as a piece list per packet. */
Test(rma_am, accumulates_of_elements_split_across_pieces)
{
    struct { int16_t v; int32_t i; } *m = (void *)mem;
    m[0].v = 5, m[0].i = 7, m[1].v = 9, m[1].i = 1;
    char in[12], res[12];
    int16_t v0 = 6, v1 = 3;
    int32_t i0 = 2, i1 = 4;
    memcpy(in, &v0, 2), memcpy(in + 2, &i0, 4), memcpy(in + 6, &v1, 2), memcpy(in + 8, &i1, 4);
    rma_piece_t pcs[3] = {{0, 2}, {4, 6}, {12, 4}};
    cr_assert_eq(rma_am_acc(&w, 0, 0, pcs, 3, DT_SHORT_INT, RMP_MAXLOC, in, 12, res, NULL),
                 RMP_SUCCESS);
    wait_all();
    cr_assert_eq(t.error, RMP_SUCCESS);
    cr_assert(m[0].v == 6 && m[0].i == 2 && m[1].v == 9 && m[1].i == 1, "maxloc per element");
    int16_t r0, r1;
    int32_t ri0, ri1;
    memcpy(&r0, res, 2), memcpy(&ri0, res + 2, 4);
    memcpy(&r1, res + 6, 2), memcpy(&ri1, res + 8, 4);
    cr_assert(r0 == 5 && ri0 == 7 && r1 == 9 && ri1 == 1, "the elements before, packed");
}

Test(rma_am, range_checked_again_at_the_target)
{
    char src[16] = "0123456789abcdef";
    rma_piece_t pc = {MEM - 8, 16};
    cr_assert_eq(rma_am_put(&w, 0, 0, &pc, 1, src, 16), RMP_SUCCESS);
    wait_all();
    cr_assert_eq(t.error, RMP_ERR_RMA_RANGE);
    cr_assert_eq(mem[MEM - 8], 0, "nothing written");
    t.error = RMP_SUCCESS;
    rma_piece_t far = {0, 8};
    cr_assert_eq(rma_am_get(&w, 0, UINT64_MAX - 3, &far, 1, src, 8), RMP_SUCCESS);
    wait_all();
    cr_assert_eq(t.error, RMP_ERR_RMA_RANGE, "no wrap-around past the end");
}

Test(rma_am, lock_unlock_and_flush)
{
    cr_assert_eq(rma_am_lock(&w, 0, RMA_LK_EXCL), RMP_SUCCESS);
    cr_assert_eq(rma_am_flush(&w, 0), RMP_SUCCESS);
    cr_assert_eq(rma_am_unlock(&w, 0), RMP_SUCCESS);
    cr_assert_eq(rma_am_unlock(&w, 0), RMP_ERR_RMA_SYNC, "unlock of no lock held");
    cr_assert_eq(rma_am_lock(&w, 0, RMA_LK_SHARED), RMP_SUCCESS);
    cr_assert_eq(rma_am_lock(&w, 0, RMA_LK_SHARED), RMP_SUCCESS, "shared holders together");
    cr_assert_eq(rma_am_unlock(&w, 0), RMP_SUCCESS);
    cr_assert_eq(rma_am_unlock(&w, 0), RMP_SUCCESS);
    cr_assert_eq(rma_am_lock(&w, 0, RMA_LK_NONE), RMP_ERR_ARG);
}

Test(rma_am, packets_for_a_window_not_registered_yet_are_kept)
{
    rma_am_unregister(&w);
    char src[8] = "abcdefg";
    rma_piece_t pc = {16, 8};
    cr_assert_eq(rma_am_put(&w, 0, 0, &pc, 1, src, 8), RMP_SUCCESS);
    spin();
    cr_assert_eq(mem[16], 0, "not applied: no window yet");
    cr_assert_eq(t.completed, 0);
    cr_assert_eq(rma_am_register(&w), RMP_SUCCESS);
    wait_all();
    cr_assert_eq(memcmp(mem + 16, src, 8), 0);
    cr_assert_eq(t.error, RMP_SUCCESS);
}

Test(rma_am, a_failed_target_ends_what_waits_on_it)
{
    char src[8] = "abcdefg";
    rma_piece_t pc = {0, 8};
    cr_assert_eq(rma_am_put(&w, 0, 0, &pc, 1, src, 8), RMP_SUCCESS);
    core_peer_failed(&rmp_ctx, 0, RMP_ERR_PEER, "test: the target dies");
    cr_assert_eq(t.completed, t.issued);
    cr_assert_eq(t.error, RMP_ERR_PEER);
    cr_assert_eq(rma_am_put(&w, 0, 0, &pc, 1, src, 8), RMP_ERR_PEER, "then refused at once");
    cr_assert_eq(rma_am_flush(&w, 0), RMP_ERR_PEER);
}

/* ---- packets no rmp rank sends ---- */

static void deliver(const void *pkt, size_t len)
{
    void *copy = malloc(len);
    cr_assert_not_null(copy);
    memcpy(copy, pkt, len);
    core_deliver(&rmp_ctx, 0, copy, len);
    free(copy);
}

static void assert_garbled(void)
{
    cr_assert_eq(rmp_ctx.peers[0].failed, RMP_ERR_TRANSPORT);
    cr_assert(rmp_ctx.peers[0].garbled);
}

static pkt_rma_t hdr(uint8_t kind)
{
    return (pkt_rma_t){.type = PKT_RMA, .kind = kind, .ctx = w.c->ctx_id};
}

Test(rma_am, unknown_kind_is_garbled)
{
    pkt_rma_t h = hdr(PKT_RMA_NKINDS);
    deliver(&h, sizeof(h));
    assert_garbled();
}

Test(rma_am, put_longer_than_its_packet_is_garbled)
{
    struct {
        pkt_rma_t h;
        char d[4];
    } p = {.h = hdr(PKT_RMA_PUT), .d = "abc"};
    p.h.len = UINT64_MAX;
    deliver(&p, sizeof(p.h) + 4);
    assert_garbled();
    cr_assert_eq(mem[0], 0);
}

Test(rma_am, truncated_header_is_garbled)
{
    pkt_rma_t h = hdr(PKT_RMA_FLUSH);
    deliver(&h, sizeof(h) - 1);
    assert_garbled();
}

Test(rma_am, get_with_a_payload_is_garbled)
{
    struct {
        pkt_rma_t h;
        char d[8];
    } p = {.h = hdr(PKT_RMA_GET)};
    p.h.len = 8;
    deliver(&p, sizeof(p));
    assert_garbled();
}

Test(rma_am, cas_without_its_comparand_is_garbled)
{
    struct {
        pkt_rma_t h;
        int32_t v;
    } p = {.h = hdr(PKT_RMA_CAS), .v = 1};
    p.h.base = DT_INT32;
    p.h.len = 4;
    deliver(&p, sizeof(p.h) + 4);
    assert_garbled();
}

Test(rma_am, accumulate_of_no_builtin_type_is_garbled)
{
    struct {
        pkt_rma_t h;
        int32_t v;
    } p = {.h = hdr(PKT_RMA_ACC), .v = 1};
    p.h.base = DT_NBUILTIN + 3;
    p.h.len = 4;
    deliver(&p, sizeof(p.h) + 4);
    assert_garbled();
}

Test(rma_am, accumulate_of_part_of_an_element_is_garbled)
{
    struct {
        pkt_rma_t h;
        char v[6];
    } p = {.h = hdr(PKT_RMA_ACC)};
    p.h.base = DT_INT32;
    p.h.op = RMP_SUM;
    p.h.len = 6;
    deliver(&p, sizeof(p.h) + 6); /* well formed for wire.c: am_target.c refuses it */
    assert_garbled();
    cr_assert_eq(mem[0], 0);
}

Test(rma_am, accumulate_with_an_op_the_type_has_not_is_garbled)
{
    struct {
        pkt_rma_t h;
        double v;
    } p = {.h = hdr(PKT_RMA_ACC), .v = 1.0};
    p.h.base = DT_DOUBLE;
    p.h.op = RMP_BXOR;
    p.h.len = 8;
    deliver(&p, sizeof(p));
    assert_garbled();
}

/* A piece list whose lengths do not add up to the data is no rmp rank's: garbled. */
Test(rma_am, piece_list_longer_than_its_data_is_garbled)
{
    struct {
        pkt_rma_t h;
        pkt_rma_piece_t pc;
        int32_t v;
    } p = {.h = hdr(PKT_RMA_ACC), .pc = {0, 8}, .v = 1};
    p.h.base = DT_INT32;
    p.h.op = RMP_SUM;
    p.h.flags = PKT_RMA_F_PIECES;
    p.h.pad = 1;
    p.h.len = 4;
    /* well formed for wire.c: am_target.c refuses it */
    deliver(&p, sizeof(p.h) + sizeof(p.pc) + 4);
    assert_garbled();
    cr_assert_eq(mem[0], 0);
}

/* A list said longer than what arrived fails wire.c's check. */
Test(rma_am, piece_list_that_did_not_arrive_is_garbled)
{
    struct {
        pkt_rma_t h;
        pkt_rma_piece_t pc;
    } p = {.h = hdr(PKT_RMA_ACC), .pc = {0, 4}};
    p.h.base = DT_INT32;
    p.h.op = RMP_NO_OP;
    p.h.flags = PKT_RMA_F_PIECES | PKT_RMA_F_NODATA;
    p.h.pad = 2;
    p.h.len = 4;
    deliver(&p, sizeof(p));
    assert_garbled();
}

Test(rma_am, answer_to_no_operation_is_garbled)
{
    pkt_rma_t h = hdr(PKT_RMA_ACK);
    h.id = 0x4141414141414141ull;
    deliver(&h, sizeof(h));
    assert_garbled();
}

Test(rma_am, data_beyond_the_buffer_it_answers_is_garbled)
{
    char dst[8];
    rma_piece_t pc = {0, 8};
    cr_assert_eq(rma_am_get(&w, 0, 0, &pc, 1, dst, 8), RMP_SUCCESS);
    /* the get is in flight (not progressed): a DATA for it with pos past dst. Each test runs
     * in a fresh process, so this is the first operation: slot 0, generation 1. */
    struct {
        pkt_rma_t h;
        char d[8];
    } p = {.h = hdr(PKT_RMA_DATA)};
    p.h.len = 8;
    p.h.pos = 4;
    p.h.id = UINT64_C(1) << 32;
    deliver(&p, sizeof(p));
    assert_garbled();
    cr_assert_eq(t.completed, t.issued, "the get ended with the sender's failure");
    cr_assert_eq(t.error, RMP_ERR_TRANSPORT);
}

Test(rma_am, request_from_outside_the_window_is_garbled)
{
    rma_am_unregister(&w);
    /* the window's communicator, its one rank renamed: world rank 0 is no member */
    comm_t fake = *w.c;
    int world1[1] = {5};
    fake.world = world1;
    win_t w2 = w;
    w2.c = &fake;
    cr_assert_eq(rma_am_register(&w2), RMP_SUCCESS);
    pkt_rma_t h = hdr(PKT_RMA_FLUSH);
    deliver(&h, sizeof(h));
    assert_garbled();
    rma_am_unregister(&w2);
    cr_assert_eq(rma_am_register(&w), RMP_SUCCESS);
}
