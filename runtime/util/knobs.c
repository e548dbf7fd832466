/* knobs.c — the table of RMP_* environment variables and their one parser: numbers are
 * decimal (no octal or hex surprises), range- and overflow-checked, with nothing after them but
 * an allowed suffix; a refused value yields one line naming the variable, the value and what is
 * accepted. Also the typo warning for RMP_* names that are no knob. Depends on libc only, so
 * that the fuzz target and the unit tests link it alone. */
#include "knobs.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

extern char **environ;

#define KIB 1024LL
#define MIB (1024LL * KIB)
#define GIB (1024LL * MIB)
#define TIB (1024LL * GIB)

static const char *const set_transport[] = {"auto", "shm", "verbs", NULL};
static const char *const set_cm[] = {"ibv", "rdmacm", NULL};
static const char *const set_connect[] = {"lazy", "eager", NULL};
static const char *const set_auto_on_off[] = {"auto", "on", "off", NULL};
static const char *const set_rma_path[] = {"auto", "am", NULL};
/* Algorithm names, in the order of each collective's own algs[] (collectives/<name>.c): the
 * collective maps the name back to its index, and refuses to run if the two lists disagree. */
static const char *const set_barrier[] = {"auto", "dissemination", NULL};
static const char *const set_bcast[] = {"auto", "binomial", "scatter_allgather",
                                        "pipelined_chain", "pipelined_tree", "direct", NULL};
static const char *const set_reduce[] = {"auto", "binomial", "rabenseifner", NULL};
static const char *const set_allreduce[] = {"auto", "recursive_doubling", "rabenseifner", "ring",
                                            "pipelined_ring", "direct", NULL};
static const char *const set_gather[] = {"auto", "binomial", "linear", NULL};
static const char *const set_allgather[] = {"auto", "recursive_doubling", "bruck", "ring",
                                            "direct", NULL};
static const char *const set_alltoall[] = {"auto", "bruck", "linear", "pairwise", NULL};
static const char *const set_reduce_scatter[] = {"auto", "recursive_halving", "ring", NULL};

/* RMP_PROFILE: a boolean, or the directory the report goes to: one that exists and this
 * process may write into, or a new one whose parent it may write into (checked at init, so
 * that a typo fails the job at its start rather than losing the report at its end). */
static bool check_profile(const char *s)
{
    if (!strcmp(s, "0") || !strcmp(s, "1"))
        return true;
    static const char *const unclear[] = {"yes", "no", "true", "false", "on", "off", "y", "n"};
    for (size_t i = 0; i < sizeof(unclear) / sizeof(unclear[0]); i++)
        if (!strcasecmp(s, unclear[i]))
            return false; /* a boolean misspelt, not a directory meant */
    if (!access(s, F_OK))
        return !access(s, W_OK | X_OK);
    char parent[KNOB_TEXT_MAX];
    snprintf(parent, sizeof(parent), "%s", s);
    size_t n = strlen(parent);
    while (n > 1 && parent[n - 1] == '/')
        parent[--n] = '\0';
    char *slash = strrchr(parent, '/');
    if (!slash)
        return !access(".", W_OK | X_OK);
    slash[slash == parent] = '\0';
    return !access(parent, W_OK | X_OK);
}

/* A fraction from 0 to 1 in decimal: "0", "0.1", "1", ".5" (at most 6 decimals). */
static bool check_fraction(const char *s)
{
    size_t whole = strspn(s, "0123456789");
    const char *p = s + whole;
    size_t frac = 0;
    if (*p == '.')
        frac = strspn(++p, "0123456789");
    if ((whole == 0 && frac == 0) || p[frac] != '\0' || frac > 6 || whole > 1)
        return false;
    return whole == 0 || s[0] == '0' || (s[0] == '1' && strspn(p, "0") == frac);
}

/* RMP_VERBS_FAULT: kind[:N][@rank], kind one of verbs_fault.c's (the transport parses it again). */
static bool check_fault(const char *s)
{
    static const char *const kinds[] = {"qp-err", "revoke", "cq", "cm-unroutable", "fp-reg",
                                        NULL};
    size_t k = strcspn(s, ":@");
    bool known = false;
    for (int i = 0; kinds[i]; i++)
        known |= strlen(kinds[i]) == k && !strncmp(s, kinds[i], k);
    const char *p = s + k;
    for (const char *sep = ":@"; known && *sep; sep++) {
        if (*p != *sep)
            continue;
        size_t d = strspn(++p, "0123456789");
        if (d == 0 || d > 7)
            return false;
        p += d;
    }
    return known && !*p;
}

/* A verbs device name with an optional port: "mlx5_0", "rxe0:1". */
static bool check_device(const char *s)
{
    size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-");
    if (n == 0 || n > 63)
        return false;
    if (s[n] == '\0')
        return true;
    if (s[n] != ':' || s[n + 1] < '1' || s[n + 1] > '9')
        return false;
    const char *p = s + n + 1;
    size_t digits = strspn(p, "0123456789");
    return digits <= 3 && p[digits] == '\0' && atoi(p) <= 255;
}

#define B(n, d, doc) [KNOB_##n] = {"RMP_" #n, KNOB_BOOL, 0, 1, NULL, NULL, NULL, d, doc}
#define I(n, lo, hi, d, doc) [KNOB_##n] = {"RMP_" #n, KNOB_INT, lo, hi, NULL, NULL, NULL, d, doc}
#define S(n, lo, hi, d, doc) [KNOB_##n] = {"RMP_" #n, KNOB_SIZE, lo, hi, NULL, NULL, NULL, d, doc}
#define E(n, set, d, doc) [KNOB_##n] = {"RMP_" #n, KNOB_ENUM, 0, 0, set, NULL, NULL, d, doc}
#define ALG(n, set) E(COLL_##n, set, "auto", "force " #n "'s algorithm (auto: chosen by size)")
#define LIM(n, what)                                                                           \
    S(COLL_##n, 0, TIB, NULL, "size (bytes) from which " what " (defaults: README.md)")

const knob_t knob_table[KNOB_COUNT] = {
    B(VERBOSE, "0", "1: print one line per decision at start-up (transports, per-peer choice, "
                    "thresholds, CMA, device, GID, MTU)"),
    E(TRANSPORT, set_transport, "auto", "auto: shm for peers on this node, verbs for the "
      "others; shm: never verbs; verbs: verbs for every peer (loopback through the device)"),
    S(EAGER_LIMIT, 0, MIB, NULL, "bytes; larger messages use rendezvous (default: the "
      "transport's, shm 16 KiB, verbs 8 KiB)"),
    B(CMA, "1", "0: no process_vm_readv; large shm messages are copied through the rings"),
    I(SHM_RING_KB, 16, 1048576, "256", "size of each shm ring, in KiB"),
    B(SHM_COLL, "1", "0: small barrier, bcast, allreduce and allgather of ranks on one node go "
      "as messages (software schedules) instead of through the shared collective area"),
    B(SHM_COOP, "1", "0: the receiver of a large shm message copies it alone; 1: the sender, "
      "while it waits, copies chunks from the end (from 128 KiB, ranks not oversubscribed)"),
    I(SPIN_US, 0, 1000000, NULL, "microseconds a waiting rank polls before it yields and then "
      "sleeps (default 200, 20 when ranks outnumber cores)"),
    B(PROGRESS_THREAD, "0", "1: a progress thread per process advances large transfers and "
      "nonblocking collectives while the application computes (it sleeps when idle)"),
    [KNOB_DEVICE] = {"RMP_DEVICE", KNOB_STRING, 0, 0, NULL, check_device,
                     "a device name[:port] (port from 1 to 255), e.g. mlx5_0 or rxe0:1", NULL,
                     "verbs device name[:port] (default: the first with an active port)"},
    I(GID_INDEX, 0, 65535, NULL, "GID index for RoCE (default: RoCE v2, IPv4-mapped "
      "preferred)"),
    E(CM, set_cm, "ibv", "ibv: QPs wired from addresses in the PMIx modex; rdmacm: wired "
      "through librdmacm"),
    E(CONNECT, set_connect, "lazy", "lazy: connect a peer on first use; eager: wire every peer "
      "at init"),
    /* 256 .. 4096: VERBS_SRQ_CHUNK .. VERBS_SRQ_MAX in transport/verbs/verbs.h */
    I(VERBS_SRQ, 256, 4096, "256", "receive buffers posted to the shared receive queue at "
      "start (it grows on demand)"),
    /* 8 .. 24: 1 ms .. 69 s per try; VERBS_TIMEOUT in transport/verbs/verbs.h */
    I(VERBS_TIMEOUT, 8, 24, "14", "RC ack timeout, IB encoding: 4.096 us * 2^n per try, 7 tries "
      "before a peer is declared failed (14: 67 ms; raise it where the fabric stalls longer, "
      "e.g. virtual machines on a loaded host: 18 is 1.1 s)"),
    /* 0 .. 3600 s; verbs_keepalive.c */
    I(VERBS_KEEPALIVE, 0, 3600, "10", "seconds after which a connected peer not heard from gets "
      "a zero-length RDMA WRITE, so that a lost link is found while ranks only wait (0: never)"),
    [KNOB_VERBS_FAULT] = {"RMP_VERBS_FAULT", KNOB_STRING, 0, 0, NULL, check_fault,
                          "qp-err, revoke, cq, cm-unroutable or fp-reg, then :N and @rank "
                          "optionally",
                          NULL, "for testing: inject one failure into the verbs transport "
                          "(runtime/transport/verbs/verbs_fault.c)"},
    E(VERBS_FASTPATH, set_auto_on_off, "auto", "small messages by RDMA WRITE into a ring the "
      "receiver gives its busiest senders: auto (after RMP_VERBS_FASTPATH_AFTER messages), on "
      "(from the first), off (always the SRQ); runtime/transport/verbs/verbs_fast.c"),
    /* 0 .. 1024 rings of 136 KiB: VERBS_FP_SLOTS x VERBS_FP_SLOT in transport/verbs/verbs.h */
    I(VERBS_FASTPATH_PEERS, 0, 1024, "8", "senders a rank gives a fast-path ring at most"),
    I(VERBS_FASTPATH_AFTER, 1, 1073741824, "16", "arrivals from one sender before it gets a "
      "fast-path ring (RMP_VERBS_FASTPATH=auto)"),
    B(REG_CACHE, "0", "1: keep rendezvous buffers registered (runtime/transport/verbs/verbs_rdma.c)"),
    E(MCAST, set_auto_on_off, "auto", "broadcast over UD multicast: auto (where it wins, see "
      "bench/README.md), on (whenever the device and communicator allow), off"),
    [KNOB_MCAST_DROP] = {"RMP_MCAST_DROP", KNOB_STRING, 0, 0, NULL, check_fraction,
                         "a fraction from 0 to 1, e.g. 0.1", "0",
                         "for testing: drop this fraction of the multicast datagrams received"},
    E(COLL_OFFLOAD, set_auto_on_off, "auto", "barrier and small integer allreduce on RDMA "
      "atomics: auto (where it wins, see bench/README.md), on (whenever possible), off"),
    ALG(BARRIER, set_barrier),
    ALG(BCAST, set_bcast),
    ALG(REDUCE, set_reduce),
    ALG(ALLREDUCE, set_allreduce),
    ALG(GATHER, set_gather),
    ALG(SCATTER, set_gather),
    ALG(ALLGATHER, set_allgather),
    ALG(ALLTOALL, set_alltoall),
    ALG(REDUCE_SCATTER, set_reduce_scatter),
    LIM(BCAST_LARGE, "bcast's automatic choice is direct (3..8 ranks) or scatter_allgather"),
    LIM(REDUCE_LARGE, "reduce's automatic choice is rabenseifner"),
    LIM(ALLREDUCE_LARGE, "allreduce's automatic choice leaves recursive_doubling"),
    LIM(GATHER_LARGE, "gather's automatic choice is linear"),
    LIM(SCATTER_LARGE, "scatter's automatic choice is linear"),
    LIM(ALLGATHER_LARGE, "allgather's automatic choice is direct (up to 8 ranks) or ring"),
    LIM(ALLTOALL_SMALL, "alltoall's automatic choice leaves bruck"),
    LIM(ALLTOALL_LARGE, "alltoall's automatic choice is pairwise"),
    LIM(REDUCE_SCATTER_LARGE, "reduce_scatter's automatic choice is ring"),
    S(COLL_SEGMENT, 1, GIB, NULL, "segment size (bytes) of the pipelined collectives "
      "(default: by message size and ranks, see README.md)"),
    /* Off by default: a wait of minutes is normal where ranks compute between collectives
     * for that long, and a report nobody asked for would read as an error; mrun --timeout
     * asks for the report anyway (runtime/hang.c). */
    I(HANG_REPORT, 0, 86400, "0", "seconds a rank waits in rmp without progress before it "
      "prints where it is (call, communicator, collective number, peers awaited); 0: never"),
    B(CHECK_COLLECTIVES, "0", "1: every collective first checks that all ranks called the "
      "same one with matching arguments, and fails the job naming both ranks if not; must "
      "be the same on every rank"),
    /* 60 s: far beyond any delivery (a rendezvous completes in milliseconds once matched), so
     * only a receiver that never receives is given up on, or one that computes for a minute
     * before its receive, which the knob allows for (runtime/init.c). */
    I(FINALIZE_TIMEOUT, 0, 86400, "60", "seconds rmp_finalize waits for peers to receive "
      "what this rank still sends them before it gives up with an error naming them; 0: no "
      "bound"),
    /* "am" exists to exercise the fallback every window keeps on any transport (tests) */
    E(RMA_PATH, set_rma_path, "auto", "one-sided operations: auto (shared memory, then the "
      "transports' RDMA and atomics, then active messages), am (active messages for everything "
      "but a rank's own memory); must be the same on every rank"),
    I(PORT_TIMEOUT, 1, 86400, "60", "seconds rmp_comm_accept waits for a connect, and "
      "rmp_comm_connect for an accept, before failing with RMP_ERR_PORT (info key "
      "\"timeout\" overrides it per call)"),
    /* mrun sets it for its ranks (--universe-size, else its slots); a spawned job inherits
     * the parents' value, as MPI's universe is the whole of the resources. */
    I(UNIVERSE_SIZE, 0, 1 << 20, "0", "the processes this job may have in all, spawned "
      "children included (MPI_UNIVERSE_SIZE; mrun sets it: --universe-size, else the slots it "
      "knows of); 0 or less than the world: the size of the world"),
    [KNOB_PROFILE] = {"RMP_PROFILE", KNOB_STRING, 0, 0, NULL, check_profile,
                      "0, 1 or a directory this process may write (or create)", "0",
                      "1: at rmp_finalize rank 0 writes a profile of the job (calls, traffic "
                      "matrix, sizes, collectives) to ./rmp-profile-<jobid>/; a path: to that "
                      "directory (rmp-prof DIR reads it)"},
};

const knob_t *knob_find(const char *name)
{
    for (int i = 0; i < KNOB_COUNT; i++)
        if (!strcmp(knob_table[i].name, name))
            return &knob_table[i];
    return NULL;
}

/* ---- messages ---------------------------------------------------------------------------- */

/* "1 MiB", "16 KiB", "1000": the largest binary unit that divides v. */
static void fmt_size(long long v, char *buf, size_t len)
{
    static const char *const unit[] = {"TiB", "GiB", "MiB", "KiB"};
    static const long long mult[] = {TIB, GIB, MIB, KIB};
    for (int i = 0; i < 4; i++)
        if (v >= mult[i] && v % mult[i] == 0) {
            snprintf(buf, len, "%lld %s", v / mult[i], unit[i]);
            return;
        }
    snprintf(buf, len, "%lld", v);
}

/* What k accepts, e.g. "a size from 0 to 1 MiB (suffixes k, m)". */
static void fmt_expect(const knob_t *k, char *buf, size_t len)
{
    char lo[32], hi[32];
    switch (k->type) {
    case KNOB_BOOL:
        snprintf(buf, len, "0 or 1");
        break;
    case KNOB_INT:
        snprintf(buf, len, "an integer from %lld to %lld", k->min, k->max);
        break;
    case KNOB_SIZE:
        fmt_size(k->min, lo, sizeof(lo));
        fmt_size(k->max, hi, sizeof(hi));
        /* only the suffixes that can give a valid value */
        snprintf(buf, len, "a size from %s to %s%s", lo, hi,
                 k->max >= GIB   ? " (suffixes k, m, g)"
                 : k->max >= MIB ? " (suffixes k, m)"
                 : k->max >= KIB ? " (suffix k)"
                                 : "");
        break;
    case KNOB_ENUM: {
        size_t used = (size_t)snprintf(buf, len, "one of:");
        for (int i = 0; k->set[i] && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s %s", i ? "," : "", k->set[i]);
        break;
    }
    case KNOB_STRING:
        snprintf(buf, len, "%s", k->expect ? k->expect : "a shorter value");
        break;
    }
}

/* The value as it can be printed on one line: at most 40 characters, control bytes as '?'. */
static void fmt_value(const char *text, char *buf, size_t len)
{
    size_t i = 0;
    for (; text[i] && i < 40 && i + 4 < len; i++)
        buf[i] = text[i] < 0x20 || text[i] == 0x7f ? '?' : text[i];
    if (text[i] && i + 4 <= len)
        memcpy(buf + i, "...", 3), i += 3;
    buf[i] = '\0';
}

static int refuse(const knob_t *k, const char *text, char *err, size_t errlen)
{
    if (!err || !errlen)
        return -1;
    char val[48], expect[512];
    fmt_value(text, val, sizeof(val));
    fmt_expect(k, expect, sizeof(expect));
    snprintf(err, errlen, "%s=%s is not valid: expected %s", k->name, val, expect);
    return -1;
}

/* ---- parsing ----------------------------------------------------------------------------- */

/* A decimal integer with an optional leading '-', nothing before it; *end after it. */
static int parse_ll(const char *s, long long *v, const char **end)
{
    const char *d = *s == '-' ? s + 1 : s;
    if (*d < '0' || *d > '9')
        return -1;
    char *e;
    errno = 0;
    long long x = strtoll(s, &e, 10);
    if (errno == ERANGE)
        return -1;
    *v = x;
    *end = e;
    return 0;
}

/* Decimal bytes with an optional k/m/g suffix (powers of 1024), refused on overflow. */
static int parse_size(const char *s, long long *v)
{
    if (*s < '0' || *s > '9')
        return -1;
    char *e;
    errno = 0;
    unsigned long long x = strtoull(s, &e, 10);
    if (errno == ERANGE)
        return -1;
    int shift = 0;
    switch (*e) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    default: break;
    }
    if (shift)
        e++;
    if (*e || x > (unsigned long long)LLONG_MAX >> shift)
        return -1;
    *v = (long long)(x << shift);
    return 0;
}

int knob_parse(const knob_t *k, const char *text, knob_val_t *out, char *err, size_t errlen)
{
    size_t len = strlen(text);
    if (len >= KNOB_TEXT_MAX)
        return refuse(k, text, err, errlen);
    long long v = 0;
    const char *end = "";
    bool ok = false;
    switch (k->type) {
    case KNOB_BOOL:
        ok = (text[0] == '0' || text[0] == '1') && text[1] == '\0';
        v = text[0] == '1';
        break;
    case KNOB_INT:
        ok = parse_ll(text, &v, &end) == 0 && *end == '\0' && v >= k->min && v <= k->max;
        break;
    case KNOB_SIZE:
        ok = parse_size(text, &v) == 0 && v >= k->min && v <= k->max;
        break;
    case KNOB_ENUM:
        for (int i = 0; !ok && k->set[i]; i++)
            if (!strcmp(text, k->set[i]))
                ok = true, v = i;
        break;
    case KNOB_STRING:
        ok = !k->check || k->check(text);
        break;
    }
    if (!ok)
        return refuse(k, text, err, errlen);
    out->set = true;
    out->num = v;
    memcpy(out->text, text, len + 1);
    return 0;
}

int knob_load(knob_val_t vals[KNOB_COUNT], char *err, size_t errlen)
{
    int rc = 0;
    for (int i = 0; i < KNOB_COUNT; i++) {
        const knob_t *k = &knob_table[i];
        knob_val_t *v = &vals[i];
        const char *s = getenv(k->name);
        if (s && *s && knob_parse(k, s, v, rc ? NULL : err, errlen) == 0)
            continue;
        if (s && *s)
            rc = -1;
        /* Unset, empty or refused: the default (which always parses: tests/unit/test_knobs.c). */
        memset(v, 0, sizeof(*v));
        if (k->dflt && knob_parse(k, k->dflt, v, NULL, 0) == 0)
            v->set = false;
    }
    return rc;
}

const knob_val_t *knob_lookup(const knob_val_t vals[KNOB_COUNT], const char *name)
{
    const knob_t *k = knob_find(name);
    return k ? &vals[k - knob_table] : NULL;
}

/* ---- typos ------------------------------------------------------------------------------- */

/* Optimal-string-alignment distance (insertions, deletions, substitutions, transpositions),
 * case-insensitive; names longer than 63 characters count as far from everything. */
static int distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63)
        return INT_MAX;
    int d[64][64];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int ca = toupper((unsigned char)a[i - 1]), cb = toupper((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == toupper((unsigned char)b[j - 2]) &&
                cb == toupper((unsigned char)a[i - 2]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* a and b equal but for underscores and case ("RMP_EAGERLIMIT", "rmp_eager_limit"). */
static bool same_letters(const char *a, const char *b)
{
    for (;;) {
        while (*a == '_')
            a++;
        while (*b == '_')
            b++;
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b))
            return false;
        if (!*a)
            return true;
        a++, b++;
    }
}

const knob_t *knob_suggest(const char *name)
{
    const knob_t *best = NULL;
    int best_d = INT_MAX;
    for (int i = 0; i < KNOB_COUNT; i++) {
        const knob_t *k = &knob_table[i];
        if (!strcmp(name, k->name))
            return NULL;
        int d = same_letters(name, k->name) ? 0 : distance(name, k->name);
        if (d < best_d)
            best_d = d, best = k;
    }
    /* Short names are a letter or two from each other: allow less there. */
    int allowed = strlen(name) <= 10 ? 1 : 2;
    return best_d <= allowed ? best : NULL;
}

int knob_warn_typos(void (*say)(const char *line))
{
    int n = 0;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        if (len < 4 || len > 63 || strncasecmp(*e, "RMP_", 4))
            continue;
        char name[64];
        memcpy(name, *e, len);
        name[len] = '\0';
        const knob_t *k = knob_suggest(name);
        if (!k)
            continue;
        char line[192];
        snprintf(line, sizeof(line), "warning: %s is not an rmp variable (ignored); did you "
                 "mean %s?", name, k->name);
        say(line);
        n++;
    }
    return n;
}
