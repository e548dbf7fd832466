/* comm_threads.c — RMP_THREAD_MULTIPLE communicator creation: T threads per rank (argv[1],
 * default 3) each own a parent communicator (a dup of the world) and, M times (argv[2],
 * default 200), create a communicator from it at the same time as the other threads (dup,
 * or split by rank parity, or split with some ranks RMP_UNDEFINED), use it, and free it a few
 * iterations later (so ids are released and taken again while others live). On every new
 * communicator each member sends its right neighbour a message whose payload names thread,
 * iteration and sender, with the same tag in every thread, and an allreduce sums a value only
 * this thread and iteration use: if two threads' communicators shared a context, messages
 * would cross and the payloads or sums would say so. Rank 0 prints
 * "comm_threads: OK n=N threads=T iterations=M".
 * Then, single-threaded, the ids run out: rank 0 holds EXTRA dups of RMP_COMM_SELF, and dups
 * of the world must fail with RMP_ERR_NO_MEM on every rank at the same call (the ids free on
 * every member run out first on rank 0), after which freeing them makes creation work again. */
#include <pthread.h>

#include "progs.h"

#define MAXT 8
#define KEEP 3 /* communicators a thread keeps alive before freeing the oldest */
#define TAG 7
#define EXTRA 5
#define MAX_USER_COMMS 4094 /* RMP_MAX_COMMS minus RMP_COMM_WORLD and RMP_COMM_SELF */

static int me, n, nthreads, iters;
static rmp_comm_t parents[MAXT];

typedef struct payload {
    int32_t world, thread, iter, size;
} payload_t;

/* Create this iteration's communicator from parent (RMP_COMM_NULL for a rank left out). */
static rmp_comm_t create(int t, int i, rmp_comm_t parent)
{
    rmp_comm_t c = RMP_COMM_NULL;
    switch (i % 3) {
    case 0:
        CHECK(rmp_comm_dup(parent, &c));
        break;
    case 1:
        CHECK(rmp_comm_split(parent, me % 2, n - me, &c));
        break;
    default: /* ranks whose (rank + i + t) is a multiple of 3 are left out */
        CHECK(rmp_comm_split(parent, (me + i + t) % 3 ? 0 : RMP_UNDEFINED, me, &c));
        if (((me + i + t) % 3 == 0) != (c == RMP_COMM_NULL))
            FAIL("thread %d iteration %d: split gave %s communicator", t, i,
                 c == RMP_COMM_NULL ? "no" : "a");
        break;
    }
    return c;
}

/* A message to the right neighbour and an allreduce, both checked exactly. */
static void use(int t, int i, rmp_comm_t c)
{
    int r, size;
    CHECK(rmp_comm_rank(c, &r));
    CHECK(rmp_comm_size(c, &size));
    payload_t out = {me, t, i, size}, in = {-1, -1, -1, -1};
    rmp_request_t req;
    rmp_status_t st;
    CHECK(rmp_isend(&out, sizeof out, RMP_BYTE, (r + 1) % size, TAG, c, &req));
    CHECK(rmp_recv(&in, sizeof in, RMP_BYTE, (r - 1 + size) % size, TAG, c, &st));
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
    if (in.thread != t || in.iter != i || in.size != size || st.count != sizeof in)
        FAIL("thread %d iteration %d: got the message of thread %d iteration %d (world rank "
             "%d, size %d): communicators crossed",
             t, i, in.thread, in.iter, in.world, in.size);
    int64_t mine = (int64_t)t * 1000000 + i, sum = 0;
    CHECK(rmp_allreduce(&mine, &sum, 1, RMP_INT64, RMP_SUM, c));
    if (sum != mine * size)
        FAIL("thread %d iteration %d: allreduce gave %lld, expected %lld: communicators "
             "crossed",
             t, i, (long long)sum, (long long)(mine * size));
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    rmp_comm_t live[KEEP];
    for (int k = 0; k < KEEP; k++)
        live[k] = RMP_COMM_NULL;
    for (int i = 0; i < iters; i++) {
        rmp_comm_t c = create(t, i, parents[t]);
        if (c != RMP_COMM_NULL)
            use(t, i, c);
        if (live[i % KEEP] != RMP_COMM_NULL)
            CHECK(rmp_comm_free(&live[i % KEEP]));
        live[i % KEEP] = c;
    }
    for (int k = 0; k < KEEP; k++)
        if (live[k] != RMP_COMM_NULL)
            CHECK(rmp_comm_free(&live[k]));
    return NULL;
}

static void exhaust(void)
{
    static rmp_comm_t held[MAX_USER_COMMS + 1];
    int k = me == 0 ? EXTRA : 0, m = 0, rc;
    for (int j = 0; j < k; j++)
        MUST(rmp_comm_dup(RMP_COMM_SELF, &held[j]));
    while (k + m <= MAX_USER_COMMS &&
           (rc = rmp_comm_dup(RMP_COMM_WORLD, &held[k + m])) == RMP_SUCCESS)
        m++;
    if (rc != RMP_ERR_NO_MEM || m != MAX_USER_COMMS - EXTRA)
        FAIL("dup after %d: returned %d, expected RMP_ERR_NO_MEM after %d", m, rc,
             MAX_USER_COMMS - EXTRA);
    for (int j = 0; j < k + m; j++)
        CHECK(rmp_comm_free(&held[j]));
    rmp_comm_t again;
    CHECK(rmp_comm_dup(RMP_COMM_WORLD, &again));
    use(0, -1, again);
    CHECK(rmp_comm_free(&again));
}

int main(int argc, char **argv)
{
    int provided;
    MUST(rmp_init_thread(&argc, &argv, RMP_THREAD_MULTIPLE, &provided));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &me));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = me;
    nthreads = argc > 1 ? atoi(argv[1]) : 3;
    iters = argc > 2 ? atoi(argv[2]) : 200;
    if (provided != RMP_THREAD_MULTIPLE || nthreads < 1 || nthreads > MAXT || iters < 1) {
        FAIL("provided %d, threads %d (1..%d), iterations %d", provided, nthreads, MAXT, iters);
        return prog_exit();
    }
    for (int t = 0; t < nthreads; t++)
        MUST(rmp_comm_dup(RMP_COMM_WORLD, &parents[t]));
    phase("threads", 240);
    pthread_t th[MAXT];
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t)) {
            FAIL("pthread_create failed");
            exit(1);
        }
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    phase("exhaust", 120);
    for (int t = 0; t < nthreads; t++)
        CHECK(rmp_comm_free(&parents[t]));
    exhaust();
    phase("finalize", 30);
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    MUST(rmp_finalize());
    if (me == 0 && !prog_failures)
        printf("comm_threads: OK n=%d threads=%d iterations=%d\n", n, nthreads, iters);
    return prog_exit();
}
