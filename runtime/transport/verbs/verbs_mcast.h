/* verbs_mcast.h — internal to the UD multicast broadcast backend: verbs_mcast_group.c (the
 * job's group, the UD QP, sleeping), verbs_mcast.c (datagram intake, the choice per call),
 * verbs_mcast_call.c (one call: its life and the root's side) and verbs_mcast_recv.c (the
 * receivers' side: placement, repair by RDMA READ, progress reports). */
#ifndef RMP_VERBS_MCAST_H
#define RMP_VERBS_MCAST_H

#include <netinet/in.h>

#include "transport/verbs/verbs.h"

#define MC_GRH 40u              /* a UD receive buffer starts with the GRH */
#define MC_RQ 512u              /* UD receive buffers */
#define MC_SQ 128u              /* UD send queue slots */
#define MC_SEND_BATCH 32u       /* sends per post */
#define MC_WINDOW 256u          /* fragments the root may send beyond the slowest receiver */
#define MC_REPORT (MC_WINDOW / 4u) /* a receiver reports its progress every this many */
#define MC_STASH_MAX 128u       /* early datagrams kept for a call not started here yet */
#define MC_NSLOT 8u             /* calls in flight per root (slot = context id % MC_NSLOT) */
#define MC_SLOT_BYTES 4096u
#define MC_SLOT_HEAD 64u
#define MC_SLOT_RANKS ((MC_SLOT_BYTES - MC_SLOT_HEAD) / 4u) /* largest communicator */
#define MC_REPAIR_MAX (256u << 10) /* bytes per repair READ */
#define MC_STALL_US 10000.0     /* no datagram for this long: ask the root where it is */
#define MC_STALL_MAX_US 64000.0 /* ... backing off to this */
#define MC_PROBE_US 1000000.0   /* root: a receiver silent this long is probed */
#define MC_JOIN_MS 5000         /* bound on the join at start-up */
/* RMP_MCAST=auto: never on one node (the shm schedules win there); across MC_AUTO_NODES or
 * more it would be where multicast wins, but on the one device measured (soft-RoCE under TCG,
 * bench/README.md) it won at no size, so auto keeps the software schedule: RMP_MCAST=on. */
#define MC_AUTO_NODES 2

#define MC_NUDGE UINT32_MAX    /* frag of a datagram that only wakes its receiver */

/* Every datagram: which call, which fragment, and where the root's copy is (for repair). */
typedef struct mc_hdr {
    uint32_t ctx, seq, frag, root; /* root: world rank */
    uint64_t total, raddr;
    uint32_t rkey, job;            /* job: hash of the namespace */
} mc_hdr_t;
#define MC_HDR_BYTES ((uint32_t)sizeof(mc_hdr_t))

/* A root's call in its control region, one slot per call in flight. Receivers RDMA READ the
 * head (a receiver that got no datagram learns everything there) and RDMA WRITE how many
 * fragments they hold in order into prog[their comm rank]. */
typedef struct mc_slot {
    volatile uint64_t tag;     /* ctx << 32 | seq of the call, 0: free; written last */
    uint64_t addr, total;      /* the root's registered buffer */
    uint32_t rkey, fbytes;
    volatile uint32_t sent;    /* fragments sent so far */
    int32_t status;            /* 0, or the root's error: receivers fail with it */
    volatile uint64_t tag2;    /* = tag once the fields between are valid */
    uint8_t pad[MC_SLOT_HEAD - 48];
    volatile uint32_t prog[MC_SLOT_RANKS];
} mc_slot_t;
_Static_assert(sizeof(mc_slot_t) == MC_SLOT_BYTES, "a slot is one page");
_Static_assert(MC_NSLOT * MC_SLOT_BYTES == VERBS_CTRL_MCAST_BYTES, "slots fill the region");

typedef struct mc_call mc_call_t;

/* Per process: the group, the UD QP and its buffers, the calls in flight. */
typedef struct mc_state {
    bool usable;
    /* the group (librdmacm) */
    struct rdma_event_channel *ech;
    struct rdma_cm_id *id;
    struct sockaddr_in maddr;
    bool joined, attached;
    union ibv_gid mgid;
    uint16_t mlid;
    uint32_t qkey, remote_qpn;
    struct ibv_ah *ah;
    /* the UD QP on the transport's PD, with its own CQ (polled by progress_tp) and completion
     * channel, and a timer for the stall checks: both in the transport's epoll set, so that a
     * rank in a call can sleep */
    struct ibv_comp_channel *chan;
    struct ibv_cq *cq;
    bool armed;
    int tfd;
    double tfd_at;
    struct ibv_ah **peer_ah;   /* [world size]: to peers' UD QPs, for nudges */
    struct ibv_qp *qp;
    uint32_t mtu;              /* bytes */
    char *rx;                  /* MC_RQ buffers of rx_bytes */
    struct ibv_mr *rx_mr;
    uint32_t rx_bytes;
    uint32_t stash[MC_STASH_MAX], stash_len[MC_STASH_MAX], stash_head, stash_n;
    uint32_t repost[MC_RQ], nrepost;
    mc_hdr_t *tx_hdr;          /* MC_SQ headers, one per send slot */
    struct ibv_mr *tx_mr;
    uint32_t tx_next, sq_out;
    /* calls */
    mc_call_t *calls;          /* in flight here, root or receiver */
    mc_call_t *slot_owner[MC_NSLOT];
    /* settings */
    uint32_t job;
    double drop;               /* RMP_MCAST_DROP */
    uint64_t rng;
    /* counters for the RMP_VERBOSE line at close */
    uint64_t st_calls, st_sent, st_recv, st_dropped, st_foreign, st_reads, st_read_bytes,
        st_nudges;
} mc_state_t;

/* What a communicator's members published, read once per communicator. */
typedef struct mc_comm {
    int unusable;              /* first comm rank without a group, or -1 */
    int nodes;                 /* nodes the communicator spans */
    uint32_t fbytes;           /* payload per datagram: smallest MTU of the members - header */
} mc_comm_t;

/* ---- one call (verbs_mcast_call.c, verbs_mcast_recv.c) ---- */
/* What the one READ in flight of a call is for. */
enum { RD_NONE = 0, RD_DESC, RD_DATA, RD_PROBE };

struct mc_call {
    ofl_req_t base;            /* first: what verbs_offload.c dispatches on */
    mc_call_t *next;
    verbs_tp_t *v;
    uint32_t ctx, seq, slot;
    uint64_t tag;              /* ctx << 32 | seq */
    int rank, size, root, root_world;
    int *world;                /* comm rank -> world rank (a copy) */
    char *buf;
    size_t count;              /* my bytes */
    uint64_t total;            /* the root's bytes */
    uint32_t fbytes, nfrags;
    int status;                /* first error: reported once every work request is back */
    int rc_out;                /* RC work requests in flight: their callbacks point here */
    verbs_cb_t rcb, wcb;       /* READ (one at a time), WRITE completions */
    int rd_kind, rd_peer;
    void (*rd_then)(struct mc_call *k); /* what a successful READ continues with */
    uint32_t rd_a, rd_b;       /* RD_DATA: fragments [a, b) */
    char *bounce;              /* registered landing area of READs */
    struct ibv_mr *bmr;
    size_t bounce_len;
    /* root */
    struct ibv_mr *mr;
    bool holds_slot;
    uint32_t next_frag, sends_out, last_min;
    double min_since;
    int probe_next;
    /* receiver */
    bool known;
    uint64_t raddr;
    uint32_t rkey;
    uint8_t *have;             /* bitmap of fragments in place */
    uint32_t prefix, hi, need, reported, wval;
    uint32_t sent_seen;        /* fragments the root had sent, and that had time to arrive */
    uint32_t sent_pending;     /* ... sent at the last look at the slot (desc_at) */
    double last_event, desc_at, stall_us;
};

/* verbs_mcast_call.c: shared by root and receivers */
bool mc_have(const mc_call_t *k, uint32_t f);
void mc_fail(mc_call_t *k, int status); /* the first error sticks */
bool mc_peer_gone(mc_call_t *k, int w);
/* The peer's RC QP, connected on first use; NULL when not ready yet (or failed: k->status). */
verbs_conn_t *mc_conn_ready(mc_call_t *k, int w);
void mc_rc_failed(mc_call_t *k, int w, const char *what, const struct ibv_wc *wc);
int mc_bounce_get(mc_call_t *k, size_t want);
/* One READ of len bytes at (addr, rkey) of rank w into the bounce buffer; then(k) when it
 * completes without error (NULL: nothing). */
void mc_post_read(mc_call_t *k, int w, int kind, uint64_t addr, uint32_t rkey, size_t len,
                  void (*then)(mc_call_t *k));
/* The root's side of a call: sends in its window, waits for the reports. */
int mc_root_step(mc_call_t *k);
/* verbs_mcast_recv.c */
void mc_recv_desc_done(mc_call_t *k);
void mc_recv_data_done(mc_call_t *k);
int mc_recv_step(mc_call_t *k);

/* verbs_mcast_call.c and verbs_mcast_recv.c: the call as verbs_mcast.c sees it */
int mc_call_start(verbs_tp_t *v, const ofl_comm_t *comm, const mc_comm_t *cc,
                  const ofl_args_t *a, ofl_req_t **req);
void mc_call_finish(ofl_req_t *req);
mc_call_t *mc_call_find(mc_state_t *mc, uint32_t ctx, uint32_t seq);
mc_call_t *mc_call_next(const mc_call_t *k); /* the list of calls in flight */
/* A datagram for call k (payload after the header). */
void mc_call_datagram(mc_call_t *k, const mc_hdr_t *h, const char *payload, uint32_t len);
/* A UD send of call k completed. */
void mc_call_sent(mc_call_t *k, const struct ibv_wc *wc);
bool mc_call_is_root(const mc_call_t *k);
/* When k wants to look again without any completion (a stall check), 0: never. */
double mc_call_deadline(const mc_call_t *k);

/* verbs_mcast_group.c: the lowest layer (group, UD QP, timers, sends); calls none of the
 * other multicast files */
const char *mc_mode(const verbs_tp_t *v);     /* RMP_MCAST: auto, on or off */
int mc_open(verbs_tp_t *v);
int mc_wireup(verbs_tp_t *v);
void mc_close(verbs_tp_t *v);
int mc_post_recvs(verbs_tp_t *v, mc_state_t *mc, const uint32_t *idx, uint32_t n);
int mc_arm(verbs_tp_t *v, mc_state_t *mc);
void mc_timer(verbs_tp_t *v, mc_state_t *mc, double at);
double mc_now_us(void);
/* Wake the rank w's process (a datagram to its UD QP): its memory changed under it. */
void mc_nudge(verbs_tp_t *v, int w);
/* Post fragments [h->frag, h->frag + n) of buf (n <= MC_SEND_BATCH) to the group; wr_id is
 * the call. How many were posted, -1 on an error (reported). */
int mc_post_frags(verbs_tp_t *v, mc_call_t *k, const mc_hdr_t *h, const char *buf,
                  uint32_t fbytes, uint32_t lkey, uint32_t n);

/* verbs_mcast.c: the backend's entry points and the datagram intake (the top layer) */
/* Feed the stashed datagrams of (ctx, seq) to k. */
void mc_stash_feed(verbs_tp_t *v, mc_call_t *k, uint32_t ctx, uint32_t seq);
/* Drop the stashed datagrams of context ctx (its communicator is freed). */
void mc_stash_drop(mc_state_t *mc, uint32_t ctx);

#endif
