/* scatter.c — block i of the root's buffer to rank i. Ranks are renumbered relative to the
 * root (vr).
 * binomial: the root sends each child the blocks of the child's whole subtree in one message;
 *   every rank keeps its own block and forwards the rest the same way: log2(n) steps (small
 *   blocks). The root first rotates the blocks from rank order into vr order.
 * linear: the root sends each block straight from its slot (large blocks).
 * As in MPI, the root's slot size is every rank's receive size. A slot longer than a rank's
 * buffer is cut to the buffer, never written past it, and gives that rank RMP_ERR_TRUNCATE;
 * with binomial, the error also reaches the ranks below it in the tree, whose blocks it
 * forwarded (sched.c). The root returns RMP_SUCCESS unless its own slot did not fit. Every
 * rank still runs the whole collective: nobody hangs, and the next one starts in step. */
#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "binomial", "linear", NULL};
enum { AUTO, BINOMIAL, LINEAR };
static coll_tune_t tune = {.name = "SCATTER", .algs = algs};
static atomic_long large = -1;

#define REAL(v) (((v) + root) % n)

/* Send vr's children their subtrees' blocks from buf (vr's own block at buf[0]). */
static void send_children(sched_t *s, int n, int vr, int lim, int root, const char *buf,
                          size_t blk)
{
    for (int mask = lim / 2; mask >= 1; mask >>= 1) {
        if (vr + mask >= n)
            continue;
        int cnt = n - vr - mask < mask ? n - vr - mask : mask;
        sched_send(s, REAL(vr + mask), buf + (size_t)mask * blk, (size_t)cnt * blk);
    }
}

static void scatter_binomial(sched_t *s, const coll_t *cl, const char *in, size_t sbytes,
                             char *out, size_t rbytes, int root)
{
    int n = cl->size, vr = (cl->rank - root + n) % n;
    if (vr == 0) {
        const char *buf = in;
        if (root != 0) { /* rank order -> vr order (vr 0, the root's own, is not sent) */
            char *t = sched_tmp(s, (size_t)n * sbytes);
            if (!t)
                return;
            sched_copy(s, t + sbytes, in + (size_t)(root + 1) * sbytes,
                       (size_t)(n - root - 1) * sbytes);
            sched_copy(s, t + (size_t)(n - root) * sbytes, in, (size_t)root * sbytes);
            buf = t;
        }
        int lim = 1;
        while (lim < n)
            lim <<= 1;
        send_children(s, n, 0, lim, root, buf, sbytes);
        return;
    }
    int low = vr & -vr, sub = n - vr < low ? n - vr : low;
    if (sub == 1) {
        sched_recv(s, REAL(vr - low), out, rbytes);
        return;
    }
    char *buf = sched_tmp(s, (size_t)sub * rbytes);
    if (!buf)
        return;
    sched_recv(s, REAL(vr - low), buf, (size_t)sub * rbytes);
    sched_round(s);
    sched_copy(s, out, buf, rbytes);
    send_children(s, n, vr, low, root, buf, rbytes);
}

static void scatter_linear(sched_t *s, const coll_t *cl, const char *in, size_t sbytes,
                           char *out, size_t rbytes, int root)
{
    if (cl->rank != root) {
        sched_recv(s, root, out, rbytes);
        return;
    }
    for (int i = 0; i < cl->size; i++)
        if (i != root)
            sched_send(s, i, in + (size_t)i * sbytes, sbytes);
}

int rmp_iscatter(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                 int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                 rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, req);
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt = NULL;
    size_t sbytes = 0, rbytes = 0;
    bool in_place = recvbuf == RMP_IN_PLACE;
    bool am_root;
    int alg, err = coll_rooted(comm, req, root, in_place, &cl, &am_root);
    /* The receive side everywhere (unless in place at the root), the send side only at the
     * root, where it is significant. */
    if (!err && am_root)
        err = coll_buf(sendbuf, sendcount, sendtype, cl.size, &sdt, &sbytes);
    if (!err && !in_place)
        err = coll_buf(recvbuf, recvcount, recvtype, 1, &rdt, &rbytes);
    if (!err && am_root && !in_place && sendcount > 0)
        err = coll_alias(recvbuf, sendbuf, (ptrdiff_t)cl.rank * sendcount * sdt->extent);
    bool trunc = am_root && !in_place && sbytes != rbytes; /* the root's own slot */
    sched_t *s;
    if (!err)
        coll_sign(&cl, CK_SCATTER, root, (long long)(in_place ? sbytes : rbytes), RMP_OP_NULL,
                  NULL);
    if (err || (err = coll_begin(&cl, &tune, &alg, &s)))
        return err;
    if (trunc)
        sched_truncated(s);
    const char *in = am_root ? coll_in(s, sendbuf, sendcount, cl.size, sdt) : NULL;
    char *out = in_place ? NULL : coll_out(s, recvbuf, recvcount, 1, rdt, false);
    if (am_root && in && out)
        sched_copy(s, out, in + (size_t)root * sbytes, sbytes < rbytes ? sbytes : rbytes);
    if (alg == AUTO)
        alg = (am_root ? sbytes : rbytes) * (size_t)cl.size <
                      (size_t)coll_threshold(&large, "SCATTER_LARGE", 256 * 1024)
                  ? BINOMIAL
                  : LINEAR;
    if ((am_root ? in != NULL || sbytes == 0 : out != NULL || rbytes == 0) && cl.size > 1) {
        if (alg == BINOMIAL)
            scatter_binomial(s, &cl, in, sbytes, out, rbytes, root);
        else
            scatter_linear(s, &cl, in, sbytes, out, rbytes, root);
    }
    return sched_post(s, req);
}

int rmp_scatter(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   root, comm, &r),
                      &r);
}
