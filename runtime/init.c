/* init.c — start-up and shut-down of the runtime context: configuration from RMP_* variables,
 * bootstrap, transports (open, modex, wire-up), per-peer transport selection; finalize and
 * abort; the small utilities (wtime, strerror, diagnostics). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "datatype.h"
#include "match.h"
#include "protocol.h"

rmp_ctx_t rmp_ctx;

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    long v = strtol(s, &end, 0);
    if (*end == 'k' || *end == 'K')
        v *= 1024, end++;
    else if (*end == 'm' || *end == 'M')
        v *= 1024 * 1024, end++;
    if (*end) {
        fprintf(stderr, "rmp: ignoring %s=%s (not a number)\n", name, s);
        return dflt;
    }
    return v;
}

static int read_config(config_t *cfg)
{
    cfg->verbose = (int)env_long("RMP_VERBOSE", 0);
    cfg->eager_limit = env_long("RMP_EAGER_LIMIT", -1);
    cfg->spin_us = env_long("RMP_SPIN_US", -1);
    cfg->use_cma = (int)env_long("RMP_CMA", 1);
    long kb = env_long("RMP_SHM_RING_KB", 256);
    if (kb < 16 || kb > 1024 * 1024) {
        fprintf(stderr, "rmp: RMP_SHM_RING_KB=%ld out of range [16, 1048576]\n", kb);
        return RMP_ERR_ARG;
    }
    cfg->shm_ring_bytes = (size_t)kb * 1024;
    const char *t = getenv("RMP_TRANSPORT");
    snprintf(cfg->transport, sizeof(cfg->transport), "%s", t && strcmp(t, "auto") ? t : "");
    if (cfg->transport[0] && strcmp(cfg->transport, "shm") && strcmp(cfg->transport, "verbs")) {
        fprintf(stderr, "rmp: RMP_TRANSPORT=%s: expected shm, verbs or auto\n", t);
        return RMP_ERR_ARG;
    }
    return RMP_SUCCESS;
}

static void vmsg(rmp_ctx_t *c, const char *fmt, va_list ap)
{
    char line[1024];
    vsnprintf(line, sizeof(line), fmt, ap);
    if (atomic_load(&c->state) == 0 && c->size == 0)
        fprintf(stderr, "rmp: %s\n", line);
    else
        fprintf(stderr, "rmp[%d]: %s\n", c->rank, line);
}

void core_verbose(rmp_ctx_t *c, const char *fmt, ...)
{
    if (!c->cfg.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(c, fmt, ap);
    va_end(ap);
}

void core_error(rmp_ctx_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(c, fmt, ap);
    va_end(ap);
}

int ctx_check(void)
{
    return atomic_load(&rmp_ctx.state) == 1 ? RMP_SUCCESS : RMP_ERR_NOT_INITIALIZED;
}

static int open_transports(rmp_ctx_t *c)
{
    const tp_ops_t *all[] = {&tp_self_ops, &tp_shm_ops, &tp_verbs_ops};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        tp_t *tp = NULL;
        int rc = all[i]->open(c, &tp);
        if (rc == RMP_ERR_NOT_SUPPORTED) {
            core_verbose(c, "transport %s: not used", all[i]->name);
            continue;
        }
        if (rc != RMP_SUCCESS)
            return rc;
        c->tps[c->ntps++] = tp;
        const void *blob;
        size_t len;
        if (tp->ops->addr_pack && (rc = tp->ops->addr_pack(tp, &blob, &len)) != RMP_SUCCESS)
            return rc;
        char key[64];
        snprintf(key, sizeof(key), "rmp.%s", tp->ops->name);
        if (tp->ops->addr_pack && (rc = boot_put(c, key, blob, len)) != RMP_SUCCESS)
            return rc;
    }
    return RMP_SUCCESS;
}

static tp_t *find_tp(rmp_ctx_t *c, const char *name)
{
    for (int i = 0; i < c->ntps; i++)
        if (!strcmp(c->tps[i]->ops->name, name))
            return c->tps[i];
    return NULL;
}

static bool is_local(rmp_ctx_t *c, int w)
{
    for (int i = 0; i < c->local_size; i++)
        if (c->local_ranks[i] == w)
            return true;
    return false;
}

/* shm for peers on my node, verbs for the rest (RMP_TRANSPORT narrows the choice). */
static int select_transports(rmp_ctx_t *c)
{
    tp_t *self = find_tp(c, "self"), *shm = find_tp(c, "shm"), *verbs = find_tp(c, "verbs");
    bool force_verbs = !strcmp(c->cfg.transport, "verbs");
    int unreachable = -1, nunreachable = 0;
    if (force_verbs && !verbs && c->size > 1) {
        core_error(c, "RMP_TRANSPORT=verbs but no verbs device is usable (RMP_VERBOSE=1 says why)");
        return RMP_ERR_NOT_SUPPORTED;
    }
    for (int w = 0; w < c->size; w++) {
        peer_t *p = &c->peers[w];
        bool local = is_local(c, w);
        p->node = local ? 0 : 1;
        if (w == c->rank && !force_verbs)
            p->tp = self;
        else if (force_verbs)
            p->tp = verbs;
        else if (local && shm)
            p->tp = shm;
        else if (!local && verbs && strcmp(c->cfg.transport, "shm"))
            p->tp = verbs;
        if (w != c->rank || force_verbs)
            core_verbose(c, "rank %d (%s node): %s", w, local ? "same" : "other",
                         p->tp ? p->tp->ops->name : "UNREACHABLE (no transport)");
        if (!p->tp && unreachable < 0)
            unreachable = w;
        nunreachable += !p->tp;
    }
    if (unreachable < 0)
        return RMP_SUCCESS;
    /* Refused here rather than at the first send: a rank that only waits for an unreachable
     * peer would otherwise wait forever. */
    bool local = is_local(c, unreachable);
    core_error(c, "rank %d%s on %s node: no transport reaches it: %s", unreachable,
               nunreachable > 1 ? " and others are" : " is", local ? "this" : "another",
               local ? "shared memory is not usable (see above; RMP_VERBOSE=1 says why)"
               : !strcmp(c->cfg.transport, "shm")
                   ? "RMP_TRANSPORT=shm forbids verbs (unset it, or run every rank on one node)"
                   : "no usable RDMA device (see above; RMP_VERBOSE=1 says why)");
    return RMP_ERR_NOT_SUPPORTED;
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int init_sync(rmp_ctx_t *c, int level)
{
    c->thread_level = level;
    c->locking = level == RMP_THREAD_MULTIPLE;
    pthread_mutex_init(&c->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&c->cond, &ca);
    pthread_condattr_destroy(&ca);
    return RMP_SUCCESS;
}

static int init_all(rmp_ctx_t *c)
{
    int rc;
    if ((rc = read_config(&c->cfg)) || (rc = boot_init(c)))
        return rc;
    c->ncores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    c->oversubscribed = c->local_size > c->ncores;
    if (c->cfg.spin_us < 0)
        c->cfg.spin_us = c->oversubscribed ? 20 : 200;
    c->peers = calloc((size_t)c->size, sizeof(peer_t));
    c->mq = match_create();
    if (!c->peers || !c->mq)
        return RMP_ERR_NO_MEM;
    if ((rc = dtype_init(c)) || (rc = comm_init_builtin(c)) || (rc = open_transports(c)) ||
        (rc = boot_fence(c)))
        return rc;
    for (int i = 0; i < c->ntps; i++)
        if (c->tps[i]->ops->wireup && (rc = c->tps[i]->ops->wireup(c->tps[i])))
            return rc;
    if ((rc = select_transports(c)))
        return rc;
    core_verbose(c, "rank %d of %d, %d on this node (%d cores%s), spin %ld us, thread level %d",
                 c->rank, c->size, c->local_size, c->ncores,
                 c->oversubscribed ? ", oversubscribed" : "", c->cfg.spin_us, c->thread_level);
    return RMP_SUCCESS;
}

static void teardown(rmp_ctx_t *c)
{
    for (int i = c->ntps - 1; i >= 0; i--)
        c->tps[i]->ops->close(c->tps[i]);
    c->ntps = 0;
    match_destroy(c->mq);
    c->mq = NULL;
    comm_fini(c);
    dtype_fini(c);
    free(c->peers);
    c->peers = NULL;
    free(c->local_ranks);
    c->local_ranks = NULL;
    boot_finalize(c);
}

int rmp_init_thread(int *argc, char ***argv, int required, int *provided)
{
    rmp_ctx_t *c = &rmp_ctx;
    (void)argc;
    (void)argv;
    if (atomic_load(&c->state) == 1)
        return RMP_ERR_INITIALIZED;
    if (atomic_load(&c->state) == 2)
        return RMP_ERR_NOT_INITIALIZED; /* MPI forbids re-initialization too */
    if (required < RMP_THREAD_SINGLE || required > RMP_THREAD_MULTIPLE)
        return RMP_ERR_ARG;
    memset(c, 0, sizeof(*c));
    c->t0 = mono_now();
    init_sync(c, required);
    int rc = init_all(c);
    if (rc != RMP_SUCCESS) {
        core_error(c, "rmp_init failed: %s", rmp_strerror(rc));
        teardown(c);
        return rc;
    }
    if (provided)
        *provided = required;
    atomic_store(&c->state, 1);
    return RMP_SUCCESS;
}

int rmp_init(int *argc, char ***argv)
{
    return rmp_init_thread(argc, argv, RMP_THREAD_SINGLE, NULL);
}

static bool quiescent(void *arg)
{
    rmp_ctx_t *c = arg;
    return c->outq_pending == 0 && c->rndv_active == NULL;
}

int rmp_finalize(void)
{
    rmp_ctx_t *c = &rmp_ctx;
    int rc = ctx_check();
    if (rc)
        return rc;
    /* Deliver what we still owe peers (queued packets, rendezvous they wait on), then agree
     * with everyone that nobody needs our buffers any more. */
    ctx_lock(c);
    progress_wait_until(c, quiescent, c);
    ctx_unlock(c);
    rc = boot_barrier(c);
    atomic_store(&c->state, 2);
    teardown(c);
    return rc;
}

int rmp_initialized(int *flag)
{
    if (!flag)
        return RMP_ERR_ARG;
    *flag = atomic_load(&rmp_ctx.state) == 1;
    return RMP_SUCCESS;
}

int rmp_finalized(int *flag)
{
    if (!flag)
        return RMP_ERR_ARG;
    *flag = atomic_load(&rmp_ctx.state) == 2;
    return RMP_SUCCESS;
}

int rmp_query_thread(int *provided)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!provided)
        return RMP_ERR_ARG;
    *provided = rmp_ctx.thread_level;
    return RMP_SUCCESS;
}

int rmp_abort(rmp_comm_t comm, int code)
{
    rmp_ctx_t *c = &rmp_ctx;
    (void)comm; /* MPI allows aborting only the communicator's group; rmp ends the job. */
    if (atomic_load(&c->state) != 1)
        _exit(code);
    char msg[64];
    snprintf(msg, sizeof(msg), "rank %d called rmp_abort(%d)", c->rank, code);
    for (int i = 0; i < c->ntps; i++)
        if (c->tps[i]->ops->abandon)
            c->tps[i]->ops->abandon(c->tps[i]);
    boot_abort(c, code, msg);
    return RMP_ERR_INTERNAL; /* not reached */
}

double rmp_wtime(void)
{
    return mono_now();
}

const char *rmp_strerror(int err)
{
    static const char *const msg[] = {
        [0] = "success",
        [1] = "invalid argument",
        [2] = "invalid communicator",
        [3] = "invalid rank",
        [4] = "invalid tag",
        [5] = "invalid count",
        [6] = "invalid datatype",
        [7] = "invalid reduction operation",
        [8] = "invalid buffer",
        [9] = "message truncated: receive buffer too small",
        [10] = "invalid request",
        [11] = "invalid root",
        [12] = "rmp is not initialized (or already finalized)",
        [13] = "rmp is already initialized",
        [14] = "out of memory",
        [15] = "transport failure",
        [16] = "peer process failed or is unreachable",
        [17] = "error in status",
        [18] = "not allowed at this thread level",
        [19] = "bootstrap (PMIx) failure",
        [20] = "not supported",
        [21] = "internal error",
    };
    if (err > 0 || err <= RMP_ERR_LAST)
        return "unknown error code";
    return msg[-err];
}
