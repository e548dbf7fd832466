/* gather.c — linear gather: the root posts one receive per rank straight into its slot of
 * the result and waits for them all; the others send once. Simple and correct for every
 * size; a binomial tree comes with the schedule-based version. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

typedef struct gather_args {
    const void *sendbuf;
    int sendcount;
    const dtype_t *sdt, *rdt;
    size_t sbytes, rbytes; /* packed bytes sent by one rank / one slot at the root */
} gather_args_t;

/* Checks: the send side everywhere (unless RMP_IN_PLACE at the root), the receive side only
 * at the root, where it is significant. A rank's data longer than its slot truncates. */
static int gather_check(coll_t *cl, gather_args_t *a, rmp_datatype_t sendtype, void *recvbuf,
                        int recvcount, rmp_datatype_t recvtype, int root)
{
    bool in_place = a->sendbuf == RMP_IN_PLACE, am_root = cl->rank == root;
    int err = coll_root(cl, root);
    if (!err && in_place && !am_root)
        err = RMP_ERR_BUFFER;
    if (!err && !in_place)
        err = coll_buf(a->sendbuf, a->sendcount, sendtype, 1, &a->sdt, &a->sbytes);
    if (!err && am_root)
        err = coll_buf(recvbuf, recvcount, recvtype, cl->size, &a->rdt, &a->rbytes);
    if (!err && am_root && !in_place && a->sbytes > a->rbytes)
        err = RMP_ERR_TRUNCATE;
    return err;
}

static int gather_root(coll_t *cl, const gather_args_t *a, char *res)
{
    if (a->sendbuf != RMP_IN_PLACE)
        dtype_pack(a->sdt, a->sendcount, a->sendbuf, res + (size_t)cl->rank * a->rbytes);
    rmp_request_t *reqs = calloc((size_t)cl->size, sizeof(*reqs));
    if (!reqs)
        return RMP_ERR_NO_MEM;
    int err = RMP_SUCCESS;
    for (int i = 0; i < cl->size && !err; i++)
        if (i != cl->rank)
            err = p2p_irecv_bytes(cl->comm, COLL_CTXOFF, res + (size_t)i * a->rbytes, a->rbytes, i,
                                  cl->tag, &reqs[i]);
    err = coll_wait(cl->size, reqs, err);
    free(reqs);
    return err;
}

int rmp_gather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
               int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm)
{
    coll_t cl;
    gather_args_t a = {.sendbuf = sendbuf, .sendcount = sendcount};
    int err = coll_comm(comm, &cl);
    if (!err)
        err = gather_check(&cl, &a, sendtype, recvbuf, recvcount, recvtype, root);
    if (err)
        return err;
    coll_start(&cl);
    coll_view_t v;
    if (cl.rank != root) {
        if ((err = coll_view(&v, sendbuf, sendcount, 1, a.sdt, COLL_IN)))
            return err;
        err = coll_sendrecv(&cl, v.p, a.sbytes, root, NULL, 0, -1);
        coll_view_end(&v, false);
        return err;
    }
    /* in place, the root's own slot must survive the trip through a temporary */
    int flags = COLL_OUT | (sendbuf == RMP_IN_PLACE ? COLL_IN : 0);
    if ((err = coll_view(&v, recvbuf, recvcount, cl.size, a.rdt, flags)))
        return err;
    err = gather_root(&cl, &a, v.p);
    coll_view_end(&v, err == RMP_SUCCESS);
    return err;
}
