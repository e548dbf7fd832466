/* alltoallv.c — alltoallv and alltoallw (a type per block, displacements in bytes): rank i
 * sends sendcounts[j] elements at sdispls[j] to rank j, which receives
 * them as recvcounts[i] elements at rdispls[i]. Linear: every exchange is posted at once, in
 * the order (me + k, me - k) so that the ranks do not all start with the same peer. In place
 * (sendbuf RMP_IN_PLACE), the outgoing blocks are copied out of recvbuf in a first round,
 * before anything is received into it. A block longer than its slot is cut to it and gives
 * RMP_ERR_TRUNCATE to its receiver. */
#include <stdlib.h>

#include "coll.h"
#include "inter.h"

/* The outgoing blocks of an in-place alltoallv: copies of recvbuf's blocks. */
static bool copy_out(sched_t *s, const vview_t *from, int n, vview_t *to)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += from->bytes[i];
    to->at = sched_tmp(s, sizeof(char *) * (size_t)n);
    to->bytes = from->bytes;
    char *p = sched_tmp(s, total);
    if (!to->at || !p)
        return false;
    for (int i = 0; i < n; i++) {
        to->at[i] = p;
        sched_copy(s, p, from->at[i], from->bytes[i]);
        p += from->bytes[i];
    }
    sched_round(s);
    return true;
}

/* Posts the exchange once both views exist (ok false: out of memory, reported by
 * sched_post). In place, the outgoing blocks are copies of out's. */
static int exchange(sched_t *s, const coll_t *cl, bool ok, bool in_place, vview_t *in,
                    vview_t *out, rmp_request_t *req)
{
    int n = cl->size, me = cl->rank;
    if (ok && in_place)
        ok = copy_out(s, out, n, in);
    if (ok) {
        if (in->bytes[me] > out->bytes[me])
            sched_truncated(s);
        sched_copy(s, out->at[me], in->at[me],
                   in->bytes[me] < out->bytes[me] ? in->bytes[me] : out->bytes[me]);
        for (int k = 1; k < n; k++) {
            int to = (me + k) % n, from = (me - k + n) % n;
            sched_recv(s, from, out->at[from], out->bytes[from]);
            sched_send(s, to, in->at[to], in->bytes[to]);
        }
    }
    return sched_post(s, req);
}

int rmp_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                   rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                rdispls, recvtype, comm, req);
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt = NULL;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int err = coll_comm(comm, &cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err && !in_place)
        err = coll_vbuf(sendbuf, sendcounts, sdispls, cl.size, sendtype, &sdt);
    if (!err)
        err = coll_vbuf(recvbuf, recvcounts, rdispls, cl.size, recvtype, &rdt);
    if (!err && !in_place)
        err = coll_alias(sendbuf, recvbuf, 0);
    coll_sign(&cl, CK_ALLTOALLV, -1, -1, RMP_OP_NULL, NULL);
    sched_t *s = err ? NULL : coll_sched(&cl);
    if (err || !s)
        return err ? err : RMP_ERR_NO_MEM;
    vview_t in, out;
    bool ok = coll_vout(s, recvbuf, recvcounts, rdispls, cl.size, rdt, in_place, &out) &&
              (in_place || coll_vin(s, sendbuf, sendcounts, sdispls, cl.size, sdt, &in));
    return exchange(s, &cl, ok, in_place, &in, &out, req);
}

int rmp_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                   rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                rdispls, recvtypes, comm, req);
    coll_t cl;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int err = coll_comm(comm, &cl);
    const dtype_t **sdt = err ? NULL : calloc((size_t)cl.size * 2, sizeof(*sdt));
    const dtype_t **rdt = sdt ? sdt + cl.size : NULL;
    if (!err && !sdt)
        err = RMP_ERR_NO_MEM;
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err && !in_place)
        err = coll_wbuf(sendbuf, sendcounts, sdispls, sendtypes, cl.size, sdt);
    if (!err)
        err = coll_wbuf(recvbuf, recvcounts, rdispls, recvtypes, cl.size, rdt);
    /* no alias check here: MPI's big-count forms send from the receive buffer through
     * disjoint types (mpi/bigcount.c); MPI_Alltoallw checks (rmpi_w_alias) */
    coll_sign(&cl, CK_ALLTOALLW, -1, -1, RMP_OP_NULL, NULL);
    sched_t *s = err ? NULL : coll_sched(&cl);
    if (err || !s) {
        free(sdt);
        return err ? err : RMP_ERR_NO_MEM;
    }
    vview_t in, out; /* the views copy what they need of the type arrays */
    bool ok = coll_wout(s, recvbuf, recvcounts, rdispls, rdt, cl.size, in_place, &out) &&
              (in_place || coll_win(s, sendbuf, sendcounts, sdispls, sdt, cl.size, &in));
    free(sdt);
    return exchange(s, &cl, ok, in_place, &in, &out, req);
}

int rmp_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                     rdispls, recvtype, comm, &r),
                      &r);
}

int rmp_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                     recvcounts, rdispls, recvtypes, comm, &r),
                      &r);
}
