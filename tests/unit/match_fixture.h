/* match_fixture.h — what the matching engine's unit tests share (test_match.c, which owns the
 * suite's queues and fixture, and test_match_order.c): posted receives and unexpected
 * arrivals made by hand. */
#ifndef RMP_TEST_MATCH_FIXTURE_H
#define RMP_TEST_MATCH_FIXTURE_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "match.h"

extern match_queues_t *mq; /* made by the suite's init (test_match.c) for every test */

/* A posted receive for (ctx, src, tag); src/tag may be the wildcards. */
static inline struct rmp_request *recv_req(uint32_t ctx, int src, int tag)
{
    struct rmp_request *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    r->kind = REQ_RECV;
    r->ctx_id = ctx;
    r->peer = src;
    r->tag = tag;
    return r;
}

/* An unexpected arrival from src with tag; `len` bytes of payload (malloc'd, freed by the queue
 * owner or match_destroy). */
static inline unexp_t *arrival(uint32_t ctx, int src, int tag, size_t len)
{
    unexp_t *u = calloc(1, sizeof *u);
    cr_assert_not_null(u);
    u->ctx = ctx;
    u->src = src;
    u->src_world = src;
    u->tag = tag;
    u->len = len;
    if (len) {
        u->data = malloc(len);
        memset(u->data, 0x5a, len);
    }
    return u;
}

static inline void free_unexp(unexp_t *u)
{
    free(u->data);
    free(u);
}

#endif
