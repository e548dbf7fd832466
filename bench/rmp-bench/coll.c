/* coll.c — the collective kernels, after OSU's osu_barrier, osu_bcast, osu_reduce,
 * osu_allreduce, osu_allgather and osu_alltoall: one call per iteration, root 0, sum of floats
 * for the reductions, sizes per rank's block for allgather and alltoall. */
#include <string.h>

#include "bench.h"

static const char *any_ranks(int nranks)
{
    return NULL;
}

/* The seed of the block that rank `from` sends to rank `to` (to < 0: to everyone). */
static unsigned block_seed(int from, int to, size_t bytes)
{
    return (unsigned)from * 7919u + (unsigned)(to + 1) * 104729u + (unsigned)bytes;
}

#define COLL_DEFAULTS                                                                              \
    .unit = "us", .sized = true, .def_min = 1, .def_max = 1 << 20, .sync_each = true,              \
    .iters_small = 1000, .warmup_small = 200, .iters_large = 100, .warmup_large = 10,              \
    .unusable = any_ranks

/* ---- barrier ------------------------------------------------------------------------------ */

static void barrier_fill(bench_ctx_t *c, size_t bytes)
{
}

static void barrier_run(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_barrier());
}

/* OSU times barriers back to back: an extra barrier after each would only double the loop. */
const bench_kernel_t bench_barrier = {
    .name = "barrier",
    .unit = "us",
    .sized = false,
    .iters_small = 1000,
    .warmup_small = 200,
    .iters_large = 1000,
    .warmup_large = 200,
    .unusable = any_ranks,
    .fill = barrier_fill,
    .run = barrier_run,
};

/* ---- bcast -------------------------------------------------------------------------------- */

static void bcast_fill(bench_ctx_t *c, size_t bytes)
{
    if (c->rank == 0)
        pattern_fill(c->rbuf, bytes, block_seed(0, -1, bytes));
    else
        memset(c->rbuf, 0, bytes);
}

static void bcast_run(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_bcast(c->rbuf, (int)bytes, B_BYTE, 0));
}

static size_t bcast_check(bench_ctx_t *c, size_t bytes)
{
    return pattern_check(c->rbuf, bytes, block_seed(0, -1, bytes));
}

const bench_kernel_t bench_bcast = {
    COLL_DEFAULTS,      .name = "bcast",  .align = 1,
    .fill = bcast_fill, .run = bcast_run, .check = bcast_check,
};

/* ---- reduce and allreduce ------------------------------------------------------------------ */

static void sum_fill(bench_ctx_t *c, size_t bytes)
{
    pattern_fill_floats((float *)(void *)c->sbuf, bytes / sizeof(float), (unsigned)bytes, c->rank);
    memset(c->rbuf, 0, bytes);
}

static size_t sum_check(bench_ctx_t *c, size_t bytes)
{
    return pattern_check_float_sum((const float *)(void *)c->rbuf, bytes / sizeof(float),
                                   (unsigned)bytes, c->size);
}

static void reduce_run(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_reduce(c->sbuf, c->rbuf, (int)(bytes / sizeof(float)), B_FLOAT, B_SUM, 0));
}

static size_t reduce_check(bench_ctx_t *c, size_t bytes)
{
    return c->rank == 0 ? sum_check(c, bytes) : 0;
}

const bench_kernel_t bench_reduce = {
    COLL_DEFAULTS,    .name = "reduce",  .align = sizeof(float),
    .fill = sum_fill, .run = reduce_run, .check = reduce_check,
};

static void allreduce_run(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_allreduce(c->sbuf, c->rbuf, (int)(bytes / sizeof(float)), B_FLOAT, B_SUM));
}

const bench_kernel_t bench_allreduce = {
    COLL_DEFAULTS,    .name = "allreduce",  .align = sizeof(float),
    .fill = sum_fill, .run = allreduce_run, .check = sum_check,
};

/* allreduce-int: a sum of ints, the reduction the adapter can run (RMP_COLL_OFFLOAD: a few
 * 8-byte words on RDMA atomics); default sizes up to 8 ints. */
static void isum_fill(bench_ctx_t *c, size_t bytes)
{
    int *v = (int *)(void *)c->sbuf;
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        v[i] = (int)(i * 131u) - c->rank * 7;
    memset(c->rbuf, 0, bytes);
}

static size_t isum_check(bench_ctx_t *c, size_t bytes)
{
    const int *v = (const int *)(const void *)c->rbuf;
    size_t bad = 0;
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        bad += v[i] != (int)(i * 131u) * c->size - 7 * (c->size * (c->size - 1) / 2);
    return bad;
}

static void iallreduce_run(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_allreduce(c->sbuf, c->rbuf, (int)(bytes / sizeof(int)), B_INT, B_SUM));
}

const bench_kernel_t bench_allreduce_int = {
    .unit = "us", .sized = true, .def_min = 4, .def_max = 32, .sync_each = true,
    .iters_small = 1000, .warmup_small = 200, .iters_large = 100, .warmup_large = 10,
    .unusable = any_ranks, .name = "allreduce-int", .align = sizeof(int),
    .fill = isum_fill, .run = iallreduce_run, .check = isum_check,
};

/* ---- allgather and alltoall: `bytes` per block, one block per rank ------------------------- */

static void allgather_fill(bench_ctx_t *c, size_t bytes)
{
    pattern_fill(c->sbuf, bytes, block_seed(c->rank, -1, bytes));
    memset(c->rbuf, 0, bytes * (size_t)c->size);
}

static void allgather_run(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_allgather(c->sbuf, c->rbuf, (int)bytes, B_BYTE));
}

static size_t allgather_check(bench_ctx_t *c, size_t bytes)
{
    size_t wrong = 0;
    for (int r = 0; r < c->size; r++)
        wrong += pattern_check(c->rbuf + (size_t)r * bytes, bytes, block_seed(r, -1, bytes));
    return wrong;
}

const bench_kernel_t bench_allgather = {
    COLL_DEFAULTS,
    .name = "allgather",
    .align = 1,
    .rbuf_per_rank = true,
    .fill = allgather_fill,
    .run = allgather_run,
    .check = allgather_check,
};

static void alltoall_fill(bench_ctx_t *c, size_t bytes)
{
    for (int to = 0; to < c->size; to++)
        pattern_fill(c->sbuf + (size_t)to * bytes, bytes, block_seed(c->rank, to, bytes));
    memset(c->rbuf, 0, bytes * (size_t)c->size);
}

static void alltoall_run(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_alltoall(c->sbuf, c->rbuf, (int)bytes, B_BYTE));
}

static size_t alltoall_check(bench_ctx_t *c, size_t bytes)
{
    size_t wrong = 0;
    for (int from = 0; from < c->size; from++)
        wrong +=
            pattern_check(c->rbuf + (size_t)from * bytes, bytes, block_seed(from, c->rank, bytes));
    return wrong;
}

const bench_kernel_t bench_alltoall = {
    COLL_DEFAULTS,         .name = "alltoall",    .align = 1,          .sbuf_per_rank = true,
    .rbuf_per_rank = true, .fill = alltoall_fill, .run = alltoall_run, .check = alltoall_check,
};
