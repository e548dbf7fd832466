/* request.c — request objects: allocation, validity checks, completion.
 * Completion is an atomic flag so a thread may test it without the lock; threads parked on
 * the runtime's condition variable are woken when any request completes. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* Freed requests are kept for reuse by the freeing thread (a small collective or a ping-pong
 * makes several per call: malloc and free would be a noticeable part of a microsecond). A
 * request may be freed by another thread than the one that allocated it: caches are only
 * ever touched by their own thread. What a thread caches when it exits is lost (bounded). */
#define REQ_CACHE_MAX 32
static _Thread_local struct rmp_request *req_cache;
static _Thread_local int req_cached;

struct rmp_request *req_alloc(req_kind_t kind)
{
    struct rmp_request *r = req_cache;
    if (r) {
        req_cache = r->next;
        req_cached--;
        memset(r, 0, sizeof(*r));
    } else if (!(r = calloc(1, sizeof(*r)))) {
        return NULL;
    }
    r->magic = REQ_MAGIC;
    r->kind = kind;
    r->peer_world = -1;
    atomic_init(&r->done, 0);
    return r;
}

void req_free(struct rmp_request *r)
{
    if (!r)
        return;
    free(r->tmp);
    r->magic = 0;
    if (req_cached < REQ_CACHE_MAX) {
        r->next = req_cache;
        req_cache = r;
        req_cached++;
        return;
    }
    free(r);
}

bool req_valid(const struct rmp_request *r)
{
    return r && r->magic == REQ_MAGIC;
}

void req_complete(struct rmp_request *r, int err)
{
    if (err != RMP_SUCCESS || r->status.error == 0)
        r->status.error = err;
    atomic_store_explicit(&r->done, 1, memory_order_release);
    if (rmp_ctx.waiters > 0)
        pthread_cond_broadcast(&rmp_ctx.cond);
}
