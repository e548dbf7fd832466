/* reduce_scatter.c — the reduction of everyone's vector, cut into parts: rank i gets part i
 * (recvcounts[i] elements; the _block form: recvcount each).
 * recursive_halving: after folding a non-power-of-two n onto p participants (fold_t), each
 *   step halves the range a participant is responsible for, swapping the other half with its
 *   partner: log2(p) steps, each rank sends about 1x the vector. Participant regions are the
 *   parts of the ranks they stand for, so they end up holding exactly those parts.
 * ring: n-1 steps around the ring, each combining one part: bandwidth-optimal for any n. */
#include <stdlib.h>

#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "recursive_halving", "ring", NULL};
enum { AUTO, HALVING, RING };
static coll_tune_t tune = {.name = "REDUCE_SCATTER", .algs = algs};
static atomic_long large = -1;

static void rs_halving(sched_t *s, const coll_t *cl, const red_t *rd, char *acc, char *tmp,
                       const size_t *off, char *out)
{
    fold_t f;
    fold_init(&f, cl->size, cl->rank);
    int me = cl->rank;
    size_t total = off[cl->size];
    if (f.nr < 0) { /* hand my vector to my odd neighbour, get my part back */
        sched_send(s, me + 1, acc, total);
        sched_round(s);
        sched_recv(s, me + 1, out, off[me + 1] - off[me]);
        return;
    }
    size_t *soff = sched_tmp(s, sizeof(size_t) * (size_t)(f.p + 1));
    if (!soff)
        return;
    for (int q = 0; q <= f.p; q++)
        soff[q] = off[fold_lo(&f, q)];
    if (me < 2 * f.rem) {
        sched_recv(s, me - 1, tmp, total);
        sched_round(s);
        sched_reduce(s, rd->op, rd->dt, tmp, acc, total / rd->esz);
    }
    build_rs_halving(s, &f, rd, acc, acc, tmp, soff);
    sched_copy(s, out, acc + off[me], off[me + 1] - off[me]);
    if (me < 2 * f.rem)
        sched_send(s, me - 1, acc + off[me - 1], off[me] - off[me - 1]);
}

static void rs_ring(sched_t *s, const coll_t *cl, const red_t *rd, char *acc, const size_t *off,
                    char *out)
{
    size_t big = 0;
    for (int i = 0; i < cl->size; i++)
        big = off[i + 1] - off[i] > big ? off[i + 1] - off[i] : big;
    char *tmp = sched_tmp(s, big);
    if (!tmp)
        return;
    build_rs_ring(s, cl, rd, acc, tmp, off);
    sched_copy(s, out, acc + off[cl->rank], off[cl->rank + 1] - off[cl->rank]);
}

/* counts: the parts' element counts (n of them). */
static int ireduce_scatter(const void *sendbuf, void *recvbuf, const int *counts, int block,
                           rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    coll_t cl;
    const dtype_t *dt = NULL;
    size_t bytes;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int alg, err = coll_comm(comm, &cl);
    if (!err && (!req || (!counts && block < 0)))
        err = RMP_ERR_ARG;
    long total = 0;
    for (int i = 0; !err && i < cl.size; i++) {
        int c = counts ? counts[i] : block;
        if (c < 0 || (total += c) > INT32_MAX)
            err = RMP_ERR_COUNT;
    }
    int mine = err ? 0 : counts ? counts[cl.rank] : block;
    if (!err)
        err = coll_reduction((int)total, type, op, &dt);
    /* in place, recvbuf holds the whole vector on entry and my part on return */
    if (!err)
        err = coll_buf(recvbuf, in_place ? (int)total : mine, type, 1, &dt, &bytes);
    if (!err && !in_place)
        err = coll_buf(sendbuf, (int)total, type, 1, &dt, &bytes);
    if (!err && total > 0)
        err = coll_alias(sendbuf, recvbuf, 0);
    sched_t *s;
    if (!err) /* the whole vector: the same counts on every rank */
        coll_sign(&cl, counts ? CK_REDUCE_SCATTER : CK_REDUCE_SCATTER_BLOCK, -1,
                  total * (long long)dt->size, op, dt);
    if (err || (err = coll_begin(&cl, &tune, &alg, &s)))
        return err;
    int n = cl.size;
    red_t rd = red_of(op, dt);
    size_t *off = sched_tmp(s, sizeof(size_t) * (size_t)(n + 1));
    if (off) {
        off[0] = 0;
        for (int i = 0; i < n; i++)
            off[i + 1] = off[i] + (size_t)(counts ? counts[i] : block) * dt->size;
    }
    size_t all = (size_t)total * dt->size;
    const char *in = coll_in(s, in_place ? recvbuf : sendbuf, (int)total, 1, dt);
    char *out = coll_out(s, recvbuf, mine, 1, dt, false);
    /* a private copy of the whole vector to combine into (the packed copy of a derived type
     * is one already) */
    char *acc = dt->contig ? sched_tmp(s, all) : (char *)in;
    if (acc && in && acc != in)
        sched_copy(s, acc, in, all);
    if (alg == AUTO)
        alg = all >= (size_t)coll_threshold(&large, "REDUCE_SCATTER_LARGE", 256 * 1024) &&
                      coll_pow2_floor(n) != n
                  ? RING
                  : HALVING;
    char *whole = !op_commutes(op) && cl.rank == 0 ? sched_tmp(s, all) : NULL;
    if (!op_commutes(op)) { /* rank order: reduce to rank 0, which hands out the parts */
        if (off && acc && out && all > 0 && (cl.rank != 0 || whole)) {
            build_reduce_ordered(s, &cl, &rd, acc, whole, all, 0);
            sched_round(s);
            for (int i = 1; cl.rank == 0 && i < n; i++)
                sched_send(s, i, whole + off[i], off[i + 1] - off[i]);
            if (cl.rank == 0)
                sched_copy(s, out, whole, off[1]);
            else
                sched_recv(s, 0, out, off[cl.rank + 1] - off[cl.rank]);
        }
    } else if (off && acc && out && all > 0) {
        if (n == 1)
            sched_copy(s, out, acc, all);
        else if (alg == RING)
            rs_ring(s, &cl, &rd, acc, off, out);
        else {
            char *tmp = sched_tmp(s, all);
            if (tmp)
                rs_halving(s, &cl, &rd, acc, tmp, off, out);
        }
    }
    return sched_post(s, req);
}

int rmp_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm, req);
    if (!recvcounts)
        return ctx_check() ? ctx_check() : RMP_ERR_ARG;
    return ireduce_scatter(sendbuf, recvbuf, recvcounts, -1, type, op, comm, req);
}

int rmp_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                              rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm, req);
    if (recvcount < 0)
        return ctx_check() ? ctx_check() : RMP_ERR_COUNT;
    return ireduce_scatter(sendbuf, recvbuf, NULL, recvcount, type, op, comm, req);
}

int rmp_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm, &r), &r);
}

int rmp_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm, &r),
                      &r);
}
