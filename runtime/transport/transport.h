/* transport.h — the one interface every transport (self, shm, verbs) implements; read this
 * first. Self-contained: a transport includes this (and the public include/rmp.h for status
 * codes), never a header of runtime/ above it. What it knows of the job comes in a tp_env_t at
 * open; what it tells the core goes through the env's callbacks. Transports see only bytes and
 * world ranks; matching and protocols live above. */
#ifndef RMP_TRANSPORT_H
#define RMP_TRANSPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offload.h"
#include "rma.h"
#include "rmp.h"

/* Internal outcomes (positive: never returned by the public API). */
#define RMP_AGAIN 1      /* back-pressure: retry after progress */
#define RMP_INPROGRESS 2 /* started, completes later */

typedef struct tp tp_t;

/* Opaque description of registered memory that a peer can read from (RDMA key, pid+address,
 * ...). Carried inside the rendezvous RTS. */
typedef struct tp_rkey {
    uint64_t addr;
    uint64_t key[3];
} tp_rkey_t;

/* Capability flags (tp_t.caps). The one way to say "this transport can do X": the transport
 * sets the bit at open, and the core tests the bit, never whether an operation is NULL nor
 * whether it fails at run time. The operations behind a bit are filled when the bit is set
 * (tps_open checks: tp_caps_check). */
enum {
    TP_CAP_GET = 1u << 0,         /* single-copy rendezvous get (CMA, RDMA READ): mem_reg, get */
    TP_CAP_MCAST = 1u << 1,       /* hardware multicast */
    TP_CAP_ATOMIC = 1u << 2,      /* remote atomics */
    TP_CAP_XCHANNEL = 1u << 3,    /* cross-channel / CORE-Direct */
    TP_CAP_SLEEP_ALONE = 1u << 4, /* sleeps without a descriptor: arm_alone, wait_alone,
                                   * wake_alone */
    TP_CAP_ASLEEP = 1u << 5,      /* tells how many local ranks sleep: asleep */
    TP_CAP_DROP = 1u << 6,        /* lets a dynamic peer go: drop */
};

/* ---- What the core gives a transport at open ---- */
typedef enum {
    TP_LOG_ERROR,   /* always printed */
    TP_LOG_VERBOSE, /* printed under RMP_VERBOSE */
    TP_LOG_EXPLAIN, /* an error line that says why rmp_init fails: no generic line follows */
    TP_LOG_QUIET,   /* no line: rmp_init fails for a reason another rank of the job explains
                     * (a decision every rank took alike): no generic line either */
} tp_log_t;

/* Calls into the core. `core` is tp_env_t.core, passed back untouched. */
typedef struct tp_upcalls {
    /* An arrival from world rank src: the bytes one send() gave, valid only during the call. */
    void (*deliver)(void *core, int src, const void *data, size_t len);
    /* An asynchronous get() finished (status RMP_SUCCESS or an error). */
    void (*get_done)(void *core, void *cookie, int status);
    /* A peer failed (QP error, process gone): the core fails everything pending with it. */
    void (*peer_failed)(void *core, int peer, int status, const char *why);
    /* Peer's modex blob published by transport `name` (valid until the transport closes). */
    int (*modex_get)(void *core, int peer, const char *name, const void **blob_p,
                     size_t *len_p);
    /* One line on stderr, prefixed with the rank ("rmp[3]: "). */
    void (*vlog)(void *core, tp_log_t level, const char *fmt, va_list ap);
    /* The text of RMP_* knob `name` as validated at rmp_init (runtime/knobs.c refused the job
     * on a bad value already), NULL when unset. For the settings only one transport reads. */
    const char *(*knob)(void *core, const char *name);
    /* 0, or the error every operation with world rank peer gets: the core already knows it
     * failed (however it learnt it: another transport, the launcher). */
    int (*peer_error)(void *core, int peer);
    /* The world id of the dynamic peer (gained after init: transport/sock) whose endpoint
     * address is addr, made now if the core did not know it yet; -1: no room for it. */
    int (*peer_by_addr)(void *core, const char *addr);
} tp_upcalls_t;

/* The job as a transport sees it. Owned by the core, valid from open to close. */
typedef struct tp_env {
    int rank, size;            /* world */
    int local_rank, local_size; /* on my node */
    const int *local_ranks;    /* [local_size] world ranks on my node, in local-rank order */
    const int *node;           /* [size] node id of each world rank (PMIX_NODEID); -1 when the
                                * launcher does not say (then never my node) */
    const char *nspace;        /* PMIx namespace: unique per job ("singleton-<pid>" alone) */
    bool oversubscribed;       /* more ranks on this node than cores */
    /* RMP_* values the transports share (validated): */
    bool verbose;              /* RMP_VERBOSE: tp_verbose prints (skip work for a line) */
    bool use_cma;              /* RMP_CMA (shm) */
    size_t shm_ring_bytes;     /* RMP_SHM_RING_KB * 1024 (shm) */
    /* [size] route[w]: the core may pick this transport for world rank w (the core decides
     * which transport serves which peer, once, from RMP_TRANSPORT and the node map; a
     * transport opens connections for those peers only, and need not open at all when no
     * peer is routed to it). */
    const bool *route;
    int nroute;                /* how many are true */
    const char *no_route;      /* nroute == 0: why, for the transport's RMP_VERBOSE line */
    const tp_upcalls_t *up;
    void *core;
} tp_env_t;

typedef struct tp_ops {
    const char *name; /* "self", "shm", "verbs": also the modex key suffix */

    /* Every operation is filled (tp.c has the shared defaults), but arm_alone, wait_alone,
     * wake_alone, asleep and drop: those only with their TP_CAP_* bit. */

    /* Create the instance; env stays valid until close. RMP_ERR_NOT_SUPPORTED means "not usable
     * here" (the reason is printed under RMP_VERBOSE); other errors are fatal to rmp_init. */
    int (*open)(const tp_env_t *env, tp_t **tp_p);
    /* Address blob that peers need; published in the modex as "rmp.<name>". The blob stays
     * owned by the transport. *blob_p NULL (tp_no_addr) if the transport publishes nothing. */
    int (*addr_pack)(tp_t *tp, const void **blob_p, size_t *len_p);
    /* Called once after the modex fence; peers' blobs are read with tp_modex_get(). */
    int (*wireup)(tp_t *tp);
    /* Called on first use of a peer (lazy connection); RMP_SUCCESS if wireup did everything. */
    int (*connect)(tp_t *tp, int peer);

    /* Send hdr+payload (hdrlen + len <= tp->max_send) to world rank `peer` as one unit that
     * arrives whole and in order after everything sent before to that peer. Both buffers may
     * be reused when it returns. RMP_SUCCESS, or RMP_AGAIN when out of resources
     * (back-pressure: the core queues and retries after progress). */
    int (*send)(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
                size_t len);

    /* Make [buf, buf+len) readable by world rank peer's get() (the one the rkey goes to);
     * *memh is passed back to mem_dereg. Called only when caps has TP_CAP_GET. */
    int (*mem_reg)(tp_t *tp, int peer, void *buf, size_t len, tp_rkey_t *rkey, void **memh_p);
    int (*mem_dereg)(tp_t *tp, void *memh);
    /* Copy len bytes at offset `off` of peer's registered memory `rkey` into dst.
     * RMP_SUCCESS: done now. RMP_INPROGRESS: tp_get_done(cookie) follows from progress.
     * RMP_ERR_NOT_SUPPORTED: not possible for this peer (e.g. CMA refused): the core falls
     * back to copying through send(). */
    int (*get)(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey, size_t off,
               void *cookie);

    /* Deliver arrivals (tp_deliver) and completions; returns the number of events. */
    int (*progress)(tp_t *tp);
    /* File descriptor that becomes readable when an event may be pending, or -1. */
    int (*wait_fd)(tp_t *tp);
    /* About to block on wait_fd: RMP_SUCCESS if that is safe, RMP_AGAIN if events are already
     * pending (then the core polls instead). disarm() is called after waking. arm() may be
     * called again while armed (the core re-checks after a short first sleep). */
    int (*arm)(tp_t *tp);
    void (*disarm)(tp_t *tp);
    /* With TP_CAP_SLEEP_ALONE, all three (else NULL, as asleep and drop may be): sleep
     * without a file descriptor, woken by exactly the peer that makes this process runnable
     * (shm: a futex). The core uses them instead of arm() and poll() when no other transport
     * has a wait_fd: arm_alone() (lock held) answers like arm(), or RMP_ERR_NOT_SUPPORTED (not
     * possible here: the core polls wait_fd instead); then wait_alone() (lock NOT held: it
     * touches nothing the core's threads share) sleeps until a wakeup or timeout_ms, returning
     * RMP_SUCCESS, or RMP_INPROGRESS when a short first stage ended without one and the
     * transport wants arm_alone() and wait_alone() once more; then disarm() (lock held). */
    int (*arm_alone)(tp_t *tp);
    int (*wait_alone)(tp_t *tp, int timeout_ms);
    /* With the two above (all three or none): end this process's wait_alone now, called (lock
     * held) by another thread of the process that posted work no peer will announce (a
     * message to itself, a request it completed: RMP_THREAD_MULTIPLE). */
    void (*wake_alone)(tp_t *tp);
    /* With TP_CAP_ASLEEP (else cannot tell): how many other ranks of this node announce right now that
     * they are blocked (shm: their futex word). Read only by the core's busy-machine test
     * (progress.c), after a slow yield; a moment's estimate, never a synchronization. */
    int (*asleep)(tp_t *tp);

    /* Release everything. The core calls abandon() first unless the job reached the
     * rmp_finalize barrier (every peer done with this transport). */
    void (*close)(tp_t *tp);
    /* The process is about to end without rmp_finalize (rmp_abort, a failed rmp_init): remove
     * what would outlive it (names in /dev/shm). No locks, no frees, a bounded wait at most;
     * after rmp_abort close() is not called. */
    void (*abandon)(tp_t *tp);
    /* With TP_CAP_DROP (else peers are never let go): the core let world rank peer go (a dynamic
     * peer no communicator names any more): flush what is queued to it (bounded), close its
     * connections; the id may name another process later. */
    void (*drop)(tp_t *tp, int peer);
} tp_ops_t;

/* What a transport alone sees, counted for tools (rmp_stats_get, MPI_T): bumped by the
 * transport on its own paths (the core calls it with its lock held), only read by the core. */
typedef struct tp_stats {
    uint64_t rdma_reads;    /* RDMA READ work requests posted (rendezvous, one-sided, repairs) */
    uint64_t mcast_repairs; /* multicast fragments fetched again from the root by RDMA READ */
    uint64_t reg_hits;      /* registrations found in the cache (RMP_REG_CACHE=1) */
    uint64_t reg_misses;    /* registrations made (cache off, or not found there) */
} tp_stats_t;

/* Every transport's instance struct starts with this. */
struct tp {
    const tp_ops_t *ops;
    const tp_env_t *env;
    unsigned caps;      /* TP_CAP_* */
    size_t max_send;    /* largest hdrlen + len accepted by send() */
    size_t eager_limit; /* default payload size above which the core uses rendezvous */
    /* Collectives this transport runs on the adapter (offload.h); NULL if none. Read in one
     * place only: collectives/offload.c. */
    const ofl_ops_t *offload;
    /* One-sided data movers (rma.h); NULL if none. Read by the RMA layer (rma/) only. */
    const tp_rma_ops_t *rma;
    tp_stats_t stats;   /* zeroed at open as the rest of the instance */
};

/* ---- For transports: the env's callbacks, and logging (tp.c) ---- */
static inline void tp_deliver(tp_t *tp, int src, const void *data, size_t len)
{
    tp->env->up->deliver(tp->env->core, src, data, len);
}
static inline void tp_get_done(tp_t *tp, void *cookie, int status)
{
    tp->env->up->get_done(tp->env->core, cookie, status);
}
static inline void tp_peer_failed(tp_t *tp, int peer, int status, const char *why)
{
    tp->env->up->peer_failed(tp->env->core, peer, status, why);
}
static inline int tp_modex_get(tp_t *tp, int peer, const void **blob_p, size_t *len_p)
{
    return tp->env->up->modex_get(tp->env->core, peer, tp->ops->name, blob_p, len_p);
}
static inline const char *tp_knob(const tp_t *tp, const char *name)
{
    return tp->env->up->knob(tp->env->core, name);
}
static inline int tp_peer_error(const tp_t *tp, int peer)
{
    return tp->env->up->peer_error(tp->env->core, peer);
}
/* One error line (always), one line under RMP_VERBOSE, one line that explains a failed
 * rmp_init (the core then prints no generic "rmp_init failed" after it). */
void tp_error(const tp_t *tp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tp_verbose(const tp_t *tp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tp_explain(const tp_t *tp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rmp_init fails for a reason a peer explains (tp_explain): this rank prints nothing. */
void tp_quiet_failure(const tp_t *tp);

/* Shared defaults for the operations a transport has nothing to do in (tp.c). */
int tp_no_addr(tp_t *tp, const void **blob_p, size_t *len_p); /* publishes nothing */
int tp_no_wireup(tp_t *tp);                                   /* RMP_SUCCESS */
int tp_no_connect(tp_t *tp, int peer);                        /* RMP_SUCCESS */
int tp_no_wait_fd(tp_t *tp);                                  /* -1: nothing to poll */
void tp_no_disarm(tp_t *tp);
void tp_no_abandon(tp_t *tp);
/* RMP_SUCCESS if every operation tp's caps promise is filled, else RMP_ERR_INTERNAL (said). */
int tp_caps_check(tp_t *tp);                                 /* nothing outlives it */

extern const tp_ops_t tp_self_ops;
extern const tp_ops_t tp_shm_ops;
extern const tp_ops_t tp_verbs_ops;
extern const tp_ops_t tp_sock_ops; /* dynamic peers only: opened by the core on first need */

/* The sock transport's meeting place, which ports (comm/port.c) share: the user's
 * private directory (mode 0700; why says what is wrong with it), a listening socket there
 * named <kind>-<pid>-..., a connection to one (-1 and why), an accepted one within timeout_ms
 * (-1: error, -2: nobody came); both ends check that the other is a process of this user. */
int tp_sock_dir(char *buf, size_t len, char *why, size_t wlen);
/* How often a file made in the private directory is retried when another process's tidy-up
 * removed the directory, empty, under it (ENOENT). */
#define TP_SOCK_DIR_TRIES 64
int tp_sock_listen(const char *kind, char *path, size_t len, int *fd_p, char *why, size_t wlen);
int tp_sock_dial(const char *path, char *why, size_t wlen);
int tp_sock_accept(int lfd, int timeout_ms, char *why, size_t wlen);
int tp_sock_same_user(int fd);
/* Remove the socket at path, and the private directory with it when it is the last. */
void tp_sock_tidy(const char *path);

/* RMP_DEVICE=name[:port] names an RDMA device of this machine? 0, or -1 with the one-line
 * reason in why (lists the devices there are). Looks at the device list only, opens nothing:
 * rmp_init calls it when RMP_DEVICE is set, whether or not verbs will be used. */
int tp_verbs_check_device(const char *want, char *why, size_t len);

#endif
