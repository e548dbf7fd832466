/* allreduce.c — every rank gets the reduction of everyone's vector.
 * recursive_doubling: partners at distance 1, 2, 4, ... swap and combine whole vectors: log2(p)
 *   steps, the fewest messages (small vectors).
 * rabenseifner: recursive-halving reduce-scatter, then recursive-doubling allgather: each rank
 *   sends about 2x the vector in log2(p) steps each way (large vectors, power-of-two sizes).
 * ring: ring reduce-scatter then ring allgather over n parts: 2x the vector in 2(n-1) steps,
 *   bandwidth-optimal for any n (large vectors, other sizes).
 * A non-power-of-two n folds onto p = 2^floor(log2 n) for the first two (fold_t): the even
 * rank of each folded pair hands its vector to the odd one and gets the result back at the
 * end. Partners combine the same two operands, and each part of the result has a single
 * owner, so every rank ends with identical bits. */
#include <limits.h>

#include "coll.h"

static const char *const algs[] = {"auto", "recursive_doubling", "rabenseifner", "ring", NULL};
enum { AUTO, RD, RABENSEIFNER, RING };
static coll_tune_t tune = {.name = "ALLREDUCE", .algs = algs};
static atomic_long large = -1;

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

int rmp_iallreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                   rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    coll_t cl;
    const dtype_t *dt = NULL;
    size_t bytes;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int alg, err =
        coll_allred_args(comm, req, sendbuf, recvbuf, count, type, op, &cl, &dt, &bytes);
    sched_t *s;
    if (err || (err = coll_begin(&cl, &tune, &alg, &s)))
        return err;
    bytes = (size_t)count * dt->size;
    if (alg == AUTO && dt->contig) { /* a forced algorithm is a software one */
        ofl_args_t a = {.coll = OFL_ALLREDUCE, .sbuf = in_place ? NULL : sendbuf,
                        .rbuf = recvbuf, .count = count, .op = coll_offload_op(op),
                        .elem = coll_offload_elem(dt->base)};
        if ((err = coll_offload(&cl, &a, req)) != RMP_ERR_NOT_SUPPORTED) {
            sched_free(s);
            return err;
        }
    }
    red_t rd = red_of(op, dt);
    fold_t f;
    fold_init(&f, cl.size, cl.rank);
    if (alg == AUTO) {
        /* Defaults measured on 2 cores (bench/README.md): recursive doubling's log2(p) steps
         * win up to 1 MiB while a step costs a context switch; from 8 ranks (a power of two)
         * Rabenseifner's halved volume wins from 256 KiB. */
        long lim = coll_threshold(&large, "ALLREDUCE_LARGE", LONG_MAX);
        if (lim == LONG_MAX)
            lim = cl.size >= 8 && f.p == cl.size ? 256 << 10 : 1 << 20;
        if (bytes < (size_t)lim || bytes / rd.esz < (size_t)cl.size)
            alg = RD;
        else
            alg = f.p == cl.size ? RABENSEIFNER : RING;
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

int rmp_allreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                  rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_iallreduce(sendbuf, recvbuf, count, type, op, comm, &r), &r);
}
