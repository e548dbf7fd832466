/* shm_coll — the shared-memory collective backend (runtime/transport/shm/shm_coll.c) under what a
 * program may do to it: many calls in a row with rotating roots (a root reuses its buffer at
 * once), every size a channel carries and the first one it does not (allgather too: then
 * its block buffers, up to their limit and one byte past it), a non-commutative user op
 * (rank order must hold), in place and count 0, nonblocking calls of three kinds in flight on
 * two communicators at once, communicators split and freed and made again (channels reused,
 * contexts beyond the channels fall back to messages), and a communicator freed while its call
 * is still in flight; large allgathers in flight two by two on one buffer parity, and one
 * whose ranks disagree on the block size (every rank fails, nothing stays claimed); every
 * collective kind on communicators freed and made again over the same ranks (again.c). Each
 * result is checked against a serial computation.
 *   shm_coll [iterations [rounds per kind made again]]
 * prints "shm_coll: OK n=N" on rank 0 when all checks pass */
#include "progs.h"
#include "shm_coll/shm_coll.h"

static int me, n;

/* An affine map x -> m x + c (mod 2^32): composition is associative, not commutative. */
typedef struct { uint32_t m, c; } aff_t;

/* inout = in o inout, elementwise: (in o io)(x) = in.m (io.m x + io.c) + in.c */
static void aff_compose(void *in, void *inout, int *len, rmp_datatype_t *type)
{
    (void)type;
    const aff_t *a = in;
    aff_t *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = (aff_t){a[i].m * b[i].m, a[i].m * b[i].c + a[i].c};
}

static aff_t aff_of(int rank, int i, int k)
{
    uint64_t h = mix64((uint64_t)rank << 40 ^ (uint64_t)i << 8 ^ (uint64_t)k);
    return (aff_t){(uint32_t)h | 1u, (uint32_t)(h >> 32)};
}

/* Allgather, blocks around the channel's limit (all n blocks in 2048 bytes: 2048 / n is the
 * largest block it carries) and around the block buffers' (BLOCK_MAX, shm_coll.h's
 * SHM_COLL_BLOCK_MAX: past it, messages), in place every other time, and from a vector (every
 * other byte of a buffer) on odd ranks every third time: those ranks go through packed
 * copies, the others not, and all must still meet in the same call. */
#define BLOCK_MAX (64 << 10)
static void allgather_round(int i)
{
    static unsigned char *all, *spread, *mine;
    size_t lim = 2048 / (size_t)n, blks[] = {0,    1,         lim > 1 ? lim - 1 : 0, lim,
                                             lim + 1, 4099, BLOCK_MAX,        BLOCK_MAX + 1};
    size_t blk = blks[i % 8], most = BLOCK_MAX + 1;
    if (i % 8 >= 5 && i % 16 >= 8) /* the large ones every other turn: time */
        blk = blks[i % 5];
    if (!all && !(all = malloc((size_t)n * most + 1)))
        MUST(RMP_ERR_NO_MEM);
    if (!spread && !(spread = malloc(2 * most + 1)))
        MUST(RMP_ERR_NO_MEM);
    if (!mine && !(mine = malloc(most + 1)))
        MUST(RMP_ERR_NO_MEM);
    uint64_t seed = (uint64_t)i << 16 | (uint64_t)me;
    bool in_place = i % 2 == 0, vec = !in_place && me % 2 && i % 3 == 0 && blk > 0;
    memset(all, 0xee, (size_t)n * blk);
    if (in_place)
        fill(all + (size_t)me * blk, blk, seed);
    fill(mine, blk, seed);
    if (vec) {
        for (size_t b = 0; b < blk; b++)
            spread[2 * b] = mine[b];
        rmp_datatype_t v;
        MUST(rmp_type_vector((int)blk, 1, 2, RMP_BYTE, &v));
        MUST(rmp_type_commit(&v));
        CHECK(rmp_allgather(spread, 1, v, all, (int)blk, RMP_BYTE, RMP_COMM_WORLD));
        MUST(rmp_type_free(&v));
    } else {
        CHECK(rmp_allgather(in_place ? RMP_IN_PLACE : (const void *)mine, (int)blk, RMP_BYTE,
                            all, (int)blk, RMP_BYTE, RMP_COMM_WORLD));
    }
    for (int r = 0; r < n; r++) {
        size_t bad = first_mismatch(all + (size_t)r * blk, blk, (uint64_t)i << 16 | (uint64_t)r);
        EXPECT(bad == blk, "iteration %d: allgather of %zu-byte blocks%s%s: rank %d's block "
               "wrong at byte %zu", i, blk, in_place ? " in place" : "", vec ? " from a vector" : "",
               r, bad);
    }
}

static void rounds(int iters, rmp_op_t aff_op, rmp_datatype_t aff_type)
{
    phase("rounds", 120);
    static unsigned char buf[4096];
    for (int i = 0; i < iters; i++) {
        int root = i % n;
        /* sizes around the channel's limit: 0, 1, 8, 100, 2048 (the most), 2049 (messages) */
        static const size_t sizes[] = {0, 1, 8, 100, 2048, 2049};
        size_t bytes = sizes[i % 6];
        if (me == root)
            fill(buf, bytes, (uint64_t)i);
        else
            memset(buf, 0xee, bytes);
        CHECK(rmp_bcast(bytes ? buf : NULL, (int)bytes, RMP_BYTE, root, RMP_COMM_WORLD));
        size_t bad = first_mismatch(buf, bytes, (uint64_t)i);
        EXPECT(bad == bytes, "iteration %d: bcast of %zu bytes from %d wrong at byte %zu", i,
               bytes, root, bad);

        int64_t v[3] = {me + i, -me, (int64_t)me * i}, s[3], want[3];
        if (i % 2 == 0) /* in place */
            memcpy(s, v, sizeof(v));
        CHECK(rmp_allreduce(i % 2 ? (const void *)v : RMP_IN_PLACE, s, 3, RMP_INT64,
                            i % 3 ? RMP_SUM : RMP_MAX, RMP_COMM_WORLD));
        int64_t tri = (int64_t)n * (n - 1) / 2;
        if (i % 3) {
            want[0] = (int64_t)n * i + tri;
            want[1] = -tri;
            want[2] = (int64_t)i * tri;
        } else {
            want[0] = n - 1 + i;
            want[1] = 0;
            want[2] = (int64_t)(n - 1) * i;
        }
        EXPECT(!memcmp(s, want, sizeof(want)), "iteration %d: allreduce (%s) got %lld %lld %lld",
               i, i % 3 ? "sum" : "max", (long long)s[0], (long long)s[1], (long long)s[2]);

        aff_t mine[2] = {aff_of(me, i, 0), aff_of(me, i, 1)}, got[2], ref[2];
        CHECK(rmp_allreduce(mine, got, 2, aff_type, aff_op, RMP_COMM_WORLD));
        for (int k = 0; k < 2; k++) { /* a_0 o a_1 o ... o a_n-1 */
            ref[k] = aff_of(n - 1, i, k);
            for (int r = n - 2; r >= 0; r--) {
                aff_t a = aff_of(r, i, k);
                ref[k] = (aff_t){a.m * ref[k].m, a.m * ref[k].c + a.c};
            }
        }
        EXPECT(!memcmp(got, ref, sizeof(ref)), "iteration %d: non-commutative allreduce out of "
               "rank order", i);
        allgather_round(i);
        if (i % 5 == 0)
            CHECK(rmp_barrier(RMP_COMM_WORLD));
    }
}

/* Four kinds in flight at once, on world and on a duplicate, then waited for in reverse. */
static void inflight(int iters)
{
    phase("in flight", 120);
    rmp_comm_t dup;
    MUST(rmp_comm_dup(RMP_COMM_WORLD, &dup));
    for (int i = 0; i < iters; i++) {
        rmp_request_t rq[6];
        int32_t b = me == i % n ? i : -1, d = me == (i + 1) % n ? 2 * i : -1, x = me + 1, y;
        int64_t z = me, zs, g = (int64_t)i * 1000 + me, gs[64];
        int gn = n < 64 ? n : 64; /* the allgather runs on the first 64 ranks' worth only */
        CHECK(rmp_ibarrier(RMP_COMM_WORLD, &rq[0]));
        CHECK(rmp_ibcast(&b, 1, RMP_INT32, i % n, RMP_COMM_WORLD, &rq[1]));
        CHECK(rmp_iallreduce(&x, &y, 1, RMP_INT32, RMP_SUM, dup, &rq[2]));
        CHECK(rmp_ibcast(&d, 1, RMP_INT32, (i + 1) % n, dup, &rq[3]));
        CHECK(rmp_iallreduce(&z, &zs, 1, RMP_INT64, RMP_MIN, RMP_COMM_WORLD, &rq[4]));
        if (n <= 64)
            CHECK(rmp_iallgather(&g, 1, RMP_INT64, gs, 1, RMP_INT64, dup, &rq[5]));
        for (int k = n <= 64 ? 5 : 4; k >= 0; k--)
            CHECK(rmp_wait(&rq[k], RMP_STATUS_IGNORE));
        EXPECT(b == i && d == 2 * i && y == n * (n + 1) / 2 && zs == 0,
               "iteration %d: in flight got bcast %d, %d, sum %d, min %lld", i, b, d, y,
               (long long)zs);
        for (int r = 0; n <= 64 && r < gn; r++)
            EXPECT(gs[r] == (int64_t)i * 1000 + r, "iteration %d: in flight allgather got %lld "
                   "from rank %d", i, (long long)gs[r], r);
    }
    CHECK(rmp_comm_free(&dup));
}

/* Large allgathers (block buffers) in flight: two on world with a barrier between (the same
 * buffer parity: the second waits for the first's readers), one on a duplicate, all waited
 * for in reverse; then ranks that disagree on the block size (an erroneous program: each
 * rank's call must fail, not hang or copy), and a correct call after it. */
static void large_inflight(int iters)
{
    phase("large allgathers in flight", 120);
    size_t blk = 2048 / (size_t)n + 64 > 3000 ? 2048 / (size_t)n + 64 : 3000;
    unsigned char *in[3], *out[3];
    for (int k = 0; k < 3; k++)
        if (!(in[k] = malloc(blk)) || !(out[k] = malloc((size_t)n * blk)))
            MUST(RMP_ERR_NO_MEM);
    rmp_comm_t dup;
    MUST(rmp_comm_dup(RMP_COMM_WORLD, &dup));
    for (int i = 0; i < iters; i++) {
        rmp_request_t rq[4];
        for (int k = 0; k < 3; k++)
            fill(in[k], blk, (uint64_t)(i * 3 + k) << 16 | (uint64_t)me);
        CHECK(rmp_iallgather(in[0], (int)blk, RMP_BYTE, out[0], (int)blk, RMP_BYTE,
                             RMP_COMM_WORLD, &rq[0]));
        CHECK(rmp_ibarrier(RMP_COMM_WORLD, &rq[1]));
        CHECK(rmp_iallgather(in[1], (int)blk, RMP_BYTE, out[1], (int)blk, RMP_BYTE,
                             RMP_COMM_WORLD, &rq[2]));
        CHECK(rmp_iallgather(in[2], (int)blk, RMP_BYTE, out[2], (int)blk, RMP_BYTE, dup,
                             &rq[3]));
        for (int k = 3; k >= 0; k--)
            CHECK(rmp_wait(&rq[k], RMP_STATUS_IGNORE));
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < n; r++) {
                size_t bad = first_mismatch(out[k] + (size_t)r * blk, blk,
                                            (uint64_t)(i * 3 + k) << 16 | (uint64_t)r);
                EXPECT(bad == blk, "iteration %d, call %d: rank %d's block wrong at byte %zu", i,
                       k, r, bad);
            }
    }
    if (n > 1) { /* rank 0 gives blocks of blk - 8 bytes, the others blk */
        size_t mb = me == 0 ? blk - 8 : blk;
        /* the backend refuses the call everywhere; messages (RMP_SHM_COLL=0) fail it
         * everywhere too: rank 0 gets longer blocks than its slots, the others rank 0's
         * shorter one (a schedule's receive expects its exact length) */
        const char *off = getenv("RMP_SHM_COLL");
        int want = !off || strcmp(off, "0") ? RMP_ERR_ARG : RMP_ERR_TRUNCATE;
        EXPECT_RC(want, rmp_allgather(in[0], (int)mb, RMP_BYTE, out[0], (int)mb, RMP_BYTE, dup));
        fill(in[1], blk, (uint64_t)me);
        CHECK(rmp_allgather(in[1], (int)blk, RMP_BYTE, out[1], (int)blk, RMP_BYTE, dup));
        for (int r = 0; r < n; r++)
            EXPECT(first_mismatch(out[1] + (size_t)r * blk, blk, (uint64_t)r) == blk,
                   "after the failed call: rank %d's block wrong", r);
    }
    CHECK(rmp_comm_free(&dup));
    for (int k = 0; k < 3; k++) {
        free(in[k]);
        free(out[k]);
    }
}

/* Halves, then a chain of duplicates that runs past the channels (messages from there), all
 * freed, then made again: a reused channel starts clean. */
static void comms(void)
{
    phase("communicators", 120);
    for (int round = 0; round < 2; round++) {
        rmp_comm_t half, dups[12];
        MUST(rmp_comm_split(RMP_COMM_WORLD, me % 2, me, &half));
        int hn, hr;
        MUST(rmp_comm_size(half, &hn));
        MUST(rmp_comm_rank(half, &hr));
        for (int k = 0; k < 12; k++)
            MUST(rmp_comm_dup(k ? dups[k - 1] : half, &dups[k]));
        for (int k = 0; k < 12; k++) {
            int v = hr + k, s = -1, r = hr == k % hn ? 100 + k : 0;
            CHECK(rmp_allreduce(&v, &s, 1, RMP_INT, RMP_SUM, dups[k]));
            CHECK(rmp_bcast(&r, 1, RMP_INT, k % hn, dups[k]));
            CHECK(rmp_barrier(dups[k]));
            int got[64] = {0}, want = 1;
            if (hn <= 64) {
                int mine = 1000 * k + hr;
                CHECK(rmp_allgather(&mine, 1, RMP_INT, got, 1, RMP_INT, dups[k]));
                for (int q = 0; q < hn; q++)
                    want &= got[q] == 1000 * k + q;
            }
            EXPECT(want, "round %d, duplicate %d of a half of %d: allgather wrong", round, k, hn);
            EXPECT(s == hn * (hn - 1) / 2 + hn * k && r == 100 + k,
                   "round %d, duplicate %d of a half of %d: sum %d, bcast %d", round, k, hn, s,
                   r);
        }
        for (int k = 11; k >= 0; k--)
            CHECK(rmp_comm_free(&dups[k]));
        CHECK(rmp_comm_free(&half));
    }
}

/* A communicator freed with its barrier still in flight (rank 0 enters late), a new one made
 * at once (it may get the same channel and home), used, and only then the old call waited. */
static void freed_in_flight(void)
{
    phase("freed in flight", 120);
    for (int round = 0; round < 20; round++) {
        rmp_comm_t a, b;
        rmp_request_t rq;
        MUST(rmp_comm_dup(RMP_COMM_WORLD, &a));
        if (me == 0)
            usleep(2000);
        CHECK(rmp_ibarrier(a, &rq));
        CHECK(rmp_comm_free(&a));
        MUST(rmp_comm_dup(RMP_COMM_WORLD, &b));
        int v = 1, s = 0;
        CHECK(rmp_allreduce(&v, &s, 1, RMP_INT, RMP_SUM, b));
        EXPECT(s == n, "round %d: sum %d on the new communicator", round, s);
        CHECK(rmp_wait(&rq, RMP_STATUS_IGNORE));
        CHECK(rmp_comm_free(&b));
    }
}

/* A broadcast on a communicator made again over the same members: the same context pair and
 * home, its calls counted from 1 again, so its first broadcast's tag equals the freed one's.
 * A reader that took the old, fully read publication for the new call got the round before's
 * value (13 times in 400,000 rounds at n = 2 before the reader checked the count first). */
static void made_again(int rounds_n)
{
    phase("made again", 120);
    int wrong = 0;
    for (int round = 1; round <= rounds_n; round++) {
        rmp_comm_t c;
        MUST(rmp_comm_dup(RMP_COMM_WORLD, &c));
        int64_t v[4] = {me == 0 ? round : -1, round, -round, 0};
        /* the root comes late: the readers poll the old publication while it publishes */
        for (volatile int spin = 0; me == 0 && spin < 2000; spin++)
            ;
        CHECK(rmp_bcast(v, 4, RMP_INT64, 0, c));
        if ((v[0] != round || v[1] != round || v[2] != -round) && wrong++ < 3)
            EXPECT(0, "round %d: broadcast gave %lld %lld %lld", round, (long long)v[0],
                   (long long)v[1], (long long)v[2]);
        CHECK(rmp_comm_free(&c));
    }
    EXPECT(wrong == 0, "%d of %d broadcasts on a communicator made again were wrong", wrong,
           rounds_n);
}

int main(int argc, char **argv)
{
    phase("init", 60);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &me));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = me;
    int iters = argc > 1 ? atoi(argv[1]) : 3000;
    rmp_datatype_t aff_type;
    rmp_op_t aff_op;
    MUST(rmp_type_contiguous(2, RMP_UINT32, &aff_type));
    MUST(rmp_type_commit(&aff_type));
    MUST(rmp_op_create(aff_compose, 0, &aff_op));
    rounds(iters, aff_op, aff_type);
    inflight(iters / 3);
    large_inflight(iters / 10);
    comms();
    freed_in_flight();
    made_again(iters * 120 / n);
    made_again_all(argc > 2 ? atoi(argv[2]) : iters * 2 / n, me, n);
    CHECK(rmp_op_free(&aff_op));
    CHECK(rmp_type_free(&aff_type));
    phase("finalize", 60);
    int fails = prog_failures, all = 0;
    CHECK(rmp_allreduce(&fails, &all, 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD));
    if (me == 0 && all == 0)
        printf("shm_coll: OK n=%d\n", n);
    MUST(rmp_finalize());
    return all != 0;
}
