/* bootstrap.c — the PMIx client side: who am I, who shares my node, and the modex (each
 * transport's address blob: Put, Commit, one Fence, then Get per peer). Without a launcher
 * PMIx_Init fails and the program runs as a singleton of size 1; under a launcher that speaks
 * another protocol it fails with the flag to use; under mrun, a PMIx_Init that fails (mrun
 * refuses a second process as a rank) is an error, never a singleton. Under mrun, it also
 * reports init, finalize, abort and failed peers on mrun's status channel (launcher/rankstat.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pmix.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

#define QUIET_WAIT_MS 1000 /* boot_await_end: how long a consequence waits for mrun's SIGTERM */

typedef struct boot_val {
    struct boot_val *next;
    pmix_value_t *val;
} boot_val_t;

typedef struct boot {
    pmix_proc_t me;
    boot_val_t *vals; /* values handed out by boot_get, released at finalize */
    int mrun_fd;      /* mrun's status channel; -1: not started by mrun */
    bool pmix_up;     /* PMIx_Init succeeded: PMIx_Finalize is due */
} boot_t;

/* RMP_MRUN_FD=<fd>:<pid>: mrun's status channel, meant for mrun's own children only (a
 * process a rank starts inherits the variable, not the pipe). */
static int mrun_channel(void)
{
    const char *v = getenv("RMP_MRUN_FD");
    int fd, pid, end = 0;
    struct stat st;
    if (!v || sscanf(v, "%d:%d%n", &fd, &pid, &end) != 2 || v[end] != '\0' || fd < 3 ||
        pid != (int)getppid() || fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
        return -1;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || (fl & O_ACCMODE) != O_WRONLY || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0 ||
        fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) /* not for programs the rank executes */
        return -1;
    return fd;
}

/* PMIx_Init failed with mrun's variables in the environment: no singleton then (one that
 * "succeeded" alone would hide the failure). mrun refuses a process that claims a rank another
 * process already is: one that a rank started, since only mrun's own children carry its pid in
 * RMP_MRUN_FD as their parent. Says why and returns true; false: not under mrun at all. */
static bool under_mrun(rmp_ctx_t *c)
{
    const char *v = getenv("RMP_MRUN_FD"), *rank = getenv("PMIX_RANK");
    int fd, pid, end = 0;
    if (!v || sscanf(v, "%d:%d%n", &fd, &pid, &end) != 2 || v[end] != '\0')
        return false;
    if (pid != (int)getppid())
        core_error(c, "mrun refused this process as rank %s: that rank is another process, "
                   "connected already; a program started by a rank is not that rank: unset the "
                   "PMIX_* variables or start it with mrun", rank ? rank : "?");
    else
        core_error(c, "PMIx_Init failed: mrun's PMIx server did not take this rank (mrun "
                   "says why)");
    c->cfg.explained = true; /* rmp_init adds no generic line */
    return true;
}

/* One line on mrun's channel (one write: lines never interleave). */
__attribute__((format(printf, 2, 3))) static void boot_note(rmp_ctx_t *c, const char *fmt, ...)
{
    boot_t *b = c->boot;
    if (!b || b->mrun_fd < 0)
        return;
    char line[32];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line - 1)
        return;
    line[n++] = '\n';
    ssize_t w;
    do /* mrun reads it at once; a full pipe (cannot happen: a few lines per rank) drops it */
        w = write(b->mrun_fd, line, (size_t)n);
    while (w < 0 && errno == EINTR);
}

void boot_peer_failed(rmp_ctx_t *c, int peer)
{
    boot_note(c, "P %d", peer);
}

/* A launcher that does not speak PMIx started several copies of the program: without this
 * check each would run alone as a singleton and "succeed". Returns the message, or NULL. */
static const char *foreign_launcher(char *buf, size_t len)
{
    static const struct {
        const char *var, *who, *fix;
    } known[] = {
        {"SLURM_NTASKS", "Slurm's srun without PMIx", "run it with 'srun --mpi=pmix'"},
        {"SLURM_NPROCS", "Slurm's srun without PMIx", "run it with 'srun --mpi=pmix'"},
        {"PMI_SIZE", "a PMI-1/PMI-2 launcher (MPICH's mpiexec, srun --mpi=pmi2)",
         "start it with mrun, 'srun --mpi=pmix' or Open MPI's mpirun"},
        {"OMPI_COMM_WORLD_SIZE", "Open MPI's launcher without PMIx",
         "start it with mrun or an Open MPI mpirun built with PMIx"},
        {"MPI_LOCALNRANKS", "MPICH's mpiexec", "start it with mrun or 'srun --mpi=pmix'"},
    };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        const char *v = getenv(known[i].var);
        char *end;
        long n = v ? strtol(v, &end, 10) : 0;
        if (v && end != v && *end == '\0' && n > 1 && n < INT_MAX) {
            snprintf(buf, len, "started by %s (%s=%s), which rmp cannot talk to: %s",
                     known[i].who, known[i].var, v, known[i].fix);
            return buf;
        }
    }
    if (getenv("PMI_FD") || getenv("PMI_PORT")) {
        snprintf(buf, len, "started by a PMI-1/PMI-2 launcher (PMI_FD or PMI_PORT is set), "
                 "which rmp cannot talk to: start it with mrun, 'srun --mpi=pmix' or Open MPI's "
                 "mpirun");
        return buf;
    }
    return NULL;
}

/* optional: only what the client holds already (no request to the server, which could wait
 * for a key the launcher never gives). */
static int get_u32_how(boot_t *b, pmix_rank_t rank, const char *key, uint32_t *out,
                       bool optional)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, b->me.nspace, rank);
    pmix_value_t *v = NULL;
    pmix_info_t info;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    pmix_status_t st = PMIx_Get(&p, key, optional ? &info : NULL, optional ? 1 : 0, &v);
    PMIX_INFO_DESTRUCT(&info);
    if (st != PMIX_SUCCESS || !v)
        return RMP_ERR_BOOTSTRAP;
    int rc = RMP_SUCCESS;
    if (v->type == PMIX_UINT32)
        *out = v->data.uint32;
    else if (v->type == PMIX_UINT16)
        *out = v->data.uint16;
    else if (v->type == PMIX_PROC_RANK)
        *out = v->data.rank;
    else
        rc = RMP_ERR_BOOTSTRAP;
    PMIX_VALUE_RELEASE(v);
    return rc;
}

static int get_u32(boot_t *b, pmix_rank_t rank, const char *key, uint32_t *out)
{
    return get_u32_how(b, rank, key, out, false);
}

/* PMIX_LOCAL_PEERS: "0,1,2,3" — the world ranks on my node, in local-rank order. */
static int read_local_peers(rmp_ctx_t *c, boot_t *b)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, b->me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *v = NULL;
    if (PMIx_Get(&p, PMIX_LOCAL_PEERS, NULL, 0, &v) != PMIX_SUCCESS || !v ||
        v->type != PMIX_STRING) {
        if (v)
            PMIX_VALUE_RELEASE(v);
        core_error(c, "PMIx gave no PMIX_LOCAL_PEERS: is the launcher PMIx-compliant?");
        return RMP_ERR_BOOTSTRAP;
    }
    c->local_ranks = malloc(sizeof(int) * (size_t)c->size);
    c->local_size = 0;
    c->local_rank = -1;
    char *save = NULL, *s = strdup(v->data.string);
    for (char *t = strtok_r(s, ",", &save); t && c->local_ranks; t = strtok_r(NULL, ",", &save)) {
        int r = atoi(t);
        if (r < 0 || r >= c->size || c->local_size >= c->size)
            continue;
        if (r == c->rank)
            c->local_rank = c->local_size;
        c->local_ranks[c->local_size++] = r;
    }
    free(s);
    PMIX_VALUE_RELEASE(v);
    if (!c->local_ranks || c->local_rank < 0) {
        core_error(c, "PMIX_LOCAL_PEERS does not list my rank");
        return RMP_ERR_BOOTSTRAP;
    }
    return RMP_SUCCESS;
}

static int singleton(rmp_ctx_t *c)
{
    c->singleton = true;
    c->rank = 0;
    c->size = 1;
    snprintf(c->nspace, sizeof(c->nspace), "singleton-%d", (int)getpid());
    c->local_ranks = malloc(sizeof(int));
    if (!c->local_ranks)
        return RMP_ERR_NO_MEM;
    c->local_ranks[0] = 0;
    c->local_rank = 0;
    c->local_size = 1;
    return RMP_SUCCESS;
}

/* rmp's own descriptors in a process: 6 at 4 and at 64 ranks on one node (PMIx's socket and
 * event loop, the status channel, ...), and one more at a time while PMIx_Init loads its
 * plugins and the shared-memory transport maps its peers' segments; start-up failed with 6
 * free and worked with 7. Short of them, rmp_init failed deep inside PMIx or a transport
 * ("Too many open files", or PMIx's complaints about its plugins): say why first. */
enum { BOOT_FREE_FDS = 16 };

static int check_fds(rmp_ctx_t *c)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return RMP_SUCCESS;
    long used = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d && errno != EMFILE && errno != ENFILE)
        return RMP_SUCCESS; /* no /proc: the transports will say what fails */
    if (!d) {
        used = (long)rl.rlim_cur;
    } else {
        for (struct dirent *e; (e = readdir(d));)
            used += e->d_name[0] != '.';
        closedir(d);
        used--; /* the directory's own */
    }
    if ((long)rl.rlim_cur - used >= BOOT_FREE_FDS)
        return RMP_SUCCESS;
    core_error(c, "this process has %ld of its %lu open files (ulimit -n) in use, and rmp_init "
               "needs %d free: raise the limit", used, (unsigned long)rl.rlim_cur,
               BOOT_FREE_FDS);
    c->cfg.explained = true; /* rmp_init adds no generic line */
    return RMP_ERR_BOOTSTRAP;
}

int boot_init(rmp_ctx_t *c)
{
    boot_t *b = calloc(1, sizeof(*b));
    if (!b)
        return RMP_ERR_NO_MEM;
    b->mrun_fd = -1;
    c->boot = b;
    int rc = check_fds(c);
    if (rc != RMP_SUCCESS)
        return rc;
    /* No launcher: PMIx_Init fails quickly (no server to reach) — run as a singleton. */
    if (!getenv("PMIX_NAMESPACE") && !getenv("PMIX_SERVER_URI41") &&
        !getenv("PMIX_SERVER_URI4") && !getenv("PMIX_SERVER_URI3") &&
        !getenv("PMIX_SERVER_URI2") && !getenv("PMIX_SERVER_URI21")) {
        char why[256];
        if (foreign_launcher(why, sizeof why)) {
            core_error(c, "%s", why);
            return RMP_ERR_BOOTSTRAP;
        }
        return singleton(c);
    }
    pmix_status_t st = PMIx_Init(&b->me, NULL, 0);
    if (st != PMIX_SUCCESS && under_mrun(c))
        return RMP_ERR_BOOTSTRAP; /* not a singleton, and nothing of PMIx to finalize */
    b->pmix_up = st == PMIX_SUCCESS;
    if (st != PMIX_SUCCESS) {
        core_verbose(c, "PMIx_Init: %s: running as a singleton", PMIx_Error_string(st));
        return singleton(c);
    }
    c->rank = (int)b->me.rank;
    snprintf(c->nspace, sizeof(c->nspace), "%s", b->me.nspace);
    uint32_t size;
    if (get_u32(b, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &size) != RMP_SUCCESS) {
        core_error(c, "PMIx gave no PMIX_JOB_SIZE");
        return RMP_ERR_BOOTSTRAP;
    }
    c->size = (int)size;
    rc = read_local_peers(c, b);
    if (rc == RMP_SUCCESS && (b->mrun_fd = mrun_channel()) >= 0)
        boot_note(c, "I");
    return rc;
}

int boot_put(rmp_ctx_t *c, const char *key, const void *blob, size_t len)
{
    if (c->singleton)
        return RMP_SUCCESS;
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)blob;
    v.data.bo.size = len;
    pmix_status_t st = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (st != PMIX_SUCCESS) {
        core_error(c, "PMIx_Put(%s): %s", key, PMIx_Error_string(st));
        return RMP_ERR_BOOTSTRAP;
    }
    return RMP_SUCCESS;
}

static int fence(rmp_ctx_t *c, bool collect)
{
    boot_t *b = c->boot;
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, b->me.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t info;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_status_t st = PMIx_Fence(&all, 1, collect ? &info : NULL, collect ? 1 : 0);
    PMIX_INFO_DESTRUCT(&info);
    if (st != PMIX_SUCCESS && b->mrun_fd >= 0 && atomic_load(&c->state) == 0) {
        /* PMIx fails a fence when a participant is gone: at start-up, under mrun, this rank's
         * failure is the consequence of a rank that ended first, which mrun names in one line
         * (the cause). This one stays quiet (no generic line either), and gives mrun a moment
         * to end it before exiting, so that mrun reaps the cause first. */
        c->cfg.explained = true;
        boot_await_end(c);
        return RMP_ERR_BOOTSTRAP;
    }
    if (st != PMIX_SUCCESS) {
        core_error(c, "PMIx_Fence: %s (a rank died during start-up?)", PMIx_Error_string(st));
        return RMP_ERR_BOOTSTRAP;
    }
    return RMP_SUCCESS;
}

void boot_await_end(rmp_ctx_t *c)
{
    const boot_t *b = c->boot;
    struct timespec nap = {0, 50 * 1000000};
    for (int i = 0; b && b->mrun_fd >= 0 && i < QUIET_WAIT_MS / 50; i++)
        nanosleep(&nap, NULL);
}

int boot_fence(rmp_ctx_t *c)
{
    if (c->singleton)
        return RMP_SUCCESS;
    pmix_status_t st = PMIx_Commit();
    if (st != PMIX_SUCCESS) {
        core_error(c, "PMIx_Commit: %s", PMIx_Error_string(st));
        return RMP_ERR_BOOTSTRAP;
    }
    return fence(c, true);
}

/* A fence that collects, though there is nothing new to collect: Slurm's PMIx plugin makes a
 * fence without PMIX_COLLECT_DATA a barrier of each node's ranks only (mpi.conf's
 * PMIxFenceBarrier, false by default), so under srun a rank left rmp_finalize while the other
 * node's ranks were still in fin_barrier, waiting for its messages (measured on Slurm 22.05
 * across two VMs: the non-collecting fence returned on one node 8 s before the other node's
 * rank called it, the collecting one did not). */
int boot_barrier(rmp_ctx_t *c)
{
    return c->singleton ? RMP_SUCCESS : fence(c, true);
}

int boot_get(rmp_ctx_t *c, int peer, const char *key, const void **blob_p, size_t *len_p)
{
    boot_t *b = c->boot;
    if (c->singleton)
        return RMP_ERR_BOOTSTRAP;
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, b->me.nspace, (pmix_rank_t)peer);
    pmix_value_t *v = NULL;
    pmix_status_t st = PMIx_Get(&p, key, NULL, 0, &v);
    if (st != PMIX_SUCCESS || !v || v->type != PMIX_BYTE_OBJECT) {
        if (v)
            PMIX_VALUE_RELEASE(v);
        core_error(c, "PMIx_Get(%s of rank %d): %s", key, peer, PMIx_Error_string(st));
        return RMP_ERR_BOOTSTRAP;
    }
    boot_val_t *bv = malloc(sizeof(*bv));
    if (!bv) {
        PMIX_VALUE_RELEASE(v);
        return RMP_ERR_NO_MEM;
    }
    *bv = (boot_val_t){.next = b->vals, .val = v};
    b->vals = bv;
    *blob_p = v->data.bo.bytes;
    *len_p = v->data.bo.size;
    return RMP_SUCCESS;
}

void boot_abort(rmp_ctx_t *c, int code, int status, const char *msg)
{
    boot_t *b = c->boot;
    fflush(stdout);
    fflush(stderr);
    boot_note(c, "A %d", code); /* mrun names the code the program gave */
    /* PMIx_Abort may return (Slurm does): the caller exits regardless. */
    if (b && !c->singleton)
        PMIx_Abort(status, msg, NULL, 0);
    _exit(status);
}

void boot_finalize(rmp_ctx_t *c)
{
    boot_t *b = c->boot;
    if (!b)
        return;
    for (boot_val_t *v = b->vals, *n; v; v = n) {
        n = v->next;
        PMIX_VALUE_RELEASE(v->val);
        free(v);
    }
    boot_note(c, "F");
    if (b->pmix_up)
        PMIx_Finalize(NULL, 0);
    if (b->mrun_fd >= 0)
        close(b->mrun_fd);
    free(b);
    c->boot = NULL;
}

int core_modex_get(rmp_ctx_t *c, int peer, const char *name, const void **blob_p,
                   size_t *len_p)
{
    if (peer >= c->size)
        return dyn_modex_get(c, peer, blob_p, len_p);
    char key[64];
    snprintf(key, sizeof(key), "rmp.%s", name);
    return boot_get(c, peer, key, blob_p, len_p);
}

/* The transports' node map: node[w] is world rank w's PMIX_NODEID. A launcher that does not
 * give it per rank leaves my node's ranks (PMIX_LOCAL_PEERS) at my id, or 0, and the others at
 * -1 (unknown, and not mine). */
void boot_node_map(rmp_ctx_t *c, int *node)
{
    boot_t *b = c->boot;
    uint32_t mine = 0, id;
    bool known = !c->singleton &&
                 get_u32_how(b, b->me.rank, PMIX_NODEID, &mine, true) == RMP_SUCCESS;
    for (int w = 0; w < c->size; w++)
        node[w] = -1;
    for (int i = 0; i < c->local_size; i++)
        node[c->local_ranks[i]] = (int)mine;
    for (int w = 0; known && w < c->size; w++)
        if (node[w] < 0 && get_u32_how(b, (pmix_rank_t)w, PMIX_NODEID, &id, true) ==
                               RMP_SUCCESS && id != mine && id <= INT_MAX)
            node[w] = (int)id;
}
