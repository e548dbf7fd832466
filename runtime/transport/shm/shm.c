/* shm.c — the shared-memory transport for ranks on one node: its life cycle (open, wire-up,
 * close, abandon) and its ops table. Each rank owns one POSIX segment of a fixed size whatever
 * the node's size (shm_segment.c): an incoming multi-producer queue fed by every local peer and
 * a few outgoing SPSC "fast rings" (shm_p2p.c); a doorbell and a futex to wake it when it
 * sleeps (shm_sleep.c); CMA for single-copy rendezvous (shm_cma.c). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "transport/shm/shm_rma.h"
#include "transport/shm/shm_tp.h"

/* ---- life cycle ------------------------------------------------------------------------- */

/* true once every local rank has mapped every segment I mapped: the last mapper of each has
 * unlinked its name, and an unlink by me can no longer fail a peer's start-up. */
static bool all_mapped(shm_tp_t *s)
{
    for (int i = 0; i < s->nlocal; i++)
        if (!s->peers[i].seg || atomic_load(&s->peers[i].seg->mapped) < s->nlocal)
            return false;
    return true;
}

/* The job will not run to rmp_finalize (rmp_abort, exit without finalize, a failed rmp_init):
 * unlink every segment name of this node's ranks that I know, or a peer the launcher kills
 * before it maps them all leaves them behind (mrun sweeps /dev/shm; other launchers do not).
 * Peers still in their wire-up are given SHM_ABANDON_WAIT_MS to finish mapping first, so that
 * an abort right after rmp_init does not fail their start-up with a vanished name; a failed
 * start (no wire-up here) does not wait: nobody can map all of them any more. Unlink only:
 * safe at any moment, mappings stay valid. */
static void shm_abandon(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    if (!s->peers)
        return;
    struct timespec t0, now, nap = {0, 1000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    now = t0;
    while (s->wired && !all_mapped(s) &&
           (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 <
               SHM_ABANDON_WAIT_MS) {
        nanosleep(&nap, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
    }
    for (int i = 0; i < s->nlocal; i++) {
        char *name = s->peers[i].seg_name;
        if (name[0] && shm_unlink(name) && errno != ENOENT)
            tp_verbose(tp, "shm: shm_unlink %s: %s", name, strerror(errno));
        name[0] = '\0';
    }
}

/* The instances between open and close (rmp_init and rmp_finalize run on one thread, and
 * atexit handlers after every other thread's last rmp call). */
static shm_tp_t *shm_live;

static void live_remove(shm_tp_t *s)
{
    for (shm_tp_t **pp = &shm_live; *pp; pp = &(*pp)->next_live)
        if (*pp == s) {
            *pp = s->next_live;
            return;
        }
}

/* exit() without rmp_finalize: the names must not outlive the process either. */
static void shm_atexit(void)
{
    for (shm_tp_t *s = shm_live; s; s = s->next_live)
        shm_abandon(&s->base);
}

/* A forked child's exit abandons nothing: the segments are its parent's. */
static void shm_forked(void)
{
    shm_live = NULL;
}

static void shm_atexit_register(void)
{
    if (atexit(shm_atexit))
        fprintf(stderr, "rmp: shm: atexit failed: a rank that exits without rmp_finalize may "
                "leave /dev/shm/rmp.* behind\n");
    if (pthread_atfork(NULL, NULL, shm_forked))
        fprintf(stderr, "rmp: shm: pthread_atfork failed: a child forked by a rank must not "
                "exit through exit()\n");
}

static void shm_close(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    live_remove(s);
    for (int i = 0; s->peers && i < s->nlocal; i++)
        if (i != s->me && s->peers[i].seg)
            munmap(s->peers[i].seg, s->peers[i].seg_bytes);
    if (s->seg) {
        /* Still linked if some peer never mapped it (it failed before wireup). */
        if (atomic_load(&s->seg->mapped) < s->nlocal && shm_unlink(s->blob.name) &&
            errno != ENOENT)
            tp_verbose(tp, "shm: shm_unlink %s: %s", s->blob.name, strerror(errno));
        munmap(s->seg, s->seg_bytes);
    }
    if (s->seg_fd >= 0) /* the lock goes after the name: a sweeper never sees it unlocked */
        close(s->seg_fd);
    shm_bell_close(&s->bell);
    shm_coll_close(s->coll);
    free(s->pids);
    free(s->hot);
    free(s->peers);
    free(s->local_of);
    free(s);
}

/* ---- for the collective backend (shm_coll.h) -------------------------------------------- */

static void *coll_area(tp_t *tp, int w)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = shm_peer_of(s, w);
    if (!p || !p->seg || (w != tp->env->rank && !tp->env->route[w]))
        return NULL;
    return shm_seg_coll(s, p->seg);
}

static void coll_wake(tp_t *tp, int w)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = shm_peer_of(s, w);
    if (p && p->seg && shm_wake_poke(&p->seg->sleeping) == SHM_WAKE_BELL)
        shm_bell_ring(&s->bell, &p->bell, p->bell_len);
}

static int shm_open_tp(const tp_env_t *env, tp_t **tp_p)
{
    shm_tp_t *s = calloc(1, sizeof(*s));
    if (!s)
        return RMP_ERR_NO_MEM;
    s->base.ops = &tp_shm_ops;
    s->base.rma = &shm_rma_ops; /* CMA and window segments (shm_rma.c) */
    s->base.env = env;
    if (env->local_size < 2) {
        tp_verbose(&s->base, "shm: not used: no other rank on this node");
        free(s);
        return RMP_ERR_NOT_SUPPORTED;
    }
    s->bell.fd = -1;
    s->seg_fd = -1;
    s->me = env->local_rank;
    s->nlocal = env->local_size;
    s->cma = env->use_cma;
    s->fence = env->oversubscribed;
    s->ring_cap = shm_ring_capacity(env->shm_ring_bytes ? env->shm_ring_bytes : SHM_RING_DEFAULT);
    /* At least as large as a fast ring: a record that fits one fits the queue too. */
    s->queue_cap = shm_queue_capacity(s->ring_cap > SHM_QUEUE_DEFAULT ? s->ring_cap
                                                                       : SHM_QUEUE_DEFAULT);
    shm_job_tag(env->nspace, s->tag);
    s->next_live = shm_live;
    shm_live = s;
    s->local_of = malloc((size_t)env->size * sizeof(int));
    s->peers = calloc((size_t)s->nlocal, sizeof(shm_peer_t));
    s->pids = calloc((size_t)s->nlocal, sizeof(int32_t));
    s->hot = calloc((size_t)s->nlocal, sizeof(int));
    const char *coll = tp_knob(&s->base, "RMP_SHM_COLL");
    const char *coop = tp_knob(&s->base, "RMP_SHM_COOP");
    s->coop_on = !coop || strcmp(coop, "0");
    static const shm_coll_host_t host = {.area = coll_area, .wake = coll_wake};
    s->coll = shm_coll_open(&s->base, !coll || strcmp(coll, "0"), s->nlocal, &host);
    if (!s->local_of || !s->peers || !s->pids || !s->hot || !s->coll ||
        s->nlocal >= SHM_LOCAL_MAX) {
        shm_close(&s->base);
        return RMP_ERR_NO_MEM;
    }
    for (int w = 0; w < env->size; w++)
        s->local_of[w] = -1;
    for (int i = 0; i < s->nlocal; i++) {
        s->peers[i].world = env->local_ranks[i];
        s->local_of[env->local_ranks[i]] = i;
    }
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    int rc = pthread_once(&once, shm_atexit_register) ? RMP_ERR_INTERNAL : RMP_SUCCESS;
    if (rc == RMP_SUCCESS)
        rc = shm_fits(s);
    if (rc == RMP_SUCCESS)
        rc = shm_seg_create(s);
    if (rc == RMP_SUCCESS)
        rc = shm_doorbell_open(s);
    if (rc != RMP_SUCCESS) {
        shm_abandon(&s->base); /* names created so far: the job does not start */
        shm_close(&s->base);
        return rc;
    }
    shm_queue_attach(&s->inq, shm_seg_queue(s->seg), s->queue_cap, false); /* laid out above */
    /* To myself: my own queue (the core normally uses `self` instead). */
    shm_peer_t *me = &s->peers[s->me];
    me->seg = s->seg;
    me->seg_bytes = s->seg_bytes;
    me->pid = s->seg->pid;
    me->cma_ok = true;
    shm_bell_addr(s->bell.name, &me->bell, &me->bell_len);
    s->pids[s->me] = me->pid;
    shm_queue_attach(&me->outq, shm_seg_queue(s->seg), s->queue_cap, true);

    size_t qmax = shm_queue_max_record(s->queue_cap), rmax = shm_ring_max_record(s->ring_cap);
    s->base.max_send = qmax < rmax ? qmax : rmax;
    s->base.eager_limit = SHM_EAGER_DEFAULT < s->base.max_send / 2 ? SHM_EAGER_DEFAULT
                                                                   : s->base.max_send / 2;
    s->base.caps = (s->cma ? TP_CAP_GET : 0) | TP_CAP_SLEEP_ALONE | TP_CAP_ASLEEP;
    s->base.offload = shm_coll_ops(s->coll);
    tp_verbose(&s->base, "shm: segment %s (%zu bytes: a queue of %zu bytes, %d fast rings of "
               "%zu bytes, collective buffers of %zu bytes for allgather blocks up to %zu), "
               "doorbell @%s, max send %zu, eager limit %zu", s->blob.name, s->seg_bytes,
               s->queue_cap, SHM_FAST_RINGS, s->ring_cap, shm_coll_area_bytes(s->nlocal),
               shm_coll_block_cap(s->nlocal), s->bell.name, s->base.max_send,
               s->base.eager_limit);
    if (!s->cma)
        tp_verbose(&s->base, "shm: CMA disabled by RMP_CMA=0; rendezvous copies through the rings");
    *tp_p = &s->base;
    return RMP_SUCCESS;
}

static int shm_addr_pack(tp_t *tp, const void **blob_p, size_t *len_p)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    *blob_p = &s->blob;
    *len_p = s->blob_len;
    return RMP_SUCCESS;
}

static int shm_wireup(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_blob_t *blobs = calloc((size_t)s->nlocal, sizeof(shm_blob_t));
    if (!blobs)
        return RMP_ERR_NO_MEM;
    int rc = RMP_SUCCESS;
    for (int i = 0; i < s->nlocal && rc == RMP_SUCCESS; i++)
        if (i != s->me)
            rc = shm_peer_learn(s, i, &blobs[i]);
    for (int i = 0; i < s->nlocal && rc == RMP_SUCCESS; i++) {
        if (i == s->me)
            continue;
        rc = shm_seg_map_peer(s, i, &blobs[i]);
        if (rc == RMP_SUCCESS && s->cma)
            shm_cma_probe(s, &s->peers[i]);
    }
    free(blobs);
    s->wired = rc == RMP_SUCCESS;
    return rc;
}

const tp_ops_t tp_shm_ops = {
    .name = "shm",
    .open = shm_open_tp,
    .addr_pack = shm_addr_pack,
    .wireup = shm_wireup,
    .connect = tp_no_connect,
    .send = shm_send,
    .mem_reg = shm_mem_reg,
    .mem_dereg = shm_mem_dereg,
    .get = shm_get,
    .progress = shm_progress,
    .wait_fd = shm_wait_fd,
    .arm = shm_arm,
    .disarm = shm_disarm,
    .arm_alone = shm_arm_alone,
    .wait_alone = shm_wait_alone,
    .wake_alone = shm_wake_alone,
    .asleep = shm_asleep,
    .close = shm_close,
    .abandon = shm_abandon,
};
