/* pingpong.c — point-to-point data integrity across the eager/rendezvous boundary.
 * Usage: pingpong MIN MAX. Sizes 0..3, every power of two within [MIN, MAX] and its neighbours
 * (+/-1), the eager limit's neighbours and a few odd sizes. Ranks (0,1), (2,3), ... ping-pong
 * each size twice with distinct patterns (an odd last rank idles), then every rank sends each
 * size around a ring (n=1: to itself). Each receive checks source, tag, count, every byte and
 * that nothing was written past the message (guard bytes).
 * Rank 0 prints "pingpong: OK n=N sizes=S messages=M" (M = 4*S*(N/2) + N*S). */
#include "progs.h"

#define MAX_SIZES 128
#define GUARD 64
#define TAG_PING 11
#define TAG_PONG 12
#define TAG_RING 13
#define TAG_COUNT 14

static size_t sizes[MAX_SIZES];
static int nsizes;

static long parse_size(const char *s)
{
    char *end;
    long v = strtol(s, &end, 0);
    if (*end == 'k' || *end == 'K')
        v *= 1024;
    else if (*end == 'm' || *end == 'M')
        v *= 1024 * 1024;
    return v;
}

static void add_size(long s, long min, long max)
{
    if (s < min || s > max || nsizes == MAX_SIZES)
        return;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] == (size_t)s)
            return;
    int i = nsizes++;
    while (i > 0 && sizes[i - 1] > (size_t)s) { /* keep them sorted */
        sizes[i] = sizes[i - 1];
        i--;
    }
    sizes[i] = (size_t)s;
}

static void make_sizes(long min, long max)
{
    for (long s = 0; s <= 3; s++)
        add_size(s, min, max);
    for (long p = 4; p <= 2 * max; p *= 2) {
        add_size(p - 1, min, max);
        add_size(p, min, max);
        add_size(p + 1, min, max);
    }
    const char *eager = getenv("RMP_EAGER_LIMIT");
    long lim = eager && *eager ? parse_size(eager) : 16384;
    add_size(lim - 1, min, max);
    add_size(lim, min, max);
    add_size(lim + 1, min, max);
    add_size(1000, min, max);
    add_size(100003, min, max);
    add_size(3333333, min, max);
}

static uint64_t seed_of(int sender, size_t size, int round)
{
    return mix64(((uint64_t)sender << 48) ^ ((uint64_t)size << 8) ^ (uint64_t)round);
}

/* Checks one received message in rbuf (capacity size + GUARD, guard pre-set to 0xa5). */
static long verify(const unsigned char *rbuf, size_t size, const rmp_status_t *st, int src,
                   int tag, uint64_t seed, const char *what)
{
    EXPECT(st->source == src && st->tag == tag && st->count == size && st->error == 0,
           "%s of %zu bytes: status source=%d tag=%d count=%zu error=%d, expected %d/%d/%zu/0",
           what, size, st->source, st->tag, st->count, st->error, src, tag, size);
    size_t bad = first_mismatch(rbuf, size, seed);
    if (bad != size) {
        unsigned char *want = malloc(size);
        fill(want, size, seed);
        FAIL("%s of %zu bytes from rank %d: first wrong byte at offset %zu (0x%02x, expected "
             "0x%02x); checksum %016llx, expected %016llx", what, size, src, bad, rbuf[bad],
             want[bad], (unsigned long long)checksum(rbuf, size),
             (unsigned long long)checksum(want, size));
        free(want);
    }
    for (size_t i = 0; i < GUARD; i++)
        if (rbuf[size + i] != 0xa5) {
            FAIL("%s of %zu bytes: byte %zu past the end of the buffer was overwritten", what,
                 size, i);
            break;
        }
    return 1;
}

static void reset_guard(unsigned char *rbuf, size_t size)
{
    memset(rbuf + size, 0xa5, GUARD);
}

static long pairs(int rank, int n, unsigned char *sbuf, unsigned char *rbuf)
{
    int peer = rank ^ 1;
    if (peer >= n)
        return 0; /* the odd one out */
    long got = 0;
    char what[96];
    for (int i = 0; i < nsizes; i++) {
        size_t s = sizes[i];
        for (int round = 0; round < 2; round++) {
            rmp_status_t st;
            snprintf(what, sizeof what, "ping-pong %zu bytes with rank %d (round %d)", s, peer,
                     round);
            phase(what, 20);
            reset_guard(rbuf, s);
            if (rank % 2 == 0) {
                fill(sbuf, s, seed_of(rank, s, round));
                CHECK(rmp_send(sbuf, (int)s, RMP_BYTE, peer, TAG_PING, RMP_COMM_WORLD));
                CHECK(rmp_recv(rbuf, (int)s, RMP_BYTE, peer, TAG_PONG, RMP_COMM_WORLD, &st));
                got += verify(rbuf, s, &st, peer, TAG_PONG, seed_of(peer, s, round), "pong");
            } else {
                CHECK(rmp_recv(rbuf, (int)s, RMP_BYTE, peer, TAG_PING, RMP_COMM_WORLD, &st));
                got += verify(rbuf, s, &st, peer, TAG_PING, seed_of(peer, s, round), "ping");
                fill(sbuf, s, seed_of(rank, s, round));
                CHECK(rmp_send(sbuf, (int)s, RMP_BYTE, peer, TAG_PONG, RMP_COMM_WORLD));
            }
        }
    }
    return got;
}

static long ring(int rank, int n, unsigned char *sbuf, unsigned char *rbuf)
{
    int right = (rank + 1) % n, left = (rank + n - 1) % n;
    long got = 0;
    char what[96];
    for (int i = 0; i < nsizes; i++) {
        size_t s = sizes[i];
        snprintf(what, sizeof what, "ring exchange of %zu bytes (from %d, to %d)", s, left,
                 right);
        phase(what, 20);
        reset_guard(rbuf, s);
        fill(sbuf, s, seed_of(rank, s, 7));
        rmp_request_t reqs[2];
        rmp_status_t st[2];
        CHECK(rmp_irecv(rbuf, (int)s, RMP_BYTE, left, TAG_RING, RMP_COMM_WORLD, &reqs[0]));
        CHECK(rmp_isend(sbuf, (int)s, RMP_BYTE, right, TAG_RING, RMP_COMM_WORLD, &reqs[1]));
        CHECK(rmp_waitall(2, reqs, st));
        EXPECT(reqs[0] == RMP_REQUEST_NULL && reqs[1] == RMP_REQUEST_NULL,
               "waitall left a request handle set");
        got += verify(rbuf, s, &st[0], left, TAG_RING, seed_of(left, s, 7), "ring message");
    }
    return got;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pingpong MIN MAX (sizes in bytes, k/m suffixes allowed)\n");
        return 2;
    }
    long min = parse_size(argv[1]), max = parse_size(argv[2]);
    make_sizes(min, max);

    phase("rmp_init", 30);
    MUST(rmp_init(&argc, &argv));
    int rank, n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;

    unsigned char *sbuf = malloc((size_t)max + 1), *rbuf = malloc((size_t)max + GUARD);
    if (!sbuf || !rbuf) {
        FAIL("out of memory for %ld-byte buffers", max);
        return 1;
    }
    long got = pairs(rank, n, sbuf, rbuf);
    got += ring(rank, n, sbuf, rbuf);

    /* Totals at rank 0, by plain p2p: this program tests p2p only. */
    phase("collecting counts at rank 0", 30);
    long mine[2] = {got, prog_failures};
    if (rank != 0) {
        CHECK(rmp_send(mine, 2, RMP_INT64, 0, TAG_COUNT, RMP_COMM_WORLD));
    } else {
        long total = got, failed = prog_failures;
        for (int r = 1; r < n; r++) {
            long theirs[2];
            CHECK(rmp_recv(theirs, 2, RMP_INT64, r, TAG_COUNT, RMP_COMM_WORLD,
                           RMP_STATUS_IGNORE));
            total += theirs[0];
            failed += theirs[1];
        }
        if (failed == 0 && prog_failures == 0)
            printf("pingpong: OK n=%d sizes=%d messages=%ld\n", n, nsizes, total);
        else
            FAIL("%ld failures over all ranks", failed);
    }
    phase("rmp_finalize", 30);
    CHECK(rmp_finalize());
    free(sbuf);
    free(rbuf);
    return prog_exit();
}
