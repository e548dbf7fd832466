/* transport.h — the one interface every transport (self, shm, verbs) implements; read this
 * first. A transport fills a tp_ops_t; an operation it cannot do is NULL and the core never
 * calls it. Transports see only bytes and world ranks; matching and protocols live above. */
#ifndef RMP_TRANSPORT_H
#define RMP_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "offload.h"

struct rmp_ctx;
typedef struct tp tp_t;

/* Opaque description of registered memory that a peer can read from (RDMA key, pid+address,
 * ...). Carried inside the rendezvous RTS. */
typedef struct tp_rkey {
    uint64_t addr;
    uint64_t key[3];
} tp_rkey_t;

/* Capability flags (tp_t.caps). */
enum {
    TP_CAP_GET = 1u << 0,       /* single-copy rendezvous get (CMA, RDMA READ) */
    TP_CAP_MCAST = 1u << 1,     /* hardware multicast */
    TP_CAP_ATOMIC = 1u << 2,    /* remote atomics */
    TP_CAP_XCHANNEL = 1u << 3,  /* cross-channel / CORE-Direct */
};

typedef struct tp_ops {
    const char *name; /* "self", "shm", "verbs": also the modex key suffix */

    /* Create the instance. RMP_ERR_NOT_SUPPORTED means "not usable here" (the reason is
     * printed under RMP_VERBOSE); other errors are fatal to rmp_init. */
    int (*open)(struct rmp_ctx *ctx, tp_t **tp_p);
    /* Address blob that peers need; published in the modex as "rmp.<name>". The blob stays
     * owned by the transport. NULL if the transport publishes nothing. */
    int (*addr_pack)(tp_t *tp, const void **blob_p, size_t *len_p);
    /* Called once after the modex fence; peers' blobs are read with core_modex_get(). */
    int (*wireup)(tp_t *tp);
    /* Called on first use of a peer (lazy connection); NULL if wireup did everything. */
    int (*connect)(tp_t *tp, int peer);

    /* Send hdr+payload (hdrlen + len <= tp->max_send) to world rank `peer` as one unit that
     * arrives whole and in order after everything sent before to that peer. Both buffers may
     * be reused when it returns. RMP_SUCCESS, or RMP_AGAIN when out of resources
     * (back-pressure: the core queues and retries after progress). */
    int (*send)(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
                size_t len);

    /* Make [buf, buf+len) readable by peers' get(); *memh is passed back to mem_dereg. */
    int (*mem_reg)(tp_t *tp, void *buf, size_t len, tp_rkey_t *rkey, void **memh_p);
    int (*mem_dereg)(tp_t *tp, void *memh);
    /* Copy len bytes at offset `off` of peer's registered memory `rkey` into dst.
     * RMP_SUCCESS: done now. RMP_INPROGRESS: core_get_done(cookie) follows from progress.
     * RMP_ERR_NOT_SUPPORTED: not possible for this peer (e.g. CMA refused): the core falls
     * back to copying through send(). */
    int (*get)(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey, size_t off,
               void *cookie);

    /* Deliver arrivals (core_deliver) and completions; returns the number of events. */
    int (*progress)(tp_t *tp);
    /* File descriptor that becomes readable when an event may be pending, or -1. */
    int (*wait_fd)(tp_t *tp);
    /* About to block on wait_fd: RMP_SUCCESS if that is safe, RMP_AGAIN if events are already
     * pending (then the core polls instead). disarm() is called after waking. arm() may be
     * called again while armed (the core re-checks after a short first sleep). */
    int (*arm)(tp_t *tp);
    void (*disarm)(tp_t *tp);

    void (*close)(tp_t *tp);
    /* The process is about to end without rmp_finalize (rmp_abort): remove what would outlive
     * it (names in /dev/shm). No locks, no frees, a bounded wait at most; close() is not
     * called after it. NULL if nothing outlives the process. */
    void (*abandon)(tp_t *tp);
} tp_ops_t;

/* Every transport's instance struct starts with this. */
struct tp {
    const tp_ops_t *ops;
    struct rmp_ctx *ctx;
    unsigned caps;      /* TP_CAP_* */
    size_t max_send;    /* largest hdrlen + len accepted by send() */
    size_t eager_limit; /* default payload size above which the core uses rendezvous */
    /* Collectives this transport runs on the adapter (offload.h); NULL if none. Read in one
     * place only: collectives/offload.c. */
    const ofl_ops_t *offload;
};

/* ---- Upcalls into the core, for transports ---- */
/* An arrival from world rank src: the bytes one send() gave, valid only during the call. */
void core_deliver(struct rmp_ctx *ctx, int src, const void *data, size_t len);
/* An asynchronous get() finished (status RMP_SUCCESS or an error). */
void core_get_done(struct rmp_ctx *ctx, void *cookie, int status);
/* A peer failed (QP error, process gone): fail everything pending with it. */
void core_peer_failed(struct rmp_ctx *ctx, int peer, int status, const char *why);
/* Peer's modex blob published by transport `name` (valid until rmp_finalize). */
int core_modex_get(struct rmp_ctx *ctx, int peer, const char *name, const void **blob_p,
                   size_t *len_p);
/* Print one line to stderr prefixed "rmp[rank]: " if RMP_VERBOSE is set. */
void core_verbose(struct rmp_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print one error line to stderr prefixed "rmp[rank]: " (always). */
void core_error(struct rmp_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

extern const tp_ops_t tp_self_ops;
extern const tp_ops_t tp_shm_ops;
extern const tp_ops_t tp_verbs_ops;

/* RMP_DEVICE=name[:port] names an RDMA device of this machine? 0, or -1 with the one-line
 * reason in why (lists the devices there are). Looks at the device list only, opens nothing:
 * rmp_init calls it when RMP_DEVICE is set, whether or not verbs will be used. */
int tp_verbs_check_device(const char *want, char *why, size_t len);

#endif
