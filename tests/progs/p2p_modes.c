/* p2p_modes.c — the point-to-point calls beyond send/recv, exact results at any n: a
 * synchronous send that stays incomplete until its receive is posted (to a peer and to self),
 * buffered sends (exact fit, no room, no buffer, detach waiting), persistent send/recv pairs
 * restarted 1000 times (eager, rendezvous, strided type) with startall, every persistent send
 * mode, waitsome/testsome indices and statuses, request_free of an active send and receive,
 * matched probes that a concurrent receive (or thread) cannot steal from, sendrecv_replace of
 * 1 MiB around a ring, comm_split_type (argv[1]: the job's virtual nodes, `mrun --nodes K`),
 * and the error codes of bad arguments. Runs with RMP_THREAD_MULTIPLE (the two-thread mprobe
 * case needs it). Prints "p2p_modes: OK" from rank 0 when every rank passed. */
#include <pthread.h>
#include <sched.h>

#include "progs.h"

static int me, np, right, left;
static rmp_datatype_t vec; /* vector(2,1,2) of int32: 2 ints of data in 3 */

enum { BIG = 1 << 20 }; /* bytes: past any eager limit */

static int32_t val(int from, int iter, int i)
{
    return from * 1000003 + iter * 7919 + i;
}

static void fill_ints(int32_t *buf, int n, int from, int iter)
{
    for (int i = 0; i < n; i++)
        buf[i] = val(from, iter, i);
}

/* The first index where buf differs from fill_ints(from, iter), or n. */
static int bad_int(const int32_t *buf, int n, int from, int iter)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != val(from, iter, i))
            return i;
    return n;
}

/* Test req for `secs` seconds: it must stay incomplete all along. */
static void stays_pending(rmp_request_t *req, double secs, const char *what)
{
    double t0 = rmp_wtime();
    int flag = 0;
    while (rmp_wtime() - t0 < secs && !flag)
        CHECK(rmp_test(req, &flag, RMP_STATUS_IGNORE));
    EXPECT(!flag, "%s completed before its receive was posted", what);
}

/* ---- synchronous sends ---- */

/* To self: the issend stays pending until the receive is posted, at every size. */
static void t_ssend_self(void)
{
    static int32_t out[BIG / 4], in[BIG / 4];
    int sizes[] = {0, 1, 16, BIG / 4};
    for (int k = 0; k < 4; k++) {
        fill_ints(out, sizes[k], me, k);
        rmp_request_t rq[2];
        CHECK(rmp_issend(out, sizes[k], RMP_INT32, me, 5, RMP_COMM_WORLD, &rq[0]));
        stays_pending(&rq[0], 0.05, "issend to self");
        CHECK(rmp_irecv(in, sizes[k], RMP_INT32, me, 5, RMP_COMM_WORLD, &rq[1]));
        CHECK(rmp_waitall(2, rq, RMP_STATUSES_IGNORE));
        EXPECT(bad_int(in, sizes[k], me, k) == sizes[k], "issend to self of %d ints: data",
               sizes[k]);
    }
}

/* Even rank r and r+1: r's issend stays pending while r+1 waits for a "go" that r sends
 * only after 0.2 s of tests; then r+1 receives, and the issend completes. */
static void t_ssend_pair(void)
{
    int32_t out[8], in[8], go = 1;
    if (me % 2 == 0 && me + 1 < np) {
        fill_ints(out, 8, me, 0);
        rmp_request_t rq;
        CHECK(rmp_issend(out, 8, RMP_INT32, me + 1, 6, RMP_COMM_WORLD, &rq));
        stays_pending(&rq, 0.2, "issend to a peer");
        CHECK(rmp_send(&go, 1, RMP_INT32, me + 1, 7, RMP_COMM_WORLD));
        CHECK(rmp_wait(&rq, RMP_STATUS_IGNORE));
        EXPECT(rq == RMP_REQUEST_NULL, "issend: handle not reset");
        CHECK(rmp_ssend(out, 8, RMP_INT32, me + 1, 8, RMP_COMM_WORLD)); /* posted ahead */
    } else if (me % 2 == 1) {
        rmp_request_t pre;
        CHECK(rmp_irecv(in, 8, RMP_INT32, me - 1, 8, RMP_COMM_WORLD, &pre));
        CHECK(rmp_recv(&go, 1, RMP_INT32, me - 1, 7, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
        CHECK(rmp_recv(in, 8, RMP_INT32, me - 1, 6, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
        EXPECT(bad_int(in, 8, me - 1, 0) == 8, "issend from a peer: data");
        memset(in, 0, sizeof in);
        CHECK(rmp_wait(&pre, RMP_STATUS_IGNORE));
        EXPECT(bad_int(in, 8, me - 1, 0) == 8, "ssend to a posted receive: data");
    }
    CHECK(rmp_rsend(out, 0, RMP_INT32, RMP_PROC_NULL, 1, RMP_COMM_WORLD));
    CHECK(rmp_ssend(out, 0, RMP_INT32, RMP_PROC_NULL, 1, RMP_COMM_WORLD));
}

/* A ready send to a receive posted before a barrier. */
static void t_rsend(void)
{
    int32_t out[4], in[4];
    fill_ints(out, 4, me, 3);
    rmp_request_t rq, sq;
    CHECK(rmp_irecv(in, 4, RMP_INT32, left, 9, RMP_COMM_WORLD, &rq));
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_irsend(out, 4, RMP_INT32, right, 9, RMP_COMM_WORLD, &sq));
    CHECK(rmp_wait(&sq, RMP_STATUS_IGNORE));
    CHECK(rmp_wait(&rq, RMP_STATUS_IGNORE));
    EXPECT(bad_int(in, 4, left, 3) == 4, "irsend: data");
}

/* ---- buffered sends ---- */

static void t_bsend(void)
{
    static int32_t out[BIG / 4], in[BIG / 4];
    enum { SMALL = 100 };
    char *buf = malloc(BIG + RMP_BSEND_OVERHEAD);
    void *got;
    int size;
    EXPECT_RC(RMP_ERR_BUFFER, rmp_bsend(out, 1, RMP_INT32, right, 20, RMP_COMM_WORLD));
    /* one byte short of a small message, then an exact fit */
    MUST(rmp_buffer_attach(buf, SMALL * 4 + RMP_BSEND_OVERHEAD - 1));
    EXPECT_RC(RMP_ERR_BUFFER, rmp_buffer_attach(buf, 10));
    EXPECT_RC(RMP_ERR_BUFFER, rmp_bsend(out, SMALL, RMP_INT32, right, 20, RMP_COMM_WORLD));
    MUST(rmp_buffer_detach(&got, &size));
    EXPECT(got == buf && size == SMALL * 4 + RMP_BSEND_OVERHEAD - 1, "detach: %p %d", got,
           size);
    MUST(rmp_buffer_attach(buf, SMALL * 4 + RMP_BSEND_OVERHEAD));
    fill_ints(out, SMALL, me, 20);
    rmp_request_t rq;
    CHECK(rmp_ibsend(out, SMALL, RMP_INT32, right, 20, RMP_COMM_WORLD, &rq));
    int flag = 0;
    CHECK(rmp_test(&rq, &flag, RMP_STATUS_IGNORE));
    EXPECT(flag == 1, "ibsend: not complete at once");
    memset(out, 0, SMALL * 4); /* the copy was taken */
    CHECK(rmp_recv(in, SMALL, RMP_INT32, left, 20, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    EXPECT(bad_int(in, SMALL, left, 20) == SMALL, "ibsend: data");
    MUST(rmp_buffer_detach(&got, &size));
    /* a rendezvous-sized message holds the whole buffer until its receiver matched it */
    MUST(rmp_buffer_attach(buf, BIG + RMP_BSEND_OVERHEAD));
    fill_ints(out, BIG / 4, me, 21);
    CHECK(rmp_bsend(out, BIG / 4, RMP_INT32, right, 21, RMP_COMM_WORLD));
    EXPECT_RC(RMP_ERR_BUFFER, rmp_bsend(out, 0, RMP_INT32, right, 22, RMP_COMM_WORLD));
    CHECK(rmp_bsend(out, 1, RMP_INT32, RMP_PROC_NULL, 22, RMP_COMM_WORLD));
    CHECK(rmp_barrier(RMP_COMM_WORLD)); /* every rank saw its buffer full */
    CHECK(rmp_recv(in, BIG / 4, RMP_INT32, left, 21, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    EXPECT(bad_int(in, BIG / 4, left, 21) == BIG / 4, "bsend of 1 MiB: data");
    MUST(rmp_buffer_detach(&got, &size)); /* waits for the send to the right */
    EXPECT(got == buf && size == BIG + RMP_BSEND_OVERHEAD, "detach: %p %d", got, size);
    /* a strided type is packed into the buffer */
    MUST(rmp_buffer_attach(buf, 64 * 4 + RMP_BSEND_OVERHEAD));
    int32_t strided[96];
    for (int i = 0; i < 96; i++)
        strided[i] = i % 3 == 1 ? -1 : val(me, 23, i / 3 * 2 + (i % 3 == 2));
    CHECK(rmp_bsend(strided, 32, vec, right, 23, RMP_COMM_WORLD));
    CHECK(rmp_recv(in, 64, RMP_INT32, left, 23, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    EXPECT(bad_int(in, 64, left, 23) == 64, "bsend of a strided type: data");
    MUST(rmp_buffer_detach(&got, &size));
    EXPECT_RC(RMP_SUCCESS, rmp_buffer_detach(&got, &size));
    EXPECT(got == NULL && size == 0, "detach of nothing: %p %d", got, size);
    free(buf);
}

/* ---- persistent requests ---- */

/* A persistent receive from the left and send to the right of n ints (or n/2 elements of vec,
 * through a strided buffer), restarted `iters` times with new data each time. */
static void persist_ring(int n, bool strided, int iters)
{
    int32_t *out = malloc(sizeof(int32_t) * (size_t)n * 3 / 2 + 8);
    int32_t *in = malloc(sizeof(int32_t) * (size_t)n * 3 / 2 + 8);
    int32_t *pack = malloc(sizeof(int32_t) * (size_t)n);
    rmp_datatype_t t = strided ? vec : RMP_INT32;
    int cnt = strided ? n / 2 : n;
    rmp_request_t rq[2];
    MUST(rmp_recv_init(in, cnt, t, left, 30, RMP_COMM_WORLD, &rq[0]));
    MUST(rmp_send_init(out, cnt, t, right, 30, RMP_COMM_WORLD, &rq[1]));
    rmp_request_t keep[2] = {rq[0], rq[1]};
    for (int it = 0; it < iters && prog_failures < 5; it++) {
        fill_ints(pack, n, me, it);
        for (int i = 0; i < n; i++)
            out[strided ? i / 2 * 3 + i % 2 * 2 : i] = pack[i];
        CHECK(rmp_startall(2, rq));
        rmp_status_t st[2];
        CHECK(rmp_waitall(2, rq, st));
        EXPECT(rq[0] == keep[0] && rq[1] == keep[1], "persistent handles changed at %d", it);
        EXPECT(st[0].source == left && st[0].tag == 30 && st[0].count == (size_t)n * 4,
               "persistent recv %d: status %d %d %zu", it, st[0].source, st[0].tag,
               st[0].count);
        for (int i = 0; i < n; i++)
            pack[i] = in[strided ? i / 2 * 3 + i % 2 * 2 : i];
        int b = bad_int(pack, n, left, it);
        EXPECT(b == n, "persistent ring (%d ints%s) iteration %d: int %d wrong", n,
               strided ? ", strided" : "", it, b);
    }
    rmp_status_t st = {.source = 99};
    CHECK(rmp_wait(&rq[0], &st)); /* inactive: at once, empty */
    EXPECT(rq[0] == keep[0] && st.source == RMP_ANY_SOURCE && st.tag == RMP_ANY_TAG &&
               st.count == 0, "wait on an inactive request: status %d %d %zu", st.source,
           st.tag, st.count);
    CHECK(rmp_request_free(&rq[0]));
    CHECK(rmp_request_free(&rq[1]));
    EXPECT(rq[0] == RMP_REQUEST_NULL && rq[1] == RMP_REQUEST_NULL, "request_free: not reset");
    EXPECT_RC(RMP_ERR_REQUEST, rmp_start(&keep[0]));
    free(out);
    free(in);
    free(pack);
}

/* Each persistent send mode once more, with start (not startall), and the test calls. */
static void persist_modes(void)
{
    int32_t out[16], in[16];
    char *bbuf = malloc(16 * 4 + RMP_BSEND_OVERHEAD);
    void *got;
    int size;
    MUST(rmp_buffer_attach(bbuf, 16 * 4 + RMP_BSEND_OVERHEAD));
    rmp_request_t s[3], r;
    MUST(rmp_ssend_init(out, 16, RMP_INT32, right, 31, RMP_COMM_WORLD, &s[0]));
    MUST(rmp_bsend_init(out, 16, RMP_INT32, right, 31, RMP_COMM_WORLD, &s[1]));
    MUST(rmp_rsend_init(out, 16, RMP_INT32, right, 31, RMP_COMM_WORLD, &s[2]));
    MUST(rmp_recv_init(in, 16, RMP_INT32, left, 31, RMP_COMM_WORLD, &r));
    for (int k = 0; k < 3 * 4; k++) {
        CHECK(rmp_start(&r));
        CHECK(rmp_barrier(RMP_COMM_WORLD)); /* the ready send needs its receive posted */
        fill_ints(out, 16, me, k);
        CHECK(rmp_start(&s[k % 3]));
        EXPECT_RC(RMP_ERR_REQUEST, rmp_start(&s[k % 3])); /* active */
        int flag = 0;
        while (!flag)
            CHECK(rmp_test(&r, &flag, RMP_STATUS_IGNORE));
        CHECK(rmp_wait(&s[k % 3], RMP_STATUS_IGNORE));
        EXPECT(bad_int(in, 16, left, k) == 16, "persistent mode %d round %d: data", k % 3, k);
    }
    for (int k = 0; k < 3; k++)
        CHECK(rmp_request_free(&s[k]));
    CHECK(rmp_request_free(&r));
    MUST(rmp_buffer_detach(&got, &size));
    free(bbuf);
    /* to RMP_PROC_NULL: starts complete at once with the null status */
    MUST(rmp_recv_init(in, 16, RMP_INT32, RMP_PROC_NULL, 1, RMP_COMM_WORLD, &r));
    CHECK(rmp_start(&r));
    rmp_status_t st;
    CHECK(rmp_wait(&r, &st));
    EXPECT(st.source == RMP_PROC_NULL && st.count == 0, "persistent recv from PROC_NULL: %d",
           st.source);
    CHECK(rmp_request_free(&r));
}

/* ---- waitsome / testsome ---- */

static void t_some(void)
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
static void t_request_free(void)
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
static void t_mprobe_order(void)
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

static void t_mprobe_threads(void)
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

static void t_replace(void)
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

/* ---- split_type ---- */

static int nnodes = 1; /* argv[1]: the job's (virtual) nodes, as `mrun --nodes K` */

/* The node of world rank w: mrun fills nodes in blocks, the first np % nnodes get one more. */
static int node_of(int w)
{
    int q = np / nnodes, r = np % nnodes, big = r * (q + 1);
    return w < big ? w / (q + 1) : r + (w - big) / q;
}

static void t_split_type(void)
{
    rmp_comm_t node;
    MUST(rmp_comm_split_type(RMP_COMM_WORLD, RMP_COMM_TYPE_SHARED, -me, &node));
    int want[64], nw = 0; /* my node's ranks, by key -rank: in reversed order */
    for (int w = np - 1; w >= 0; w--)
        if (node_of(w) == node_of(me))
            want[nw++] = w;
    int ns = -1, nr = -1, wr = -1;
    CHECK(rmp_comm_size(node, &ns));
    CHECK(rmp_comm_rank(node, &nr));
    for (int i = 0; i < nw; i++)
        if (want[i] == me)
            wr = i;
    EXPECT(ns == nw && nr == wr, "split_type shared (%d nodes): size %d rank %d, expected %d %d",
           nnodes, ns, nr, nw, wr);
    int32_t mine = me, all[64];
    CHECK(rmp_allgather(&mine, 1, RMP_INT32, all, 1, RMP_INT32, node));
    for (int i = 0; i < ns && i < nw; i++)
        EXPECT(all[i] == want[i], "split_type shared: member %d is world %d, expected %d", i,
               all[i], want[i]);
    MUST(rmp_comm_free(&node));
    MUST(rmp_comm_split_type(RMP_COMM_WORLD, RMP_UNDEFINED, 0, &node));
    EXPECT(node == RMP_COMM_NULL, "split_type undefined: %d", node);
}

/* ---- bad arguments ---- */

static void t_errors(void)
{
    int32_t x = 0;
    rmp_request_t rq = RMP_REQUEST_NULL;
    rmp_message_t m = RMP_MESSAGE_NULL;
    int flag, out;
    EXPECT_RC(RMP_ERR_RANK, rmp_issend(&x, 1, RMP_INT32, np, 0, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_TAG, rmp_ssend(&x, 1, RMP_INT32, me, -5, RMP_COMM_WORLD));
    EXPECT_RC(RMP_ERR_ARG, rmp_irsend(&x, 1, RMP_INT32, me, 0, RMP_COMM_WORLD, NULL));
    EXPECT_RC(RMP_ERR_COMM, rmp_bsend(&x, 1, RMP_INT32, me, 0, 77));
    EXPECT_RC(RMP_ERR_COUNT, rmp_send_init(&x, -1, RMP_INT32, me, 0, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_TYPE, rmp_recv_init(&x, 1, 999, me, 0, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_BUFFER, rmp_ssend_init(NULL, 1, RMP_INT32, me, 0, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_ARG, rmp_bsend_init(&x, 1, RMP_INT32, me, 0, RMP_COMM_WORLD, NULL));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_start(&rq)); /* RMP_REQUEST_NULL */
    EXPECT_RC(RMP_ERR_REQUEST, rmp_start(NULL));
    CHECK(rmp_isend(&x, 1, RMP_INT32, me, 80, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_start(&rq)); /* not persistent */
    rmp_request_t two[2] = {rq, rq};
    EXPECT_RC(RMP_ERR_REQUEST, rmp_startall(2, two));
    CHECK(rmp_recv(&x, 1, RMP_INT32, me, 80, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    CHECK(rmp_wait(&rq, RMP_STATUS_IGNORE));
    MUST(rmp_send_init(&x, 1, RMP_INT32, me, 81, RMP_COMM_WORLD, &two[0]));
    two[1] = two[0];
    EXPECT_RC(RMP_ERR_REQUEST, rmp_startall(2, two)); /* listed twice: nothing started */
    CHECK(rmp_iprobe(me, 81, RMP_COMM_WORLD, &flag, RMP_STATUS_IGNORE));
    EXPECT(flag == 0, "startall with a duplicate started a send");
    EXPECT_RC(RMP_ERR_COUNT, rmp_startall(-1, two));
    CHECK(rmp_request_free(&two[0]));
    EXPECT_RC(RMP_ERR_ARG, rmp_waitsome(1, &rq, &out, NULL, RMP_STATUSES_IGNORE));
    EXPECT_RC(RMP_ERR_ARG, rmp_mprobe(me, 0, RMP_COMM_WORLD, NULL, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_ARG, rmp_improbe(me, 0, RMP_COMM_WORLD, NULL, &m, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_RANK, rmp_improbe(np, 0, RMP_COMM_WORLD, &flag, &m, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_mrecv(&x, 1, RMP_INT32, &m, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_ARG, rmp_mrecv(&x, 1, RMP_INT32, NULL, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_ARG, rmp_imrecv(&x, 1, RMP_INT32, &m, NULL));
    /* a message handle is not a request, and the reverse */
    CHECK(rmp_send(&x, 1, RMP_INT32, me, 82, RMP_COMM_WORLD));
    CHECK(rmp_mprobe(me, 82, RMP_COMM_WORLD, &m, RMP_STATUS_IGNORE));
    rmp_request_t as_req = (rmp_request_t)m;
    EXPECT_RC(RMP_ERR_REQUEST, rmp_wait(&as_req, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_request_free(&as_req));
    EXPECT_RC(RMP_ERR_TYPE, rmp_mrecv(&x, 1, 999, &m, RMP_STATUS_IGNORE)); /* m stays */
    CHECK(rmp_mrecv(&x, 1, RMP_INT32, &m, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_TYPE, rmp_sendrecv_replace(&x, 1, 999, me, 0, me, 0, RMP_COMM_WORLD,
                                                 RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_RANK, rmp_sendrecv_replace(&x, 1, RMP_INT32, np, 0, me, 0,
                                                 RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_COUNT, rmp_buffer_attach(&x, -1));
    EXPECT_RC(RMP_ERR_BUFFER, rmp_buffer_attach(NULL, 100));
    EXPECT_RC(RMP_ERR_ARG, rmp_buffer_detach(NULL, &out));
    EXPECT_RC(RMP_ERR_ARG, rmp_comm_split_type(RMP_COMM_WORLD, 7, 0, &out));
    EXPECT_RC(RMP_ERR_COMM, rmp_comm_split_type(77, RMP_COMM_TYPE_SHARED, 0, &out));
    EXPECT_RC(RMP_ERR_ARG, rmp_comm_split_type(RMP_COMM_WORLD, RMP_COMM_TYPE_SHARED, 0, NULL));
}

/* A buffer still attached at rmp_finalize, with a rendezvous-sized buffered send in flight:
 * the message is delivered (the right neighbour receives it before its own finalize) and
 * finalize releases the runtime's hold on the buffer (ASan: nothing leaked). */
static void t_bsend_left_attached(void)
{
    static char keep[(1 << 20) + RMP_BSEND_OVERHEAD]; /* the user's: outlives rmp_finalize */
    static int32_t data[(1 << 20) / 4], back[(1 << 20) / 4];
    MUST(rmp_buffer_attach(keep, (int)sizeof(keep)));
    fill_ints(data, (1 << 20) / 4, me, 31);
    CHECK(rmp_bsend(data, (1 << 20) / 4, RMP_INT32, right, 31, RMP_COMM_WORLD));
    CHECK(rmp_recv(back, (1 << 20) / 4, RMP_INT32, left, 31, RMP_COMM_WORLD,
                   RMP_STATUS_IGNORE));
    EXPECT(bad_int(back, (1 << 20) / 4, left, 31) == (1 << 20) / 4,
           "bsend left attached: data");
}

int main(int argc, char **argv)
{
    int provided;
    MUST(rmp_init_thread(&argc, &argv, RMP_THREAD_MULTIPLE, &provided));
    rmp_comm_rank(RMP_COMM_WORLD, &prog_rank);
    me = prog_rank;
    rmp_comm_size(RMP_COMM_WORLD, &np);
    if (argc > 1)
        nnodes = atoi(argv[1]);
    if (nnodes < 1 || nnodes > np || np > 64) {
        FAIL("usage: p2p_modes [nodes] with 1 <= nodes <= ranks <= 64 (%d, %d)", nnodes, np);
        return 1;
    }
    right = (me + 1) % np;
    left = (me + np - 1) % np;
    MUST(rmp_type_vector(2, 1, 2, RMP_INT32, &vec));
    MUST(rmp_type_commit(&vec));
    phase("ssend", 60);
    t_ssend_self();
    t_ssend_pair();
    t_rsend();
    phase("bsend", 60);
    t_bsend();
    phase("persistent", 120);
    persist_ring(16, false, 1000);
    persist_ring(16, true, 1000);
    persist_ring(BIG / 4, false, 20);
    persist_modes();
    phase("waitsome", 60);
    t_some();
    phase("request_free", 60);
    t_request_free();
    phase("mprobe", 60);
    t_mprobe_order();
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    t_mprobe_threads();
    phase("sendrecv_replace", 60);
    t_replace();
    phase("split_type", 60);
    t_split_type();
    phase("errors", 60);
    t_errors();
    MUST(rmp_type_free(&vec));
    phase("finalize with a buffer attached", 60);
    t_bsend_left_attached();
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("p2p_modes: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
