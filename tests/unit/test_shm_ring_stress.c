/* test_shm_ring_stress.c — the shm ring under load: one producer and one consumer, as two
 * threads and as two processes (the ring mapped at two different addresses), a million
 * records of random sizes, each checked by its checksum and sequence. */
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

/* A stress run that goes wrong must say where, not hang until Criterion's timeout: the
 * consumer stops at the first bad record or after STRESS_STALL_S without one, and raises
 * `stop` (shared with the producer, in process-shared memory for the two-process test) so that
 * a producer waiting for room gives up too. */
#define STRESS_STALL_S 20

static bool stress_produce(shm_ring_t *r, size_t max, _Atomic int *stop)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    static _Thread_local uint8_t payload[1u << 16];
    for (uint64_t seq = 0; seq < STRESS_N; seq++) {
        stress_hdr_t h = {.seq = seq, .len = (uint32_t)stress_size(&rng, max - sizeof(h))};
        uint64_t prng = seq + 1;
        for (size_t i = 0; i < h.len; i++)
            payload[i] = i % 8 == 0 ? (uint8_t)xorshift(&prng) : (uint8_t)(payload[i - 1] + 1);
        h.sum = fnv(payload, h.len);
        while (shm_ring_try_write(r, &h, sizeof(h), payload, h.len) == SHM_RING_AGAIN) {
            if (atomic_load_explicit(stop, memory_order_relaxed))
                return false;
            sched_yield();
        }
    }
    return true;
}

static double stress_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Returns the number of records seen in order and intact; when short of STRESS_N, `why` says
 * what stopped it, with the ring's state (the stamp found where the consumer waits). */
static uint64_t stress_consume(shm_ring_t *r, _Atomic int *stop, char *why, size_t whylen)
{
    uint64_t seq = 0, empties = 0;
    double last = stress_now();
    snprintf(why, whylen, "-");
    while (seq < STRESS_N) {
        const void *d;
        size_t len;
        int rc = shm_ring_peek(r, &d, &len);
        if (rc == SHM_RING_EMPTY) {
            if (++empties % 1024 == 0 && stress_now() - last > STRESS_STALL_S) {
                uint64_t found = atomic_load(
                    (_Atomic uint64_t *)(r->data + (r->pos & r->mask) + sizeof(uint64_t)));
                snprintf(why, whylen, "nothing for %d s at position %lu (head %lu): stamp "
                         "there %#lx, expected %#lx", STRESS_STALL_S, (unsigned long)r->pos,
                         (unsigned long)atomic_load(&r->ctl->head), (unsigned long)found,
                         (unsigned long)((r->pos + 1) ^ r->key));
                break;
            }
            sched_yield();
            continue;
        }
        stress_hdr_t h;
        if (rc != SHM_RING_READY || len < sizeof(h)) {
            snprintf(why, whylen, "peek %d (%zu bytes) at position %lu", rc,
                     rc == SHM_RING_READY ? len : 0, (unsigned long)r->pos);
            break;
        }
        memcpy(&h, d, sizeof(h));
        const uint8_t *pl = (const uint8_t *)d + sizeof(h);
        if (h.seq != seq || h.len != len - sizeof(h) || fnv(pl, h.len) != h.sum) {
            snprintf(why, whylen, "record of seq %lu, %zu bytes (header says %u) at position "
                     "%lu", (unsigned long)h.seq, len, h.len, (unsigned long)r->pos);
            break;
        }
        shm_ring_release(r);
        seq++;
        last = stress_now();
    }
    if (seq < STRESS_N) {
        atomic_store(stop, 1);
        return seq;
    }
    const void *d;
    size_t len;
    if (shm_ring_peek(r, &d, &len) == SHM_RING_EMPTY)
        return seq;
    snprintf(why, whylen, "a record after the last one");
    return seq + 1;
}

typedef struct stress_pair {
    ring_pair_t p;
    _Atomic int stop;
} stress_pair_t;

static void *producer_thread(void *arg)
{
    stress_pair_t *s = arg;
    stress_produce(&s->p.prod, s->p.max, &s->stop);
    return NULL;
}

Test(shm_ring, stress_two_threads, .timeout = 60)
{
    stress_pair_t s = {.stop = 0};
    pair_new(&s.p, 16u << 10); /* small: constant wrap-around and back-pressure */
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, producer_thread, &s), 0);
    char why[256];
    uint64_t seen = stress_consume(&s.p.cons, &s.stop, why, sizeof(why));
    cr_assert_eq(pthread_join(t, NULL), 0);
    cr_assert_eq(seen, STRESS_N, "record %lu lost, duplicated or damaged: %s",
                 (unsigned long)seen, why);
    pair_free(&s.p);
}

/* As the transport uses it: two processes, the ring mapped at a different address in each.
 * The stop flag sits on the line after the ring. */
Test(shm_ring, stress_two_processes, .timeout = 60)
{
    size_t cap = shm_ring_capacity(16u << 10);
    size_t bytes = shm_ring_footprint(cap) + SHM_RING_ALIGN;
    int fd = memfd_create("shm_ring_test", 0);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, (off_t)bytes), 0);
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    cr_assert_neq(mem, MAP_FAILED);
    shm_ring_init(mem, cap);
    _Atomic int *stop = (_Atomic int *)((char *)mem + shm_ring_footprint(cap));
    atomic_init(stop, 0);

    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        void *mine = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        shm_ring_t prod;
        if (mine == MAP_FAILED || mine == mem || shm_ring_attach(&prod, mine, cap, true) != 0)
            _exit(2);
        munmap(mem, bytes);
        bool done = stress_produce(&prod, shm_ring_max_record(cap),
                                   (_Atomic int *)((char *)mine + shm_ring_footprint(cap)));
        _exit(done ? 0 : 3);
    }
    shm_ring_t cons;
    cr_assert_eq(shm_ring_attach(&cons, mem, cap, false), 0);
    char why[256];
    uint64_t seen = stress_consume(&cons, stop, why, sizeof(why));
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert_eq(seen, STRESS_N, "record %lu lost, duplicated or damaged: %s",
                 (unsigned long)seen, why);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "producer failed (%d)", status);
    munmap(mem, bytes);
    close(fd);
}
