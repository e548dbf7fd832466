/* coll.c — helpers shared by the blocking collectives (see coll.h): argument checks, the
 * per-call tag, packed views of typed buffers, and post-then-wait exchanges. */
#include <stdlib.h>

#include "coll.h"

int coll_comm(rmp_comm_t h, coll_t *cl)
{
    int err = ctx_check();
    if (err)
        return err;
    ctx_lock(&rmp_ctx);
    comm_t *c = comm_get(h);
    if (c)
        *cl = (coll_t){.comm = c, .rank = c->rank, .size = c->size};
    ctx_unlock(&rmp_ctx);
    return c ? RMP_SUCCESS : RMP_ERR_COMM;
}

int coll_root(const coll_t *cl, int root)
{
    return root < 0 || root >= cl->size ? RMP_ERR_ROOT : RMP_SUCCESS;
}

int coll_buf(const void *buf, int count, rmp_datatype_t type, int nblk, const dtype_t **dt_p,
             size_t *bytes_p)
{
    if (count < 0)
        return RMP_ERR_COUNT;
    const dtype_t *dt = dtype_get(type, true);
    if (!dt)
        return RMP_ERR_TYPE;
    size_t blk, total;
    /* the whole buffer's packed size must be representable: temporaries hold all of it */
    if (__builtin_mul_overflow((size_t)count, dt->size, &blk) ||
        __builtin_mul_overflow(blk, (size_t)nblk, &total) || total > PTRDIFF_MAX)
        return RMP_ERR_COUNT;
    if (count > 0 && (!buf || buf == RMP_IN_PLACE))
        return RMP_ERR_BUFFER;
    *dt_p = dt;
    *bytes_p = blk;
    return RMP_SUCCESS;
}

/* The tag separates consecutive collectives on one communicator; all ranks call collectives
 * in the same order, so their counters agree. */
void coll_start(coll_t *cl)
{
    ctx_lock(&rmp_ctx);
    cl->tag = (int)(cl->comm->coll_seq++ & RMP_TAG_UB);
    ctx_unlock(&rmp_ctx);
}

int coll_view(coll_view_t *v, const void *user, int count, int nblk, const dtype_t *dt, int flags)
{
    *v = (coll_view_t){.user = (void *)user,
                       .dt = dt,
                       .count = count,
                       .nblk = nblk,
                       .flags = flags,
                       .blk = (size_t)count * dt->size};
    if (dt->contig) {
        v->p = (char *)user;
        return RMP_SUCCESS;
    }
    size_t total = v->blk * (size_t)nblk;
    v->tmp = malloc(total ? total : 1);
    if (!v->tmp)
        return RMP_ERR_NO_MEM;
    v->p = v->tmp;
    /* block by block: count * nblk elements may not fit in an int */
    if (flags & COLL_IN)
        for (int i = 0; i < nblk; i++)
            dtype_pack(dt, count, (const char *)user + (size_t)i * count * dt->extent,
                       v->p + (size_t)i * v->blk);
    return RMP_SUCCESS;
}

void coll_view_end(coll_view_t *v, bool ok)
{
    if (!v->tmp)
        return;
    if (ok && (v->flags & COLL_OUT))
        for (int i = 0; i < v->nblk; i++)
            dtype_unpack(v->dt, v->count, v->p + (size_t)i * v->blk, v->blk,
                         (char *)v->user + (size_t)i * v->count * v->dt->extent);
    free(v->tmp);
    v->tmp = NULL;
}

int coll_wait(int n, rmp_request_t *reqs, int post_err)
{
    if (post_err)
        for (int i = 0; i < n; i++)
            if (reqs[i])
                rmp_cancel(&reqs[i]); /* a receive that would never match; sends: no effect */
    int err = req_waitall(n, reqs);
    return post_err ? post_err : err;
}

int coll_sendrecv(coll_t *cl, const void *sbuf, size_t sbytes, int dst, void *rbuf, size_t rbytes,
                  int src)
{
    rmp_request_t r[2] = {RMP_REQUEST_NULL, RMP_REQUEST_NULL};
    int err = RMP_SUCCESS;
    if (src >= 0)
        err = p2p_irecv_bytes(cl->comm, COLL_CTXOFF, rbuf, rbytes, src, cl->tag, &r[0]);
    if (!err && dst >= 0)
        err = p2p_isend_bytes(cl->comm, COLL_CTXOFF, sbuf, sbytes, dst, cl->tag, &r[1]);
    return coll_wait(2, r, err);
}

int coll_pow2_floor(int n)
{
    int p = 1;
    while (p <= n / 2)
        p <<= 1;
    return p;
}
