/* alltoall.c — pairwise exchange: in step s (1..n-1) rank r sends its block for r+s and
 * receives the block from r-s, so each step is one send and one receive per rank and no rank
 * is flooded. In place, the send side is a packed copy of the receive buffer. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

typedef struct alltoall_args {
    const char *src; /* packed send blocks, sblk bytes apart */
    char *dst;       /* packed receive blocks, rblk bytes apart */
    size_t sblk, rblk;
} alltoall_args_t;

static int alltoall_pairwise(coll_t *cl, const alltoall_args_t *a)
{
    int n = cl->size, me = cl->rank, err = RMP_SUCCESS;
    if (a->sblk > 0)
        memmove(a->dst + (size_t)me * a->rblk, a->src + (size_t)me * a->sblk, a->sblk);
    for (int s = 1; s < n && !err; s++) {
        int to = (me + s) % n, from = (me - s + n) % n;
        err = coll_sendrecv(cl, a->src + (size_t)to * a->sblk, a->sblk, to,
                            a->dst + (size_t)from * a->rblk, a->rblk, from);
    }
    return err;
}

int rmp_alltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                 int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm)
{
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt;
    alltoall_args_t a = {0};
    bool in_place = sendbuf == RMP_IN_PLACE;
    int err = coll_comm(comm, &cl);
    if (!err && !in_place)
        err = coll_buf(sendbuf, sendcount, sendtype, cl.size, &sdt, &a.sblk);
    if (!err)
        err = coll_buf(recvbuf, recvcount, recvtype, cl.size, &rdt, &a.rblk);
    if (!err && a.sblk > a.rblk)
        err = RMP_ERR_TRUNCATE;
    if (err)
        return err;
    coll_start(&cl);
    coll_view_t sv = {0}, rv;
    char *copy = NULL;
    if ((err = coll_view(&rv, recvbuf, recvcount, cl.size, rdt, COLL_OUT)))
        return err;
    if (in_place) { /* received blocks overwrite ones still to be sent: send from a copy */
        a.sblk = a.rblk;
        if (!(copy = malloc(a.rblk * (size_t)cl.size + 1))) {
            coll_view_end(&rv, false);
            return RMP_ERR_NO_MEM;
        }
        for (int i = 0; i < cl.size; i++)
            dtype_pack(rdt, recvcount, (char *)recvbuf + (size_t)i * recvcount * rdt->extent,
                       copy + (size_t)i * a.rblk);
        a.src = copy;
    } else if (!(err = coll_view(&sv, sendbuf, sendcount, cl.size, sdt, COLL_IN))) {
        a.src = sv.p;
    }
    a.dst = rv.p;
    if (!err)
        err = alltoall_pairwise(&cl, &a);
    free(copy);
    if (!in_place)
        coll_view_end(&sv, false);
    coll_view_end(&rv, err == RMP_SUCCESS);
    return err;
}
