/* threads.c — RMP_THREAD_MULTIPLE: 4 threads per rank send and receive at the same time.
 * Usage: threads [M] (default 200).
 * Phase 1, on RMP_COMM_WORLD: thread t of every rank sends M messages with tag 100+t to every
 * rank (itself included; every 50th one above the eager limit), then receives the n*M sent to
 * it — some with RMP_ANY_SOURCE, some from a given rank, by blocking recv (even threads) or
 * irecv + test loop (odd threads). Phase 2, on a dup of the world: threads 1..3 send M messages
 * each (tag 500+t) to every rank while thread 0 receives all of them with RMP_ANY_SOURCE and
 * RMP_ANY_TAG mixed with specific tags. Every message is checked: sender, thread, sequence
 * (in order per sender and tag), size and bytes, and arrives exactly once.
 * Rank 0 prints "threads: OK n=N threads=4 messages=TOTAL". */
#include <pthread.h>
#include <sched.h>

#include "progs.h"

#define NTHREADS 4
#define MAXMSG (48 * 1024)
#define BIG 40000 /* above the default eager limit: rendezvous */

typedef struct hdr {
    int32_t src, thread, seq, size;
} hdr_t;

static int rank, n, m_per_peer;
static rmp_comm_t dupcomm;
static long received[NTHREADS]; /* per thread, both phases */

static int msg_size(int thread, int seq)
{
    if (seq % 50 == 49)
        return BIG + thread;
    return (int)sizeof(hdr_t) + (int)(mix64((uint64_t)thread * 7919 + (uint64_t)seq) % 240);
}

static uint64_t seed_of(int src, int thread, int seq)
{
    return mix64(((uint64_t)src << 40) ^ ((uint64_t)thread << 32) ^ (uint64_t)seq);
}

static unsigned char *make_msg(int thread, int seq)
{
    int size = msg_size(thread, seq);
    unsigned char *b = malloc((size_t)size);
    fill(b, (size_t)size, seed_of(rank, thread, seq));
    hdr_t h = {rank, thread, seq, size};
    memcpy(b, &h, sizeof h);
    return b;
}

/* Post M isends of `thread` to every rank with `tag` on comm. */
static void send_all(int thread, int tag, rmp_comm_t comm, rmp_request_t *reqs,
                     unsigned char **bufs)
{
    int k = 0;
    for (int p = 0; p < n; p++)
        for (int seq = 0; seq < m_per_peer; seq++, k++) {
            bufs[k] = make_msg(thread, seq);
            CHECK(rmp_isend(bufs[k], msg_size(thread, seq), RMP_BYTE, p, tag, comm, &reqs[k]));
        }
}

static void finish_sends(rmp_request_t *reqs, unsigned char **bufs, int count)
{
    CHECK(rmp_waitall(count, reqs, RMP_STATUSES_IGNORE));
    for (int k = 0; k < count; k++)
        free(bufs[k]);
}

/* Checks one arrival; next_seq[src * NTHREADS + thread] is the sequence it must carry. */
static void check_arrival(const unsigned char *buf, const rmp_status_t *st, int want_tag,
                          int *next_seq, int me)
{
    hdr_t h;
    if (st->count < sizeof h) {
        FAIL("thread %d: %zu-byte message from %d tag %d", me, st->count, st->source, st->tag);
        return;
    }
    memcpy(&h, buf, sizeof h);
    int *next = &next_seq[h.src * NTHREADS + (h.thread & (NTHREADS - 1))];
    if (h.src != st->source || h.src < 0 || h.src >= n || h.thread < 0 ||
        h.thread >= NTHREADS || (want_tag >= 0 && st->tag != want_tag) ||
        (size_t)h.size != st->count || h.seq != *next) {
        FAIL("thread %d: got src=%d thread=%d seq=%d size=%d (status source=%d tag=%d "
             "count=%zu), expected seq %d", me, h.src, h.thread, h.seq, h.size, st->source,
             st->tag, st->count, *next);
        return;
    }
    /* The header replaced the pattern's first bytes: compare the rest with a fresh fill. */
    unsigned char *want = malloc(st->count);
    fill(want, st->count, seed_of(h.src, h.thread, h.seq));
    if (memcmp(want + sizeof h, buf + sizeof h, st->count - sizeof h) != 0)
        FAIL("thread %d: message %d from %d/%d corrupt", me, h.seq, h.src, h.thread);
    free(want);
    (*next)++;
    received[me]++;
}

/* Receive from rank s (or any) with `tag`, blocking or by test loop. */
static void recv_one(unsigned char *buf, int src, int tag, rmp_comm_t comm, bool poll,
                     rmp_status_t *st)
{
    if (!poll) {
        CHECK(rmp_recv(buf, MAXMSG, RMP_BYTE, src, tag, comm, st));
        return;
    }
    rmp_request_t req;
    CHECK(rmp_irecv(buf, MAXMSG, RMP_BYTE, src, tag, comm, &req));
    int flag = 0;
    while (!flag) {
        CHECK(rmp_test(&req, &flag, st));
        if (!flag)
            sched_yield();
    }
}

static void *phase1(void *arg)
{
    int t = (int)(intptr_t)arg, count = n * m_per_peer, tag = 100 + t;
    rmp_request_t *reqs = calloc((size_t)count, sizeof *reqs);
    unsigned char **bufs = calloc((size_t)count, sizeof *bufs), *buf = malloc(MAXMSG);
    int *left = calloc((size_t)n, sizeof(int)), *next = calloc((size_t)n * NTHREADS, sizeof(int));
    for (int p = 0; p < n; p++)
        left[p] = m_per_peer;
    uint64_t rng = mix64((uint64_t)(rank * NTHREADS + t) + 1);

    send_all(t, tag, RMP_COMM_WORLD, reqs, bufs);
    for (int got = 0; got < count; got++) {
        int src = RMP_ANY_SOURCE;
        if (rnd(&rng) % 3) { /* a specific rank that still owes this thread a message */
            int s = (int)(rnd(&rng) % (uint64_t)n);
            while (left[s] == 0)
                s = (s + 1) % n;
            src = s;
        }
        rmp_status_t st;
        recv_one(buf, src, tag, RMP_COMM_WORLD, t % 2 == 1, &st);
        if (st.source < 0 || st.source >= n || left[st.source] == 0) {
            FAIL("thread %d: receive from %d got a message from %d (owed %d)", t, src,
                 st.source, st.source >= 0 && st.source < n ? left[st.source] : -1);
            exit(1);
        }
        left[st.source]--;
        check_arrival(buf, &st, tag, next, t);
    }
    finish_sends(reqs, bufs, count);
    free(reqs), free(bufs), free(buf), free(left), free(next);
    return NULL;
}

static void *phase2(void *arg)
{
    int t = (int)(intptr_t)arg;
    if (t > 0) { /* a sender */
        int count = n * m_per_peer;
        rmp_request_t *reqs = calloc((size_t)count, sizeof *reqs);
        unsigned char **bufs = calloc((size_t)count, sizeof *bufs);
        send_all(t, 500 + t, dupcomm, reqs, bufs);
        finish_sends(reqs, bufs, count);
        free(reqs), free(bufs);
        return NULL;
    }
    /* thread 0 collects (NTHREADS-1) * n * M messages */
    int count = (NTHREADS - 1) * n * m_per_peer;
    int left[NTHREADS] = {0};
    int *next = calloc((size_t)n * NTHREADS, sizeof(int));
    unsigned char *buf = malloc(MAXMSG);
    for (int s = 1; s < NTHREADS; s++)
        left[s] = n * m_per_peer;
    uint64_t rng = mix64((uint64_t)rank + 77);
    for (int got = 0; got < count; got++) {
        int tag = RMP_ANY_TAG;
        if (rnd(&rng) % 2) {
            int s = 1 + (int)(rnd(&rng) % (NTHREADS - 1));
            while (left[s] == 0)
                s = 1 + s % (NTHREADS - 1);
            tag = 500 + s;
        }
        rmp_status_t st;
        recv_one(buf, RMP_ANY_SOURCE, tag, dupcomm, false, &st);
        int s = st.tag - 500;
        if (s < 1 || s >= NTHREADS || left[s] == 0) {
            FAIL("collector: receive with tag %d got tag %d from %d", tag, st.tag, st.source);
            exit(1);
        }
        left[s]--;
        check_arrival(buf, &st, tag, next, 0);
    }
    free(next), free(buf);
    return NULL;
}

static void run_threads(void *(*fn)(void *), const char *what)
{
    pthread_t th[NTHREADS];
    phase(what, 60);
    for (int t = 0; t < NTHREADS; t++)
        if (pthread_create(&th[t], NULL, fn, (void *)(intptr_t)t) != 0) {
            FAIL("pthread_create failed");
            exit(1);
        }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
}

int main(int argc, char **argv)
{
    m_per_peer = argc > 1 ? atoi(argv[1]) : 200;
    int provided = -1, level = -1;
    phase("rmp_init_thread", 30);
    MUST(rmp_init_thread(&argc, &argv, RMP_THREAD_MULTIPLE, &provided));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;
    CHECK(rmp_query_thread(&level));
    EXPECT(provided == RMP_THREAD_MULTIPLE && level == RMP_THREAD_MULTIPLE,
           "thread level provided %d, query %d; expected %d", provided, level,
           RMP_THREAD_MULTIPLE);
    MUST(rmp_comm_dup(RMP_COMM_WORLD, &dupcomm));

    run_threads(phase1, "phase 1: 4 threads exchanging with every rank");
    phase("barrier between the phases", 30);
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    run_threads(phase2, "phase 2: 3 sender threads, 1 wildcard collector");

    long mine = 0, sum = 0, fails = prog_failures, all_fails = 0;
    for (int t = 0; t < NTHREADS; t++)
        mine += received[t];
    phase("final counts", 30);
    CHECK(rmp_allreduce(&mine, &sum, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    CHECK(rmp_allreduce(&fails, &all_fails, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    long expected = (long)n * n * m_per_peer * (2 * NTHREADS - 1);
    if (rank == 0) {
        if (sum == expected && all_fails == 0)
            printf("threads: OK n=%d threads=%d messages=%ld\n", n, NTHREADS, sum);
        else
            FAIL("%ld messages received, expected %ld; %ld failures", sum, expected, all_fails);
    }
    CHECK(rmp_comm_free(&dupcomm));
    phase("rmp_finalize", 30);
    CHECK(rmp_finalize());
    return prog_exit();
}
