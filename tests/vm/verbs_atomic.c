/* verbs_atomic.c — barrier and allreduce on RDMA atomics (runtime/transport/verbs/verbs_atomic.c),
 * exact results asserted, under RMP_COLL_OFFLOAD=on in the VM suite.
 *   verbs_atomic check ITERS  ITERS back-to-back allreduces cycling through every op (SUM MIN
 *                             MAX BAND BOR), type (int64 uint64 int32 uint32) and 1..4 words,
 *                             a barrier after every 7th; values of both signs and extremes
 *   verbs_atomic mix ROUNDS   per round: nonblocking allreduce and barrier on two other
 *                             communicators (a dup and an even/odd split) in flight together
 *                             with a p2p ring and a blocking allreduce on the world
 *   verbs_atomic kill         rank 1 dies by SIGKILL between barriers: the job must end */
#include <signal.h>
#include <stdint.h>

#include "../progs/progs.h"

static const rmp_op_t ops[] = {RMP_SUM, RMP_MIN, RMP_MAX, RMP_BAND, RMP_BOR};
static const char *const op_names[] = {"SUM", "MIN", "MAX", "BAND", "BOR"};
static const rmp_datatype_t types[] = {RMP_INT64, RMP_UINT64, RMP_INT32, RMP_UINT32};
static const char *const type_names[] = {"int64", "uint64", "int32", "uint32"};

/* Rank r's word w in iteration i: mixed bits, sometimes an extreme of the type. */
static uint64_t value(int r, long i, int w)
{
    uint64_t x = mix64(((uint64_t)i << 20) ^ ((uint64_t)r << 8) ^ (uint64_t)w);
    switch (x % 8) {
    case 0: return 0;
    case 1: return ~0ull;            /* -1, or the unsigned maximum */
    case 2: return 1ull << 63;       /* INT64_MIN (int32: 0) */
    case 3: return 0x7fffffffull;    /* INT32_MAX */
    default: return x >> (x % 5 * 8);
    }
}

static uint64_t reduce2(int op, int t, uint64_t a, uint64_t b)
{
    bool sgn = t == 0 || t == 2, narrow = t >= 2;
    int64_t sa = narrow ? (int32_t)a : (int64_t)a, sb = narrow ? (int32_t)b : (int64_t)b;
    uint64_t ua = narrow ? (uint32_t)a : a, ub = narrow ? (uint32_t)b : b;
    switch (op) {
    case 0: return a + b;
    case 1: return sgn ? (uint64_t)(sa < sb ? sa : sb) : (ua < ub ? ua : ub);
    case 2: return sgn ? (uint64_t)(sa > sb ? sa : sb) : (ua > ub ? ua : ub);
    case 3: return a & b;
    default: return a | b;
    }
}

static void put(int t, void *buf, int w, uint64_t x)
{
    if (t >= 2) {
        uint32_t y = (uint32_t)x;
        memcpy((char *)buf + 4 * w, &y, 4);
    } else {
        memcpy((char *)buf + 8 * w, &x, 8);
    }
}

static uint64_t get(int t, const void *buf, int w)
{
    if (t >= 2) {
        uint32_t y;
        memcpy(&y, (const char *)buf + 4 * w, 4);
        return y;
    }
    uint64_t x;
    memcpy(&x, (const char *)buf + 8 * w, 8);
    return x;
}

/* One allreduce of iteration i on comm (ranks of comm = me/n), checked word by word. */
static void one(rmp_comm_t comm, int me, long i, bool nonblocking, rmp_request_t *req,
                uint64_t *in, uint64_t *out)
{
    int op = (int)(i % 5), t = (int)(i / 5 % 4), nw = 1 + (int)(i / 20 % 4);
    for (int w = 0; w < nw; w++)
        put(t, in, w, value(me, i, w));
    memset(out, 0xa5, 64);
    if (nonblocking)
        MUST(rmp_iallreduce(in, out, nw, types[t], ops[op], comm, req));
    else
        MUST(rmp_allreduce(in, out, nw, types[t], ops[op], comm));
}

static long check_one(int n, long i, const uint64_t *out, const char *what)
{
    int op = (int)(i % 5), t = (int)(i / 5 % 4), nw = 1 + (int)(i / 20 % 4);
    for (int w = 0; w < nw; w++) {
        uint64_t want = value(0, i, w);
        for (int r = 1; r < n; r++)
            want = reduce2(op, t, want, value(r, i, w));
        uint64_t mask = t >= 2 ? 0xffffffffull : ~0ull;
        if ((get(t, out, w) & mask) != (want & mask)) {
            FAIL("%s iteration %ld: %s %s x%d word %d: got 0x%llx, expected 0x%llx", what, i,
                 op_names[op], type_names[t], nw, w, (unsigned long long)get(t, out, w),
                 (unsigned long long)(want & mask));
            return 1;
        }
    }
    return 0;
}

static int run_check(long iters, int me, int n)
{
    uint64_t in[8], out[8];
    long bad = 0;
    double t0 = rmp_wtime();
    phase("back-to-back allreduces", 600);
    for (long i = 0; i < iters && bad < 5; i++) {
        one(RMP_COMM_WORLD, me, i, false, NULL, in, out);
        bad += check_one(n, i, out, "world");
        if (i % 7 == 6)
            MUST(rmp_barrier(RMP_COMM_WORLD));
        if (me == 0 && i % 20000 == 19999) {
            printf("rank 0: %ld allreduces so far, %.0f us per call\n", i + 1,
                   (rmp_wtime() - t0) / (double)(i + 1 + (i + 1) / 7) * 1e6);
            fflush(stdout);
        }
    }
    double dt = rmp_wtime() - t0;
    if (me == 0)
        printf("rank 0: %ld allreduces (+%ld barriers) back to back, %d ranks, %.1f us each: %s\n",
               iters, iters / 7, n, dt / (double)(iters + iters / 7) * 1e6, bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}

/* Traffic on the world and two other communicators at once, collectives nonblocking. */
static int run_mix(long rounds, int me, int n)
{
    rmp_comm_t dup, half;
    MUST(rmp_comm_dup(RMP_COMM_WORLD, &dup));
    MUST(rmp_comm_split(RMP_COMM_WORLD, me % 2, me, &half));
    int hme, hn;
    MUST(rmp_comm_rank(half, &hme));
    MUST(rmp_comm_size(half, &hn));
    uint64_t in[3][8], out[3][8];
    long bad = 0;
    phase("mixed traffic", 600);
    for (long i = 0; i < rounds && bad < 5; i++) {
        rmp_request_t rq[6];
        int nr = 0;
        one(dup, me, i, true, &rq[nr++], in[0], out[0]);
        if (hn > 1)
            one(half, hme, i + 7, true, &rq[nr++], in[1], out[1]);
        MUST(rmp_ibarrier(half, &rq[nr++]));
        uint64_t token = (uint64_t)i * 1000 + (uint64_t)me, got = 0;
        MUST(rmp_irecv(&got, 1, RMP_UINT64, (me + n - 1) % n, 5, RMP_COMM_WORLD, &rq[nr++]));
        MUST(rmp_isend(&token, 1, RMP_UINT64, (me + 1) % n, 5, RMP_COMM_WORLD, &rq[nr++]));
        one(RMP_COMM_WORLD, me, i + 3, false, NULL, in[2], out[2]);
        bad += check_one(n, i + 3, out[2], "world");
        MUST(rmp_waitall(nr, rq, RMP_STATUSES_IGNORE));
        bad += check_one(n, i, out[0], "dup");
        if (hn > 1)
            bad += check_one(hn, i + 7, out[1], "split");
        EXPECT(got == (uint64_t)i * 1000 + (uint64_t)((me + n - 1) % n),
               "round %ld: p2p ring got %llu", i, (unsigned long long)got);
    }
    MUST(rmp_comm_free(&dup));
    MUST(rmp_comm_free(&half));
    if (me == 0)
        printf("rank 0: %ld rounds of allreduce on world, dup and split with ibarrier and p2p in "
               "flight, %d ranks: %s\n", rounds, n, bad || prog_failures ? "FAILED" : "ok");
    return bad ? 1 : 0;
}

static int run_kill(int me)
{
    for (int i = 0; i < 200; i++) {
        if (me == 1 && i == 100) {
            printf("rank 1: raising SIGKILL in barrier round %d\n", i);
            fflush(stdout);
            raise(SIGKILL);
        }
        phase("barriers with rank 1 dying (mrun should end the job)", 60);
        int rc = rmp_barrier(RMP_COMM_WORLD);
        if (rc != RMP_SUCCESS) {
            EXPECT(rc == RMP_ERR_PEER, "barrier %d returned %d (%s), expected RMP_ERR_PEER", i,
                   rc, rmp_strerror(rc));
            printf("rank %d: barrier %d failed: %s\n", me, i, rmp_strerror(rc));
            fflush(stdout);
            pause(); /* mrun ends the job (the watchdog if it does not) */
        }
    }
    FAIL("200 barriers completed although rank 1 died");
    return 1;
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    int me, n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &me));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = me;
    const char *mode = argc > 1 ? argv[1] : "check";
    long num = argc > 2 ? atol(argv[2]) : 1000;
    int rc;
    if (!strcmp(mode, "check"))
        rc = run_check(num, me, n);
    else if (!strcmp(mode, "mix"))
        rc = run_mix(num, me, n);
    else if (!strcmp(mode, "kill"))
        rc = run_kill(me);
    else {
        FAIL("usage: verbs_atomic check|mix ITERS | kill");
        rc = 2;
    }
    phase("finalize", 60);
    MUST(rmp_finalize());
    if (rc == 0 && prog_failures == 0 && me == 0)
        printf("verbs_atomic: OK\n");
    return rc || prog_failures ? 1 : 0;
}
