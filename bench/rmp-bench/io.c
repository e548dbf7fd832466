/* io.c — the MPI-IO kernels, after IOR's MPI-IO back end: every rank moves `bytes` per call
 * to one shared file (in $BENCH_IO_DIR, default /tmp): independent contiguous blocks,
 * independent strided 1 KiB blocks, a collective write or read of each rank's subarray of a
 * 2-D or 3-D global byte array, and an append of every rank's block by write_ordered. The
 * number is the aggregate bandwidth of all ranks, MB/s (10^6); the check reads the bytes back
 * through the same view. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

enum { IO_CONTIG, IO_STRIDED, IO_2D, IO_3D, IO_ORDERED };
#define IO_STRIDE_BLOCK 1024

static const char *any_ranks(int nranks)
{
    return NULL;
}

static unsigned io_seed(const bench_ctx_t *c, size_t bytes)
{
    return (unsigned)c->rank * 2654435761u + (unsigned)bytes;
}

/* The largest divisor of n not above n^(1/k) (k = 2, 3): one side of a near-square/cube. */
static int side(long n, int k)
{
    int best = 1;
    for (long d = 1; (k == 2 ? d * d : d * d * d) <= n; d++)
        if (n % d == 0)
            best = (int)d;
    return best;
}

/* Near-square (ndims 2) or near-cube (3) factors of n, largest last. */
static void factors(long n, int ndims, int *f)
{
    if (ndims == 3) {
        f[0] = side(n, 3);
        n /= f[0];
    }
    f[ndims - 2] = side(n, 2);
    f[ndims - 1] = (int)(n / f[ndims - 2]);
}

/* This rank's subarray of the global array: ranks and local blocks both factored. */
static b_type_t subarray_view(const bench_ctx_t *c, size_t bytes, int ndims)
{
    int dims[3], local[3], sizes[3], starts[3], r = c->rank;
    factors(c->size, ndims, dims);
    factors((long)bytes, ndims, local);
    for (int d = ndims - 1; d >= 0; d--) { /* row-major rank coordinates */
        sizes[d] = dims[d] * local[d];
        starts[d] = (r % dims[d]) * local[d];
        r /= dims[d];
    }
    b_type_t t;
    B_OK(b_type_subarray(ndims, sizes, local, starts, &t));
    return t;
}

/* The view of this size (the previous one's type freed): bytes, every rank its own part. */
static void io_view(bench_ctx_t *c, size_t bytes)
{
    if (c->io_type_set)
        B_OK(b_type_free(&c->io_type));
    c->io_type_set = false;
    int64_t disp = 0;
    int blk = bytes < IO_STRIDE_BLOCK ? (int)bytes : IO_STRIDE_BLOCK;
    switch (c->io_kind) {
    case IO_STRIDED:
        B_OK(b_type_strided(blk, blk * c->size, &c->io_type));
        disp = (int64_t)c->rank * blk;
        break;
    case IO_2D:
    case IO_3D:
        c->io_type = subarray_view(c, bytes, c->io_kind == IO_2D ? 2 : 3);
        break;
    default: /* contiguous and ordered: the file's bytes as they are (the default view) */
        B_OK(b_file_set_view(c->file, 0, B_BYTE));
        return;
    }
    c->io_type_set = true;
    B_OK(b_file_set_view(c->file, disp, c->io_type));
}

/* Where this rank's block starts in its view (contiguous: its own stretch of the file). */
static int64_t io_off(const bench_ctx_t *c, size_t bytes)
{
    return c->io_kind == IO_CONTIG || c->io_kind == IO_ORDERED ? (int64_t)c->rank * (int64_t)bytes
                                                               : 0;
}

static bool io_open(bench_ctx_t *c, size_t largest, int kind, bool reads)
{
    c->io_kind = kind;
    c->io_reads = reads;
    c->io_type_set = false;
    const char *dir = getenv("BENCH_IO_DIR");
    int pid = (int)getpid();
    B_OK(b_bcast(&pid, 1, B_INT, 0));
    snprintf(c->io_path, sizeof c->io_path, "%s/rmp-bench-io.%s.%d", dir && *dir ? dir : "/tmp",
             B_BACKEND, pid);
    B_OK(b_file_open(c->io_path, &c->file));
    return true;
}

static void io_close(bench_ctx_t *c)
{
    if (c->io_type_set)
        B_OK(b_type_free(&c->io_type));
    c->io_type_set = false;
    B_OK(b_file_close(&c->file));
    if (c->rank == 0)
        B_OK(b_file_delete(c->io_path));
}

static void io_fill(bench_ctx_t *c, size_t bytes)
{
    io_view(c, bytes);
    pattern_fill(c->sbuf, bytes, io_seed(c, bytes));
    memset(c->rbuf, 0, bytes);
    if (c->io_reads) /* what the timed reads find: this rank's own bytes, through its view */
        B_OK(b_file_at(c->file, io_off(c, bytes), c->sbuf, (int)bytes, 1, 1));
}

static void io_run(bench_ctx_t *c, size_t bytes)
{
    if (c->io_kind == IO_ORDERED)
        B_OK(b_file_write_ordered(c->file, c->sbuf, (int)bytes));
    else if (c->io_reads)
        B_OK(b_file_at(c->file, io_off(c, bytes), c->rbuf, (int)bytes, 0, c->io_kind >= IO_2D));
    else
        B_OK(b_file_at(c->file, io_off(c, bytes), c->sbuf, (int)bytes, 1, c->io_kind >= IO_2D));
}

/* Written bytes read back through the view (after every rank wrote); read ones compared. */
static size_t io_check(bench_ctx_t *c, size_t bytes)
{
    if (!c->io_reads) {
        B_OK(b_barrier());
        B_OK(b_file_at(c->file, io_off(c, bytes), c->rbuf, (int)bytes, 0, 0));
    }
    return pattern_check(c->rbuf, bytes, io_seed(c, bytes));
}

static double io_mbs(const bench_ctx_t *c, size_t bytes, double secs)
{
    return (double)bytes * c->size / secs / 1e6;
}

#define IO_OPENER(fn, kind, reads)                                                                 \
    static bool fn(bench_ctx_t *c, size_t largest)                                                 \
    {                                                                                              \
        return io_open(c, largest, kind, reads);                                                   \
    }
IO_OPENER(contig_w, IO_CONTIG, false)
IO_OPENER(contig_r, IO_CONTIG, true)
IO_OPENER(strided_w, IO_STRIDED, false)
IO_OPENER(d2_w, IO_2D, false)
IO_OPENER(d2_r, IO_2D, true)
IO_OPENER(d3_w, IO_3D, false)
IO_OPENER(d3_r, IO_3D, true)
IO_OPENER(ordered_w, IO_ORDERED, false)

#define IO_KERNEL(kname, opener)                                                                   \
    {                                                                                              \
        .name = kname, .unit = "MB/s", .sized = true, .align = 8, .def_min = 4 << 10,              \
        .def_max = 16 << 20, .sync_each = true, .iters_small = 100, .warmup_small = 10,            \
        .iters_large = 20, .warmup_large = 3, .unusable = any_ranks, .fill = io_fill,             \
        .run = io_run, .check = io_check, .metric = io_mbs, .open = opener, .close = io_close,    \
    }

const bench_kernel_t bench_io_contig_w = IO_KERNEL("io-write", contig_w);
const bench_kernel_t bench_io_contig_r = IO_KERNEL("io-read", contig_r);
const bench_kernel_t bench_io_strided_w = IO_KERNEL("io-strided-write", strided_w);
const bench_kernel_t bench_io_2d_w = IO_KERNEL("io-2d-write-all", d2_w);
const bench_kernel_t bench_io_2d_r = IO_KERNEL("io-2d-read-all", d2_r);
const bench_kernel_t bench_io_3d_w = IO_KERNEL("io-3d-write-all", d3_w);
const bench_kernel_t bench_io_3d_r = IO_KERNEL("io-3d-read-all", d3_r);
const bench_kernel_t bench_io_ordered = IO_KERNEL("io-write-ordered", ordered_w);

/* Started and waited for: what the overlap method times without computation. */
static void io_ipost(bench_ctx_t *c, size_t bytes)
{
    B_OK(b_file_iat(c->file, io_off(c, bytes), c->sbuf, (int)bytes, 1, 1, &c->reqs[0]));
}

static void io_irun(bench_ctx_t *c, size_t bytes)
{
    io_ipost(c, bytes);
    B_OK(b_waitall(1, c->reqs));
}

const bench_kernel_t bench_overlap_iwrite_all = {
    .name = "overlap-iwrite-all", .unit = "%", .sized = true, .align = 8,
    .def_min = 1 << 20, .def_max = 16 << 20, .iters_small = 20, .warmup_small = 3,
    .iters_large = 20, .warmup_large = 3, .unusable = any_ranks, .fill = io_fill,
    .run = io_irun, .check = io_check, .open = d2_w, .close = io_close,
    .driver = overlap_driver, .post = io_ipost,
};

bool io_kernel(const bench_kernel_t *k)
{
    return k->close == io_close;
}
