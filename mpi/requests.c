/* requests.c — MPI_Testany, the status setters and MPI_Test_cancelled, and generalized
 * requests over rmp's (issue 20). A generalized request's callbacks are MPI functions (MPI
 * statuses, MPI error codes): rmp calls small adapters here, which hand the status over as
 * the MPI_Status it is (the same object, mpi.h) and turn the codes into rmp's. */
#include <stdlib.h>

#include "rmpi.h"

int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_testany(count, array_of_requests, index, flag, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_request_get_status(request, flag, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_test_cancelled(status ? &status->rmp_status_ : NULL, flag), __func__);
}

int MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_status_set_cancelled(rmpi_st(status), flag),
                      __func__);
}

int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_status_set_elements(rmpi_st(status), datatype, count),
                      __func__);
}

int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_status_set_elements(rmpi_st(status), datatype, count),
                      __func__);
}

/* ---- generalized requests ---- */

typedef struct mgreq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
} mgreq_t;

/* The rmp error for an MPI code a callback returned: the rmp error whose code it is exactly,
 * else the code itself carried through rmp (rmpi_foreign), so that the wait or test that
 * completes the request returns the callback's own code, as MPI says. */
static int rmp_err_of(int code)
{
    if (code == MPI_SUCCESS)
        return RMP_SUCCESS;
    for (int e = -1; e > RMP_ERR_LAST; e--)
        if (rmpi_code(e) == code)
            return e;
    return rmpi_foreign(code);
}

static int mgreq_query(void *extra, rmp_status_t *st)
{
    mgreq_t *g = extra;
    /* the status rmp passes is an MPI_Status (the same object, mpi.h's union) */
    return rmp_err_of(g->query(g->extra, (MPI_Status *)(void *)st));
}

static int mgreq_free(void *extra)
{
    mgreq_t *g = extra;
    int rc = g->free(g->extra);
    free(g);
    return rmp_err_of(rc);
}

static int mgreq_cancel(void *extra, int complete)
{
    mgreq_t *g = extra;
    return rmp_err_of(g->cancel(g->extra, complete));
}

int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                       MPI_Grequest_free_function *free_fn,
                       MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                       MPI_Request *request)
{
    if (!query_fn || !free_fn || !cancel_fn || !request)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    mgreq_t *g = malloc(sizeof(*g));
    if (!g)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_NO_MEM, __func__);
    *g = (mgreq_t){.query = query_fn, .free = free_fn, .cancel = cancel_fn, .extra = extra_state};
    int rc = rmp_grequest_start(mgreq_query, mgreq_free, mgreq_cancel, g, request);
    if (rc != RMP_SUCCESS)
        free(g);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Grequest_complete(MPI_Request request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_grequest_complete(request), __func__);
}
