/* rma_special.c — the one-sided cases beyond the operation matrix (rma_ops.c):
 *   sleeper   rank 0 sleeps in sleep() (no rmp call) while every other rank locks it, puts,
 *             gets, accumulates, fetch_and_ops and unlocks: they must all finish before it
 *             wakes (CLOCK_MONOTONIC is one clock for the whole node). Under RMP_RMA_PATH=am
 *             the target's progress is needed: there they must finish after it woke, without
 *             hanging. Windows: allocate and create.
 *   mutex     a compare_and_swap spin lock on rank 0 guards a read-modify-write (get, flush,
 *             put) of a counter there: n * K at the end, exactly
 *   shared    allocate_shared on the ranks of my node: contiguous in rank order, every rank
 *             stores into its neighbour's memory through rmp_win_shared_query's address
 *   errors    range (and nothing touched), sync (outside epochs, double lock, unlock without
 *             lock, request forms in a fence, free with a lock open), flavor, type and op
 *             checks, RMP_PROC_NULL
 * Prints "rma_special: OK" (and "rma_special: sleeper ..." with what it measured). */
#include <time.h>

#include "progs.h"

static int n, me;
static bool am_path;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

enum { SLEEP_S = 2 };

static void t_sleeper(bool allocate)
{
    enum { NI = 64 };
    int64_t *mem = NULL, *own = NULL;
    rmp_win_t win;
    if (allocate) {
        MUST(rmp_win_allocate(NI * 8, 8, RMP_COMM_WORLD, (void **)&mem, &win));
    } else {
        own = mem = calloc(NI, 8);
        MUST(rmp_win_create(mem, NI * 8, 8, RMP_COMM_WORLD, &win));
    }
    memset(mem, 0, NI * 8);
    MUST(rmp_barrier(RMP_COMM_WORLD));
    double done = 0, woke = 0;
    if (me == 0) {
        sleep(SLEEP_S); /* no rmp call: passive target progress is the point */
        woke = now();
    } else {
        int64_t v[4] = {me, me, me, me}, back[4] = {0}, one = 1, old = -1;
        int type = me % 2 ? RMP_LOCK_EXCLUSIVE : RMP_LOCK_SHARED;
        CHECK(rmp_win_lock(type, 0, 0, win));
        CHECK(rmp_put(v, 4, RMP_INT64, 0, 4 * me, 4, RMP_INT64, win));
        CHECK(rmp_win_flush(0, win));
        CHECK(rmp_get(back, 4, RMP_INT64, 0, 4 * me, 4, RMP_INT64, win));
        CHECK(rmp_accumulate(&one, 1, RMP_INT64, 0, 0, 1, RMP_INT64, RMP_SUM, win));
        CHECK(rmp_fetch_and_op(&one, &old, RMP_INT64, 0, 1, RMP_SUM, win));
        CHECK(rmp_win_unlock(0, win));
        done = now();
        EXPECT(back[0] == me && back[3] == me, "sleeper: got back %lld %lld, expected %d",
               (long long)back[0], (long long)back[3], me);
        EXPECT(old >= 0 && old < n, "sleeper: fetch_and_op got %lld", (long long)old);
    }
    double *dones = calloc((size_t)n, sizeof(double));
    MUST(rmp_gather(&done, 1, RMP_DOUBLE, dones, 1, RMP_DOUBLE, 0, RMP_COMM_WORLD));
    if (me == 0) {
        double last = 0;
        for (int r = 1; r < n; r++)
            last = dones[r] > last ? dones[r] : last;
        if (n > 1 && !am_path)
            EXPECT(last < woke, "sleeper (%s): the origins finished %.3f s after the target "
                   "woke: they waited for its progress", allocate ? "allocate" : "create",
                   last - woke);
        if (n > 1 && am_path)
            EXPECT(last >= woke - 0.05, "sleeper (am): origins done %.3f s before the target "
                   "woke, without its progress?", woke - last);
        if (n > 1)
            printf("rma_special: sleeper %s: origins done %.3f s %s the target woke\n",
                   allocate ? "allocate" : "create", last < woke ? woke - last : last - woke,
                   last < woke ? "before" : "after");
        CHECK(rmp_win_sync(win));
        EXPECT(mem[0] == n - 1 && mem[1] == n - 1, "sleeper: counters %lld %lld, expected %d",
               (long long)mem[0], (long long)mem[1], n - 1);
        for (int r = 1; r < n && 4 * r + 3 < NI; r++)
            EXPECT(mem[4 * r] == r && mem[4 * r + 3] == r, "sleeper: rank %d's put: %lld", r,
                   (long long)mem[4 * r]);
    }
    free(dones);
    CHECK(rmp_win_free(&win));
    free(own);
}

static void t_mutex(void)
{
    enum { K = 20 };
    int64_t *mem;
    rmp_win_t win;
    MUST(rmp_win_allocate(16, 8, RMP_COMM_WORLD, (void **)&mem, &win));
    mem[0] = mem[1] = 0; /* [0] the mutex, [1] the counter it guards */
    MUST(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_win_lock_all(0, win));
    for (int k = 0; k < K; k++) {
        int64_t zero = 0, mine = me + 1, got = -1, c = 0;
        long spins = 0;
        do { /* take it */
            CHECK(rmp_compare_and_swap(&mine, &zero, &got, RMP_INT64, 0, 0, win));
            CHECK(rmp_win_flush(0, win));
        } while (got != 0 && ++spins < 10000000);
        EXPECT(got == 0, "mutex: never taken");
        CHECK(rmp_get(&c, 1, RMP_INT64, 0, 1, 1, RMP_INT64, win));
        CHECK(rmp_win_flush(0, win));
        c++;
        CHECK(rmp_put(&c, 1, RMP_INT64, 0, 1, 1, RMP_INT64, win));
        CHECK(rmp_win_flush(0, win));
        CHECK(rmp_compare_and_swap(&zero, &mine, &got, RMP_INT64, 0, 0, win)); /* give back */
        CHECK(rmp_win_flush(0, win));
        EXPECT(got == mine, "mutex: held by %lld at release", (long long)got);
    }
    CHECK(rmp_win_unlock_all(win));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (me == 0) {
        CHECK(rmp_win_sync(win));
        EXPECT(mem[1] == (int64_t)n * K, "mutex: counter %lld, expected %d (lost updates)",
               (long long)mem[1], n * K);
    }
    CHECK(rmp_win_free(&win));
}

/* On the ranks of my node (a job across nodes refuses allocate_shared on the world). */
static void t_shared(void)
{
    int32_t *mine;
    rmp_win_t win;
    rmp_comm_t node;
    int ln, lme; /* my node's size and my rank there */
    MUST(rmp_comm_split_type(RMP_COMM_WORLD, RMP_COMM_TYPE_SHARED, 0, &node));
    rmp_comm_rank(node, &lme);
    rmp_comm_size(node, &ln);
    ptrdiff_t sz = (ptrdiff_t)(ln + lme) * 4; /* sizes differ: contiguity is visible */
    MUST(rmp_win_allocate_shared(sz, 4, node, (void **)&mine, &win));
    for (int i = 0; i < ln + lme; i++)
        mine[i] = -1;
    MUST(rmp_barrier(node));
    char *prev_end = NULL;
    for (int r = 0; r < ln; r++) {
        ptrdiff_t s;
        int du;
        void *b;
        CHECK(rmp_win_shared_query(win, r, &s, &du, &b));
        EXPECT(s == (ptrdiff_t)(ln + r) * 4 && du == 4, "shared_query %d: size %td unit %d", r,
               s, du);
        EXPECT(!prev_end || (char *)b == prev_end, "shared: rank %d's memory not contiguous", r);
        prev_end = (char *)b + s;
        if (r == (lme + 1) % ln)
            ((int32_t *)b)[lme] = 1000 + lme; /* a plain store into the neighbour */
    }
    CHECK(rmp_win_sync(win));
    MUST(rmp_barrier(node));
    CHECK(rmp_win_sync(win));
    int from = (lme + ln - 1) % ln;
    EXPECT(mine[from] == 1000 + from, "shared: element %d is %d, expected %d", from,
           mine[from], 1000 + from);
    ptrdiff_t s;
    int du;
    void *b;
    CHECK(rmp_win_shared_query(win, RMP_PROC_NULL, &s, &du, &b));
    CHECK(rmp_win_free(&win));
    CHECK(rmp_comm_free(&node));
}

static void t_errors(void)
{
    enum { NI = 16 };
    int32_t *mem = calloc(NI, 4), v[NI] = {0}, r0 = 0;
    rmp_win_t win, dyn;
    MUST(rmp_win_create(mem, NI * 4, 4, RMP_COMM_WORLD, &win));
    int t = (me + 1) % n;
    /* sync: no epoch */
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_put(v, 1, RMP_INT32, t, 0, 1, RMP_INT32, win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_unlock(t, win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_flush(t, win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_complete(win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_wait(win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_unlock_all(win));
    /* PROC_NULL: nothing, and no epoch needed */
    CHECK(rmp_put(v, 1, RMP_INT32, RMP_PROC_NULL, 0, 1, RMP_INT32, win));
    EXPECT_RC(RMP_ERR_RANK, rmp_put(v, 1, RMP_INT32, n, 0, 1, RMP_INT32, win));
    EXPECT_RC(RMP_ERR_ARG, rmp_win_lock(77, t, 0, win));
    CHECK(rmp_win_fence(0, win));
    /* range: refused before anything moves */
    int32_t mark[NI];
    for (int i = 0; i < NI; i++)
        mark[i] = 4242;
    EXPECT_RC(RMP_ERR_RMA_RANGE, rmp_put(mark, NI, RMP_INT32, t, 1, NI, RMP_INT32, win));
    EXPECT_RC(RMP_ERR_RMA_RANGE, rmp_put(mark, 1, RMP_INT32, t, -1, 1, RMP_INT32, win));
    EXPECT_RC(RMP_ERR_RMA_RANGE, rmp_get(v, 2, RMP_INT32, t, NI - 1, 2, RMP_INT32, win));
    EXPECT_RC(RMP_ERR_RMA_RANGE,
              rmp_accumulate(mark, 1, RMP_INT32, t, NI, 1, RMP_INT32, RMP_SUM, win));
    /* types and ops */
    EXPECT_RC(RMP_ERR_TYPE, rmp_put(v, 2, RMP_INT32, t, 0, 1, RMP_INT32, win));
    EXPECT_RC(RMP_ERR_TYPE, rmp_accumulate(v, 1, RMP_INT32, t, 0, 1, RMP_FLOAT, RMP_SUM, win));
    float f = 1, fr;
    EXPECT_RC(RMP_ERR_TYPE, rmp_compare_and_swap(&f, &f, &fr, RMP_FLOAT, t, 0, win));
    EXPECT_RC(RMP_ERR_OP, rmp_accumulate(v, 1, RMP_INT32, t, 0, 1, RMP_INT32, RMP_NO_OP, win));
    EXPECT_RC(RMP_ERR_OP, rmp_accumulate(&f, 1, RMP_FLOAT, t, 0, 1, RMP_FLOAT, RMP_BAND, win));
    rmp_request_t rq;
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_rput(v, 1, RMP_INT32, t, 0, 1, RMP_INT32, win, &rq));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_flush(t, win)); /* passive target only */
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_rget(v, 1, RMP_INT32, t, 0, 1, RMP_INT32, win, &rq));
    CHECK(rmp_win_fence(RMP_MODE_NOSUCCEED, win));
    for (int i = 0; i < NI; i++)
        EXPECT(mem[i] == 0, "range: element %d became %d: a refused access wrote", i, mem[i]);
    CHECK(rmp_win_fence(0, win));
    CHECK(rmp_win_lock(RMP_LOCK_SHARED, t, 0, win)); /* a fence epoch nobody used yields */
    CHECK(rmp_win_unlock(t, win));
    CHECK(rmp_win_fence(RMP_MODE_NOSUCCEED, win));
    /* flavor */
    ptrdiff_t s;
    int du;
    void *b;
    /* shared_query answers on a create window (MPI-4): my memory, none of a peer's */
    CHECK(rmp_win_shared_query(win, me, &s, &du, &b));
    EXPECT(s == NI * 4 && du == 4 && b == mem, "own query: %td bytes, unit %d", s, du);
    CHECK(rmp_win_shared_query(win, t, &s, &du, &b));
    EXPECT(t == me || (s == 0 && b == NULL), "peer query: %td bytes at %p", s, b);
    EXPECT_RC(RMP_ERR_RMA_FLAVOR, rmp_win_attach(win, v, 4));
    int fl = 0;
    CHECK(rmp_win_get_flavor(win, &fl));
    EXPECT(fl == RMP_WIN_FLAVOR_CREATE, "flavor %d", fl);
    CHECK(rmp_win_get_model(win, &fl));
    EXPECT(fl == RMP_WIN_UNIFIED, "model %d", fl);
    rmp_group_t g;
    int gs = 0;
    CHECK(rmp_win_get_group(win, &g));
    CHECK(rmp_group_size(g, &gs));
    EXPECT(gs == n, "window group of %d", gs);
    CHECK(rmp_group_free(&g));
    /* double lock, free with a lock open (the window stays) */
    CHECK(rmp_win_lock(RMP_LOCK_EXCLUSIVE, t, 0, win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_lock(RMP_LOCK_SHARED, t, 0, win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_lock_all(0, win));
    rmp_win_t keep = win;
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_free(&win));
    EXPECT(win == keep, "a refused free changed the handle");
    CHECK(rmp_put(&r0, 1, RMP_INT32, t, 0, 1, RMP_INT32, win));
    CHECK(rmp_win_unlock(t, win));
    CHECK(rmp_win_lock_all(0, win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_unlock(t, win));
    EXPECT_RC(RMP_ERR_RMA_SYNC, rmp_win_free(&win));
    CHECK(rmp_win_unlock_all(win));
    CHECK(rmp_win_free(&win));
    /* dynamic: an address nobody attached */
    MUST(rmp_win_create_dynamic(RMP_COMM_WORLD, &dyn));
    MUST(rmp_win_attach(dyn, mem, NI * 4));
    EXPECT_RC(RMP_ERR_RMA_ATTACH, rmp_win_attach(dyn, mem + 1, 4));
    ptrdiff_t a, *all = calloc((size_t)n, sizeof(ptrdiff_t));
    MUST(rmp_get_address(mem, &a));
    MUST(rmp_allgather(&a, 1, RMP_INT64, all, 1, RMP_INT64, RMP_COMM_WORLD));
    CHECK(rmp_win_lock(RMP_LOCK_SHARED, t, 0, dyn));
    int rc = rmp_put(v, 1, RMP_INT32, t, all[t] + NI * 4, 1, RMP_INT32, dyn);
    int rc2 = rmp_win_unlock(t, dyn); /* active messages: the target refuses, flush says so */
    EXPECT(rc == RMP_ERR_RMA_RANGE || (rc == RMP_SUCCESS && rc2 == RMP_ERR_RMA_RANGE),
           "dynamic range: put %d, unlock %d", rc, rc2);
    CHECK(rmp_win_lock(RMP_LOCK_SHARED, t, 0, dyn));
    CHECK(rmp_put(v, 1, RMP_INT32, t, all[t] + 4, 1, RMP_INT32, dyn));
    CHECK(rmp_win_unlock(t, dyn));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_win_detach(dyn, mem));
    EXPECT_RC(RMP_ERR_ARG, rmp_win_detach(dyn, mem));
    CHECK(rmp_win_free(&dyn));
    free(all);
    free(mem);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &me);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    prog_rank = me;
    const char *p = getenv("RMP_RMA_PATH");
    am_path = p && !strcmp(p, "am");
    phase("rma_special sleeper allocate", 60);
    t_sleeper(true);
    phase("rma_special sleeper create", 60);
    t_sleeper(false);
    phase("rma_special mutex", 60);
    t_mutex();
    phase("rma_special shared", 60);
    t_shared();
    phase("rma_special errors", 60);
    t_errors();
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("rma_special: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
