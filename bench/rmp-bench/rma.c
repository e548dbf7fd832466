/* rma.c — the one-sided kernels, after OSU's osu_put_latency, osu_get_latency,
 * osu_acc_latency, osu_get_acc_latency, osu_fop_latency, osu_cas_latency (rank 0 issues one
 * operation to rank 1 and completes it), osu_put_bw / osu_get_bw (rank 0 issues a window of
 * operations, then completes them) and osu_put_bibw (both ranks at once).
 *
 * The synchronization (--sync, OSU's -s) decides what one iteration is:
 *   flush  rank 0 holds a shared lock on rank 1 for the whole sweep; op(s), then flush
 *   lock   lock (shared), op(s), unlock: the lock's own cost is in the number
 *   fence  latency: a ping-pong of epochs (rank 0 fence, op, fence, fence; rank 1 fence,
 *          fence, op, fence), reported as half; bandwidth: fence, op(s), fence
 *   pscw   latency: the same ping-pong with start/complete and post/wait, halved;
 *          bandwidth: rank 0 start, op(s), complete; rank 1 post, wait
 * The window is made once per benchmark for its largest size (--win: allocate or create), not
 * once per size as OSU does: creation is collective and slow, and it is outside the timing
 * either way. Displacements are in bytes (disp_unit 1); accumulates sum 8-byte integers (the
 * element size one-sided atomics serve in hardware), fetch_and_op adds 1 and compare_and_swap
 * compares with 0, all on 8-byte integers. Only rank 0's time counts (OSU prints the origin's),
 * except in put-bibw where both ranks are origins. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* What a window of operations may spread over at the target: OSU gives each operation of a
 * window its own slot (window x size bytes: 256 MiB at 4 MiB); above this cap the slots wrap
 * and later operations of a window rewrite earlier ones' (same data). */
#define RMA_WINDOW_CAP ((size_t)64 << 20)

enum { OP_PUT, OP_GET, OP_ACC, OP_GET_ACC, OP_FOP, OP_CAS };
enum { SHAPE_LAT, SHAPE_BW, SHAPE_BIBW };

const char *rma_sync_name(bench_sync_t s)
{
    switch (s) {
    case SYNC_LOCK: return "lock";
    case SYNC_FENCE: return "fence";
    case SYNC_PSCW: return "pscw";
    default: return "flush";
    }
}

static bool active_target(const bench_ctx_t *c)
{
    return c->opts->sync == SYNC_FENCE || c->opts->sync == SYNC_PSCW;
}

/* Whether this rank issues operations (is an origin) in this benchmark. */
static bool issues(const bench_ctx_t *c)
{
    if (c->rma_shape == SHAPE_BIBW || c->rank == 0)
        return true;
    return c->rma_shape == SHAPE_LAT && active_target(c); /* the ping-pong's way back */
}

/* Whether operations land in this rank's window. */
static bool targeted(const bench_ctx_t *c)
{
    if (c->rma_shape == SHAPE_BIBW || c->rank == 1)
        return true;
    return c->rma_shape == SHAPE_LAT && active_target(c);
}

static unsigned seed_of(int rank, size_t bytes)
{
    return (unsigned)rank * 7919u + (unsigned)bytes;
}

/* Slots a window of operations uses at this size. */
static size_t used_slots(const bench_ctx_t *c)
{
    if (c->rma_shape == SHAPE_LAT)
        return 1;
    return (size_t)c->opts->window < c->slots ? (size_t)c->opts->window : c->slots;
}

/* ---- the window ----------------------------------------------------------------------- */

static bool rma_open(bench_ctx_t *c, size_t largest, int op, int shape)
{
    c->rma_op = op;
    c->rma_shape = shape;
    c->slots = 1;
    if (shape != SHAPE_LAT) {
        size_t fit = largest ? RMA_WINDOW_CAP / largest : (size_t)c->opts->window;
        c->slots = fit < (size_t)c->opts->window ? fit : (size_t)c->opts->window;
        if (c->slots == 0)
            c->slots = 1;
    }
    /* At least two 8-byte words: atomics work on the first; never a 0-byte window. */
    size_t bytes = c->slots * largest < 16 ? 16 : c->slots * largest;
    void *base = NULL;
    c->obuf = malloc(bytes);
    bool failed = !c->obuf;
    if (!failed && c->opts->flavor == FLAVOR_CREATE)
        failed = posix_memalign(&base, 4096, bytes) != 0;
    double f = failed, any;
    B_OK(b_allreduce(&f, &any, 1, B_DOUBLE, B_MAX));
    if (any != 0) {
        if (failed)
            fprintf(stderr, "rmp-bench: rank %d: cannot allocate a window of %zu bytes\n",
                    c->rank, bytes);
        free(c->obuf);
        free(base);
        c->obuf = NULL;
        return false;
    }
    if (c->opts->flavor == FLAVOR_CREATE) {
        c->wown = base;
        B_OK(b_win_create(base, bytes, &c->win));
    } else {
        B_OK(b_win_allocate(bytes, &base, &c->win));
    }
    c->wbuf = base;
    /* Touch every page here, so that no page fault lands in a timed loop. */
    memset(c->wbuf, 0, bytes);
    memset(c->obuf, 0, bytes);
    if (c->opts->sync == SYNC_PSCW)
        B_OK(b_group_of(1 - c->rank, &c->peer));
    B_OK(b_barrier());
    if (c->opts->sync == SYNC_FLUSH && issues(c))
        B_OK(b_win_lock(B_LOCK_SHARED, 1 - c->rank, c->win));
    return true;
}

static void rma_close(bench_ctx_t *c)
{
    if (c->opts->sync == SYNC_FLUSH && issues(c))
        B_OK(b_win_unlock(1 - c->rank, c->win));
    /* The last fence opened an epoch that freeing the window must not find open. */
    if (c->opts->sync == SYNC_FENCE)
        B_OK(b_win_fence(B_MODE_NOSUCCEED, c->win));
    if (c->opts->sync == SYNC_PSCW)
        B_OK(b_group_free(&c->peer));
    B_OK(b_win_free(&c->win));
    free(c->wown);
    free(c->obuf);
    c->wbuf = c->wown = c->obuf = NULL;
}

/* ---- one operation and its completion -------------------------------------------------- */

static void issue(bench_ctx_t *c, size_t bytes, size_t slot)
{
    int peer = 1 - c->rank, n = (int)bytes, n8 = (int)(bytes / 8);
    size_t disp = slot * bytes;
    switch (c->rma_op) {
    case OP_PUT: B_OK(b_put(c->sbuf, n, B_BYTE, peer, disp, c->win)); break;
    case OP_GET: B_OK(b_get(c->obuf + disp, n, B_BYTE, peer, disp, c->win)); break;
    case OP_ACC: B_OK(b_accumulate(c->sbuf, n8, B_INT64, peer, disp, B_SUM, c->win)); break;
    case OP_GET_ACC:
        B_OK(b_get_accumulate(c->sbuf, c->obuf + disp, n8, B_INT64, peer, disp, B_SUM, c->win));
        break;
    case OP_FOP: B_OK(b_fetch_and_op(&c->amo[0], c->obuf, B_INT64, peer, 0, B_SUM, c->win)); break;
    case OP_CAS:
        B_OK(b_compare_and_swap(&c->amo[0], &c->amo[1], c->obuf, B_INT64, peer, 0, c->win));
        break;
    }
}

/* Issues one iteration's operations: one, or a window of them over the slots. */
static void issue_all(bench_ctx_t *c, size_t bytes)
{
    if (c->rma_shape == SHAPE_LAT) {
        issue(c, bytes, 0);
        return;
    }
    for (int i = 0; i < c->opts->window; i++)
        issue(c, bytes, (size_t)i % c->slots);
}

/* The origin's side of a passive-target iteration. */
static void passive(bench_ctx_t *c, size_t bytes)
{
    int peer = 1 - c->rank;
    if (c->opts->sync == SYNC_LOCK) {
        B_OK(b_win_lock(B_LOCK_SHARED, peer, c->win));
        issue_all(c, bytes);
        B_OK(b_win_unlock(peer, c->win));
    } else {
        issue_all(c, bytes);
        B_OK(b_win_flush(peer, c->win));
    }
}

/* Latency: one operation from rank 0 (passive), or a ping-pong of epochs (active). */
static void latency_run(bench_ctx_t *c, size_t bytes)
{
    bool first = c->rank == 0;
    switch (c->opts->sync) {
    case SYNC_LOCK:
    case SYNC_FLUSH:
        if (first)
            passive(c, bytes);
        break;
    case SYNC_FENCE:
        B_OK(b_win_fence(0, c->win));
        if (first)
            issue(c, bytes, 0);
        B_OK(b_win_fence(0, c->win));
        if (!first)
            issue(c, bytes, 0);
        B_OK(b_win_fence(0, c->win));
        break;
    case SYNC_PSCW:
        if (first) {
            B_OK(b_win_start(c->peer, c->win));
            issue(c, bytes, 0);
            B_OK(b_win_complete(c->win));
            B_OK(b_win_post(c->peer, c->win));
            B_OK(b_win_wait(c->win));
        } else {
            B_OK(b_win_post(c->peer, c->win));
            B_OK(b_win_wait(c->win));
            B_OK(b_win_start(c->peer, c->win));
            issue(c, bytes, 0);
            B_OK(b_win_complete(c->win));
        }
        break;
    }
}

/* Bandwidth: a window of operations from the origins, then their completion. */
static void window_run(bench_ctx_t *c, size_t bytes)
{
    bool origin = issues(c);
    switch (c->opts->sync) {
    case SYNC_LOCK:
    case SYNC_FLUSH:
        if (origin)
            passive(c, bytes);
        break;
    case SYNC_FENCE:
        B_OK(b_win_fence(0, c->win));
        if (origin)
            issue_all(c, bytes);
        B_OK(b_win_fence(0, c->win));
        break;
    case SYNC_PSCW:
        if (targeted(c))
            B_OK(b_win_post(c->peer, c->win));
        if (origin) {
            B_OK(b_win_start(c->peer, c->win));
            issue_all(c, bytes);
            B_OK(b_win_complete(c->win));
        }
        if (targeted(c))
            B_OK(b_win_wait(c->win));
        break;
    }
}

/* ---- validation -------------------------------------------------------------------------- */

static void rma_fill(bench_ctx_t *c, size_t bytes)
{
    size_t used = used_slots(c) * bytes;
    pattern_fill(c->sbuf, bytes, seed_of(c->rank, bytes));
    memset(c->obuf, 0, used < 8 ? 8 : used);
    /* Gets read the target's own pattern; everything else starts from zeros there. */
    if (c->rma_op == OP_GET || c->rma_op == OP_GET_ACC)
        for (size_t s = 0; s < used_slots(c); s++)
            pattern_fill(c->wbuf + s * bytes, bytes, seed_of(c->rank, bytes));
    else
        memset(c->wbuf, 0, used < 8 ? 8 : used);
    c->amo[0] = c->rma_op == OP_CAS ? c->rank + 1 : 1;
    c->amo[1] = 0;
}

/* Wrong bytes in `slots` slots of buf against the pattern of `rank`. */
static size_t check_slots(const char *buf, size_t slots, size_t bytes, int rank)
{
    size_t bad = 0;
    for (size_t s = 0; s < slots; s++)
        bad += pattern_check(buf + s * bytes, bytes, seed_of(rank, bytes));
    return bad;
}

static size_t rma_check(bench_ctx_t *c, size_t bytes)
{
    /* The origins completed their operations inside run; the targets look only after that
     * (in passive mode rank 1 did nothing in run and would otherwise look too early). */
    B_OK(b_barrier());
    int peer = 1 - c->rank;
    size_t slots = used_slots(c), bad = 0;
    int64_t word;
    switch (c->rma_op) {
    case OP_PUT:
    case OP_ACC: /* zeros + the peer's pattern read as integers = the peer's pattern */
        if (targeted(c))
            bad += check_slots(c->wbuf, slots, bytes, peer);
        break;
    case OP_GET:
    case OP_GET_ACC: /* the target's contents before the operation */
        if (issues(c))
            bad += check_slots(c->obuf, slots, bytes, peer);
        break;
    case OP_FOP:
    case OP_CAS:
        if (issues(c)) {
            memcpy(&word, c->obuf, 8);
            bad += word != 0;
        }
        if (targeted(c)) {
            memcpy(&word, c->wbuf, 8);
            bad += word != (c->rma_op == OP_FOP ? 1 : peer + 1);
        }
        break;
    }
    return bad;
}

/* ---- what is reported -------------------------------------------------------------------- */

static bool first_rank(const bench_ctx_t *c)
{
    return c->rank == 0;
}

static double latency_us(const bench_ctx_t *c, size_t bytes, double secs)
{
    (void)bytes;
    return (active_target(c) ? secs / 2 : secs) * 1e6; /* a ping-pong: half of it */
}

static double window_mbs(const bench_ctx_t *c, size_t bytes, double secs)
{
    return (double)bytes * c->opts->window / secs / 1e6;
}

static double both_ways_mbs(const bench_ctx_t *c, size_t bytes, double secs)
{
    return 2.0 * (double)bytes * c->opts->window / secs / 1e6;
}

#define OPENER(fn, op, shape)                                                                      \
    static bool fn(bench_ctx_t *c, size_t largest)                                                 \
    {                                                                                              \
        return rma_open(c, largest, op, shape);                                                    \
    }
OPENER(put_open, OP_PUT, SHAPE_LAT)
OPENER(get_open, OP_GET, SHAPE_LAT)
OPENER(acc_open, OP_ACC, SHAPE_LAT)
OPENER(get_acc_open, OP_GET_ACC, SHAPE_LAT)
OPENER(fop_open, OP_FOP, SHAPE_LAT)
OPENER(cas_open, OP_CAS, SHAPE_LAT)
OPENER(put_bw_open, OP_PUT, SHAPE_BW)
OPENER(get_bw_open, OP_GET, SHAPE_BW)
OPENER(put_bibw_open, OP_PUT, SHAPE_BIBW)

/* OSU's one-sided counts: latency 10000 iterations after 100 (1000 after 10 above 8 KiB). */
#define RMA_LATENCY(kname, opener, lo, hi, al, fixed)                                              \
    {                                                                                              \
        .name = kname, .unit = "us", .sized = true, .align = al, .def_min = lo, .def_max = hi,     \
        .fixed_size = fixed, .iters_small = 10000, .warmup_small = 100, .iters_large = 1000,       \
        .warmup_large = 10, .unusable = bench_exactly_two, .fill = rma_fill, .run = latency_run,   \
        .check = rma_check, .metric = latency_us, .measured = first_rank, .open = opener,         \
        .close = rma_close,                                                                        \
    }
/* Windows as in bw: 100 windows after 10 (20 after 2 above 8 KiB). */
#define RMA_WINDOWS(kname, opener, metric_fn, measured_fn)                                         \
    {                                                                                              \
        .name = kname, .unit = "MB/s", .sized = true, .align = 0, .def_min = 1,                    \
        .def_max = 4 << 20, .iters_small = 100, .warmup_small = 10, .iters_large = 20,             \
        .warmup_large = 2, .unusable = bench_exactly_two, .fill = rma_fill, .run = window_run,    \
        .check = rma_check, .metric = metric_fn, .measured = measured_fn, .open = opener,         \
        .close = rma_close,                                                                        \
    }

const bench_kernel_t bench_put = RMA_LATENCY("put", put_open, 1, 4 << 20, 0, false);
const bench_kernel_t bench_get = RMA_LATENCY("get", get_open, 1, 4 << 20, 0, false);
const bench_kernel_t bench_acc = RMA_LATENCY("acc", acc_open, 8, 1 << 20, 8, false);
const bench_kernel_t bench_get_acc = RMA_LATENCY("get-acc", get_acc_open, 8, 1 << 20, 8, false);
const bench_kernel_t bench_fop = RMA_LATENCY("fop", fop_open, 8, 8, 8, true);
const bench_kernel_t bench_cas = RMA_LATENCY("cas", cas_open, 8, 8, 8, true);
const bench_kernel_t bench_put_bw = RMA_WINDOWS("put-bw", put_bw_open, window_mbs, first_rank);
const bench_kernel_t bench_get_bw = RMA_WINDOWS("get-bw", get_bw_open, window_mbs, first_rank);
const bench_kernel_t bench_put_bibw = RMA_WINDOWS("put-bibw", put_bibw_open, both_ways_mbs, NULL);
