/* overlap.c — how much of a nonblocking operation a computation hides, by OSU's method
 * (osu_iallreduce and its siblings): per size, t_comm is post + wait alone; then post, compute
 * for about t_comm (a calibrated busy loop that calls no library function), wait: t_total and
 * t_compute; overlap % = max(0, 100 * (1 - (t_total - t_compute) / t_comm)). 0 % means the
 * operation moved only inside the wait, 100 % that it finished during the computation (e.g. with
 * RMP_PROGRESS_THREAD=1). Two operations: iallreduce (floats, sum) and an isend/irecv pair
 * (rank i -> i + N/2). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "bench.h"

/* ---- the computation ---------------------------------------------------------------------- */

static double ov_loops_per_us; /* busy-loop rounds per microsecond, calibrated at first use */

static void ov_busy(long rounds)
{
    volatile unsigned long x = 1;
    for (long i = 0; i < rounds; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
}

static double ov_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Rounds per microsecond of ov_busy, from the fastest of a few runs of about 2 ms. */
static void ov_calibrate(void)
{
    long rounds = 1000;
    double t;
    while ((t = ov_now_us(), ov_busy(rounds), ov_now_us() - t) < 2000)
        rounds *= 2;
    double best = 0;
    for (int i = 0; i < 5; i++) {
        t = ov_now_us();
        ov_busy(rounds);
        double rate = (double)rounds / (ov_now_us() - t);
        best = rate > best ? rate : best;
    }
    ov_loops_per_us = best > 1 ? best : 1;
}

/* Busy for `us` microseconds of wall-clock time, as OSU's dummy compute: slices of about a
 * microsecond of work between clock reads (the vDSO, no system call, no library call), so
 * that the end is exact even when another process or the progress thread takes the core. */
static void ov_compute(double us)
{
    double end = ov_now_us() + us;
    while (ov_now_us() < end)
        ov_busy((long)ov_loops_per_us);
}

/* ---- the two operations: post (into c->reqs[0]) and, as the kernel's run, post + wait ----- */

static const char *ov_any(int nranks)
{
    return NULL;
}

static const char *ov_pairs(int nranks)
{
    return nranks >= 2 && nranks % 2 == 0 ? NULL : "needs an even number of ranks (pairs)";
}

static void ov_sum_fill(bench_ctx_t *c, size_t bytes)
{
    pattern_fill_floats((float *)(void *)c->sbuf, bytes / sizeof(float), (unsigned)bytes, c->rank);
    memset(c->rbuf, 0, bytes);
}

static size_t ov_sum_check(bench_ctx_t *c, size_t bytes)
{
    return pattern_check_float_sum((const float *)(void *)c->rbuf, bytes / sizeof(float),
                                   (unsigned)bytes, c->size);
}

static void ov_iallreduce_post(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_iallreduce(c->sbuf, c->rbuf, (int)(bytes / sizeof(float)), B_FLOAT, B_SUM,
                      &c->reqs[0]));
}

static bool ov_sender(const bench_ctx_t *c)
{
    return c->rank < c->size / 2;
}

static int ov_peer(const bench_ctx_t *c)
{
    return ov_sender(c) ? c->rank + c->size / 2 : c->rank - c->size / 2;
}

static unsigned ov_seed(int sender, size_t bytes)
{
    return (unsigned)sender * 7919u + (unsigned)bytes;
}

static void ov_p2p_fill(bench_ctx_t *c, size_t bytes)
{
    pattern_fill(c->sbuf, bytes, ov_seed(c->rank, bytes));
    memset(c->rbuf, 0, bytes);
}

static size_t ov_p2p_check(bench_ctx_t *c, size_t bytes)
{
    return ov_sender(c) ? 0 : pattern_check(c->rbuf, bytes, ov_seed(ov_peer(c), bytes));
}

static void ov_p2p_post(bench_ctx_t *c, size_t bytes)
{
    if (ov_sender(c))
        B_OK(b_isend(c->sbuf, (int)bytes, B_BYTE, ov_peer(c), BENCH_TAG_DATA, &c->reqs[0]));
    else
        B_OK(b_irecv(c->rbuf, (int)bytes, B_BYTE, ov_peer(c), BENCH_TAG_DATA, &c->reqs[0]));
}

static void ov_post(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes)
{
    if (k->post)
        k->post(c, bytes);
    else if (k == &bench_overlap_p2p)
        ov_p2p_post(c, bytes);
    else
        ov_iallreduce_post(c, bytes);
}

static void ov_iallreduce_run(bench_ctx_t *c, size_t bytes)
{
    ov_iallreduce_post(c, bytes);
    B_OK(b_waitall(1, c->reqs));
}

static void ov_p2p_run(bench_ctx_t *c, size_t bytes)
{
    ov_p2p_post(c, bytes);
    B_OK(b_waitall(1, c->reqs));
}

/* ---- the measurement ---------------------------------------------------------------------- */

/* Means per iteration, in seconds, of one rank. */
typedef struct ov_times {
    double total, compute;
} ov_times_t;

/* iters x (post; compute compute_us, timed; wait), each followed by an untimed barrier as in
 * OSU (compute_us 0: the pure communication). */
static ov_times_t ov_loop(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes, long iters,
                          double compute_us)
{
    ov_times_t t = {0, 0};
    B_OK(b_barrier());
    for (long i = 0; i < iters; i++) {
        double t0 = b_wtime();
        ov_post(k, c, bytes);
        if (compute_us > 0) {
            double tc = b_wtime();
            ov_compute(compute_us);
            t.compute += b_wtime() - tc;
        }
        B_OK(b_waitall(1, c->reqs));
        t.total += b_wtime() - t0;
        B_OK(b_barrier());
    }
    t.total /= (double)iters;
    t.compute /= (double)iters;
    return t;
}

/* The numbers of one size, each as avg/min/max over ranks. */
typedef struct ov_row {
    bench_row_t overlap, comm, total, compute; /* %, us, us, us */
} ov_row_t;

static void ov_measure(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes, ov_row_t *r)
{
    const bench_opts_t *o = c->opts;
    double first;
    bool ok = sweep_validate(k, c, bytes, &first);
    bool default_warmup = o->warmup < 0;
    long warm =
        default_warmup ? (bytes > BENCH_LARGE ? k->warmup_large : k->warmup_small) : o->warmup;
    double per_iter = sweep_warm_up(k, c, bytes, warm, default_warmup && o->budget > 0, first);
    /* Two timed loops, the second about twice as long per iteration as the first. */
    long iters = sweep_iterations(k, o, bytes, 3 * per_iter);

    ov_times_t comm = ov_loop(k, c, bytes, iters, 0);
    ov_times_t ovl = ov_loop(k, c, bytes, iters, comm.total * 1e6);
    /* The data of the last overlapped iteration must be right too. */
    double bad = k->check ? (double)k->check(c, bytes) : 0, any_bad;
    B_OK(b_allreduce(&bad, &any_bad, 1, B_DOUBLE, B_MAX));
    ok = ok && any_bad == 0;
    c->failures += !ok;

    double pct = 100.0 * (1.0 - (ovl.total - ovl.compute) / comm.total);
    sweep_over_ranks(k, c, pct > 0 ? pct : 0, &r->overlap);
    sweep_over_ranks(k, c, comm.total * 1e6, &r->comm);
    sweep_over_ranks(k, c, ovl.total * 1e6, &r->total);
    sweep_over_ranks(k, c, ovl.compute * 1e6, &r->compute);
    bench_row_t *rows[] = {&r->overlap, &r->comm, &r->total, &r->compute};
    for (int i = 0; i < 4; i++) {
        rows[i]->bytes = bytes;
        rows[i]->iters = iters;
        rows[i]->ok = ok;
    }
}

/* ---- the report: OSU's columns in a table; in CSV and JSON one row per number ------------- */

static size_t ov_check_any(bench_ctx_t *c, size_t bytes)
{
    return 0; /* never called: only the presence of a check matters to report_row */
}

static void ov_report(const bench_kernel_t *k, bench_ctx_t *c, ov_row_t *r, bool first)
{
    if (c->rank != 0)
        return;
    if (c->report.format == BENCH_TABLE) {
        if (first) {
            printf("# rmp-bench %s: %s, %d ranks (OSU's overlap method; times in us, avg over "
                   "ranks; overlap %% avg, min, max over ranks)\n", k->name, B_BACKEND, c->size);
            printf("# %10s %11s %11s %11s %9s %7s %7s %7s  %s\n", "bytes", "overall", "compute",
                   "pure_comm", "overlap%", "min", "max", "iters", "check");
        }
        printf("  %10zu %11.2f %11.2f %11.2f %9.2f %7.2f %7.2f %7ld  %s\n", r->overlap.bytes,
               r->total.avg, r->compute.avg, r->comm.avg, r->overlap.avg, r->overlap.min,
               r->overlap.max, r->overlap.iters, r->overlap.ok ? "ok" : "FAIL");
        fflush(stdout);
        return;
    }
    /* bench names: <name> (%), <name>-comm, <name>-total, <name>-compute (us) */
    static char names[4][48];
    static bench_kernel_t metric[4];
    const char *suffix[] = {"", "-comm", "-total", "-compute"};
    bench_row_t *rows[] = {&r->overlap, &r->comm, &r->total, &r->compute};
    for (int i = 0; i < 4; i++) {
        snprintf(names[i], sizeof names[i], "%s%s", k->name, suffix[i]);
        metric[i] = (bench_kernel_t){.name = names[i], .unit = i ? "us" : "%",
                                     .check = ov_check_any};
        rows[i]->k = &metric[i];
        report_row(c, rows[i]);
    }
}

int overlap_driver(const bench_kernel_t *k, bench_ctx_t *c)
{
    size_t sizes[64];
    int n = sweep_sizes(k, c->opts, sizes, 64);
    if (ov_loops_per_us == 0)
        ov_calibrate();
    if (!sweep_alloc(k, c, sizes[n - 1]) || (k->open && !k->open(c, sizes[n - 1]))) {
        sweep_free(c);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        ov_row_t row;
        report_progress(c, k, sizes[i], i, n);
        ov_measure(k, c, sizes[i], &row);
        ov_report(k, c, &row, i == 0);
    }
    report_progress_done(c);
    if (k->close)
        k->close(c);
    sweep_free(c);
    return 0;
}

#define OV_DEFAULTS                                                                                \
    .unit = "%", .sized = true, .def_min = 1024, .def_max = 4 << 20, .iters_small = 1000,         \
    .warmup_small = 200, .iters_large = 100, .warmup_large = 10, .driver = overlap_driver

const bench_kernel_t bench_overlap_iallreduce = {
    OV_DEFAULTS,           .name = "overlap-iallreduce", .align = sizeof(float),
    .unusable = ov_any,    .fill = ov_sum_fill,          .run = ov_iallreduce_run,
    .check = ov_sum_check,
};

const bench_kernel_t bench_overlap_p2p = {
    OV_DEFAULTS,           .name = "overlap-p2p", .align = 1,
    .unusable = ov_pairs,  .fill = ov_p2p_fill,   .run = ov_p2p_run,
    .check = ov_p2p_check,
};
