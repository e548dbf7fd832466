/* options.c — rmp-bench's command line: the benchmark name, the sweep and iteration
 * options, the output format. Every rank parses the same argv, so every rank reaches the same
 * verdict; only rank 0 prints it. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void opts_usage(FILE *f)
{
    fprintf(f, "Usage: mrun -n N rmp-bench BENCHMARK [options]\n"
               "OSU-style micro-benchmarks: warm-up, timed iterations, a sweep of message sizes,\n"
               "the received data validated once per size (outside the timing).\n"
               "\n"
               "Benchmarks:\n"
               "  latency      one-way latency, half a ping-pong round trip (2 ranks)   [us]\n"
               "  bw           bandwidth, windows of isends then an ack (2 ranks)      [MB/s]\n"
               "  bibw         bidirectional bandwidth (2 ranks)                       [MB/s]\n"
               "  msgrate      message rate per pair, rank i -> i+N/2 (even N)         [msg/s]\n"
               "  barrier bcast reduce allreduce allgather alltoall                    [us/call]\n"
               "  allreduce-int  allreduce of ints (sum; 4 to 32 bytes: what RMP_COLL_OFFLOAD\n"
               "               runs on RDMA atomics)                                   [us/call]\n"
               "  collectives  all six collectives, one after the other\n"
               "  overlap-iallreduce  OSU's overlap method: post, compute for the time the\n"
               "               operation takes alone (a busy loop calling no library function),\n"
               "               wait; 100 x (1 - (overall - compute) / pure_comm)       [%%]\n"
               "  overlap-p2p  the same for an isend/irecv pair, rank i -> i+N/2 (even N) [%%]\n"
               "  overlap      both (default sizes 1K to 4M)\n"
               "One-sided (2 ranks; OSU's method; reported as NAME-SYNC, e.g. put-lock):\n"
               "  put get      latency of one operation of the size, rank 0 to rank 1     [us]\n"
               "  acc get-acc  the same for accumulate / get_accumulate (sum of 8-byte\n"
               "               integers; sizes are multiples of 8, default 8 to 1M)   [us]\n"
               "  fop cas      fetch_and_op (sum) / compare_and_swap of one 8-byte integer [us]\n"
               "  put-bw get-bw  a window of operations, then their completion        [MB/s]\n"
               "  put-bibw     the same from both ranks at once                       [MB/s]\n"
               "  rma          all nine, one after the other\n"
               "MPI-IO, one shared file in $BENCH_IO_DIR (default /tmp), SIZE bytes per rank\n"
               "per call (default 4K to 16M), aggregate bandwidth of all ranks:\n"
               "  io-write io-read  independent, contiguous: rank r at r x SIZE      [MB/s]\n"
               "  io-strided-write  independent, 1 KiB blocks dealt round-robin      [MB/s]\n"
               "  io-2d-write-all io-2d-read-all  collective, each rank a subarray of a\n"
               "               2-D global byte array (io-3d-*: 3-D)                   [MB/s]\n"
               "  io-write-ordered  every rank's block appended in rank order        [MB/s]\n"
               "  io           all eight\n"
               "  overlap-iwrite-all  io-2d-write-all's write started (iwrite_at_all),\n"
               "               computed over, waited for (overlap's method, 1M to 16M)  [%%]\n"
               "\n"
               "Options:\n"
               "  --min BYTES      smallest message (default 1; K, M, G suffixes accepted)\n"
               "  --max BYTES      largest message (default 4M point-to-point, 1M collectives)\n"
               "  --iters N        timed iterations per size (default: OSU's counts, fewer for\n"
               "                   large messages, trimmed to the time budget)\n"
               "  --warmup N       untimed iterations before them (default: OSU's counts)\n"
               "  --budget SEC     time per size that trims the default counts (default 0.25;\n"
               "                   0: never trim)\n"
               "  --window N       messages in flight for bw, bibw, msgrate, and operations per\n"
               "                   window of put-bw, get-bw, put-bibw (default 64)\n"
               "  --sync S         one-sided synchronization (OSU's -s): flush (default: rank 0\n"
               "                   holds a lock; op, flush), lock (lock, op, unlock), fence\n"
               "                   (latency: a ping-pong of fence epochs, halved), pscw (the\n"
               "                   same with post/start/complete/wait)\n"
               "  --win W          one-sided window flavor (OSU's -w): allocate (default) or\n"
               "                   create (memory from posix_memalign)\n"
               "  --format F       table (default), csv or json\n"
               "  --progress       a progress line on stderr even when it is not a terminal\n"
               "  --no-progress    no progress line\n"
               "  -h, --help       this text\n"
               "\n"
               "Each row gives the average over ranks of each rank's mean, with the minimum and\n"
               "maximum over ranks, and \"ok\" when the data arrived intact.\n"
               "Exit status: 0 ok, 1 a validation or communication failure, 2 bad usage.\n");
}

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* A size such as 4096, 64K, 1M. */
static bool parse_bytes(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    unsigned shift = 0;
    switch (*end) {
    case 'k':
    case 'K':
        shift = 10;
        end++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        end++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        end++;
        break;
    default:
        break;
    }
    if (*end || v > (BENCH_MAX_BYTES >> shift))
        return false;
    *out = (size_t)(v << shift);
    return true;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    if (!s || !*s)
        return false;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_format(const char *s, bench_format_t *out)
{
    static const struct {
        const char *name;
        bench_format_t f;
    } formats[] = {{"table", BENCH_TABLE}, {"csv", BENCH_CSV}, {"json", BENCH_JSON}};
    for (size_t i = 0; s && i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(s, formats[i].name) == 0) {
            *out = formats[i].f;
            return true;
        }
    return false;
}

/* "--opt VALUE" or "--opt=VALUE": the value, advancing *i past it; NULL if absent. */
static const char *value_of(int argc, char **argv, int *i, const char *opt, bool *matched)
{
    size_t len = strlen(opt);
    const char *a = argv[*i];
    *matched = false;
    if (strncmp(a, opt, len) != 0)
        return NULL;
    if (a[len] == '=') {
        *matched = true;
        return a + len + 1;
    }
    if (a[len] != '\0')
        return NULL;
    *matched = true;
    return *i + 1 < argc ? argv[++*i] : NULL;
}

static bool parse_sync(const char *s, bench_sync_t *out)
{
    static const bench_sync_t all[] = {SYNC_FLUSH, SYNC_LOCK, SYNC_FENCE, SYNC_PSCW};
    for (size_t i = 0; s && i < sizeof all / sizeof all[0]; i++)
        if (strcmp(s, rma_sync_name(all[i])) == 0) {
            *out = all[i];
            return true;
        }
    return false;
}

static bool parse_flavor(const char *s, bench_flavor_t *out)
{
    if (s && strcmp(s, "allocate") == 0)
        *out = FLAVOR_ALLOCATE;
    else if (s && strcmp(s, "create") == 0)
        *out = FLAVOR_CREATE;
    else
        return false;
    return true;
}

static void opts_default(bench_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->iters = -1;
    o->warmup = -1;
    o->budget = 0.25;
    o->window = 64;
    o->format = BENCH_TABLE;
    o->progress = -1;
}

/* One "--name VALUE" option at argv[*i]; true if it was one (ok says if its value was good). */
static bool parse_valued(int argc, char **argv, int *i, bench_opts_t *o, char *err, size_t errlen,
                         bool *ok)
{
    bool m;
    const char *v;
    long n = 0;
    *ok = true;
    if ((v = value_of(argc, argv, i, "--min", &m)), m) {
        *ok = parse_bytes(v, &o->min) ||
              fail(err, errlen, "--min: '%s' is not a size of 0 to 256M bytes", v ? v : "");
        o->min_set = true;
    } else if ((v = value_of(argc, argv, i, "--max", &m)), m) {
        *ok = parse_bytes(v, &o->max) ||
              fail(err, errlen, "--max: '%s' is not a size of 0 to 256M bytes", v ? v : "");
        o->max_set = true;
    } else if ((v = value_of(argc, argv, i, "--iters", &m)), m) {
        *ok = parse_long(v, 1, 1000000000L, &o->iters) ||
              fail(err, errlen, "--iters: '%s' is not a count of 1 or more", v ? v : "");
    } else if ((v = value_of(argc, argv, i, "--warmup", &m)), m) {
        *ok = parse_long(v, 0, 1000000000L, &o->warmup) ||
              fail(err, errlen, "--warmup: '%s' is not a count of 0 or more", v ? v : "");
    } else if ((v = value_of(argc, argv, i, "--window", &m)), m) {
        *ok = parse_long(v, 1, BENCH_MAX_WINDOW, &n) ||
              fail(err, errlen, "--window: '%s' is not a count of 1 to %d", v ? v : "",
                   BENCH_MAX_WINDOW);
        o->window = (int)n;
    } else if ((v = value_of(argc, argv, i, "--budget", &m)), m) {
        char *end = NULL;
        o->budget = v ? strtod(v, &end) : -1;
        *ok =
            (v && *v && !*end && o->budget >= 0 && o->budget <= 3600) ||
            fail(err, errlen, "--budget: '%s' is not a number of seconds (0 to 3600)", v ? v : "");
    } else if ((v = value_of(argc, argv, i, "--sync", &m)), m) {
        *ok = parse_sync(v, &o->sync) ||
              fail(err, errlen, "--sync: '%s' is not one of flush, lock, fence, pscw", v ? v : "");
    } else if ((v = value_of(argc, argv, i, "--win", &m)), m) {
        *ok = parse_flavor(v, &o->flavor) ||
              fail(err, errlen, "--win: '%s' is not one of allocate, create", v ? v : "");
    } else if ((v = value_of(argc, argv, i, "--format", &m)), m) {
        *ok = parse_format(v, &o->format) ||
              fail(err, errlen, "--format: '%s' is not one of table, csv, json", v ? v : "");
    } else {
        return false;
    }
    return true;
}

bool opts_parse(int argc, char **argv, bench_opts_t *o, char *err, size_t errlen)
{
    opts_default(o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool ok;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            o->help = true;
        } else if (strcmp(a, "--progress") == 0) {
            o->progress = 1;
        } else if (strcmp(a, "--no-progress") == 0) {
            o->progress = 0;
        } else if (parse_valued(argc, argv, &i, o, err, errlen, &ok)) {
            if (!ok)
                return false;
        } else if (a[0] == '-') {
            return fail(err, errlen, "unknown option '%s'", a);
        } else if (o->name) {
            return fail(err, errlen, "one benchmark at a time: '%s' after '%s'", a, o->name);
        } else {
            o->name = a;
        }
    }
    if (o->help)
        return true;
    if (!o->name)
        return fail(err, errlen, "no benchmark given");
    if (o->min_set && o->max_set && o->min > o->max)
        return fail(err, errlen, "--min (%zu) is larger than --max (%zu)", o->min, o->max);
    return true;
}
