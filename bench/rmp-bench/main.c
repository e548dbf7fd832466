/* main.c — rmp-bench's entry: start the library, read the command line (every rank reads
 * the same one and reaches the same verdict), check that the benchmarks can run on this many
 * ranks with these sizes before anything runs, then run them in order. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const bench_kernel_t *const all_kernels[] = {
    &bench_latency, &bench_bw,     &bench_bibw,      &bench_msgrate,   &bench_barrier,
    &bench_bcast,   &bench_reduce, &bench_allreduce, &bench_allgather, &bench_alltoall,
    &bench_allreduce_int, &bench_overlap_iallreduce, &bench_overlap_p2p,
    &bench_put,     &bench_get,    &bench_acc,       &bench_get_acc,   &bench_fop,
    &bench_cas,     &bench_put_bw, &bench_get_bw,    &bench_put_bibw,
    &bench_io_contig_w, &bench_io_contig_r, &bench_io_strided_w, &bench_io_2d_w,
    &bench_io_2d_r, &bench_io_3d_w, &bench_io_3d_r, &bench_io_ordered,
    &bench_overlap_iwrite_all,
};
static const bench_kernel_t *const collectives[] = {
    &bench_barrier,   &bench_bcast,     &bench_reduce,
    &bench_allreduce, &bench_allgather, &bench_alltoall,
};
static const bench_kernel_t *const overlaps[] = {&bench_overlap_iallreduce, &bench_overlap_p2p};
static const bench_kernel_t *const rmas[] = {
    &bench_put, &bench_get,    &bench_acc,    &bench_get_acc,  &bench_fop,
    &bench_cas, &bench_put_bw, &bench_get_bw, &bench_put_bibw,
};
static const bench_kernel_t *const ios[] = {
    &bench_io_contig_w, &bench_io_contig_r, &bench_io_strided_w, &bench_io_2d_w,
    &bench_io_2d_r,     &bench_io_3d_w,     &bench_io_3d_r,      &bench_io_ordered,
};
#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

void bench_fail(int rc, const char *what, const char *file, int line)
{
    int rank = -1;
    b_rank(&rank);
    fprintf(stderr, "rmp-bench: rank %d: %s failed (%s:%d): %s\n", rank, what, file, line,
            b_strerror(rc));
    fflush(stderr);
    b_abort(1);
    exit(1); /* not reached: b_abort ends the job */
}

static int group(const bench_kernel_t *const *g, int n, const bench_kernel_t **out)
{
    for (int i = 0; i < n; i++)
        out[i] = g[i];
    return n;
}

/* The kernels `name` stands for, into out; their count, 0 if the name is unknown. */
static int lookup(const char *name, const bench_kernel_t **out)
{
    if (strcmp(name, "collectives") == 0)
        return group(collectives, COUNT(collectives), out);
    if (strcmp(name, "overlap") == 0)
        return group(overlaps, COUNT(overlaps), out);
    if (strcmp(name, "rma") == 0)
        return group(rmas, COUNT(rmas), out);
    if (strcmp(name, "io") == 0)
        return group(ios, COUNT(ios), out);
    for (int i = 0; i < COUNT(all_kernels); i++)
        if (strcmp(name, all_kernels[i]->name) == 0) {
            out[0] = all_kernels[i];
            return 1;
        }
    return 0;
}

/* NULL when every kernel can run here, else why not (written into err). */
static const char *unrunnable(const bench_kernel_t **ks, int n, const bench_opts_t *o, int nranks,
                              char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        const char *why = ks[i]->unusable(nranks);
        size_t sizes[64];
        if (why) {
            snprintf(err, errlen, "%s %s; this job has %d", ks[i]->name, why, nranks);
            return err;
        }
        if (sweep_sizes(ks[i], o, sizes, 64) == 0) {
            if (ks[i]->align > 1)
                snprintf(err, errlen,
                         "%s: no message size in the sweep (sizes must be multiples of %zu "
                         "bytes)",
                         ks[i]->name, ks[i]->align);
            else
                snprintf(err, errlen,
                         "%s: no message size in the sweep (collectives need at least 1 byte)",
                         ks[i]->name);
            return err;
        }
    }
    return NULL;
}

static int usage_error(int rank, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "rmp-bench: %s\nTry 'rmp-bench --help'.\n", msg);
    b_finalize();
    return 2;
}

int main(int argc, char **argv)
{
    bench_opts_t opts;
    bench_ctx_t c = {.opts = &opts};
    char err[512];
    int rc = b_init(&argc, &argv);
    if (rc != 0) {
        fprintf(stderr, "rmp-bench: cannot start %s: %s\n", B_BACKEND, b_strerror(rc));
        return 1;
    }
    B_OK(b_rank(&c.rank));
    B_OK(b_size(&c.size));

    if (!opts_parse(argc, argv, &opts, err, sizeof err))
        return usage_error(c.rank, err);
    if (opts.help) {
        if (c.rank == 0)
            opts_usage(stdout);
        b_finalize();
        return 0;
    }
    const bench_kernel_t *ks[COUNT(all_kernels)];
    int n = lookup(opts.name, ks);
    if (n == 0) {
        snprintf(err, sizeof err,
                 "unknown benchmark '%s' (latency, bw, bibw, msgrate, barrier, bcast, reduce, "
                 "allreduce, allgather, alltoall, collectives, allreduce-int, overlap, "
                 "overlap-iallreduce, overlap-p2p, put, get, acc, get-acc, fop, cas, put-bw, "
                 "get-bw, put-bibw, rma, io-write, io-read, io-strided-write, io-2d-write-all, "
                 "io-2d-read-all, io-3d-write-all, io-3d-read-all, io-write-ordered, io, "
                 "overlap-iwrite-all)",
                 opts.name);
        return usage_error(c.rank, err);
    }
    if (unrunnable(ks, n, &opts, c.size, err, sizeof err))
        return usage_error(c.rank, err);

    /* A one-sided benchmark is reported under its synchronization too ("put-lock"), so that
     * rows of different modes never mix in a table. */
    bench_kernel_t named[COUNT(all_kernels)];
    char names[COUNT(all_kernels)][48];
    for (int i = 0; i < n; i++)
        if (ks[i]->open && !io_kernel(ks[i])) {
            named[i] = *ks[i];
            snprintf(names[i], sizeof names[i], "%s-%s", ks[i]->name, rma_sync_name(opts.sync));
            named[i].name = names[i];
            ks[i] = &named[i];
        }

    int status = 0;
    report_begin(&c);
    for (int i = 0; i < n && status == 0; i++)
        status = sweep_run(ks[i], &c);
    report_end(&c);
    if (status == 0 && c.failures > 0) {
        if (c.rank == 0)
            fprintf(stderr, "rmp-bench: %d size(s) delivered wrong data (check FAIL)\n",
                    c.failures);
        status = 1;
    }
    b_finalize();
    return status;
}
