/* scatter.c — linear scatter: the root posts one send per rank from its slot of the (packed)
 * send buffer and waits for them all; the others receive once. */
#include <stdlib.h>

#include "coll.h"

typedef struct scatter_args {
    void *recvbuf;
    int recvcount;
    const dtype_t *sdt, *rdt;
    size_t sbytes, rbytes; /* packed bytes of one slot at the root / received by one rank */
} scatter_args_t;

/* Checks: the receive side everywhere (unless RMP_IN_PLACE at the root), the send side only
 * at the root. A slot longer than the receiving buffer truncates. */
static int scatter_check(coll_t *cl, scatter_args_t *a, const void *sendbuf, int sendcount,
                         rmp_datatype_t sendtype, rmp_datatype_t recvtype, int root)
{
    bool in_place = a->recvbuf == RMP_IN_PLACE, am_root = cl->rank == root;
    int err = coll_root(cl, root);
    if (!err && in_place && !am_root)
        err = RMP_ERR_BUFFER;
    if (!err && am_root)
        err = coll_buf(sendbuf, sendcount, sendtype, cl->size, &a->sdt, &a->sbytes);
    if (!err && !in_place)
        err = coll_buf(a->recvbuf, a->recvcount, recvtype, 1, &a->rdt, &a->rbytes);
    if (!err && am_root && !in_place && a->sbytes > a->rbytes)
        err = RMP_ERR_TRUNCATE;
    return err;
}

static int scatter_root(coll_t *cl, const scatter_args_t *a, const char *src)
{
    if (a->recvbuf != RMP_IN_PLACE)
        dtype_unpack(a->rdt, a->recvcount, src + (size_t)cl->rank * a->sbytes, a->sbytes,
                     a->recvbuf);
    rmp_request_t *reqs = calloc((size_t)cl->size, sizeof(*reqs));
    if (!reqs)
        return RMP_ERR_NO_MEM;
    int err = RMP_SUCCESS;
    for (int i = 0; i < cl->size && !err; i++)
        if (i != cl->rank)
            err = p2p_isend_bytes(cl->comm, COLL_CTXOFF, src + (size_t)i * a->sbytes, a->sbytes, i,
                                  cl->tag, &reqs[i]);
    err = coll_wait(cl->size, reqs, err);
    free(reqs);
    return err;
}

int rmp_scatter(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm)
{
    coll_t cl;
    scatter_args_t a = {.recvbuf = recvbuf, .recvcount = recvcount};
    int err = coll_comm(comm, &cl);
    if (!err)
        err = scatter_check(&cl, &a, sendbuf, sendcount, sendtype, recvtype, root);
    if (err)
        return err;
    coll_start(&cl);
    coll_view_t v;
    if (cl.rank != root) {
        if ((err = coll_view(&v, recvbuf, recvcount, 1, a.rdt, COLL_OUT)))
            return err;
        err = coll_sendrecv(&cl, NULL, 0, -1, v.p, a.rbytes, root);
        coll_view_end(&v, err == RMP_SUCCESS);
        return err;
    }
    if ((err = coll_view(&v, sendbuf, sendcount, cl.size, a.sdt, COLL_IN)))
        return err;
    err = scatter_root(&cl, &a, v.p);
    coll_view_end(&v, false);
    return err;
}
