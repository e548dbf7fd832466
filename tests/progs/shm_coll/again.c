/* again.c — shm_coll's every-collective phase on communicators made again over the same ranks:
 * a duplicate freed and duplicated again gets the same context pair (the same shm channel, the
 * same home, the same software-schedule tags) and counts its calls from 1 again, so anything
 * that outlives the freed one can be taken for the new one's. Each round: dup, one collective
 * (or two nonblocking ones, completed newest first) with a rank that comes late, free. */
#include <time.h>

#include "progs.h"
#include "shm_coll/shm_coll.h"

enum { AG_BARRIER, AG_ALLREDUCE, AG_GATHER_SMALL, AG_GATHER_LARGE, AG_REDUCE, AG_GATHER,
       AG_SCATTER, AG_ALLTOALL, AG_BCAST, AG_KINDS };
static const char *const ag_name[AG_KINDS] = {
    "barrier", "allreduce", "allgather", "large allgather", "reduce", "gather", "scatter",
    "alltoall", "bcast"};

#define AG_SMALL 4    /* int64 per rank: every rank's in one channel */
#define AG_LARGE 1024 /* int64 per rank: 8 KiB blocks, the block buffers' path */

typedef struct ag_slot {
    int64_t in[8 * AG_LARGE], out[8 * AG_LARGE]; /* up to 8 ranks */
    int64_t stamp;                               /* barrier: the late rank's clock before it */
    rmp_request_t req;
} ag_slot_t;

static int64_t ag_val(int seed, int rank, int i)
{
    return (int64_t)seed * 1000003 + rank * 1009 + i;
}

static int64_t ag_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int ag_count(int kind)
{
    return kind == AG_GATHER_LARGE ? AG_LARGE : AG_SMALL;
}

/* Start (req: nonblocking) or make the call of kind on c, inputs from seed, root rotating. */
static int ag_call(int kind, ag_slot_t *s, int seed, rmp_comm_t c, int me, int n, bool nb)
{
    int cnt = ag_count(kind), root = seed % n, per = kind == AG_SCATTER || kind == AG_ALLTOALL
                                                         ? n : 1;
    rmp_request_t *r = nb ? &s->req : NULL;
    for (int i = 0; i < cnt * per; i++)
        s->in[i] = ag_val(seed, me, i);
    if (kind == AG_SCATTER || kind == AG_BCAST) /* only the root's counts */
        for (int i = 0; i < cnt * n; i++)
            s->in[i] = ag_val(seed, root, i);
    memset(s->out, 0xee, sizeof(s->out));
    s->stamp = ag_now();
    switch (kind) {
    case AG_BARRIER:
        return nb ? rmp_ibarrier(c, r) : rmp_barrier(c);
    case AG_ALLREDUCE:
        return nb ? rmp_iallreduce(s->in, s->out, cnt, RMP_INT64, RMP_SUM, c, r)
                  : rmp_allreduce(s->in, s->out, cnt, RMP_INT64, RMP_SUM, c);
    case AG_REDUCE:
        return nb ? rmp_ireduce(s->in, s->out, cnt, RMP_INT64, RMP_SUM, root, c, r)
                  : rmp_reduce(s->in, s->out, cnt, RMP_INT64, RMP_SUM, root, c);
    case AG_GATHER:
        return nb ? rmp_igather(s->in, cnt, RMP_INT64, s->out, cnt, RMP_INT64, root, c, r)
                  : rmp_gather(s->in, cnt, RMP_INT64, s->out, cnt, RMP_INT64, root, c);
    case AG_SCATTER:
        return nb ? rmp_iscatter(s->in, cnt, RMP_INT64, s->out, cnt, RMP_INT64, root, c, r)
                  : rmp_scatter(s->in, cnt, RMP_INT64, s->out, cnt, RMP_INT64, root, c);
    case AG_BCAST: /* in place: the root's data, the others' garbage */
        if (me != root)
            memset(s->in, 0xee, sizeof(int64_t) * (size_t)cnt);
        return nb ? rmp_ibcast(s->in, cnt, RMP_INT64, root, c, r)
                  : rmp_bcast(s->in, cnt, RMP_INT64, root, c);
    case AG_ALLTOALL:
        return nb ? rmp_ialltoall(s->in, cnt, RMP_INT64, s->out, cnt, RMP_INT64, c, r)
                  : rmp_alltoall(s->in, cnt, RMP_INT64, s->out, cnt, RMP_INT64, c);
    default: /* the allgathers */
        return nb ? rmp_iallgather(s->in, cnt, RMP_INT64, s->out, cnt, RMP_INT64, c, r)
                  : rmp_allgather(s->in, cnt, RMP_INT64, s->out, cnt, RMP_INT64, c);
    }
}

/* The first element of the result that differs from the serial answer (-1: none). */
static int ag_wrong(int kind, const ag_slot_t *s, int seed, int me, int n, int64_t *got,
                    int64_t *want)
{
    int cnt = ag_count(kind), root = seed % n, len = 0;
    const int64_t *res = kind == AG_BCAST ? s->in : s->out; /* a broadcast is in place */
    for (int i = 0;; i++) {
        int64_t w;
        if (kind == AG_ALLREDUCE || (kind == AG_REDUCE && me == root)) {
            len = cnt;
            w = 0;
            for (int r = 0; r < n && i < len; r++)
                w += ag_val(seed, r, i);
        } else if (kind == AG_BCAST) {
            len = cnt;
            w = ag_val(seed, root, i);
        } else if (kind == AG_SCATTER) {
            len = cnt;
            w = ag_val(seed, root, me * cnt + i);
        } else if (kind == AG_ALLTOALL) { /* block r from rank r: its block for me */
            len = cnt * n;
            w = ag_val(seed, i / cnt, me * cnt + i % cnt);
        } else if (kind == AG_GATHER_SMALL || kind == AG_GATHER_LARGE ||
                   (kind == AG_GATHER && me == root)) {
            len = cnt * n;
            w = ag_val(seed, i / cnt, i % cnt);
        } else {
            return -1; /* barrier, a reduce or gather's non-root: nothing received */
        }
        if (i >= len)
            return -1;
        if (res[i] != w) {
            *got = res[i];
            *want = w;
            return i;
        }
    }
}

/* A barrier let me out before the late rank entered it: its clock before the call, sent on
 * the world, is later than mine after it (one node: one monotonic clock). */
static void ag_barrier_check(const ag_slot_t *s, int late, int me, int round, int64_t after)
{
    int64_t before = s->stamp;
    CHECK(rmp_bcast(&before, 1, RMP_INT64, late, RMP_COMM_WORLD));
    EXPECT(after >= before, "round %d: a barrier on a communicator made again let rank %d "
           "out before rank %d entered it", round, me, late);
}

static void ag_check(int kind, const ag_slot_t *s, int seed, int me, int n, int round,
                     int *wrong)
{
    int64_t got = 0, want = 0;
    int at = ag_wrong(kind, s, seed, me, n, &got, &want);
    if (at >= 0 && (*wrong)++ < 3)
        FAIL("round %d: %s on a communicator made again: element %d is %lld, want %lld (n=%d)",
             round, ag_name[kind], at, (long long)got, (long long)want, n);
}

/* rounds of kind on communicators made again: blocking; two nonblocking calls, the second
 * completed first; and every fourth round the same, but the communicator freed with both in
 * flight and made again (at once, or while some members still hold the old one's pair) for a
 * blocking call before they complete. */
static void ag_kind(int kind, int rounds_n, int me, int n)
{
    static ag_slot_t slot[3];
    int wrong = 0;
    for (int round = 1; round <= rounds_n; round++) {
        bool nb = round % 2 == 0, early_free = round % 4 == 0;
        int late = round / 2 % n, calls = nb ? 2 : 1;
        rmp_comm_t c;
        MUST(rmp_comm_dup(RMP_COMM_WORLD, &c));
        for (volatile int spin = 0; me == late && spin < 2000; spin++)
            ;
        for (int k = 0; k < calls; k++)
            CHECK(ag_call(kind, &slot[k], 2 * round + k, c, me, n, nb));
        if (early_free) {
            CHECK(rmp_comm_free(&c));
            MUST(rmp_comm_dup(RMP_COMM_WORLD, &c));
            CHECK(ag_call(kind, &slot[calls++], 2 * round + 2, c, me, n, false));
        }
        for (int k = 1; nb && k >= 0; k--)
            CHECK(rmp_wait(&slot[k].req, RMP_STATUS_IGNORE));
        int64_t after = ag_now();
        CHECK(rmp_comm_free(&c));
        for (int k = 0; k < calls; k++)
            ag_check(kind, &slot[k], 2 * round + k, me, n, round, &wrong);
        if (kind == AG_BARRIER && round % 8 == 0)
            ag_barrier_check(&slot[0], late, me, round, after);
    }
    EXPECT(wrong == 0, "%d of %d %s rounds on a communicator made again were wrong", wrong,
           rounds_n, ag_name[kind]);
}

void made_again_all(int rounds_n, int me, int n)
{
    if (n > 8)
        return; /* the slots hold 8 ranks' blocks: the kinds need no more to race */
    const char *only = getenv("SHM_COLL_AGAIN"); /* one kind by name, to chase a failure */
    for (int kind = 0; kind < AG_KINDS; kind++) {
        if (only && strcmp(only, ag_name[kind]) != 0)
            continue;
        phase(ag_name[kind], 120);
        ag_kind(kind, kind == AG_GATHER_LARGE ? rounds_n / 4 : rounds_n, me, n);
    }
}
