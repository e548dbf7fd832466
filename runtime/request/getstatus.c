/* getstatus.c — MPI-4.1's rmp_request_get_status over arrays (all, any, some): what testall,
 * testany and testsome would answer, with every request left live (nothing freed, no
 * persistent request made inactive), built on rmp_request_get_status for each. */
#include "core.h"

/* Is handle h one the program still has to complete (not RMP_REQUEST_NULL, not an inactive
 * persistent request)? RMP_ERR_REQUEST for a handle that names no live request. */
static int gs_active(rmp_request_t h, bool *active)
{
    *active = false;
    if (h == RMP_REQUEST_NULL)
        return RMP_SUCCESS;
    struct rmp_request *r = req_lookup(h);
    if (!r || r->kind == REQ_MSG || r->orphan)
        return RMP_ERR_REQUEST;
    *active = !r->persistent || r->active;
    return RMP_SUCCESS;
}

/* The arguments every form checks; *nactive: how many are active. */
static int gs_check(int count, const rmp_request_t reqs[], const void *out, int *nactive)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (count < 0)
        return RMP_ERR_COUNT;
    if ((count > 0 && !reqs) || !out)
        return RMP_ERR_ARG;
    *nactive = 0;
    for (int i = 0; i < count; i++) {
        bool a;
        if ((rc = gs_active(reqs[i], &a)))
            return rc;
        *nactive += a;
    }
    return RMP_SUCCESS;
}

/* The error of several statuses: RMP_ERR_IN_STATUS when they are kept, else the first. */
static int gs_errors(int nerr, int first, const rmp_status_t statuses[])
{
    return nerr == 0 ? RMP_SUCCESS : statuses ? RMP_ERR_IN_STATUS : first;
}

int rmp_request_get_status_all(int count, rmp_request_t reqs[], int *flag, rmp_status_t statuses[])
{
    int nactive, rc = gs_check(count, reqs, flag, &nactive);
    if (rc)
        return rc;
    for (int i = 0; i < count; i++) { /* statuses only once every one is complete */
        int f = 0;
        (void)rmp_request_get_status(reqs[i], &f, RMP_STATUS_IGNORE);
        if (!f) {
            *flag = 0;
            return RMP_SUCCESS;
        }
    }
    int nerr = 0, first = RMP_SUCCESS, f;
    for (int i = 0; i < count; i++) {
        int e = rmp_request_get_status(reqs[i], &f, statuses ? &statuses[i] : RMP_STATUS_IGNORE);
        if (e && nerr++ == 0)
            first = e;
    }
    *flag = 1;
    return gs_errors(nerr, first, statuses);
}

int rmp_request_get_status_any(int count, rmp_request_t reqs[], int *index, int *flag,
                               rmp_status_t *status)
{
    int nactive, rc = gs_check(count, reqs, flag, &nactive);
    if (!rc && !index)
        rc = RMP_ERR_ARG;
    if (rc)
        return rc;
    *index = RMP_UNDEFINED;
    *flag = nactive == 0; /* none active: the empty status */
    if (nactive == 0)
        return rmp_request_get_status(RMP_REQUEST_NULL, flag, status);
    for (int i = 0; i < count; i++) {
        bool a;
        (void)gs_active(reqs[i], &a);
        if (!a)
            continue;
        rc = rmp_request_get_status(reqs[i], flag, status);
        if (*flag) {
            *index = i;
            return rc;
        }
    }
    return RMP_SUCCESS;
}

int rmp_request_get_status_some(int incount, rmp_request_t reqs[], int *outcount, int indices[],
                                rmp_status_t statuses[])
{
    int nactive, rc = gs_check(incount, reqs, outcount, &nactive);
    if (!rc && incount > 0 && !indices)
        rc = RMP_ERR_ARG;
    if (rc)
        return rc;
    if (nactive == 0) {
        *outcount = RMP_UNDEFINED;
        return RMP_SUCCESS;
    }
    int n = 0, nerr = 0, first = RMP_SUCCESS;
    for (int i = 0; i < incount; i++) {
        bool a;
        int f = 0;
        (void)gs_active(reqs[i], &a);
        if (!a)
            continue;
        int e = rmp_request_get_status(reqs[i], &f, statuses ? &statuses[n] : RMP_STATUS_IGNORE);
        if (!f)
            continue;
        if (e && nerr++ == 0)
            first = e;
        indices[n++] = i;
    }
    *outcount = n;
    return gs_errors(nerr, first, statuses);
}
