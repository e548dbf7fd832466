/* coll_pipe.c — the pipelined collectives at the sizes where their segments begin and end:
 * bcast (every root) and allreduce (several types and ops, in place and not, a user op, a
 * non-contiguous type), blocking and nonblocking with point-to-point traffic and a second
 * collective in flight, each result exact against a serial reference and nothing written past
 * or between the user's elements; and allgather (in place and not) at the same sizes. The
 * algorithms come from RMP_COLL_BCAST / _ALLREDUCE / _ALLGATHER (any value works; the test
 * forces the pipelined ones and allgather's direct).
 * Usage: coll_pipe BCAST_SEG ALLREDUCE_SEG — the segment sizes (bytes) the job runs with
 * (RMP_COLL_SEGMENT, or the defaults), around which the sizes are chosen.
 * Rank 0 prints "coll_pipe: OK n=N checks=K". */
#include <inttypes.h>

#include "progs.h"

#define GUARD 64 /* bytes after every receive buffer that must keep their sentinel */
#define SENTINEL 0xA5

static int me, n;
static long checks;

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        FAIL("out of memory (%zu bytes)", bytes);
        exit(1);
    }
    return p;
}

static void guard_check(const char *what, const unsigned char *end, size_t len)
{
    for (size_t i = 0; i < GUARD; i++)
        if (end[i] != SENTINEL) {
            FAIL("%s len=%zu: byte %zu past the buffer was overwritten", what, len, i);
            return;
        }
}

/* ---- bcast ---- */

static void bcast_bytes(size_t len, int root, bool nonblocking)
{
    unsigned char *buf = xmalloc(len + GUARD);
    memset(buf, SENTINEL, len + GUARD);
    uint64_t seed = 1000003u * len + (uint64_t)root;
    if (me == root)
        fill(buf, len, seed);
    if (nonblocking) {
        rmp_request_t r;
        CHECK(rmp_ibcast(buf, (int)len, RMP_BYTE, root, RMP_COMM_WORLD, &r));
        CHECK(rmp_wait(&r, RMP_STATUS_IGNORE));
    } else {
        CHECK(rmp_bcast(buf, (int)len, RMP_BYTE, root, RMP_COMM_WORLD));
    }
    size_t bad = first_mismatch(buf, len, seed);
    if (bad != len)
        FAIL("bcast len=%zu root=%d nb=%d: byte %zu differs", len, root, nonblocking, bad);
    guard_check("bcast", buf + len, len);
    checks++;
    free(buf);
}

/* A vector type (every other int32): the gaps must stay as they were. */
static void bcast_vector(size_t elems, int root)
{
    rmp_datatype_t v;
    MUST(rmp_type_vector((int)elems, 1, 2, RMP_INT32, &v));
    MUST(rmp_type_commit(&v));
    int32_t *buf = xmalloc(2 * elems * sizeof(int32_t) + GUARD);
    memset(buf, SENTINEL, 2 * elems * sizeof(int32_t) + GUARD);
    for (size_t i = 0; i < elems && me == root; i++)
        buf[2 * i] = (int32_t)(i * 7919u + (unsigned)root);
    CHECK(rmp_bcast(buf, 1, v, root, RMP_COMM_WORLD));
    int32_t gap;
    memset(&gap, SENTINEL, sizeof gap);
    for (size_t i = 0; i < elems; i++) {
        if (buf[2 * i] != (int32_t)(i * 7919u + (unsigned)root)) {
            FAIL("bcast vector elems=%zu root=%d: element %zu is %d", elems, root, i,
                 buf[2 * i]);
            break;
        }
        if (i + 1 < elems && buf[2 * i + 1] != gap) {
            FAIL("bcast vector elems=%zu root=%d: gap %zu overwritten", elems, root, i);
            break;
        }
    }
    checks++;
    free(buf);
    CHECK(rmp_type_free(&v));
}

static void run_bcast(size_t seg)
{
    size_t lens[] = {0, 1, seg - 1, seg, seg + 1, 2 * seg, 3 * seg - 1, 3 * seg + 1,
                     5 * seg + 7};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (int root = 0; root < n; root++) {
            phase("bcast", 60);
            bcast_bytes(lens[i], root, false);
            bcast_bytes(lens[i], root, true);
        }
    for (int root = 0; root < n; root++)
        bcast_vector(seg + 3, root); /* packed: (seg + 3) * 4 bytes, several segments */
}

/* ---- allreduce ---- */

/* Rank r's element i: small integers, so that float sums are exact in any order. */
static int64_t val(int r, size_t i)
{
    return (int64_t)(mix64((uint64_t)r * 0x10001u + i) % 2001) - 1000;
}

typedef enum { T_I32, T_F64, T_I64 } kind_t;

static size_t ksize(kind_t k)
{
    return k == T_I32 ? 4 : 8;
}

static void put(kind_t k, void *buf, size_t i, int64_t x)
{
    if (k == T_I32)
        ((int32_t *)buf)[i] = (int32_t)x;
    else if (k == T_F64)
        ((double *)buf)[i] = (double)x;
    else
        ((int64_t *)buf)[i] = x;
}

static int64_t get(kind_t k, const void *buf, size_t i)
{
    if (k == T_I32)
        return ((const int32_t *)buf)[i];
    if (k == T_F64)
        return (int64_t)((const double *)buf)[i];
    return ((const int64_t *)buf)[i];
}

/* The serial reference: sum or max over the ranks. */
static int64_t want(rmp_op_t op, size_t i)
{
    int64_t acc = val(0, i);
    for (int r = 1; r < n; r++)
        acc = op == RMP_SUM ? acc + val(r, i) : (val(r, i) > acc ? val(r, i) : acc);
    return acc;
}

static void allreduce_one(kind_t k, rmp_op_t op, size_t count, bool in_place)
{
    static const rmp_datatype_t dts[] = {RMP_INT32, RMP_DOUBLE, RMP_INT64};
    static const char *names[] = {"int32", "double", "int64"};
    size_t es = ksize(k);
    char *sbuf = xmalloc(count * es), *rbuf = xmalloc(count * es + GUARD);
    memset(rbuf, SENTINEL, count * es + GUARD);
    for (size_t i = 0; i < count; i++)
        put(k, in_place ? rbuf : sbuf, i, val(me, i));
    CHECK(rmp_allreduce(in_place ? RMP_IN_PLACE : sbuf, rbuf, (int)count, dts[k], op,
                        RMP_COMM_WORLD));
    for (size_t i = 0; i < count; i++)
        if (get(k, rbuf, i) != want(op, i)) {
            FAIL("allreduce %s %s count=%zu in_place=%d: element %zu is %" PRId64
                 ", expected %" PRId64, names[k], op == RMP_SUM ? "sum" : "max", count,
                 in_place, i, get(k, rbuf, i), want(op, i));
            break;
        }
    guard_check("allreduce", (unsigned char *)rbuf + count * es, count * es);
    for (size_t i = 0; i < count && !in_place; i++)
        if (get(k, sbuf, i) != val(me, i)) {
            FAIL("allreduce count=%zu: the send buffer changed at %zu", count, i);
            break;
        }
    checks++;
    free(sbuf);
    free(rbuf);
}

/* Counts whose parts (count / n elements of es bytes) sit on the segment's edges, a count n
 * does not divide, fewer elements than ranks, and none. */
static int allreduce_counts(size_t seg, size_t es, size_t out[12])
{
    size_t per = seg / es ? seg / es : 1, c = 0;
    size_t base[] = {0, 1, (size_t)n - 1, per * n - 1, per * n, per * n + 1, (per + 1) * n,
                     (2 * per) * n + 3, 3 * per * n - 1, 3 * per * n + (size_t)n / 2 + 1};
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        out[c++] = base[i];
    return (int)c;
}

/* A commutative user op on pairs of int32 (a sum of both halves): the ring cuts parts by
 * the type's 8-byte elements. */
static void pair_sum(void *in, void *inout, int *len, rmp_datatype_t *dt)
{
    (void)dt;
    int32_t *a = in, *b = inout;
    for (int i = 0; i < 2 * *len; i++)
        b[i] = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]);
}

static void allreduce_user(size_t pairs)
{
    rmp_datatype_t pair;
    rmp_op_t op;
    MUST(rmp_type_contiguous(2, RMP_INT32, &pair));
    MUST(rmp_type_commit(&pair));
    MUST(rmp_op_create(pair_sum, 1, &op));
    int32_t *s = xmalloc(pairs * 8), *r = xmalloc(pairs * 8);
    for (size_t i = 0; i < 2 * pairs; i++)
        s[i] = (int32_t)val(me, i);
    CHECK(rmp_allreduce(s, r, (int)pairs, pair, op, RMP_COMM_WORLD));
    for (size_t i = 0; i < 2 * pairs; i++)
        if (r[i] != (int32_t)want(RMP_SUM, i)) {
            FAIL("allreduce user op pairs=%zu: int %zu is %d", pairs, i, r[i]);
            break;
        }
    checks++;
    free(s);
    free(r);
    CHECK(rmp_op_free(&op));
    CHECK(rmp_type_free(&pair));
}

/* A vector type (every other int32) summed: packed inside, the gaps untouched. */
static void allreduce_vector(size_t elems)
{
    rmp_datatype_t v;
    MUST(rmp_type_vector((int)elems, 1, 2, RMP_INT32, &v));
    MUST(rmp_type_commit(&v));
    int32_t *s = xmalloc(2 * elems * 4), *r = xmalloc(2 * elems * 4);
    memset(r, SENTINEL, 2 * elems * 4);
    for (size_t i = 0; i < elems; i++)
        s[2 * i] = (int32_t)val(me, i);
    CHECK(rmp_allreduce(s, r, 1, v, RMP_SUM, RMP_COMM_WORLD));
    int32_t gap;
    memset(&gap, SENTINEL, sizeof gap);
    for (size_t i = 0; i < elems; i++)
        if (r[2 * i] != (int32_t)want(RMP_SUM, i) || (i + 1 < elems && r[2 * i + 1] != gap)) {
            FAIL("allreduce vector elems=%zu: element or gap %zu wrong", elems, i);
            break;
        }
    checks++;
    free(s);
    free(r);
    CHECK(rmp_type_free(&v));
}

static void run_allreduce(size_t seg)
{
    for (kind_t k = T_I32; k <= T_I64; k++) {
        size_t counts[12];
        int nc = allreduce_counts(seg, ksize(k), counts);
        for (int c = 0; c < nc; c++) {
            phase("allreduce", 60);
            allreduce_one(k, RMP_SUM, counts[c], false);
            allreduce_one(k, RMP_SUM, counts[c], true);
            allreduce_one(k, RMP_MAX, counts[c], k == T_I64);
        }
    }
    size_t per = seg / 8 ? seg / 8 : 1;
    allreduce_user(per * (size_t)n + 1);
    allreduce_user(3 * per * (size_t)n);
    allreduce_vector((seg / 4 ? seg / 4 : 1) * (size_t)n * 2 + 1);
}

/* ---- allgather ---- */

static void allgather_one(size_t blk, bool in_place)
{
    unsigned char *sb = xmalloc(blk), *rb = xmalloc((size_t)n * blk + GUARD);
    memset(rb, SENTINEL, (size_t)n * blk + GUARD);
    fill(in_place ? rb + (size_t)me * blk : sb, blk, 31 * blk + (uint64_t)me);
    CHECK(rmp_allgather(in_place ? RMP_IN_PLACE : sb, (int)blk, RMP_BYTE, rb, (int)blk,
                        RMP_BYTE, RMP_COMM_WORLD));
    for (int r = 0; r < n; r++)
        if (first_mismatch(rb + (size_t)r * blk, blk, 31 * blk + (uint64_t)r) != blk) {
            FAIL("allgather blk=%zu in_place=%d: rank %d's block differs", blk, in_place, r);
            break;
        }
    guard_check("allgather", rb + (size_t)n * blk, (size_t)n * blk);
    checks++;
    free(sb);
    free(rb);
}

static void run_allgather(size_t seg)
{
    size_t blks[] = {0, 1, seg - 1, seg, seg + 1, 3 * seg + 1};
    for (size_t i = 0; i < sizeof blks / sizeof blks[0]; i++) {
        phase("allgather", 60);
        allgather_one(blks[i], false);
        allgather_one(blks[i], true);
    }
}

/* ---- nonblocking, with other traffic in flight ---- */

/* A ring exchange of user messages, a bcast, two allreduces and an allgather all posted
 * before any wait:
 * the collectives' segments interleave with the user's messages and with each other. */
static void run_nonblocking(size_t bseg, size_t aseg)
{
    phase("nonblocking", 60);
    size_t blen = 3 * bseg + 5, count = 3 * (aseg / 4 ? aseg / 4 : 1) * (size_t)n + 2;
    size_t plen = 2 * bseg + 1;
    unsigned char *bbuf = xmalloc(blen), *out = xmalloc(plen), *in = xmalloc(plen);
    int32_t *s = xmalloc(count * 4), *r = xmalloc(count * 4), *s2 = xmalloc(count * 4),
            *r2 = xmalloc(count * 4);
    int root = n - 1;
    if (me == root)
        fill(bbuf, blen, 77);
    fill(out, plen, 500 + (uint64_t)me);
    for (size_t i = 0; i < count; i++) {
        s[i] = (int32_t)val(me, i);
        s2[i] = (int32_t)val(me, i) * 2;
    }
    unsigned char *gs = xmalloc(plen), *gr = xmalloc((size_t)n * plen);
    fill(gs, plen, 900 + (uint64_t)me);
    rmp_request_t q[6];
    int right = (me + 1) % n, left = (me + n - 1) % n;
    CHECK(rmp_irecv(in, (int)plen, RMP_BYTE, left, 5, RMP_COMM_WORLD, &q[0]));
    CHECK(rmp_ibcast(bbuf, (int)blen, RMP_BYTE, root, RMP_COMM_WORLD, &q[1]));
    CHECK(rmp_iallreduce(s, r, (int)count, RMP_INT32, RMP_SUM, RMP_COMM_WORLD, &q[2]));
    CHECK(rmp_isend(out, (int)plen, RMP_BYTE, right, 5, RMP_COMM_WORLD, &q[3]));
    CHECK(rmp_iallreduce(s2, r2, (int)count, RMP_INT32, RMP_SUM, RMP_COMM_WORLD, &q[4]));
    CHECK(rmp_iallgather(gs, (int)plen, RMP_BYTE, gr, (int)plen, RMP_BYTE, RMP_COMM_WORLD,
                         &q[5]));
    CHECK(rmp_waitall(6, q, RMP_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        if (first_mismatch(gr + (size_t)i * plen, plen, 900 + (uint64_t)i) != plen)
            FAIL("iallgather with traffic: rank %d's block differs", i);
    if (first_mismatch(bbuf, blen, 77) != blen)
        FAIL("ibcast with traffic: wrong data");
    if (first_mismatch(in, plen, 500 + (uint64_t)left) != plen)
        FAIL("user message next to the collectives: wrong data");
    for (size_t i = 0; i < count; i++)
        if (r[i] != (int32_t)want(RMP_SUM, i) || r2[i] != (int32_t)(want(RMP_SUM, i) * 2)) {
            FAIL("iallreduce with traffic: element %zu is %d / %d", i, r[i], r2[i]);
            break;
        }
    checks += 5;
    free(gs);
    free(gr);
    free(bbuf);
    free(out);
    free(in);
    free(s);
    free(r);
    free(s2);
    free(r2);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    setvbuf(stdout, NULL, _IOLBF, 0);
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &me));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = me;
    long bseg = argc > 2 ? atol(argv[1]) : 0, aseg = argc > 2 ? atol(argv[2]) : 0;
    if (bseg < 2 || aseg < 1) {
        FAIL("usage: coll_pipe BCAST_SEG ALLREDUCE_SEG (bytes; BCAST_SEG >= 2)");
        return 1;
    }
    run_bcast((size_t)bseg);
    run_allreduce((size_t)aseg);
    run_allgather((size_t)bseg);
    run_nonblocking((size_t)bseg, (size_t)aseg);
    phase("verdict", 60);
    int64_t mine[2] = {prog_failures, checks}, all[2] = {1, 0};
    MUST(rmp_allreduce(mine, all, 2, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    if (me == 0 && all[0] == 0)
        printf("coll_pipe: OK n=%d checks=%" PRId64 "\n", n, all[1]);
    MUST(rmp_finalize());
    return prog_exit();
}
