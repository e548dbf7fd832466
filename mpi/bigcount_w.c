/* bigcount_w.c — the large-count (_c) alltoallw forms (plain, nonblocking, persistent,
 * neighbourhood) and reduce_scatter. An alltoallw has a type per peer, so every peer's
 * (count, byte displacement, type) is decided alone, with no agreement among the ranks: within
 * int it goes to the int form as it is; past int it WORKS as (1, 0, a type of our own: the
 * count elements, past the limit as one big element, at that displacement). Persistent forms
 * take no type of ours (rmp rebuilds their schedule from the types at each start): MPI_ERR_COUNT
 * there, as for ireduce_scatter and reduce_scatter_init with a count past int (reduce_scatter
 * past int WORKS: a reduce to rank 0, in pieces (MPI_Reduce_c), then a scatterv of the blocks
 * (MPI_Scatterv_c); every rank sees the same recvcounts, so all take the same path). */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bigcount.h"
#include "bigcount_v.h"
#include "rmpi.h"

typedef struct wside {
    int *counts, *displs;
    MPI_Aint *adispls; /* the same, for the neighbourhood forms (MPI_Aint in their int form) */
    MPI_Datatype *types;
    bool *own;
    int n;
} wside_t;

static void w_free(wside_t *w)
{
    for (int i = 0; w->own && i < w->n; i++)
        if (w->own[i])
            rmp_type_free(&w->types[i]);
    free(w->counts), free(w->displs), free(w->adispls), free(w->types), free(w->own);
    *w = (wside_t){0};
}

/* count elements of type at byte displ, as one element of a new type. */
static int w_block(MPI_Count count, MPI_Aint displ, MPI_Datatype type, MPI_Datatype *out)
{
    rmpi_bc_t v;
    int rc = rmpi_bc_make(count, type, true, &v);
    if (rc)
        return rc;
    ptrdiff_t at = displ;
    rc = rmp_type_create_hindexed(1, &v.count, &at, v.type, out);
    rmpi_bc_free(&v);
    if (!rc && (rc = rmp_type_commit(out)))
        rmp_type_free(out);
    return rc;
}

/* n peers' (count, displ, type); NULL arrays stay NULL (the int form judges them). */
static int w_make(wside_t *w, int n, const MPI_Count *counts, const MPI_Aint *displs,
                  const MPI_Datatype *types, bool big_ok)
{
    *w = (wside_t){.n = n};
    if (n <= 0 || !counts || !displs || !types)
        return RMP_SUCCESS;
    w->counts = malloc(sizeof(int) * (size_t)n);
    w->displs = malloc(sizeof(int) * (size_t)n);
    w->adispls = malloc(sizeof(MPI_Aint) * (size_t)n);
    w->types = malloc(sizeof(MPI_Datatype) * (size_t)n);
    w->own = calloc((size_t)n, sizeof(bool));
    if (!w->counts || !w->displs || !w->adispls || !w->types || !w->own)
        return RMP_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        w->types[i] = types[i];
        if (counts[i] <= rmpi_bc_limit() && displs[i] >= INT_MIN && displs[i] <= INT_MAX) {
            w->counts[i] = counts[i] < 0 ? -1 : (int)counts[i];
            w->displs[i] = (int)displs[i];
            w->adispls[i] = displs[i];
            continue;
        }
        if (!big_ok)
            return RMP_ERR_COUNT;
        int rc = w_block(counts[i], displs[i], types[i], &w->types[i]);
        if (rc)
            return rc;
        w->own[i] = true;
        w->counts[i] = 1;
        w->displs[i] = 0;
        w->adispls[i] = 0;
    }
    return RMP_SUCCESS;
}

/* Both sides of an alltoallw: ns and nr peers (the send side absent in place). */
static int w_both(wside_t *s, wside_t *r, const void *sendbuf, int ns, int nr,
                  const MPI_Count *sc, const MPI_Aint *sd, const MPI_Datatype *st,
                  const MPI_Count *rc_, const MPI_Aint *rd, const MPI_Datatype *rt, bool big_ok)
{
    int rc = w_make(s, sendbuf == MPI_IN_PLACE ? 0 : ns, sc, sd, st, big_ok);
    if (!rc)
        rc = w_make(r, nr, rc_, rd, rt, big_ok);
    return rc;
}

static int w_done(wside_t *s, wside_t *r, MPI_Comm comm, int rc, bool mine, const char *call)
{
    w_free(s);
    w_free(r);
    return mine ? rmpi_raise(comm, rc, call) : rc;
}

#define W_ARGS sendcounts, sdispls, sendtypes, recvcounts, rdispls, recvtypes
#define W_CALL(s, r) s.counts, s.displs, s.types, recvbuf, r.counts, r.displs, r.types
#define W_CALLA(s, r) s.counts, s.adispls, s.types, recvbuf, r.counts, r.adispls, r.types

int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    wside_t s = {0}, r = {0};
    int n = 0, rc = rmpi_iv_peers(comm, &n);
    if (rc || (rc = w_both(&s, &r, sendbuf, n, n, W_ARGS, true)))
        return w_done(&s, &r, comm, rc, true, __func__);
    return w_done(&s, &r, comm, MPI_Alltoallw(sendbuf, W_CALL(s, r), comm), false, __func__);
}

int MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                     MPI_Request *request)
{
    wside_t s = {0}, r = {0};
    int n = 0, rc = rmpi_iv_peers(comm, &n);
    if (rc || (rc = w_both(&s, &r, sendbuf, n, n, W_ARGS, true)))
        return w_done(&s, &r, comm, rc, true, __func__);
    rc = MPI_Ialltoallw(sendbuf, W_CALL(s, r), comm, request); /* freed types live on in it */
    return w_done(&s, &r, comm, rc, false, __func__);
}

int MPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    wside_t s = {0}, r = {0};
    int n = 0, rc = rmpi_iv_peers(comm, &n);
    if (rc || (rc = w_both(&s, &r, sendbuf, n, n, W_ARGS, false)))
        return w_done(&s, &r, comm, rc, true, __func__);
    rc = MPI_Alltoallw_init(sendbuf, W_CALL(s, r), comm, info, request);
    return w_done(&s, &r, comm, rc, false, __func__);
}

int MPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    wside_t s = {0}, r = {0};
    int nr = 0, ns = 0, rc = rmpi_iv_degrees(comm, &nr, &ns);
    if (rc || (rc = w_both(&s, &r, sendbuf, ns, nr, W_ARGS, true)))
        return w_done(&s, &r, comm, rc, true, __func__);
    rc = MPI_Neighbor_alltoallw(sendbuf, W_CALLA(s, r), comm);
    return w_done(&s, &r, comm, rc, false, __func__);
}

int MPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    wside_t s = {0}, r = {0};
    int nr = 0, ns = 0, rc = rmpi_iv_degrees(comm, &nr, &ns);
    if (rc || (rc = w_both(&s, &r, sendbuf, ns, nr, W_ARGS, true)))
        return w_done(&s, &r, comm, rc, true, __func__);
    rc = MPI_Ineighbor_alltoallw(sendbuf, W_CALLA(s, r), comm, request);
    return w_done(&s, &r, comm, rc, false, __func__);
}

int MPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                  void *recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    wside_t s = {0}, r = {0};
    int nr = 0, ns = 0, rc = rmpi_iv_degrees(comm, &nr, &ns);
    if (rc || (rc = w_both(&s, &r, sendbuf, ns, nr, W_ARGS, false)))
        return w_done(&s, &r, comm, rc, true, __func__);
    rc = MPI_Neighbor_alltoallw_init(sendbuf, W_CALLA(s, r), comm, info, request);
    return w_done(&s, &r, comm, rc, false, __func__);
}

/* ---- reduce_scatter ---- */

/* Past int: the whole reduced at rank 0 (tmp), then block i scattered to rank i. */
static int rs_big(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], int n,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int me = 0, rc = rmp_comm_rank(comm, &me);
    MPI_Aint *displs = malloc(sizeof(MPI_Aint) * (size_t)n);
    ptrdiff_t lb, ext, tlb, text;
    MPI_Count total = 0;
    char *tmp = NULL;
    if (!rc && !displs)
        rc = RMP_ERR_NO_MEM;
    for (int i = 0; !rc && i < n; i++) {
        if (recvcounts[i] < 0)
            rc = RMP_ERR_COUNT;
        displs[i] = (MPI_Aint)total;
        total += recvcounts[i];
    }
    if (!rc && !(rc = rmp_type_get_extent(datatype, &lb, &ext)) &&
        !(rc = rmp_type_get_true_extent(datatype, &tlb, &text)) && me == 0 && total > 0 &&
        !(tmp = malloc((size_t)((total - 1) * ext + text))))
        rc = RMP_ERR_NO_MEM;
    if (rc) {
        free(displs);
        return rmpi_raise(comm, rc, "MPI_Reduce_scatter_c");
    }
    char *base = tmp ? tmp - tlb : NULL;
    const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    int code = MPI_Reduce_c(in, base, total, datatype, op, 0, comm);
    if (code == MPI_SUCCESS)
        code = MPI_Scatterv_c(base, recvcounts, displs, datatype, recvbuf, recvcounts[me],
                              datatype, 0, comm);
    free(tmp);
    free(displs);
    return code;
}

int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    rmpi_iv_t v = {0};
    int n = 0, inter = 0, rc = rmp_comm_size(comm, &n);
    if (!rc && !(rc = rmp_comm_test_inter(comm, &inter)) &&
        (rc = rmpi_iv_counts(recvcounts, n, &v.c[0])) == RMP_ERR_COUNT && !inter) {
        rmpi_iv_free(&v);
        return rs_big(sendbuf, recvbuf, recvcounts, n, datatype, op, comm);
    }
    if (rc)
        return rmpi_iv_fail(&v, comm, rc, __func__);
    rc = MPI_Reduce_scatter(sendbuf, recvbuf, v.c[0], datatype, op, comm);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    rmpi_iv_t v = {0};
    int n = 0, rc = rmp_comm_size(comm, &n);
    if (rc || (rc = rmpi_iv_counts(recvcounts, n, &v.c[0])))
        return rmpi_iv_fail(&v, comm, rc, __func__);
    rc = MPI_Ireduce_scatter(sendbuf, recvbuf, v.c[0], datatype, op, comm, request);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    rmpi_iv_t v = {0};
    int n = 0, rc = rmp_comm_size(comm, &n);
    if (rc || (rc = rmpi_iv_counts(recvcounts, n, &v.c[0])))
        return rmpi_iv_fail(&v, comm, rc, __func__);
    rc = MPI_Reduce_scatter_init(sendbuf, recvbuf, v.c[0], datatype, op, comm, info, request);
    rmpi_iv_free(&v);
    return rc;
}
