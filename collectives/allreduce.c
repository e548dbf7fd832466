/* allreduce.c — every rank gets the reduction of everyone's vector.
 * recursive_doubling: partners at distance 1, 2, 4, ... swap and combine whole vectors: log2(p)
 *   steps, the fewest messages (small vectors).
 * rabenseifner: recursive-halving reduce-scatter, then recursive-doubling allgather: each rank
 *   sends about 2x the vector in log2(p) steps each way (large vectors, power-of-two sizes).
 * ring: ring reduce-scatter then ring allgather over n parts: 2x the vector in 2(n-1) steps,
 *   bandwidth-optimal for any n (large vectors, other sizes).
 * pipelined_ring: the ring's two phases with every part cut into segments, one segment per
 *   round: a rank reduces segment k (received last round) while segment k + 1 moves in and
 *   its neighbour copies out what it sends (sched_overlap), and it reads its send buffer in
 *   place instead of copying it into the result first. Each rank copies 2(n-1)/n of the vector
 *   and reduces (n-1)/n of it, like the ring.
 * direct: a reduce-scatter and an allgather in which every rank exchanges its parts straight
 *   with every other (two rounds): the ring's bytes without its 2(n-1) dependent steps — on
 *   shared memory, where a large message is one CMA copy by its receiver and ranks may
 *   outnumber cores, a step that waits for a neighbour costs more than the copy.
 * Large vectors (allreduce_large_alg): direct at 3-5 ranks, recursive doubling at 2 (up to
 * 5 MiB), Rabenseifner otherwise; the pipelined ring is never chosen automatically (on the
 * 2-core machine measured it lost to both; bench/README.md, "Pipelined large collectives").
 * A non-power-of-two n folds onto p = 2^floor(log2 n) for the first two (fold_t): the even
 * rank of each folded pair hands its vector to the odd one and gets the result back at the
 * end. Partners combine the same two operands, and each part of the result has a single
 * owner, so every rank ends with identical bits. */
#include <limits.h>

#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "recursive_doubling", "rabenseifner", "ring",
                                   "pipelined_ring", "direct", NULL};
enum { AUTO, RD, RABENSEIFNER, RING, PIPELINED_RING, DIRECT };
static coll_tune_t tune = {.name = "ALLREDUCE", .algs = algs};
static atomic_long large = -1;
#define ALLREDUCE_SEGMENT (64u << 10) /* measured: bench/README.md, "Pipelined large collectives" */

/* The fold's first step. Returns what the rank contributes from now on (src, or acc once it
 * holds a combination), or NULL for a rank that folded out (it has nothing more to do but
 * wait for the result). */
static const char *fold_in(sched_t *s, const fold_t *f, const red_t *rd, const char *src,
                           char *acc, char *tmp, size_t bytes)
{
    if (f->nr < 0) {
        sched_send(s, f->me + 1, src, bytes);
        sched_round(s);
        sched_recv(s, f->me + 1, acc, bytes);
        return NULL;
    }
    if (f->me < 2 * f->rem) {
        sched_recv(s, f->me - 1, tmp, bytes);
        sched_round(s);
        build_combine(s, rd, tmp, src, acc, bytes);
        return acc;
    }
    return src;
}

static void fold_out(sched_t *s, const fold_t *f, char *acc, size_t bytes)
{
    if (f->me < 2 * f->rem)
        sched_send(s, f->me - 1, acc, bytes);
}

/* src is my contribution: the user's send buffer, read only, or acc itself (in place). */
static void allreduce_rd(sched_t *s, const fold_t *f, const red_t *rd, const char *src,
                         char *acc, char *tmp, size_t bytes)
{
    if (!(src = fold_in(s, f, rd, src, acc, tmp, bytes)))
        return;
    for (int mask = 1; mask < f->p; mask <<= 1) {
        int peer = fold_rank(f, f->nr ^ mask);
        sched_send(s, peer, src, bytes);
        sched_recv(s, peer, tmp, bytes);
        sched_round(s);
        build_combine(s, rd, tmp, src, acc, bytes);
        src = acc;
    }
    fold_out(s, f, acc, bytes);
}

static void allreduce_rabenseifner(sched_t *s, const fold_t *f, const red_t *rd,
                                   const char *src, char *acc, char *tmp, size_t bytes)
{
    size_t *off = build_split(s, bytes / rd->esz, rd->esz, f->p);
    if (!off || !(src = fold_in(s, f, rd, src, acc, tmp, bytes)))
        return;
    build_rs_halving(s, f, rd, src, acc, tmp, off);
    build_ag_doubling(s, f, acc, off);
    fold_out(s, f, acc, bytes);
}

static void allreduce_ring(sched_t *s, const coll_t *cl, const red_t *rd, char *acc,
                           size_t bytes)
{
    size_t *off = build_split(s, bytes / rd->esz, rd->esz, cl->size);
    char *tmp = off ? sched_tmp(s, off[1] - off[0]) : NULL; /* part 0 is the largest */
    if (!tmp)
        return;
    build_rs_ring(s, cl, rd, acc, tmp, off);
    build_ag_ring(s, cl, acc, off);
}

/* The pipelined ring's parts and segments: part g (of n, off[] as build_split) cut into nseg
 * segments by elements; every rank computes the same cuts from the same count. */
typedef struct pring {
    const size_t *off;
    size_t nseg, esz;
} pring_t;

static size_t pr_lo(const pring_t *p, int g, size_t k)
{
    size_t elems = (p->off[g + 1] - p->off[g]) / p->esz;
    return p->off[g] + elems * k / p->nseg * p->esz;
}

static size_t pr_len(const pring_t *p, int g, size_t k)
{
    return pr_lo(p, g, k + 1) - pr_lo(p, g, k);
}

static int pr_mod(long v, int n)
{
    return (int)(((v % n) + n) % n);
}

/* Round t moves unit t: units 0 .. u-1 are the reduce-scatter (step t / nseg, segment
 * t % nseg: send part r-i-1, receive part r-i-2 into one of two segment buffers), units u ..
 * 2u-1 the allgather (send part r-j, receive part r-j-1 into acc). Round t also reduces the
 * unit received in round t-1 into acc, from tmp and my own part in `in` (each part is combined
 * once per rank, so in is never overwritten before it is read, even in place) — after the
 * transfers are posted when there are two or more segments (the unit forwarded next round is
 * then another segment than the one reduced), before them otherwise. */
static void allreduce_pipelined_ring(sched_t *s, const coll_t *cl, const red_t *rd,
                                     const char *in, char *acc, size_t bytes, size_t seg)
{
    int n = cl->size, r = cl->rank, right = (r + 1) % n, left = (r - 1 + n) % n;
    size_t *off = build_split(s, bytes / rd->esz, rd->esz, n);
    if (!off)
        return;
    size_t part = off[1] - off[0]; /* part 0 is the largest */
    pring_t p = {.off = off, .nseg = part > seg ? (part - 1) / seg + 1 : 1, .esz = rd->esz};
    /* the cuts round down: a segment has at most ceil(elements / nseg) elements */
    size_t segmax = ((part / p.esz + p.nseg - 1) / p.nseg) * p.esz, u = (size_t)(n - 1) * p.nseg;
    char *tmp = sched_tmp(s, 2 * segmax);
    if (!tmp)
        return;
    for (size_t t = 0; t < 2 * u; t++) {
        size_t k = t % p.nseg;
        long i = (long)(t < u ? t : t - u) / (long)p.nseg;
        if (t < u) {
            int sb = pr_mod(r - i - 1, n), rb = pr_mod(r - i - 2, n);
            sched_send(s, right, (i ? acc : in) + pr_lo(&p, sb, k), pr_len(&p, sb, k));
            sched_recv(s, left, tmp + (t % 2) * segmax, pr_len(&p, rb, k));
        } else {
            int sb = pr_mod(r - i, n), rb = pr_mod(r - i - 1, n);
            sched_send(s, right, acc + pr_lo(&p, sb, k), pr_len(&p, sb, k));
            sched_recv(s, left, acc + pr_lo(&p, rb, k), pr_len(&p, rb, k));
        }
        if (t >= 1 && t <= u) {
            size_t prev = t - 1, pk = prev % p.nseg;
            int rb = pr_mod(r - (long)(prev / p.nseg) - 2, n);
            if (p.nseg > 1)
                sched_overlap(s);
            build_combine(s, rd, tmp + (prev % 2) * segmax, in + pr_lo(&p, rb, pk),
                          acc + pr_lo(&p, rb, pk), pr_len(&p, rb, pk));
        }
        sched_round(s);
    }
}

/* Round 0: rank r receives part r of every peer's vector into its own slot of tmp (from
 * r+1, r+2, ... so that the ranks start on different peers) and sends part q of `in` to rank
 * q. Round 1 first combines the n-1 received parts with in's part r into acc (in a fixed
 * order, by one owner: every rank ends with the same bits), then swaps the reduced parts. */
static void allreduce_direct(sched_t *s, const coll_t *cl, const red_t *rd, const char *in,
                             char *acc, size_t bytes)
{
    int n = cl->size, r = cl->rank;
    size_t *off = build_split(s, bytes / rd->esz, rd->esz, n);
    char *tmp = off ? sched_tmp(s, (size_t)(n - 1) * (off[1] - off[0])) : NULL;
    if (!tmp)
        return;
    size_t mine = off[r + 1] - off[r], slot = off[1] - off[0]; /* part 0 is the largest */
    for (int i = 1; i < n; i++) {
        int from = (r + i) % n, to = (r - i + n) % n;
        sched_recv(s, from, tmp + (size_t)(i - 1) * slot, mine);
        sched_send(s, to, in + off[to], off[to + 1] - off[to]);
    }
    sched_round(s);
    build_combine(s, rd, tmp, in + off[r], acc + off[r], mine);
    for (int i = 2; i < n; i++)
        sched_reduce(s, rd->op, rd->dt, tmp + (size_t)(i - 1) * slot, acc + off[r],
                     mine / rd->esz);
    for (int i = 1; i < n; i++) {
        int from = (r + i) % n, to = (r - i + n) % n;
        sched_recv(s, from, acc + off[from], off[from + 1] - off[from]);
        sched_send(s, to, acc + off[r], mine);
    }
}

/* A vector from the large threshold up. Measured on 2 cores, 1 MiB, interleaved with Open MPI
 * (bench/README.md, "allgather and allreduce by algorithm"): at 3-5 ranks direct (its parts
 * leave from the send buffer, and no exchange waits for a partner's previous step) beat
 * Rabenseifner and the ring (n = 4: 496-556 against 596-697 and Open MPI's 567-613 us); from
 * 6 ranks Rabenseifner, folded when n is not a power of two, beat both (n = 7: 1547-1619,
 * direct 1735, ring 2120-2464).
 * The ring stays for non-powers of two past one node's worth of ranks measured here, where
 * the fold's extra whole vectors cost more than the ring's steps. */
static int allreduce_large_alg(int n, int p)
{
    if (n >= 3 && n <= 5)
        return DIRECT;
    return p == n || n <= COLL_DIRECT_MAX ? RABENSEIFNER : RING;
}

/* rmp_iallreduce, and rmp_allreduce's start (blocking: see coll_offload). */
static int allreduce_start(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                           rmp_op_t op, rmp_comm_t comm, rmp_request_t *req, bool blocking)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_iallreduce(sendbuf, recvbuf, count, type, op, comm, req);
    coll_t cl;
    const dtype_t *dt = NULL;
    size_t bytes;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int alg, err =
        coll_allred_args(comm, req, sendbuf, recvbuf, count, type, op, &cl, &dt, &bytes);
    sched_t *s;
    if (!err)
        coll_sign(&cl, CK_ALLREDUCE, -1, (long long)bytes, op, dt);
    if (err || (err = coll_begin_lazy(&cl, &tune, &alg, blocking)))
        return err;
    bytes = (size_t)count * dt->size;
    if (alg == AUTO && dt->contig) { /* a forced algorithm is a software one */
        ofl_args_t a = {.coll = OFL_ALLREDUCE, .sbuf = in_place ? NULL : sendbuf,
                        .rbuf = recvbuf, .count = count, .op = coll_offload_op(op),
                        .elem = coll_offload_elem(dt->base), .bytes = bytes,
                        .reduce = coll_offload_reduce(op, dt, count)};
        if ((err = coll_offload(&cl, &a, req)) != RMP_ERR_NOT_SUPPORTED)
            return err;
    }
    if (!(s = coll_sched_tagged(&cl)))
        return RMP_ERR_NO_MEM;
    red_t rd = red_of(op, dt);
    fold_t f;
    fold_init(&f, cl.size, cl.rank);
    if (alg == AUTO) {
        /* Defaults measured on 2 cores (bench/README.md): recursive doubling's log2(p) steps
         * win up to 1 MiB while a step costs a context switch; from 8 ranks (a power of two)
         * Rabenseifner's halved volume wins from 256 KiB. At n = 2 recursive doubling is one
         * exchange of the send buffers (clean lines, read by the peer in one CMA copy) and
         * one local combine, where Rabenseifner's second step sends the half this core has
         * just combined: the peer reads those dirty lines one transfer at a time. Interleaved,
         * pinned: 1 MiB 125-132 against 195-204 us (Open MPI 171-186), 4 MiB 611-620 against
         * 728-765; at 6 MiB the whole vectors outgrow the cache and Rabenseifner's halved
         * volume wins again (870 against 1114-1225). */
        long lim = coll_threshold(&large, "ALLREDUCE_LARGE", LONG_MAX);
        if (lim == LONG_MAX)
            lim = cl.size == 2                        ? 5 << 20
                  : cl.size >= 8 && f.p == cl.size ? 256 << 10
                                                     : 1 << 20;
        if (bytes < (size_t)lim || bytes / rd.esz < (size_t)cl.size)
            alg = RD;
        else
            alg = allreduce_large_alg(cl.size, f.p);
        coll_chose(&tune, alg);
    }
    /* Combine straight into the result. Recursive doubling and Rabenseifner read the send
     * buffer where they first need it (a 1 MiB copy saved: ~35 us at n=2 here); the ring
     * combines regions of acc in an order of its own, so it starts from a copy. */
    char *acc = coll_out(s, recvbuf, count, 1, dt, in_place);
    const char *in = in_place ? acc : coll_in(s, sendbuf, count, 1, dt);
    if (acc && in && (alg == RING || cl.size == 1))
        sched_copy(s, acc, in, bytes);
    if (!op_commutes(op)) { /* rank order: reduce to rank 0, then broadcast */
        if (acc && in && bytes > 0 && cl.size > 1) {
            build_reduce_ordered(s, &cl, &rd, in, acc, bytes, 0);
            sched_round(s);
            build_bcast_binomial(s, &cl, acc, bytes, 0);
        }
    } else if (acc && in && bytes > 0 && cl.size > 1) {
        if (alg == RING) {
            allreduce_ring(s, &cl, &rd, acc, bytes);
        } else if (alg == DIRECT) {
            allreduce_direct(s, &cl, &rd, in, acc, bytes);
        } else if (alg == PIPELINED_RING) {
            allreduce_pipelined_ring(s, &cl, &rd, in, acc, bytes,
                                     coll_segment(ALLREDUCE_SEGMENT));
        } else {
            char *tmp = sched_tmp(s, bytes);
            if (tmp && alg == RABENSEIFNER)
                allreduce_rabenseifner(s, &f, &rd, in, acc, tmp, bytes);
            else if (tmp)
                allreduce_rd(s, &f, &rd, in, acc, tmp, bytes);
        }
    }
    return sched_post(s, req);
}

int rmp_iallreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                   rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    return allreduce_start(sendbuf, recvbuf, count, type, op, comm, req, false);
}

int rmp_allreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                  rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(allreduce_start(sendbuf, recvbuf, count, type, op, comm, &r, true), &r);
}
