/* wait.c — completion calls: wait, test, waitall, waitany, testall. A completed request is
 * freed here and the user's handle reset to RMP_REQUEST_NULL. */
#include "core.h"

static const rmp_status_t empty_status = {.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};

/* Hand a completed request's status out and free it (lock not needed: it is done). */
static int reap(rmp_request_t *req, rmp_status_t *status)
{
    struct rmp_request *r = *req;
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
    if (!req_valid(*req))
        return RMP_ERR_REQUEST;
    struct rmp_request *r = *req;
    if (!is_done(r)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_wait(c, &r->done);
        ctx_unlock(c);
    }
    return reap(req, status);
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
    if (!req_valid(*req))
        return RMP_ERR_REQUEST;
    if (!is_done(*req)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_poll(c);
        ctx_unlock(c);
    }
    *flag = is_done(*req);
    return *flag ? reap(req, status) : RMP_SUCCESS;
}

static int check_array(int count, rmp_request_t reqs[])
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (count < 0)
        return RMP_ERR_COUNT;
    if (count > 0 && !reqs)
        return RMP_ERR_ARG;
    for (int i = 0; i < count; i++)
        if (reqs[i] != RMP_REQUEST_NULL && !req_valid(reqs[i]))
            return RMP_ERR_REQUEST;
    return RMP_SUCCESS;
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
        if (reqs[i] && !is_done(reqs[i])) {
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
    for (int i = 0; i < a->n; i++)
        if (a->reqs[i] && is_done(a->reqs[i]))
            return true;
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
        if (reqs[i] && is_done(reqs[i])) {
            *index = i;
            return reap(&reqs[i], status);
        }
    }
    return RMP_ERR_INTERNAL;
}

int req_waitall(int n, rmp_request_t *reqs)
{
    int first = RMP_SUCCESS;
    for (int i = 0; i < n; i++) {
        if (!reqs[i])
            continue;
        int e = rmp_wait(&reqs[i], RMP_STATUS_IGNORE);
        if (e != RMP_SUCCESS && first == RMP_SUCCESS)
            first = e;
    }
    return first;
}
