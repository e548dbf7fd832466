/* reduce.c — binomial-tree reduce. Ranks are renumbered relative to the root (vr); in step j
 * a rank with bit j set sends its partial result to vr - 2^j and leaves, the others receive
 * from vr + 2^j and combine. Every op is commutative, so the combining order is free (for
 * floating point the result then depends on the communicator size, as in MPI). */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

typedef struct reduce_args {
    rmp_op_t op;
    const dtype_t *dt;
    size_t bytes, nelem; /* packed bytes and base elements of the whole buffer */
} reduce_args_t;

/* acc holds this rank's contribution (writable); on return at the root it holds the result. */
static int reduce_tree(coll_t *cl, const reduce_args_t *a, char *acc, int root)
{
    int n = cl->size, vr = (cl->rank - root + n) % n, err = RMP_SUCCESS;
    char *tmp = NULL;
    for (int mask = 1; mask < n && !err; mask <<= 1) {
        if (vr & mask) { /* done with the children: hand the partial result up */
            err = coll_sendrecv(cl, acc, a->bytes, (vr - mask + root) % n, NULL, 0, -1);
            break;
        }
        if (vr + mask >= n)
            continue;
        if (!tmp && !(tmp = malloc(a->bytes)))
            return RMP_ERR_NO_MEM;
        err = coll_sendrecv(cl, NULL, 0, -1, tmp, a->bytes, (vr + mask + root) % n);
        if (!err)
            op_reduce(a->op, a->dt->base, tmp, acc, a->nelem);
    }
    free(tmp);
    return err;
}

static int reduce_check(coll_t *cl, const void *sendbuf, void *recvbuf, int count,
                        rmp_datatype_t type, rmp_op_t op, int root, const dtype_t **dt)
{
    size_t bytes;
    bool in_place = sendbuf == RMP_IN_PLACE, am_root = cl->rank == root;
    int err = coll_root(cl, root);
    if (!err)
        err = coll_buf(NULL, 0, type, 1, dt, &bytes); /* the type alone */
    if (!err && count < 0)
        err = RMP_ERR_COUNT;
    if (!err)
        err = op_check(op, (*dt)->base);
    if (!err && in_place && !am_root)
        err = RMP_ERR_BUFFER; /* RMP_IN_PLACE is for the root only */
    if (!err && am_root)
        err = coll_buf(recvbuf, count, type, 1, dt, &bytes);
    if (!err && !in_place)
        err = coll_buf(sendbuf, count, type, 1, dt, &bytes);
    return err;
}

int rmp_reduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
               int root, rmp_comm_t comm)
{
    coll_t cl;
    const dtype_t *dt = NULL;
    int err = coll_comm(comm, &cl);
    if (!err)
        err = reduce_check(&cl, sendbuf, recvbuf, count, type, op, root, &dt);
    if (err)
        return err;
    coll_start(&cl);
    reduce_args_t a = {.op = op, .dt = dt, .bytes = (size_t)count * dt->size};
    a.nelem = a.bytes / dtype_base_size(dt->base);
    if (a.bytes == 0)
        return RMP_SUCCESS;
    int vr = (cl.rank - root + cl.size) % cl.size;
    bool am_root = vr == 0, leaf = (vr & 1) || vr + 1 >= cl.size;
    const void *src = sendbuf == RMP_IN_PLACE ? recvbuf : sendbuf;
    char *acc;
    if (am_root && dt->contig) {
        acc = recvbuf; /* reduce straight into the result */
        if (src != recvbuf)
            memcpy(acc, src, a.bytes);
    } else if (leaf && !am_root && dt->contig) {
        acc = (char *)src; /* a leaf only sends: no copy, never written */
    } else {
        if (!(acc = malloc(a.bytes)))
            return RMP_ERR_NO_MEM;
        dtype_pack(dt, count, src, acc);
    }
    err = reduce_tree(&cl, &a, acc, root);
    if (acc != recvbuf && acc != src) {
        if (am_root && !err)
            dtype_unpack(dt, count, acc, a.bytes, recvbuf);
        free(acc);
    }
    return err;
}
