/* bcast.c — broadcast. Ranks are renumbered relative to the root (vr).
 * binomial: a rank receives from vr minus its lowest set bit, then sends to vr + 2^j for every
 *   2^j below that bit: ceil(log2 n) steps, each moving the whole message (small messages).
 * scatter_allgather (van de Geijn): the message is cut into n chunks; a binomial scatter gives
 *   vr its chunk (and its subtree's), then a ring allgather circulates the chunks. Each rank
 *   sends about 2x the message in total instead of log2(n)x: better for large messages.
 * pipelined_chain, pipelined_tree: the message is cut into segments that flow down a chain
 *   (vr - 1 -> vr -> vr + 1) or a binary tree (vr's children 2vr + 1, 2vr + 2); a rank receives
 *   segment k + 1 while it forwards segment k, so every hop works at once instead of one after
 *   the other. Each byte is copied once per rank, as in binomial (large messages go by
 *   single-copy CMA on shm). Not chosen automatically: where ranks outnumber cores, each extra
 *   round waits for a peer to be scheduled (bench/README.md, "Pipelined large collectives").
 * direct: the root sends the whole message to every rank at once (one round, no forwarding):
 *   on shared memory each receiver copies it straight from the root's buffer (CMA), so no
 *   rank waits for a hop, at the price of the root's buffer being read n-1 times (large
 *   messages, 3 to COLL_DIRECT_MAX ranks).
 * For binomial, scatter_allgather and direct, every rank sends and receives the same messages
 * whatever its count (empty chunks too), so a count that differs on some rank never leaves a
 * peer waiting when all ranks run the same algorithm: a message longer or shorter than the
 * buffer gives RMP_ERR_TRUNCATE there and below it (sched.c; scatter_allgather's root, which
 * sees the ring's chunks, fails too), and the root's buffer, which it never has to receive
 * into, stays as it was. */
#include <limits.h>
#include <stdlib.h>

#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "binomial", "scatter_allgather", "pipelined_chain",
                                   "pipelined_tree", "direct", NULL};
enum { AUTO, BINOMIAL, SCATTER_ALLGATHER, CHAIN, TREE, DIRECT };
static coll_tune_t tune = {.name = "BCAST", .algs = algs};
static atomic_long large = -1;
#define BCAST_SEGMENT (128u << 10) /* measured: bench/README.md, "Pipelined large collectives" */

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

static void bcast_direct(sched_t *s, const coll_t *cl, char *buf, size_t bytes, int root)
{
    if (cl->rank != root) {
        sched_recv(s, root, buf, bytes);
        return;
    }
    for (int i = 1; i < cl->size; i++)
        sched_send(s, (root + i) % cl->size, buf, bytes);
}

/* Segment k of a message of `bytes` cut into segments of seg bytes. */
static size_t seg_len(size_t bytes, size_t seg, size_t k)
{
    size_t lo = k * seg;
    return bytes - lo < seg ? bytes - lo : seg;
}

/* A pipeline down a tree of the given fan-out (1: a chain) in vr space. The root posts every
 * segment to every child at once and a leaf every receive at once (neither waits on anything
 * else); an inner rank receives segment t in round t while it forwards segment t - 1. The
 * segment count depends on the message size only, the same on every rank (a count that
 * differs between ranks is the caller's error here, unlike with the other two algorithms). */
static void bcast_pipelined(sched_t *s, const coll_t *cl, char *buf, size_t bytes, int root,
                            int fanout, size_t seg)
{
    int n = cl->size, vr = (cl->rank - root + n) % n;
    size_t nseg = bytes ? (bytes - 1) / seg + 1 : 1;
    int first = fanout * vr + 1, last = fanout * vr + fanout < n ? fanout * vr + fanout : n - 1;
    int parent = vr ? REAL((vr - 1) / fanout) : -1;
    for (size_t t = 0; t <= nseg; t++) {
        if (vr && t < nseg)
            sched_recv(s, parent, buf + t * seg, seg_len(bytes, seg, t));
        size_t k = vr ? t - 1 : t; /* the segment forwarded now: the root has them all */
        if ((vr == 0 || t > 0) && k < nseg)
            for (int c = first; c <= last; c++)
                sched_send(s, REAL(c), buf + k * seg, seg_len(bytes, seg, k));
        if (vr && first <= last) /* the root and the leaves run everything in one round */
            sched_round(s);
    }
}

/* Measured on 2 cores (bench/README.md): from 3 to COLL_DIRECT_MAX ranks, direct wins from
 * 32 KiB (the first rendezvous sizes: each receiver then copies from the root in parallel);
 * above, scatter_allgather from 8 MiB. RMP_COLL_BCAST_LARGE moves either threshold. */
static int bcast_auto(const coll_t *cl, size_t bytes)
{
    bool few = cl->size <= COLL_DIRECT_MAX;
    long lim = coll_threshold(&large, "BCAST_LARGE", LONG_MAX);
    if (lim == LONG_MAX)
        lim = few ? 32 << 10 : 8 << 20;
    if (cl->size < 3 || bytes < (size_t)lim)
        return BINOMIAL;
    return few ? DIRECT : SCATTER_ALLGATHER;
}

/* MPI lets the root and the others describe the data with different types of one signature
 * (the root a contiguous int array, the others a vector of ints): every rank must then still
 * choose the same path, and the offload's choice depends only on what all ranks share (the
 * bytes, the communicator). A rank whose type is not contiguous therefore takes the offload
 * too, through a packed copy: the root packs before, the others unpack after. It waits for the
 * offloaded broadcast here, inside the call (a nonblocking bcast of a non-contiguous type
 * overlaps nothing); RMP_ERR_NOT_SUPPORTED when the offload declines, as it declines on
 * every rank alike. */
static int bcast_offload_packed(const coll_t *cl, void *buf, int count, const dtype_t *dt,
                                size_t bytes, int root)
{
    char *tmp = malloc(bytes ? bytes : 1);
    if (!tmp)
        return RMP_ERR_NO_MEM; /* (the peers then wait: out of memory is fatal here) */
    if (cl->rank == root && bytes)
        dtype_pack(dt, count, buf, tmp);
    rmp_request_t r = RMP_REQUEST_NULL;
    ofl_args_t a = {.coll = OFL_BCAST, .buf = tmp, .bytes = bytes, .root = root};
    int err = coll_offload(cl, &a, &r);
    if (!err)
        err = rmp_wait(&r, RMP_STATUS_IGNORE);
    if (!err && cl->rank != root && bytes)
        dtype_unpack(dt, count, tmp, bytes, buf);
    free(tmp);
    return err;
}

/* rmp_ibcast, and rmp_bcast's start (blocking: see coll_offload). */
static int bcast_start(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
                       rmp_request_t *req, bool blocking)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_ibcast(buf, count, type, root, comm, req);
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
    if (!err)
        coll_sign(&cl, CK_BCAST, root, (long long)bytes, RMP_OP_NULL, NULL);
    if (err || (err = coll_begin_lazy(&cl, &tune, &alg, blocking)))
        return err;
    if (alg == AUTO && dt->contig) { /* a forced algorithm is a software one */
        ofl_args_t a = {.coll = OFL_BCAST, .buf = buf, .bytes = bytes, .root = root};
        if ((err = coll_offload(&cl, &a, req)) != RMP_ERR_NOT_SUPPORTED)
            return err;
    } else if (alg == AUTO && (err = bcast_offload_packed(&cl, buf, count, dt, bytes, root)) !=
                                  RMP_ERR_NOT_SUPPORTED) {
        if (err) /* else done: an empty schedule completes the request at once */
            return err;
        return (s = coll_sched_tagged(&cl)) ? sched_post(s, req) : RMP_ERR_NO_MEM;
    }
    if (!(s = coll_sched_tagged(&cl)))
        return RMP_ERR_NO_MEM;
    if (cl.size > 1) { /* even empty: a rank whose count differs must find its peers there */
        bool am_root = cl.rank == root;
        char *p = am_root ? (char *)coll_in(s, buf, count, 1, dt)
                          : coll_out(s, buf, count, 1, dt, false);
        if (alg == AUTO)
            coll_chose(&tune, alg = bcast_auto(&cl, bytes));
        if (!p && bytes == 0) /* a NULL buffer of count 0: the messages still go */
            p = sched_tmp(s, 0);
        if (p && alg == SCATTER_ALLGATHER) /* !p: out of memory, reported by sched_post */
            bcast_scatter_allgather(s, &cl, p, bytes, root);
        else if (p && alg == DIRECT)
            bcast_direct(s, &cl, p, bytes, root);
        else if (p && (alg == CHAIN || alg == TREE))
            bcast_pipelined(s, &cl, p, bytes, root, alg == CHAIN ? 1 : 2,
                            coll_segment(BCAST_SEGMENT));
        else if (p)
            build_bcast_binomial(s, &cl, p, bytes, root);
    }
    return sched_post(s, req);
}

int rmp_ibcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
               rmp_request_t *req)
{
    return bcast_start(buf, count, type, root, comm, req, false);
}

int rmp_bcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(bcast_start(buf, count, type, root, comm, &r, true), &r);
}
