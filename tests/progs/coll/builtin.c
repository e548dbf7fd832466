/* builtin.c — coll on builtin types: barrier, bcast, reduce and allreduce over every op and
 * type, gather/scatter/allgather/alltoall, and reduce_scatter with block and irregular counts. */
#include "coll.h"

/* Counts for a call; 100000 only for a few types (big) to keep the run short. */
static int counts_for(const tinfo_t *t, bool big, int out[5])
{
    static const int base[] = {0, 1, 7, 1000};
    int n = 0;
    for (; n < 4; n++)
        out[n] = base[n];
    if (big && (t->dt == RMP_INT32 || t->dt == RMP_DOUBLE))
        out[n++] = 100000;
    return n;
}

/* Distinct roots among 0, size-1 and size/2. */
static int roots_for(int size, int out[3])
{
    int n = 0, cand[3] = {0, size - 1, size / 2};
    for (int i = 0; i < 3; i++) {
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= out[j] == cand[i];
        if (!dup)
            out[n++] = cand[i];
    }
    return n;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* one clock for every process on the machine */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Nobody leaves a barrier before the last rank entered it (the last one arrives late). */
void run_barrier(const tcomm_t *c)
{
    what_t w = {"barrier", &t_double, 0, 0, -1, c->rank, 0};
    for (int i = 0; i < 20; i++)
        expect_rc(&w, rmp_barrier(c->comm));
    for (int i = 0; i < 3; i++) {
        double entered = 0, left;
        if (c->rank == c->size - 1) {
            nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
            entered = now();
        }
        expect_rc(&w, rmp_barrier(c->comm));
        left = now();
        expect_rc(&w, rmp_bcast(&entered, 1, RMP_DOUBLE, c->size - 1, c->comm));
        if (left < entered)
            expect(&w, &left, 0, &entered, 1);
        g.checks++;
    }
}

void run_bcast(const tcomm_t *c)
{
    int counts[5], roots[3], nr = roots_for(c->size, roots);
    for (size_t k = 0; k < NTYPES; k++) {
        const tinfo_t *t = types[k];
        int nc = counts_for(t, true, counts);
        for (int ci = 0; ci < nc; ci++)
            for (int ri = 0; ri < nr; ri++) {
                size_t n = (size_t)counts[ci];
                int root = roots[ri];
                g.salt++;
                char *buf = xmalloc(n * t->size), *want = xmalloc(n * t->size);
                fill(t, want, n, root, RMP_OP_NULL);
                fill(t, buf, n, c->rank == root ? root : c->rank + 1000, RMP_OP_NULL);
                what_t w = {"bcast", t, 0, counts[ci], root, c->rank, 0};
                expect_rc(&w, rmp_bcast(buf, counts[ci], t->dt, root, c->comm));
                expect(&w, buf, 0, want, n);
                free(buf);
                free(want);
            }
    }
}

/* One reduce (root >= 0) or allreduce (root < 0) call and its check. */
static void reduce_one(const tcomm_t *c, const tinfo_t *t, rmp_op_t op, int count, int root,
                       int in_place)
{
    size_t n = (size_t)count, bytes = n * t->size;
    bool gets = root < 0 || c->rank == root, inpl = in_place && gets;
    char *in = xmalloc(bytes), *out = xmalloc(bytes), *want = xmalloc(bytes);
    g.salt++;
    fill(t, in, n, c->rank, op);
    if (inpl)
        memcpy(out, in, bytes);
    else
        fill(t, out, n, c->rank + 1000, op); /* junk the result must overwrite */
    const void *send = inpl ? RMP_IN_PLACE : in;
    what_t w = {root < 0 ? "allreduce" : "reduce", t, op, count, root, c->rank, inpl};
    int rc = root < 0 ? rmp_allreduce(send, out, count, t->dt, op, c->comm)
                      : rmp_reduce(send, out, count, t->dt, op, root, c->comm);
    expect_rc(&w, rc);
    if (gets) {
        reference(t, op, c->size, n, want, in);
        expect(&w, out, 0, want, n);
    }
    free(in);
    free(out);
    free(want);
}

void run_reductions(const tcomm_t *c, bool all)
{
    int counts[5], roots[3], nr = all ? 1 : roots_for(c->size, roots);
    if (all)
        roots[0] = -1;
    for (size_t k = 0; k < NTYPES; k++)
        for (rmp_op_t op = RMP_SUM; op <= RMP_LOR; op++) {
            if (!op_valid(types[k], op))
                continue;
            int nc = counts_for(types[k], op == RMP_SUM || op == RMP_MAX, counts);
            for (int ci = 0; ci < nc; ci++)
                for (int ri = 0; ri < nr; ri++)
                    for (int inpl = 0; inpl < 2; inpl++)
                        if (counts[ci] < 100000 || (ri == 0 && !inpl) || all)
                            reduce_one(c, types[k], op, counts[ci], roots[ri], inpl);
        }
}

/* gather, scatter, allgather, alltoall: one call and its check. Block b of rank r holds
 * gen(r) (alltoall: gen(r * 4096 + b), the block from r to b). */
const char *const kind_names[] = {"gather", "scatter", "allgather", "alltoall"};

static int move_call(kind_t kind, const void *s, void *r, int count, const tinfo_t *t, int root,
                     rmp_comm_t comm)
{
    switch (kind) {
    case K_GATHER:
        return rmp_gather(s, count, t->dt, r, count, t->dt, root, comm);
    case K_SCATTER:
        return rmp_scatter(s, count, t->dt, r, count, t->dt, root, comm);
    case K_ALLGATHER:
        return rmp_allgather(s, count, t->dt, r, count, t->dt, comm);
    default:
        return rmp_alltoall(s, count, t->dt, r, count, t->dt, comm);
    }
}

static void move_one(const tcomm_t *c, kind_t kind, const tinfo_t *t, int count, int root,
                     int in_place)
{
    int me = c->rank, p = c->size;
    size_t n = (size_t)count, blk = n * t->size, all = blk * (size_t)p;
    bool am_root = me == root, inpl = in_place && (am_root || kind >= K_ALLGATHER);
    char *sbuf = xmalloc(all), *rbuf = xmalloc(all), *want = xmalloc(blk);
    g.salt++;
    for (int b = 0; b < p; b++) /* send blocks, receive junk */
        fill(t, sbuf + b * blk, n,
             kind == K_ALLTOALL ? me * 4096 + b : (kind == K_SCATTER ? b : me), 0);
    fill(t, rbuf, n * (size_t)p, me + 1000, 0);
    const void *s = sbuf;
    void *r = rbuf;
    if (inpl && kind == K_SCATTER) {
        r = RMP_IN_PLACE;
    } else if (inpl) {
        if (kind == K_ALLTOALL)
            memcpy(rbuf, sbuf, all);
        else
            memcpy(rbuf + me * blk, sbuf, blk);
        s = RMP_IN_PLACE;
    }
    if (kind == K_GATHER && !am_root)
        r = NULL; /* insignificant at non-roots */
    if (kind == K_SCATTER && !am_root)
        s = NULL;
    what_t w = {kind_names[kind], t, 0, count, kind >= K_ALLGATHER ? -1 : root, me, inpl};
    expect_rc(&w, move_call(kind, s, r, count, t, root, c->comm));
    if (kind == K_SCATTER) {
        fill(t, want, n, me, 0);
        expect(&w, inpl ? sbuf : rbuf, inpl ? n * (size_t)me : 0, want, n);
    } else if (kind != K_GATHER || am_root) {
        for (int b = 0; b < p; b++) {
            fill(t, want, n, kind == K_ALLTOALL ? b * 4096 + me : b, 0);
            expect(&w, rbuf, n * (size_t)b, want, n);
        }
    }
    free(sbuf);
    free(rbuf);
    free(want);
}

void run_moves(const tcomm_t *c, kind_t kind)
{
    int counts[5], roots[3] = {-1}, nr = kind >= K_ALLGATHER ? 1 : roots_for(c->size, roots);
    for (size_t k = 0; k < NTYPES; k++) {
        int nc = counts_for(types[k], types[k]->dt == RMP_INT32, counts);
        for (int ci = 0; ci < nc; ci++)
            for (int ri = 0; ri < nr; ri++)
                for (int inpl = 0; inpl < 2; inpl++)
                    move_one(c, kind, types[k], counts[ci], roots[ri], inpl);
    }
}

/* ---- reduce_scatter: block and irregular counts (zeros included) ---------------------- */
static void reduce_scatter_one(const tcomm_t *c, const tinfo_t *t, rmp_op_t op, const int *counts,
                               int block, int in_place)
{
    size_t total = 0, off = 0, mine = counts ? (size_t)counts[c->rank] : (size_t)block;
    for (int i = 0; i < c->size; i++) {
        size_t k = counts ? (size_t)counts[i] : (size_t)block;
        off += i < c->rank ? k : 0;
        total += k;
    }
    char *in = xmalloc(total * t->size), *out = xmalloc(total * t->size);
    char *want = xmalloc(total * t->size);
    g.salt++;
    fill(t, in, total, c->rank, op);
    if (in_place)
        memcpy(out, in, total * t->size);
    else
        fill(t, out, total, c->rank + 1000, op);
    const void *send = in_place ? RMP_IN_PLACE : in;
    what_t w = {counts ? "reduce_scatter" : "reduce_scatter_block", t, op, (int)total, -1, c->rank,
                in_place};
    expect_rc(&w, counts ? rmp_reduce_scatter(send, out, counts, t->dt, op, c->comm)
                         : rmp_reduce_scatter_block(send, out, block, t->dt, op, c->comm));
    reference(t, op, c->size, total, want, in);
    expect(&w, out, 0, want + off * t->size, mine);
    free(in);
    free(out);
    free(want);
}

void run_reduce_scatter(const tcomm_t *c)
{
    int *irregular = xmalloc(sizeof(int) * (size_t)c->size);
    for (int i = 0; i < c->size; i++)
        irregular[i] = (i * 5 + 3) % 11; /* 3, 8, 2, 7, 1, 6, 0, ... */
    static const int blocks[] = {0, 1, 7, 300};
    for (size_t k = 0; k < NTYPES; k++)
        for (rmp_op_t op = RMP_SUM; op <= RMP_LOR; op++) {
            if (!op_valid(types[k], op))
                continue;
            for (int inpl = 0; inpl < 2; inpl++) {
                for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++)
                    reduce_scatter_one(c, types[k], op, NULL, blocks[b], inpl);
                reduce_scatter_one(c, types[k], op, irregular, -1, inpl);
            }
            if (op == RMP_SUM && (types[k]->dt == RMP_INT32 || types[k]->dt == RMP_DOUBLE))
                reduce_scatter_one(c, types[k], op, NULL, 20000, 0);
        }
    free(irregular);
}
