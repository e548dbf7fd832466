/* bcast.c — broadcast. Ranks are renumbered relative to the root (vr).
 * binomial: a rank receives from vr minus its lowest set bit, then sends to vr + 2^j for every
 *   2^j below that bit: ceil(log2 n) steps, each moving the whole message (small messages).
 * scatter_allgather (van de Geijn): the message is cut into n chunks; a binomial scatter gives
 *   vr its chunk (and its subtree's), then a ring allgather circulates the chunks. Each rank
 *   sends about 2x the message in total instead of log2(n)x: better for large messages.
 * Every rank sends and receives the same messages whatever its count (empty chunks too), so
 * a count that differs on some rank never leaves a peer waiting: a longer message than the
 * buffer gives RMP_ERR_TRUNCATE there and below it (sched.c), and the root's buffer, which it
 * never has to receive into, stays as it was. */
#include "coll.h"

static const char *const algs[] = {"auto", "binomial", "scatter_allgather", NULL};
enum { AUTO, BINOMIAL, SCATTER_ALLGATHER };
static coll_tune_t tune = {.name = "BCAST", .algs = algs};
static atomic_long large = -1;

#define REAL(v) (((v) + root) % n)

static void bcast_scatter_allgather(sched_t *s, const coll_t *cl, char *buf, size_t bytes,
                                    int root)
{
    int n = cl->size, vr = (cl->rank - root + n) % n;
    size_t *off = sched_tmp(s, sizeof(size_t) * (size_t)(n + 1));
    if (!off)
        return;
    /* chunk c of vr-space is [off[c], off[c+1]): equal chunks, the last ones short or empty */
    size_t cs = (bytes + (size_t)n - 1) / (size_t)n;
    for (int c = 0; c <= n; c++)
        off[c] = (size_t)c * cs < bytes ? (size_t)c * cs : bytes;
    /* binomial scatter of chunk ranges: vr gets [vr, vr + lowbit(vr)) from its parent */
    int mask = 1;
    for (; mask < n; mask <<= 1) {
        if (vr & mask) {
            int hi = vr + mask < n ? vr + mask : n;
            sched_recv(s, REAL(vr - mask), buf + off[vr], off[hi] - off[vr]);
            sched_round(s);
            break;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int lo = vr + mask, hi = vr + 2 * mask < n ? vr + 2 * mask : n;
        if (lo < n)
            sched_send(s, REAL(lo), buf + off[lo], off[hi] - off[lo]);
    }
    sched_round(s);
    char *sink = vr == 0 ? sched_tmp(s, cs) : NULL; /* the root has every chunk already */
    if (vr == 0 && !sink)
        return;
    /* ring allgather in vr space: the ring's neighbours are REAL(vr +- 1) */
    int right = REAL(vr + 1), left = REAL(vr - 1 + n);
    for (int i = 0; i < n - 1; i++) {
        int sb = (vr - i + n) % n, rb = (vr - i - 1 + n) % n;
        sched_send(s, right, buf + off[sb], off[sb + 1] - off[sb]);
        sched_recv(s, left, sink ? sink : buf + off[rb], off[rb + 1] - off[rb]);
        sched_round(s);
    }
}

int rmp_ibcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
               rmp_request_t *req)
{
    coll_t cl;
    const dtype_t *dt;
    size_t bytes;
    int alg, err = coll_comm(comm, &cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err)
        err = coll_root(&cl, root);
    if (!err)
        err = coll_buf(buf, count, type, 1, &dt, &bytes);
    sched_t *s;
    if (err || (err = coll_begin(&cl, &tune, &alg, &s)))
        return err;
    if (alg == AUTO && dt->contig) { /* a forced algorithm is a software one */
        ofl_args_t a = {.coll = OFL_BCAST, .buf = buf, .bytes = bytes, .root = root};
        if ((err = coll_offload(&cl, &a, req)) != RMP_ERR_NOT_SUPPORTED) {
            sched_free(s);
            return err;
        }
    }
    if (cl.size > 1) { /* even empty: a rank whose count differs must find its peers there */
        bool am_root = cl.rank == root;
        char *p = am_root ? (char *)coll_in(s, buf, count, 1, dt)
                          : coll_out(s, buf, count, 1, dt, false);
        if (alg == AUTO)
            alg = bytes >= (size_t)coll_threshold(&large, "BCAST_LARGE", 8 << 20) &&
                          cl.size > 2
                      ? SCATTER_ALLGATHER
                      : BINOMIAL;
        if (!p && bytes == 0) /* a NULL buffer of count 0: the messages still go */
            p = sched_tmp(s, 0);
        if (p && alg == SCATTER_ALLGATHER) /* !p: out of memory, reported by sched_post */
            bcast_scatter_allgather(s, &cl, p, bytes, root);
        else if (p)
            build_bcast_binomial(s, &cl, p, bytes, root);
    }
    return sched_post(s, req);
}

int rmp_bcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ibcast(buf, count, type, root, comm, &r), &r);
}
