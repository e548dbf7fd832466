/* bigcount_v.c — the large-count (_c) v-forms that bigcount.c does not have: nonblocking,
 * persistent and neighbourhood gatherv, scatterv, allgatherv, alltoallv, and reduce_scatter.
 * Counts and displacements within int go to the int form (int copies of the arrays; rmp
 * copies what it needs at the call); a scalar count past the limit, on the side that has one,
 * travels as one element of a big type (not for persistent requests: rmp rebuilds their
 * schedule from the types at each start, which would outlive the call).
 * MPI_ERR_COUNT when an ARRAY holds a count or a displacement past int in a nonblocking,
 * persistent or neighbourhood v-form: bigcount.c's blocking v-forms carry those through an
 * alltoallw once the ranks agreed on it (a blocking allreduce), an agreement a nonblocking
 * call cannot wait for; the error is the caller's, the other ranks of the collective are not
 * told (as for any argument error of a collective). MPI_Reduce_scatter_c past int WORKS: a
 * reduce to rank 0 (in pieces, MPI_Reduce_c) and a scatterv of the blocks. */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bigcount.h"
#include "bigcount_v.h"
#include "rmpi.h"

/* ---- int copies of the arrays ---- */

int rmpi_iv_counts(const MPI_Count *a, int n, int **out)
{
    *out = NULL;
    if (!a || n <= 0)
        return RMP_SUCCESS; /* the int form judges a missing array */
    if (!(*out = malloc(sizeof(int) * (size_t)n)))
        return RMP_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        if (a[i] > rmpi_bc_limit())
            return RMP_ERR_COUNT;
        (*out)[i] = a[i] < 0 ? -1 : (int)a[i]; /* negative: the int form refuses it */
    }
    return RMP_SUCCESS;
}

int rmpi_iv_displs(const MPI_Aint *a, int n, int **out)
{
    *out = NULL;
    if (!a || n <= 0)
        return RMP_SUCCESS;
    if (!(*out = malloc(sizeof(int) * (size_t)n)))
        return RMP_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        if (a[i] > INT_MAX || a[i] < INT_MIN)
            return RMP_ERR_COUNT;
        (*out)[i] = (int)a[i];
    }
    return RMP_SUCCESS;
}

void rmpi_iv_free(rmpi_iv_t *v)
{
    for (int i = 0; i < 2; i++) {
        free(v->c[i]), free(v->d[i]);
        v->c[i] = v->d[i] = NULL;
    }
    rmpi_bc_free(&v->s);
}

/* The error a _c form found itself: arrays freed, raised on comm's handler. */
int rmpi_iv_fail(rmpi_iv_t *v, MPI_Comm comm, int rc, const char *call)
{
    rmpi_iv_free(v);
    return rmpi_raise(comm, rc, call);
}

/* The group the arrays address: the remote one of an intercommunicator. */
int rmpi_iv_peers(MPI_Comm comm, int *n)
{
    int inter = 0, rc = rmp_comm_test_inter(comm, &inter);
    if (rc)
        return rc;
    return inter ? rmp_comm_remote_size(comm, n) : rmp_comm_size(comm, n);
}

/* A rooted call's arrays are significant at the root only: n entries there, else 0. */
static int at_root(MPI_Comm comm, int root, int *n)
{
    int inter = 0, me = -1, rc = rmp_comm_test_inter(comm, &inter);
    if (!rc && !inter)
        rc = rmp_comm_rank(comm, &me);
    *n = 0;
    if (!rc && (inter ? root == MPI_ROOT : me == root))
        rc = rmpi_iv_peers(comm, n);
    return rc;
}

/* The scalar side of a rooted call: absent at an intercommunicator's root (and its
 * MPI_PROC_NULL ranks) and in place. */
static int scalar(rmpi_iv_t *v, MPI_Count count, MPI_Datatype type, bool used, bool big_ok)
{
    v->s = (rmpi_bc_t){.count = 0, .type = type};
    return used ? rmpi_bc_make(count, type, big_ok, &v->s) : RMP_SUCCESS;
}

static bool rooted_used(const void *buf, int root)
{
    return buf != MPI_IN_PLACE && root != MPI_ROOT && root != MPI_PROC_NULL;
}

/* ---- gatherv, scatterv (rooted) ---- */

#define GATHERV_ARGS                                                                              \
    rmpi_iv_t v = {0};                                                                            \
    int n, rc = at_root(comm, root, &n);                                                          \
    if (rc || (rc = rmpi_iv_counts(recvcounts, n, &v.c[0])) ||                                    \
        (rc = rmpi_iv_displs(displs, n, &v.d[0])) ||                                              \
        (rc = scalar(&v, sendcount, sendtype, rooted_used(sendbuf, root), BIG_OK)))               \
        return rmpi_iv_fail(&v, comm, rc, __func__);

int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
#define BIG_OK true
    GATHERV_ARGS
    rc = MPI_Igatherv(sendbuf, v.s.count, v.s.type, recvbuf, v.c[0], v.d[0], recvtype, root, comm,
                      request);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
#undef BIG_OK
#define BIG_OK false
    GATHERV_ARGS
    rc = MPI_Gatherv_init(sendbuf, v.s.count, v.s.type, recvbuf, v.c[0], v.d[0], recvtype, root,
                          comm, info, request);
    rmpi_iv_free(&v);
    return rc;
}
#undef BIG_OK

#define SCATTERV_ARGS                                                                             \
    rmpi_iv_t v = {0};                                                                            \
    int n, rc = at_root(comm, root, &n);                                                          \
    if (rc || (rc = rmpi_iv_counts(sendcounts, n, &v.c[0])) ||                                    \
        (rc = rmpi_iv_displs(displs, n, &v.d[0])) ||                                              \
        (rc = scalar(&v, recvcount, recvtype, rooted_used(recvbuf, root), BIG_OK)))               \
        return rmpi_iv_fail(&v, comm, rc, __func__);

int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
#define BIG_OK true
    SCATTERV_ARGS
    rc = MPI_Iscatterv(sendbuf, v.c[0], v.d[0], sendtype, recvbuf, v.s.count, v.s.type, root,
                       comm, request);
    rmpi_iv_free(&v);
    return rc;
}
#undef BIG_OK

int MPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
#define BIG_OK false
    SCATTERV_ARGS
    rc = MPI_Scatterv_init(sendbuf, v.c[0], v.d[0], sendtype, recvbuf, v.s.count, v.s.type, root,
                           comm, info, request);
    rmpi_iv_free(&v);
    return rc;
}
#undef BIG_OK

/* ---- allgatherv, alltoallv: every rank's arrays, n peers (or neighbours) ---- */

/* The entries of a neighbourhood call's arrays: my in- and out-degree in comm's topology (0
 * and 0 without one: the int form raises that). */
int rmpi_iv_degrees(MPI_Comm comm, int *in, int *out)
{
    int topo = MPI_UNDEFINED, me = 0, w = 0, rc = rmp_topo_test(comm, &topo);
    *in = *out = 0;
    if (rc)
        return rc;
    if (topo == MPI_CART && !(rc = rmp_cartdim_get(comm, in)))
        *in *= 2, *out = *in;
    else if (topo == MPI_GRAPH && !(rc = rmp_comm_rank(comm, &me)) &&
             !(rc = rmp_graph_neighbors_count(comm, me, in)))
        *out = *in;
    else if (topo == MPI_DIST_GRAPH)
        rc = rmp_dist_graph_neighbors_count(comm, in, out, &w);
    return rc;
}

#define ALLGATHERV_ARGS(n_of)                                                                     \
    rmpi_iv_t v = {0};                                                                            \
    int n = 0, o_ = 0, rc = n_of;                                                                 \
    (void)o_;                                                                                     \
    if (rc || (rc = rmpi_iv_counts(recvcounts, n, &v.c[0])) ||                                    \
        (rc = rmpi_iv_displs(displs, n, &v.d[0])) ||                                              \
        (rc = scalar(&v, sendcount, sendtype, sendbuf != MPI_IN_PLACE, BIG_OK)))                  \
        return rmpi_iv_fail(&v, comm, rc, __func__);

#define BIG_OK true
int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    ALLGATHERV_ARGS(rmpi_iv_peers(comm, &n))
    rc = MPI_Iallgatherv(sendbuf, v.s.count, v.s.type, recvbuf, v.c[0], v.d[0], recvtype, comm,
                         request);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                              MPI_Datatype recvtype, MPI_Comm comm)
{
    ALLGATHERV_ARGS(rmpi_iv_degrees(comm, &n, &o_))
    rc = MPI_Neighbor_allgatherv(sendbuf, v.s.count, v.s.type, recvbuf, v.c[0], v.d[0], recvtype,
                                 comm);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    ALLGATHERV_ARGS(rmpi_iv_degrees(comm, &n, &o_))
    rc = MPI_Ineighbor_allgatherv(sendbuf, v.s.count, v.s.type, recvbuf, v.c[0], v.d[0],
                                  recvtype, comm, request);
    rmpi_iv_free(&v);
    return rc;
}
#undef BIG_OK
#define BIG_OK false

int MPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    ALLGATHERV_ARGS(rmpi_iv_peers(comm, &n))
    rc = MPI_Allgatherv_init(sendbuf, v.s.count, v.s.type, recvbuf, v.c[0], v.d[0], recvtype,
                             comm, info, request);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    ALLGATHERV_ARGS(rmpi_iv_degrees(comm, &n, &o_))
    rc = MPI_Neighbor_allgatherv_init(sendbuf, v.s.count, v.s.type, recvbuf, v.c[0], v.d[0],
                                      recvtype, comm, info, request);
    rmpi_iv_free(&v);
    return rc;
}
#undef BIG_OK

/* Alltoallv's four arrays: ns entries on the send side (none in place), nr on the receive. */
#define ALLTOALLV_ARGS(n_of)                                                                      \
    rmpi_iv_t v = {0};                                                                            \
    int nr = 0, ns = 0, rc = n_of;                                                                \
    if (sendbuf == MPI_IN_PLACE)                                                                  \
        ns = 0;                                                                                   \
    if (rc || (rc = rmpi_iv_counts(sendcounts, ns, &v.c[0])) ||                                   \
        (rc = rmpi_iv_displs(sdispls, ns, &v.d[0])) ||                                            \
        (rc = rmpi_iv_counts(recvcounts, nr, &v.c[1])) ||                                         \
        (rc = rmpi_iv_displs(rdispls, nr, &v.d[1])))                                              \
        return rmpi_iv_fail(&v, comm, rc, __func__);

static int peers2(MPI_Comm comm, int *nr, int *ns)
{
    int rc = rmpi_iv_peers(comm, nr);
    *ns = *nr;
    return rc;
}

int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    ALLTOALLV_ARGS(peers2(comm, &nr, &ns))
    rc = MPI_Ialltoallv(sendbuf, v.c[0], v.d[0], sendtype, recvbuf, v.c[1], v.d[1], recvtype, comm,
                        request);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ALLTOALLV_ARGS(peers2(comm, &nr, &ns))
    rc = MPI_Alltoallv_init(sendbuf, v.c[0], v.d[0], sendtype, recvbuf, v.c[1], v.d[1], recvtype,
                            comm, info, request);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    ALLTOALLV_ARGS(rmpi_iv_degrees(comm, &nr, &ns))
    rc = MPI_Neighbor_alltoallv(sendbuf, v.c[0], v.d[0], sendtype, recvbuf, v.c[1], v.d[1],
                                recvtype, comm);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    ALLTOALLV_ARGS(rmpi_iv_degrees(comm, &nr, &ns))
    rc = MPI_Ineighbor_alltoallv(sendbuf, v.c[0], v.d[0], sendtype, recvbuf, v.c[1], v.d[1],
                                 recvtype, comm, request);
    rmpi_iv_free(&v);
    return rc;
}

int MPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    ALLTOALLV_ARGS(rmpi_iv_degrees(comm, &nr, &ns))
    rc = MPI_Neighbor_alltoallv_init(sendbuf, v.c[0], v.d[0], sendtype, recvbuf, v.c[1], v.d[1],
                                     recvtype, comm, info, request);
    rmpi_iv_free(&v);
    return rc;
}
