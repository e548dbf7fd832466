/* bcast.c — binomial-tree broadcast. Ranks are renumbered relative to the root (vr); a rank
 * receives from vr minus its lowest set bit, then sends to vr + 2^j for every 2^j below that
 * bit, so the data reaches all n ranks in ceil(log2 n) steps. */
#include "coll.h"

static int bcast_tree(coll_t *cl, char *data, size_t bytes, int root)
{
    int n = cl->size, vr = (cl->rank - root + n) % n, mask = 1, err = RMP_SUCCESS;
    for (; mask < n; mask <<= 1) {
        if (vr & mask) {
            err = coll_sendrecv(cl, NULL, 0, -1, data, bytes, (vr - mask + root) % n);
            break;
        }
    }
    if (err)
        return err;
    rmp_request_t reqs[32] = {RMP_REQUEST_NULL};
    int nreq = 0;
    /* children in decreasing subtree size: the biggest subtree starts first */
    for (mask >>= 1; mask > 0 && !err; mask >>= 1)
        if (vr + mask < n)
            err = p2p_isend_bytes(cl->comm, COLL_CTXOFF, data, bytes, (vr + mask + root) % n,
                                  cl->tag, &reqs[nreq++]);
    return coll_wait(nreq, reqs, err);
}

int rmp_bcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm)
{
    coll_t cl;
    const dtype_t *dt;
    size_t bytes;
    int err = coll_comm(comm, &cl);
    if (!err)
        err = coll_root(&cl, root);
    if (!err)
        err = coll_buf(buf, count, type, 1, &dt, &bytes);
    if (err)
        return err;
    coll_start(&cl);
    if (bytes == 0 || cl.size == 1)
        return RMP_SUCCESS;
    bool am_root = cl.rank == root;
    coll_view_t v;
    err = coll_view(&v, buf, count, 1, dt, am_root ? COLL_IN : COLL_OUT);
    if (err)
        return err;
    err = bcast_tree(&cl, v.p, bytes, root);
    coll_view_end(&v, err == RMP_SUCCESS);
    return err;
}
