/* sec_victim.c — the job the security tests attack: for SECONDS seconds (argument, default 3)
 * every rank exchanges checksummed blocks around a ring (eager and rendezvous sizes) and joins
 * an allreduce whose sum is known; rank 0 decides when to stop and broadcasts it. With a second
 * argument "windows" it also holds an allocate and an allocate_shared window (shm segments)
 * the whole time, and adds 1 to rank 0's counter in both at every step (checked at the end). Rank 0 prints
 * "sec_victim: OK n=N" only if every rank saw every byte and every sum right. */
#include <time.h>

#include "progs.h"

#define SMALL 4096
#define LARGE (256 * 1024)
#define TAG_RING 21

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One ring step of `len` bytes: send my pattern right, check the left neighbour's. */
static void ring_step(unsigned char *out, unsigned char *in, size_t len, int n, long it)
{
    int right = (prog_rank + 1) % n, left = (prog_rank + n - 1) % n;
    fill(out, len, ((uint64_t)it << 20) ^ (uint64_t)prog_rank ^ len);
    rmp_status_t st;
    CHECK(rmp_sendrecv(out, (int)len, RMP_BYTE, right, TAG_RING, in, (int)len, RMP_BYTE, left,
                       TAG_RING, RMP_COMM_WORLD, &st));
    size_t bad = first_mismatch(in, len, ((uint64_t)it << 20) ^ (uint64_t)left ^ len);
    EXPECT(bad == len, "iteration %ld: %zu-byte block from rank %d differs at byte %zu", it, len,
           left, bad);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    int n;
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    double secs = argc > 1 ? atof(argv[1]) : 3.0;
    unsigned char *out = malloc(LARGE), *in = malloc(LARGE);
    if (!out || !in) {
        FAIL("out of memory");
        return 1;
    }
    bool wins = argc > 2 && !strcmp(argv[2], "windows");
    int64_t *wa = NULL, *ws = NULL;
    rmp_win_t win_a = RMP_WIN_NULL, win_s = RMP_WIN_NULL;
    if (wins) {
        phase("window creation", 60);
        MUST(rmp_win_allocate(64, 8, RMP_COMM_WORLD, (void **)&wa, &win_a));
        MUST(rmp_win_allocate_shared(64, 8, RMP_COMM_WORLD, (void **)&ws, &win_s));
        wa[0] = ws[0] = 0;
        MUST(rmp_barrier(RMP_COMM_WORLD));
    }
    phase("the attacked loop", (unsigned)secs + 60);
    double t0 = seconds_now();
    long it = 0;
    for (int go = 1; go; it++) {
        ring_step(out, in, SMALL, n, it);
        if (it % 8 == 0)
            ring_step(out, in, LARGE, n, it);
        uint64_t mine = (uint64_t)(prog_rank + 1) * (uint64_t)(it + 1), sum = 0;
        CHECK(rmp_allreduce(&mine, &sum, 1, RMP_UINT64, RMP_SUM, RMP_COMM_WORLD));
        uint64_t want = (uint64_t)(it + 1) * (uint64_t)n * (uint64_t)(n + 1) / 2;
        EXPECT(sum == want, "iteration %ld: allreduce sum %llu, expected %llu", it,
               (unsigned long long)sum, (unsigned long long)want);
        for (int k = 0; wins && k < 2; k++) {
            rmp_win_t w = k ? win_s : win_a;
            int64_t one = 1, old;
            CHECK(rmp_win_lock(RMP_LOCK_SHARED, 0, 0, w));
            CHECK(rmp_fetch_and_op(&one, &old, RMP_INT64, 0, 0, RMP_SUM, w));
            CHECK(rmp_win_unlock(0, w));
        }
        go = prog_rank == 0 ? seconds_now() - t0 < secs : 0;
        CHECK(rmp_bcast(&go, 1, RMP_INT, 0, RMP_COMM_WORLD));
    }
    phase("the final check", 60);
    if (wins) {
        CHECK(rmp_barrier(RMP_COMM_WORLD));
        if (prog_rank == 0) {
            CHECK(rmp_win_sync(win_a));
            CHECK(rmp_win_sync(win_s));
            EXPECT(wa[0] == (int64_t)n * it && ws[0] == (int64_t)n * it,
                   "window counters %lld and %lld, expected %lld", (long long)wa[0],
                   (long long)ws[0], (long long)n * it);
        }
        CHECK(rmp_win_free(&win_a));
        CHECK(rmp_win_free(&win_s));
    }
    int mine = prog_failures, total = 0;
    CHECK(rmp_allreduce(&mine, &total, 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD));
    if (prog_rank == 0 && total == 0 && prog_failures == 0)
        printf("sec_victim: OK n=%d\n", n);
    fflush(stdout);
    free(out);
    free(in);
    MUST(rmp_finalize());
    return prog_failures ? 1 : 0;
}
