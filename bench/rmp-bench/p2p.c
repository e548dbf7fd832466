/* p2p.c — the point-to-point kernels, after OSU's osu_latency (ping-pong, one-way latency
 * is half the round trip), osu_bw (a window of isends, then an ack), osu_bibw (windows both
 * ways) and osu_mbw_mr (pairs i -> i + N/2 sending windows at once). */
#include <string.h>

#include "bench.h"

const char *bench_exactly_two(int nranks)
{
    return nranks == 2 ? NULL : "needs exactly 2 ranks (mrun -n 2)";
}

static const char *even_ranks(int nranks)
{
    return nranks >= 2 && nranks % 2 == 0 ? NULL : "needs an even number of ranks (pairs)";
}

/* Each rank sends its own pattern and expects its peer's. */
static unsigned seed_of(int rank, size_t bytes)
{
    return (unsigned)rank * 7919u + (unsigned)bytes;
}

static void fill_own(bench_ctx_t *c, size_t bytes)
{
    pattern_fill(c->sbuf, bytes, seed_of(c->rank, bytes));
    memset(c->rbuf, 0, bytes);
}

/* ---- latency ---------------------------------------------------------------------------- */

static void latency_run(bench_ctx_t *c, size_t bytes)
{
    int n = (int)bytes;
    if (c->rank == 0) {
        B_OK(b_send(c->sbuf, n, B_BYTE, 1, BENCH_TAG_DATA));
        B_OK(b_recv(c->rbuf, n, B_BYTE, 1, BENCH_TAG_DATA));
    } else {
        B_OK(b_recv(c->rbuf, n, B_BYTE, 0, BENCH_TAG_DATA));
        B_OK(b_send(c->sbuf, n, B_BYTE, 0, BENCH_TAG_DATA));
    }
}

static size_t peer_check(bench_ctx_t *c, size_t bytes)
{
    return pattern_check(c->rbuf, bytes, seed_of(1 - c->rank, bytes));
}

static double half_round_trip_us(const bench_ctx_t *c, size_t bytes, double secs)
{
    return secs / 2 * 1e6;
}

const bench_kernel_t bench_latency = {
    .name = "latency",
    .unit = "us",
    .sized = true,
    .align = 0,
    .def_min = 1,
    .def_max = 4 << 20,
    .iters_small = 10000,
    .warmup_small = 100,
    .iters_large = 1000,
    .warmup_large = 10,
    .unusable = bench_exactly_two,
    .fill = fill_own,
    .run = latency_run,
    .check = peer_check,
    .metric = half_round_trip_us,
};

/* ---- bw and msgrate: senders push a window, receivers ack it ----------------------------- */

/* In msgrate the first half of the ranks send to the second half; in bw rank 0 to rank 1. */
static bool is_sender(const bench_ctx_t *c)
{
    return c->rank < c->size / 2;
}

static void window_run(bench_ctx_t *c, size_t bytes)
{
    int n = (int)bytes, w = c->opts->window, half = c->size / 2;
    if (is_sender(c)) {
        for (int i = 0; i < w; i++)
            B_OK(b_isend(c->sbuf, n, B_BYTE, c->rank + half, BENCH_TAG_DATA, &c->reqs[i]));
        B_OK(b_waitall(w, c->reqs));
        B_OK(b_recv(c->ack, 4, B_BYTE, c->rank + half, BENCH_TAG_ACK));
    } else {
        for (int i = 0; i < w; i++)
            B_OK(b_irecv(c->rbuf, n, B_BYTE, c->rank - half, BENCH_TAG_DATA, &c->reqs[i]));
        B_OK(b_waitall(w, c->reqs));
        B_OK(b_send(c->ack, 4, B_BYTE, c->rank - half, BENCH_TAG_ACK));
    }
}

static size_t receiver_check(bench_ctx_t *c, size_t bytes)
{
    if (is_sender(c))
        return 0;
    return pattern_check(c->rbuf, bytes, seed_of(c->rank - c->size / 2, bytes));
}

static double window_mbs(const bench_ctx_t *c, size_t bytes, double secs)
{
    return (double)bytes * c->opts->window / secs / 1e6;
}

const bench_kernel_t bench_bw = {
    .name = "bw",
    .unit = "MB/s",
    .sized = true,
    .align = 0,
    .def_min = 1,
    .def_max = 4 << 20,
    .iters_small = 100,
    .warmup_small = 10,
    .iters_large = 20,
    .warmup_large = 2,
    .unusable = bench_exactly_two,
    .fill = fill_own,
    .run = window_run,
    .check = receiver_check,
    .metric = window_mbs,
};

static double window_msgs(const bench_ctx_t *c, size_t bytes, double secs)
{
    return c->opts->window / secs;
}

const bench_kernel_t bench_msgrate = {
    .name = "msgrate",
    .unit = "msg/s",
    .sized = true,
    .align = 0,
    .def_min = 1,
    .def_max = 4 << 20,
    .iters_small = 100,
    .warmup_small = 10,
    .iters_large = 20,
    .warmup_large = 2,
    .unusable = even_ranks,
    .fill = fill_own,
    .run = window_run,
    .check = receiver_check,
    .metric = window_msgs,
    .measured = is_sender,
};

/* ---- bibw: windows both ways at once ----------------------------------------------------- */

static void bibw_run(bench_ctx_t *c, size_t bytes)
{
    int n = (int)bytes, w = c->opts->window, peer = 1 - c->rank;
    for (int i = 0; i < w; i++)
        B_OK(b_irecv(c->rbuf, n, B_BYTE, peer, BENCH_TAG_DATA, &c->reqs[i]));
    for (int i = 0; i < w; i++)
        B_OK(b_isend(c->sbuf, n, B_BYTE, peer, BENCH_TAG_DATA, &c->reqs[w + i]));
    B_OK(b_waitall(2 * w, c->reqs));
}

static double both_ways_mbs(const bench_ctx_t *c, size_t bytes, double secs)
{
    return 2.0 * (double)bytes * c->opts->window / secs / 1e6;
}

const bench_kernel_t bench_bibw = {
    .name = "bibw",
    .unit = "MB/s",
    .sized = true,
    .align = 0,
    .def_min = 1,
    .def_max = 4 << 20,
    .iters_small = 100,
    .warmup_small = 10,
    .iters_large = 20,
    .warmup_large = 2,
    .unusable = bench_exactly_two,
    .fill = fill_own,
    .run = bibw_run,
    .check = peer_check,
    .metric = both_ways_mbs,
};
