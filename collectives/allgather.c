/* allgather.c — every rank gets every rank's block, in rank order.
 * recursive_doubling: partners at distance 1, 2, 4, ... swap everything they have gathered so
 *   far: log2(p) steps; a non-power-of-two n folds onto p ranks first (fold_t: the folded
 *   pair's odd rank gathers for both and hands the result back).
 * bruck: in step k a rank sends the blocks it has (its own first) to rank - k and receives
 *   from rank + k: ceil(log2 n) steps for any n, then one local rotation.
 * ring: n-1 steps passing blocks to the right neighbour: bandwidth-optimal (large blocks).
 * direct: one round in which every rank receives every block straight from its owner (and
 *   sends its own to everyone): the same bytes per rank as the ring, but no block waits for a
 *   hop before it, so no rank idles while its neighbour copies — on shared memory, where a
 *   large block is one CMA copy by the receiver, the ring's n-1 dependent steps were the cost
 *   (large blocks at 3 or more ranks); and at n = 2, where recursive doubling is the same
 *   exchange but sends the block from the result buffer after copying it there.
 * A block longer than the slots (recvcount, the same on every rank) is cut to the slot and
 * gives RMP_ERR_TRUNCATE to every rank (each one receives it, its contributor included, as in
 * MPI); the other blocks arrive intact. Each rank still runs the whole collective (sched.c),
 * so nobody hangs and the next collective starts in step. The algorithm is chosen from the
 * slot size alone, which every rank shares.
 * Before any of them, the shared-memory backend is asked (shm_coll.c: a communicator of one
 * node whose blocks all fit a channel, or each fits a block buffer, 64 KiB up to 16 ranks on
 * the node): each rank posts its block once and each rank copies every block out once: one
 * run per rank instead of log2(n) rounds of messages, each of which, with more ranks than
 * cores, waits for a peer to be scheduled (64 KiB blocks at n = 4 / 8 on 2 cores: 25 / 117 us
 * against Open MPI's 122 / 412). */
#include <stdlib.h>

#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "recursive_doubling", "bruck", "ring", "direct",
                                   NULL};
enum { AUTO, RD, BRUCK, RING, DIRECT };
static coll_tune_t tune = {.name = "ALLGATHER", .algs = algs};
static atomic_long large = -1;

static void allgather_rd(sched_t *s, const coll_t *cl, char *out, size_t blk)
{
    fold_t f;
    fold_init(&f, cl->size, cl->rank);
    size_t total = (size_t)cl->size * blk, *off = sched_tmp(s, sizeof(size_t) * (size_t)(f.p + 1));
    if (!off)
        return;
    for (int q = 0; q <= f.p; q++) /* participant q's region: the blocks of the ranks it holds */
        off[q] = (size_t)fold_lo(&f, q) * blk;
    int me = cl->rank;
    if (f.nr < 0) {
        sched_send(s, me + 1, out + (size_t)me * blk, blk);
        sched_round(s);
        sched_recv(s, me + 1, out, total);
        return;
    }
    if (me < 2 * f.rem) {
        sched_recv(s, me - 1, out + (size_t)(me - 1) * blk, blk);
        sched_round(s);
    }
    build_ag_doubling(s, &f, out, off);
    if (me < 2 * f.rem)
        sched_send(s, me - 1, out, total);
}

static void allgather_bruck(sched_t *s, const coll_t *cl, char *out, size_t blk)
{
    int n = cl->size, me = cl->rank;
    char *tmp = sched_tmp(s, (size_t)n * blk); /* tmp[i] = block of rank me + i */
    if (!tmp)
        return;
    sched_copy(s, tmp, out + (size_t)me * blk, blk);
    for (int k = 1; k < n; k <<= 1) {
        int cnt = n - k < k ? n - k : k;
        sched_send(s, (me - k + n) % n, tmp, (size_t)cnt * blk);
        sched_recv(s, (me + k) % n, tmp + (size_t)k * blk, (size_t)cnt * blk);
        sched_round(s);
    }
    sched_copy(s, out + (size_t)me * blk, tmp, (size_t)(n - me) * blk);
    sched_copy(s, out, tmp + (size_t)(n - me) * blk, (size_t)me * blk);
}

static void allgather_ring(sched_t *s, const coll_t *cl, char *out, size_t blk)
{
    size_t *off = sched_tmp(s, sizeof(size_t) * (size_t)(cl->size + 1));
    if (!off)
        return;
    for (int i = 0; i <= cl->size; i++)
        off[i] = (size_t)i * blk;
    build_ag_ring(s, cl, out, off);
}

/* My block goes from the caller's send buffer (in; NULL in place: from my slot of out), a
 * whole slot as in the other algorithms, not from the copy of it this round makes into my
 * slot: lines this core has just written are read by the peers' cores one transfer at a time
 * (1 MiB at n = 2 took 250 us sent from the fresh copy, 110 us from the send buffer, with the
 * copy made meanwhile; bench/README.md). Peers in the order me+1, me+2, ...: each rank starts
 * with a different owner, so they do not all copy from rank 0 first. */
static void allgather_direct(sched_t *s, const coll_t *cl, char *out, const char *in, size_t blk)
{
    int n = cl->size, me = cl->rank;
    const char *mine = in ? in : out + (size_t)me * blk;
    for (int i = 1; i < n; i++) {
        int from = (me + i) % n, to = (me - i + n) % n;
        sched_recv(s, from, out + (size_t)from * blk, blk);
        sched_send(s, to, mine, blk);
    }
}

/* Direct below the large threshold (measured: bench/README.md, "2026-12-05 (later):
 * allgather and allreduce by algorithm"): up to 6 ranks on the 2-core machine, blocks of
 * 64 KiB (16 KiB when n is not a power of two, against Bruck) went faster direct than by
 * recursive doubling or Bruck, whose later steps wait for a partner's earlier one and forward
 * lines this core has just received. 64 KiB at n = 3 / 4 / 5 / 6, us: direct 46-69 / 70-104 /
 * 145-148 / 273-337, the log-step algorithm 113-129 / 102-174 / 320-334 / 438-494, Open MPI
 * 81-102 / 85-129 / 257-265 / 340-374. At 8 ranks recursive doubling still won at 64 KiB
 * (493-580 against 644-699), at 7 neither clearly did. */
static bool direct_early(int n, bool pow2, size_t blk)
{
    return n <= 6 && blk >= (pow2 ? 64u << 10 : 16u << 10);
}

/* The offload through packed copies, for a rank whose types are not contiguous: every rank
 * must take the same path whatever its types (they may differ between ranks with one type
 * signature), so this rank packs its block, waits for the offloaded call here, and unpacks.
 * RMP_ERR_NOT_SUPPORTED when the backends decline (as they decline on every rank alike). */
static int allgather_offload_packed(const coll_t *cl, bool in_place, const void *sbuf,
                                    int scount, const dtype_t *sdt, void *rbuf, int rcount,
                                    const dtype_t *rdt, size_t rbytes, bool cut)
{
    /* in_place is a flag of its own: sbuf NULL is RMP_BOTTOM (absolute addresses) */
    size_t n = (size_t)cl->size, sbytes = !in_place ? (size_t)scount * sdt->size : rbytes;
    /* the backend reads a slot's bytes of mine: a shorter block (cut) is padded */
    char *mine = calloc(1, (sbytes > rbytes ? sbytes : rbytes) + 1);
    char *all = malloc(n * rbytes + 1);
    int err = mine && all ? RMP_SUCCESS : RMP_ERR_NO_MEM;
    if (!err && !in_place && sbytes)
        dtype_pack(sdt, scount, sbuf, mine);
    else if (!err && sbytes) /* in place: my block is slot `rank` of rbuf */
        dtype_pack(rdt, rcount, (const char *)rbuf + (size_t)cl->rank * rcount * rdt->extent,
                   mine);
    rmp_request_t r = RMP_REQUEST_NULL;
    ofl_args_t a = {.coll = OFL_ALLGATHER, .sbuf = mine, .rbuf = all, .bytes = rbytes,
                    .cut = cut};
    if (!err)
        err = coll_offload(cl, &a, &r);
    if (!err)
        err = rmp_wait(&r, RMP_STATUS_IGNORE);
    if ((!err || err == RMP_ERR_TRUNCATE) && rbytes)
        for (size_t i = 0; i < n; i++)
            dtype_unpack(rdt, rcount, all + i * rbytes, rbytes,
                         (char *)rbuf + i * (size_t)rcount * rdt->extent);
    free(mine);
    free(all);
    return err;
}

/* rmp_iallgather, and rmp_allgather's start (blocking: see coll_offload). */
static int allgather_start(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                           void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                           rmp_request_t *req, bool blocking)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                req);
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt;
    size_t sbytes = 0, rbytes = 0;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int alg, err = coll_comm(comm, &cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err && !in_place)
        err = coll_buf(sendbuf, sendcount, sendtype, 1, &sdt, &sbytes);
    if (!err)
        err = coll_buf(recvbuf, recvcount, recvtype, cl.size, &rdt, &rbytes);
    if (!err && !in_place && recvcount > 0)
        err = coll_alias(sendbuf, recvbuf, (ptrdiff_t)cl.rank * recvcount * rdt->extent);
    /* My block's bytes differ from a slot's (other ranks may see nothing wrong in what I send
     * them): the call fails here, and my sends carry the error to the others (sched.c's
     * poison, or the backend's SC_CUT). A shorter block goes from its slot, never read past
     * its end. */
    bool trunc = !in_place && sbytes != rbytes, short_in = !in_place && sbytes < rbytes;
    sched_t *s;
    if (!err)
        coll_sign(&cl, CK_ALLGATHER, -1, (long long)(in_place ? rbytes : sbytes), RMP_OP_NULL,
                  NULL);
    if (err || (err = coll_begin_lazy(&cl, &tune, &alg, blocking)))
        return err;
    if (alg == AUTO && cl.size > 1) { /* a forced algorithm is a software one */
        if ((in_place || sdt->contig) && rdt->contig && !short_in) {
            ofl_args_t a = {.coll = OFL_ALLGATHER, .sbuf = in_place ? NULL : sendbuf,
                            .rbuf = recvbuf, .bytes = rbytes, .cut = trunc};
            if ((err = coll_offload(&cl, &a, req)) != RMP_ERR_NOT_SUPPORTED)
                return err;
        } else if ((err = allgather_offload_packed(&cl, in_place, sendbuf, sendcount,
                                                   sdt, recvbuf, recvcount, rdt, rbytes,
                                                   trunc)) != RMP_ERR_NOT_SUPPORTED) {
            if (err && err != RMP_ERR_TRUNCATE)
                return err;
            if (!(s = coll_sched_tagged(&cl)))
                return RMP_ERR_NO_MEM;
            if (err) /* the empty schedule completes with it */
                sched_truncated(s);
            return sched_post(s, req);
        }
    }
    if (!(s = coll_sched_tagged(&cl)))
        return RMP_ERR_NO_MEM;
    if (trunc)
        sched_truncated(s);
    /* in place, our own block must survive the trip through a temporary */
    char *out = coll_out(s, recvbuf, recvcount, cl.size, rdt, in_place);
    const char *in = in_place ? NULL : coll_in(s, sendbuf, sendcount, 1, sdt);
    if (alg == AUTO) {
        size_t lim = (size_t)coll_threshold(&large, "ALLGATHER_LARGE", 1 << 20);
        bool pow2 = coll_pow2_floor(cl.size) == cl.size;
        if (rbytes * (size_t)cl.size >= lim || cl.size == 2 || direct_early(cl.size, pow2, rbytes))
            alg = cl.size <= COLL_DIRECT_MAX ? DIRECT : RING;
        else
            alg = pow2 ? RD : BRUCK;
    }
    /* direct sends my block from where it is, so its copy into my slot of the result runs
     * while the peers read it (a late local step) instead of before the transfers start */
    if (alg == DIRECT && in && !short_in)
        sched_overlap(s);
    if (out && in)
        sched_copy(s, out + (size_t)cl.rank * rbytes, in, short_in ? sbytes : rbytes);
    if (short_in)
        in = NULL;
    if (out && rbytes > 0 && cl.size > 1) {
        if (alg == RD)
            allgather_rd(s, &cl, out, rbytes);
        else if (alg == BRUCK)
            allgather_bruck(s, &cl, out, rbytes);
        else if (alg == DIRECT)
            allgather_direct(s, &cl, out, in, rbytes);
        else
            allgather_ring(s, &cl, out, rbytes);
    }
    return sched_post(s, req);
}

int rmp_iallgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                   int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    return allgather_start(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req,
                           false);
}

int rmp_allgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                  int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(allgather_start(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, &r, true),
                      &r);
}
