/* ctx.h — the one runtime context (ctx.c defines it): rmp_ctx_t with the per-peer state,
 * the configuration, the tables of communicators, datatypes and requests' queues, the lock
 * helpers, and the inline checks every call starts with (ctx_check, dtype_get, comm_get). */
#ifndef RMP_CTX_H
#define RMP_CTX_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "comm.h"
#include "dtype.h"
#include "event.h"
#include "hpool.h"
#include "knobs.h"
#include "list.h"
#include "prof.h"
#include "request.h"
#include "rmp.h"
#include "stats.h"
#include "transport/transport.h"

/* RMP_AGAIN and RMP_INPROGRESS, the internal outcomes, come with transport/transport.h. */

#define RMP_MAX_TRANSPORTS 4
#define RMP_MAX_COMMS 4096
#define SESSION_MAX 64 /* live sessions at once: ctx.session_live's bits */
/* Peers gained after init (dynpeer.c): world ids size .. size + RMP_MAX_DYN_PEERS - 1. */
#define RMP_MAX_DYN_PEERS 256
#define RMP_DYN_ADDR_MAX 108 /* an endpoint's address: a socket path (sun_path) */

/* ---- Per-peer state ---- */
typedef struct outq_item outq_item_t; /* queued outgoing packet (protocol.c) */

typedef struct peer {
    tp_t *tp;            /* transport reaching this peer (NULL: unreachable) */
    bool connected;
    int node;            /* node id (PMIx) */
    uint32_t send_seq;   /* next sequence number to this peer */
    uint32_t recv_seq;   /* next expected from this peer */
    outq_item_t *outq_head, *outq_tail; /* packets waiting for transport resources */
    bool no_get;         /* get() was refused once: stream rendezvous data instead */
    int failed;          /* 0, or the error every new operation with this peer gets */
    bool garbled;        /* sent a malformed packet: what it sends is dropped */
    /* Messages (eager or RTS) and their bytes, to and from it, and how many of those sent
     * went by rendezvous: on a line the message path touches anyway; stats.c sums them by
     * transport, and RMP_PROFILE's matrix is made of them (prof.c: one set of counters). */
    uint64_t msgs_sent, bytes_sent, msgs_recvd, bytes_recvd;
    uint64_t rndv_sent, rndv_bytes;
} peer_t;

/* ---- Configuration (init.c, from the RMP_* knobs validated by knobs.c) ---- */
typedef struct config {
    int verbose;           /* RMP_VERBOSE */
    long eager_limit;      /* RMP_EAGER_LIMIT (-1: transport default) */
    long spin_us;          /* RMP_SPIN_US (-1: automatic) */
    char transport[32];    /* RMP_TRANSPORT: "" (auto), "shm", "verbs" */
    int use_cma;           /* RMP_CMA (default 1): 0 forces copy through the rings */
    size_t shm_ring_bytes; /* RMP_SHM_RING_KB * 1024 */
    bool quiet_failure;    /* rmp_init fails for a reason another rank explains */
    long hang_report_s;    /* RMP_HANG_REPORT: seconds without progress before a report; 0 off */
    bool check_coll;       /* RMP_CHECK_COLLECTIVES (collectives/coll_check.c) */
    long finalize_timeout_s; /* RMP_FINALIZE_TIMEOUT: 0, no bound */
    bool explained;        /* why rmp_init fails was printed already (a refused RMP_* value,
                            * rings the node cannot hold): no generic line after it */
    knob_val_t knobs[KNOB_COUNT]; /* every knob as validated at rmp_init (knobs.c) */
} config_t;

/* ---- The progress thread (progress_thread.c, RMP_PROGRESS_THREAD=1) ---- */
typedef struct progthr {
    bool on;                 /* the thread runs (started at init, joined at finalize/abort) */
    bool stop;               /* asks it to leave its loop (lock held) */
    bool idle;               /* asleep on wake_fd alone, no transport armed (lock held): nothing
                              * to move, or an application thread is progressing itself */
    int wake_fd;             /* eventfd it sleeps on besides the transports' (-1: none) */
    pthread_t tid;
} progthr_t;

/* ---- The one runtime context ---- */
typedef struct match_queues match_queues_t; /* match.c */
struct pkt_rma;   /* a one-sided packet's header (protocol.h) */
struct rma_early; /* one kept for a handler not installed yet (rma_hook.c) */

struct rmp_ctx {
    atomic_int state;        /* 0 never, 1 initialized, 2 finalized, 3 a child forked after 1 */
    int thread_level;
    pthread_mutex_t lock;    /* the runtime lock (taken only at RMP_THREAD_MULTIPLE) */
    bool locking;            /* RMP_THREAD_MULTIPLE, or a progress thread runs */
    pthread_cond_t cond;     /* waiters that are not the blocking thread */
    bool blocker;            /* a thread is blocked in poll() for everyone */
    tp_t *blocker_alone;     /* ... in this transport's wait_alone (NULL: in poll()) */
    const void *blocker_on;  /* ... waiting for this done flag, PROGRESS_ON_ANY, or NULL
                              * (the progress thread: for nothing a completion gives) */
    bool kicked;             /* progress_kick_for woke it since the sleep began */
    int kick_fd;             /* RMP_THREAD_MULTIPLE: an eventfd in that poll() (else -1) */
    int waiters;
    int progressing;         /* threads in progress_wait_until: the progress thread steps aside */

    /* job */
    int rank, size;          /* world */
    char nspace[256];        /* PMIx namespace ("singleton" without a launcher) */
    bool singleton;
    int local_rank, local_size; /* on my node */
    int *local_ranks;        /* world ranks on my node, in local-rank order */
    int *node;               /* [size] node id of each world rank (boot_node_map) */
    int ncores;              /* online CPUs */
    bool oversubscribed;     /* more ranks on the node than cores */
    double busy_until;       /* progress.c: until then (us, monotonic) waits sleep at once */
    long nivcsw_seen;        /* progress.c: involuntary switches at the last slow yield */
    struct {                 /* progress_test.c: the current run of test calls finding nothing */
        unsigned fruitless;  /* calls in the run (0: none) */
        double since, last;  /* us, monotonic: the run's start, the last call's end */
    } test_idle;
    config_t cfg;

    peer_t *peers;           /* [size + RMP_MAX_DYN_PEERS]: the world, then dynamic peers */
    int npeers;              /* ids in use are below it (size, and up with dynamic peers) */
    struct dyn *dyn;         /* dynpeer.c's table of dynamic peers (NULL: none met yet) */
    /* Set by dynpeer.c when it opens the late transport, read by transports.c's upcall: the
     * world id of the peer at an address (lock held), without transports.c calling dynpeer.c
     * back (the two would call each other). */
    int (*dyn_peer_by_addr)(rmp_ctx_t *c, const char *addr);
    struct dyn_port *ports;  /* dynport.c: the ports this process opened */
    struct dyn_child *children; /* dynport.c: spawned jobs' launchers, reaped at teardown */
    struct dyn_name *names;  /* dynname.c: the services this process published */
    int first_failed;        /* fault.c: the first peer that failed, if failed_at_us > 0 */
    double failed_at_us;     /* fault.c: when (monotonic us, progress.c's clock) */
    int outq_pending;        /* packets queued in all peers' outq */
    list_t rndv_active;      /* sends waiting for FIN/CTS, receives with data to come
                              * (rendezvous.c; request.link) */
    list_t coll_active;      /* collective requests with schedules in progress (progress.c) */
    tp_t *tps[RMP_MAX_TRANSPORTS];
    int ntps;
    tp_env_t tp_env[RMP_MAX_TRANSPORTS]; /* what each transport was opened with (transports.c) */
    bool *routes;            /* [RMP_MAX_TRANSPORTS * size]: the tp_env_t.route arrays */

    struct bsend_buf *bsend; /* the buffer attached for buffered sends (bsend.c), or
                              * NULL */
    struct bsend_buf *bsend_dead; /* freed communicators' buffers, messages in flight */
    struct bsend_buf *session_bsend[SESSION_MAX]; /* session k + 1's buffer, or NULL */
    /* Sends whose cancel waits for the receiver's answer (send_cancel.c): finalize waits
     * for them, a peer's failure ends theirs. */
    struct rmp_request **cancels;
    int ncancels, cancels_cap;
    comm_t *comms;           /* [RMP_MAX_COMMS] */
    hpool_t comm_pool;       /* their handles from 2 on (comm.c) */
    match_queues_t *mq;

    dtype_t *dtypes;         /* datatype table */
    hpool_t dtype_pool;      /* its derived types' handles (type_slot.c) */

    progthr_t progthr;       /* RMP_PROGRESS_THREAD (progress_thread.c) */
    /* One-sided communication's active messages: the layer above (rma/am.c) installs these,
     * the runtime calls them and knows nothing else of windows. rma_deliver gets each checked
     * PKT_RMA packet (header by copy, payload inside the arrival, lock held) and returns false
     * for one it cannot take yet (its window's creation here is still under way);
     * rma_peer_failed ends what waits on a failed peer there. Arrivals not taken (or before
     * rma_deliver is set) wait in rma_early, in order, for rma_hook_replay. */
    bool (*rma_deliver)(rmp_ctx_t *c, int src, const struct pkt_rma *h, const void *payload,
                        size_t len);
    void (*rma_peer_failed)(rmp_ctx_t *c, int peer, int status);
    void (*rma_fini)(rmp_ctx_t *c); /* teardown: the layer's own state goes */
    /* Whether a window handle is live (RMP_SUCCESS, else RMP_ERR_WIN): what objmeta.c needs
     * of windows to name them, installed with the handlers above so the runtime never calls
     * the one-sided layer (NULL before the first window: no handle is live). */
    int (*rma_win_valid)(rmp_win_t win);
    struct rma_early *rma_early, **rma_early_tail;
    void *boot;              /* bootstrap.c private state */
    uint64_t part_ids[64];   /* part.c: ids of live partitioned requests (their tags) */
    /* Who holds the runtime (init.c's rt_hold): the world model while world_up (rmp_init ..
     * rmp_finalize; world_done after), and each session (session.c: live ones in
     * session_live, bit k for handle k + 1). */
    int holders;
    bool world_up, world_done;
    uint64_t session_live;
    double t0;
    stats_t stats;           /* the counters tools read (stats.c) */
    tp_stats_t tp_closed;    /* the closed transports' counters (tps_close keeps them) */
    struct prof *prof;       /* RMP_PROFILE's counters while recording (prof.h), else NULL */
};

extern rmp_ctx_t rmp_ctx; /* the one instance */

/* progress_wake.c: called at unlock while the progress thread idles (lock held); wakes it
 * when work that needs it appeared and no other thread is progressing. */
void progthr_unlock_hook(rmp_ctx_t *c);

/* Lock helpers: no-ops below RMP_THREAD_MULTIPLE unless a progress thread runs. */
static inline void ctx_lock(rmp_ctx_t *c)
{
    if (c->locking)
        pthread_mutex_lock(&c->lock);
}
static inline void ctx_unlock(rmp_ctx_t *c)
{
    if (c->locking) {
        if (c->progthr.idle)
            progthr_unlock_hook(c);
        pthread_mutex_unlock(&c->lock);
    }
    ev_after_unlock(); /* queued event listeners run here, the lock released */
}
/* The checks every call starts with are inline: they are on every send and receive, and a
 * call into another file for a load and a compare was a tenth of a small message's path.
 *
 * RMP_SUCCESS if initialized and not finalized. */
static inline int ctx_check(void)
{
    return atomic_load(&rmp_ctx.state) == 1 ? RMP_SUCCESS : RMP_ERR_NOT_INITIALIZED;
}

/* NULL if the handle is not a valid (and, if need_commit, committed) type. Lock-free on
 * purpose: callers may or may not hold the runtime lock, and the table never moves. A freed
 * type keeps its descriptor (types built on it still need the layout). */
static inline const dtype_t *dtype_get(rmp_datatype_t h, bool need_commit)
{
    const dtype_t *tab = rmp_ctx.dtypes;
    if (!tab || h <= 0 || h >= DT_TABLE_CAP)
        return NULL;
    const dtype_t *t = &tab[h];
    if (!t->in_use || (need_commit && !t->committed))
        return NULL;
    return t;
}

/* The communicator for a handle, NULL if invalid. No lock needed: the table never moves, and
 * freeing a communicator while another thread uses it is erroneous (as in MPI). */
static inline comm_t *comm_get(rmp_comm_t h)
{
    if (h < 0 || h >= RMP_MAX_COMMS || !rmp_ctx.comms)
        return NULL;
    comm_t *c = &rmp_ctx.comms[h];
    return c->in_use && !c->freed ? c : NULL;
}

static inline bool comm_is_inter(rmp_comm_t h)
{
    comm_t *c = comm_get(h);
    return __builtin_expect(c && c->lworld, 0);
}

#endif
