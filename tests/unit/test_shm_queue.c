/* test_shm_queue.c — unit tests of the shm transport's multi-producer queue on its own: order
 * and wrap-around for every record size, back-pressure without loss, the `from` word, a
 * reservation not yet published, every kind of garbage a peer can write (detected, never a
 * crash or an endless loop), and 1M records from four producers, as threads and as processes. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "transport/shm/shm_queue.h"

/* ---- helpers ------------------------------------------------------------------------------ */

#define QHDR 24 /* bytes of a record header (shm_queue.c) */

typedef struct queue_pair {
    void *mem;
    shm_queue_t prod, cons;
    size_t cap, max;
} queue_pair_t;

static void qpair_new(queue_pair_t *p, size_t want)
{
    p->cap = shm_queue_capacity(want);
    size_t bytes = shm_queue_footprint(p->cap);
    p->mem = aligned_alloc(SHM_QUEUE_ALIGN, bytes);
    cr_assert_not_null(p->mem);
    memset(p->mem, 0, bytes); /* init expects zeroed memory, as fresh shm pages are */
    shm_queue_init(p->mem, p->cap);
    cr_assert_eq(shm_queue_attach(&p->prod, p->mem, p->cap, true), 0);
    cr_assert_eq(shm_queue_attach(&p->cons, p->mem, p->cap, false), 0);
    p->max = shm_queue_max_record(p->cap);
}

static shm_queue_ctl_t *qctl(queue_pair_t *p)
{
    return p->mem;
}

static uint8_t pat(uint64_t seq, size_t i)
{
    return (uint8_t)(seq * 131u + i * 7u + (i >> 8));
}

/* Write record `seq` of n bytes (header n/3, payload the rest) with from = seq ^ 0x5a5a. */
static int put(shm_queue_t *q, uint64_t seq, size_t n)
{
    static _Thread_local uint8_t buf[1u << 20];
    for (size_t i = 0; i < n; i++)
        buf[i] = pat(seq, i);
    size_t h = n / 3;
    return shm_queue_try_write(q, (uint32_t)(seq ^ 0x5a5a), buf, h, buf + h, n - h);
}

/* Read record `seq` of n bytes, check it, release it; returns its offset in the data area. */
static uint64_t get(shm_queue_t *q, uint64_t seq, size_t n)
{
    uint32_t from;
    const void *data;
    size_t len;
    cr_assert_eq(shm_queue_peek(q, &from, &data, &len), SHM_QUEUE_READY, "record %lu missing",
                 (unsigned long)seq);
    cr_assert_eq(len, n, "record %lu: len %zu, want %zu", (unsigned long)seq, len, n);
    cr_assert_eq(from, (uint32_t)(seq ^ 0x5a5a), "record %lu: from %u", (unsigned long)seq, from);
    const uint8_t *b = data;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(b[i], pat(seq, i), "record %lu byte %zu differs", (unsigned long)seq, i);
    uint64_t off = (uint64_t)(b - q->data) - QHDR;
    shm_queue_release(q);
    return off;
}

static int peek_rc(shm_queue_t *q)
{
    uint32_t from;
    const void *d;
    size_t l;
    return shm_queue_peek(q, &from, &d, &l);
}

/* ---- tests -------------------------------------------------------------------------------- */

Test(shm_queue, layout, .timeout = 60)
{
    cr_assert_eq(shm_queue_capacity(0), SHM_QUEUE_MIN);
    cr_assert_eq(shm_queue_capacity(5000), 8192);
    cr_assert_eq(shm_queue_capacity(SIZE_MAX), SHM_QUEUE_MAX);
    cr_assert_eq(shm_queue_footprint(4096) % SHM_QUEUE_ALIGN, 0);
    cr_assert_geq(offsetof(shm_queue_ctl_t, tail) - offsetof(shm_queue_ctl_t, head), 64);
    cr_assert_eq(shm_queue_max_record(4096), 1024 - QHDR);
}

/* The control block is memory every peer can write: attach trusts only the mapped size. */
Test(shm_queue, attach_refuses_what_a_peer_scribbled, .timeout = 60)
{
    queue_pair_t p;
    qpair_new(&p, 4096);
    shm_queue_t q;
    qctl(&p)->cap = 8192; /* larger than the memory */
    cr_assert_eq(shm_queue_attach(&q, p.mem, 4096, true), -1);
    qctl(&p)->cap = 3000; /* not a power of two */
    cr_assert_eq(shm_queue_attach(&q, p.mem, 3000, true), -1);
    qctl(&p)->cap = 4096;
    atomic_store(&qctl(&p)->tail, 4092); /* not on a record boundary */
    cr_assert_eq(shm_queue_attach(&q, p.mem, 4096, false), -1);
    atomic_store(&qctl(&p)->tail, 4096);
    cr_assert_eq(shm_queue_attach(&q, p.mem, 4096, false), 0);
    free(p.mem);
}

Test(shm_queue, empty_then_zero_length_and_order, .timeout = 60)
{
    queue_pair_t p;
    qpair_new(&p, 4096);
    cr_assert_eq(peek_rc(&p.cons), SHM_QUEUE_EMPTY);
    cr_assert(!shm_queue_has_data(&p.cons));
    for (uint64_t s = 0; s < 5; s++)
        cr_assert_eq(put(&p.prod, s, s * 10), SHM_QUEUE_OK);
    cr_assert(shm_queue_has_data(&p.cons));
    for (uint64_t s = 0; s < 5; s++)
        get(&p.cons, s, s * 10);
    cr_assert_eq(peek_rc(&p.cons), SHM_QUEUE_EMPTY);
    /* peek twice without release returns the same record */
    cr_assert_eq(put(&p.prod, 7, 3), SHM_QUEUE_OK);
    uint32_t f1, f2;
    const void *d1, *d2;
    size_t l1, l2;
    cr_assert_eq(shm_queue_peek(&p.cons, &f1, &d1, &l1), SHM_QUEUE_READY);
    cr_assert_eq(shm_queue_peek(&p.cons, &f2, &d2, &l2), SHM_QUEUE_READY);
    cr_assert(d1 == d2 && l1 == l2 && f1 == f2);
    get(&p.cons, 7, 3);
    free(p.mem);
}

/* Every size from 0 to the maximum, many laps: records never wrap (a skip pads the end) and
 * come out in order, intact, at the offsets the layout predicts. */
Test(shm_queue, wraparound_every_size, .timeout = 60)
{
    queue_pair_t p;
    qpair_new(&p, 4096);
    uint64_t seq = 0, pos = 0;
    for (size_t n = 0; n <= p.max; n++) {
        for (int k = 0; k < 3; k++, seq++) {
            cr_assert_eq(put(&p.prod, seq, n), SHM_QUEUE_OK);
            uint64_t need = (QHDR + n + 63) & ~(uint64_t)63;
            if ((pos % p.cap) + need > p.cap)
                pos += p.cap - pos % p.cap; /* skip to the start */
            cr_assert_eq(get(&p.cons, seq, n), pos % p.cap, "record %lu of %zu bytes",
                         (unsigned long)seq, n);
            pos += need;
        }
    }
    cr_assert_eq(put(&p.prod, seq, p.max + 1), SHM_QUEUE_TOOBIG);
    free(p.mem);
}

/* A full queue says AGAIN, loses nothing, and takes records again once the consumer frees room
 * (including room freed by a skip record). */
Test(shm_queue, full_queue_backpressure, .timeout = 60)
{
    queue_pair_t p;
    qpair_new(&p, 4096);
    uint64_t wrote = 0, read = 0;
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + (size_t)(round * 37) % 700;
        while (put(&p.prod, wrote, n) == SHM_QUEUE_OK)
            wrote++;
        cr_assert_eq(put(&p.prod, wrote, n), SHM_QUEUE_AGAIN);
        cr_assert_leq(atomic_load(&qctl(&p)->head) - atomic_load(&qctl(&p)->tail), p.cap);
        /* drain about half, then continue: the two sides keep meeting at different points */
        uint64_t stop = read + (wrote - read + 1) / 2;
        for (; read < stop; read++) {
            uint32_t from;
            const void *d;
            size_t l;
            cr_assert_eq(shm_queue_peek(&p.cons, &from, &d, &l), SHM_QUEUE_READY);
            cr_assert_eq(from, (uint32_t)(read ^ 0x5a5a));
            shm_queue_release(&p.cons);
        }
    }
    while (read < wrote) {
        cr_assert_eq(peek_rc(&p.cons), SHM_QUEUE_READY);
        shm_queue_release(&p.cons);
        read++;
    }
    cr_assert_eq(peek_rc(&p.cons), SHM_QUEUE_EMPTY);
    free(p.mem);
}

/* Producer A reserves first but has not published; B's later record waits behind it, and both
 * come out in reservation order once A publishes. Simulated by hand: A's reservation is a move
 * of head with the record header left zero, then filled and marked as shm_queue.c does. */
Test(shm_queue, unpublished_reservation_holds_the_line, .timeout = 60)
{
    queue_pair_t p;
    qpair_new(&p, 4096);
    atomic_store(&qctl(&p)->head, 64); /* A: one line reserved at 0, not yet published */
    cr_assert_eq(put(&p.prod, 1, 10), SHM_QUEUE_OK); /* B lands at 64 */
    cr_assert_eq(peek_rc(&p.cons), SHM_QUEUE_EMPTY);
    cr_assert(!shm_queue_has_data(&p.cons));
    uint32_t *w = (uint32_t *)p.cons.data; /* A publishes a 0-byte record, from 0x5a5a */
    w[2] = 0;
    w[3] = 0x41544144u;
    w[4] = 0x5a5a;
    atomic_store((_Atomic uint64_t *)p.cons.data, ~(uint64_t)0);
    get(&p.cons, 0, 0);
    get(&p.cons, 1, 10);
    free(p.mem);
}

/* What a broken or hostile peer can write, on each side: all detected, none loops. */
Test(shm_queue, corruption_detected, .timeout = 60)
{
    queue_pair_t p;
    qpair_new(&p, 4096);
    uint32_t *w = (uint32_t *)p.cons.data; /* {mark lo, mark hi, len, kind, from} */
    _Atomic uint64_t *mark = (_Atomic uint64_t *)p.cons.data;

    cr_assert_eq(put(&p.prod, 0, 10), SHM_QUEUE_OK);
    uint32_t kind = w[3];
    w[3] = 0x12345678;
    cr_assert_eq(peek_rc(&p.cons), SHM_QUEUE_CORRUPT);
    w[3] = kind;
    w[2] = 1u << 20; /* longer than any record */
    cr_assert_eq(peek_rc(&p.cons), SHM_QUEUE_CORRUPT);
    w[2] = 10;
    atomic_store(mark, 12345); /* neither 0 nor this position's mark */
    cr_assert_eq(peek_rc(&p.cons), SHM_QUEUE_CORRUPT);
    atomic_store(mark, ~(uint64_t)0);
    get(&p.cons, 0, 10);

    /* a record at the last line claiming to run past the end of the data area */
    queue_pair_t e;
    qpair_new(&e, 4096);
    atomic_store(&qctl(&e)->tail, 4096 - 64);
    cr_assert_eq(shm_queue_attach(&e.cons, e.mem, 4096, false), 0);
    uint32_t *last = (uint32_t *)(e.cons.data + 4096 - 64);
    last[2] = 200;
    last[3] = 0x41544144u;
    atomic_store((_Atomic uint64_t *)last, ~(uint64_t)(4096 - 64));
    cr_assert_eq(peek_rc(&e.cons), SHM_QUEUE_CORRUPT);
    /* a skip record at the start of a lap (it would free the whole queue) */
    atomic_store(&qctl(&e)->tail, 4096);
    cr_assert_eq(shm_queue_attach(&e.cons, e.mem, 4096, false), 0);
    uint32_t *first = (uint32_t *)e.cons.data;
    first[3] = 0x50494b53u;
    atomic_store((_Atomic uint64_t *)first, ~(uint64_t)4096);
    cr_assert_eq(peek_rc(&e.cons), SHM_QUEUE_CORRUPT);
    free(e.mem);

    /* the producer side: indices no honest set of peers can produce */
    queue_pair_t f;
    qpair_new(&f, 4096);
    atomic_store(&qctl(&f)->head, 1u << 20); /* far more reserved than the queue holds */
    cr_assert_eq(put(&f.prod, 0, 10), SHM_QUEUE_CORRUPT);
    atomic_store(&qctl(&f)->head, 4096); /* looks full by the cached tail: tail is read */
    atomic_store(&qctl(&f)->tail, 1u << 20); /* consumer beyond every reservation */
    cr_assert_eq(put(&f.prod, 0, 10), SHM_QUEUE_CORRUPT);
    atomic_store(&qctl(&f)->tail, 0);
    atomic_store(&qctl(&f)->head, 4096 - 3); /* unaligned: a skip header would cross the end */
    cr_assert_eq(put(&f.prod, 0, 100), SHM_QUEUE_CORRUPT);
    atomic_store(&qctl(&f)->tail, 64 + 3); /* unaligned, and filling looks needed */
    atomic_store(&qctl(&f)->head, 64 + 4096);
    cr_assert_eq(put(&f.prod, 0, 10), SHM_QUEUE_CORRUPT);
    free(f.mem);
    free(p.mem);
}

/* ---- stress: four producers, one consumer, 1M records ------------------------------------- */

#define NPROD 4
#define PER_PROD 250000u /* 1M records in all */

typedef struct stress_hdr {
    uint64_t seq;
    uint32_t len;
    uint32_t sum;
} stress_hdr_t;

static uint32_t fnv(const uint8_t *b, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void stress_produce(shm_queue_t *q, uint32_t who, size_t max)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull + who;
    static _Thread_local uint8_t payload[1u << 16];
    for (uint64_t seq = 0; seq < PER_PROD; seq++) {
        uint64_t x = xorshift(&rng);
        size_t room = max - sizeof(stress_hdr_t);
        size_t len = x % 16 == 0 ? (x >> 8) % (room + 1) : (x >> 8) % 129;
        stress_hdr_t h = {.seq = seq, .len = (uint32_t)len};
        for (size_t i = 0; i < len; i++)
            payload[i] = (uint8_t)(seq + i * 3 + who);
        h.sum = fnv(payload, len);
        int rc;
        while ((rc = shm_queue_try_write(q, who, &h, sizeof(h), payload, len)) == SHM_QUEUE_AGAIN)
            sched_yield();
        if (rc != SHM_QUEUE_OK)
            abort();
    }
}

/* Records seen intact and, per producer, in order; stops at the first bad one. */
static uint64_t stress_consume(shm_queue_t *q)
{
    uint64_t next[NPROD] = {0}, seen = 0;
    while (seen < (uint64_t)NPROD * PER_PROD) {
        uint32_t from;
        const void *d;
        size_t len;
        int rc = shm_queue_peek(q, &from, &d, &len);
        if (rc == SHM_QUEUE_EMPTY) {
            sched_yield();
            continue;
        }
        stress_hdr_t h;
        if (rc != SHM_QUEUE_READY || len < sizeof(h) || from >= NPROD)
            return seen;
        memcpy(&h, d, sizeof(h));
        const uint8_t *pl = (const uint8_t *)d + sizeof(h);
        if (h.seq != next[from] || h.len != len - sizeof(h) || fnv(pl, h.len) != h.sum)
            return seen;
        next[from]++;
        shm_queue_release(q);
        seen++;
    }
    return peek_rc(q) == SHM_QUEUE_EMPTY ? seen : seen + 1;
}

typedef struct prod_arg {
    void *mem;
    size_t cap;
    uint32_t who;
} prod_arg_t;

static void *producer_thread(void *arg)
{
    prod_arg_t *a = arg;
    shm_queue_t q; /* each producer its own handle, as each rank has */
    if (shm_queue_attach(&q, a->mem, a->cap, true))
        abort();
    stress_produce(&q, a->who, shm_queue_max_record(a->cap));
    return NULL;
}

Test(shm_queue, stress_four_threads, .timeout = 120)
{
    queue_pair_t p;
    qpair_new(&p, 16u << 10); /* small: constant wrap-around and contention */
    pthread_t t[NPROD];
    prod_arg_t a[NPROD];
    for (uint32_t i = 0; i < NPROD; i++) {
        a[i] = (prod_arg_t){p.mem, p.cap, i};
        cr_assert_eq(pthread_create(&t[i], NULL, producer_thread, &a[i]), 0);
    }
    uint64_t seen = stress_consume(&p.cons);
    for (int i = 0; i < NPROD; i++)
        pthread_join(t[i], NULL);
    cr_assert_eq(seen, (uint64_t)NPROD * PER_PROD, "record %lu lost, duplicated or damaged",
                 (unsigned long)seen);
    free(p.mem);
}

/* As the transport uses it: producers in other processes, the queue at other addresses. */
Test(shm_queue, stress_four_processes, .timeout = 120)
{
    size_t cap = shm_queue_capacity(16u << 10), bytes = shm_queue_footprint(cap);
    int fd = memfd_create("shm_queue_test", 0);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, (off_t)bytes), 0);
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    cr_assert_neq(mem, MAP_FAILED);
    shm_queue_init(mem, cap);
    pid_t pids[NPROD];
    for (uint32_t i = 0; i < NPROD; i++) {
        pids[i] = fork();
        cr_assert_geq(pids[i], 0);
        if (pids[i] == 0) {
            void *mine = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            shm_queue_t q;
            if (mine == MAP_FAILED || shm_queue_attach(&q, mine, cap, true))
                _exit(2);
            munmap(mem, bytes);
            stress_produce(&q, i, shm_queue_max_record(cap));
            _exit(0);
        }
    }
    shm_queue_t cons;
    cr_assert_eq(shm_queue_attach(&cons, mem, cap, false), 0);
    uint64_t seen = stress_consume(&cons);
    for (int i = 0; i < NPROD; i++) {
        int status = 0;
        cr_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "producer %d failed (%d)", i,
                  status);
    }
    cr_assert_eq(seen, (uint64_t)NPROD * PER_PROD, "record %lu lost, duplicated or damaged",
                 (unsigned long)seen);
    munmap(mem, bytes);
    close(fd);
}
