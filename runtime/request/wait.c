/* wait.c — completion calls: wait, test, waitall, waitany, testall, waitsome, testsome, and
 * request_free. Every handle goes through req_lookup first (RMP_ERR_REQUEST for one that is
 * not live, before anything is done); a completed request is freed here and the user's handle
 * reset to RMP_REQUEST_NULL, except a persistent one, which only becomes inactive. */
#include <stdio.h>

#include "core.h"
#include "hang.h"

static const rmp_status_t empty_status = {.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};

/* The request a user's handle names, if the user may still complete it: not a message handle
 * (mprobe.c), not one rmp_request_free gave up (it lives on until it completes, but every copy
 * of its handle is dead to the user). NULL otherwise. */
static struct rmp_request *user_req(rmp_request_t h)
{
    struct rmp_request *r = req_lookup(h);
    return r && r->kind != REQ_MSG && !r->orphan ? r : NULL;
}

/* Hand a completed request's status out and free it (lock not needed: it is done); a
 * persistent request stays, inactive, and so does the user's handle. */
static int reap(struct rmp_request *r, rmp_request_t *req, rmp_status_t *status)
{
    if (r->kind == REQ_GREQ) { /* its query callback makes the status (greq.c) */
        *req = RMP_REQUEST_NULL;
        return greq_reap(r, status);
    }
    int err = r->status.error;
    if (status)
        *status = r->status;
    if (r->persistent) {
        r->active = false;
        return err;
    }
    req_free(r);
    *req = RMP_REQUEST_NULL;
    return err;
}

static bool is_done(const struct rmp_request *r)
{
    return atomic_load_explicit(&r->done, memory_order_acquire) != 0;
}

/* A persistent request not started since its last completion: waits on it return at once. */
static bool is_inactive(const struct rmp_request *r)
{
    return r->persistent && !r->active;
}

static bool req_done(void *r)
{
    return is_done(r);
}

/* A test call's progress for r (progress_test: a polling loop gives its core up). */
static void test_one(struct rmp_request *r)
{
    if (!is_done(r)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_test(c, req_done, r);
        ctx_unlock(c);
    }
}

/* Wait for the live request r that *req names, then reap it. */
static int wait_one(struct rmp_request *r, rmp_request_t *req, rmp_status_t *status)
{
    if (is_inactive(r)) {
        if (status)
            *status = empty_status;
        return RMP_SUCCESS;
    }
    if (!is_done(r)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_wait(c, &r->done);
        ctx_unlock(c);
    }
    return reap(r, req, status);
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
    struct rmp_request *r = user_req(*req);
    if (!r)
        return RMP_ERR_REQUEST;
    const char *prev = hang_enter(__func__);
    rc = wait_one(r, req, status);
    hang_leave(prev);
    return rc;
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
    struct rmp_request *r = user_req(*req);
    if (!r)
        return RMP_ERR_REQUEST;
    if (is_inactive(r)) {
        *flag = 1;
        if (status)
            *status = empty_status;
        return RMP_SUCCESS;
    }
    test_one(r);
    *flag = is_done(r);
    return *flag ? reap(r, req, status) : RMP_SUCCESS;
}

/* The array calls check every entry before completing any: one that is not live, or a
 * request listed twice (the second entry would name a request the first one freed), gives
 * RMP_ERR_REQUEST with every request left as it was. Each entry is marked with a value of
 * this call only, so nothing needs unmarking afterwards. */
static int check_array(int count, rmp_request_t reqs[])
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (count < 0)
        return RMP_ERR_COUNT;
    if (count > 0 && !reqs)
        return RMP_ERR_ARG;
    uint64_t epoch = req_list_epoch();
    for (int i = 0; i < count; i++) {
        if (reqs[i] == RMP_REQUEST_NULL)
            continue;
        struct rmp_request *r = user_req(reqs[i]);
        if (!r || r->listed == epoch)
            return RMP_ERR_REQUEST;
        r->listed = epoch;
    }
    return RMP_SUCCESS;
}

int rmp_waitall(int count, rmp_request_t reqs[], rmp_status_t statuses[])
{
    int rc = check_array(count, reqs);
    if (rc)
        return rc;
    int first = RMP_SUCCESS, nerr = 0;
    const char *prev = hang_enter(__func__);
    for (int i = 0; i < count; i++) {
        rmp_status_t *st = statuses ? &statuses[i] : RMP_STATUS_IGNORE;
        struct rmp_request *r = req_lookup(reqs[i]); /* live: checked above */
        int e = RMP_SUCCESS;
        if (r)
            e = wait_one(r, &reqs[i], st);
        else if (st)
            *st = empty_status;
        if (e != RMP_SUCCESS && nerr++ == 0)
            first = e;
    }
    hang_leave(prev);
    if (nerr == 0)
        return RMP_SUCCESS;
    return statuses ? RMP_ERR_IN_STATUS : first;
}

typedef struct any_arg {
    int n;
    rmp_request_t *reqs;
} any_arg_t;

/* Every active request of a's list is done. */
static bool all_done(void *arg)
{
    any_arg_t *a = arg;
    for (int i = 0; i < a->n; i++) {
        struct rmp_request *r = req_lookup(a->reqs[i]);
        if (r && !is_inactive(r) && !is_done(r))
            return false;
    }
    return true;
}

int rmp_testall(int count, rmp_request_t reqs[], int *flag, rmp_status_t statuses[])
{
    int rc = check_array(count, reqs);
    if (rc)
        return rc;
    if (!flag)
        return RMP_ERR_ARG;
    any_arg_t a = {.n = count, .reqs = reqs};
    if (!all_done(&a)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        bool all = progress_test(c, all_done, &a);
        ctx_unlock(c);
        if (!all) {
            *flag = 0;
            return RMP_SUCCESS;
        }
    }
    *flag = 1;
    return rmp_waitall(count, reqs, statuses);
}

/* The request of handle h if it is active (not RMP_REQUEST_NULL, not inactive persistent). */
static struct rmp_request *active_req(rmp_request_t h)
{
    struct rmp_request *r = req_lookup(h);
    return r && !is_inactive(r) ? r : NULL;
}

static bool any_done(void *arg)
{
    any_arg_t *a = arg;
    for (int i = 0; i < a->n; i++) {
        struct rmp_request *r = active_req(a->reqs[i]);
        if (r && is_done(r))
            return true;
    }
    return false;
}

/* For the hang report: the first request of the list that has not completed. */
static void any_what(void *arg, char *buf, size_t len)
{
    any_arg_t *a = arg;
    for (int i = 0; i < a->n; i++) {
        struct rmp_request *r = active_req(a->reqs[i]);
        if (r && !is_done(r)) {
            int used = snprintf(buf, len, "request %d of %d: ", i, a->n);
            hang_describe_req(&rmp_ctx, r, buf + used, len - (size_t)used);
            return;
        }
    }
    snprintf(buf, len, "one of %d requests", a->n);
}

/* progress_wait_until for any of a's requests, said so in a hang report. */
static void wait_any(any_arg_t *a, const char *call)
{
    rmp_ctx_t *c = &rmp_ctx;
    const char *prev = hang_enter(call);
    ctx_lock(c);
    hang_slot.what = any_what;
    hang_slot.what_arg = a;
    progress_wait_until(c, any_done, a);
    hang_slot.what = NULL;
    ctx_unlock(c);
    hang_leave(prev);
}

/* Number of active requests in reqs. */
static int count_active(int count, const rmp_request_t reqs[])
{
    int live = 0;
    for (int i = 0; i < count; i++)
        live += active_req(reqs[i]) != NULL;
    return live;
}

int rmp_waitany(int count, rmp_request_t reqs[], int *index, rmp_status_t *status)
{
    int rc = check_array(count, reqs);
    if (rc)
        return rc;
    if (!index)
        return RMP_ERR_ARG;
    if (!count_active(count, reqs)) {
        *index = RMP_UNDEFINED;
        if (status)
            *status = empty_status;
        return RMP_SUCCESS;
    }
    any_arg_t a = {.n = count, .reqs = reqs};
    if (!any_done(&a))
        wait_any(&a, __func__);
    for (int i = 0; i < count; i++) {
        struct rmp_request *r = active_req(reqs[i]);
        if (r && is_done(r)) {
            *index = i;
            return reap(r, &reqs[i], status);
        }
    }
    return RMP_ERR_INTERNAL;
}

/* waitsome and testsome once their arguments passed: reap every active request that is done,
 * in index order. */
static int reap_some(int count, rmp_request_t reqs[], int *outcount, int indices[],
                     rmp_status_t statuses[])
{
    int n = 0, first = RMP_SUCCESS, nerr = 0;
    for (int i = 0; i < count; i++) {
        struct rmp_request *r = active_req(reqs[i]);
        if (!r || !is_done(r))
            continue;
        int e = reap(r, &reqs[i], statuses ? &statuses[n] : RMP_STATUS_IGNORE);
        if (e != RMP_SUCCESS && nerr++ == 0)
            first = e;
        indices[n++] = i;
    }
    *outcount = n;
    if (nerr == 0)
        return RMP_SUCCESS;
    return statuses ? RMP_ERR_IN_STATUS : first;
}

static int some(int count, rmp_request_t reqs[], int *outcount, int indices[],
                rmp_status_t statuses[], bool block)
{
    int rc = check_array(count, reqs);
    if (rc)
        return rc;
    if (!outcount || (count > 0 && !indices))
        return RMP_ERR_ARG;
    if (!count_active(count, reqs)) {
        *outcount = RMP_UNDEFINED;
        return RMP_SUCCESS;
    }
    any_arg_t a = {.n = count, .reqs = reqs};
    if (!any_done(&a) && block) {
        wait_any(&a, "rmp_waitsome");
    } else if (!any_done(&a)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_test(c, any_done, &a);
        ctx_unlock(c);
    }
    return reap_some(count, reqs, outcount, indices, statuses);
}

int rmp_waitsome(int incount, rmp_request_t reqs[], int *outcount, int indices[],
                 rmp_status_t statuses[])
{
    return some(incount, reqs, outcount, indices, statuses, true);
}

int rmp_testsome(int incount, rmp_request_t reqs[], int *outcount, int indices[],
                 rmp_status_t statuses[])
{
    return some(incount, reqs, outcount, indices, statuses, false);
}

int rmp_request_free(rmp_request_t *req)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    struct rmp_request *r = req ? user_req(*req) : NULL;
    /* a collective's request: only a persistent one, inactive (MPI-4.0 6.13); an isendrecv's
     * (freeable) as a point-to-point one */
    if (!r || (r->kind == REQ_COLL && !r->freeable && (!r->persistent || r->active)))
        return RMP_ERR_REQUEST;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c); /* completion (req_complete, under the lock) sees orphan, or we see done */
    bool greq_done = r->kind == REQ_GREQ && is_done(r);
    if (greq_done)
        ; /* its free callback runs outside the lock, below */
    else if (is_inactive(r) || is_done(r)) {
        if (part_is(r))
            part_release_locked(r);
        req_free(r);
    } else
        r->orphan = true;
    ctx_unlock(c);
    *req = RMP_REQUEST_NULL;
    if (greq_done)
        greq_free_done(r);
    return RMP_SUCCESS;
}

/* MPI_Testany: one pass of progress, then the first active request that is done is reaped. */
int rmp_testany(int count, rmp_request_t reqs[], int *index, int *flag, rmp_status_t *status)
{
    int rc = check_array(count, reqs);
    if (rc)
        return rc;
    if (!index || !flag)
        return RMP_ERR_ARG;
    if (!count_active(count, reqs)) {
        *flag = 1;
        *index = RMP_UNDEFINED;
        if (status)
            *status = empty_status;
        return RMP_SUCCESS;
    }
    any_arg_t a = {.n = count, .reqs = reqs};
    if (!any_done(&a)) {
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        progress_test(c, any_done, &a);
        ctx_unlock(c);
    }
    for (int i = 0; i < count; i++) {
        struct rmp_request *r = active_req(reqs[i]);
        if (r && is_done(r)) {
            *flag = 1;
            *index = i;
            return reap(r, &reqs[i], status);
        }
    }
    *flag = 0;
    *index = RMP_UNDEFINED;
    return RMP_SUCCESS;
}

/* MPI_Request_get_status: rmp_test's answer, the request kept live (nothing reaped). */
int rmp_request_get_status(rmp_request_t req, int *flag, rmp_status_t *status)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!flag)
        return RMP_ERR_ARG;
    struct rmp_request *r = req == RMP_REQUEST_NULL ? NULL : user_req(req);
    if (req != RMP_REQUEST_NULL && !r)
        return RMP_ERR_REQUEST;
    if (!r || is_inactive(r)) {
        *flag = 1;
        if (status)
            *status = empty_status;
        return RMP_SUCCESS;
    }
    test_one(r);
    *flag = is_done(r);
    if (!*flag)
        return RMP_SUCCESS;
    if (r->kind == REQ_GREQ)
        return greq_query(r, status);
    if (status)
        *status = r->status;
    return r->status.error;
}
