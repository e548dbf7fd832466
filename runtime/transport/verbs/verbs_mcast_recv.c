/* verbs_mcast_recv.c — a receiver of a multicast bcast: datagrams copied into place, what is
 * missing repaired by RDMA READ from the root's buffer (a gap below a later fragment, or
 * nothing new for a stall period: then the root's slot says what was sent), and its in-order
 * progress RDMA WRITten into the root's slot, followed by a datagram that wakes the root. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/verbs/verbs_mcast.h"

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
    while (k->prefix < k->nfrags && mc_have(k, k->prefix))
        k->prefix++;
}

void mc_call_datagram(mc_call_t *k, const mc_hdr_t *h, const char *payload, uint32_t len)
{
    if (mc_call_is_root(k) || h->root != (uint32_t)k->root_world || k->status)
        return;
    int rc = recv_learn(k, h->total, h->raddr, h->rkey);
    if (rc) {
        tp_error(&k->v->base, "verbs: mcast: a datagram of bcast %u on context %u "
                 "disagrees with the call (%llu bytes from rank %d)", k->seq, k->ctx,
                 (unsigned long long)h->total, k->root);
        mc_fail(k, rc);
        return;
    }
    uint64_t off = (uint64_t)h->frag * k->fbytes;
    if (h->frag >= k->nfrags || len != (k->total - off < k->fbytes ? k->total - off : k->fbytes))
        return;
    if (h->frag + 1 > k->hi)
        k->hi = h->frag + 1;
    k->last_event = mc_now_us();
    k->stall_us = MC_STALL_US;
    if (!mc_have(k, h->frag))
        recv_place(k, h->frag, payload);
}

void mc_recv_desc_done(mc_call_t *k)
{
    mc_slot_t head;
    memcpy(&head, k->bounce, MC_SLOT_HEAD);
    if (head.tag != k->tag || head.tag2 != k->tag)
        return; /* the root has not started this call yet */
    if (head.status) {
        mc_fail(k, RMP_ERR_PEER);
        return;
    }
    if (head.fbytes != k->fbytes) {
        mc_fail(k, RMP_ERR_INTERNAL);
        return;
    }
    int rc = recv_learn(k, head.total, head.addr, head.rkey);
    if (rc)
        mc_fail(k, rc);
    else if (head.sent > k->sent_pending)
        k->sent_pending = head.sent;
    k->desc_at = mc_now_us();
}

void mc_recv_data_done(mc_call_t *k)
{
    for (uint32_t f = k->rd_a; f < k->rd_b; f++)
        recv_place(k, f, k->bounce + (size_t)(f - k->rd_a) * k->fbytes);
    k->last_event = mc_now_us();
    k->stall_us = MC_STALL_US;
}

static void write_done(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc)
{
    mc_call_t *k = (mc_call_t *)((char *)cb - offsetof(mc_call_t, wcb));
    verbs_sq_retire(v, &v->conns[k->root_world]);
    k->rc_out--;
    if (wc->status != IBV_WC_SUCCESS)
        mc_rc_failed(k, k->root_world, "RDMA WRITE", wc);
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
        mc_fail(k, RMP_ERR_INTERNAL);
        return;
    }
    verbs_conn_t *c = mc_conn_ready(k, k->root_world);
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
        mc_fail(k, RMP_ERR_TRANSPORT);
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
        mc_fail(k, RMP_ERR_INTERNAL);
        return;
    }
    size_t bmax = (size_t)k->fbytes * (MC_REPAIR_MAX / k->fbytes);
    size_t want = k->count < bmax ? (k->count + k->fbytes - 1) / k->fbytes * k->fbytes : bmax;
    if (mc_bounce_get(k, want)) {
        mc_fail(k, RMP_ERR_TRANSPORT);
        return;
    }
    uint32_t limit = k->hi > k->sent_seen ? k->hi : k->sent_seen;
    if (k->known && limit > k->need)
        limit = k->need;
    if (k->known && k->prefix < limit) {
        uint32_t a = k->prefix, last = a, cap = (uint32_t)(k->bounce_len / k->fbytes);
        for (uint32_t f = a; f < limit && f - a < cap; f++) {
            if (!mc_have(k, f))
                last = f;
            else if (f - last > 8)
                break;
        }
        k->rd_a = a;
        k->rd_b = last + 1;
        uint64_t end = (uint64_t)k->rd_b * k->fbytes;
        mc_post_read(k, k->root_world, RD_DATA, k->raddr + (uint64_t)a * k->fbytes, k->rkey,
                     (size_t)((end < k->total ? end : k->total) - (uint64_t)a * k->fbytes),
                     mc_recv_data_done);
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
    mc_post_read(k, k->root_world, RD_DESC, addr + (uint64_t)k->slot * MC_SLOT_BYTES, rkey,
                 MC_SLOT_HEAD, mc_recv_desc_done);
}

double mc_call_deadline(const mc_call_t *k)
{
    if (mc_call_is_root(k) || k->status || k->rd_kind != RD_NONE ||
        (k->known && k->prefix >= k->need))
        return 0;
    return (k->last_event > k->desc_at ? k->last_event : k->desc_at) + k->stall_us;
}

int mc_recv_step(mc_call_t *k)
{
    if (mc_peer_gone(k, k->root_world))
        mc_fail(k, RMP_ERR_PEER);
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
