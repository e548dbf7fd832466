/* greq.c — generalized requests from Fortran: MPI_Grequest_start with Fortran query, free and
 * cancel procedures, which take every argument by reference (the extra state as an
 * INTEGER(KIND=MPI_ADDRESS_KIND), cancel's flag as a LOGICAL) and give their error in ierror.
 * C calls the trampolines here, the request's extra state naming the Fortran procedures. The
 * callbacks get the program's own extra_state variable (as with MPICH: a free_fn that changes
 * it changes the caller's), so it must outlive the request. */
#include "rmpif.h"

typedef void rmpif_query_fn(MPI_Aint *extra, MPI_Fint *status, MPI_Fint *ierr);
typedef void rmpif_free_fn(MPI_Aint *extra, MPI_Fint *ierr);
typedef void rmpif_cancel_fn(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierr);

/* One request's procedures; freed by the free trampoline, which C calls once per request. */
typedef struct rmpif_greq {
    rmpif_query_fn *query;
    rmpif_free_fn *free;
    rmpif_cancel_fn *cancel;
    MPI_Aint *extra;
} rmpif_greq_t;

static int greq_query(void *extra, MPI_Status *status)
{
    rmpif_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->query(g->extra, (MPI_Fint *)(void *)status, &ierr);
    return ierr;
}

static int greq_free(void *extra)
{
    rmpif_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(g->extra, &ierr);
    free(g);
    return ierr;
}

static int greq_cancel(void *extra, int complete)
{
    rmpif_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS, fcomplete = complete ? RMPIF_TRUE : RMPIF_FALSE;
    g->cancel(g->extra, &fcomplete, &ierr);
    return ierr;
}

RMPIF_API void pmpi_grequest_start_(void (*query)(void), void (*freefn)(void),
                                    void (*cancel)(void), MPI_Aint *extra, MPI_Fint *request,
                                   MPI_Fint *ierr)
{
    rmpif_greq_t *g = malloc(sizeof(*g));
    if (!g) {
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    *g = (rmpif_greq_t){(rmpif_query_fn *)query, (rmpif_free_fn *)freefn,
                        (rmpif_cancel_fn *)cancel, extra};
    MPI_Request req = MPI_REQUEST_NULL;
    *ierr = MPI_Grequest_start(greq_query, greq_free, greq_cancel, g, &req);
    if (*ierr != MPI_SUCCESS) {
        free(g);
        return;
    }
    *request = MPI_Request_c2f(req);
}

/* The MPI_ names, weak: a Fortran profiling tool defines its own and calls the PMPI_ ones. */
RMPIF_MPI_ALIAS(mpi_grequest_start_);
