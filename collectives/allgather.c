/* allgather.c — ring allgather: each rank puts its block in its slot, then in n-1 steps
 * passes to its right neighbour the block it received in the previous step (its own first),
 * receiving a new block from its left neighbour. Bandwidth-optimal; n-1 latencies. */
#include "coll.h"

static int allgather_ring(coll_t *cl, char *res, size_t blk)
{
    int n = cl->size, right = (cl->rank + 1) % n, left = (cl->rank - 1 + n) % n;
    int err = RMP_SUCCESS;
    for (int s = 0; s < n - 1 && !err; s++) {
        int out = (cl->rank - s + n) % n, in = (cl->rank - s - 1 + n) % n;
        err = coll_sendrecv(cl, res + (size_t)out * blk, blk, right, res + (size_t)in * blk, blk,
                            left);
    }
    return err;
}

int rmp_allgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                  int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm)
{
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt;
    size_t sbytes = 0, rbytes;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int err = coll_comm(comm, &cl);
    if (!err && !in_place)
        err = coll_buf(sendbuf, sendcount, sendtype, 1, &sdt, &sbytes);
    if (!err)
        err = coll_buf(recvbuf, recvcount, recvtype, cl.size, &rdt, &rbytes);
    if (!err && sbytes > rbytes)
        err = RMP_ERR_TRUNCATE;
    if (err)
        return err;
    coll_start(&cl);
    coll_view_t v;
    /* in place, our own block must survive the trip through a temporary */
    if ((err =
             coll_view(&v, recvbuf, recvcount, cl.size, rdt, COLL_OUT | (in_place ? COLL_IN : 0))))
        return err;
    if (!in_place)
        dtype_pack(sdt, sendcount, sendbuf, v.p + (size_t)cl.rank * rbytes);
    if (rbytes > 0)
        err = allgather_ring(&cl, v.p, rbytes);
    coll_view_end(&v, err == RMP_SUCCESS);
    return err;
}
