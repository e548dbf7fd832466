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

#include "transport/verbs/verbs_atomic.h"

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

void atom_bg_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc)
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

/* Nothing can still reach my slot (every remote access of the last call preceded my release):
 * clean it for the next communicator that gets this context id. */
void atom_comm_drop(verbs_tp_t *v, atom_comm_t *ac)
{
    if (ac->slot < ATOM_NSLOTS && v->ctrl) /* out[] may still feed a background write */
        memset(atom_my_slot(v, ac->slot), 0, offsetof(atom_slot_t, fetched));
    free(ac->world);
    free(ac->raddr);
    free(ac->rkey);
    free(ac);
}

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

int atomic_progress(ofl_req_t *req)
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

void atomic_finish(ofl_req_t *req)
{
    free(req);
}

