/* verbs.h — internal types of the RDMA verbs transport, shared by its files: verbs.c (ops
 * table, life cycle, progress and blocking), verbs_dev.c (device, port, GID), verbs_wire.c (QPs
 * wired by hand through the modex), verbs_cm.c (QPs wired by librdmacm), verbs_eager.c (bounce
 * buffers, SRQ, send/receive completions), verbs_rdma.c (registration, cache, RDMA READ, a
 * failed peer's gets), verbs_sq.c (send-queue slots), verbs_keepalive.c (probes of silent
 * peers), verbs_peer.c (lookups by QP number, the fds waited on, peers' control regions), verbs_rma.c (one-sided: RDMA WRITE, READ and
 * atomics on exposed memory), verbs_offload.c and the offload backends
 * (verbs_mcast*.c, verbs_atomic*.c over verbs_atomic.h, verbs_probe.c, verbs_caps.c: APM, DC
 * and UMR probes, also used by rmp-info); verbs_fault.c (RMP_VERBS_FAULT's injected
 * failures, the fix each completion error names); verbs_fast.c (the RDMA-WRITE eager fast
 * path: rings of slots at the receiver for its busiest senders).
 *
 * Environment: RMP_DEVICE=name[:port], RMP_GID_INDEX=n, RMP_CONNECT=lazy|eager,
 * RMP_CM=ibv|rdmacm, RMP_REG_CACHE=0|1, RMP_VERBS_SRQ=n (initial receive buffers),
 * RMP_VERBS_TIMEOUT=n (RC ack timeout), RMP_VERBS_KEEPALIVE=s (probe silent peers),
 * RMP_VERBS_FAULT=kind[:N][@rank] (tests: one injected failure),
 * RMP_VERBS_FASTPATH=auto|on|off, RMP_VERBS_FASTPATH_PEERS=n, RMP_VERBS_FASTPATH_AFTER=n. */
#ifndef RMP_VERBS_H
#define RMP_VERBS_H

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <stdbool.h>
#include <stdint.h>

#include "transport/transport.h"

/* Sizes. A bounce/receive buffer holds the largest header (an RTS, 72 bytes) plus an 8 KiB
 * eager payload, rounded to a cache line. */
#define VERBS_EAGER_DEFAULT 8192u
#define VERBS_BUF_SIZE (VERBS_EAGER_DEFAULT + 128u)
#define VERBS_TX_BUFS 256u          /* shared bounce buffers */
#define VERBS_SRQ_INIT 256u         /* receive buffers posted at start (RMP_VERBS_SRQ) */
#define VERBS_SRQ_CHUNK 256u        /* receive buffers added per growth step */
#define VERBS_SRQ_MAX 4096u         /* growth stops here; RNR takes over beyond */
#define VERBS_SQ_DEPTH 128u         /* send queue slots per QP */
#define VERBS_RD_ATOMIC 16u         /* RDMA READs in flight per QP (device permitting) */
#define VERBS_READ_SEG (1u << 20)   /* bytes per RDMA READ work request */
#define VERBS_INLINE_WANT 256u      /* inline data we ask the QP for */

/* IB encodings. Transport timeout 4.096 us * 2^14 = 67 ms per try (what perftest uses) and 6
 * retries: a vanished peer is reported about half a second after its last ACK, well within
 * mrun's grace period; 7 missed ACKs in a row never happen on a live soft-RoCE even under TCG.
 * Not 7 retries: rdma_rxe (like rnr_retry everywhere) treats 7 as "retry forever", and a dead
 * peer would then hang its partners. RNR timer 14 = 1.28 ms: see verbs_eager.c. */
#define VERBS_TIMEOUT 14 /* the default of RMP_VERBS_TIMEOUT */
#define VERBS_RETRY_CNT 6
#define VERBS_RNR_RETRY 7 /* 7 = retry forever */
#define VERBS_MIN_RNR_TIMER 14

/* Tag in the low bits of wr_id: what a completion belongs to. */
enum { WR_RECV = 0, WR_SEND = 1, WR_READ = 2, WR_CB = 3, WR_KIND_MASK = 3 };

/* wr_id of a send: kind | bounce buffer index + 1 (0: none) | peer (verbs_on_send). */
static inline uint64_t verbs_send_wrid(int peer, uint32_t buf1)
{
    return (uint64_t)WR_SEND | ((uint64_t)buf1 << 2) | ((uint64_t)(uint32_t)peer << 34);
}

/* WR_CB: wr_id is the address of a verbs_cb_t (8-byte aligned) | WR_CB, and its completion,
 * success or error, goes to cb->done. For work requests of the offload backends (multicast,
 * atomics) on any QP of the transport. One posted on a peer's RC QP with verbs_post must be
 * signaled (force_sig) and its done() retires the slots (verbs_sq_retire). */
struct verbs_tp;
typedef struct verbs_cb verbs_cb_t;
struct verbs_cb {
    void (*done)(struct verbs_tp *v, verbs_cb_t *cb, const struct ibv_wc *wc);
};
static inline uint64_t verbs_cb_wrid(verbs_cb_t *cb)
{
    return (uint64_t)(uintptr_t)cb | WR_CB;
}

enum verbs_wiring { WIRE_IBV = 0, WIRE_RDMACM = 1 };

/* Per-peer connection state. */
typedef enum {
    VC_NONE = 0,    /* no QP toward this peer (it is reached by another transport) */
    VC_INIT,        /* ibv: QP created, not receive-ready yet */
    VC_RTR,         /* ibv: receives from the peer; cannot send yet */
    VC_CONNECTING,  /* rdmacm: resolve/connect/accept under way */
    VC_WAIT_PEER,   /* rdmacm: lost a connect race, the peer's request is on its way */
    VC_READY,       /* sends allowed */
    VC_FAILED
} verbs_cstate_t;

typedef struct verbs_get verbs_get_t;

/* The fast path with one peer (verbs_fast.c): as its sender (tx: the ring it gave me) and as
 * its receiver (rx: the ring I gave it). Counters are cumulative message counts. */
typedef struct verbs_fp_conn {
    uint64_t tx_addr;           /* the peer's ring, 0: none offered (yet) */
    uint32_t tx_rkey, tx_slots;
    uint64_t tx_sent;           /* messages written into it */
    uint32_t srq_sent;          /* messages sent to the peer through its SRQ */
    char *rx_ring;              /* my ring for the peer, NULL: none */
    struct ibv_mr *rx_mr;
    uint64_t rx_next;           /* messages taken from it */
    uint64_t rx_returned;       /* rx_next as last written into the peer's credit word */
    uint32_t srq_recv;          /* arrivals from the peer through my SRQ */
    bool rx_refused;            /* a ring was refused (registration failed): SRQ for good */
} verbs_fp_conn_t;

typedef struct verbs_conn {
    int peer;
    verbs_cstate_t state;
    struct ibv_qp *qp;          /* the QP sends go through */
    struct rdma_cm_id *id;      /* rdmacm: the connection in use (owns qp) */
    struct rdma_cm_id *aux;     /* rdmacm: my own attempt that lost a race, or my loopback's
                                 * passive side */
    uint32_t remote_qpn;        /* ibv wiring */
    uint32_t sq_free;           /* send queue slots */
    uint32_t unsig;             /* unsignaled WRs posted since the last signaled one */
    uint16_t *sig_ring;         /* slots each outstanding signaled WR retires, in order */
    uint32_t sig_head, sig_tail;
    uint32_t reads_out;         /* RDMA READ WRs in flight */
    verbs_get_t *gets_head, *gets_tail; /* gets with segments still to post or complete */
    bool active;                /* rdmacm: id is my own attempt (else I accepted it) */
    bool heard;                 /* an arrival or an acknowledged send since the last keepalive
                                 * look (verbs_keepalive.c) */
    verbs_fp_conn_t fp;
} verbs_conn_t;

/* One rendezvous get: RDMA READ segments into a locally registered destination. */
struct verbs_get {
    verbs_get_t *next;
    int peer;
    void *cookie;
    char *dst;
    uint64_t raddr;
    uint32_t rkey;
    size_t len, posted;         /* bytes; posted = bytes covered by WRs posted so far */
    uint32_t segs_total, segs_done, segs_out;
    struct verbs_mr *mr;        /* registration of dst */
    bool orphan;                /* the peer failed: the core already failed the request */
};

/* A registration handed out by mem_reg or used for a get destination. */
typedef struct verbs_mr {
    struct verbs_mr *next, *prev; /* all live registrations (cache LRU order when cached) */
    struct ibv_mr *mr;
    uintptr_t start, end;       /* registered range */
    int refs;
    bool cached;
} verbs_mr_t;

/* Receive buffers come in chunks so the SRQ can grow. */
typedef struct verbs_chunk {
    char *mem;
    struct ibv_mr *mr;
} verbs_chunk_t;

/* The modex blob. ibv wiring: one QPN per world rank (0: no QP for that pair). rdmacm: the
 * address the rank listens on. */
#define VERBS_BLOB_MAGIC 0x524d5631u /* "RMV1" */
typedef struct verbs_blob {
    uint32_t magic;
    uint8_t wiring, link_layer, mtu, ofl_caps; /* ofl_caps: VERBS_OFL_* */
    uint16_t lid;
    uint16_t cm_port;           /* rdmacm: listening port, network order */
    uint32_t psn;
    uint32_t nqpn;
    uint8_t gid[16];
    uint8_t cm_addr[16];        /* rdmacm: IPv4-mapped or IPv6 address */
    uint64_t ctrl_addr;         /* the offload control region (verbs_offload.c), 0: none */
    uint32_t ctrl_rkey, ctrl_len;
    uint32_t mcast_qpn, pad2;   /* the UD QP in the job's multicast group (verbs_mcast.c), 0: none */
    uint64_t fp_box_addr;       /* the fast path's mailboxes (verbs_fast.c), 0: none */
    uint32_t fp_box_rkey, pad3;
    uint32_t qpn[];
} verbs_blob_t;

typedef struct verbs_tp {
    tp_t base;
    /* device */
    struct ibv_context *dev;
    char devname[64];
    uint8_t port;
    int gid_index;
    union ibv_gid gid;
    struct ibv_device_attr dattr;
    struct ibv_port_attr pattr;
    bool roce;
    uint32_t max_msg;
    char down_port[96];         /* the first port seen that is not ACTIVE (for the error) */
    /* resources */
    struct ibv_pd *pd;
    struct ibv_comp_channel *chan;
    struct ibv_cq *cq;
    int cq_size;
    struct ibv_srq *srq;
    int epfd;
    unsigned cq_events_unacked;
    /* settings */
    enum verbs_wiring wiring;
    bool eager_connect;
    uint32_t sq_depth, rd_atomic, max_inline;
    uint8_t ack_timeout; /* RC ack timeout (IB encoding): RMP_VERBS_TIMEOUT, VERBS_TIMEOUT */
    uint64_t ka_ms, ka_next;    /* keepalive: RMP_VERBS_KEEPALIVE in ms (0: off), next look */
    uint64_t st_probes;         /* keepalive probes posted */
    uint8_t fault;              /* RMP_VERBS_FAULT (verbs_fault.c): VF_*, VF_NONE off */
    uint32_t fault_n, fault_count;
    uint32_t psn;
    /* peers */
    verbs_conn_t *conns;        /* [size] */
    verbs_blob_t *blob;
    size_t blob_len;
    /* eager: send bounce buffers */
    char *tx_mem;
    struct ibv_mr *tx_mr;
    uint32_t *tx_free;          /* stack of free buffer indices */
    uint32_t tx_nfree;
    /* eager: receive buffers (SRQ) */
    verbs_chunk_t *rx_chunks;
    uint32_t rx_nchunks, rx_bufs, rx_max, srq_limit;
    uint32_t *rx_repost;        /* consumed buffers to post back, batched */
    uint32_t rx_nrepost;
    /* CQEs taken by arm() that progress has not handled yet */
    struct ibv_wc stash[16];
    int nstash;
    bool in_progress;
    unsigned tick;
    /* counters for the RMP_VERBOSE summary at close: evidence of what the path really did */
    uint64_t st_sends, st_inline, st_recvs, st_gets, st_reads, st_srq_events;
    size_t st_get_max;          /* largest get, bytes */
    uint32_t st_get_max_reads;  /* RDMA READ work requests it took */
    /* registrations */
    verbs_mr_t *mrs;            /* head: most recently used */
    bool reg_cache;
    uintptr_t heap_start;       /* cacheable range starts here (see verbs_rdma.c) */
    size_t cache_bytes;
    int cache_entries;
    bool memlock_reported;
    /* offload (verbs_offload.c): the control region peers read, write and run atomics on */
    bool ofl_qps;               /* a QP to every peer, same node too: offload may need them */
    bool rma_qps;               /* the same for one-sided operations (verbs_rma.c) */
    void *rma;                  /* verbs_rma.c's state */
    char *ctrl;
    struct ibv_mr *ctrl_mr;
    void *mcast;                /* verbs_mcast.c's state */
    void *atomic;               /* verbs_atomic.c's state */
    /* the fast path (verbs_fast.c) */
    struct verbs_fp_box *fp_box; /* [size]: what each peer writes me (ring offer, credits) */
    struct ibv_mr *fp_box_mr;
    int *fp_rx;                 /* peers that have a ring of mine, fp_nrx of them */
    int fp_nrx, fp_max_peers;
    uint32_t fp_after;          /* arrivals from a peer before it gets a ring */
    bool fp_asleep;             /* the senders may think I sleep (arm) */
    bool fp_armed;              /* between verbs_fast_arm and verbs_fast_disarm */
    uint64_t st_fp_sends, st_fp_recvs, st_fp_full;
    /* rdmacm */
    struct rdma_event_channel *cm_chan;
    struct rdma_cm_id *listen_id;
    struct ibv_context **cm_devs;
    int cm_pending;             /* connections under way: poll events on every progress */
} verbs_tp_t;

/* A knob's integer value, or dflt when unset or outside min..max (knobs.c has refused a bad
 * value at init already). */
long verbs_env_count(verbs_tp_t *v, const char *name, long dflt, long min, long max);

/* verbs_fault.c: RMP_VERBS_FAULT's injections (each a no-op unless it is the one asked for),
 * and the fix a failed work request's status points to. */
enum { VF_NONE = 0, VF_QP_ERR, VF_REVOKE, VF_CQ, VF_CM_UNROUTABLE, VF_FP_REG };
struct verbs_mr;
void verbs_fault_open(verbs_tp_t *v);
void verbs_fault_after_send(verbs_tp_t *v, verbs_conn_t *c);
void verbs_fault_revoke(verbs_tp_t *v, struct verbs_mr *m);
int verbs_fault_cq_size(verbs_tp_t *v, int want);
struct sockaddr_storage;
void verbs_fault_cm_dst(verbs_tp_t *v, int peer, struct sockaddr_storage *dst);
const char *verbs_wc_fix(enum ibv_wc_status s); /* "; fix: ..." or "" */
int verbs_fault_ring_prot(verbs_tp_t *v); /* fp-reg: PROT_NONE, so that registering fails */

/* verbs_keepalive.c: a zero-length RDMA WRITE to each connected peer not heard from for
 * RMP_VERBS_KEEPALIVE seconds, so that a lost link is found while nobody sends. */
void verbs_keepalive_open(verbs_tp_t *v);
void verbs_keepalive(verbs_tp_t *v);

/* verbs_dev.c */
int verbs_dev_open(verbs_tp_t *v);
const char *verbs_mtu_str(enum ibv_mtu m);
void verbs_gid_str(const union ibv_gid *g, char *buf, size_t len);
/* Message for a failed registration: names the memlock limit when that is the likely cause. */
void verbs_reg_error(verbs_tp_t *v, const char *what, size_t len, int err);
/* " (... `ulimit -l` ...)" when err is ENOMEM under a finite memlock limit, else "". */
const char *verbs_memlock_hint(int err);

/* verbs_wire.c */
int verbs_wire_open(verbs_tp_t *v);     /* QPs (one per peer) and the blob */
int verbs_wire_wireup(verbs_tp_t *v);   /* peers' blobs; RTR (and RTS when eager) */
int verbs_wire_connect(verbs_tp_t *v, int peer); /* RTS */
int verbs_qp_caps(verbs_tp_t *v, struct ibv_qp_init_attr *a);
void verbs_conn_init_tx(verbs_tp_t *v, verbs_conn_t *c); /* after its QP exists */
/* Whether the core may pick verbs for peer (then it gets a QP / connection). */
bool verbs_needs_qp(verbs_tp_t *v, int peer);
/* The peer's modex blob, checked against mine (NULL: reported). */
const verbs_blob_t *verbs_peer_blob(verbs_tp_t *v, int peer);

/* verbs_cm.c */
int verbs_cm_open(verbs_tp_t *v);       /* event channel, listening id, the blob */
int verbs_cm_wireup(verbs_tp_t *v);     /* eager: connect everyone now */
int verbs_cm_connect(verbs_tp_t *v, int peer);
int verbs_cm_progress(verbs_tp_t *v);   /* handle pending events (non-blocking) */
void verbs_cm_close(verbs_tp_t *v);
/* The device context librdmacm uses for name (PD, CQ, SRQ must live on it). */
struct ibv_context *verbs_cm_context(verbs_tp_t *v, const char *name);

/* verbs_eager.c */
int verbs_eager_open(verbs_tp_t *v);    /* bounce buffers, SRQ and its buffers */
void verbs_eager_close(verbs_tp_t *v);
int verbs_send(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
               size_t len);
void verbs_on_recv(verbs_tp_t *v, const struct ibv_wc *wc);
/* A send completed: its buffer back; the connection whose send-queue slots it freed (queued
 * RDMA READ segments may go now), or NULL. */
verbs_conn_t *verbs_on_send(verbs_tp_t *v, const struct ibv_wc *wc);
void verbs_rx_flush(verbs_tp_t *v);     /* post consumed buffers back to the SRQ */
void verbs_srq_limit_event(verbs_tp_t *v);

/* verbs_fast.c: the RDMA-WRITE eager fast path. */
#define VERBS_FP_SLOT 4352u  /* bytes per slot: 24 of framing, header + payload up to 4328 */
#define VERBS_FP_SLOTS 32u   /* slots per ring: 136 KiB per (receiver, sender) pair */
#define VERBS_FP_PEERS 8     /* rings a rank gives at most (RMP_VERBS_FASTPATH_PEERS) */
#define VERBS_FP_AFTER 16u   /* auto: arrivals from a peer before it gets a ring */
int verbs_fast_open(verbs_tp_t *v);     /* the knob; mailboxes (none when off) */
void verbs_fast_publish(verbs_tp_t *v); /* mailboxes into the blob */
void verbs_fast_close(verbs_tp_t *v);
/* Send through the peer's ring: RMP_SUCCESS, RMP_AGAIN (out of queue slots), an error, or
 * RMP_ERR_NOT_SUPPORTED: not this message (no ring, too large, ring full, peer asleep). */
int verbs_fast_send(verbs_tp_t *v, verbs_conn_t *c, const void *hdr, size_t hdrlen,
                    const void *payload, size_t len);
/* The immediate data of an SRQ send to c: my rank and how many ring messages preceded it. */
uint32_t verbs_fast_imm(verbs_tp_t *v, verbs_conn_t *c);
/* An SRQ arrival with immediate data imm: its sender, -1 if invalid. */
int verbs_fast_imm_src(verbs_tp_t *v, uint32_t imm);
/* Before an SRQ arrival from c is delivered: the ring messages sent before it first. */
int verbs_fast_before_srq(verbs_tp_t *v, verbs_conn_t *c, uint32_t imm);
void verbs_fast_after_srq(verbs_tp_t *v, verbs_conn_t *c); /* counted; a ring offered? */
int verbs_fast_progress(verbs_tp_t *v);  /* ring messages delivered */
int verbs_fast_arm(verbs_tp_t *v);       /* RMP_AGAIN: a message waits, or cannot tell senders */
void verbs_fast_disarm(verbs_tp_t *v);

/* verbs_sq.c */
/* Retire the SQ slots of a completed signaled WR on c. */
void verbs_sq_retire(verbs_tp_t *v, verbs_conn_t *c);
/* Post a WR on c's QP with slot accounting; signaled decides itself unless force_sig. */
int verbs_post(verbs_tp_t *v, verbs_conn_t *c, struct ibv_send_wr *wr, bool force_sig);

/* verbs_rdma.c */
int verbs_rdma_open(verbs_tp_t *v);
void verbs_rdma_close(verbs_tp_t *v);
int verbs_mem_reg(tp_t *tp, int peer, void *buf, size_t len, tp_rkey_t *rkey, void **memh_p);
int verbs_mem_dereg(tp_t *tp, void *memh);
int verbs_get(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey, size_t off,
              void *cookie);
void verbs_on_read(verbs_tp_t *v, const struct ibv_wc *wc);
void verbs_reads_push(verbs_tp_t *v, verbs_conn_t *c); /* post queued segments */
void verbs_gets_fail(verbs_tp_t *v, verbs_conn_t *c);  /* orphan a failed peer's gets */
/* A registration covering [buf, buf+len) with at least `access` (through the cache when on),
 * or NULL (reported, naming `what`); verbs_reg_put gives it back. */
verbs_mr_t *verbs_reg_get(verbs_tp_t *v, void *buf, size_t len, int access, const char *what);
void verbs_reg_put(verbs_tp_t *v, verbs_mr_t *m);

/* verbs_rma.c: the one-sided ops table (transport/rma.h) */
/* Before the wiring opens: decides rma_qps, sets up the atomics' result slots; sets
 * tp->rma once the rest of open succeeded (verbs_rma_enable). */
int verbs_rma_open(verbs_tp_t *v);
void verbs_rma_enable(verbs_tp_t *v);
void verbs_rma_close(verbs_tp_t *v);    /* before the PD goes */

/* verbs_offload.c: the offload table (offload.h) dispatching to two backends, and the control
 * region: VERBS_CTRL_BYTES of registered memory per process (remote read, write and atomics),
 * the multicast backend's part first, then the atomics backend's. */
#define VERBS_CTRL_MCAST_BYTES 32768u /* 8 slots of a page: see verbs_mcast.h */
#define VERBS_CTRL_ATOMIC_BYTES 32768u /* 64 slots of 512 bytes: see verbs_atomic.c */
#define VERBS_CTRL_BYTES (VERBS_CTRL_MCAST_BYTES + VERBS_CTRL_ATOMIC_BYTES)
typedef struct verbs_ofl_backend {
    const char *name;
    /* As ofl_ops_t.start; comm->state points at this backend's own per-communicator slot. */
    int (*start)(verbs_tp_t *v, const ofl_comm_t *comm, const ofl_args_t *a, ofl_req_t **req,
                 char *why, size_t len);
    int (*progress)(ofl_req_t *req);
    void (*finish)(ofl_req_t *req);
    void (*comm_free)(verbs_tp_t *v, const ofl_comm_t *comm);
    int (*open)(verbs_tp_t *v);   /* before the modex (v->ctrl exists) */
    /* After open: may a call of this backend run in this job (its knob, the device and the job
     * size allow it)? Only then does verbs build a QP to every peer (ofl_qps) for it. */
    bool (*may_run)(const verbs_tp_t *v);
    int (*wireup)(verbs_tp_t *v); /* after the modex: peers' blobs readable */
    int (*progress_tp)(verbs_tp_t *v); /* from the transport's progress: events handled */
    void (*close)(verbs_tp_t *v);
} verbs_ofl_backend_t;
/* Every backend's request starts with this. */
struct ofl_req {
    const verbs_ofl_backend_t *be;
};
extern const verbs_ofl_backend_t verbs_mcast_backend, verbs_atomic_backend;
/* ---- verbs_mcast.c (UD multicast bcast): what the rest of verbs asks of it ---- */
/* The UD QP number in the job's group, 0 without one: published as verbs_blob_t.mcast_qpn. */
uint32_t verbs_mcast_qpn(const verbs_tp_t *v);
extern const ofl_ops_t verbs_offload_ops;
int verbs_offload_open(verbs_tp_t *v);    /* before the wiring opens (it reads ofl_qps) */
void verbs_offload_publish(verbs_tp_t *v); /* after: the region into the blob */
int verbs_offload_wireup(verbs_tp_t *v);
int verbs_offload_progress(verbs_tp_t *v);
void verbs_offload_close(verbs_tp_t *v);
/* verbs_peer.c: peer's control region (address, rkey); RMP_ERR_NOT_SUPPORTED if it
 * published none. */
int verbs_ctrl_remote(verbs_tp_t *v, int peer, uint64_t *addr, uint32_t *rkey);

/* ---- verbs_atomic.c, verbs_probe.c: the RDMA-atomics backend and the capability probes ---- */
typedef struct verbs_probe {
    bool atomic_hca;            /* fetch-add / compare-swap, atomic among the HCA's atomics */
    bool mlx5;                  /* the device is mlx5 (cross-channel, masked atomics: DevX only) */
} verbs_probe_t;
/* Probe the device and print one RMP_VERBOSE line per capability. */
void verbs_probe_offload(verbs_tp_t *v, verbs_probe_t *p);
/* One RMP_VERBOSE line each for APM, DC and UMR (verbs_caps.c): what the device offers. */
void verbs_probe_paths(verbs_tp_t *v);
#define VERBS_OFL_ATOMIC 1u     /* verbs_blob_t.ofl_caps: this rank runs the atomics backend */
/* What this rank publishes in ofl_caps (after verbs_atomic_backend.open). */
uint8_t verbs_atomic_caps(verbs_tp_t *v);

/* verbs_rdma.c (where the gets it orphans live) */
/* A QP error or a lost connection: report once, fail everything pending with the peer. */
void verbs_peer_failed(verbs_tp_t *v, int peer, const char *why);
/* verbs_peer.c: lookups that call nothing of the other files back */
/* The peer whose QP number is qpn (error completions carry no immediate data), or -1. */
int verbs_peer_of_qpn(verbs_tp_t *v, uint32_t qpn);
/* Whether qpn is one of the QPs wired to c's peer: the immediate data of a receive names its
 * sender, and only the QP it arrived on proves it (a process could write any rank there). */
bool verbs_conn_has_qpn(const verbs_conn_t *c, uint32_t qpn);
/* Make fd non-blocking and part of what wait_fd() reports. */
int verbs_watch_fd(verbs_tp_t *v, int fd, const char *what);

#endif
