/* p2p_modes.c — the point-to-point calls beyond send/recv, exact results at any n: a
 * synchronous send that stays incomplete until its receive is posted (to a peer and to self),
 * buffered sends (exact fit, no room, no buffer, detach waiting), persistent send/recv pairs
 * restarted 1000 times (eager, rendezvous, strided type) with startall, every persistent send
 * mode, waitsome/testsome indices and statuses, request_free of an active send and receive,
 * matched probes that a concurrent receive (or thread) cannot steal from, sendrecv_replace of
 * 1 MiB around a ring, comm_split_type (argv[1]: the job's virtual nodes, `mrun --nodes K`),
 * and the error codes of bad arguments. Runs with RMP_THREAD_MULTIPLE (the two-thread mprobe
 * case needs it). Prints "p2p_modes: OK" from rank 0 when every rank passed. */
#include "p2p_modes/p2p_modes.h"

int me, np, right, left;
int nnodes = 1;
rmp_datatype_t vec;

int32_t val(int from, int iter, int i)
{
    return from * 1000003 + iter * 7919 + i;
}

void fill_ints(int32_t *buf, int n, int from, int iter)
{
    for (int i = 0; i < n; i++)
        buf[i] = val(from, iter, i);
}

/* The first index where buf differs from fill_ints(from, iter), or n. */
int bad_int(const int32_t *buf, int n, int from, int iter)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != val(from, iter, i))
            return i;
    return n;
}

/* Test req for `secs` seconds: it must stay incomplete all along. */
void stays_pending(rmp_request_t *req, double secs, const char *what)
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
