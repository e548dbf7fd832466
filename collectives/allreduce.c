/* allreduce.c — recursive doubling. With n not a power of two, p = 2^floor(log2 n) and
 * r = n - p: first the even ranks below 2r fold their data into their odd neighbour and sit
 * out; the p remaining ranks exchange and combine with partners at distance 1, 2, 4, ...;
 * finally each odd rank below 2r hands the result back to its even neighbour. Partners
 * combine the same two operands (commutative ops), so every rank ends with identical bits. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

typedef struct allreduce_args {
    rmp_op_t op;
    dt_base_t base;
    size_t bytes, nelem;
} allreduce_args_t;

/* Comm rank of the rank numbered `nr` among the p that take part in the doubling. */
static int doubling_rank(int nr, int rem)
{
    return nr < rem ? 2 * nr + 1 : nr + rem;
}

static int allreduce_rd(coll_t *cl, const allreduce_args_t *a, char *acc, char *tmp)
{
    int me = cl->rank, p = coll_pow2_floor(cl->size), rem = cl->size - p, nr, err;
    if (me < 2 * rem) {
        /* Even: fold in, then wait for the result. Sharing acc is safe: the result can
         * only arrive after the neighbour has received all of our data. */
        if (me % 2 == 0)
            return coll_sendrecv(cl, acc, a->bytes, me + 1, acc, a->bytes, me + 1);
        err = coll_sendrecv(cl, NULL, 0, -1, tmp, a->bytes, me - 1);
        if (err)
            return err;
        op_reduce(a->op, a->base, tmp, acc, a->nelem);
        nr = me / 2;
    } else {
        nr = me - rem;
    }
    for (int mask = 1; mask < p; mask <<= 1) {
        int peer = doubling_rank(nr ^ mask, rem);
        err = coll_sendrecv(cl, acc, a->bytes, peer, tmp, a->bytes, peer);
        if (err)
            return err;
        op_reduce(a->op, a->base, tmp, acc, a->nelem);
    }
    if (me < 2 * rem) /* odd: give the result back to the even neighbour */
        return coll_sendrecv(cl, acc, a->bytes, me - 1, NULL, 0, -1);
    return RMP_SUCCESS;
}

static int allreduce_check(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                           rmp_op_t op, const dtype_t **dt)
{
    size_t bytes;
    int err = coll_buf(NULL, 0, type, 1, dt, &bytes); /* the type alone */
    if (!err && count < 0)
        err = RMP_ERR_COUNT;
    if (!err)
        err = op_check(op, (*dt)->base);
    if (!err)
        err = coll_buf(recvbuf, count, type, 1, dt, &bytes);
    if (!err && sendbuf != RMP_IN_PLACE)
        err = coll_buf(sendbuf, count, type, 1, dt, &bytes);
    return err;
}

int rmp_allreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                  rmp_comm_t comm)
{
    coll_t cl;
    const dtype_t *dt = NULL;
    int err = coll_comm(comm, &cl);
    if (!err)
        err = allreduce_check(sendbuf, recvbuf, count, type, op, &dt);
    if (err)
        return err;
    coll_start(&cl);
    allreduce_args_t a = {.op = op, .base = dt->base, .bytes = (size_t)count * dt->size};
    a.nelem = a.bytes / dtype_base_size(dt->base);
    if (a.bytes == 0)
        return RMP_SUCCESS;
    const void *src = sendbuf == RMP_IN_PLACE ? recvbuf : sendbuf;
    char *acc = recvbuf, *tmp = malloc(a.bytes * (dt->contig ? 1 : 2));
    if (!tmp)
        return RMP_ERR_NO_MEM;
    if (dt->contig) { /* combine straight into the result */
        if (src != recvbuf)
            memcpy(acc, src, a.bytes);
    } else {
        acc = tmp + a.bytes;
        dtype_pack(dt, count, src, acc);
    }
    err = cl.size > 1 ? allreduce_rd(&cl, &a, acc, tmp) : RMP_SUCCESS;
    if (acc != recvbuf && !err)
        dtype_unpack(dt, count, acc, a.bytes, recvbuf);
    free(tmp);
    return err;
}
