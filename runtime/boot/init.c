/* init.c — start-up and shut-down of the runtime context: configuration from the RMP_* knobs
 * (knobs.c), bootstrap, the transports (transports.c: open, modex, wire-up, per-peer
 * selection); finalize and abort; the small utilities (wtime, strerror). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "datatype.h"
#include "hang.h"
#include "match.h"
#include "protocol.h"

static void config_from_knobs(config_t *cfg)
{
    const knob_val_t *eager = &cfg->knobs[KNOB_EAGER_LIMIT], *spin = &cfg->knobs[KNOB_SPIN_US];
    cfg->verbose = (int)cfg->knobs[KNOB_VERBOSE].num;
    cfg->eager_limit = eager->set ? (long)eager->num : -1;
    cfg->spin_us = spin->set ? (long)spin->num : -1;
    cfg->use_cma = (int)cfg->knobs[KNOB_CMA].num;
    cfg->shm_ring_bytes = (size_t)cfg->knobs[KNOB_SHM_RING_KB].num * 1024;
    cfg->hang_report_s = (long)cfg->knobs[KNOB_HANG_REPORT].num;
    cfg->check_coll = cfg->knobs[KNOB_CHECK_COLLECTIVES].num != 0;
    cfg->finalize_timeout_s = (long)cfg->knobs[KNOB_FINALIZE_TIMEOUT].num;
    const knob_val_t *t = &cfg->knobs[KNOB_TRANSPORT];
    /* An enum: the text is one of the short names in knobs.c's set. */
    snprintf(cfg->transport, sizeof(cfg->transport), "%.31s",
             t->set && strcmp(t->text, "auto") ? t->text : "");
}

/* Every RMP_* knob, validated (an RMP_DEVICE naming no device here is refused even when
 * verbs will not be used: the user asked for something this machine does not have). On a
 * refusal the reason is left in why, for init_all to print once per job. */
static int read_config(config_t *cfg, char *why, size_t len)
{
    int bad = knob_load(cfg->knobs, why, len);
    config_from_knobs(cfg); /* refused values at their defaults: logging still works */
    const knob_val_t *dev = &cfg->knobs[KNOB_DEVICE];
    if (!bad && dev->set)
        bad = tp_verbs_check_device(dev->text, why, len);
    cfg->explained = bad != 0;
    return bad ? RMP_ERR_ARG : RMP_SUCCESS;
}

/* Under RMP_VERBOSE, each knob that was set and what it was read as. */
static void verbose_knobs(rmp_ctx_t *c)
{
    for (int i = 0; c->cfg.verbose && i < KNOB_COUNT; i++) {
        const knob_t *k = &knob_table[i];
        const knob_val_t *v = &c->cfg.knobs[i];
        if (!v->set)
            continue;
        if (k->type == KNOB_SIZE)
            core_verbose(c, "%s=%s: %lld bytes", k->name, v->text, v->num);
        else
            core_verbose(c, "%s=%s", k->name, v->text);
    }
}

static void warn_line(const char *line)
{
    log_job("%s", line);
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
    c->kick_fd = -1;
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
    char why[768] = "";
    int cfg_rc = read_config(&c->cfg, why, sizeof(why));
    int rc = boot_init(c);
    /* A bad knob is the whole job's problem: rank 0 says so (every rank, if the bootstrap
     * failed and ranks are unknown), and every rank fails — after a fence, so that no rank's
     * exit makes the launcher end the job before rank 0 has printed. (A rank whose own
     * environment is fine meets the fence as its modex and then finds this rank gone.) */
    if (cfg_rc) {
        if (rc || c->rank == 0)
            log_job("%s", why);
        if (!rc)
            (void)boot_fence(c); /* best effort: this rank fails either way */
        return cfg_rc;
    }
    if (rc)
        return rc;
    if (c->rank == 0)
        knob_warn_typos(warn_line);
    verbose_knobs(c);
    c->ncores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    c->oversubscribed = c->local_size > c->ncores;
    if (c->cfg.spin_us < 0)
        c->cfg.spin_us = c->oversubscribed ? 20 : 200;
    c->peers = calloc((size_t)c->size + RMP_MAX_DYN_PEERS, sizeof(peer_t));
    c->npeers = c->size;
    c->mq = match_create();
    if (!c->peers || !c->mq)
        return RMP_ERR_NO_MEM;
    if ((rc = wake_open(c)) || (rc = dtype_init(c)) || (rc = comm_init_builtin(c)))
        return rc;
    /* A transport that refused with a decision every rank of the node took alike (shm_fits:
     * one rank says why, the others nothing) meets the modex fence before failing, as a bad
     * knob does: no rank's exit ends the job before the one that explains has printed. The
     * quiet ones then give mrun a moment to end them: their programs' own "rmp_init failed"
     * lines would repeat the one cause once per rank. */
    if ((rc = tps_open(c))) {
        if (c->cfg.explained)
            (void)boot_fence(c);
        if (c->cfg.quiet_failure)
            boot_await_end(c);
        return rc;
    }
    if ((rc = boot_fence(c)) || (rc = tps_wireup(c)))
        return rc;
    if (c->cfg.knobs[KNOB_PROGRESS_THREAD].num && (rc = progthr_start(c)))
        return rc;
    hang_init(c);
    core_verbose(c, "rank %d of %d, %d on this node (%d cores%s), spin %ld us, thread level %d",
                 c->rank, c->size, c->local_size, c->ncores,
                 c->oversubscribed ? ", oversubscribed" : "", c->cfg.spin_us, c->thread_level);
    return RMP_SUCCESS;
}

/* orderly: after rmp_finalize's barrier; else a start-up that failed. */
static void teardown(rmp_ctx_t *c, bool orderly)
{
    progthr_stop(c); /* before anything it polls goes away */
    wake_close(c);
    bsend_fini(c);
    send_cancel_fini(c);
    tps_close(c, orderly);
    dyn_fini(c);
    dyn_name_fini(c);
    dyn_port_fini(c);
    rma_hook_fini(c); /* nothing arrives any more */
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

/* A child forked after rmp_init has copies of the rank's memory, not the rank: rmp is not
 * initialized there. Every call says so, its exit does not finalize (the MPI layer's exit
 * handler) and rmp_abort just exits: the rank's job and peers never hear of the child. */
static void forked_child(void)
{
    int up = 1;
    atomic_compare_exchange_strong(&rmp_ctx.state, &up, 3);
}

static void forked_child_register(void)
{
    if (pthread_atfork(NULL, NULL, forked_child) != 0)
        fprintf(stderr, "rmp: pthread_atfork failed: a child forked after rmp_init must not "
                        "call rmp\n");
}

/* The runtime is held by the world model (rmp_init .. rmp_finalize) and by each session
 * (session.c): the first holder starts it, the last one's release runs the finalize, so a
 * session outlives rmp_finalize and a library's session leaves rmp_initialized alone.
 * A runtime already up keeps its thread level (*provided says which). */
int rt_hold(int required, int *provided)
{
    rmp_ctx_t *c = &rmp_ctx;
    if (required < RMP_THREAD_SINGLE || required > RMP_THREAD_MULTIPLE)
        return RMP_ERR_ARG;
    if (atomic_load(&c->state) == 1) {
        ctx_lock(c);
        c->holders++;
        ctx_unlock(c);
        if (provided)
            *provided = c->thread_level;
        return RMP_SUCCESS;
    }
    if (atomic_load(&c->state) >= 2)
        return RMP_ERR_NOT_INITIALIZED; /* MPI forbids re-initialization; or a forked child */
    static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
    pthread_once(&atfork_once, forked_child_register);
    memset(c, 0, sizeof(*c));
    list_init(&c->rndv_active);
    list_init(&c->coll_active);
    c->t0 = mono_now();
    init_sync(c, required);
    int rc = init_all(c);
    if (rc != RMP_SUCCESS) {
        if (!c->cfg.explained) /* else the line that said why is enough */
            core_error(c, "rmp_init failed: %s", rmp_strerror(rc));
        teardown(c, false);
        return rc;
    }
    if (provided)
        *provided = required;
    c->holders = 1;
    atomic_store(&c->state, 1);
    prof_init(c);
    return RMP_SUCCESS;
}

int rmp_init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    rmp_ctx_t *c = &rmp_ctx;
    if (atomic_load(&c->state) == 1 && c->world_up)
        return RMP_ERR_INITIALIZED;
    if (c->world_done)
        return RMP_ERR_NOT_INITIALIZED;
    int rc = rt_hold(required, provided);
    if (rc == RMP_SUCCESS)
        c->world_up = true;
    return rc;
}

int rmp_init(int *argc, char ***argv)
{
    return rmp_init_thread(argc, argv, RMP_THREAD_SINGLE, NULL);
}

/* rmp_finalize's wait: until nothing is owed to peers, or RMP_FINALIZE_TIMEOUT has passed
 * (until > 0): a send that no receive will ever match (the peer finalizes without it) would
 * otherwise keep this rank here for ever. */
typedef struct fin_wait {
    rmp_ctx_t *c;
    double until; /* mono_now() seconds; 0: no bound */
    bool late;
} fin_wait_t;

static bool quiescent(void *arg)
{
    fin_wait_t *f = arg;
    rmp_ctx_t *c = f->c;
    if (c->outq_pending == 0 && list_empty(&c->rndv_active) && send_cancel_idle(c))
        return true;
    return (f->late = f->until > 0 && mono_now() >= f->until);
}

static void owed(void *arg, char *buf, size_t len)
{
    hang_pending_p2p(arg, buf, len);
}

/* The bound passed: say what was never taken, and fail it, so that the transports close
 * with nothing of theirs in flight. */
static void give_up(rmp_ctx_t *c)
{
    char what[1024];
    hang_pending_p2p(c, what, sizeof(what));
    core_error(c, "rmp_finalize: gave up after %ld s (RMP_FINALIZE_TIMEOUT) on what no peer "
               "took: %s", c->cfg.finalize_timeout_s, what);
    list_t *it, *nx;
    LIST_FOR_EACH_SAFE(&c->rndv_active, it, nx) {
        struct rmp_request *r = LIST_ENTRY(it, struct rmp_request, link);
        list_remove(&r->link);
        if (r->kind == REQ_RECV)
            req_recv_finish(r, RMP_ERR_PENDING);
        else
            req_complete(r, RMP_ERR_PENDING);
    }
    for (int p = 0; p < c->npeers && c->outq_pending; p++)
        outq_fail_peer(c, p, RMP_ERR_PENDING);
}

int rmp_finalize(void)
{
    rmp_ctx_t *c = &rmp_ctx;
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!c->world_up) /* only sessions hold the runtime */
        return RMP_ERR_NOT_INITIALIZED;
    c->world_up = false;
    c->world_done = true;
    return rt_release();
}

int rt_release(void)
{
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    bool last = --c->holders == 0;
    ctx_unlock(c);
    if (!last)
        return RMP_SUCCESS;
    int rc;
    const char *prev = hang_enter("rmp_finalize");
    prof_finish(c); /* the one gather, while every peer is still there */
    /* Deliver what we still owe peers (queued packets, rendezvous they wait on), then agree
     * with everyone that nobody needs our buffers any more. */
    fin_wait_t f = {.c = c, .until = c->cfg.finalize_timeout_s > 0
                                         ? mono_now() + (double)c->cfg.finalize_timeout_s
                                         : 0};
    ctx_lock(c);
    hang_slot.what = owed;
    hang_slot.what_arg = c;
    progress_wait_until(c, quiescent, &f);
    hang_slot.what = NULL;
    if (f.late && !quiescent(&(fin_wait_t){.c = c}))
        give_up(c);
    else
        f.late = false;
    ctx_unlock(c);
    /* The PMIx fence below answers no peer: wait over the transports for every rank to get
     * here first (a peer may still wait for our answer to its cancel, fin_barrier.c). */
    int frc = fin_barrier(c);
    if (frc)
        core_verbose(c, "finalize: the barrier over the transports: %s", rmp_strerror(frc));
    fin_wait_t g = {.c = c, .until = f.until > 0 ? mono_now() + (double)c->cfg.finalize_timeout_s
                                                  : 0};
    ctx_lock(c);
    progress_wait_until(c, quiescent, &g); /* what the barrier queued */
    ctx_unlock(c);
    /* Nothing is owed any more: the progress thread stops before peers start closing their
     * transports, so that it never sees them go (as no rank polls in the barrier without it). */
    progthr_stop(c);
    hang_in_fence(true);
    rc = boot_barrier(c);
    hang_in_fence(false);
    atomic_store(&c->state, 2);
    teardown(c, true);
    hang_leave(prev);
    return rc ? rc : f.late ? RMP_ERR_PENDING : RMP_SUCCESS;
}

int rmp_initialized(int *flag)
{
    if (!flag)
        return RMP_ERR_ARG;
    *flag = atomic_load(&rmp_ctx.state) == 1 && rmp_ctx.world_up;
    return RMP_SUCCESS;
}

int rmp_finalized(int *flag)
{
    if (!flag)
        return RMP_ERR_ARG;
    *flag = rmp_ctx.world_done && atomic_load(&rmp_ctx.state) != 3;
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

/* The exit status of an abort: code & 255 like mpirun's, except that an abort never reports
 * success (a code whose low 8 bits are 0 gives 1). -1 -> 255, 300 -> 44, 0 and 256 -> 1. */
static int abort_status(int code)
{
    unsigned s = (unsigned)code & 255u;
    return s ? (int)s : 1;
}

int rmp_abort(rmp_comm_t comm, int code)
{
    rmp_ctx_t *c = &rmp_ctx;
    int status = abort_status(code);
    (void)comm; /* MPI allows aborting only the communicator's group; rmp ends the job. */
    if (atomic_load(&c->state) != 1)
        _exit(status);
    char msg[64];
    snprintf(msg, sizeof(msg), "rank %d called rmp_abort(%d)", c->rank, code);
    progthr_stop(c); /* it must not poll transports being abandoned */
    tps_abandon(c);
    dyn_port_abandon(c);
    /* The launcher gets the mapped status too, so that every launcher reports the same one;
     * boot_abort exits with it itself when the launcher's abort returns (Slurm's does). */
    boot_abort(c, code, status, msg);
    _exit(status); /* not reached */
}

double rmp_wtime(void)
{
    return mono_now();
}

double rmp_wtick(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1e-9; /* cannot fail for CLOCK_MONOTONIC on Linux; the clock counts ns */
    return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}

const char *rmp_get_version(int *major, int *minor, int *patch)
{
    if (major)
        *major = RMP_VERSION_MAJOR;
    if (minor)
        *minor = RMP_VERSION_MINOR;
    if (patch)
        *patch = RMP_VERSION_PATCH;
    return RMP_VERSION_STRING;
}
