/* unexpected_drain.c — a large unexpected-message backlog drained out of arrival order: every
 * rank but 0 sends M small messages to rank 0 before rank 0 posts a receive, then rank 0 drains
 * them sender by sender (specific source and tag), and a second batch in arrival order with
 * ANY_SOURCE. Every payload, status and per-sender order is checked; the drain times are printed.
 * Usage: unexpected_drain [M] (default 50000 messages per sender).
 * Rank 0 prints "unexpected_drain: OK n=N messages=TOTAL" and one "drain times" line. */
#include <time.h>

#include "progs.h"

#define NTAGS 7          /* message i carries tag i % NTAGS */
#define TAG_DONE 1000    /* a sender's last message of a batch: everything before it arrived */
#define SIZE 16          /* payload bytes */

static int rank, n;
static long m = 50000;

static double now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t seed_of(int batch, int src, long i)
{
    return mix64(((uint64_t)batch << 56) ^ ((uint64_t)src << 40) ^ (uint64_t)i);
}

static void send_batch(int batch)
{
    unsigned char buf[SIZE];
    for (long i = 0; i < m; i++) {
        fill(buf, SIZE, seed_of(batch, rank, i));
        CHECK(rmp_send(buf, SIZE, RMP_BYTE, 0, (int)(i % NTAGS), RMP_COMM_WORLD));
    }
    CHECK(rmp_send(NULL, 0, RMP_BYTE, 0, TAG_DONE, RMP_COMM_WORLD));
}

/* Rank 0: wait for every sender's DONE (non-overtaking: its whole batch is queued by then). */
static void await_backlog(void)
{
    for (int s = 1; s < n; s++)
        CHECK(rmp_recv(NULL, 0, RMP_BYTE, s, TAG_DONE, RMP_COMM_WORLD, NULL));
}

static void check(const unsigned char *buf, const rmp_status_t *st, int batch, int src, long i,
                  const char *how)
{
    EXPECT(st->source == src && st->tag == (int)(i % NTAGS) && st->count == SIZE &&
               st->error == 0,
           "%s: message %ld from %d: status source=%d tag=%d count=%zu error=%d", how, i, src,
           st->source, st->tag, st->count, st->error);
    EXPECT(first_mismatch(buf, SIZE, seed_of(batch, src, i)) == SIZE,
           "%s: message %ld from %d: wrong payload (overtaken or corrupt)", how, i, src);
}

/* Batch 0: sender by sender, each message by its exact source and tag; an iprobe now and then
 * must see the backlog at once. */
static void drain_by_source(void)
{
    unsigned char buf[SIZE];
    rmp_status_t st;
    for (int s = 1; s < n; s++) {
        for (long i = 0; i < m; i++) {
            int tag = (int)(i % NTAGS);
            if (i % 1000 == 0) {
                int flag = 0;
                CHECK(rmp_iprobe(s, tag, RMP_COMM_WORLD, &flag, &st));
                EXPECT(flag && st.source == s && st.tag == tag && st.count == SIZE,
                       "iprobe(%d, %d) before message %ld: flag=%d source=%d tag=%d", s, tag,
                       i, flag, st.source, st.tag);
            }
            CHECK(rmp_recv(buf, SIZE, RMP_BYTE, s, tag, RMP_COMM_WORLD, &st));
            check(buf, &st, 0, s, i, "by source");
        }
    }
}

/* Batch 1: in arrival order (ANY_SOURCE, ANY_TAG); each sender's messages in its send order. */
static void drain_any_source(void)
{
    unsigned char buf[SIZE];
    rmp_status_t st;
    long next[64] = {0};
    for (long k = 0; k < m * (n - 1); k++) {
        CHECK(rmp_recv(buf, SIZE, RMP_BYTE, RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &st));
        if (st.source < 1 || st.source >= n) {
            FAIL("any source: message %ld has source %d", k, st.source);
            return;
        }
        check(buf, &st, 1, st.source, next[st.source]++, "any source");
    }
    int flag = 1;
    CHECK(rmp_iprobe(RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &flag, NULL));
    EXPECT(!flag, "a message is left after the drain");
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;
    if (argc > 1)
        m = atol(argv[1]);
    if (n < 2 || n > 64 || m < 1) {
        FAIL("needs 2..64 ranks and M >= 1 (n=%d, M=%ld)", n, m);
        rmp_finalize();
        return prog_exit();
    }
    double t_src = 0, t_any = 0;
    for (int batch = 0; batch < 2; batch++) {
        phase(batch ? "batch 1 (any source)" : "batch 0 (by source)", 300);
        if (rank != 0) {
            send_batch(batch);
        } else {
            await_backlog();
            double t0 = now();
            if (batch == 0)
                drain_by_source();
            else
                drain_any_source();
            *(batch ? &t_any : &t_src) = now() - t0;
        }
        CHECK(rmp_barrier(RMP_COMM_WORLD));
    }
    phase("finalize", 60);
    if (rank == 0) {
        printf("unexpected_drain: drain times by_source=%.3fs any_source=%.3fs\n", t_src, t_any);
        if (!prog_failures)
            printf("unexpected_drain: OK n=%d messages=%ld\n", n, m * (n - 1));
    }
    CHECK(rmp_finalize());
    return prog_exit();
}
