/* wait.c — completion calls: wait, test, waitall, waitany, testall. Every handle goes through
 * req_lookup first (RMP_ERR_REQUEST for one that is not live, before anything is done); a
 * completed request is freed here and the user's handle reset to RMP_REQUEST_NULL. */
#include "core.h"

static const rmp_status_t empty_status = {.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};

/* Hand a completed request's status out and free it (lock not needed: it is done). */
static int reap(struct rmp_request *r, rmp_request_t *req, rmp_status_t *status)
{
    int err = r->status.error;
    if (status)
        *status = r->status;
    req_free(r);
    *req = RMP_REQUEST_NULL;
    return err;
}

static bool is_done(const struct rmp_request *r)
{
    return atomic_load_explicit(&r->done, memory_order_acquire) != 0;
}

int rmp_wait(rmp_request_t *req, rmp_status_t *status)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!req)
        return RMP_ERR_ARG;
    if (*req == RMP_REQUEST_NULL) {
        if (status)
            *status = empty_status;
        return RMP_SUCCESS;
    }
    struct rmp_request *r = req_lookup(*req);
    if (!r)
        return RMP_ERR_REQUEST;
    if (!is_done(r)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_wait(c, &r->done);
        ctx_unlock(c);
    }
    return reap(r, req, status);
}

int rmp_test(rmp_request_t *req, int *flag, rmp_status_t *status)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!req || !flag)
        return RMP_ERR_ARG;
    if (*req == RMP_REQUEST_NULL) {
        *flag = 1;
        if (status)
            *status = empty_status;
        return RMP_SUCCESS;
    }
    struct rmp_request *r = req_lookup(*req);
    if (!r)
        return RMP_ERR_REQUEST;
    if (!is_done(r)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_poll(c);
        ctx_unlock(c);
    }
    *flag = is_done(r);
    return *flag ? reap(r, req, status) : RMP_SUCCESS;
}

/* The array calls check every entry before completing any: one that is not live, or a
 * request listed twice (the second entry would name a request the first one freed), gives
 * RMP_ERR_REQUEST with every request left as it was. */
static int check_array(int count, rmp_request_t reqs[])
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (count < 0)
        return RMP_ERR_COUNT;
    if (count > 0 && !reqs)
        return RMP_ERR_ARG;
    int i;
    for (i = 0; i < count && rc == RMP_SUCCESS; i++) {
        if (reqs[i] == RMP_REQUEST_NULL)
            continue;
        struct rmp_request *r = req_lookup(reqs[i]);
        if (!r || r->listed)
            rc = RMP_ERR_REQUEST;
        else
            r->listed = true;
    }
    while (i-- > 0) { /* unmark (a duplicate's first entry included) */
        struct rmp_request *r = req_lookup(reqs[i]);
        if (r)
            r->listed = false;
    }
    return rc;
}

int rmp_waitall(int count, rmp_request_t reqs[], rmp_status_t statuses[])
{
    int rc = check_array(count, reqs);
    if (rc)
        return rc;
    int first = RMP_SUCCESS, nerr = 0;
    for (int i = 0; i < count; i++) {
        int e = rmp_wait(&reqs[i], statuses ? &statuses[i] : RMP_STATUS_IGNORE);
        if (e != RMP_SUCCESS && nerr++ == 0)
            first = e;
    }
    if (nerr == 0)
        return RMP_SUCCESS;
    return statuses ? RMP_ERR_IN_STATUS : first;
}

int rmp_testall(int count, rmp_request_t reqs[], int *flag, rmp_status_t statuses[])
{
    int rc = check_array(count, reqs);
    if (rc)
        return rc;
    if (!flag)
        return RMP_ERR_ARG;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    progress_poll(c);
    ctx_unlock(c);
    for (int i = 0; i < count; i++) {
        struct rmp_request *r = req_lookup(reqs[i]);
        if (r && !is_done(r)) {
            *flag = 0;
            return RMP_SUCCESS;
        }
    }
    *flag = 1;
    return rmp_waitall(count, reqs, statuses);
}

typedef struct any_arg {
    int n;
    rmp_request_t *reqs;
} any_arg_t;

static bool any_done(void *arg)
{
    any_arg_t *a = arg;
    for (int i = 0; i < a->n; i++) {
        struct rmp_request *r = req_lookup(a->reqs[i]);
        if (r && is_done(r))
            return true;
    }
    return false;
}

int rmp_waitany(int count, rmp_request_t reqs[], int *index, rmp_status_t *status)
{
    int rc = check_array(count, reqs);
    if (rc)
        return rc;
    if (!index)
        return RMP_ERR_ARG;
    int live = 0;
    for (int i = 0; i < count; i++)
        live += reqs[i] != RMP_REQUEST_NULL;
    if (!live) {
        *index = RMP_UNDEFINED;
        if (status)
            *status = empty_status;
        return RMP_SUCCESS;
    }
    any_arg_t a = {.n = count, .reqs = reqs};
    if (!any_done(&a)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_wait_until(c, any_done, &a);
        ctx_unlock(c);
    }
    for (int i = 0; i < count; i++) {
        struct rmp_request *r = req_lookup(reqs[i]);
        if (r && is_done(r)) {
            *index = i;
            return reap(r, &reqs[i], status);
        }
    }
    return RMP_ERR_INTERNAL;
}
