/* test_shm_ring.c — unit tests of the shm transport's SPSC record ring on its own: wrap-around
 * through the skip marker for every record size, the hot window (an idle ring restarts at
 * offset 0), back-pressure without loss, empty and max-size records, corruption checks, and
 * producer/consumer stress across threads and across processes (the ring mapped at two
 * different addresses). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "transport/shm_ring.h"

/* ---- helpers ------------------------------------------------------------------------------ */

typedef struct ring_pair {
    void *mem;
    shm_ring_t prod, cons;
    size_t cap, max;
} ring_pair_t;

static void pair_new(ring_pair_t *p, size_t want)
{
    p->cap = shm_ring_capacity(want);
    p->mem = aligned_alloc(SHM_RING_ALIGN, shm_ring_footprint(p->cap));
    cr_assert_not_null(p->mem);
    shm_ring_init(p->mem, p->cap);
    cr_assert_eq(shm_ring_attach(&p->prod, p->mem, p->cap, true), 0);
    cr_assert_eq(shm_ring_attach(&p->cons, p->mem, p->cap, false), 0);
    p->max = shm_ring_max_record(p->cap);
}

static void pair_free(ring_pair_t *p)
{
    free(p->mem);
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Byte i of record `seq`: distinct across records and positions, so a record read twice,
 * skipped, torn or overwritten shows up as a mismatch. */
static uint8_t pat(uint64_t seq, size_t i)
{
    return (uint8_t)(seq * 131u + i * 7u + (i >> 8));
}

static void fill(uint8_t *buf, uint64_t seq, size_t from, size_t n)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = pat(seq, from + i);
}

/* Write record `seq` of n bytes, split into a header of n/3 bytes and a payload. */
static int put(shm_ring_t *r, uint64_t seq, size_t n)
{
    static _Thread_local uint8_t buf[1u << 20];
    size_t h = n / 3;
    fill(buf, seq, 0, n);
    return shm_ring_try_write(r, buf, h, buf + h, n - h);
}

/* Read one record and check it is record `seq` of n bytes; returns its offset in the ring. */
static uint64_t get(shm_ring_t *r, uint64_t seq, size_t n)
{
    const void *data;
    size_t len;
    cr_assert_eq(shm_ring_peek(r, &data, &len), SHM_RING_READY, "record %lu missing",
                 (unsigned long)seq);
    cr_assert_eq(len, n, "record %lu: len %zu, want %zu", (unsigned long)seq, len, n);
    const uint8_t *b = data;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(b[i], pat(seq, i), "record %lu byte %zu differs", (unsigned long)seq, i);
    uint64_t off = (uint64_t)(b - r->data) - 8; /* the record starts with an 8-byte header */
    shm_ring_release(r);
    return off;
}

static uint64_t rec_size(size_t n)
{
    return (8 + n + SHM_RING_ALIGN - 1) & ~(uint64_t)(SHM_RING_ALIGN - 1);
}

/* ---- tests -------------------------------------------------------------------------------- */

Test(shm_ring, layout, .timeout = 60)
{
    cr_assert_eq(shm_ring_capacity(0), SHM_RING_MIN);
    cr_assert_eq(shm_ring_capacity(5000), 8192);
    cr_assert_eq(shm_ring_capacity(256u << 10), 256u << 10);
    cr_assert_eq(shm_ring_capacity(SIZE_MAX), SHM_RING_MAX);
    cr_assert_eq(shm_ring_footprint(4096) % SHM_RING_ALIGN, 0);
    /* Producer and consumer indices on different cache lines. */
    cr_assert_geq(offsetof(shm_ring_ctl_t, tail) - offsetof(shm_ring_ctl_t, head), 64);
    cr_assert_eq(shm_ring_max_record(4096), 1024 - 8);

    ring_pair_t p;
    pair_new(&p, 4096);
    ((shm_ring_ctl_t *)p.mem)->cap = 3000; /* not a power of two */
    shm_ring_t r;
    cr_assert_eq(shm_ring_attach(&r, p.mem, 3000, false), -1);
    pair_free(&p);
}

/* The ring's header is shared memory a peer can write: attach trusts only the size the caller
 * mapped, and indices that records could have produced (regressions found by fuzz_shm_ring). */
Test(shm_ring, attach_refuses_what_a_peer_scribbled, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 4096);
    shm_ring_ctl_t *ctl = p.mem;
    shm_ring_t r;
    ctl->cap = 8192; /* larger than the memory: writes would run past it */
    cr_assert_eq(shm_ring_attach(&r, p.mem, 4096, true), -1);
    ctl->cap = 4096;
    cr_assert_eq(shm_ring_attach(&r, p.mem, 8192, false), -1);
    atomic_store(&ctl->tail, 4092); /* a record header there would cross the end */
    atomic_store(&ctl->head, 4092);
    cr_assert_eq(shm_ring_attach(&r, p.mem, 4096, false), -1);
    atomic_store(&ctl->tail, 4096);
    atomic_store(&ctl->head, 4096 + 64);
    cr_assert_eq(shm_ring_attach(&r, p.mem, 4096, false), 0);
    pair_free(&p);
}

Test(shm_ring, zero_length_records, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 4096);
    const void *data;
    size_t len;
    cr_assert_eq(shm_ring_peek(&p.cons, &data, &len), SHM_RING_EMPTY);
    cr_assert(!shm_ring_has_data(&p.cons));

    /* No header and no payload (NULL pointers), header only, payload only. */
    uint8_t x[16];
    memset(x, 0xab, sizeof(x));
    cr_assert_eq(shm_ring_try_write(&p.prod, NULL, 0, NULL, 0), SHM_RING_OK);
    cr_assert_eq(shm_ring_try_write(&p.prod, x, sizeof(x), NULL, 0), SHM_RING_OK);
    cr_assert_eq(shm_ring_try_write(&p.prod, NULL, 0, x, 3), SHM_RING_OK);
    cr_assert(shm_ring_has_data(&p.cons));
    cr_assert_eq(shm_ring_peek(&p.cons, &data, &len), SHM_RING_READY);
    cr_assert_eq(len, 0);
    /* Peek again before release: the same record. */
    const void *again;
    cr_assert_eq(shm_ring_peek(&p.cons, &again, &len), SHM_RING_READY);
    cr_assert_eq(again, data);
    shm_ring_release(&p.cons);
    cr_assert_eq(shm_ring_peek(&p.cons, &data, &len), SHM_RING_READY);
    cr_assert_eq(len, 16);
    cr_assert_eq(memcmp(data, x, 16), 0);
    shm_ring_release(&p.cons);
    cr_assert_eq(shm_ring_peek(&p.cons, &data, &len), SHM_RING_READY);
    cr_assert_eq(len, 3);
    shm_ring_release(&p.cons);
    cr_assert_eq(shm_ring_peek(&p.cons, &data, &len), SHM_RING_EMPTY);

    /* Empty records still take one cell each: exactly cap/64 fit, and they wrap. */
    for (int round = 0; round < 3; round++) {
        size_t n = 0;
        while (shm_ring_try_write(&p.prod, NULL, 0, NULL, 0) == SHM_RING_OK)
            n++;
        cr_assert_eq(n, p.cap / SHM_RING_ALIGN);
        for (size_t i = 0; i < n; i++) {
            cr_assert_eq(shm_ring_peek(&p.cons, &data, &len), SHM_RING_READY);
            cr_assert_eq(len, 0);
            shm_ring_release(&p.cons);
        }
        cr_assert_eq(shm_ring_peek(&p.cons, &data, &len), SHM_RING_EMPTY);
    }
    pair_free(&p);
}

/* Every record size from 0 to the maximum, each through several wraps with two records in
 * flight: the skip marker is used exactly when the record size does not divide the ring. */
Test(shm_ring, wraparound_every_size, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 4096);
    uint64_t seq = 0;
    for (size_t n = 0; n <= p.max; n++) {
        /* Start each size at offset 0 (empty records take one cell each). */
        while (p.prod.pos & (p.cap - 1)) {
            cr_assert_eq(put(&p.prod, seq, 0), SHM_RING_OK);
            get(&p.cons, seq++, 0);
        }
        uint64_t rs = rec_size(n);
        uint64_t writes = 3 * p.cap / rs + 4;
        uint64_t first = seq, skips = 0, wraps = 0, prev_end = UINT64_MAX;
        cr_assert_eq(put(&p.prod, seq++, n), SHM_RING_OK);
        for (uint64_t k = 1; k < writes; k++) {
            cr_assert_eq(put(&p.prod, seq++, n), SHM_RING_OK, "size %zu record %lu", n,
                         (unsigned long)k);
            uint64_t off = get(&p.cons, first++, n);
            if (prev_end != UINT64_MAX && off != prev_end % p.cap) {
                cr_assert_eq(off, 0, "size %zu: record at %lu after one ending at %lu", n,
                             (unsigned long)off, (unsigned long)prev_end);
                skips++;
            }
            if (off == 0)
                wraps++;
            prev_end = off + rs;
        }
        get(&p.cons, first++, n);
        cr_assert_geq(wraps, 2, "size %zu wrapped %lu times", n, (unsigned long)wraps);
        if (p.cap % rs)
            cr_assert_gt(skips, 0, "size %zu never used the skip marker", n);
        else
            cr_assert_eq(skips, 0, "size %zu padded a ring it divides", n);
        const void *d;
        size_t l;
        cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    }
    pair_free(&p);
}

/* Random sizes, writing until back-pressure then reading a random number: every record comes
 * out once, in order, intact; RMP_AGAIN-style refusals happen only when space really lacks. */
Test(shm_ring, full_ring_backpressure, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 4096);
    shm_ring_ctl_t *ctl = p.mem;

    /* Fixed size first: exactly cap / record-size records fit, then refusals change nothing. */
    size_t n = 0;
    while (put(&p.prod, n, 100) == SHM_RING_OK)
        n++;
    cr_assert_eq(n, p.cap / rec_size(100));
    uint64_t head = atomic_load(&ctl->head);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(put(&p.prod, 999, 1), SHM_RING_AGAIN);
    cr_assert_eq(atomic_load(&ctl->head), head);
    for (size_t i = 0; i < n; i++)
        get(&p.cons, i, 100);

    uint64_t rng = 42, wseq = 0, rseq = 0, refusals = 0;
    static size_t sizes[1u << 16]; /* size of record seq, by seq mod 2^16 */
    for (int iter = 0; iter < 20000; iter++) {
        for (;;) {
            size_t sz = xorshift(&rng) % (p.max + 1);
            uint64_t before = atomic_load(&ctl->head);
            int rc = put(&p.prod, wseq, sz);
            if (rc == SHM_RING_AGAIN) {
                uint64_t used = before - atomic_load(&ctl->tail);
                uint64_t to_end = p.cap - (before & (p.cap - 1));
                uint64_t need = rec_size(sz) + (rec_size(sz) > to_end ? to_end : 0);
                cr_assert_gt(used + need, p.cap, "refused %zu bytes with %lu free", sz,
                             (unsigned long)(p.cap - used));
                cr_assert_eq(atomic_load(&ctl->head), before);
                refusals++;
                break;
            }
            cr_assert_eq(rc, SHM_RING_OK);
            sizes[wseq++ % (1u << 16)] = sz;
        }
        uint64_t nread = xorshift(&rng) % (wseq - rseq + 1);
        for (uint64_t i = 0; i < nread; i++, rseq++)
            get(&p.cons, rseq, sizes[rseq % (1u << 16)]);
    }
    while (rseq < wseq) {
        get(&p.cons, rseq, sizes[rseq % (1u << 16)]);
        rseq++;
    }
    const void *d;
    size_t l;
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    cr_assert_eq(refusals, 20000);
    cr_assert_gt(wseq, 20000);
    pair_free(&p);
}

/* A consumer that keeps up keeps the producer in the first SHM_RING_HOT bytes (cache-warm
 * lines); one that lags (a streaming producer) sees the whole ring used, in order. */
Test(shm_ring, hot_window_when_consumer_keeps_up, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 256u << 10);
    cr_assert_gt(p.cap, 2 * SHM_RING_HOT);
    uint64_t seq = 0, furthest = 0;
    /* Ping-pong: each record read before the next is written. */
    for (int i = 0; i < 20000; i++) {
        size_t n = 1 + (size_t)i % 200;
        cr_assert_eq(put(&p.prod, seq, n), SHM_RING_OK);
        uint64_t off = get(&p.cons, seq++, n);
        furthest = off > furthest ? off : furthest;
    }
    cr_assert_lt(furthest, SHM_RING_HOT, "ping-pong reached offset %lu",
                 (unsigned long)furthest);
    /* One record behind (a reply written before the request is read) stays hot as well. */
    cr_assert_eq(put(&p.prod, seq, 40), SHM_RING_OK);
    for (int i = 0; i < 20000; i++) {
        cr_assert_eq(put(&p.prod, seq + 1, 40), SHM_RING_OK);
        uint64_t off = get(&p.cons, seq++, 40);
        cr_assert_lt(off, SHM_RING_HOT + rec_size(40), "record %d at offset %lu", i,
                     (unsigned long)off);
    }
    get(&p.cons, seq++, 40);

    /* Streaming: a consumer that lags far behind leaves the producer the whole ring. */
    uint64_t first = seq, count = (p.cap - SHM_RING_HOT) / rec_size(100), beyond = 0;
    for (uint64_t k = 0; k < count; k++)
        cr_assert_eq(put(&p.prod, seq++, 100), SHM_RING_OK, "record %lu of %lu refused",
                     (unsigned long)k, (unsigned long)count);
    for (uint64_t k = 0; k < count; k++)
        beyond += get(&p.cons, first++, 100) >= 2 * SHM_RING_HOT;
    cr_assert_gt(beyond, 0);
    const void *d;
    size_t l;
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    pair_free(&p);
}

/* The largest record fits an empty ring at every wrap point, three of them fit together, and
 * one byte more is refused for good (not as back-pressure). */
Test(shm_ring, max_size_records, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 4096);
    cr_assert_eq(shm_ring_try_write(&p.prod, NULL, 0, NULL, p.max + 1), SHM_RING_TOOBIG);
    cr_assert_eq(shm_ring_try_write(&p.prod, NULL, p.max + 1, NULL, 0), SHM_RING_TOOBIG);
    uint8_t one = 1;
    cr_assert_eq(shm_ring_try_write(&p.prod, &one, 1, NULL, p.max), SHM_RING_TOOBIG);
    cr_assert_eq(shm_ring_try_write(&p.prod, &one, 1, NULL, SIZE_MAX), SHM_RING_TOOBIG);

    uint64_t seq = 0;
    for (uint64_t start = 0; start < p.cap; start += SHM_RING_ALIGN) {
        /* Move the empty ring's wrap point to `start` with empty records (one cell each). */
        while ((p.prod.pos & (p.cap - 1)) != start) {
            cr_assert_eq(put(&p.prod, seq, 0), SHM_RING_OK);
            get(&p.cons, seq++, 0);
        }
        for (int k = 0; k < 3; k++)
            cr_assert_eq(put(&p.prod, seq + k, p.max), SHM_RING_OK, "at offset %lu, #%d",
                         (unsigned long)start, k);
        for (int k = 0; k < 3; k++)
            get(&p.cons, seq + k, p.max);
        seq += 3;
    }
    pair_free(&p);
}

Test(shm_ring, corruption_detected, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 4096);
    const void *d;
    size_t l;
    uint32_t *rec = (uint32_t *)p.cons.data; /* {len, kind} of the first record */

    cr_assert_eq(put(&p.prod, 0, 10), SHM_RING_OK);
    uint32_t kind = rec[1];
    rec[1] = 0x12345678;
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_CORRUPT);
    rec[1] = kind;
    rec[0] = 1u << 20; /* longer than any record */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_CORRUPT);
    rec[0] = 200; /* longer than what was published */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_CORRUPT);
    rec[0] = 10;
    get(&p.cons, 0, 10);

    cr_assert_eq(put(&p.prod, 1, 10), SHM_RING_OK);
    atomic_store(&((shm_ring_ctl_t *)p.mem)->head, 1u << 20); /* beyond the ring */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_CORRUPT);
    pair_free(&p);
}

/* ---- stress: one producer, one consumer ---------------------------------------------------- */

#define STRESS_N 1000000u

typedef struct stress_hdr {
    uint64_t seq;
    uint32_t len; /* payload bytes */
    uint32_t sum; /* FNV-1a of the payload */
} stress_hdr_t;

static uint32_t fnv(const uint8_t *b, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

/* Mostly small records, some medium, a few up to the maximum: the mix a runtime sends. */
static size_t stress_size(uint64_t *rng, size_t max)
{
    uint64_t x = xorshift(rng);
    switch (x % 20) {
    case 0:
        return (x >> 8) % (max + 1);
    case 1: case 2: case 3: case 4:
        return (x >> 8) % 1025;
    default:
        return (x >> 8) % 65;
    }
}

static void stress_produce(shm_ring_t *r, size_t max)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    static _Thread_local uint8_t payload[1u << 16];
    for (uint64_t seq = 0; seq < STRESS_N; seq++) {
        stress_hdr_t h = {.seq = seq, .len = (uint32_t)stress_size(&rng, max - sizeof(h))};
        uint64_t prng = seq + 1;
        for (size_t i = 0; i < h.len; i++)
            payload[i] = i % 8 == 0 ? (uint8_t)xorshift(&prng) : (uint8_t)(payload[i - 1] + 1);
        h.sum = fnv(payload, h.len);
        while (shm_ring_try_write(r, &h, sizeof(h), payload, h.len) == SHM_RING_AGAIN)
            sched_yield();
    }
}

/* Returns the number of records seen in order and intact (stops at the first bad one). */
static uint64_t stress_consume(shm_ring_t *r)
{
    uint64_t seq = 0;
    while (seq < STRESS_N) {
        const void *d;
        size_t len;
        int rc = shm_ring_peek(r, &d, &len);
        if (rc == SHM_RING_EMPTY) {
            sched_yield();
            continue;
        }
        stress_hdr_t h;
        if (rc != SHM_RING_READY || len < sizeof(h))
            return seq;
        memcpy(&h, d, sizeof(h));
        const uint8_t *pl = (const uint8_t *)d + sizeof(h);
        if (h.seq != seq || h.len != len - sizeof(h) || fnv(pl, h.len) != h.sum)
            return seq;
        shm_ring_release(r);
        seq++;
    }
    const void *d;
    size_t len;
    return shm_ring_peek(r, &d, &len) == SHM_RING_EMPTY ? seq : seq + 1;
}

static void *producer_thread(void *arg)
{
    ring_pair_t *p = arg;
    stress_produce(&p->prod, p->max);
    return NULL;
}

Test(shm_ring, stress_two_threads, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 16u << 10); /* small: constant wrap-around and back-pressure */
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, producer_thread, &p), 0);
    uint64_t seen = stress_consume(&p.cons);
    pthread_join(t, NULL);
    cr_assert_eq(seen, STRESS_N, "record %lu lost, duplicated or damaged", (unsigned long)seen);
    pair_free(&p);
}

/* As the transport uses it: two processes, the ring mapped at a different address in each. */
Test(shm_ring, stress_two_processes, .timeout = 60)
{
    size_t cap = shm_ring_capacity(16u << 10);
    size_t bytes = shm_ring_footprint(cap);
    int fd = memfd_create("shm_ring_test", 0);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, (off_t)bytes), 0);
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    cr_assert_neq(mem, MAP_FAILED);
    shm_ring_init(mem, cap);

    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        void *mine = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        shm_ring_t prod;
        if (mine == MAP_FAILED || mine == mem || shm_ring_attach(&prod, mine, cap, true) != 0)
            _exit(2);
        munmap(mem, bytes);
        stress_produce(&prod, shm_ring_max_record(cap));
        _exit(0);
    }
    shm_ring_t cons;
    cr_assert_eq(shm_ring_attach(&cons, mem, cap, false), 0);
    uint64_t seen = stress_consume(&cons);
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "producer failed (%d)", status);
    cr_assert_eq(seen, STRESS_N, "record %lu lost, duplicated or damaged", (unsigned long)seen);
    munmap(mem, bytes);
    close(fd);
}
