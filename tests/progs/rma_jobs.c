/* rma_jobs.c — one of two jobs run at the same time on one machine (test_rma_fault.c's
 * rma_fault/two_jobs, the VM suite's rma-two-jobs): windows of every memory flavor (allocate,
 * allocate_shared when the job is on one node, create) hammered with puts and gets under fence,
 * accumulates and fetch_and_ops under lock_all, read-modify-writes under exclusive locks. Every
 * value carries the job's tag, so memory shared with the other job by mistake shows up as a
 * wrong value; every result is checked exactly.
 *   rma_jobs TAG OTHER DIR [ROUNDS]   TAG, OTHER: this job's and the other's tags (numbers);
 *   rank 0 creates DIR/rma_jobs.ready.TAG once its windows exist and waits (bounded) for the
 *   other's, so both jobs hold their windows at once.
 * Prints "rma_jobs TAG: OK" from rank 0. */
#include <sys/stat.h>

#include "progs.h"

enum { SLOT = 64 };

static int n, me;
static int64_t tag;

static void rendezvous(const char *dir, long other)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rma_jobs.ready.%lld", dir, (long long)tag);
    FILE *f = fopen(path, "w");
    if (!f) {
        FAIL("cannot create %s", path);
        exit(1);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/rma_jobs.ready.%ld", dir, other);
    struct stat st;
    for (int i = 0; i < 6000 && stat(path, &st); i++)
        usleep(10000);
    EXPECT(!stat(path, &st), "the other job (%ld) never made its windows", other);
}

static void hammer(const char *name, int64_t *mem, rmp_win_t win, int rounds)
{
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    int64_t buf[SLOT], back[SLOT];
    /* [0, SLOT): written by prev under fence; [SLOT]: counter on rank 0; [SLOT+1]: a counter
     * each rank's exclusive lockers increment */
    for (int k = 0; k < rounds; k++) {
        for (int i = 0; i < SLOT; i++)
            buf[i] = tag * 1000000000 + me * 1000000 + k * 1000 + i;
        CHECK(rmp_win_fence(0, win));
        CHECK(rmp_put(buf, SLOT, RMP_INT64, next, 0, SLOT, RMP_INT64, win));
        CHECK(rmp_win_fence(0, win));
        CHECK(rmp_get(back, SLOT, RMP_INT64, next, 0, SLOT, RMP_INT64, win));
        CHECK(rmp_win_fence(RMP_MODE_NOSUCCEED, win));
        for (int i = 0; i < SLOT; i++) {
            int64_t want = tag * 1000000000 + prev * 1000000 + k * 1000 + i;
            EXPECT(mem[i] == want, "%s round %d: my element %d is %lld, expected %lld", name, k,
                   i, (long long)mem[i], (long long)want);
            EXPECT(back[i] == buf[i], "%s round %d: got back %lld at %d, expected %lld", name, k,
                   (long long)back[i], i, (long long)buf[i]);
            if (mem[i] != want || back[i] != buf[i])
                break;
        }
        int64_t one = 1, old;
        CHECK(rmp_win_lock_all(0, win));
        CHECK(rmp_accumulate(&one, 1, RMP_INT64, 0, SLOT, 1, RMP_INT64, RMP_SUM, win));
        CHECK(rmp_fetch_and_op(&one, &old, RMP_INT64, 0, SLOT, RMP_SUM, win));
        CHECK(rmp_win_unlock_all(win));
        int t = k % n;
        int64_t c = -1;
        CHECK(rmp_win_lock(RMP_LOCK_EXCLUSIVE, t, 0, win));
        CHECK(rmp_get(&c, 1, RMP_INT64, t, SLOT + 1, 1, RMP_INT64, win));
        CHECK(rmp_win_flush(t, win));
        c++;
        CHECK(rmp_put(&c, 1, RMP_INT64, t, SLOT + 1, 1, RMP_INT64, win));
        CHECK(rmp_win_unlock(t, win));
    }
    MUST(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_win_sync(win));
    if (me == 0)
        EXPECT(mem[SLOT] == (int64_t)2 * n * rounds, "%s: counter %lld, expected %lld", name,
               (long long)mem[SLOT], (long long)2 * n * rounds);
    int64_t mine = mem[SLOT + 1], sum = 0, want = 0;
    for (int k = 0; k < rounds; k++)
        want += me == k % n ? n : 0;
    EXPECT(mine == want, "%s: my locked counter %lld, expected %lld", name, (long long)mine,
           (long long)want);
    MUST(rmp_allreduce(&mine, &sum, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    EXPECT(sum == (int64_t)n * rounds, "%s: locked counters sum to %lld", name, (long long)sum);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &me);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    prog_rank = me;
    if (argc < 4) {
        FAIL("usage: rma_jobs TAG OTHER DIR [ROUNDS]");
        return 1;
    }
    tag = atol(argv[1]);
    int rounds = argc > 4 ? atoi(argv[4]) : 50;
    size_t bytes = (SLOT + 2) * 8;
    int64_t *a, *s = NULL, *c = calloc(SLOT + 2, 8);
    rmp_win_t wa, ws = RMP_WIN_NULL, wc;
    phase("window creation", 60);
    MUST(rmp_win_allocate((ptrdiff_t)bytes, 8, RMP_COMM_WORLD, (void **)&a, &wa));
    int rc = rmp_win_allocate_shared((ptrdiff_t)bytes, 8, RMP_COMM_WORLD, (void **)&s, &ws);
    EXPECT(rc == RMP_SUCCESS || rc == RMP_ERR_RMA_SHARED, "allocate_shared: %s",
           rmp_strerror(rc));
    MUST(rmp_win_create(c, (ptrdiff_t)bytes, 8, RMP_COMM_WORLD, &wc));
    memset(a, 0, bytes);
    if (s)
        memset(s, 0, bytes);
    MUST(rmp_barrier(RMP_COMM_WORLD));
    phase("waiting for the other job's windows", 70);
    if (me == 0)
        rendezvous(argv[3], atol(argv[2]));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    phase("hammering the windows", 120);
    hammer("allocate", a, wa, rounds);
    if (s)
        hammer("allocate_shared", s, ws, rounds);
    hammer("create", c, wc, rounds);
    phase("free", 30);
    CHECK(rmp_win_free(&wa));
    if (s)
        CHECK(rmp_win_free(&ws));
    CHECK(rmp_win_free(&wc));
    free(c);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("rma_jobs %lld: OK\n", (long long)tag);
    MUST(rmp_finalize());
    return prog_exit();
}
