/* request.c — request objects: allocation, validity checks, completion.
 * Completion is an atomic flag so a thread may test it without the lock; threads parked on
 * the runtime's condition variable are woken when any request completes. */
#include <stdlib.h>

#include "core.h"

struct rmp_request *req_alloc(req_kind_t kind)
{
    struct rmp_request *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
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
