/* verbs_mcast_call.c — one bcast over the multicast group. The root registers its buffer,
 * describes the call in a slot of its control region and sends every fragment once, never more
 * than MC_WINDOW fragments ahead of the slowest receiver's reported progress. Receivers copy
 * datagrams into place, repair what is missing by RDMA READ from the root's buffer (a gap below
 * a later fragment, or nothing new for a while: then the slot says what was sent), and RDMA
 * WRITE their in-order progress into the slot; the root completes when every receiver has
 * everything, so the user may then reuse the buffer. */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/verbs_mcast.h"

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

static bool have(const mc_call_t *k, uint32_t f)
{
    return k->have[f >> 3] & (1u << (f & 7));
}

static void fail(mc_call_t *k, int status)
{
    if (!k->status)
        k->status = status;
}

static bool peer_gone(mc_call_t *k, int w)
{
    return k->v->base.ctx->peers[w].failed || k->v->conns[w].state == VC_FAILED;
}

/* ---- RC work requests toward a peer ------------------------------------------------------- */

/* The peer's RC QP, connected on first use; NULL when not ready yet (or failed: k->status). */
static verbs_conn_t *conn_ready(mc_call_t *k, int w)
{
    verbs_tp_t *v = k->v;
    verbs_conn_t *c = &v->conns[w];
    if (peer_gone(k, w)) {
        fail(k, RMP_ERR_PEER);
        return NULL;
    }
    if (c->state != VC_READY) {
        int rc = v->base.ops->connect(&v->base, w);
        if (rc) {
            fail(k, rc);
            return NULL;
        }
    }
    return c->state == VC_READY && c->sq_free > 0 ? c : NULL;
}

static void rc_failed(mc_call_t *k, int w, const char *what, const struct ibv_wc *wc)
{
    if (wc->status != IBV_WC_WR_FLUSH_ERR) { /* a flush: the QP's failure was reported */
        char why[160];
        snprintf(why, sizeof(why), "%s (multicast bcast) with rank %d on %s: %s", what, w,
                 k->v->devname, ibv_wc_status_str(wc->status));
        verbs_peer_failed(k->v, w, why);
    }
    fail(k, RMP_ERR_PEER);
}

static int bounce_get(mc_call_t *k, size_t want)
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
static void post_read(mc_call_t *k, int w, int kind, uint64_t addr, uint32_t rkey, size_t len)
{
    verbs_conn_t *c = conn_ready(k, w);
    if (!c)
        return;
    struct ibv_sge sg = {.addr = (uintptr_t)k->bounce, .length = (uint32_t)len,
                         .lkey = k->bmr->lkey};
    struct ibv_send_wr wr = {.wr_id = verbs_cb_wrid(&k->rcb), .sg_list = &sg, .num_sge = 1,
                             .opcode = IBV_WR_RDMA_READ,
                             .wr.rdma = {.remote_addr = addr, .rkey = rkey}};
    k->rcb.done = read_done;
    if (verbs_post(k->v, c, &wr, true)) {
        fail(k, RMP_ERR_TRANSPORT);
        return;
    }
    k->rc_out++;
    k->rd_kind = kind;
    k->rd_peer = w;
    mc_state_t *mc = k->v->mcast;
    mc->st_reads += kind == RD_DATA;
    mc->st_read_bytes += kind == RD_DATA ? len : 0;
}

/* ---- receiver --------------------------------------------------------------------------- */

static int recv_learn(mc_call_t *k, uint64_t total, uint64_t raddr, uint32_t rkey)
{
    if (k->known)
        return total == k->total ? RMP_SUCCESS : RMP_ERR_INTERNAL;
    uint64_t nf = (total + k->fbytes - 1) / k->fbytes;
    if (nf >= UINT32_MAX)
        return RMP_ERR_NOT_SUPPORTED;
    k->total = total;
    k->nfrags = (uint32_t)nf;
    uint64_t mine = total < k->count ? total : k->count;
    k->need = (uint32_t)((mine + k->fbytes - 1) / k->fbytes);
    k->raddr = raddr;
    k->rkey = rkey;
    if (!(k->have = calloc(k->nfrags / 8 + 1, 1)))
        return RMP_ERR_NO_MEM;
    k->known = true;
    return RMP_SUCCESS;
}

/* Fragment f's bytes (len of them, the root's) are at src: copy what fits my count. */
static void recv_place(mc_call_t *k, uint32_t f, const char *src)
{
    uint64_t off = (uint64_t)f * k->fbytes;
    uint64_t n = k->total - off < k->fbytes ? k->total - off : k->fbytes;
    if (off < k->count)
        memcpy(k->buf + off, src, off + n <= k->count ? n : k->count - off);
    k->have[f >> 3] |= (uint8_t)(1u << (f & 7));
    while (k->prefix < k->nfrags && have(k, k->prefix))
        k->prefix++;
}

void mc_call_datagram(mc_call_t *k, const mc_hdr_t *h, const char *payload, uint32_t len)
{
    if (mc_call_is_root(k) || h->root != (uint32_t)k->root_world || k->status)
        return;
    int rc = recv_learn(k, h->total, h->raddr, h->rkey);
    if (rc) {
        core_error(k->v->base.ctx, "verbs: mcast: a datagram of bcast %u on context %u "
                   "disagrees with the call (%llu bytes from rank %d)", k->seq, k->ctx,
                   (unsigned long long)h->total, k->root);
        fail(k, rc);
        return;
    }
    uint64_t off = (uint64_t)h->frag * k->fbytes;
    if (h->frag >= k->nfrags || len != (k->total - off < k->fbytes ? k->total - off : k->fbytes))
        return;
    if (h->frag + 1 > k->hi)
        k->hi = h->frag + 1;
    k->last_event = mc_now_us();
    k->stall_us = MC_STALL_US;
    if (!have(k, h->frag))
        recv_place(k, h->frag, payload);
}

static void recv_desc_done(mc_call_t *k)
{
    mc_slot_t head;
    memcpy(&head, k->bounce, MC_SLOT_HEAD);
    if (head.tag != k->tag || head.tag2 != k->tag)
        return; /* the root has not started this call yet */
    if (head.status) {
        fail(k, RMP_ERR_PEER);
        return;
    }
    if (head.fbytes != k->fbytes) {
        fail(k, RMP_ERR_INTERNAL);
        return;
    }
    int rc = recv_learn(k, head.total, head.addr, head.rkey);
    if (rc)
        fail(k, rc);
    else if (head.sent > k->sent_pending)
        k->sent_pending = head.sent;
    k->desc_at = mc_now_us();
}

static void recv_data_done(mc_call_t *k)
{
    for (uint32_t f = k->rd_a; f < k->rd_b; f++)
        recv_place(k, f, k->bounce + (size_t)(f - k->rd_a) * k->fbytes);
    k->last_event = mc_now_us();
    k->stall_us = MC_STALL_US;
}

static void read_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc)
{
    mc_call_t *k = (mc_call_t *)((char *)cb - offsetof(mc_call_t, rcb));
    verbs_sq_retire(v, &v->conns[k->rd_peer]);
    k->rc_out--;
    int kind = k->rd_kind;
    k->rd_kind = RD_NONE;
    if (wc->status != IBV_WC_SUCCESS)
        rc_failed(k, k->rd_peer, kind == RD_PROBE ? "probe READ" : "RDMA READ", wc);
    else if (kind == RD_DESC)
        recv_desc_done(k);
    else if (kind == RD_DATA)
        recv_data_done(k);
}

static void write_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc)
{
    mc_call_t *k = (mc_call_t *)((char *)cb - offsetof(mc_call_t, wcb));
    verbs_sq_retire(v, &v->conns[k->root_world]);
    k->rc_out--;
    if (wc->status != IBV_WC_SUCCESS)
        rc_failed(k, k->root_world, "RDMA WRITE", wc);
    else
        mc_nudge(v, k->root_world); /* the report is in its memory now: look */
}

/* Tell the root how far I hold the message in order, every MC_REPORT fragments (its window
 * moves on that), and when I have all I need: nfrags + 1, even for an empty message. */
static void recv_report(mc_call_t *k)
{
    uint32_t val = k->prefix >= k->need ? k->nfrags + 1 : k->prefix;
    if (val == k->reported || (val <= k->nfrags && val - k->reported < MC_REPORT))
        return;
    uint64_t addr;
    uint32_t rkey;
    if (verbs_ctrl_remote(k->v, k->root_world, &addr, &rkey)) {
        fail(k, RMP_ERR_INTERNAL);
        return;
    }
    verbs_conn_t *c = conn_ready(k, k->root_world);
    if (!c)
        return;
    k->wval = val;
    struct ibv_sge sg = {.addr = (uintptr_t)&k->wval, .length = 4};
    addr += (uint64_t)k->slot * MC_SLOT_BYTES + offsetof(mc_slot_t, prog) + 4u * (uint32_t)k->rank;
    struct ibv_send_wr wr = {.wr_id = verbs_cb_wrid(&k->wcb), .sg_list = &sg, .num_sge = 1,
                             .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_INLINE,
                             .wr.rdma = {.remote_addr = addr, .rkey = rkey}};
    k->wcb.done = write_done;
    if (verbs_post(k->v, c, &wr, true)) {
        fail(k, RMP_ERR_TRANSPORT);
        return;
    }
    k->rc_out++;
    k->reported = val;
}

/* Missing fragments below one that arrived (datagrams of one sender come in order), or below
 * what the root says it sent: READ them, several runs at once when the gaps between are short. */
static void recv_repair(mc_call_t *k)
{
    uint64_t addr;
    uint32_t rkey;
    if (verbs_ctrl_remote(k->v, k->root_world, &addr, &rkey)) {
        fail(k, RMP_ERR_INTERNAL);
        return;
    }
    size_t bmax = (size_t)k->fbytes * (MC_REPAIR_MAX / k->fbytes);
    size_t want = k->count < bmax ? (k->count + k->fbytes - 1) / k->fbytes * k->fbytes : bmax;
    if (bounce_get(k, want)) {
        fail(k, RMP_ERR_TRANSPORT);
        return;
    }
    uint32_t limit = k->hi > k->sent_seen ? k->hi : k->sent_seen;
    if (k->known && limit > k->need)
        limit = k->need;
    if (k->known && k->prefix < limit) {
        uint32_t a = k->prefix, last = a, cap = (uint32_t)(k->bounce_len / k->fbytes);
        for (uint32_t f = a; f < limit && f - a < cap; f++) {
            if (!have(k, f))
                last = f;
            else if (f - last > 8)
                break;
        }
        k->rd_a = a;
        k->rd_b = last + 1;
        uint64_t end = (uint64_t)k->rd_b * k->fbytes;
        post_read(k, k->root_world, RD_DATA, k->raddr + (uint64_t)a * k->fbytes, k->rkey,
                  (size_t)((end < k->total ? end : k->total) - (uint64_t)a * k->fbytes));
        return;
    }
    /* Nothing new for a while: what the root had sent at my last look and still has not come
     * is lost (a datagram takes far less than stall_us); else look at the slot again. */
    double now = mc_now_us();
    if (now - k->last_event < k->stall_us || now - k->desc_at < k->stall_us)
        return;
    if (k->sent_pending > k->sent_seen) {
        k->sent_seen = k->sent_pending;
        return; /* the next step READs them */
    }
    k->desc_at = now;
    k->stall_us = k->stall_us * 2 < MC_STALL_MAX_US ? k->stall_us * 2 : MC_STALL_MAX_US;
    post_read(k, k->root_world, RD_DESC, addr + (uint64_t)k->slot * MC_SLOT_BYTES, rkey,
              MC_SLOT_HEAD);
}

double mc_call_deadline(const mc_call_t *k)
{
    if (mc_call_is_root(k) || k->status || k->rd_kind != RD_NONE ||
        (k->known && k->prefix >= k->need))
        return 0;
    return (k->last_event > k->desc_at ? k->last_event : k->desc_at) + k->stall_us;
}

static int recv_step(mc_call_t *k)
{
    if (peer_gone(k, k->root_world))
        fail(k, RMP_ERR_PEER);
    if (k->status)
        return k->rc_out ? RMP_INPROGRESS : k->status;
    if (k->known && k->prefix >= k->need && k->reported == k->nfrags + 1)
        return k->rc_out ? RMP_INPROGRESS
                         : k->total > k->count ? RMP_ERR_TRUNCATE : RMP_SUCCESS;
    if (k->known)
        recv_report(k);
    if (k->rd_kind == RD_NONE && !k->status && !(k->known && k->prefix >= k->need))
        recv_repair(k);
    return RMP_INPROGRESS;
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
            fail(k, RMP_ERR_TRANSPORT);
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
        if (bounce_get(k, 64) || verbs_ctrl_remote(k->v, k->world[r], &addr, &rkey)) {
            fail(k, RMP_ERR_TRANSPORT);
            return;
        }
        post_read(k, k->world[r], RD_PROBE, addr, rkey, 8);
        return;
    }
}

static int root_step(mc_call_t *k)
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
        if (s->prog[r] <= k->nfrags && peer_gone(k, k->world[r]))
            fail(k, RMP_ERR_PEER);
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
        core_error(k->v->base.ctx, "verbs: mcast: a datagram of bcast %u (context %u) failed "
                   "on %s: %s", k->seq, k->ctx, k->v->devname, ibv_wc_status_str(wc->status));
        fail(k, RMP_ERR_TRANSPORT);
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
    *k = (mc_call_t){.base.be = &verbs_mcast_backend, .v = v, .ctx = comm->ctx_id,
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
    if (!mc_call_is_root(k))
        mc_stash_feed(v, k, k->ctx, k->seq);
    *req = &k->base;
    return RMP_SUCCESS;
}

int mc_call_progress(ofl_req_t *req)
{
    mc_call_t *k = (mc_call_t *)req;
    return mc_call_is_root(k) ? root_step(k) : recv_step(k);
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
        core_verbose(k->v->base.ctx, "verbs: mcast: ibv_dereg_mr (bcast buffer): %s",
                     strerror(errno));
    if (k->bmr && ibv_dereg_mr(k->bmr))
        core_verbose(k->v->base.ctx, "verbs: mcast: ibv_dereg_mr (repair buffer): %s",
                     strerror(errno));
    free(k->bounce);
    free(k->have);
    free(k->world);
    free(k);
}
