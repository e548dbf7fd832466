/* reduce.c — reduce to a root. Ranks are renumbered relative to the root (vr).
 * binomial: in step j a rank with bit j set sends its partial result to vr - 2^j and leaves;
 *   the others receive from vr + 2^j and combine. log2(n) steps of the whole message.
 * rabenseifner: a recursive-halving reduce-scatter (after folding a non-power-of-two
 *   communicator onto a power of two) leaves each participant one fully reduced part, which
 *   it sends to the root: every rank sends and combines about 1x the message instead of
 *   log2(n)x, the better choice for large messages.
 * Every op is commutative, so the combining order is free (for floating point the result then
 * depends on the algorithm and the communicator size, as in MPI). */
#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "binomial", "rabenseifner", NULL};
enum { AUTO, BINOMIAL, RABENSEIFNER };
static coll_tune_t tune = {.name = "REDUCE", .algs = algs};
static atomic_long large = -1;

#define REAL(v) (((v) + root) % n)

/* acc holds this rank's contribution; at the root it ends with the result. */
static void reduce_binomial(sched_t *s, const coll_t *cl, const red_t *rd, char *acc,
                            size_t bytes, int root)
{
    int n = cl->size, vr = (cl->rank - root + n) % n;
    char *tmp = NULL;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) { /* done with the children: hand the partial result up */
            sched_send(s, REAL(vr - mask), acc, bytes);
            return;
        }
        if (vr + mask >= n)
            continue;
        if (!tmp && !(tmp = sched_tmp(s, bytes)))
            return;
        sched_recv(s, REAL(vr + mask), tmp, bytes);
        sched_round(s);
        sched_reduce(s, rd->op, rd->dt, tmp, acc, bytes / rd->esz);
    }
}

static void reduce_rabenseifner(sched_t *s, const coll_t *cl, const red_t *rd, char *acc,
                                size_t bytes, int root)
{
    fold_t f;
    fold_init(&f, cl->size, cl->rank);
    size_t *off = build_split(s, bytes / rd->esz, rd->esz, f.p);
    char *tmp = sched_tmp(s, bytes);
    if (!off || !tmp)
        return;
    if (f.nr < 0) { /* fold out: my data goes to my odd neighbour */
        sched_send(s, cl->rank + 1, acc, bytes);
        sched_round(s);
    } else {
        if (cl->rank < 2 * f.rem) {
            sched_recv(s, cl->rank - 1, tmp, bytes);
            sched_round(s);
            sched_reduce(s, rd->op, rd->dt, tmp, acc, bytes / rd->esz);
        }
        build_rs_halving(s, &f, rd, acc, acc, tmp, off);
        if (cl->rank != root)
            sched_send(s, root, acc + off[f.nr], off[f.nr + 1] - off[f.nr]);
    }
    if (cl->rank == root)
        for (int q = 0; q < f.p; q++)
            if (q != f.nr)
                sched_recv(s, fold_rank(&f, q), acc + off[q], off[q + 1] - off[q]);
}

int rmp_ireduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                int root, rmp_comm_t comm, rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_ireduce(sendbuf, recvbuf, count, type, op, root, comm, req);
    coll_t cl;
    const dtype_t *dt = NULL;
    size_t bytes;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int alg, err = coll_comm(comm, &cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err)
        err = coll_root(&cl, root);
    if (!err)
        err = coll_reduction(count, type, op, &dt);
    bool am_root = !err && cl.rank == root;
    if (!err && in_place && !am_root)
        err = RMP_ERR_BUFFER; /* RMP_IN_PLACE is for the root only */
    if (!err && am_root)
        err = coll_buf(recvbuf, count, type, 1, &dt, &bytes);
    if (!err && !in_place)
        err = coll_buf(sendbuf, count, type, 1, &dt, &bytes);
    if (!err && am_root && count > 0)
        err = coll_alias(sendbuf, recvbuf, 0);
    sched_t *s;
    if (!err)
        coll_sign(&cl, CK_REDUCE, root, (long long)count * (long long)dt->size, op, dt);
    if (err || (err = coll_begin(&cl, &tune, &alg, &s)))
        return err;
    bytes = (size_t)count * dt->size;
    red_t rd = red_of(op, dt);
    if (alg == AUTO)
        alg = bytes >= (size_t)coll_threshold(&large, "REDUCE_LARGE", 8 << 20) && cl.size > 2
                  ? RABENSEIFNER
                  : BINOMIAL;
    int n = cl.size, vr = (cl.rank - root + n) % n;
    bool leaf = alg == BINOMIAL && ((vr & 1) || vr + 1 >= n);
    const char *in = in_place ? NULL : coll_in(s, sendbuf, count, 1, dt);
    char *acc;
    if (am_root) { /* combine straight into the result */
        acc = coll_out(s, recvbuf, count, 1, dt, in_place);
        if (acc && in)
            sched_copy(s, acc, in, bytes);
    } else if (leaf || !dt->contig) {
        acc = (char *)in; /* a leaf only sends; a packed copy is ours to write */
    } else {
        acc = sched_tmp(s, bytes);
        if (acc)
            sched_copy(s, acc, in, bytes);
    }
    if (!op_commutes(op)) { /* rank order: its own tree, whatever the algorithm */
        if ((acc || !am_root) && (in || in_place) && bytes > 0 && n > 1)
            build_reduce_ordered(s, &cl, &rd, in ? in : acc, acc, bytes, root);
    } else if (acc && bytes > 0 && n > 1) {
        if (alg == RABENSEIFNER)
            reduce_rabenseifner(s, &cl, &rd, acc, bytes, root);
        else
            reduce_binomial(s, &cl, &rd, acc, bytes, root);
    }
    return sched_post(s, req);
}

int rmp_reduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
               int root, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ireduce(sendbuf, recvbuf, count, type, op, root, comm, &r), &r);
}
