/* io/coll_plan.c — the plan of a collective access, computed by every rank from the same
 * records (so no rank has to tell the others): two-phase or not, which ranks aggregate (a
 * few per node, spread over the nodes), the file domains (aligned to the stripe or block)
 * and the number of rounds of the collective buffer. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "core.h"

#define REC(r, f) all[(size_t)(r) * REC_N + (f)]

/* Below this mean run length, a rank alone would issue many small requests: two-phase is
 * used even when the ranks' ranges do not interleave (romio_cb_* automatic). */
#define COLL_SMALL_RUN ((int64_t)64 << 10)

static int cmp_lo(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* romio_cb_* automatic: two-phase when the ranks' ranges interleave (then a rank alone
 * would write through the others' bytes), or when the runs are small. */
static int want_two_phase(const int64_t *all, int size, int sw, int *indep)
{
    if (sw == IOH_ENABLE || sw == IOH_DISABLE) {
        *indep = sw == IOH_DISABLE;
        return RMP_SUCCESS;
    }
    int64_t(*rng)[2] = malloc((size_t)size * sizeof(*rng));
    if (!rng)
        return RMP_ERR_NO_MEM;
    int k = 0;
    int64_t runs = 0, bytes = 0;
    for (int r = 0; r < size; r++)
        if (REC(r, REC_NRUNS) > 0) {
            rng[k][0] = REC(r, REC_LO);
            rng[k++][1] = REC(r, REC_HI);
            runs += REC(r, REC_NRUNS);
            bytes += REC(r, REC_HI) - REC(r, REC_LO); /* the span: an upper bound of bytes */
        }
    qsort(rng, (size_t)k, sizeof(*rng), cmp_lo);
    int interleaved = 0;
    for (int i = 1; i < k; i++)
        interleaved |= rng[i][0] < rng[i - 1][1];
    free(rng);
    *indep = !interleaved && (runs == 0 || bytes / runs >= COLL_SMALL_RUN);
    return RMP_SUCCESS;
}

/* How many aggregators each node gets: cb_nodes in all (spread round-robin over the nodes,
 * never more than a node's ranks), else up to IO_AGGS_PER_NODE on every node. */
static int spread(int *take, const int *cnt, int nnodes, int cb_nodes, int size)
{
    int want = 0;
    if (cb_nodes <= 0)
        for (int k = 0; k < nnodes; k++)
            want += cnt[k] < IO_AGGS_PER_NODE ? cnt[k] : IO_AGGS_PER_NODE;
    else
        want = cb_nodes < size ? cb_nodes : size;
    for (int got = 0; got < want;)
        for (int k = 0; k < nnodes && got < want; k++)
            if (take[k] < cnt[k])
                take[k]++, got++;
    return want;
}

/* The aggregators: on each node, `take` of its ranks evenly spaced in rank order (ranks of
 * a node are often numbered socket by socket), listed in ascending comm rank. */
static int pick_aggs(coll_plan_t *p, const int64_t *all, int cb_nodes)
{
    int n = p->size, rc = RMP_ERR_NO_MEM;
    int *nid = malloc((size_t)n * sizeof(int)), *cnt = calloc((size_t)n, sizeof(int));
    int *take = calloc((size_t)n, sizeof(int)), *seen = calloc((size_t)n, sizeof(int));
    p->aggs = malloc((size_t)n * sizeof(int));
    if (!nid || !cnt || !take || !seen || !p->aggs)
        goto out;
    int nnodes = 0;
    for (int r = 0; r < n; r++) { /* nodes numbered by their first rank */
        int k = 0;
        while (k < nnodes && REC(seen[k], REC_NODE) != REC(r, REC_NODE))
            k++;
        if (k == nnodes)
            seen[nnodes++] = r;
        nid[r] = k;
        cnt[k]++;
    }
    p->naggs = spread(take, cnt, nnodes, cb_nodes, n);
    memset(seen, 0, (size_t)n * sizeof(int)); /* now: ranks of each node met so far */
    int a = 0;
    for (int r = 0; r < n; r++) {
        int k = nid[r], i = seen[k]++;
        /* the j-th of take[k] is member (j * cnt) / take: is i one of them? */
        int j = take[k] ? (i * take[k] + cnt[k] - 1) / cnt[k] : take[k];
        if (j < take[k] && (j * cnt[k]) / take[k] == i)
            p->aggs[a++] = r;
    }
    p->naggs = a;
    for (int i = 0; i < a; i++)
        if (p->aggs[i] == p->rank)
            p->me_agg = i;
    rc = RMP_SUCCESS;
out:
    free(nid), free(cnt), free(take), free(seen);
    return rc;
}

/* File domains: the accessed span cut in naggs pieces whose inner boundaries fall on
 * multiples of the alignment (a stripe, else the file system block), so that two
 * aggregators never write into one block; trailing domains may be empty. */
static int cut_domains(coll_plan_t *p, const int64_t *all)
{
    int64_t lo = INT64_MAX, hi = -1;
    for (int r = 0; r < p->size; r++)
        if (REC(r, REC_NRUNS) > 0) {
            lo = REC(r, REC_LO) < lo ? REC(r, REC_LO) : lo;
            hi = REC(r, REC_HI) > hi ? REC(r, REC_HI) : hi;
        }
    p->dom = malloc(((size_t)p->naggs + 1) * sizeof(int64_t));
    if (!p->dom)
        return RMP_ERR_NO_MEM;
    if (hi < 0) { /* nobody accesses a byte */
        for (int i = 0; i <= p->naggs; i++)
            p->dom[i] = 0;
        return RMP_SUCCESS;
    }
    int64_t align = REC(0, REC_STRIPE) > 0 ? REC(0, REC_STRIPE) : REC(0, REC_BLOCK);
    align = align > 0 ? align : 1;
    int64_t base = lo - lo % align;
    int64_t each = (hi - base + p->naggs - 1) / p->naggs;
    each = (each + align - 1) / align * align;
    p->dom[0] = lo;
    for (int i = 1; i < p->naggs; i++) {
        int64_t b = base + each * i;
        p->dom[i] = b < lo ? lo : b > hi ? hi : b;
    }
    p->dom[p->naggs] = hi;
    return RMP_SUCCESS;
}

int coll_plan_make(coll_plan_t *p, const int64_t *all, int *indep)
{
    int rc = want_two_phase(all, p->size, (int)REC(0, REC_CB), indep);
    if (rc || *indep)
        return rc;
    int64_t cb = REC(0, REC_CB_SIZE) > 0 ? REC(0, REC_CB_SIZE) : IO_CB_BUFFER_DEFAULT;
    p->cb = cb < IO_CB_BUFFER_MAX ? cb : IO_CB_BUFFER_MAX;
    p->sieve = (int)REC(0, REC_DS);
    rc = pick_aggs(p, all, (int)REC(0, REC_CB_NODES));
    if (!rc)
        rc = cut_domains(p, all);
    if (rc)
        return rc;
    for (int i = 0; i < p->naggs; i++) {
        int64_t r = (p->dom[i + 1] - p->dom[i] + p->cb - 1) / p->cb;
        p->rounds = r > p->rounds ? r : p->rounds;
    }
    if (p->rank == 0)
        core_verbose(&rmp_ctx, "io: collective %s: %d aggregators, domains of %lld bytes, %lld "
                     "rounds of %lld", p->is_write ? "write" : "read", p->naggs,
                     (long long)(p->dom[p->naggs] - p->dom[0]) / p->naggs,
                     (long long)p->rounds, (long long)p->cb);
    return RMP_SUCCESS;
}

void coll_plan_free(coll_plan_t *p)
{
    free(p->aggs);
    free(p->dom);
    p->aggs = NULL;
    p->dom = NULL;
}
