/* storm.c — many messages of random sizes and tags, received with a mix of specific and
 * wildcard receives; every message must arrive once, intact and in per-sender order.
 * Usage: storm [TOTAL] (default 100000 messages over the whole job).
 * Every rank derives the whole plan (destination, tag, size of each message) from one seed, so
 * each receiver knows exactly what it must get. The plan runs in rounds of ROUND messages per
 * sender, separated by barriers: a round's receives only ever see that round's messages, and
 * wildcard receives are posted only when some message can match them (no deadlock by design).
 * Rank 0 prints "storm: OK n=N messages=TOTAL". */
#include "progs.h"

#define ROUND 64
#define WINDOW 8 /* specific receives outstanding at once */
#define MAXMSG 65536
#define GUARD 16
#define MAXRANKS 64
#define NTAGS 6
static const int tags[NTAGS] = {0, 1, 2, 5, 1000, RMP_TAG_UB};

typedef struct msg {
    int dest, tag; /* tag index */
    size_t size;
} msg_t;

/* Message i of sender s: mostly small, some mid-size, 2% above the default eager limit. */
static msg_t plan(int s, long i, int n)
{
    uint64_t r = mix64(((uint64_t)s << 40) ^ (uint64_t)i ^ 0x5707ull);
    msg_t m = {.dest = (int)(r % (uint64_t)n), .tag = (int)((r >> 16) % NTAGS)};
    uint64_t kind = (r >> 24) % 100, v = r >> 32;
    if (kind < 70)
        m.size = v % 65;
    else if (kind < 90)
        m.size = 65 + v % 960;
    else if (kind < 98)
        m.size = 1025 + v % 15360;
    else
        m.size = 16385 + v % (MAXMSG - 16384);
    return m;
}

static uint64_t payload_seed(int s, int d, int t, long seq)
{
    return mix64(((uint64_t)s << 52) ^ ((uint64_t)d << 40) ^ ((uint64_t)t << 32) ^ (uint64_t)seq);
}

/* What one receiver expects in the current round, per (sender, tag) in send order. */
typedef struct expect {
    size_t size[ROUND];
    int count;    /* messages from this sender with this tag this round */
    int posted;   /* how many of them a receive was posted for (in order) */
    long seq0;    /* sequence number of the first this round */
} expect_t;

typedef struct slot {
    rmp_request_t req;
    int src, tag;
    long seq;
    size_t size;
    unsigned char *buf;
} slot_t;

static int rank, n;
static expect_t exp_[MAXRANKS][NTAGS];
static long sent_seq[MAXRANKS][NTAGS];
static long received, wildcards, bytes;
static char phase_buf[256];

/* Checks a received message; the GUARD bytes at buf + guard_at must still be 0xa5. */
static void check_msg(const unsigned char *buf, size_t guard_at, const rmp_status_t *st,
                      int src, int t, long seq, size_t size, const char *how)
{
    EXPECT(st->source == src && st->tag == tags[t] && st->count == size && st->error == 0,
           "%s: status source=%d tag=%d count=%zu error=%d, expected %d/%d/%zu/0", how,
           st->source, st->tag, st->count, st->error, src, tags[t], size);
    size_t bad = first_mismatch(buf, size, payload_seed(src, rank, t, seq));
    EXPECT(bad == size, "%s: message %ld from %d tag %d (%zu bytes) wrong at byte %zu: "
           "out of order or corrupt", how, seq, src, tags[t], size, bad);
    for (size_t i = 0; i < GUARD; i++)
        if (buf[guard_at + i] != 0xa5) {
            FAIL("%s: receive of %zu bytes wrote past its buffer", how, size);
            break;
        }
    received++;
    bytes += (long)size;
}

static void complete_window(slot_t *win, int *nwin, uint64_t *rng)
{
    int count = *nwin;
    snprintf(phase_buf, sizeof phase_buf, "%d specific receives (first: from %d tag %d seq %ld)",
             count, win[0].src, tags[win[0].tag], win[0].seq);
    phase(phase_buf, 30);
    rmp_request_t reqs[WINDOW];
    rmp_status_t st[WINDOW];
    for (int i = 0; i < count; i++)
        reqs[i] = win[i].req;
    if (rnd(rng) % 2) {
        CHECK(rmp_waitall(count, reqs, st));
        for (int i = 0; i < count; i++)
            check_msg(win[i].buf, win[i].size, &st[i], win[i].src, win[i].tag, win[i].seq, win[i].size,
                      "waitall");
    } else {
        for (int k = 0; k < count; k++) {
            int idx;
            rmp_status_t s1;
            CHECK(rmp_waitany(count, reqs, &idx, &s1));
            if (idx < 0 || idx >= count || reqs[idx] != RMP_REQUEST_NULL) {
                FAIL("waitany returned index %d of %d", idx, count);
                exit(1);
            }
            check_msg(win[idx].buf, win[idx].size, &s1, win[idx].src, win[idx].tag, win[idx].seq,
                      win[idx].size, "waitany");
        }
        int idx;
        CHECK(rmp_waitany(count, reqs, &idx, RMP_STATUS_IGNORE));
        EXPECT(idx == RMP_UNDEFINED, "waitany over all-NULL requests gave index %d", idx);
    }
    *nwin = 0;
}

/* Post one specific receive for a random (sender, tag) that still has unposted messages. */
static bool post_specific(slot_t *win, int *nwin, uint64_t *rng)
{
    int start = (int)(rnd(rng) % (uint64_t)(n * NTAGS));
    for (int k = 0; k < n * NTAGS; k++) {
        int s = (start + k) % (n * NTAGS) / NTAGS, t = (start + k) % NTAGS;
        expect_t *e = &exp_[s][t];
        if (e->posted == e->count)
            continue;
        slot_t *sl = &win[(*nwin)++];
        sl->src = s, sl->tag = t, sl->seq = e->seq0 + e->posted;
        sl->size = e->size[e->posted++];
        memset(sl->buf + sl->size, 0xa5, GUARD);
        CHECK(rmp_irecv(sl->buf, (int)sl->size, RMP_BYTE, s, tags[t], RMP_COMM_WORLD, &sl->req));
        return true;
    }
    return false;
}

/* One blocking wildcard receive; a matching message is guaranteed to be on its way. */
static void recv_wildcard(unsigned char *buf, uint64_t *rng)
{
    int want_s = RMP_ANY_SOURCE, want_t = RMP_ANY_TAG;
    int start = (int)(rnd(rng) % (uint64_t)(n * NTAGS));
    for (int k = 0; k < n * NTAGS; k++) { /* pick an unposted (s, t) to aim a wildcard at */
        int s = (start + k) % (n * NTAGS) / NTAGS, t = (start + k) % NTAGS;
        if (exp_[s][t].posted < exp_[s][t].count) {
            uint64_t how = rnd(rng) % 3;
            want_s = how == 1 ? s : RMP_ANY_SOURCE;
            want_t = how == 2 ? tags[t] : RMP_ANY_TAG;
            break;
        }
    }
    snprintf(phase_buf, sizeof phase_buf, "wildcard receive (source %d, tag %d)", want_s, want_t);
    phase(phase_buf, 30);
    memset(buf + MAXMSG, 0xa5, GUARD);
    rmp_status_t st;
    CHECK(rmp_recv(buf, MAXMSG, RMP_BYTE, want_s, want_t, RMP_COMM_WORLD, &st));
    int s = st.source, t = 0;
    while (t < NTAGS && tags[t] != st.tag)
        t++;
    if (s < 0 || s >= n || t == NTAGS || (want_s >= 0 && s != want_s) ||
        (want_t >= 0 && st.tag != want_t)) {
        FAIL("wildcard receive (source %d, tag %d) got source %d tag %d", want_s, want_t, s,
             st.tag);
        exit(1);
    }
    expect_t *e = &exp_[s][t];
    if (e->posted == e->count) {
        FAIL("message from %d tag %d not in the plan (all %d received already)", s, st.tag,
             e->count);
        exit(1);
    }
    size_t size = e->size[e->posted];
    check_msg(buf, MAXMSG, &st, s, t, e->seq0 + e->posted, size, "wildcard");
    e->posted++;
    wildcards++;
}

static void run_round(long round, const long *count, unsigned char **sbufs, slot_t *win,
                      unsigned char *wbuf, uint64_t *rng)
{
    /* What arrives this round, from everyone. */
    int expected = 0;
    for (int s = 0; s < n; s++) {
        for (int t = 0; t < NTAGS; t++) {
            exp_[s][t].seq0 += exp_[s][t].count;
            exp_[s][t].count = exp_[s][t].posted = 0;
        }
        for (long i = round * ROUND; i < (round + 1) * ROUND && i < count[s]; i++) {
            msg_t m = plan(s, i, n);
            if (m.dest != rank)
                continue;
            expect_t *e = &exp_[s][m.tag];
            e->size[e->count++] = m.size;
            expected++;
        }
    }
    /* My sends, all at once. */
    rmp_request_t sreq[ROUND];
    int nsend = 0;
    for (long i = round * ROUND; i < (round + 1) * ROUND && i < count[rank]; i++) {
        msg_t m = plan(rank, i, n);
        fill(sbufs[nsend], m.size, payload_seed(rank, m.dest, m.tag, sent_seq[m.dest][m.tag]++));
        CHECK(rmp_isend(sbufs[nsend], (int)m.size, RMP_BYTE, m.dest, tags[m.tag], RMP_COMM_WORLD,
                        &sreq[nsend]));
        nsend++;
    }
    /* Receives: a window of specific ones, or (with the window empty) one wildcard. */
    int nwin = 0, posted = 0;
    while (posted < expected) {
        bool specific = rnd(rng) % 10 < 6;
        if (specific && nwin < WINDOW && post_specific(win, &nwin, rng)) {
            posted++;
            continue;
        }
        if (nwin > 0) {
            complete_window(win, &nwin, rng);
            continue;
        }
        recv_wildcard(wbuf, rng);
        posted++;
    }
    if (nwin > 0)
        complete_window(win, &nwin, rng);
    snprintf(phase_buf, sizeof phase_buf, "round %ld: waiting for my %d sends", round, nsend);
    phase(phase_buf, 30);
    CHECK(rmp_waitall(nsend, sreq, RMP_STATUSES_IGNORE));
    snprintf(phase_buf, sizeof phase_buf, "round %ld: barrier", round);
    phase(phase_buf, 30);
    CHECK(rmp_barrier(RMP_COMM_WORLD));
}

int main(int argc, char **argv)
{
    long total = argc > 1 ? atol(argv[1]) : 100000;
    phase("rmp_init", 30);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;
    if (n > MAXRANKS) {
        FAIL("storm supports at most %d ranks", MAXRANKS);
        return 1;
    }
    long count[MAXRANKS], rounds = 0;
    for (int s = 0; s < n; s++) {
        count[s] = total / n + (s < total % n);
        long r = (count[s] + ROUND - 1) / ROUND;
        rounds = r > rounds ? r : rounds;
    }
    unsigned char *sbufs[ROUND];
    slot_t win[WINDOW];
    for (int i = 0; i < ROUND; i++)
        sbufs[i] = malloc(MAXMSG);
    for (int i = 0; i < WINDOW; i++)
        win[i].buf = malloc(MAXMSG + GUARD);
    unsigned char *wbuf = malloc(MAXMSG + GUARD);
    uint64_t rng = mix64(0x570ull + (uint64_t)rank);

    for (long round = 0; round < rounds; round++)
        run_round(round, count, sbufs, win, wbuf, &rng);

    /* Every message planned for me arrived, and the job-wide totals agree. */
    for (int s = 0; s < n; s++)
        for (int t = 0; t < NTAGS; t++)
            EXPECT(exp_[s][t].posted == exp_[s][t].count, "from %d tag %d: %d of %d received",
                   s, tags[t], exp_[s][t].posted, exp_[s][t].count);
    phase("final counts (allreduce)", 30);
    long mine[4] = {count[rank], received, prog_failures, wildcards}, sum[4];
    CHECK(rmp_allreduce(mine, sum, 4, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    if (rank == 0) {
        if (sum[0] == total && sum[1] == total && sum[2] == 0 && prog_failures == 0)
            printf("storm: OK n=%d messages=%ld\n", n, total);
        else
            FAIL("sent %ld, received %ld of %ld; %ld failures", sum[0], sum[1], total, sum[2]);
        printf("storm: %ld wildcard receives, %ld rounds\n", sum[3], rounds);
    }
    phase("rmp_finalize", 30);
    CHECK(rmp_finalize());
    for (int i = 0; i < ROUND; i++)
        free(sbufs[i]);
    for (int i = 0; i < WINDOW; i++)
        free(win[i].buf);
    free(wbuf);
    return prog_exit();
}
