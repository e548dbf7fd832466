/* requests.c — p2p_modes's requests and probes: waitsome/testsome indices and statuses,
 * request_free of an active send and receive, matched probes that a concurrent receive (or
 * thread) cannot steal from, and sendrecv_replace of 1 MiB around a ring. */
#include "p2p_modes.h"

/* ---- waitsome / testsome ---- */

void t_some(void)
{
    int32_t in[3] = {0, 0, 0}, v[3] = {40, 41, 42};
    rmp_request_t rq[4];
    int idx[4], out = -5;
    rmp_status_t st[4];
    for (int k = 0; k < 3; k++)
        MUST(rmp_irecv(&in[k], 1, RMP_INT32, me, 40 + k, RMP_COMM_WORLD, &rq[k]));
    rq[3] = RMP_REQUEST_NULL;
    CHECK(rmp_testsome(4, rq, &out, idx, st));
    EXPECT(out == 0, "testsome with nothing sent: outcount %d", out);
    CHECK(rmp_send(&v[1], 1, RMP_INT32, me, 41, RMP_COMM_WORLD));
    CHECK(rmp_waitsome(4, rq, &out, idx, st));
    EXPECT(out == 1 && idx[0] == 1 && st[0].tag == 41 && st[0].source == me && in[1] == 41 &&
               rq[1] == RMP_REQUEST_NULL, "waitsome after tag 41: outcount %d index %d tag %d",
           out, idx[0], st[0].tag);
    CHECK(rmp_send(&v[2], 1, RMP_INT32, me, 42, RMP_COMM_WORLD));
    CHECK(rmp_send(&v[0], 1, RMP_INT32, me, 40, RMP_COMM_WORLD));
    int seen = 0;
    while (seen < 2 && prog_failures == 0) {
        CHECK(rmp_testsome(4, rq, &out, idx, st));
        for (int k = 0; k < out; k++) {
            EXPECT(idx[k] == 0 || idx[k] == 2, "testsome: index %d", idx[k]);
            EXPECT(st[k].tag == 40 + idx[k], "testsome: index %d has tag %d", idx[k],
                   st[k].tag);
            EXPECT(k == 0 || idx[k] > idx[k - 1], "testsome: indices out of order");
        }
        seen += out;
    }
    EXPECT(in[0] == 40 && in[2] == 42, "waitsome data: %d %d", in[0], in[2]);
    CHECK(rmp_waitsome(4, rq, &out, idx, RMP_STATUSES_IGNORE));
    EXPECT(out == RMP_UNDEFINED, "waitsome with none active: %d", out);
    CHECK(rmp_testsome(4, rq, &out, idx, RMP_STATUSES_IGNORE));
    EXPECT(out == RMP_UNDEFINED, "testsome with none active: %d", out);
    /* an inactive persistent request does not count */
    MUST(rmp_recv_init(in, 1, RMP_INT32, me, 43, RMP_COMM_WORLD, &rq[0]));
    CHECK(rmp_waitsome(1, rq, &out, idx, st));
    EXPECT(out == RMP_UNDEFINED && rq[0] != RMP_REQUEST_NULL, "waitsome on inactive: %d", out);
    int index = 5;
    CHECK(rmp_waitany(1, rq, &index, RMP_STATUS_IGNORE));
    EXPECT(index == RMP_UNDEFINED, "waitany on inactive: %d", index);
    EXPECT_RC(RMP_ERR_ARG, rmp_waitsome(1, rq, NULL, idx, st));
    EXPECT_RC(RMP_ERR_ARG, rmp_testsome(1, rq, &out, NULL, st));
    rq[1] = rq[0];
    EXPECT_RC(RMP_ERR_REQUEST, rmp_waitsome(2, rq, &out, idx, st));
    EXPECT_RC(RMP_ERR_COUNT, rmp_testsome(-1, rq, &out, idx, st));
    CHECK(rmp_request_free(&rq[0]));
}

/* ---- request_free ---- */

/* An active 1 MiB send (rendezvous: still waiting for its receiver) and an active receive are
 * freed; both still complete, and the receiver gets the data. */
void t_request_free(void)
{
    int32_t *out = malloc(BIG), *in = malloc(BIG), x = 0, y = 77;
    fill_ints(out, BIG / 4, me, 50);
    rmp_request_t rq, keep;
    CHECK(rmp_isend(out, BIG / 4, RMP_INT32, right, 50, RMP_COMM_WORLD, &rq));
    keep = rq;
    CHECK(rmp_request_free(&rq));
    EXPECT(rq == RMP_REQUEST_NULL, "request_free: not reset");
    EXPECT_RC(RMP_ERR_REQUEST, rmp_wait(&keep, RMP_STATUS_IGNORE));
    CHECK(rmp_recv(in, BIG / 4, RMP_INT32, left, 50, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    EXPECT(bad_int(in, BIG / 4, left, 50) == BIG / 4, "freed send: data");
    CHECK(rmp_barrier(RMP_COMM_WORLD)); /* my right neighbour has my data: out may go */
    free(out);
    /* a freed receive still takes its message */
    CHECK(rmp_irecv(&x, 1, RMP_INT32, me, 51, RMP_COMM_WORLD, &rq));
    CHECK(rmp_request_free(&rq));
    CHECK(rmp_send(&y, 1, RMP_INT32, me, 51, RMP_COMM_WORLD));
    int flag = 1;
    for (double t0 = rmp_wtime(); *(volatile int32_t *)&x != 77 && rmp_wtime() - t0 < 10;)
        CHECK(rmp_iprobe(me, 52, RMP_COMM_WORLD, &flag, RMP_STATUS_IGNORE));
    EXPECT(x == 77, "freed receive: got %d", x);
    CHECK(rmp_iprobe(me, 51, RMP_COMM_WORLD, &flag, RMP_STATUS_IGNORE));
    EXPECT(flag == 0, "freed receive: its message is still there");
    /* nonblocking collectives are not freed: complete them */
    CHECK(rmp_ibarrier(RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_request_free(&rq));
    CHECK(rmp_wait(&rq, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_request_free(&rq)); /* RMP_REQUEST_NULL */
    EXPECT_RC(RMP_ERR_REQUEST, rmp_request_free(NULL));
    free(in);
}

/* ---- matched probes ---- */

/* The message an mprobe took is not matched by a receive posted afterwards. */
void t_mprobe_order(void)
{
    int32_t a = 100 + me, b = 200 + me, ra = 0, rb = 0;
    CHECK(rmp_send(&a, 1, RMP_INT32, right, 60, RMP_COMM_WORLD));
    CHECK(rmp_send(&b, 1, RMP_INT32, right, 60, RMP_COMM_WORLD));
    rmp_message_t m;
    rmp_status_t st;
    CHECK(rmp_mprobe(left, 60, RMP_COMM_WORLD, &m, &st));
    EXPECT(st.source == left && st.tag == 60 && st.count == 4, "mprobe status %d %d %zu",
           st.source, st.tag, st.count);
    rmp_request_t rq;
    CHECK(rmp_irecv(&rb, 1, RMP_INT32, RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &rq));
    CHECK(rmp_wait(&rq, RMP_STATUS_IGNORE));
    EXPECT(rb == 200 + left, "a receive after mprobe took %d, expected %d", rb, 200 + left);
    CHECK(rmp_mrecv(&ra, 1, RMP_INT32, &m, &st));
    EXPECT(ra == 100 + left && m == RMP_MESSAGE_NULL && st.source == left,
           "mrecv got %d, expected %d", ra, 100 + left);
    /* improbe: nothing left; a large message by imrecv; PROC_NULL */
    int flag = 1;
    CHECK(rmp_improbe(left, 60, RMP_COMM_WORLD, &flag, &m, &st));
    EXPECT(flag == 0 && m == RMP_MESSAGE_NULL, "improbe of nothing: flag %d", flag);
    int32_t *out = malloc(BIG), *in = malloc(BIG);
    fill_ints(out, BIG / 4, me, 61);
    CHECK(rmp_isend(out, BIG / 4, RMP_INT32, right, 61, RMP_COMM_WORLD, &rq));
    for (flag = 0; !flag;)
        CHECK(rmp_improbe(RMP_ANY_SOURCE, 61, RMP_COMM_WORLD, &flag, &m, &st));
    EXPECT(st.count == BIG, "improbe of 1 MiB: count %zu", st.count);
    rmp_request_t mr;
    CHECK(rmp_imrecv(in, BIG / 4, RMP_INT32, &m, &mr));
    rmp_request_t both[2] = {rq, mr};
    CHECK(rmp_waitall(2, both, RMP_STATUSES_IGNORE));
    EXPECT(bad_int(in, BIG / 4, left, 61) == BIG / 4, "imrecv of 1 MiB: data");
    free(out);
    free(in);
    CHECK(rmp_mprobe(RMP_PROC_NULL, 1, RMP_COMM_WORLD, &m, &st));
    EXPECT(m == RMP_MESSAGE_NO_PROC && st.source == RMP_PROC_NULL, "mprobe of PROC_NULL");
    CHECK(rmp_mrecv(&ra, 1, RMP_INT32, &m, &st));
    EXPECT(m == RMP_MESSAGE_NULL && st.source == RMP_PROC_NULL && st.count == 0,
           "mrecv of NO_PROC");
}

/* Two threads take messages from the left with improbe + mrecv at the same time: each of the
 * NMSG messages (of its own length) is received exactly once, with the probed length. */
enum { NMSG = 400 };
static _Atomic int taken;
static unsigned char got_seq[NMSG];

static void *mprobe_thread(void *arg)
{
    (void)arg;
    int32_t buf[64];
    while (taken < NMSG && prog_failures == 0) {
        rmp_message_t m;
        rmp_status_t st, rst;
        int flag = 0;
        CHECK(rmp_improbe(left, 62, RMP_COMM_WORLD, &flag, &m, &st));
        if (!flag) {
            sched_yield(); /* the sender may need this core */
            continue;
        }
        CHECK(rmp_mrecv(buf, 64, RMP_INT32, &m, &rst));
        int seq = buf[0];
        if (seq < 0 || seq >= NMSG) {
            FAIL("mprobe threads: sequence %d", seq);
            break;
        }
        size_t want = (size_t)(1 + seq % 40) * 4;
        EXPECT(st.count == want && rst.count == want, "message %d: probed %zu, received %zu, "
               "sent %zu bytes", seq, st.count, rst.count, want);
        EXPECT(got_seq[seq]++ == 0, "message %d received twice", seq);
        taken++;
    }
    return NULL;
}

void t_mprobe_threads(void)
{
    pthread_t th[2];
    for (int k = 0; k < 2; k++)
        if (pthread_create(&th[k], NULL, mprobe_thread, NULL) != 0)
            FAIL("pthread_create failed");
    int32_t buf[64];
    for (int s = 0; s < NMSG; s++) {
        buf[0] = s;
        for (int i = 1; i < 64; i++)
            buf[i] = s * 64 + i;
        CHECK(rmp_send(buf, 1 + s % 40, RMP_INT32, right, 62, RMP_COMM_WORLD));
    }
    for (int k = 0; k < 2; k++)
        pthread_join(th[k], NULL);
    EXPECT(taken == NMSG, "mprobe threads took %d of %d messages", (int)taken, NMSG);
}

/* ---- sendrecv_replace ---- */

void t_replace(void)
{
    int32_t *buf = malloc(BIG);
    fill_ints(buf, BIG / 4, me, 70);
    rmp_status_t st;
    CHECK(rmp_sendrecv_replace(buf, BIG / 4, RMP_INT32, right, 70, left, 70, RMP_COMM_WORLD,
                               &st));
    EXPECT(bad_int(buf, BIG / 4, left, 70) == BIG / 4 && st.source == left &&
               st.count == BIG, "sendrecv_replace of 1 MiB: data or status (%d, %zu)",
           st.source, st.count);
    /* a strided type: the gaps stay as they were */
    int32_t s[30];
    for (int i = 0; i < 30; i++)
        s[i] = i % 3 == 1 ? -9 : val(me, 71, i / 3 * 2 + (i % 3 == 2));
    CHECK(rmp_sendrecv_replace(s, 10, vec, right, 71, left, 71, RMP_COMM_WORLD, &st));
    for (int i = 0; i < 30; i++) {
        int32_t want = i % 3 == 1 ? -9 : val(left, 71, i / 3 * 2 + (i % 3 == 2));
        if (s[i] != want) {
            FAIL("sendrecv_replace strided: int %d is %d, expected %d", i, s[i], want);
            break;
        }
    }
    fill_ints(buf, 4, me, 72);
    CHECK(rmp_sendrecv_replace(buf, 4, RMP_INT32, RMP_PROC_NULL, 1, RMP_PROC_NULL, 1,
                               RMP_COMM_WORLD, &st));
    EXPECT(bad_int(buf, 4, me, 72) == 4 && st.source == RMP_PROC_NULL,
           "sendrecv_replace with PROC_NULL changed the buffer");
    free(buf);
}
