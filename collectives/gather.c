/* gather.c — every rank's block to the root, in rank order. Ranks are renumbered relative to
 * the root (vr).
 * binomial: vr collects the blocks of its subtree [vr, vr + lowbit(vr)) from its children
 *   (received side by side in vr order) and sends them up in one message: log2(n) steps
 *   (small blocks). The root then rotates the blocks from vr order into rank order.
 * linear: the root receives each block straight into its slot (large blocks: the root's link
 *   carries everything either way, and nothing is copied on the way).
 * As in MPI, every rank's contribution has the root's slot size. A longer one is cut to the
 * slot, never written past it, and gives RMP_ERR_TRUNCATE to the ranks that receive it: the
 * root, and with binomial the ranks that forward it on the way (sched.c passes the error on);
 * the rank that contributed it, unless it is the root, returns RMP_SUCCESS. Every rank still
 * runs the whole collective: nobody hangs, and the next collective starts in step. */
#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "binomial", "linear", NULL};
enum { AUTO, BINOMIAL, LINEAR };
static coll_tune_t tune = {.name = "GATHER", .algs = algs};
static atomic_long large = -1;

#define REAL(v) (((v) + root) % n)

/* Receive the blocks of vr's children into buf (blk bytes each, vr's own at buf[0]); lim is
 * the subtree width (lowbit(vr), or the communicator's power-of-two ceiling at the root). */
static void recv_children(sched_t *s, int n, int vr, int lim, int root, char *buf, size_t blk)
{
    for (int mask = 1; mask < lim && vr + mask < n; mask <<= 1) {
        int cnt = n - vr - mask < mask ? n - vr - mask : mask;
        sched_recv(s, REAL(vr + mask), buf + (size_t)mask * blk, (size_t)cnt * blk);
    }
    sched_round(s);
}

static void gather_binomial(sched_t *s, const coll_t *cl, const char *in, size_t sbytes,
                            char *out, size_t rbytes, int root)
{
    int n = cl->size, vr = (cl->rank - root + n) % n;
    if (vr == 0) {
        char *buf = root == 0 ? out : sched_tmp(s, (size_t)n * rbytes);
        if (!buf)
            return;
        recv_children(s, n, 0, n, root, buf, rbytes);
        if (root != 0) { /* vr order -> rank order: vr 1..n-root-1 go after the root */
            sched_copy(s, out + (size_t)(root + 1) * rbytes, buf + rbytes,
                       (size_t)(n - root - 1) * rbytes);
            sched_copy(s, out, buf + (size_t)(n - root) * rbytes, (size_t)root * rbytes);
        }
        return;
    }
    int low = vr & -vr, sub = n - vr < low ? n - vr : low;
    if (sub == 1) {
        sched_send(s, REAL(vr - low), in, sbytes);
        return;
    }
    char *buf = sched_tmp(s, (size_t)sub * sbytes);
    if (!buf)
        return;
    sched_copy(s, buf, in, sbytes);
    recv_children(s, n, vr, low, root, buf, sbytes);
    sched_send(s, REAL(vr - low), buf, (size_t)sub * sbytes);
}

static void gather_linear(sched_t *s, const coll_t *cl, const char *in, size_t sbytes, char *out,
                          size_t rbytes, int root)
{
    if (cl->rank != root) {
        sched_send(s, root, in, sbytes);
        return;
    }
    for (int i = 0; i < cl->size; i++)
        if (i != root)
            sched_recv(s, i, out + (size_t)i * rbytes, rbytes);
}

int rmp_igather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                             req);
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt = NULL;
    size_t sbytes = 0, rbytes = 0;
    bool in_place = sendbuf == RMP_IN_PLACE;
    bool am_root;
    int alg, err = coll_rooted(comm, req, root, in_place, &cl, &am_root);
    /* The send side everywhere (unless in place at the root), the receive side only at the
     * root, where it is significant. */
    if (!err && !in_place)
        err = coll_buf(sendbuf, sendcount, sendtype, 1, &sdt, &sbytes);
    if (!err && am_root)
        err = coll_buf(recvbuf, recvcount, recvtype, cl.size, &rdt, &rbytes);
    if (!err && am_root && !in_place && recvcount > 0)
        err = coll_alias(sendbuf, recvbuf, (ptrdiff_t)cl.rank * recvcount * rdt->extent);
    /* the root's own block of another length than its slots: found here, nothing sent */
    bool trunc = am_root && !in_place && sbytes != rbytes;
    sched_t *s;
    if (!err)
        coll_sign(&cl, CK_GATHER, root, (long long)(in_place ? rbytes : sbytes), RMP_OP_NULL,
                  NULL);
    if (err || (err = coll_begin(&cl, &tune, &alg, &s)))
        return err;
    if (trunc) {
        sched_truncated(s);
        sbytes = sbytes < rbytes ? sbytes : rbytes;
    }
    const char *in = in_place ? NULL : coll_in(s, sendbuf, sendcount, 1, sdt);
    char *out = NULL;
    if (am_root) { /* in place, the root's own block is already in its slot */
        out = coll_out(s, recvbuf, recvcount, cl.size, rdt, in_place);
        if (out && in)
            sched_copy(s, out + (size_t)root * rbytes, in, sbytes);
    }
    if (alg == AUTO)
        alg = (am_root ? rbytes : sbytes) * (size_t)cl.size <
                      (size_t)coll_threshold(&large, "GATHER_LARGE", 256 * 1024)
                  ? BINOMIAL
                  : LINEAR;
    if ((am_root ? out != NULL || rbytes == 0 : in != NULL || sbytes == 0) && cl.size > 1) {
        if (alg == BINOMIAL)
            gather_binomial(s, &cl, in, sbytes, out, rbytes, root);
        else
            gather_linear(s, &cl, in, sbytes, out, rbytes, root);
    }
    return sched_post(s, req);
}

int rmp_gather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
               int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                  comm, &r),
                      &r);
}
