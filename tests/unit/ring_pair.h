/* ring_pair.h — what the shm ring's unit tests share (test_shm_ring.c, test_shm_ring_stress.c):
 * a producer and a consumer attached to one ring in private memory, and a cheap generator. */
#ifndef RMP_TEST_RING_PAIR_H
#define RMP_TEST_RING_PAIR_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "transport/shm/shm_ring.h"

typedef struct ring_pair {
    void *mem;
    shm_ring_t prod, cons;
    size_t cap, max;
} ring_pair_t;

static inline void pair_new(ring_pair_t *p, size_t want)
{
    p->cap = shm_ring_capacity(want);
    p->mem = aligned_alloc(SHM_RING_ALIGN, shm_ring_footprint(p->cap));
    cr_assert_not_null(p->mem);
    shm_ring_init(p->mem, p->cap);
    cr_assert_eq(shm_ring_attach(&p->prod, p->mem, p->cap, true), 0);
    cr_assert_eq(shm_ring_attach(&p->cons, p->mem, p->cap, false), 0);
    p->max = shm_ring_max_record(p->cap);
}

static inline void pair_free(ring_pair_t *p)
{
    free(p->mem);
}

static inline uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#endif
