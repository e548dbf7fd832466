/* coop.c — large shm messages copied by both ranks at once (shm_coop.h), at n = 2: byte-exact
 * transfers at the sizes where the split changes (the 128 KiB threshold, the chunk sizes and
 * their neighbours, odd sizes, 16 MiB), windows of large messages both ways at once, a receive
 * shorter than the message (truncation: the receiver describes fewer bytes than offered), a
 * sender that computes instead of progressing (the receiver copies alone), and more large
 * sends in flight than the sender has slots. Every receive checks status, every byte and the
 * guard bytes after the message. Rank 0 prints "coop: OK messages=M" (M messages checked). */
#include <time.h>

#include "progs.h"

#define GUARD 64
#define TAG_DATA 21
#define TAG_COUNT 22
#define WINDOW 8
#define MANY 160 /* more than SHM_COOP_SLOTS (128) sends in flight */
#define MANY_BYTES (128 * 1024 + 8)

static uint64_t seed_of(int sender, size_t size, int round)
{
    return mix64(((uint64_t)sender << 48) ^ ((uint64_t)size << 8) ^ (uint64_t)round ^ 0xc00b);
}

static long verify(const unsigned char *rbuf, size_t size, size_t sent, const rmp_status_t *st,
                   int src, uint64_t seed, const char *what)
{
    int want_err = sent > size ? RMP_ERR_TRUNCATE : RMP_SUCCESS;
    EXPECT(st->source == src && st->tag == TAG_DATA && st->count == size &&
               st->error == want_err,
           "%s: status source=%d tag=%d count=%zu error=%d, expected %d/%d/%zu/%d", what,
           st->source, st->tag, st->count, st->error, src, TAG_DATA, size, want_err);
    size_t bad = first_mismatch(rbuf, size, seed);
    if (bad != size)
        FAIL("%s: first wrong byte at offset %zu of %zu", what, bad, size);
    for (size_t i = 0; i < GUARD; i++)
        if (rbuf[size + i] != 0xa5) {
            FAIL("%s: byte %zu past the end of the %zu received was overwritten", what, i, size);
            break;
        }
    return 1;
}

/* Ping-pong of each size: rank 0 sends, rank 1 answers with its own pattern. */
static long sweep(int rank, unsigned char *sbuf, unsigned char *rbuf)
{
    static const size_t k = 1024, m = 1024 * 1024;
    const size_t sizes[] = {128 * k - 1, 128 * k, 128 * k + 1, 256 * k - 1, 256 * k + 1,
                            256 * k + 4097, 1 * m - 1, 1 * m, 1 * m + 1, 3333333,
                            4 * m - 1, 4 * m, 4 * m + 4095, 4 * m + 4097, 16 * m + 5};
    long got = 0;
    char what[96];
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t s = sizes[i];
        rmp_status_t st;
        snprintf(what, sizeof what, "ping-pong of %zu bytes", s);
        phase(what, 30);
        memset(rbuf + s, 0xa5, GUARD);
        fill(sbuf, s, seed_of(rank, s, 0));
        if (rank == 0) {
            CHECK(rmp_send(sbuf, (int)s, RMP_BYTE, 1, TAG_DATA, RMP_COMM_WORLD));
            CHECK(rmp_recv(rbuf, (int)s, RMP_BYTE, 1, TAG_DATA, RMP_COMM_WORLD, &st));
        } else {
            CHECK(rmp_recv(rbuf, (int)s, RMP_BYTE, 0, TAG_DATA, RMP_COMM_WORLD, &st));
            CHECK(rmp_send(sbuf, (int)s, RMP_BYTE, 0, TAG_DATA, RMP_COMM_WORLD));
        }
        got += verify(rbuf, s, s, &st, 1 - rank, seed_of(1 - rank, s, 0), what);
    }
    return got;
}

/* WINDOW messages each way at once, each from its own part of the send buffer into its own
 * part of the receive buffer (distinct patterns: a chunk landing in the wrong message shows). */
static long both_ways(int rank, unsigned char *sbuf, unsigned char *rbuf, size_t s)
{
    int peer = 1 - rank;
    size_t stride = s + GUARD;
    rmp_request_t reqs[2 * WINDOW];
    rmp_status_t st[2 * WINDOW];
    char what[96];
    snprintf(what, sizeof what, "%d messages of %zu bytes both ways", WINDOW, s);
    phase(what, 30);
    for (int i = 0; i < WINDOW; i++) {
        memset(rbuf + i * stride + s, 0xa5, GUARD);
        fill(sbuf + i * stride, s, seed_of(rank, s, 10 + i));
        CHECK(rmp_irecv(rbuf + i * stride, (int)s, RMP_BYTE, peer, TAG_DATA, RMP_COMM_WORLD,
                        &reqs[i]));
    }
    for (int i = 0; i < WINDOW; i++)
        CHECK(rmp_isend(sbuf + i * stride, (int)s, RMP_BYTE, peer, TAG_DATA, RMP_COMM_WORLD,
                        &reqs[WINDOW + i]));
    CHECK(rmp_waitall(2 * WINDOW, reqs, st));
    long got = 0;
    for (int i = 0; i < WINDOW; i++)
        got += verify(rbuf + i * stride, s, s, &st[i], peer, seed_of(peer, s, 10 + i), what);
    return got;
}

/* Rank 0 sends more than the receive holds: the receiver describes only what fits. */
static long truncated(int rank, unsigned char *sbuf, unsigned char *rbuf)
{
    size_t sent = 1024 * 1024 + 3, room = 512 * 1024 + 5;
    phase("truncated receive", 30);
    if (rank == 0) {
        fill(sbuf, sent, seed_of(0, sent, 3));
        CHECK(rmp_send(sbuf, (int)sent, RMP_BYTE, 1, TAG_DATA, RMP_COMM_WORLD));
        return 0;
    }
    rmp_status_t st;
    memset(rbuf + room, 0xa5, GUARD);
    int rc = rmp_recv(rbuf, (int)room, RMP_BYTE, 0, TAG_DATA, RMP_COMM_WORLD, &st);
    EXPECT(rc == RMP_ERR_TRUNCATE, "truncated receive returned %d (%s), expected %d", rc,
           rmp_strerror(rc), RMP_ERR_TRUNCATE);
    return verify(rbuf, room, sent, &st, 0, seed_of(0, sent, 3), "truncated receive");
}

/* The sender computes for 50 ms after its isend, never entering rmp: the receiver must
 * finish the copy alone (and correctly) meanwhile; then the sender's wait completes. */
static long busy_sender(int rank, unsigned char *sbuf, unsigned char *rbuf)
{
    size_t s = 4 * 1024 * 1024 + 11;
    phase("receive from a sender that computes", 30);
    if (rank == 0) {
        rmp_request_t req;
        fill(sbuf, s, seed_of(0, s, 4));
        CHECK(rmp_isend(sbuf, (int)s, RMP_BYTE, 1, TAG_DATA, RMP_COMM_WORLD, &req));
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        volatile unsigned long spin = 0;
        do {
            for (int i = 0; i < 100000; i++)
                spin = spin + 1;
            clock_gettime(CLOCK_MONOTONIC, &t);
        } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 50);
        CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
        return 0;
    }
    rmp_status_t st;
    memset(rbuf + s, 0xa5, GUARD);
    CHECK(rmp_recv(rbuf, (int)s, RMP_BYTE, 0, TAG_DATA, RMP_COMM_WORLD, &st));
    return verify(rbuf, s, s, &st, 0, seed_of(0, s, 4), "receive from a busy sender");
}

/* MANY sends in flight from rank 0 (more than its slots: the rest go without help), all from
 * one buffer; rank 1 receives them into distinct places and checks each. */
static long many(int rank, unsigned char *sbuf, unsigned char *rbuf)
{
    size_t s = MANY_BYTES, stride = s + GUARD;
    rmp_request_t reqs[MANY];
    rmp_status_t st[MANY];
    phase("more large sends in flight than slots", 60);
    if (rank == 0) {
        fill(sbuf, s, seed_of(0, s, 5));
        for (int i = 0; i < MANY; i++)
            CHECK(rmp_isend(sbuf, (int)s, RMP_BYTE, 1, TAG_DATA, RMP_COMM_WORLD, &reqs[i]));
        CHECK(rmp_waitall(MANY, reqs, RMP_STATUSES_IGNORE));
        return 0;
    }
    for (int i = 0; i < MANY; i++) {
        memset(rbuf + i * stride + s, 0xa5, GUARD);
        CHECK(rmp_irecv(rbuf + i * stride, (int)s, RMP_BYTE, 0, TAG_DATA, RMP_COMM_WORLD,
                        &reqs[i]));
    }
    CHECK(rmp_waitall(MANY, reqs, st));
    long got = 0;
    for (int i = 0; i < MANY; i++)
        got += verify(rbuf + i * stride, s, s, &st[i], 0, seed_of(0, s, 5), "one of many");
    return got;
}

int main(int argc, char **argv)
{
    phase("rmp_init", 30);
    MUST(rmp_init(&argc, &argv));
    int rank, n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;
    if (n != 2) {
        FAIL("needs exactly 2 ranks, got %d", n);
        return 1;
    }
    size_t bytes = (size_t)MANY * (MANY_BYTES + GUARD) + 17 * 1024 * 1024;
    unsigned char *sbuf = malloc(bytes), *rbuf = malloc(bytes);
    if (!sbuf || !rbuf) {
        FAIL("out of memory for %zu-byte buffers", bytes);
        return 1;
    }
    long got = sweep(rank, sbuf, rbuf);
    got += both_ways(rank, sbuf, rbuf, 128 * 1024);
    got += both_ways(rank, sbuf, rbuf, 1024 * 1024 + 1);
    got += both_ways(rank, sbuf, rbuf, 2 * 1024 * 1024 + 4099);
    got += truncated(rank, sbuf, rbuf);
    got += busy_sender(rank, sbuf, rbuf);
    got += many(rank, sbuf, rbuf);

    phase("collecting counts at rank 0", 30);
    long mine[2] = {got, prog_failures};
    if (rank == 1) {
        CHECK(rmp_send(mine, 2, RMP_INT64, 0, TAG_COUNT, RMP_COMM_WORLD));
    } else {
        long theirs[2] = {0, 0};
        CHECK(rmp_recv(theirs, 2, RMP_INT64, 1, TAG_COUNT, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
        if (theirs[1] == 0 && prog_failures == 0)
            printf("coop: OK messages=%ld\n", got + theirs[0]);
        else
            FAIL("%ld failures over all ranks", theirs[1] + prog_failures);
    }
    free(sbuf);
    free(rbuf);
    phase("rmp_finalize", 30);
    CHECK(rmp_finalize());
    return prog_exit();
}
