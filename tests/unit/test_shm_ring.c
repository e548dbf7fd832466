/* test_shm_ring.c — unit tests of the shm transport's SPSC record ring on its own: wrap-around
 * through the skip marker for every record size, the hot window (an idle ring restarts at
 * offset 0), back-pressure without loss, empty and max-size records, corruption checks, and
 * producer/consumer stress (test_shm_ring_stress.c). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ring_pair.h"

/* ---- helpers ------------------------------------------------------------------------------ */

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
    uint64_t off = (uint64_t)(b - r->data) - 16; /* the record starts with a 16-byte header */
    shm_ring_release(r);
    return off;
}

static uint64_t rec_size(size_t n)
{
    return (16 + n + SHM_RING_ALIGN - 1) & ~(uint64_t)(SHM_RING_ALIGN - 1); /* header: 16 */
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
    cr_assert_eq(shm_ring_max_record(4096), 1024 - 16);

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

    /* Streaming: a consumer that lags far behind leaves the producer the whole ring. It must
     * lag by more than a quarter of the hot window when the producer crosses its end (else
     * that is ping-pong, and the producer starts over at 0): start far enough below it. */
    while ((p.prod.pos & (p.cap - 1)) >= SHM_RING_HOT - SHM_RING_HOT / 4 - 2 * rec_size(100)) {
        cr_assert_eq(put(&p.prod, seq, 100), SHM_RING_OK);
        get(&p.cons, seq++, 100);
    }
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
    uint32_t *rec = (uint32_t *)p.cons.data; /* {len, kind, stamp} of the first record */

    cr_assert_eq(put(&p.prod, 0, 10), SHM_RING_OK);
    uint32_t kind = rec[1];
    rec[1] = 0x12345678;
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_CORRUPT);
    rec[1] = kind;
    rec[0] = 1u << 20; /* longer than any record */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_CORRUPT);
    rec[0] = 10;
    get(&p.cons, 0, 10);

    pair_free(&p);

    /* A skip record at offset 0, stamped (a producer pads only a tail): corrupt. */
    pair_new(&p, 4096);
    rec = (uint32_t *)p.cons.data;
    cr_assert_eq(put(&p.prod, 0, 10), SHM_RING_OK);
    rec[1] = 0x50494b53u; /* "SKIP" */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_CORRUPT);
    pair_free(&p);

    /* A record crossing the end of the data area: corrupt, never read past it. */
    pair_new(&p, 4096);
    rec = (uint32_t *)p.cons.data;
    cr_assert_eq(put(&p.prod, 0, 10), SHM_RING_OK);
    rec[0] = 4096 - 16; /* more than a record may carry (a quarter of the ring) */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_CORRUPT);
    pair_free(&p);

    /* head is not what the consumer trusts: a scribbled one delivers nothing unstamped. */
    pair_new(&p, 4096);
    atomic_store(&((shm_ring_ctl_t *)p.mem)->head, 1u << 20);
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    cr_assert_eq(put(&p.prod, 0, 10), SHM_RING_OK);
    get(&p.cons, 0, 10);
    pair_free(&p);
}

/* The consumer takes a record only once its producer stamped it with its position: stale
 * lines (an older lap's record or payload) and a half-written record are not delivered. */
Test(shm_ring, only_stamped_records_are_read, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 4096);
    const void *d;
    size_t l;
    uint64_t *stamp = (uint64_t *)(p.cons.data + 8); /* the first record's stamp */
    cr_assert_eq(put(&p.prod, 0, 10), SHM_RING_OK);
    uint64_t good = *stamp;
    *stamp = good ^ 1; /* as if the stamp were not written yet */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    cr_assert(!shm_ring_has_data(&p.cons));
    *stamp = good;
    cr_assert(shm_ring_has_data(&p.cons));
    get(&p.cons, 0, 10);
    cr_assert(!shm_ring_has_data(&p.cons)); /* what is left there is stale */
    /* A whole lap later the same line holds the first lap's record: never read again. */
    for (uint32_t seq = 1; seq < 200; seq++) {
        cr_assert_eq(put(&p.prod, seq, 100), SHM_RING_OK);
        get(&p.cons, seq, 100);
        cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    }
    pair_free(&p);
}

/* The consumer's position after the last record is where the stress tests' consumer polls:
 * here the ring states that only a preempted producer or an older lap produce, built one by
 * one. Records of 900 bytes take 960: four per lap, then a skip record pads the last 256. */
Test(shm_ring, stale_laps_and_a_wrap_in_flight, .timeout = 60)
{
    ring_pair_t p;
    pair_new(&p, 4096);
    shm_ring_ctl_t *ctl = p.mem;
    const void *d;
    size_t l;
    uint32_t seq = 0;
    for (; seq < 4; seq++)
        cr_assert_eq(put(&p.prod, seq, 900), SHM_RING_OK);
    for (uint32_t k = 0; k < 4; k++)
        cr_assert_eq(get(&p.cons, k, 900), k * 960);
    cr_assert_eq(p.cons.pos, 3840);

    /* The producer pads the tail and puts record 4 at offset 0, but its stamp is not visible
     * yet (preempted before that store): the consumer passes the skip record, gives the tail
     * back at once, and waits at offset 0, where the first lap's record still lies. */
    uint64_t *stamp0 = (uint64_t *)(p.cons.data + 8);
    uint64_t lap0 = *stamp0;
    cr_assert_eq(put(&p.prod, seq++, 900), SHM_RING_OK);
    uint64_t lap1 = *stamp0;
    cr_assert_neq(lap1, lap0);
    *stamp0 = lap0;
    cr_assert(shm_ring_has_data(&p.cons)); /* the skip record: has_data says what peek sees */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    cr_assert_eq(p.cons.pos, 4096);
    cr_assert_eq(atomic_load(&ctl->tail), 4096);
    cr_assert(!shm_ring_has_data(&p.cons));
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY); /* and stays there */
    *stamp0 = lap1; /* the store lands */
    cr_assert(shm_ring_has_data(&p.cons));
    cr_assert_eq(get(&p.cons, 4, 900), 0);

    /* Offset 960 holds the first lap's record 1: a whole, well-formed header (DATA, 900
     * bytes), a stamp of its own position. Not taken, as DATA or as a skip record. */
    uint32_t *hdr960 = (uint32_t *)(p.cons.data + 960);
    cr_assert_eq(hdr960[0], 900);
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    cr_assert(!shm_ring_has_data(&p.cons));
    uint32_t kind = hdr960[1];
    hdr960[1] = 0x50494b53u; /* "SKIP" */
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    cr_assert_eq(p.cons.pos, 4096 + 960);
    hdr960[1] = kind;

    /* A lap later the consumer reaches 3840 again, where the first lap's skip record lies
     * (stamped for 3840, not 4096 + 3840): it waits there, and takes the new one once written. */
    for (; seq < 8; seq++) {
        cr_assert_eq(put(&p.prod, seq, 900), SHM_RING_OK);
        get(&p.cons, seq, 900);
    }
    cr_assert_eq(p.cons.pos, 4096 + 3840);
    cr_assert_eq(((uint32_t *)(p.cons.data + 3840))[1], 0x50494b53u);
    cr_assert_eq(shm_ring_peek(&p.cons, &d, &l), SHM_RING_EMPTY);
    cr_assert(!shm_ring_has_data(&p.cons));
    cr_assert_eq(p.cons.pos, 4096 + 3840);
    cr_assert_eq(put(&p.prod, seq, 900), SHM_RING_OK);
    cr_assert_eq(get(&p.cons, seq, 900), 0);
    cr_assert_eq(p.cons.pos, 2 * 4096 + 960);
    pair_free(&p);
}
