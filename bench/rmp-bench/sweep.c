/* sweep.c — the measurement method every benchmark shares (OSU's). For each size: fill the
 * buffers, run once and validate what arrived, warm up, then time the iterations; each rank's
 * mean time per iteration becomes its number, and the average, minimum and maximum over ranks
 * are reported. Whatever changes how many calls a rank makes (the warm-up length, the iteration
 * count) comes from a value agreed by an allreduce, so ranks never disagree on it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define SWEEP_CAP 64 /* more sizes than a sweep of doublings up to 256M can have */

int sweep_sizes(const bench_kernel_t *k, const bench_opts_t *o, size_t *sizes, int cap)
{
    if (!k->sized || k->fixed_size) {
        sizes[0] = k->sized ? k->def_min : 0;
        return 1;
    }
    size_t hi = o->max_set ? o->max : k->def_max;
    size_t lo = o->min_set ? o->min : k->def_min;
    if (!o->max_set && lo > hi)
        hi = lo;
    if (!o->min_set && lo > hi)
        lo = hi;
    int n = 0;
    for (size_t s = lo; s <= hi && n < cap; s = s ? s * 2 : 1)
        if (k->align == 0 || (s >= k->align && s % k->align == 0))
            sizes[n++] = s;
    return n;
}

static double agree_max(double v)
{
    double out;
    B_OK(b_allreduce(&v, &out, 1, B_DOUBLE, B_MAX));
    return out;
}

/* Seconds spent in `iters` iterations: the whole loop, or (sync_each) the calls alone. */
static double run_iters(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes, long iters)
{
    if (!k->sync_each) {
        double t0 = b_wtime();
        for (long i = 0; i < iters; i++)
            k->run(c, bytes);
        return b_wtime() - t0;
    }
    double spent = 0;
    for (long i = 0; i < iters; i++) {
        double t0 = b_wtime();
        k->run(c, bytes);
        spent += b_wtime() - t0;
        B_OK(b_barrier());
    }
    return spent;
}

/* Runs up to `count` warm-up iterations in doubling chunks, stopping early (when `bounded`)
 * once a quarter of the budget is spent. Returns the agreed wall seconds per iteration of the
 * fastest chunk — the first iterations pay for connecting and page faults, and on a busy
 * machine one preempted chunk must not cut the iteration count — or `fallback` when none
 * ran. */
double sweep_warm_up(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes, long count,
                      bool bounded, double fallback)
{
    long done = 0, chunk = 1;
    double mine[2] = {0, 0}, agreed[2] = {0, 0}; /* total, this chunk's time per iteration */
    double fastest = fallback;
    while (done < count) {
        long m = chunk < count - done ? chunk : count - done;
        double t0 = b_wtime();
        run_iters(k, c, bytes, m);
        mine[1] = (b_wtime() - t0) / (double)m;
        mine[0] += mine[1] * (double)m;
        done += m;
        B_OK(b_allreduce(mine, agreed, 2, B_DOUBLE, B_MAX));
        if (done == m || agreed[1] < fastest)
            fastest = agreed[1];
        if (bounded && agreed[0] > c->opts->budget / 4)
            break;
        chunk *= 2;
    }
    return fastest;
}

/* Fills, runs once, checks on every rank; true when every rank got the right data. */
bool sweep_validate(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes, double *secs)
{
    k->fill(c, bytes);
    B_OK(b_barrier());
    double t0 = b_wtime();
    k->run(c, bytes);
    double mine[2] = {0, b_wtime() - t0}, all[2];
    if (k->check)
        mine[0] = (double)k->check(c, bytes);
    B_OK(b_allreduce(mine, all, 2, B_DOUBLE, B_MAX));
    *secs = all[1];
    return all[0] == 0;
}

long sweep_iterations(const bench_kernel_t *k, const bench_opts_t *o, size_t bytes,
                            double per_iter)
{
    if (o->iters > 0)
        return o->iters;
    long n = bytes > BENCH_LARGE ? k->iters_large : k->iters_small;
    if (o->budget > 0 && per_iter > 0) {
        double fit = o->budget / per_iter;
        if (fit < (double)n)
            n = fit < BENCH_MIN_BUDGET_ITERS ? BENCH_MIN_BUDGET_ITERS : (long)fit;
    }
    return n;
}

/* Average over the measured ranks, minimum and maximum of each rank's number. */
void sweep_over_ranks(const bench_kernel_t *k, bench_ctx_t *c, double v, bench_row_t *row)
{
    bool counted = !k->measured || k->measured(c);
    double sums[2] = {counted ? v : 0, counted ? 1 : 0}, tot[2];
    double ext[2] = {counted ? v : -HUGE_VAL, counted ? -v : -HUGE_VAL}, top[2];
    B_OK(b_allreduce(sums, tot, 2, B_DOUBLE, B_SUM));
    B_OK(b_allreduce(ext, top, 2, B_DOUBLE, B_MAX));
    row->avg = tot[1] > 0 ? tot[0] / tot[1] : 0;
    row->max = top[0];
    row->min = -top[1];
}

static void measure(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes, bench_row_t *row)
{
    const bench_opts_t *o = c->opts;
    double first;
    row->k = k;
    row->bytes = bytes;
    row->ok = sweep_validate(k, c, bytes, &first);
    c->failures += !row->ok;

    bool default_warmup = o->warmup < 0;
    long warm =
        default_warmup ? (bytes > BENCH_LARGE ? k->warmup_large : k->warmup_small) : o->warmup;
    double per_iter = sweep_warm_up(k, c, bytes, warm, default_warmup && o->budget > 0, first);
    row->iters = sweep_iterations(k, o, bytes, per_iter);

    B_OK(b_barrier());
    double secs = run_iters(k, c, bytes, row->iters) / (double)row->iters;
    sweep_over_ranks(k, c, k->metric ? k->metric(c, bytes, secs) : secs * 1e6, row);
}

/* Page-aligned, zeroed (so that no page fault lands in a timed loop); NULL on failure. */
static char *buffer(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0)
        return NULL;
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

/* Buffers for the largest size on every rank; false (agreed) if any rank lacks memory. */
bool sweep_alloc(const bench_kernel_t *k, bench_ctx_t *c, size_t largest)
{
    size_t n = (size_t)c->size;
    c->sbuf = buffer(largest * (k->sbuf_per_rank ? n : 1));
    c->rbuf = buffer(largest * (k->rbuf_per_rank ? n : 1));
    c->reqs = calloc(2 * (size_t)c->opts->window, sizeof *c->reqs);
    bool failed = !c->sbuf || !c->rbuf || !c->reqs;
    if (failed)
        fprintf(stderr,
                "rmp-bench: rank %d: cannot allocate buffers for %s of %zu bytes "
                "on %d ranks\n",
                c->rank, k->name, largest, c->size);
    return agree_max(failed) == 0;
}

void sweep_free(bench_ctx_t *c)
{
    free(c->sbuf);
    free(c->rbuf);
    free(c->reqs);
    c->sbuf = c->rbuf = NULL;
    c->reqs = NULL;
}

int sweep_run(const bench_kernel_t *k, bench_ctx_t *c)
{
    if (k->driver)
        return k->driver(k, c);
    size_t sizes[SWEEP_CAP];
    int n = sweep_sizes(k, c->opts, sizes, SWEEP_CAP);
    if (!sweep_alloc(k, c, sizes[n - 1])) {
        sweep_free(c);
        return 1;
    }
    if (k->open && !k->open(c, sizes[n - 1])) {
        sweep_free(c);
        return 1;
    }
    report_section(c, k);
    for (int i = 0; i < n; i++) {
        bench_row_t row;
        report_progress(c, k, sizes[i], i, n);
        measure(k, c, sizes[i], &row);
        report_row(c, &row);
    }
    report_progress_done(c);
    if (k->close)
        k->close(c);
    sweep_free(c);
    return 0;
}
