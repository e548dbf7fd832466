/* test_io_coll_plan.c — the plan of a collective access (io/coll_plan.c), computed from
 * synthetic ranks' records without a job: aggregators spread over the nodes (a few per node,
 * evenly within one, cb_nodes honoured), file domains on stripe or block boundaries, rounds of
 * the buffer, the automatic choice between two-phase and independent I/O, and the sieving
 * rule (io/coll_fs.c). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../io/coll.h"

#define MAXR 16
static int64_t recs[MAXR * REC_N];

/* Rank r on node `node`, accessing [lo, hi) in nruns runs (0: nothing). */
static void rec(int r, int node, int64_t lo, int64_t hi, int64_t nruns)
{
    int64_t *x = &recs[r * REC_N];
    x[REC_NODE] = node;
    x[REC_LO] = nruns ? lo : -1;
    x[REC_HI] = nruns ? hi : -1;
    x[REC_NRUNS] = nruns;
    x[REC_BLOCK] = 4096;
}

static void hints(int cb, int64_t cb_nodes, int64_t cb_size, int64_t stripe)
{
    recs[REC_CB] = cb;
    recs[REC_CB_NODES] = cb_nodes;
    recs[REC_CB_SIZE] = cb_size;
    recs[REC_STRIPE] = stripe;
}

/* The plan of `size` ranks as seen by rank 0; two-phase expected. */
static coll_plan_t plan(int size)
{
    coll_plan_t p = {.size = size, .rank = 0, .me_agg = -1, .is_write = 1};
    int indep = -1;
    cr_assert_eq(coll_plan_make(&p, recs, &indep), RMP_SUCCESS);
    cr_assert_eq(indep, 0, "independent I/O chosen where two-phase was expected");
    return p;
}

static void expect_aggs(const coll_plan_t *p, int n, const int *want)
{
    cr_assert_eq(p->naggs, n, "%d aggregators, expected %d", p->naggs, n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(p->aggs[i], want[i], "aggregator %d is rank %d, expected %d", i,
                     p->aggs[i], want[i]);
}

static void reset(void)
{
    memset(recs, 0, sizeof recs);
}

Test(io_coll_plan, two_per_node_evenly_spaced)
{
    reset();
    for (int r = 0; r < 8; r++) /* two nodes of four, interleaved accesses */
        rec(r, r / 4, r * 10, 1000 + r, 5);
    hints(IOH_ENABLE, 0, 0, 0);
    coll_plan_t p = plan(8);
    expect_aggs(&p, 4, (int[]){0, 2, 4, 6});
    coll_plan_free(&p);
}

Test(io_coll_plan, cb_nodes_spread_over_nodes_first)
{
    reset();
    for (int r = 0; r < 6; r++) /* three nodes of two */
        rec(r, 7 - r / 2, 0, 100, 1);
    hints(IOH_ENABLE, 3, 0, 0);
    coll_plan_t p = plan(6);
    expect_aggs(&p, 3, (int[]){0, 2, 4}); /* one per node, not ranks 0, 1, 2 */
    coll_plan_free(&p);
    reset();
    for (int r = 0; r < 4; r++) /* ranks dealt round-robin over two nodes */
        rec(r, r % 2, 0, 100, 1);
    hints(IOH_ENABLE, 2, 0, 0);
    p = plan(4);
    expect_aggs(&p, 2, (int[]){0, 1});
    coll_plan_free(&p);
}

Test(io_coll_plan, cb_nodes_above_size_is_every_rank)
{
    reset();
    for (int r = 0; r < 3; r++)
        rec(r, 0, 0, 100, 1);
    hints(IOH_ENABLE, 10, 0, 0);
    coll_plan_t p = plan(3);
    expect_aggs(&p, 3, (int[]){0, 1, 2});
    cr_assert_eq(p.me_agg, 0);
    coll_plan_free(&p);
}

/* Inner boundaries on multiples of the alignment, the span covered exactly, in order. */
static void expect_domains(const coll_plan_t *p, int64_t lo, int64_t hi, int64_t align)
{
    cr_assert_eq(p->dom[0], lo);
    cr_assert_eq(p->dom[p->naggs], hi);
    for (int i = 1; i < p->naggs; i++) {
        cr_assert(p->dom[i] >= p->dom[i - 1], "domain %d starts before the previous", i);
        cr_assert(p->dom[i] == hi || p->dom[i] % align == 0,
                  "boundary %d at %lld is not on a multiple of %lld", i, (long long)p->dom[i],
                  (long long)align);
    }
}

Test(io_coll_plan, domains_on_block_then_stripe_boundaries)
{
    reset();
    for (int r = 0; r < 4; r++)
        rec(r, r, 100 + r, 100000 - r, 3);
    hints(IOH_ENABLE, 4, 0, 0);
    coll_plan_t p = plan(4);
    expect_domains(&p, 100, 100000, 4096);
    cr_assert_eq(p.dom[1], 28672, "the first domain ends at %lld", (long long)p.dom[1]);
    coll_plan_free(&p);
    hints(IOH_ENABLE, 4, 0, 1000); /* striping_unit wins over the block size */
    p = plan(4);
    expect_domains(&p, 100, 100000, 1000);
    cr_assert_eq(p.dom[1], 25000);
    coll_plan_free(&p);
}

Test(io_coll_plan, rounds_of_the_buffer)
{
    reset();
    rec(0, 0, 0, 10000, 2);
    rec(1, 0, 5000, 9000, 2);
    hints(IOH_ENABLE, 1, 4096, 0);
    coll_plan_t p = plan(2);
    cr_assert_eq(p.cb, 4096);
    cr_assert_eq(p.rounds, 3, "10000 bytes in rounds of 4096: %lld rounds", (long long)p.rounds);
    coll_plan_free(&p);
    hints(IOH_ENABLE, 1, (int64_t)1 << 40, 0); /* capped: one message below INT_MAX */
    p = plan(2);
    cr_assert_eq(p.cb, IO_CB_BUFFER_MAX);
    coll_plan_free(&p);
}

static int indep_of(int size)
{
    coll_plan_t p = {.size = size, .me_agg = -1};
    int indep = -1;
    cr_assert_eq(coll_plan_make(&p, recs, &indep), RMP_SUCCESS);
    coll_plan_free(&p);
    return indep;
}

Test(io_coll_plan, automatic_two_phase_when_interleaved_or_small)
{
    reset();
    rec(0, 0, 0, 1 << 20, 1); /* disjoint ranges, large runs: each rank alone */
    rec(1, 0, 1 << 20, 2 << 20, 1);
    cr_assert_eq(indep_of(2), 1);
    recs[REC_CB] = IOH_ENABLE;
    cr_assert_eq(indep_of(2), 0, "enable forces two-phase");
    recs[REC_CB] = IOH_AUTO;
    rec(1, 0, (1 << 20) - 1, 2 << 20, 1); /* one byte of overlap: interleaved */
    cr_assert_eq(indep_of(2), 0);
    recs[REC_CB] = IOH_DISABLE;
    cr_assert_eq(indep_of(2), 1, "disable forces independent I/O");
    reset();
    rec(0, 0, 0, 1 << 20, 1024); /* disjoint, but 1 KiB runs */
    rec(1, 0, 1 << 20, 2 << 20, 1024);
    rec(2, 0, 0, 0, 0); /* and a rank with nothing */
    cr_assert_eq(indep_of(3), 0);
}

Test(io_coll_plan, sieve_where_it_pays)
{
    cr_assert_eq(coll_sieve(IOH_DEFAULT, 1, 1 << 20, 1 << 20, 1), 0, "no hole");
    cr_assert_eq(coll_sieve(IOH_DEFAULT, 1, 64 << 10, 32 << 10, 1024), 1,
                 "1024 small holes: one read and one write");
    cr_assert_eq(coll_sieve(IOH_DEFAULT, 1, 64 << 20, 2 << 10, 2), 0,
                 "two segments around a 64 MiB hole: two writes");
    cr_assert_eq(coll_sieve(IOH_DISABLE, 1, 64 << 10, 32 << 10, 1024), 0);
    cr_assert_eq(coll_sieve(IOH_ENABLE, 0, 64 << 20, 2 << 10, 2), 1);
    cr_assert_eq(coll_sieve(IOH_DEFAULT, 0, 8 << 10, 4 << 10, 3), 1,
                 "reads: three segments over 8 KiB, one read");
}
