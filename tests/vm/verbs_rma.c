/* verbs_rma.c — one-sided communication through the RMA layer over verbs' table
 * (runtime/transport/verbs/verbs_rma.c), across virtual nodes in the VM suite:
 *   verbs_rma check ITERS   an allocate window: lock/put/flush/get/unlock to the next rank
 *                           (64 KiB + 3 bytes, byte-exact), ITERS fetch_and_op SUM from every
 *                           rank on rank 0's counter under lock_all (the total exact), a
 *                           compare_and_swap sequence with its old values
 *   verbs_rma sleep         the last rank sleeps in sleep() and never calls rmp while every
 *                           other locks it exclusively, puts, adds and unlocks: it finds the
 *                           work done in its memory on waking, before calling rmp again
 * Prints "verbs_rma: OK" from rank 0 when every rank passed. */
#include <stdint.h>
#include <unistd.h>

#include "../progs/progs.h"

#define DATA ((size_t)64 * 1024 + 3)
#define WIN (DATA + 4096) /* the counters live at WIN - 64 */
#define CNT (WIN - 64)

static int run_check(long iters, int me, int n, char *base, rmp_win_t win)
{
    int next = (me + 1) % n;
    char *src = malloc(DATA), *back = malloc(DATA);
    if (!src || !back) {
        FAIL("out of memory");
        return 1;
    }
    fill(src, DATA, (uint64_t)me + 1);
    phase("lock, put, get", 120);
    CHECK(rmp_win_lock(RMP_LOCK_EXCLUSIVE, next, 0, win));
    CHECK(rmp_put(src, (int)DATA, RMP_BYTE, next, 0, (int)DATA, RMP_BYTE, win));
    CHECK(rmp_win_flush(next, win));
    CHECK(rmp_get(back, (int)DATA, RMP_BYTE, next, 0, (int)DATA, RMP_BYTE, win));
    CHECK(rmp_win_unlock(next, win));
    EXPECT(!memcmp(src, back, DATA), "put then get of %zu bytes at rank %d differ at %zu", DATA,
           next, first_mismatch(back, DATA, (uint64_t)me + 1));
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    int prev = (me + n - 1) % n;
    EXPECT(first_mismatch(base, DATA, (uint64_t)prev + 1) == DATA,
           "my window: byte %zu is not what rank %d put", first_mismatch(base, DATA,
                                                                         (uint64_t)prev + 1),
           prev);
    phase("fetch_and_op", 300);
    CHECK(rmp_win_lock_all(0, win));
    int64_t one = 1, old = 0, zero = 0;
    for (long i = 0; i < iters; i++)
        CHECK(rmp_fetch_and_op(&one, &old, RMP_INT64, 0, CNT, RMP_SUM, win));
    CHECK(rmp_win_flush_all(win));
    CHECK(rmp_win_unlock_all(win));
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    if (me == n - 1) {
        CHECK(rmp_win_lock(RMP_LOCK_SHARED, 0, 0, win));
        CHECK(rmp_fetch_and_op(&zero, &old, RMP_INT64, 0, CNT, RMP_NO_OP, win));
        CHECK(rmp_win_unlock(0, win));
        EXPECT(old == (int64_t)n * iters, "rank 0's counter: %lld after %ld adds from %d ranks",
               (long long)old, iters, n);
        /* compare-and-swap on the next word: a hit, a miss, a hit. */
        int64_t a = 5, b = 7, c = 9, cmp0 = 0, cmp5 = 5, res = -1;
        CHECK(rmp_win_lock(RMP_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK(rmp_compare_and_swap(&a, &cmp0, &res, RMP_INT64, 0, CNT + 8, win));
        CHECK(rmp_win_flush(0, win));
        EXPECT(res == 0, "cswap 0 -> 5: old %lld", (long long)res);
        CHECK(rmp_compare_and_swap(&b, &cmp0, &res, RMP_INT64, 0, CNT + 8, win));
        CHECK(rmp_win_flush(0, win));
        EXPECT(res == 5, "cswap 0 -> 7 (a miss): old %lld", (long long)res);
        CHECK(rmp_compare_and_swap(&c, &cmp5, &res, RMP_INT64, 0, CNT + 8, win));
        CHECK(rmp_win_unlock(0, win));
        EXPECT(res == 5, "cswap 5 -> 9: old %lld", (long long)res);
    }
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    if (me == 0) {
        int64_t w[2];
        memcpy(w, base + CNT, sizeof(w));
        EXPECT(w[0] == (int64_t)n * iters && w[1] == 9, "my counters read %lld and %lld, "
               "expected %lld and 9", (long long)w[0], (long long)w[1],
               (long long)n * iters);
    }
    printf("rank %d: put/get %zu bytes, %ld fetch_and_op, cswap: done\n", me, DATA, iters);
    free(src);
    free(back);
    return 0;
}

static int run_sleep(int me, int n, char *base, rmp_win_t win)
{
    int target = n - 1;
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    if (me == target) {
        /* No rmp call until the others' epochs are visibly done, or the wait is over. */
        phase("sleeping target", 90);
        volatile int64_t *done = (volatile int64_t *)(void *)(base + CNT);
        int slept = 0;
        while (__atomic_load_n(done, __ATOMIC_ACQUIRE) < n - 1 && slept < 60)
            slept += 1 - (int)sleep(1);
        EXPECT(*done == n - 1, "after %d s asleep, %lld of %d ranks finished their epoch on "
               "me: they waited for my progress", slept, (long long)*done, n - 1);
        for (int r = 0; r < n - 1; r++) {
            size_t mism = first_mismatch(base + (size_t)r * 1024, 1024, (uint64_t)r + 100);
            EXPECT(mism == 1024, "rank %d's put: byte %zu differs", r, mism);
        }
        printf("rank %d: slept %d s without calling rmp; %d epochs done on me\n", me, slept,
               n - 1);
    } else {
        phase("epoch on a sleeping target", 90);
        char buf[1024];
        fill(buf, sizeof(buf), (uint64_t)me + 100);
        int64_t one = 1, old;
        CHECK(rmp_win_lock(RMP_LOCK_EXCLUSIVE, target, 0, win));
        CHECK(rmp_put(buf, 1024, RMP_BYTE, target, (ptrdiff_t)me * 1024, 1024, RMP_BYTE, win));
        CHECK(rmp_win_flush(target, win));
        CHECK(rmp_fetch_and_op(&one, &old, RMP_INT64, target, CNT, RMP_SUM, win));
        CHECK(rmp_win_unlock(target, win));
    }
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    return 0;
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    int me, n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &me));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = me;
    const char *mode = argc > 1 ? argv[1] : "check";
    long iters = argc > 2 ? atol(argv[2]) : 1000;
    char *base;
    rmp_win_t win;
    phase("window", 60);
    MUST(rmp_win_allocate((ptrdiff_t)WIN, 1, RMP_COMM_WORLD, (void **)&base, &win));
    memset(base, 0, WIN);
    CHECK(rmp_barrier(RMP_COMM_WORLD)); /* nobody writes before everyone zeroed */
    int rc;
    if (!strcmp(mode, "check"))
        rc = run_check(iters, me, n, base, win);
    else if (!strcmp(mode, "sleep"))
        rc = run_sleep(me, n, base, win);
    else {
        FAIL("usage: verbs_rma check ITERS | sleep");
        rc = 2;
    }
    phase("finalize", 60);
    CHECK(rmp_win_free(&win));
    MUST(rmp_finalize());
    if (rc == 0 && prog_failures == 0 && me == 0)
        printf("verbs_rma: OK\n");
    return rc || prog_failures ? 1 : 0;
}
