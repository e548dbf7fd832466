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
static _Thread_local bool req_cache_keyed; /* this thread's drain is registered */
static pthread_key_t req_cache_key;
static pthread_once_t req_cache_once = PTHREAD_ONCE_INIT;

/* At a thread's exit: its cache goes back to malloc. */
static void req_cache_drain(void *unused)
{
    (void)unused;
    while (req_cache) {
        struct rmp_request *r = req_cache;
        req_cache = r->next;
        free(r);
    }
    req_cached = 0;
}

static void req_cache_key_init(void)
{
    (void)pthread_key_create(&req_cache_key, req_cache_drain);
}

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
    if (!req_cache_keyed) {
        (void)pthread_once(&req_cache_once, req_cache_key_init);
        req_cache_keyed = pthread_setspecific(req_cache_key, &req_cache_keyed) == 0;
    }
    if (req_cache_keyed && req_cached < REQ_CACHE_MAX) {
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
