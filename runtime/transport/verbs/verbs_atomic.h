/* verbs_atomic.h — internal types of the RDMA-atomics backend (barrier and small integer
 * allreduce on the adapters' atomics), shared by its files: verbs_atomic.c (one call's steps and
 * progress, described there), verbs_atomic_val.c (values: every op as SUM, unsigned MAX or OR),
 * verbs_atomic_comm.c (which calls run on it, per communicator; the backend's life cycle). */
#ifndef RMP_VERBS_ATOMIC_H
#define RMP_VERBS_ATOMIC_H

#include "transport/verbs/verbs.h"


#define ATOM_MAXW 8          /* 8-byte words of an allreduce (32-bit elements are widened) */
#define ATOM_MAXN 64         /* members: the release is n - 1 writes from one rank */
#define ATOM_SLOT_BYTES 512u
#define ATOM_NSLOTS ((int)(VERBS_CTRL_ATOMIC_BYTES / ATOM_SLOT_BYTES))
#define ATOM_SIGN (1ull << 63)

/* A communicator's slot in every member's region: slot i belongs to context id pair i (unique
 * among live communicators), so every member finds it at the same place without asking. Only
 * rank 0's count and acc are used; res and flag are every member's; the rest is scratch this
 * process's own work requests read or write. */
typedef struct atom_slot {
    uint64_t count;                  /* arrivals, all calls so far: call e is complete at e*n */
    uint64_t acc[2][ATOM_MAXW];      /* accumulators of call e at [e % 2]; 0 is the identity */
    uint64_t res[ATOM_MAXW];         /* the result, right-aligned against flag: one WRITE */
    uint64_t flag;                   /* release of call e: atom_flag(e) */
    uint64_t fetched[ATOM_MAXW + 1]; /* old values of my atomics ([ATOM_MAXW]: the arrival) */
    uint64_t out[ATOM_MAXW + 1];     /* last arriver: the accumulators read, then its flag */
    uint64_t zero[ATOM_MAXW];        /* zeros that reset acc */
} atom_slot_t;
_Static_assert(sizeof(atom_slot_t) <= ATOM_SLOT_BYTES, "an atomics slot outgrew its room");

typedef enum { ATOM_AUTO, ATOM_ON, ATOM_OFF } atom_mode_t;

/* The last arriver's writes (accumulator reset, releases) run in the background: its call
 * ends when they are posted. Until they complete, the slot's out[] must not change: bg_out
 * counts them per slot, and the next release from the slot waits for zero. */
typedef struct atom_tp {
    atom_mode_t mode;            /* RMP_COLL_OFFLOAD */
    verbs_probe_t probe;
    verbs_cb_t bg_cb[ATOM_NSLOTS];
    uint32_t bg_out[ATOM_NSLOTS];
} atom_tp_t;

typedef struct atom_req atom_req_t;

typedef struct atom_comm {
    int slot, rank, size;
    uint32_t ctx_id;
    int *world;                  /* [size] */
    uint64_t *raddr;             /* [size]: each member's slot, remote address */
    uint32_t *rkey;              /* [size] */
    uint64_t epoch;              /* offloaded calls started */
    char bad[160];               /* non-empty: why no call of this communicator is offloaded */
    bool connected, freed;
    int broken;                  /* a call failed (error code): the counters are out of step */
    atom_req_t *head, *tail;     /* calls in order; the head runs */
} atom_comm_t;

/* One work request in flight; cb first: the completion hands back &cb. */
typedef struct atom_wr {
    verbs_cb_t cb;
    atom_req_t *r;
    int peer;                    /* world rank */
    bool done;
} atom_wr_t;

enum { W_TODO, W_POSTED, W_DONE };
enum { S_QUEUED, S_CONNECT, S_CONTRIB, S_ARRIVE, S_READ, S_RELEASE, S_WAIT, S_DRAIN, S_DONE };
enum { AW_ARRIVE = ATOM_MAXW, AW_READ, AW_N }; /* r->wr[] past the words */

struct atom_req {
    ofl_req_t base;
    verbs_tp_t *v;
    atom_comm_t *ac;
    atom_req_t *next;
    uint64_t epoch;
    bool reduce;
    ofl_op_t op;
    ofl_elem_t elem;
    int nw;                      /* words (elements) */
    void *rbuf;
    uint64_t mine[ATOM_MAXW];    /* my contribution, in accumulator form */
    uint64_t expect[ATOM_MAXW];  /* compare-swap: the old value the posted one assumes */
    uint8_t wst[ATOM_MAXW];      /* W_* */
    int state, inflight, err, next_rel;
    bool arrive_posted, read_posted, zero_posted;
    atom_wr_t wr[AW_N];
};

static inline atom_slot_t *atom_my_slot(verbs_tp_t *v, int slot)
{
    return (atom_slot_t *)(void *)(v->ctrl + VERBS_CTRL_MCAST_BYTES +
                                   (size_t)slot * ATOM_SLOT_BYTES);
}

/* The release word of call e: the epoch and a check half, so that a torn or stale value (an
 * earlier communicator on this slot) never passes for it. */
static inline uint64_t atom_flag(uint64_t e, uint32_t ctx_id)
{
    uint32_t lo = (uint32_t)e;
    return (uint64_t)lo | ((uint64_t)(~lo ^ ctx_id) << 32);
}

/* verbs_atomic_val.c: an element i of p as an 8-byte word, back, and in accumulator form. */
uint64_t atom_load(ofl_elem_t e, const void *p, int i);
void atom_store(ofl_elem_t e, void *p, int i, uint64_t x);
uint64_t atom_to_acc(ofl_op_t op, ofl_elem_t e, uint64_t x);
uint64_t atom_from_acc(ofl_op_t op, ofl_elem_t e, uint64_t y);
uint64_t atom_combine(ofl_op_t op, uint64_t old, uint64_t mine);

/* verbs_atomic.c: a call's progress (ofl backend entry points), the background writes' done. */
int atomic_progress(ofl_req_t *req);
void atomic_finish(ofl_req_t *req);
void atom_bg_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc);
/* A freed communicator whose last call ended (here, not in verbs_atomic_comm.c, which calls
 * this file and is never called back). */
void atom_comm_drop(verbs_tp_t *v, atom_comm_t *ac);

#endif
