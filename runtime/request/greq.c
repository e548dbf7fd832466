/* greq.c — generalized requests (MPI-3.1 12.2): operations the program carries out itself
 * and reports done with rmp_grequest_complete, waited for by every completion call like rmp's
 * own. The request holds the program's callbacks (r->greq); they always run without the
 * runtime lock, as they may call rmp (a cancel callback typically completes the request). */
#include <stdlib.h>

#include "core.h"

typedef struct greq {
    rmp_grequest_query_fn *query;
    rmp_grequest_free_fn *free;
    rmp_grequest_cancel_fn *cancel;
    void *extra;
} greq_t;

int rmp_grequest_start(rmp_grequest_query_fn *query_fn, rmp_grequest_free_fn *free_fn,
                       rmp_grequest_cancel_fn *cancel_fn, void *extra_state,
                       rmp_request_t *req)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!req || !query_fn || !free_fn || !cancel_fn)
        return RMP_ERR_ARG;
    greq_t *g = malloc(sizeof(*g));
    struct rmp_request *r = g ? req_alloc(REQ_GREQ) : NULL;
    if (!r) {
        free(g);
        return RMP_ERR_NO_MEM;
    }
    *g = (greq_t){.query = query_fn, .free = free_fn, .cancel = cancel_fn, .extra = extra_state};
    r->greq = g;
    *req = req_handle(r);
    return RMP_SUCCESS;
}

/* The free callback and the slot: the request's end (lock not held). */
static int greq_end(struct rmp_request *r)
{
    greq_t *g = r->greq;
    int err = g->free(g->extra);
    free(g);
    ctx_lock(&rmp_ctx);
    req_free(r);
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_grequest_complete(rmp_request_t req)
{
    int err = ctx_check();
    if (err)
        return err;
    /* req_lookup, not the completion calls' check: a request the program freed with
     * rmp_request_free is still completed through a copy of its handle */
    struct rmp_request *r = req_lookup(req);
    if (!r || r->kind != REQ_GREQ || atomic_load(&r->done))
        return RMP_ERR_REQUEST;
    ctx_lock(&rmp_ctx);
    bool orphan = r->orphan; /* rmp_request_free set it under the lock: no waiter to wake */
    if (!orphan)
        req_complete(r, RMP_SUCCESS);
    ctx_unlock(&rmp_ctx);
    return orphan ? greq_end(r) : RMP_SUCCESS;
}

int greq_query(struct rmp_request *r, rmp_status_t *status)
{
    greq_t *g = r->greq;
    rmp_status_t st = {.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    int err = g->query(g->extra, &st);
    st.error = err;
    if (status)
        *status = st;
    return err;
}

int greq_reap(struct rmp_request *r, rmp_status_t *status)
{
    greq_t *g = r->greq;
    rmp_status_t st = {.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    int err = g->query(g->extra, &st);
    int ferr = greq_end(r);
    if (!err)
        err = ferr;
    st.error = err;
    if (status)
        *status = st;
    return err;
}

void greq_free_done(struct rmp_request *r)
{
    (void)greq_end(r);
}

void greq_cancel(struct rmp_request *r)
{
    greq_t *g = r->greq;
    (void)g->cancel(g->extra, atomic_load(&r->done) != 0);
}
