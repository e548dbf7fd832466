/* args.c: mrun's command line. Besides its own options, mrun takes what scripts written for
 * mpirun/mpiexec pass (-np, -N/--npernode/--ppn, --oversubscribe, --allow-run-as-root,
 * --map-by, --report-bindings, --output-filename, -H/--host, single-dash long options, the
 * MPIEXEC_TIMEOUT variable); an option it cannot honour is refused with one line
 * naming what to use instead, and no option is ever abbreviated (getopt_long would read
 * "--n 2" as "--nodes 2"). */
#include "args.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "rankstat.h"

static const char usage_text[] =
    "Usage: mrun -n N [options] prog [args...]\n"
    "Starts N ranks of prog on this machine as one PMIx job.\n"
    "\n"
    "  -n N            number of ranks (1 to 4096); also -np N, --n N, --np N\n"
    "  --nodes K       split the ranks into K virtual nodes, in blocks (default 1)\n"
    "  -x VAR[=VAL]    set VAR in the ranks' environment (no =VAL: mrun's value)\n"
    "  --tag-output    prefix every output line with [rank]\n"
    "  --bind-to core|none  pin rank i to the i-th CPU mrun may use (default: core when\n"
    "                  the ranks fit the CPUs, none when they outnumber them)\n"
    "  --profile[=DIR] RMP_PROFILE=1 (or DIR) for every rank: rank 0 writes a report of the\n"
    "                  job's calls and traffic to ./rmp-profile-<jobid>/ (or DIR) at\n"
    "                  finalize; rmp-prof DIR prints its summary\n"
    "  --timeout SEC   end the job after SEC seconds (above 0, at most 100000000; fractions\n"
    "                  allowed); the time the job spends stopped (Ctrl-Z) does not count;\n"
    "                  MPIEXEC_TIMEOUT gives SEC when this option does not (empty: none)\n"
    "  --universe-size N  MPI_UNIVERSE_SIZE, the processes the job may have with spawned\n"
    "                  children (at least -n; default: -H's slots, else the CPUs, at least -n;\n"
    "                  a spawned job's mrun keeps its parents')\n"
    "  -h, --help      show this help\n"
    "  -V, --version   show the version\n"
    "\n"
    "Accepted for mpirun/mpiexec scripts:\n"
    "  -H, --host localhost:S[,...]  slots on this machine (other hosts are refused); without\n"
    "                  -n, one rank per slot; more ranks than slots need --oversubscribe\n"
    "  -N, --npernode P  P ranks per node (also --ppn P): mrun starts one node, or the K\n"
    "                  of --nodes K, so -N P alone means -n P*K, and with -n they must agree\n"
    "  --oversubscribe allow more ranks than -H slots (more ranks than CPUs are always allowed)\n"
    "  --allow-run-as-root  accepted, does nothing (mrun runs as any user)\n"
    "  --map-by core|slot|node  core, slot: rank i on the i-th CPU (mrun's order); node: the\n"
    "                  same on one node (refused with --nodes K, whose blocks are by slot)\n"
    "  --report-bindings  print the CPU each rank is bound to, on stderr\n"
    "  --output-filename DIR  write rank r's output to DIR/1/rank.r/stdout and stderr\n"
    "  Single-dash spellings (-np, -host, -oversubscribe, ...) work too. --hostfile,\n"
    "  --machinefile, --rankfile, --mca and -genv are refused with the option to use\n"
    "  instead.\n"
    "\n"
    "Exit status: 0 when every rank succeeds; otherwise the first failure's: the rank's\n"
    "status (128+N if killed by signal N), the rmp_abort code, 1 for a rank that skipped\n"
    "rmp_init or rmp_finalize, 128+N when mrun gets signal N, 124 on timeout, 126/127 when\n"
    "prog cannot be executed / is not found, 2 for bad usage.\n";

/* Values getopt_long returns for long options without a short form. */
enum { OPT_NODES = 256, OPT_TAG, OPT_TIMEOUT, OPT_BIND, OPT_OVERSUB, OPT_MAPBY, OPT_REPORT,
       OPT_OUTPUT, OPT_ROOT, OPT_PROFILE, OPT_UNIVERSE, OPT_REFUSED };

static const struct option args_longopts[] = {
    {"n", required_argument, NULL, 'n'},
    {"np", required_argument, NULL, 'n'},
    {"nodes", required_argument, NULL, OPT_NODES},
    {"tag-output", no_argument, NULL, OPT_TAG},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"profile", optional_argument, NULL, OPT_PROFILE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"bind-to", required_argument, NULL, OPT_BIND},
    {"host", required_argument, NULL, 'H'},
    {"oversubscribe", no_argument, NULL, OPT_OVERSUB},
    {"map-by", required_argument, NULL, OPT_MAPBY},
    {"report-bindings", no_argument, NULL, OPT_REPORT},
    {"output-filename", required_argument, NULL, OPT_OUTPUT},
    {"npernode", required_argument, NULL, 'N'},
    {"ppn", required_argument, NULL, 'N'}, /* MPICH's name */
    {"allow-run-as-root", no_argument, NULL, OPT_ROOT},
    {"universe-size", required_argument, NULL, OPT_UNIVERSE},
    /* refused: args_refused says what to use instead */
    {"hostfile", required_argument, NULL, OPT_REFUSED},
    {"machinefile", required_argument, NULL, OPT_REFUSED},
    {"rankfile", required_argument, NULL, OPT_REFUSED},
    {"mca", required_argument, NULL, OPT_REFUSED},
    {"genv", required_argument, NULL, OPT_REFUSED},
    {NULL, 0, NULL, 0},
};

static const struct {
    const char *name, *instead;
} args_refused[] = {
    {"hostfile", "mrun starts every rank on this machine: use -n N (and --nodes K for K "
                 "virtual nodes)"},
    {"machinefile", "mrun starts every rank on this machine: use -n N (and --nodes K for K "
                    "virtual nodes)"},
    {"rankfile", "use --bind-to core (rank i on the i-th CPU) or --bind-to none"},
    {"mca", "rmp has no MCA parameters: set RMP_* variables with -x RMP_NAME=VALUE "
            "(rmp-info lists them)"},
    {"genv", "use -x VAR=VALUE"},
};

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "mrun: %s; try mrun --help\n", msg);
    return MRUN_EXIT_USAGE;
}

static bool parse_int(const char *s, int min, int max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max)
        return false;
    *out = (int)v;
    return true;
}

/* The long option called exactly `name` (up to an '='), or NULL. */
static const struct option *args_long_named(const char *name)
{
    size_t len = strcspn(name, "=");
    for (const struct option *lo = args_longopts; lo->name; lo++)
        if (strlen(lo->name) == len && strncmp(lo->name, name, len) == 0)
            return lo;
    return NULL;
}

/* o->argv_buf: a copy of argv where the single-dash spelling of a long option ("-np",
 * "-oversubscribe") becomes "--np", up to the program. Returns false when out of memory. */
static bool args_normalize(int argc, char **argv, mrun_opts_t *o)
{
    o->argv_buf = calloc((size_t)argc + 1, sizeof *o->argv_buf);
    o->argv_new = calloc((size_t)argc + 1, sizeof *o->argv_new);
    if (!o->argv_buf || !o->argv_new)
        return false;
    memcpy(o->argv_buf, argv, (size_t)argc * sizeof *argv);
    int nnew = 0;
    for (int i = 1; i < argc;) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0' || strcmp(a, "--") == 0)
            break; /* the program: what follows is its own */
        if (a[1] != '-' && a[2] != '\0' && args_long_named(a + 1)) {
            char *s = malloc(strlen(a) + 2);
            if (!s)
                return false;
            sprintf(s, "-%s", a);
            o->argv_buf[i] = o->argv_new[nnew++] = s;
            a = s;
        }
        const struct option *lo = a[1] == '-' ? args_long_named(a + 2) : NULL;
        if (lo)
            i += lo->has_arg == required_argument && !strchr(a, '=') ? 2 : 1;
        else
            i += a[1] != '-' && strchr("nxHN", a[1]) && a[2] == '\0' ? 2 : 1;
    }
    return true;
}

static bool args_is_local_host(const char *name, size_t len)
{
    char host[256];
    static const char *const local[] = {"localhost", "127.0.0.1", "::1",
                                        "localhost.localdomain"};
    for (size_t i = 0; i < sizeof local / sizeof local[0]; i++)
        if (strlen(local[i]) == len && strncmp(local[i], name, len) == 0)
            return true;
    if (gethostname(host, sizeof host - 1) != 0)
        return false;
    host[sizeof host - 1] = '\0';
    size_t full = strlen(host), shrt = strcspn(host, ".");
    return (len == full || len == shrt) && strncmp(host, name, len) == 0;
}

/* -H/--host "localhost:4,localhost" (no count: one slot): adds to o->host_slots. */
static int args_hosts(const char *arg, mrun_opts_t *o)
{
    for (const char *p = arg;;) {
        size_t len = strcspn(p, ",");
        size_t name_len = strcspn(p, ",:");
        int slots = 1;
        if (name_len < len) {
            char num[16] = "";
            size_t nlen = len - name_len - 1;
            if (nlen < sizeof num)
                memcpy(num, p + name_len + 1, nlen);
            if (nlen >= sizeof num || !parse_int(num, 1, MRUN_MAX_PROCS, &slots))
                return usage_error("-H needs host[:slots] with 1 to %d slots, not '%.*s'",
                                   MRUN_MAX_PROCS, (int)len, p);
        }
        if (name_len == 0 || !args_is_local_host(p, name_len))
            return usage_error("-H %.*s: mrun starts ranks on this machine only (use -H "
                               "localhost:N, or --nodes K to simulate K nodes)",
                               (int)name_len, p);
        o->host_slots += slots;
        if (o->host_slots > MRUN_MAX_PROCS)
            o->host_slots = MRUN_MAX_PROCS;
        if (p[len] == '\0')
            return -1;
        p += len + 1;
    }
}

/* --timeout SEC, or MPIEXEC_TIMEOUT's value (`what` names which, for the message). */
static int args_timeout(const char *arg, const char *what, mrun_opts_t *o)
{
    char *end;
    errno = 0;
    double t = strtod(arg, &end);
    /* The bound keeps the deadline's milliseconds far inside an int64 (1e8 s: over 3 years). */
    if (errno || end == arg || *end || !isfinite(t) || t <= 0 || t > 1e8)
        return usage_error("%s needs a number of seconds above 0 and at most 100000000, not "
                           "'%s'", what, arg);
    o->timeout_s = t;
    o->timeout_arg = arg;
    return -1;
}

static int args_refuse(const char *name)
{
    for (size_t i = 0; i < sizeof args_refused / sizeof args_refused[0]; i++)
        if (strcmp(args_refused[i].name, name) == 0)
            return usage_error("--%s is not supported: %s", name, args_refused[i].instead);
    return usage_error("--%s is not supported", name);
}

/* MPI_UNIVERSE_SIZE for the ranks (RMP_UNIVERSE_SIZE): --universe-size, else what an outer
 * job set (a spawned job's mrun: the universe is the parents'), else the slots, as Open MPI's
 * mpirun counts them: -H's, else this machine's CPUs; at least the ranks. */
static void args_universe(mrun_opts_t *o)
{
    const char *outer = getenv("RMP_UNIVERSE_SIZE");
    if (o->universe == 0 && outer && *outer)
        return;
    int n = o->universe;
    if (n == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        n = o->host_slots > 0 ? o->host_slots : cpus > 0 && cpus < (1 << 20) ? (int)cpus : 1;
        n = n > o->nprocs ? n : o->nprocs;
    }
    snprintf(o->universe_env, sizeof o->universe_env, "RMP_UNIVERSE_SIZE=%d", n);
    o->exports[o->nexports++] = o->universe_env;
}

/* One option getopt_long found (c, its value arg, idx its long option or -1). Returns -1 to
 * go on, else the status to exit with. */
static int args_apply(int c, const char *arg, int idx, mrun_opts_t *o)
{
    switch (c) {
    case 'n':
        if (!parse_int(arg, 1, MRUN_MAX_PROCS, &o->nprocs))
            return usage_error("-n needs a number of ranks from 1 to %d, not '%s'",
                               MRUN_MAX_PROCS, arg);
        return -1;
    case OPT_NODES:
        if (!parse_int(arg, 1, MRUN_MAX_PROCS, &o->nnodes))
            return usage_error("--nodes needs a number of nodes from 1 to %d, not '%s'",
                               MRUN_MAX_PROCS, arg);
        return -1;
    case 'x':
        if (arg[0] == '\0' || arg[0] == '=')
            return usage_error("-x needs VAR or VAR=VALUE, not '%s'", arg);
        o->exports[o->nexports++] = (char *)arg;
        return -1;
    case 'H':
        return args_hosts(arg, o);
    case OPT_TAG:
        o->tag_output = true;
        return -1;
    case OPT_OVERSUB:
        o->oversubscribe = true;
        return -1;
    case OPT_REPORT:
        o->report_bindings = true;
        return -1;
    case OPT_BIND:
        if (strcmp(arg, "core") != 0 && strcmp(arg, "none") != 0)
            return usage_error("--bind-to needs core or none, not '%s'", arg);
        o->bind = strcmp(arg, "core") == 0 ? BIND_CORE : BIND_NONE;
        return -1;
    case OPT_MAPBY:
        if (strcasecmp(arg, "core") == 0 || strcasecmp(arg, "slot") == 0)
            o->map_by = strcasecmp(arg, "core") == 0 ? MAP_CORE : MAP_SLOT;
        else if (strcasecmp(arg, "node") == 0)
            o->map_by = MAP_NODE;
        else
            return usage_error("--map-by needs core, slot or node, not '%s' (for binding, use "
                               "--bind-to core|none)", arg);
        return -1;
    case OPT_OUTPUT:
        if (arg[0] == '\0')
            return usage_error("--output-filename needs a directory");
        o->output_dir = arg;
        return -1;
    case OPT_TIMEOUT:
        return args_timeout(arg, "--timeout", o);
    case OPT_PROFILE: /* the ranks validate the value at rmp_init, as any RMP_PROFILE */
        if (arg && arg[0] == '\0')
            return usage_error("--profile=DIR needs a directory");
        snprintf(o->profile_env, sizeof o->profile_env, "RMP_PROFILE=%s", arg ? arg : "1");
        o->exports[o->nexports++] = o->profile_env;
        return -1;
    case 'N':
        if (!parse_int(arg, 1, MRUN_MAX_PROCS, &o->npernode))
            return usage_error("--npernode needs a number of ranks per node from 1 to %d, not "
                               "'%s'", MRUN_MAX_PROCS, arg);
        return -1;
    case OPT_ROOT: /* Open MPI refuses root without it; mrun has no such rule */
        return -1;
    case OPT_UNIVERSE:
        if (!parse_int(arg, 1, 1 << 20, &o->universe))
            return usage_error("--universe-size needs a number of processes from 1 to %d, "
                               "not '%s'", 1 << 20, arg);
        return -1;
    case OPT_REFUSED:
        return args_refuse(args_longopts[idx].name);
    case 'h':
        fputs(usage_text, stdout);
        return 0;
    case 'V':
        puts("mrun (rmp) " MRUN_VERSION);
        return 0;
    }
    return usage_error("unknown option"); /* not reached: every value is a case above */
}

/* What the whole command line must satisfy once every option is read. */
static int args_check(int argc, char **argv, mrun_opts_t *o)
{
    /* The variable mpiexec reads (MPICH, Open MPI), when --timeout did not say: the option
     * wins. Empty is unset, as a shell's `MPIEXEC_TIMEOUT= mrun ...` means. */
    const char *env_timeout = getenv("MPIEXEC_TIMEOUT");
    if (!o->timeout_arg && env_timeout && env_timeout[0] != '\0') {
        int status = args_timeout(env_timeout, "MPIEXEC_TIMEOUT", o);
        if (status >= 0)
            return status;
    }
    /* -N P: P ranks on each node, one node here or the K virtual ones of --nodes K. */
    if (o->npernode > 0) {
        long total = (long)o->npernode * o->nnodes;
        if (total > MRUN_MAX_PROCS)
            return usage_error("--npernode %d on %d nodes is %ld ranks, more than %d",
                               o->npernode, o->nnodes, total, MRUN_MAX_PROCS);
        if (o->nprocs == 0)
            o->nprocs = (int)total;
        else if (o->nprocs != total && o->nnodes == 1)
            return usage_error("-n %d and --npernode %d disagree: mrun starts one node, so "
                               "--npernode %d is -n %d (give one of them, or --nodes K for K "
                               "virtual nodes)", o->nprocs, o->npernode, o->npernode,
                               o->npernode);
        else if (o->nprocs != total)
            return usage_error("-n %d and --npernode %d disagree: on the %d nodes of --nodes "
                               "that is -n %ld", o->nprocs, o->npernode, o->nnodes, total);
    }
    if (o->nprocs == 0 && o->host_slots > 0)
        o->nprocs = o->host_slots; /* mpirun's rule: one rank per slot */
    if (o->nprocs == 0)
        return usage_error("missing -n N, the number of ranks");
    if (optind >= argc)
        return usage_error("missing the program to run");
    if (o->nnodes > o->nprocs)
        return usage_error("--nodes %d is more than the %d ranks", o->nnodes, o->nprocs);
    if (o->host_slots > 0 && o->nprocs > o->host_slots && !o->oversubscribe)
        return usage_error("-n %d is more than the %d slots -H gives: add --oversubscribe, "
                           "or give more slots (-H localhost:%d)", o->nprocs, o->host_slots,
                           o->nprocs);
    if (o->map_by == MAP_NODE && o->nnodes > 1)
        return usage_error("--map-by node with --nodes %d: mrun fills virtual nodes in blocks "
                           "(--map-by slot), not round-robin", o->nnodes);
    if (o->universe > 0 && o->universe < o->nprocs)
        return usage_error("--universe-size %d is less than the %d ranks", o->universe,
                           o->nprocs);
    args_universe(o);
    o->argv = argv + optind;
    snprintf(o->stat_env, sizeof o->stat_env, "RMP_MRUN_FD=%d:%d", RANKSTAT_FD, (int)getpid());
    return -1;
}

int args_parse(int argc, char **argv, mrun_opts_t *o)
{
    *o = (mrun_opts_t){.nnodes = 1};
    if (!(o->exports = calloc((size_t)argc + 1, sizeof *o->exports)) || /* +1: universe */
        !args_normalize(argc, argv, o)) {
        fprintf(stderr, "mrun: out of memory\n");
        return 1;
    }
    char **av = o->argv_buf;
    opterr = 0; /* our own one-line messages instead of getopt's */
    for (;;) {
        int at = optind, idx = -1;
        const char *a = at < argc ? av[at] : "";
        /* "-help", "-hostx": not -h followed by more letters */
        if (a[0] == '-' && (a[1] == 'h' || a[1] == 'V') && a[2] != '\0')
            return usage_error("unknown option '%s'", a);
        /* '+': options end at the program, whose own options are left alone */
        int c = getopt_long(argc, av, "+:n:x:H:N:hV", args_longopts, &idx);
        if (c == -1)
            break;
        if (c == ':')
            return usage_error("option '%s' needs a value", av[optind - 1]);
        if (c == '?') {
            if (optopt && optopt < 256)
                return usage_error("unknown option '-%c'", optopt);
            return usage_error("unknown option '%s'", av[optind - 1]);
        }
        if (idx >= 0 && a[0] == '-' && a[1] == '-' &&
            args_long_named(a + 2) != &args_longopts[idx])
            return usage_error("unknown option '%.*s' (mrun takes no abbreviations: did you "
                               "mean --%s?)", (int)strcspn(a, "="), a, args_longopts[idx].name);
        int status = args_apply(c, optarg, idx, o);
        if (status >= 0)
            return status;
    }
    return args_check(argc, av, o);
}

void args_free(mrun_opts_t *o)
{
    for (int i = 0; o->argv_new && o->argv_new[i]; i++)
        free(o->argv_new[i]);
    free(o->argv_new);
    free(o->argv_buf);
    free(o->exports);
    o->argv_new = o->argv_buf = o->exports = NULL;
}
