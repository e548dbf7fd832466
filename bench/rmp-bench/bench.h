/* bench.h — what the modules of rmp-bench share: the command-line options, the per-run
 * context, the description of one benchmark (a kernel: fill, run once, check, and how to turn
 * seconds into the reported number), and the entry points of each module. The code behind it
 * is written once and built against rmp or MPI through bench_api.h. */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_api.h"

#define BENCH_MAX_BYTES        ((size_t)256 << 20) /* largest message (per block) accepted */
#define BENCH_MAX_WINDOW       1024
#define BENCH_LARGE            8192 /* OSU's LARGE_MESSAGE_SIZE: above it, fewer iterations */
#define BENCH_MIN_BUDGET_ITERS 5    /* the time budget never cuts a size below this */
#define BENCH_TAG_DATA         1
#define BENCH_TAG_ACK          2

typedef enum bench_format { BENCH_TABLE, BENCH_CSV, BENCH_JSON } bench_format_t;
/* One-sided synchronization (OSU's -s): how an origin opens and completes its operations. */
typedef enum bench_sync { SYNC_FLUSH, SYNC_LOCK, SYNC_FENCE, SYNC_PSCW } bench_sync_t;
/* One-sided window flavor (OSU's -w). */
typedef enum bench_flavor { FLAVOR_ALLOCATE, FLAVOR_CREATE } bench_flavor_t;

typedef struct bench_opts {
    const char *name; /* benchmark (or "collectives") */
    size_t min, max;  /* sweep bounds in bytes */
    bool min_set, max_set;
    long iters, warmup; /* -1: the OSU defaults, trimmed by the time budget */
    double budget;      /* seconds per size for the timed loop; 0: no trimming */
    int window;         /* messages in flight for bw, bibw, msgrate */
    bench_format_t format;
    int progress; /* -1: when stderr is a tty, 0: never, 1: always */
    bench_sync_t sync;     /* one-sided benchmarks only */
    bench_flavor_t flavor; /* one-sided benchmarks only */
    bool help;
} bench_opts_t;

/* Output state (rank 0 writes everything). */
typedef struct bench_report {
    bench_format_t format;
    bool progress, progress_tty;
    int rows; /* rows written so far (JSON needs the commas) */
    int ranks;
} bench_report_t;

typedef struct bench_ctx {
    int rank, size;
    const bench_opts_t *opts;
    bench_report_t report;
    char *sbuf, *rbuf; /* sized for the largest message of the current benchmark */
    b_req_t *reqs;     /* 2 * window requests */
    char ack[8];
    int failures; /* sizes whose validation failed */
    /* One-sided benchmarks (rma.c): the window, its memory here, and origin-side room. */
    b_win_t win;
    char *wbuf, *wown; /* window memory; wown: ours to free (the create flavor) */
    char *obuf;        /* results of a window of gets (one slot per operation) */
    size_t slots;      /* distinct target slots a window of operations writes */
    b_group_t peer;    /* PSCW: the other rank */
    int rma_op, rma_shape; /* which operation, and latency / bw / bibw (rma.c's enums) */
    int64_t amo[2];        /* fetch_and_op's operand; compare_and_swap's value and compare */
    /* MPI-IO benchmarks (io.c): the shared file, this size's view, the kernel's shape. */
    b_file_t file;
    b_type_t io_type;
    bool io_type_set, io_reads;
    int io_kind;
    char io_path[512];
} bench_ctx_t;

/* One benchmark. `run` performs one iteration (a round trip, a window, one collective call);
 * the driver in sweep.c does everything else the same way for all of them. */
typedef struct bench_kernel {
    const char *name;
    const char *unit;        /* of the reported number: "us", "MB/s", "msg/s" */
    bool sized;              /* false: one row without a size (barrier) */
    size_t align;            /* sizes must be multiples of this, and at least it (0: 0 allowed) */
    size_t def_min, def_max; /* default sweep */
    bool sbuf_per_rank, rbuf_per_rank; /* buffer holds one block per rank (alltoall...) */
    bool sync_each; /* time each call, untimed barrier after it (OSU collectives) */
    bool fixed_size; /* one size only, def_min (fetch_and_op, compare_and_swap: 8 bytes) */
    long iters_small, warmup_small, iters_large, warmup_large;
    /* NULL when the benchmark runs on `nranks` ranks, else why not (a static string). */
    const char *(*unusable)(int nranks);
    void (*fill)(bench_ctx_t *c, size_t bytes);
    void (*run)(bench_ctx_t *c, size_t bytes);
    size_t (*check)(bench_ctx_t *c, size_t bytes); /* wrong bytes/elements on this rank */
    /* The reported number from seconds per iteration (NULL: microseconds per iteration). */
    double (*metric)(const bench_ctx_t *c, size_t bytes, double secs);
    /* Whether this rank's number counts in avg/min/max (NULL: every rank's does). */
    bool (*measured)(const bench_ctx_t *c);
    /* Set up before the first size for messages up to `largest` (a window), and undo after the
     * last (NULL: nothing). open returns false, agreed over ranks, when it cannot. */
    bool (*open)(bench_ctx_t *c, size_t largest);
    void (*close)(bench_ctx_t *c);
    /* A benchmark with its own measurement loop (overlap.c) over the shared steps below;
     * NULL: sweep_run's. */
    int (*driver)(const struct bench_kernel *k, bench_ctx_t *c);
    /* An overlap benchmark's start of one operation into c->reqs[0] (NULL: overlap.c's own). */
    void (*post)(bench_ctx_t *c, size_t bytes);
} bench_kernel_t;

/* One reported line. */
typedef struct bench_row {
    const bench_kernel_t *k;
    size_t bytes;
    long iters;
    double avg, min, max;
    bool ok;
} bench_row_t;

/* options.c */
/* Parses argv into *o; false with a one-line reason in err when the input is bad. */
bool opts_parse(int argc, char **argv, bench_opts_t *o, char *err, size_t errlen);
void opts_usage(FILE *f);

/* p2p.c: the `unusable` of the benchmarks between rank 0 and rank 1. */
const char *bench_exactly_two(int nranks);

/* main.c: the error path every module shares. Reports a failed call and ends the job. */
void bench_fail(int rc, const char *what, const char *file, int line);
#define B_OK(call)                                                                                 \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        if (rc_ != 0)                                                                              \
            bench_fail(rc_, #call, __FILE__, __LINE__);                                            \
    } while (0)

/* sweep.c */
/* The sizes kernel k sweeps under the options: writes up to cap of them, returns the count. */
int sweep_sizes(const bench_kernel_t *k, const bench_opts_t *o, size_t *sizes, int cap);
/* Runs k over its sweep and reports each size. 0, or 1 when a runtime step failed. */
int sweep_run(const bench_kernel_t *k, bench_ctx_t *c);
/* The steps of sweep_run, for drivers of their own (overlap.c). Fill, run once and check:
 * true when every rank got the right data; *secs the agreed time of that run. */
bool sweep_validate(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes, double *secs);
/* Up to count warm-up iterations (bounded: stop at a quarter of the budget); the agreed time
 * per iteration of the fastest chunk, or fallback. */
double sweep_warm_up(const bench_kernel_t *k, bench_ctx_t *c, size_t bytes, long count,
                     bool bounded, double fallback);
/* The timed iteration count for this size at per_iter seconds per iteration. */
long sweep_iterations(const bench_kernel_t *k, const bench_opts_t *o, size_t bytes,
                      double per_iter);
/* avg (over the ranks k measures), min and max over ranks of v into row. */
void sweep_over_ranks(const bench_kernel_t *k, bench_ctx_t *c, double v, bench_row_t *row);
/* Buffers for messages up to `largest` bytes (agreed: false if any rank lacks memory). */
bool sweep_alloc(const bench_kernel_t *k, bench_ctx_t *c, size_t largest);
void sweep_free(bench_ctx_t *c);

/* report.c */
void report_begin(bench_ctx_t *c);
void report_section(bench_ctx_t *c, const bench_kernel_t *k);
void report_row(bench_ctx_t *c, const bench_row_t *row);
void report_end(bench_ctx_t *c);
void report_progress(bench_ctx_t *c, const bench_kernel_t *k, size_t bytes, int i, int n);
void report_progress_done(bench_ctx_t *c);

/* pattern.c: data that depends on the byte's position and a seed, to catch misplaced,
 * stale or truncated data. */
void pattern_fill(void *buf, size_t bytes, unsigned seed);
size_t pattern_check(const void *buf, size_t bytes, unsigned seed);
/* Floats for sum reductions: rank r contributes (r + 1) * f(i, seed), small integers whose
 * sum over any number of ranks a float holds exactly. */
void pattern_fill_floats(float *v, size_t count, unsigned seed, int rank);
size_t pattern_check_float_sum(const float *v, size_t count, unsigned seed, int nranks);

/* p2p.c and coll.c: the kernels. */
extern const bench_kernel_t bench_latency, bench_bw, bench_bibw, bench_msgrate;
extern const bench_kernel_t bench_allreduce_int; /* int sum: what RMP_COLL_OFFLOAD runs */
/* overlap.c: OSU's overlap method for iallreduce and for an isend/irecv pair. */
extern const bench_kernel_t bench_overlap_iallreduce, bench_overlap_p2p;
int overlap_driver(const bench_kernel_t *k, bench_ctx_t *c);
/* rma.c: OSU's one-sided benchmarks, under opts.sync and opts.flavor. */
extern const bench_kernel_t bench_put, bench_get, bench_acc, bench_get_acc, bench_fop, bench_cas,
    bench_put_bw, bench_get_bw, bench_put_bibw;
const char *rma_sync_name(bench_sync_t s);
/* io.c: MPI-IO to one shared file (after IOR's MPI-IO back end), aggregate MB/s. */
extern const bench_kernel_t bench_io_contig_w, bench_io_contig_r, bench_io_strided_w,
    bench_io_2d_w, bench_io_2d_r, bench_io_3d_w, bench_io_3d_r, bench_io_ordered;
/* io.c: iwrite_at_all of the 2-D subarray, by overlap.c's method. */
extern const bench_kernel_t bench_overlap_iwrite_all;
bool io_kernel(const bench_kernel_t *k); /* one of those (no one-sided sync in its name) */
extern const bench_kernel_t bench_barrier, bench_bcast, bench_reduce, bench_allreduce,
    bench_allgather, bench_alltoall;

#endif
