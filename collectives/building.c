/* building.c — schedule fragments shared by several collectives (see coll.h): folding a
 * non-power-of-two communicator onto a power of two, recursive-halving reduce-scatter and its
 * mirror, the recursive-doubling allgather (Rabenseifner's allreduce and reduce, the
 * reduce-scatter, the allgather), and the ring reduce-scatter and allgather (the ring
 * allreduce, the large broadcast, the ring allgather). */
#include "coll.h"

void fold_init(fold_t *f, int n, int me)
{
    f->n = n;
    f->me = me;
    f->p = coll_pow2_floor(n);
    f->rem = n - f->p;
    if (me < 2 * f->rem)
        f->nr = me % 2 ? me / 2 : -1;
    else
        f->nr = me - f->rem;
}

int fold_rank(const fold_t *f, int nr)
{
    return nr < f->rem ? 2 * nr + 1 : nr + f->rem;
}

int fold_lo(const fold_t *f, int nr)
{
    return nr < f->rem ? 2 * nr : nr + f->rem;
}

static size_t span(const size_t *off, int lo, int hi)
{
    return off[hi] - off[lo];
}

void build_combine(sched_t *s, const red_t *rd, const char *got, const char *src, char *acc,
                   size_t bytes)
{
    if (src == acc)
        sched_reduce(s, rd->op, rd->dt, got, acc, bytes / rd->esz);
    else
        sched_reduce3(s, rd->op, rd->dt, got, src, acc, bytes / rd->esz);
}

/* Distances p/2, p/4, ..., 1: each step keeps the half of the current range that holds my
 * own region (upper half if my bit is set) and hands the other half to the partner, so in the
 * end participant nr keeps exactly region nr. Each received half is combined at the start of
 * the next round, before anything is sent from it. The first step reads src; every later
 * step works inside the range the first one wrote to acc. */
void build_rs_halving(sched_t *s, const fold_t *f, const red_t *rd, const char *src, char *acc,
                      char *tmp, const size_t *off)
{
    int lo = 0, hi = f->p, nr = f->nr;
    for (int mask = f->p / 2; mask >= 1; mask >>= 1) {
        int peer = fold_rank(f, nr ^ mask), mid = lo + mask;
        int klo = nr & mask ? mid : lo, khi = nr & mask ? hi : mid;
        int slo = nr & mask ? lo : mid, shi = nr & mask ? mid : hi;
        sched_send(s, peer, src + off[slo], span(off, slo, shi));
        sched_recv(s, peer, tmp + off[klo], span(off, klo, khi));
        sched_round(s);
        build_combine(s, rd, tmp + off[klo], src + off[klo], acc + off[klo],
                      span(off, klo, khi));
        src = acc;
        lo = klo;
        hi = khi;
    }
}

/* Distances 1, 2, 4, ...: at distance mask, I hold the mask regions of my aligned group and
 * swap them for the partner's group. */
void build_ag_doubling(sched_t *s, const fold_t *f, char *buf, const size_t *off)
{
    int nr = f->nr;
    for (int mask = 1; mask < f->p; mask <<= 1) {
        int peer = nr ^ mask, mine = nr & ~(mask - 1), theirs = peer & ~(mask - 1);
        sched_send(s, fold_rank(f, peer), buf + off[mine], span(off, mine, mine + mask));
        sched_recv(s, fold_rank(f, peer), buf + off[theirs], span(off, theirs, theirs + mask));
        sched_round(s);
    }
}

/* Step i sends region (r-i-1) to the right and combines region (r-i-2) from the left into
 * acc: after n-1 steps the last region combined, r, holds all n contributions. Empty regions
 * (fewer elements than ranks) still get their (empty) message: the messages never depend on
 * a rank's own sizes, so a count that differs on one rank cannot leave a peer waiting. */
void build_rs_ring(sched_t *s, const coll_t *cl, const red_t *rd, char *acc, char *tmp,
                   const size_t *off)
{
    int n = cl->size, r = cl->rank, right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        int sb = ((r - i - 1) % n + n) % n, rb = ((r - i - 2) % n + n) % n;
        sched_send(s, right, acc + off[sb], span(off, sb, sb + 1));
        sched_recv(s, left, tmp, span(off, rb, rb + 1));
        sched_round(s);
        sched_reduce(s, rd->op, rd->dt, tmp, acc + off[rb], span(off, rb, rb + 1) / rd->esz);
    }
}

/* Step i passes region (r-i) to the right and receives region (r-i-1) from the left (empty
 * regions too, as above). */
void build_ag_ring(sched_t *s, const coll_t *cl, char *buf, const size_t *off)
{
    int n = cl->size, r = cl->rank, right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        int sb = ((r - i) % n + n) % n, rb = ((r - i - 1) % n + n) % n;
        sched_send(s, right, buf + off[sb], span(off, sb, sb + 1));
        sched_recv(s, left, buf + off[rb], span(off, rb, rb + 1));
        sched_round(s);
    }
}

size_t *build_split(sched_t *s, size_t total, size_t esz, int k)
{
    size_t *off = sched_tmp(s, sizeof(size_t) * (size_t)(k + 1));
    if (!off)
        return NULL;
    size_t q = total / (size_t)k, extra = total % (size_t)k;
    off[0] = 0;
    for (int i = 0; i < k; i++)
        off[i + 1] = off[i] + (q + ((size_t)i < extra)) * esz;
    return off;
}

void build_reduce_ordered(sched_t *s, const coll_t *cl, const red_t *rd, const char *mine,
                          char *out, size_t bytes, int root)
{
    int n = cl->size, me = cl->rank;
    /* three buffers in rotation: a round never receives into what its reduce step reads */
    char *acc = sched_tmp(s, bytes), *got = sched_tmp(s, bytes), *spare = sched_tmp(s, bytes);
    if (!acc || !got || !spare)
        return;
    sched_copy(s, acc, mine, bytes); /* acc covers ranks [me, me + mask) */
    int mask = 1;
    for (; mask < n; mask <<= 1) {
        if (me & mask) {
            sched_send(s, me - mask, acc, bytes);
            sched_round(s);
            break;
        }
        if (me + mask >= n)
            continue;
        sched_recv(s, me + mask, got, bytes); /* ranks [me + mask, ...): to the right */
        sched_round(s);
        sched_reduce(s, rd->op, rd->dt, acc, got, bytes / rd->esz); /* got = acc op got */
        char *t = acc;
        acc = got;
        got = spare;
        spare = t;
    }
    if (me == 0 && root == 0)
        sched_copy(s, out, acc, bytes);
    else if (me == 0)
        sched_send(s, root, acc, bytes);
    else if (me == root)
        sched_recv(s, 0, out, bytes);
}

void build_bcast_binomial(sched_t *s, const coll_t *cl, char *buf, size_t bytes, int root)
{
    int n = cl->size, vr = (cl->rank - root + n) % n, mask = 1;
    for (; mask < n; mask <<= 1) {
        if (vr & mask) {
            sched_recv(s, (vr - mask + root) % n, buf, bytes);
            sched_round(s);
            break;
        }
    }
    /* children in decreasing subtree size: the biggest subtree starts first */
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            sched_send(s, (vr + mask + root) % n, buf, bytes);
}
