/* gatherv.c — gather and scatter with a block size per rank: rank i's block goes to (comes
 * from) the root's buffer at displs[i], counts[i] elements of the root's type. Linear, as Open
 * MPI and MPICH do by default: each block goes straight between its rank and its slot at the
 * root (a tree would forward unequal blocks through ranks that keep none of them). A block
 * longer than its slot is cut to it and gives RMP_ERR_TRUNCATE where it lands (gather: the
 * root; scatter: the receiver); every rank still runs the whole collective. */
#include "coll.h"
#include "inter.h"

int rmp_igatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], rmp_datatype_t recvtype, int root,
                 rmp_comm_t comm, rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                              root, comm, req);
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt = NULL;
    size_t sbytes = 0;
    bool in_place = sendbuf == RMP_IN_PLACE;
    bool am_root;
    int err = coll_rooted(comm, req, root, in_place, &cl, &am_root);
    if (!err && !in_place)
        err = coll_buf(sendbuf, sendcount, sendtype, 1, &sdt, &sbytes);
    if (!err && am_root)
        err = coll_vbuf(recvbuf, recvcounts, displs, cl.size, recvtype, &rdt);
    if (!err && am_root && !in_place && recvcounts[cl.rank] > 0)
        err = coll_alias(sendbuf, recvbuf, (ptrdiff_t)displs[cl.rank] * rdt->extent);
    coll_sign(&cl, CK_GATHERV, root, -1, RMP_OP_NULL, NULL);
    sched_t *s = err ? NULL : coll_sched(&cl);
    if (err || !s)
        return err ? err : RMP_ERR_NO_MEM;
    const char *in = in_place ? NULL : coll_in(s, sendbuf, sendcount, 1, sdt);
    if (!am_root) {
        if (in || sbytes == 0)
            sched_send(s, root, in, sbytes);
        return sched_post(s, req);
    }
    vview_t out; /* in place, the root's own block is in its slot already: keep it */
    if (coll_vout(s, recvbuf, recvcounts, displs, cl.size, rdt, in_place, &out)) {
        if (in) {
            size_t mine = out.bytes[root];
            if (sbytes > mine)
                sched_truncated(s);
            sched_copy(s, out.at[root], in, sbytes < mine ? sbytes : mine);
        }
        for (int i = 0; i < cl.size; i++)
            if (i != root)
                sched_recv(s, i, out.at[i], out.bytes[i]);
    }
    return sched_post(s, req);
}

int rmp_gatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], rmp_datatype_t recvtype, int root,
                rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, root, comm, &r),
                      &r);
}

int rmp_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  rmp_datatype_t sendtype, void *recvbuf, int recvcount,
                  rmp_datatype_t recvtype, int root, rmp_comm_t comm, rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                               root, comm, req);
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt = NULL;
    size_t rbytes = 0;
    bool in_place = recvbuf == RMP_IN_PLACE;
    bool am_root;
    int err = coll_rooted(comm, req, root, in_place, &cl, &am_root);
    if (!err && am_root)
        err = coll_vbuf(sendbuf, sendcounts, displs, cl.size, sendtype, &sdt);
    if (!err && !in_place)
        err = coll_buf(recvbuf, recvcount, recvtype, 1, &rdt, &rbytes);
    if (!err && am_root && !in_place && sendcounts[cl.rank] > 0)
        err = coll_alias(recvbuf, sendbuf, (ptrdiff_t)displs[cl.rank] * sdt->extent);
    coll_sign(&cl, CK_SCATTERV, root, -1, RMP_OP_NULL, NULL);
    sched_t *s = err ? NULL : coll_sched(&cl);
    if (err || !s)
        return err ? err : RMP_ERR_NO_MEM;
    char *out = in_place ? NULL : coll_out(s, recvbuf, recvcount, 1, rdt, false);
    if (!am_root) {
        if (out || rbytes == 0)
            sched_recv(s, root, out, rbytes);
        return sched_post(s, req);
    }
    vview_t in;
    if (coll_vin(s, sendbuf, sendcounts, displs, cl.size, sdt, &in)) {
        if (out) { /* in place, the root's block stays where it is */
            size_t mine = in.bytes[root];
            if (mine > rbytes)
                sched_truncated(s);
            sched_copy(s, out, in.at[root], mine < rbytes ? mine : rbytes);
        }
        for (int i = 0; i < cl.size; i++)
            if (i != root)
                sched_send(s, i, in.at[i], in.bytes[i]);
    }
    return sched_post(s, req);
}

int rmp_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 rmp_datatype_t sendtype, void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                 int root, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                    recvtype, root, comm, &r),
                      &r);
}
