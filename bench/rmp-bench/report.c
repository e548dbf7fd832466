/* report.c — what rmp-bench prints: rows as an OSU-like table, CSV or JSON on stdout (rank
 * 0 only, flushed row by row so that a run killed half-way keeps its rows), and the progress
 * line on stderr. */
#include <unistd.h>

#include "bench.h"

void report_begin(bench_ctx_t *c)
{
    bench_report_t *r = &c->report;
    r->format = c->opts->format;
    r->ranks = c->size;
    r->progress_tty = isatty(STDERR_FILENO);
    r->progress =
        c->rank == 0 && (c->opts->progress == 1 || (c->opts->progress == -1 && r->progress_tty));
    if (c->rank != 0)
        return;
    if (r->format == BENCH_CSV)
        printf("backend,bench,ranks,bytes,iters,avg,min,max,unit,check\n");
    else if (r->format == BENCH_JSON)
        printf("{\"backend\": \"%s\", \"ranks\": %d, \"results\": [", B_BACKEND, c->size);
    fflush(stdout);
}

void report_section(bench_ctx_t *c, const bench_kernel_t *k)
{
    if (c->rank != 0 || c->report.format != BENCH_TABLE)
        return;
    printf("# rmp-bench %s: %s, %d ranks, %s (avg over ranks of each rank's mean; min, max "
           "over ranks)\n",
           k->name, B_BACKEND, c->size, k->unit);
    printf("# %10s %12s %12s %12s %9s  %s\n", "bytes", "avg", "min", "max", "iters", "check");
    fflush(stdout);
}

void report_row(bench_ctx_t *c, const bench_row_t *w)
{
    bench_report_t *r = &c->report;
    if (c->rank != 0)
        return;
    const char *check = !w->k->check ? "-" : w->ok ? "ok" : "FAIL";
    switch (r->format) {
    case BENCH_TABLE:
        printf("  %10zu %12.2f %12.2f %12.2f %9ld  %s\n", w->bytes, w->avg, w->min, w->max,
               w->iters, check);
        break;
    case BENCH_CSV:
        printf("%s,%s,%d,%zu,%ld,%.3f,%.3f,%.3f,%s,%s\n", B_BACKEND, w->k->name, r->ranks, w->bytes,
               w->iters, w->avg, w->min, w->max, w->k->unit, check);
        break;
    case BENCH_JSON:
        printf("%s\n  {\"bench\": \"%s\", \"bytes\": %zu, \"iters\": %ld, \"avg\": %.3f, "
               "\"min\": %.3f, \"max\": %.3f, \"unit\": \"%s\", \"check\": \"%s\"}",
               r->rows ? "," : "", w->k->name, w->bytes, w->iters, w->avg, w->min, w->max,
               w->k->unit, check);
        break;
    }
    r->rows++;
    fflush(stdout);
}

void report_end(bench_ctx_t *c)
{
    if (c->rank != 0)
        return;
    if (c->report.format == BENCH_JSON)
        printf("\n]}\n");
    fflush(stdout);
}

void report_progress(bench_ctx_t *c, const bench_kernel_t *k, size_t bytes, int i, int n)
{
    if (!c->report.progress)
        return;
    if (c->report.progress_tty)
        fprintf(stderr, "\r\033[Krmp-bench: %s %zu B (%d/%d)", k->name, bytes, i + 1, n);
    else
        fprintf(stderr, "rmp-bench: %s %zu B (%d/%d)\n", k->name, bytes, i + 1, n);
    fflush(stderr);
}

void report_progress_done(bench_ctx_t *c)
{
    if (c->report.progress && c->report.progress_tty) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}
