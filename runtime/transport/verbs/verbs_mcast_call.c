/* verbs_mcast_call.c — one bcast over the multicast group: the call's life (start, progress,
 * finish), what root and receivers share (RC work requests toward a peer, the READ landing
 * buffer), and the root's side. The root registers its buffer, describes the call in a slot of
 * its control region and sends every fragment once, never more than MC_WINDOW fragments ahead
 * of the slowest receiver's reported progress; it completes when every receiver has reported
 * everything, so the user may then reuse the buffer. Receivers: verbs_mcast_recv.c. */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/verbs/verbs_mcast.h"

bool mc_call_is_root(const mc_call_t *k)
{
    return k->rank == k->root;
}

mc_call_t *mc_call_next(const mc_call_t *k)
{
    return k->next;
}

mc_call_t *mc_call_find(mc_state_t *mc, uint32_t ctx, uint32_t seq)
{
    for (mc_call_t *k = mc->calls; k; k = k->next)
        if (k->ctx == ctx && k->seq == seq)
            return k;
    return NULL;
}

static mc_slot_t *root_slot(mc_call_t *k)
{
    return (mc_slot_t *)(k->v->ctrl + (size_t)k->slot * MC_SLOT_BYTES);
}

bool mc_have(const mc_call_t *k, uint32_t f)
{
    return k->have[f >> 3] & (1u << (f & 7));
}

void mc_fail(mc_call_t *k, int status)
{
    if (!k->status)
        k->status = status;
}

bool mc_peer_gone(mc_call_t *k, int w)
{
    return tp_peer_error(&k->v->base, w) || k->v->conns[w].state == VC_FAILED;
}

/* ---- RC work requests toward a peer ------------------------------------------------------- */

/* The peer's RC QP, connected on first use; NULL when not ready yet (or failed: k->status). */
verbs_conn_t *mc_conn_ready(mc_call_t *k, int w)
{
    verbs_tp_t *v = k->v;
    verbs_conn_t *c = &v->conns[w];
    if (mc_peer_gone(k, w)) {
        mc_fail(k, RMP_ERR_PEER);
        return NULL;
    }
    if (c->state != VC_READY) {
        int rc = v->base.ops->connect(&v->base, w);
        if (rc) {
            mc_fail(k, rc);
            return NULL;
        }
    }
    return c->state == VC_READY && c->sq_free > 0 ? c : NULL;
}

void mc_rc_failed(mc_call_t *k, int w, const char *what, const struct ibv_wc *wc)
{
    if (wc->status != IBV_WC_WR_FLUSH_ERR) { /* a flush: the QP's failure was reported */
        char why[160];
        snprintf(why, sizeof(why), "%s (multicast bcast) with rank %d on %s: %s", what, w,
                 k->v->devname, ibv_wc_status_str(wc->status));
        verbs_peer_failed(k->v, w, why);
    }
    mc_fail(k, RMP_ERR_PEER);
}

int mc_bounce_get(mc_call_t *k, size_t want)
{
    if (k->bounce)
        return RMP_SUCCESS;
    k->bounce_len = want < 64 ? 64 : want;
    if (posix_memalign((void **)&k->bounce, 64, k->bounce_len))
        return RMP_ERR_NO_MEM;
    if (!(k->bmr = ibv_reg_mr(k->v->pd, k->bounce, k->bounce_len, IBV_ACCESS_LOCAL_WRITE))) {
        verbs_reg_error(k->v, "the multicast repair buffer", k->bounce_len, errno);
        return RMP_ERR_TRANSPORT;
    }
    return RMP_SUCCESS;
}

static void read_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc);

/* One READ of len bytes at offset off of peer w's memory (addr, rkey) into the bounce. */
void mc_post_read(mc_call_t *k, int w, int kind, uint64_t addr, uint32_t rkey, size_t len,
                  void (*then)(mc_call_t *k))
{
    verbs_conn_t *c = mc_conn_ready(k, w);
    if (!c)
        return;
    struct ibv_sge sg = {.addr = (uintptr_t)k->bounce, .length = (uint32_t)len,
                         .lkey = k->bmr->lkey};
    struct ibv_send_wr wr = {.wr_id = verbs_cb_wrid(&k->rcb), .sg_list = &sg, .num_sge = 1,
                             .opcode = IBV_WR_RDMA_READ,
                             .wr.rdma = {.remote_addr = addr, .rkey = rkey}};
    k->rcb.done = read_done;
    if (verbs_post(k->v, c, &wr, true)) {
        mc_fail(k, RMP_ERR_TRANSPORT);
        return;
    }
    k->rc_out++;
    k->rd_kind = kind;
    k->rd_then = then;
    k->rd_peer = w;
    mc_state_t *mc = k->v->mcast;
    mc->st_reads += kind == RD_DATA;
    mc->st_read_bytes += kind == RD_DATA ? len : 0;
    k->v->base.stats.rdma_reads++;
    k->v->base.stats.mcast_repairs += kind == RD_DATA;
}

static void read_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc)
{
    mc_call_t *k = (mc_call_t *)((char *)cb - offsetof(mc_call_t, rcb));
    verbs_sq_retire(v, &v->conns[k->rd_peer]);
    k->rc_out--;
    int kind = k->rd_kind;
    k->rd_kind = RD_NONE;
    if (wc->status != IBV_WC_SUCCESS)
        mc_rc_failed(k, k->rd_peer, kind == RD_PROBE ? "probe READ" : "RDMA READ", wc);
    else if (k->rd_then)
        k->rd_then(k);
}

/* ---- root ------------------------------------------------------------------------------- */

/* Describe the call in the slot; tag last, so a reader that sees it sees the rest. */
static void root_claim(mc_call_t *k, mc_state_t *mc)
{
    mc_slot_t *s = root_slot(k);
    s->tag = 0;
    s->tag2 = 0;
    atomic_thread_fence(memory_order_seq_cst);
    for (int r = 0; r < k->size; r++)
        s->prog[r] = 0;
    s->addr = (uintptr_t)k->buf;
    s->total = k->total;
    s->rkey = k->mr ? k->mr->rkey : 0;
    s->fbytes = k->fbytes;
    s->sent = 0;
    s->status = k->status;
    s->tag2 = k->tag;
    atomic_thread_fence(memory_order_release);
    s->tag = k->tag;
    mc->slot_owner[k->slot] = k;
    k->holds_slot = true;
    k->min_since = mc_now_us();
}

static void root_send(mc_call_t *k, mc_state_t *mc, uint32_t min)
{
    mc_hdr_t h = {.ctx = k->ctx, .seq = k->seq, .root = (uint32_t)k->root_world,
                  .total = k->total, .raddr = (uintptr_t)k->buf, .rkey = k->mr->rkey,
                  .job = mc->job};
    for (;;) {
        uint64_t room = (uint64_t)min + MC_WINDOW - k->next_frag;
        uint32_t n = k->nfrags - k->next_frag;
        if ((uint64_t)min + MC_WINDOW <= k->next_frag || !n || mc->sq_out >= MC_SQ)
            break;
        n = n < room ? n : (uint32_t)room;
        n = n < MC_SQ - mc->sq_out ? n : MC_SQ - mc->sq_out;
        n = n < MC_SEND_BATCH ? n : MC_SEND_BATCH;
        h.frag = k->next_frag;
        int posted = mc_post_frags(k->v, k, &h, k->buf, k->fbytes, k->mr->lkey, n);
        if (posted < 0) {
            mc_fail(k, RMP_ERR_TRANSPORT);
            return;
        }
        k->sends_out += (uint32_t)posted;
        k->next_frag += (uint32_t)posted;
    }
    root_slot(k)->sent = k->next_frag;
}

/* A receiver silent for MC_PROBE_US: READ from it; a dead one fails that READ (and the call)
 * within the QP's retry time rather than leaving the root waiting. */
static void root_probe(mc_call_t *k, const mc_slot_t *s)
{
    for (int i = 0; i < k->size; i++) {
        int r = (k->probe_next + i) % k->size;
        if (r == k->rank || s->prog[r] == k->nfrags + 1)
            continue;
        k->probe_next = r + 1;
        uint64_t addr;
        uint32_t rkey;
        if (mc_bounce_get(k, 64) || verbs_ctrl_remote(k->v, k->world[r], &addr, &rkey)) {
            mc_fail(k, RMP_ERR_TRANSPORT);
            return;
        }
        mc_post_read(k, k->world[r], RD_PROBE, addr, rkey, 8, NULL);
        return;
    }
}

int mc_root_step(mc_call_t *k)
{
    mc_state_t *mc = k->v->mcast;
    if (!k->holds_slot) {
        if (mc->slot_owner[k->slot])
            return RMP_INPROGRESS; /* another call of this root holds it: behind that one */
        root_claim(k, mc);
    }
    mc_slot_t *s = root_slot(k);
    uint32_t min = k->nfrags + 1; /* every receiver holds everything */
    for (int r = 0; r < k->size; r++) {
        if (r == k->rank)
            continue;
        if (s->prog[r] < min)
            min = s->prog[r];
        if (s->prog[r] <= k->nfrags && mc_peer_gone(k, k->world[r]))
            mc_fail(k, RMP_ERR_PEER);
    }
    if (!k->status && k->nfrags)
        root_send(k, mc, min);
    double now = mc_now_us();
    if (min != k->last_min) {
        k->last_min = min;
        k->min_since = now;
    } else if (!k->status && min <= k->nfrags && k->rd_kind == RD_NONE &&
               now - k->min_since > MC_PROBE_US) {
        k->min_since = now;
        root_probe(k, s);
    }
    if (k->sends_out || k->rc_out)
        return RMP_INPROGRESS;
    if (k->status || min == k->nfrags + 1) {
        s->status = k->status;
        if (!k->status) { /* on error the slot keeps the status for receivers to find */
            s->tag = 0;
            s->tag2 = 0;
        }
        mc->slot_owner[k->slot] = NULL;
        k->holds_slot = false;
        return k->status ? k->status : RMP_SUCCESS;
    }
    return RMP_INPROGRESS;
}

void mc_call_sent(mc_call_t *k, const struct ibv_wc *wc)
{
    k->sends_out--;
    if (wc->status != IBV_WC_SUCCESS && !k->status) {
        tp_error(&k->v->base, "verbs: mcast: a datagram of bcast %u (context %u) failed "
                 "on %s: %s", k->seq, k->ctx, k->v->devname, ibv_wc_status_str(wc->status));
        mc_fail(k, RMP_ERR_TRANSPORT);
    }
}

/* ---- the call --------------------------------------------------------------------------- */

int mc_call_start(verbs_tp_t *v, const ofl_comm_t *comm, const mc_comm_t *cc,
                  const ofl_args_t *a, ofl_req_t **req)
{
    mc_state_t *mc = v->mcast;
    mc_call_t *k = calloc(1, sizeof(*k));
    int *world = malloc((size_t)comm->size * sizeof(int));
    if (!k || !world) {
        free(k);
        free(world);
        return RMP_ERR_NO_MEM;
    }
    memcpy(world, comm->world, (size_t)comm->size * sizeof(int));
    *k = (mc_call_t){.v = v, .ctx = comm->ctx_id,
                     .seq = a->seq, .slot = comm->ctx_id % MC_NSLOT,
                     .tag = (uint64_t)comm->ctx_id << 32 | a->seq, .rank = comm->rank,
                     .size = comm->size, .root = a->root, .root_world = world[a->root],
                     .world = world, .buf = a->buf, .count = a->bytes, .fbytes = cc->fbytes,
                     .stall_us = MC_STALL_US, .last_event = mc_now_us()};
    if (mc_call_is_root(k)) {
        k->total = a->bytes;
        k->nfrags = (uint32_t)((a->bytes + k->fbytes - 1) / k->fbytes);
        if (a->bytes && !(k->mr = ibv_reg_mr(v->pd, a->buf, a->bytes, IBV_ACCESS_REMOTE_READ))) {
            /* Receivers are in the call already: they find the error in the slot. */
            verbs_reg_error(v, "the multicast bcast buffer", a->bytes, errno);
            k->status = RMP_ERR_TRANSPORT;
        }
    }
    k->next = mc->calls;
    mc->calls = k;
    mc->st_calls++;
    *req = &k->base;
    return RMP_SUCCESS;
}

void mc_call_finish(ofl_req_t *req)
{
    mc_call_t *k = (mc_call_t *)req;
    mc_state_t *mc = k->v->mcast;
    for (mc_call_t **pp = &mc->calls; *pp; pp = &(*pp)->next)
        if (*pp == k) {
            *pp = k->next;
            break;
        }
    if (k->mr && ibv_dereg_mr(k->mr))
        tp_verbose(&k->v->base, "verbs: mcast: ibv_dereg_mr (bcast buffer): %s",
                   strerror(errno));
    if (k->bmr && ibv_dereg_mr(k->bmr))
        tp_verbose(&k->v->base, "verbs: mcast: ibv_dereg_mr (repair buffer): %s",
                   strerror(errno));
    free(k->bounce);
    free(k->have);
    free(k->world);
    free(k);
}
