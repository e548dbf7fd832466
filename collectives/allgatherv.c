/* allgatherv.c — every rank gets every rank's block, block i (recvcounts[i] elements) landing
 * at displs[i]. Ring: n-1 steps, each passing to the right the block received in the step
 * before (its own first); blocks of any sizes, and each link carries each block once. A block
 * longer than its slot is cut to it and gives RMP_ERR_TRUNCATE to every rank (sched.c passes
 * the error along the ring); every rank still runs the whole collective. */
#include "coll.h"
#include "inter.h"

int rmp_iallgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                    rmp_comm_t comm, rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                 recvtype, comm, req);
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt = NULL;
    size_t sbytes = 0;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int err = coll_comm(comm, &cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err && !in_place)
        err = coll_buf(sendbuf, sendcount, sendtype, 1, &sdt, &sbytes);
    if (!err)
        err = coll_vbuf(recvbuf, recvcounts, displs, cl.size, recvtype, &rdt);
    if (!err && !in_place && recvcounts[cl.rank] > 0)
        err = coll_alias(sendbuf, recvbuf, (ptrdiff_t)displs[cl.rank] * rdt->extent);
    coll_sign(&cl, CK_ALLGATHERV, -1, -1, RMP_OP_NULL, NULL);
    sched_t *s = err ? NULL : coll_sched(&cl);
    if (err || !s)
        return err ? err : RMP_ERR_NO_MEM;
    int n = cl.size, me = cl.rank;
    vview_t out; /* in place, our own block must survive the trip through a temporary */
    const char *in = in_place ? NULL : coll_in(s, sendbuf, sendcount, 1, sdt);
    if (coll_vout(s, recvbuf, recvcounts, displs, n, rdt, in_place, &out)) {
        if (in) {
            size_t mine = out.bytes[me];
            if (sbytes > mine)
                sched_truncated(s);
            sched_copy(s, out.at[me], in, sbytes < mine ? sbytes : mine);
            sched_round(s);
        }
        int right = (me + 1) % n, left = (me - 1 + n) % n;
        for (int k = 0; k < n - 1; k++) {
            int sb = (me - k + n) % n, rb = (me - k - 1 + n) % n;
            sched_send(s, right, out.at[sb], out.bytes[sb]);
            sched_recv(s, left, out.at[rb], out.bytes[rb]);
            sched_round(s);
        }
    }
    return sched_post(s, req);
}

int rmp_allgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                   rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, comm, &r),
                      &r);
}
