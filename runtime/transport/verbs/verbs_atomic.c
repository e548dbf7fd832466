/* verbs_atomic.c — barrier and small integer allreduce run by the adapters' RDMA atomics (the
 * "atomic" backend of verbs_offload.c). Every member adds its contribution into accumulators
 * in the control region of the communicator's rank 0 (fetch-add; a compare-swap loop for MIN,
 * MAX, BAND, BOR), then fetch-adds an arrival counter there; the member whose add completes
 * the count reads the accumulators and writes result and release flag into every member's
 * region. No CPU receives or forwards anything for a call to advance.
 *
 * Epochs: call e of a communicator (every member counts its offloaded calls alike) is complete
 * when the counter reaches e*n; it never resets while the communicator lives. Accumulators are
 * double-buffered by e % 2: the last arriver of call e zeroes buffer e % 2 (on the same QP as,
 * hence before, rank 0's release) and finishes only when that is done, and call e + 2 cannot
 * start before it arrives at e + 1. The calls of one communicator run one at a time, in order,
 * on each rank; other communicators use other slots and other traffic does not touch them.
 * A member's failure (an error completion, or the core marking it failed while this rank waits
 * for its release) fails the call, and every later call on the communicator. */
#include <endian.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static atom_slot_t *atom_my_slot(verbs_tp_t *v, int slot)
{
    return (atom_slot_t *)(void *)(v->ctrl + VERBS_CTRL_MCAST_BYTES +
                                   (size_t)slot * ATOM_SLOT_BYTES);
}

/* The release word of call e: the epoch and a check half, so that a torn or stale value (an
 * earlier communicator on this slot) never passes for it. */
static uint64_t atom_flag(uint64_t e, uint32_t ctx_id)
{
    uint32_t lo = (uint32_t)e;
    return (uint64_t)lo | ((uint64_t)(~lo ^ ctx_id) << 32);
}

/* ---- values: every op becomes SUM, unsigned MAX or OR on words whose identity is 0 ------- */

static bool atom_signed(ofl_elem_t e)
{
    return e == OFL_I32 || e == OFL_I64;
}

static uint64_t atom_load(ofl_elem_t e, const void *p, int i)
{
    if (e == OFL_I32 || e == OFL_U32) {
        uint32_t x;
        memcpy(&x, (const char *)p + 4 * (size_t)i, 4);
        return e == OFL_I32 ? (uint64_t)(int64_t)(int32_t)x : x; /* widen */
    }
    uint64_t x;
    memcpy(&x, (const char *)p + 8 * (size_t)i, 8);
    return x;
}

static void atom_store(ofl_elem_t e, void *p, int i, uint64_t x)
{
    if (e == OFL_I32 || e == OFL_U32) {
        uint32_t y = (uint32_t)x; /* SUM wraps mod 2^32 as the software schedule's does */
        memcpy((char *)p + 4 * (size_t)i, &y, 4);
    } else {
        memcpy((char *)p + 8 * (size_t)i, &x, 8);
    }
}

/* BAND = NOT(OR of NOTs); signed order becomes unsigned by flipping the sign bit; MIN is MAX
 * of the complement. */
static uint64_t atom_to_acc(ofl_op_t op, ofl_elem_t e, uint64_t x)
{
    uint64_t s = atom_signed(e) ? ATOM_SIGN : 0;
    switch (op) {
    case OFL_OP_BAND: return ~x;
    case OFL_OP_MAX: return x ^ s;
    case OFL_OP_MIN: return ~(x ^ s);
    default: return x; /* SUM, BOR */
    }
}

static uint64_t atom_from_acc(ofl_op_t op, ofl_elem_t e, uint64_t y)
{
    uint64_t s = atom_signed(e) ? ATOM_SIGN : 0;
    switch (op) {
    case OFL_OP_BAND: return ~y;
    case OFL_OP_MAX: return y ^ s;
    case OFL_OP_MIN: return ~y ^ s;
    default: return y;
    }
}

static uint64_t atom_combine(ofl_op_t op, uint64_t old, uint64_t mine)
{
    if (op == OFL_OP_SUM)
        return old + mine;
    if (op == OFL_OP_MIN || op == OFL_OP_MAX)
        return old > mine ? old : mine;
    return old | mine;
}

/* ---- posting ----------------------------------------------------------------------------- */

static void atom_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc)
{
    atom_wr_t *w = (atom_wr_t *)(void *)cb;
    atom_req_t *r = w->r;
    verbs_sq_retire(v, &v->conns[w->peer]);
    r->inflight--;
    w->done = true;
    if (wc->status == IBV_WC_SUCCESS)
        return;
    if (!r->err)
        r->err = RMP_ERR_PEER;
    if (wc->status != IBV_WC_WR_FLUSH_ERR) {
        char why[160];
        snprintf(why, sizeof(why), "RDMA atomics collective with rank %d on %s: %s", w->peer,
                 v->devname, ibv_wc_status_str(wc->status));
        verbs_peer_failed(v, w->peer, why);
    }
}

static void atom_bg_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc)
{
    atom_tp_t *t = v->atomic;
    int peer = verbs_peer_of_qpn(v, wc->qp_num);
    t->bg_out[cb - t->bg_cb]--;
    if (peer >= 0)
        verbs_sq_retire(v, &v->conns[peer]);
    if (wc->status != IBV_WC_SUCCESS && wc->status != IBV_WC_WR_FLUSH_ERR && peer >= 0) {
        char why[160];
        snprintf(why, sizeof(why), "RDMA WRITE of an atomics collective's release to rank %d "
                 "on %s: %s", peer, v->devname, ibv_wc_status_str(wc->status));
        verbs_peer_failed(v, peer, why);
    }
}

/* Post wr toward world rank peer, signaled: its completion goes to w (the call waits for it)
 * or, w NULL, to the slot's background count. RMP_AGAIN: no send queue slot now. */
static int atom_post(atom_req_t *r, atom_wr_t *w, int peer, struct ibv_send_wr *wr)
{
    verbs_tp_t *v = r->v;
    atom_tp_t *t = v->atomic;
    verbs_conn_t *c = &v->conns[peer];
    if (c->state == VC_FAILED)
        return RMP_ERR_PEER;
    if (c->sq_free == 0)
        return RMP_AGAIN;
    if (w) {
        *w = (atom_wr_t){.cb.done = atom_done, .r = r, .peer = peer};
        wr->wr_id = verbs_cb_wrid(&w->cb);
    } else {
        wr->wr_id = verbs_cb_wrid(&t->bg_cb[r->ac->slot]);
    }
    int rc = verbs_post(v, c, wr, true);
    if (rc == RMP_SUCCESS && w)
        r->inflight++;
    else if (rc == RMP_SUCCESS)
        t->bg_out[r->ac->slot]++;
    return rc;
}

/* An atomic on rank 0's slot at byte offset off; the old value lands in *old. */
static int atom_atomic(atom_req_t *r, atom_wr_t *w, enum ibv_wr_opcode opc, size_t off,
                       uint64_t cmp_add, uint64_t swap, uint64_t *old)
{
    atom_comm_t *ac = r->ac;
    struct ibv_sge sge = {.addr = (uintptr_t)old, .length = 8, .lkey = r->v->ctrl_mr->lkey};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = opc};
    wr.wr.atomic.remote_addr = ac->raddr[0] + off;
    wr.wr.atomic.rkey = ac->rkey[0];
    wr.wr.atomic.compare_add = cmp_add;
    wr.wr.atomic.swap = swap;
    return atom_post(r, w, ac->world[0], &wr);
}

/* RDMA READ or WRITE (with immediate: it wakes a sleeping member) of len bytes between local
 * and member j's slot at offset off; w as in atom_post. */
static int atom_rdma(atom_req_t *r, atom_wr_t *w, enum ibv_wr_opcode opc, int j, size_t off,
                     void *local, size_t len)
{
    atom_comm_t *ac = r->ac;
    struct ibv_sge sge = {.addr = (uintptr_t)local, .length = (uint32_t)len,
                          .lkey = r->v->ctrl_mr->lkey};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = opc};
    wr.wr.rdma.remote_addr = ac->raddr[j] + off;
    wr.wr.rdma.rkey = ac->rkey[j];
    if (opc == IBV_WR_RDMA_WRITE_WITH_IMM)
        wr.imm_data = htobe32((uint32_t)ac->world[ac->rank]);
    return atom_post(r, w, ac->world[j], &wr);
}

/* ---- the steps of one call: each returns RMP_SUCCESS (next step), RMP_AGAIN or an error -- */

static bool atom_member_failed(atom_req_t *r)
{
    atom_comm_t *ac = r->ac;
    for (int j = 0; j < ac->size; j++) {
        int p = ac->world[j];
        if (r->v->conns[p].state == VC_FAILED || tp_peer_error(&r->v->base, p))
            return true;
    }
    return false;
}

/* Every member's QP ready (lazily connected on the first call). */
static int atom_connect(atom_req_t *r)
{
    atom_comm_t *ac = r->ac;
    verbs_tp_t *v = r->v;
    if (ac->connected)
        return RMP_SUCCESS;
    bool all = true;
    for (int j = 0; j < ac->size; j++) {
        verbs_conn_t *c = &v->conns[ac->world[j]];
        if (c->state == VC_READY)
            continue;
        int rc = v->base.ops->connect(&v->base, ac->world[j]);
        if (rc != RMP_SUCCESS)
            return rc;
        all &= c->state == VC_READY;
    }
    ac->connected = all;
    return all ? RMP_SUCCESS : RMP_AGAIN;
}

/* Post the words not posted yet: fetch-add for SUM, compare-swap from the expected value. */
static int atom_contrib_post(atom_req_t *r)
{
    size_t base = offsetof(atom_slot_t, acc) + (size_t)(r->epoch % 2) * ATOM_MAXW * 8;
    atom_slot_t *s = atom_my_slot(r->v, r->ac->slot);
    for (int w = 0; w < r->nw; w++) {
        if (r->wst[w] != W_TODO)
            continue;
        int rc = r->op == OFL_OP_SUM
                     ? atom_atomic(r, &r->wr[w], IBV_WR_ATOMIC_FETCH_AND_ADD, base + 8 * (size_t)w,
                                   r->mine[w], 0, &s->fetched[w])
                     : atom_atomic(r, &r->wr[w], IBV_WR_ATOMIC_CMP_AND_SWP, base + 8 * (size_t)w,
                                   r->expect[w], atom_combine(r->op, r->expect[w], r->mine[w]),
                                   &s->fetched[w]);
        if (rc != RMP_SUCCESS)
            return rc;
        r->wst[w] = W_POSTED;
    }
    return RMP_SUCCESS;
}

/* Contributions: SUM's fetch-adds need no answer before the arrival (the responder executes
 * one QP's atomics in order); a compare-swap that found another value retries from it. */
static int atom_contrib(atom_req_t *r)
{
    atom_slot_t *s = atom_my_slot(r->v, r->ac->slot);
    int rc = atom_contrib_post(r);
    if (rc != RMP_SUCCESS || r->op == OFL_OP_SUM)
        return rc;
    bool all = true;
    for (int w = 0; w < r->nw; w++) {
        if (r->wst[w] == W_POSTED && r->wr[w].done) {
            uint64_t old = s->fetched[w];
            if (old == r->expect[w] || atom_combine(r->op, old, r->mine[w]) == old) {
                r->wst[w] = W_DONE;
            } else {
                r->expect[w] = old;
                r->wst[w] = W_TODO;
            }
        }
        all &= r->wst[w] == W_DONE;
    }
    if (!all)
        return (rc = atom_contrib_post(r)) ? rc : RMP_AGAIN;
    return RMP_SUCCESS;
}

static int atom_arrive(atom_req_t *r)
{
    atom_slot_t *s = atom_my_slot(r->v, r->ac->slot);
    if (!r->arrive_posted) {
        int rc = atom_atomic(r, &r->wr[AW_ARRIVE], IBV_WR_ATOMIC_FETCH_AND_ADD,
                             offsetof(atom_slot_t, count), 1, 0, &s->fetched[ATOM_MAXW]);
        if (rc != RMP_SUCCESS)
            return rc;
        r->arrive_posted = true;
    }
    if (!r->wr[AW_ARRIVE].done)
        return RMP_AGAIN;
    uint64_t had = s->fetched[ATOM_MAXW], want = r->epoch * (uint64_t)r->ac->size;
    if (had + 1 > want) {
        tp_error(&r->v->base, "verbs: atomics %s on context %u: arrival counter at %llu, "
                 "beyond %llu (a member runs other calls than this rank: an rmp bug, please "
                 "report; RMP_COLL_OFFLOAD=off avoids it)", r->reduce ? "allreduce" : "barrier",
                 r->ac->ctx_id, (unsigned long long)had, (unsigned long long)want);
        return RMP_ERR_INTERNAL;
    }
    r->state = had + 1 < want ? S_WAIT : r->reduce ? S_READ : S_RELEASE;
    return RMP_AGAIN; /* the state is set: go on from it */
}

static int atom_read(atom_req_t *r)
{
    atom_slot_t *s = atom_my_slot(r->v, r->ac->slot);
    if (!r->read_posted && ((atom_tp_t *)r->v->atomic)->bg_out[r->ac->slot])
        return RMP_AGAIN; /* my previous release may still read out[], where this READ lands */
    if (!r->read_posted) {
        size_t off = offsetof(atom_slot_t, acc) + (size_t)(r->epoch % 2) * ATOM_MAXW * 8;
        int rc = atom_rdma(r, &r->wr[AW_READ], IBV_WR_RDMA_READ, 0, off,
                           &s->out[ATOM_MAXW - r->nw], 8 * (size_t)r->nw);
        if (rc != RMP_SUCCESS)
            return rc;
        r->read_posted = true;
    }
    return r->wr[AW_READ].done ? RMP_SUCCESS : RMP_AGAIN;
}

/* The last arriver: reset this call's accumulators, then result + flag to every member, all
 * in the background. The reset reaches rank 0 before its release and before my next arrival
 * (one QP, executed in order), and call e + 2 needs my arrival at e + 1. */
static int atom_release(atom_req_t *r)
{
    atom_comm_t *ac = r->ac;
    atom_slot_t *s = atom_my_slot(r->v, ac->slot);
    atom_tp_t *t = r->v->atomic;
    if (!r->zero_posted && r->next_rel == 0 && t->bg_out[ac->slot])
        return RMP_AGAIN; /* my previous release may still read out[] */
    size_t acc = offsetof(atom_slot_t, acc) + (size_t)(r->epoch % 2) * ATOM_MAXW * 8;
    size_t res = offsetof(atom_slot_t, res) + 8 * (size_t)(ATOM_MAXW - r->nw);
    s->out[ATOM_MAXW] = atom_flag(r->epoch, ac->ctx_id);
    if (r->reduce && !r->zero_posted) {
        if (ac->rank == 0) { /* no atomics run on this buffer until call e + 2 */
            memset((char *)s + acc, 0, 8 * (size_t)r->nw);
        } else {
            int rc = atom_rdma(r, NULL, IBV_WR_RDMA_WRITE, 0, acc, s->zero,
                               8 * (size_t)r->nw);
            if (rc != RMP_SUCCESS)
                return rc;
        }
        r->zero_posted = true;
    }
    for (; r->next_rel < ac->size; r->next_rel++) {
        int j = r->next_rel;
        if (j == ac->rank) {
            memcpy((char *)s + res, &s->out[ATOM_MAXW - r->nw], 8 * (size_t)r->nw);
            __atomic_store_n(&s->flag, s->out[ATOM_MAXW], __ATOMIC_RELEASE);
            continue;
        }
        int rc = atom_rdma(r, NULL, IBV_WR_RDMA_WRITE_WITH_IMM, j, res,
                           &s->out[ATOM_MAXW - r->nw], 8 * (size_t)(r->nw + 1));
        if (rc != RMP_SUCCESS)
            return rc;
    }
    return RMP_SUCCESS;
}

/* Everyone else: the release flag in my own slot, written by the last arriver. */
static int atom_wait(atom_req_t *r)
{
    atom_slot_t *s = atom_my_slot(r->v, r->ac->slot);
    if (__atomic_load_n(&s->flag, __ATOMIC_ACQUIRE) == atom_flag(r->epoch, r->ac->ctx_id))
        return RMP_SUCCESS;
    return atom_member_failed(r) ? RMP_ERR_PEER : RMP_AGAIN;
}

static void atom_result(atom_req_t *r)
{
    atom_slot_t *s = atom_my_slot(r->v, r->ac->slot);
    for (int w = 0; w < r->nw; w++)
        atom_store(r->elem, r->rbuf, w,
                   atom_from_acc(r->op, r->elem, s->res[ATOM_MAXW - r->nw + w]));
}

static int atom_step(atom_req_t *r)
{
    switch (r->state) {
    case S_QUEUED:
        if (r->ac->head != r)
            return RMP_AGAIN;
        return r->ac->broken ? r->ac->broken : RMP_SUCCESS;
    case S_CONNECT: return atom_connect(r);
    case S_CONTRIB: return atom_contrib(r);
    case S_ARRIVE: return atom_arrive(r);
    case S_READ: return atom_read(r);
    case S_RELEASE: return atom_release(r);
    case S_WAIT: return atom_wait(r);
    default: return r->inflight ? RMP_AGAIN : RMP_SUCCESS; /* S_DRAIN */
    }
}

static int atom_next_state(atom_req_t *r)
{
    switch (r->state) {
    case S_CONNECT: return r->reduce ? S_CONTRIB : S_ARRIVE;
    case S_READ: return S_RELEASE;
    case S_RELEASE:
    case S_WAIT: return S_DRAIN;
    default: return r->state + 1; /* QUEUED -> CONNECT, CONTRIB -> ARRIVE, DRAIN -> DONE */
    }
}

static void atom_comm_drop(verbs_tp_t *v, atom_comm_t *ac);

/* The call ends: let the next call of the communicator start. */
static void atom_dequeue(atom_req_t *r)
{
    atom_comm_t *ac = r->ac;
    if (ac->head == r) {
        ac->head = r->next;
        if (!ac->head)
            ac->tail = NULL;
    }
    if (ac->freed && !ac->head)
        atom_comm_drop(r->v, ac);
    r->ac = NULL;
}

static int atomic_progress(ofl_req_t *req)
{
    atom_req_t *r = (atom_req_t *)req;
    if (!r->ac)
        return r->err;
    for (;;) {
        if (r->err) {
            if (r->inflight) /* their completions (flushed at worst) still point here */
                return RMP_INPROGRESS;
            break;
        }
        int st = r->state, rc = atom_step(r);
        if (rc == RMP_AGAIN && r->state != st)
            continue; /* the step chose the next state itself */
        if (rc == RMP_AGAIN)
            return RMP_INPROGRESS;
        if (rc != RMP_SUCCESS) {
            r->err = rc;
            continue;
        }
        r->state = atom_next_state(r);
        if (r->state == S_DONE) {
            if (r->reduce)
                atom_result(r);
            break;
        }
    }
    if (r->err && !r->ac->broken)
        r->ac->broken = r->err;
    atom_dequeue(r);
    return r->err;
}

static void atomic_finish(ofl_req_t *req)
{
    free(req);
}

/* ---- selection ----------------------------------------------------------------------------- */

/* Per communicator, decided once from job-wide facts: the slot, every member's region and
 * atomics, the QP addresses. */
static int atom_comm_new(verbs_tp_t *v, const ofl_comm_t *comm, atom_comm_t **out)
{
    atom_comm_t *ac = calloc(1, sizeof(*ac));
    int n = comm->size;
    if (!ac || !(ac->world = malloc((size_t)n * sizeof(int))) ||
        !(ac->raddr = malloc((size_t)n * sizeof(uint64_t))) ||
        !(ac->rkey = malloc((size_t)n * sizeof(uint32_t)))) {
        if (ac)
            free(ac->world), free(ac->raddr);
        free(ac);
        return RMP_ERR_NO_MEM;
    }
    *ac = (atom_comm_t){.slot = (int)(comm->ctx_id / 2), .rank = comm->rank, .size = n,
                        .ctx_id = comm->ctx_id, .world = ac->world, .raddr = ac->raddr,
                        .rkey = ac->rkey};
    memcpy(ac->world, comm->world, (size_t)n * sizeof(int));
    if (n > ATOM_MAXN)
        snprintf(ac->bad, sizeof(ac->bad), "atomics: %d members, more than the %d one release "
                 "round serves", n, ATOM_MAXN);
    else if (ac->slot >= ATOM_NSLOTS)
        snprintf(ac->bad, sizeof(ac->bad), "atomics: context %u has no slot (only the %d "
                 "lowest context ids do: free communicators you no longer use)",
                 comm->ctx_id & ~1u, ATOM_NSLOTS);
    for (int j = 0; j < n && !ac->bad[0]; j++) {
        const verbs_blob_t *b = verbs_peer_blob(v, ac->world[j]);
        if (!b || !(b->ofl_caps & VERBS_OFL_ATOMIC) ||
            verbs_ctrl_remote(v, ac->world[j], &ac->raddr[j], &ac->rkey[j]))
            snprintf(ac->bad, sizeof(ac->bad), "atomics: rank %d has no atomics control region "
                     "(its device lacks HCA atomics, or RMP_COLL_OFFLOAD=off there)",
                     ac->world[j]);
        else
            ac->raddr[j] += VERBS_CTRL_MCAST_BYTES + (uint64_t)ac->slot * ATOM_SLOT_BYTES;
    }
    *out = ac;
    return RMP_SUCCESS;
}

/* RMP_COLL_OFFLOAD=auto runs atomics only where they were measured to win: in the soft-RoCE
 * VM at n = 2..8 over 2 to 4 nodes (bench/README.md, "Barrier and allreduce on RDMA atomics"),
 * the barrier from 8 ranks (4 runs of 5, median 0.56x the software time), the allreduce
 * nowhere consistently (rxe executes atomics on the host's CPU, like messages, and the central
 * counter costs a wake-up per step). A hardware HCA deserves its own measurement. */
#define ATOM_AUTO_BARRIER_MIN 8
static const char *atom_auto_refuse(const atom_tp_t *t, const ofl_args_t *a, int n)
{
    if (t->mode != ATOM_AUTO)
        return NULL;
    if (a->coll == OFL_BARRIER)
        return n >= ATOM_AUTO_BARRIER_MIN
                   ? NULL
                   : "RMP_COLL_OFFLOAD=auto: atomics beat the software barrier only from 8 "
                     "ranks where measured (bench/README.md); RMP_COLL_OFFLOAD=on forces them";
    return "RMP_COLL_OFFLOAD=auto: atomics did not beat the software allreduce where measured "
           "(bench/README.md); RMP_COLL_OFFLOAD=on forces them";
}

/* Why this call does not run on atomics, from facts every member shares; NULL: it does. */
static const char *atom_refuse(const atom_tp_t *t, const ofl_args_t *a, int n, char *why,
                               size_t len)
{
    static const char *const ops[] = {"SUM", "MIN", "MAX", "BAND", "BOR", "another op"};
    if (t->mode == ATOM_OFF)
        return "RMP_COLL_OFFLOAD=off";
    if (!t->probe.atomic_hca)
        return "atomics: the device has none (atomic_cap NONE)";
    if (a->coll == OFL_ALLGATHER)
        return "atomics: barrier and allreduce only";
    if (a->coll != OFL_ALLREDUCE)
        return atom_auto_refuse(t, a, n);
    if (a->op == OFL_OP_OTHER || a->elem == OFL_ELEM_OTHER) {
        snprintf(why, len, "atomics: %s on %s: only SUM, MIN, MAX, BAND, BOR on 32- and 64-bit "
                 "integers", ops[a->op], a->elem == OFL_ELEM_OTHER ? "this type" : "integers");
        return why;
    }
    if (a->count < 1 || a->count > ATOM_MAXW) {
        snprintf(why, len, "atomics: %d elements (1 to %d run on atomics)", a->count, ATOM_MAXW);
        return why;
    }
    return atom_auto_refuse(t, a, n);
}

static int atomic_start(verbs_tp_t *v, const ofl_comm_t *comm, const ofl_args_t *a,
                        ofl_req_t **req, char *why, size_t len)
{
    const atom_tp_t *t = v->atomic;
    const char *no = atom_refuse(t, a, comm->size, why, len);
    if (no) {
        if (no != why)
            snprintf(why, len, "%s", no);
        return RMP_ERR_NOT_SUPPORTED;
    }
    atom_comm_t *ac = *comm->state;
    int rc;
    if (!ac && (rc = atom_comm_new(v, comm, &ac)))
        return rc;
    *comm->state = ac;
    if (ac->bad[0]) {
        snprintf(why, len, "%s", ac->bad);
        return RMP_ERR_NOT_SUPPORTED;
    }
    atom_req_t *r = calloc(1, sizeof(*r));
    if (!r)
        return RMP_ERR_NO_MEM;
    *r = (atom_req_t){.base.be = &verbs_atomic_backend, .v = v, .ac = ac,
                      .epoch = ++ac->epoch, .reduce = a->coll == OFL_ALLREDUCE, .op = a->op,
                      .elem = a->elem, .rbuf = a->rbuf};
    if (r->reduce) {
        const void *src = a->sbuf ? a->sbuf : a->rbuf;
        r->nw = a->count;
        for (int w = 0; w < r->nw; w++) {
            r->mine[w] = atom_to_acc(a->op, a->elem, atom_load(a->elem, src, w));
            r->wst[w] = r->mine[w] ? W_TODO : W_DONE; /* the identity changes nothing */
        }
    }
    if (ac->tail)
        ac->tail->next = r;
    else
        ac->head = r;
    ac->tail = r;
    *req = &r->base;
    return RMP_SUCCESS;
}

/* ---- life cycle ---------------------------------------------------------------------------- */

/* Nothing can still reach my slot (every remote access of the last call preceded my release):
 * clean it for the next communicator that gets this context id. */
static void atom_comm_drop(verbs_tp_t *v, atom_comm_t *ac)
{
    if (ac->slot < ATOM_NSLOTS && v->ctrl) /* out[] may still feed a background write */
        memset(atom_my_slot(v, ac->slot), 0, offsetof(atom_slot_t, fetched));
    free(ac->world);
    free(ac->raddr);
    free(ac->rkey);
    free(ac);
}

static void atomic_comm_free(verbs_tp_t *v, const ofl_comm_t *comm)
{
    atom_comm_t *ac = *comm->state;
    *comm->state = NULL;
    if (!ac)
        return;
    if (ac->head)
        ac->freed = true; /* freed with calls unfinished: the last one drops it */
    else
        atom_comm_drop(v, ac);
}

static int atomic_open(verbs_tp_t *v)
{
    atom_tp_t *t = calloc(1, sizeof(*t));
    if (!t)
        return RMP_ERR_NO_MEM;
    const char *m = tp_knob(&v->base, "RMP_COLL_OFFLOAD");
    t->mode = !m || !strcmp(m, "auto") ? ATOM_AUTO : !strcmp(m, "on") ? ATOM_ON : ATOM_OFF;
    for (int i = 0; i < ATOM_NSLOTS; i++)
        t->bg_cb[i].done = atom_bg_done;
    verbs_probe_offload(v, &t->probe);
    v->atomic = t;
    return RMP_SUCCESS;
}

/* auto runs nothing on atomics below ATOM_AUTO_BARRIER_MIN ranks: no communicator is larger
 * than the world. */
static bool atomic_may_run(const verbs_tp_t *v)
{
    const atom_tp_t *t = v->atomic;
    if (!t || t->mode == ATOM_OFF || !t->probe.atomic_hca)
        return false;
    return t->mode == ATOM_ON || v->base.env->size >= ATOM_AUTO_BARRIER_MIN;
}

uint8_t verbs_atomic_caps(verbs_tp_t *v)
{
    const atom_tp_t *t = v->atomic;
    return t && t->mode != ATOM_OFF && t->probe.atomic_hca ? VERBS_OFL_ATOMIC : 0;
}

static int atomic_wireup(verbs_tp_t *v)
{
    (void)v;
    return RMP_SUCCESS; /* QPs connect on a communicator's first call */
}

static int atomic_progress_tp(verbs_tp_t *v)
{
    (void)v;
    return 0; /* calls advance from their own progress */
}

static void atomic_close(verbs_tp_t *v)
{
    free(v->atomic);
    v->atomic = NULL;
}

const verbs_ofl_backend_t verbs_atomic_backend = {
    .name = "atomic", .start = atomic_start, .progress = atomic_progress, .finish = atomic_finish,
    .comm_free = atomic_comm_free, .open = atomic_open, .may_run = atomic_may_run,
    .wireup = atomic_wireup,
    .progress_tp = atomic_progress_tp, .close = atomic_close,
};
