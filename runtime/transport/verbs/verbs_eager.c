/* verbs_eager.c — the eager path: sends from pre-registered bounce buffers (inline when small),
 * arrivals in buffers of one shared receive queue (SRQ) that go back to it as soon as the core
 * has copied them, send-queue slot accounting, and flow control.
 *
 * Flow control is the RNR retry of the hardware, not credits. All QPs share one SRQ, so
 * per-peer credits could only promise a free buffer by reserving window x peers buffers (which
 * defeats the SRQ), and credit returns are messages that need buffers themselves. Instead:
 * - a buffer is reposted right after the core copied its message out (each CQ poll), so the
 *   SRQ only drains while its owner is not polling;
 * - the SRQ-limit event (armed at a quarter of the posted buffers) says arrivals outran
 *   polling: the SRQ grows by a chunk, up to VERBS_SRQ_MAX buffers;
 * - if it still runs dry, the receiving HCA answers RNR NAK and the sender's HCA retries after
 *   min_rnr_timer, forever (rnr_retry 7): no CPU on either side, nothing lost. A dead receiver
 *   does not NAK at all, so it is still detected by the transport timeout.
 * The sender's own back-pressure is its send queue and bounce buffers: send() returns
 *   RMP_AGAIN and the core queues the packet.
 * The RNR timer, 1.28 ms (code 14): the owner of a dry SRQ is computing or asleep on the
 * completion channel (which the queued arrivals already signal). Waking and refilling takes
 * tens of microseconds up to a scheduler tick; retrying sooner mostly resends the message and
 * the window behind it into a full queue, retrying later leaves the receiver idle after it has
 * caught up. 1.28 ms caps both: under 800 retries/s per stalled pair, at most 1.28 ms of added
 * latency once the receiver polls again. */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/verbs/verbs.h"

static char *rx_buf(verbs_tp_t *v, uint32_t idx)
{
    return v->rx_chunks[idx / VERBS_SRQ_CHUNK].mem +
           (size_t)(idx % VERBS_SRQ_CHUNK) * VERBS_BUF_SIZE;
}

static uint32_t rx_lkey(verbs_tp_t *v, uint32_t idx)
{
    return v->rx_chunks[idx / VERBS_SRQ_CHUNK].mr->lkey;
}

/* ---- sends ------------------------------------------------------------------------------- */

int verbs_send(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
               size_t len)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    verbs_conn_t *c = &v->conns[peer];
    if (c->state != VC_READY) {
        if (c->state == VC_FAILED)
            return RMP_ERR_PEER;
        if (c->state == VC_CONNECTING || c->state == VC_WAIT_PEER)
            return RMP_AGAIN; /* rdmacm handshake under way: progress finishes it */
        tp_error(tp, "verbs: send to rank %d before it was connected", peer);
        return RMP_ERR_INTERNAL;
    }
    size_t total = hdrlen + len;
    if (total > tp->max_send) {
        tp_error(tp, "verbs: send of %zu bytes to rank %d exceeds max_send %zu", total,
                 peer, tp->max_send);
        return RMP_ERR_INTERNAL;
    }
    int rc = verbs_fast_send(v, c, hdr, hdrlen, payload, len);
    if (rc != RMP_ERR_NOT_SUPPORTED)
        return rc;
    if (c->sq_free == 0)
        return RMP_AGAIN;
    struct ibv_sge sge[2];
    struct ibv_send_wr wr = {
        .sg_list = sge,
        .opcode = IBV_WR_SEND_WITH_IMM,
        .imm_data = htobe32(verbs_fast_imm(v, c)), /* who sent it: the SRQ does not say */
    };
    if (total <= v->max_inline) {
        /* The HCA copies the bytes at post time: no bounce buffer, no lkey. */
        sge[0] = (struct ibv_sge){.addr = (uintptr_t)hdr, .length = (uint32_t)hdrlen};
        wr.num_sge = 1;
        if (len)
            sge[wr.num_sge++] = (struct ibv_sge){.addr = (uintptr_t)payload,
                                                 .length = (uint32_t)len};
        wr.send_flags = IBV_SEND_INLINE;
        wr.wr_id = verbs_send_wrid(peer, 0);
        rc = verbs_post(v, c, &wr, false);
        if (rc == RMP_SUCCESS) {
            v->st_sends++, v->st_inline++, c->fp.srq_sent++;
            verbs_fault_after_send(v, c);
        }
        return rc;
    }
    if (v->tx_nfree == 0)
        return RMP_AGAIN;
    uint32_t idx = v->tx_free[--v->tx_nfree];
    char *buf = v->tx_mem + (size_t)idx * VERBS_BUF_SIZE;
    memcpy(buf, hdr, hdrlen);
    if (len)
        memcpy(buf + hdrlen, payload, len);
    sge[0] = (struct ibv_sge){.addr = (uintptr_t)buf, .length = (uint32_t)total,
                              .lkey = v->tx_mr->lkey};
    wr.num_sge = 1;
    wr.wr_id = verbs_send_wrid(peer, idx + 1);
    rc = verbs_post(v, c, &wr, true); /* signaled: the buffer comes back with it */
    if (rc != RMP_SUCCESS)
        v->tx_free[v->tx_nfree++] = idx;
    else {
        v->st_sends++, c->fp.srq_sent++;
        verbs_fault_after_send(v, c);
    }
    return rc;
}

verbs_conn_t *verbs_on_send(verbs_tp_t *v, const struct ibv_wc *wc)
{
    int peer = (int)(wc->wr_id >> 34);
    uint32_t buf1 = (uint32_t)(wc->wr_id >> 2);
    if (buf1)
        v->tx_free[v->tx_nfree++] = buf1 - 1;
    if (peer < 0 || peer >= v->base.env->size)
        return NULL;
    verbs_conn_t *c = &v->conns[peer];
    if (wc->status != IBV_WC_SUCCESS) {
        char why[320];
        snprintf(why, sizeof(why), "send to rank %d on %s: %s%s", peer, v->devname,
                 ibv_wc_status_str(wc->status), verbs_wc_fix(wc->status));
        verbs_peer_failed(v, peer, why);
        return NULL;
    }
    verbs_sq_retire(v, c);
    c->heard = true; /* acknowledged: no keepalive probe due (verbs_keepalive.c) */
    return c;
}

/* ---- receives ---------------------------------------------------------------------------- */

void verbs_rx_flush(verbs_tp_t *v)
{
    while (v->rx_nrepost) {
        struct ibv_recv_wr wr[32], *bad;
        struct ibv_sge sge[32];
        uint32_t n = v->rx_nrepost < 32 ? v->rx_nrepost : 32;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t idx = v->rx_repost[v->rx_nrepost - 1 - i];
            sge[i] = (struct ibv_sge){.addr = (uintptr_t)rx_buf(v, idx),
                                      .length = VERBS_BUF_SIZE, .lkey = rx_lkey(v, idx)};
            wr[i] = (struct ibv_recv_wr){.wr_id = (uint64_t)idx << 2 | WR_RECV,
                                         .sg_list = &sge[i], .num_sge = 1,
                                         .next = i + 1 < n ? &wr[i + 1] : NULL};
        }
        int rc = ibv_post_srq_recv(v->srq, wr, &bad);
        if (rc) {
            /* Only a broken SRQ refuses buffers: report once; senders see RNR, then time out. */
            tp_error(&v->base, "verbs: ibv_post_srq_recv on %s: %s (receive buffers lost)",
                     v->devname, strerror(rc));
            v->rx_nrepost = 0;
            return;
        }
        v->rx_nrepost -= n;
    }
}

/* A packet whose claimed sender is not the peer its QP is wired to: the peer that really sent
 * it is failed as garbled (it speaks for another rank), the packet dropped. */
static void on_impostor(verbs_tp_t *v, int claimed, uint32_t qpn)
{
    int real = verbs_peer_of_qpn(v, qpn);
    char why[320];
    snprintf(why, sizeof(why), "a packet on its QP 0x%x claims to come from rank %d (%s)", qpn,
             claimed, v->devname);
    if (real >= 0)
        verbs_peer_failed(v, real, why);
    else
        tp_error(&v->base, "verbs: %s, and the QP is no peer's: dropped", why);
}

void verbs_on_recv(verbs_tp_t *v, const struct ibv_wc *wc)
{
    const tp_env_t *env = v->base.env;
    uint32_t idx = (uint32_t)(wc->wr_id >> 2);
    if (wc->status == IBV_WC_SUCCESS && wc->opcode == IBV_WC_RECV_RDMA_WITH_IMM) {
        /* An offload release (verbs_atomic.c): its data is in place, the completion only
         * wakes a rank asleep on the CQ. Nothing to deliver. */
        v->rx_repost[v->rx_nrepost++] = idx;
        return;
    }
    if (wc->status == IBV_WC_SUCCESS) {
        uint32_t imm = be32toh(wc->imm_data);
        int src = (wc->wc_flags & IBV_WC_WITH_IMM) ? verbs_fast_imm_src(v, imm) : -1;
        if (src < 0 || src >= env->size)
            tp_error(&v->base, "verbs: message without a valid sender rank (QP 0x%x) dropped",
                     wc->qp_num);
        else if (!verbs_conn_has_qpn(&v->conns[src], wc->qp_num)) /* the QP proves the sender */
            on_impostor(v, src, wc->qp_num);
        else if (v->conns[src].state != VC_FAILED &&
                 verbs_fast_before_srq(v, &v->conns[src], imm) == RMP_SUCCESS) {
            v->conns[src].heard = true; /* no keepalive probe due (verbs_keepalive.c) */
            tp_deliver(&v->base, src, rx_buf(v, idx), wc->byte_len);
            verbs_fast_after_srq(v, &v->conns[src]);
        }
        v->st_recvs++;
    } else if (wc->status != IBV_WC_WR_FLUSH_ERR) {
        int peer = verbs_peer_of_qpn(v, wc->qp_num);
        char why[320];
        snprintf(why, sizeof(why), "receive from rank %d on %s: %s%s", peer, v->devname,
                 ibv_wc_status_str(wc->status), verbs_wc_fix(wc->status));
        if (peer >= 0)
            verbs_peer_failed(v, peer, why);
        else
            tp_error(&v->base, "verbs: %s", why);
    }
    v->rx_repost[v->rx_nrepost++] = idx;
}

/* ---- SRQ growth -------------------------------------------------------------------------- */

static int srq_arm(verbs_tp_t *v)
{
    struct ibv_srq_attr a = {.srq_limit = v->srq_limit};
    int rc = ibv_modify_srq(v->srq, &a, IBV_SRQ_LIMIT);
    if (rc) {
        /* Not fatal: growth just stops, RNR still protects the receiver. */
        tp_verbose(&v->base, "verbs: arming the SRQ limit on %s: %s (the SRQ stays at %u "
                   "buffers)", v->devname, strerror(rc), v->rx_bufs);
        v->srq_limit = 0;
    }
    return RMP_SUCCESS;
}

static int rx_add_chunk(verbs_tp_t *v)
{
    verbs_chunk_t *k = &v->rx_chunks[v->rx_nchunks];
    size_t bytes = (size_t)VERBS_SRQ_CHUNK * VERBS_BUF_SIZE;
    if (posix_memalign((void **)&k->mem, 4096, bytes))
        return RMP_ERR_NO_MEM;
    k->mr = ibv_reg_mr(v->pd, k->mem, bytes, IBV_ACCESS_LOCAL_WRITE);
    if (!k->mr) {
        verbs_reg_error(v, "receive buffers", bytes, errno);
        free(k->mem);
        k->mem = NULL;
        return RMP_ERR_TRANSPORT;
    }
    uint32_t first = v->rx_nchunks * VERBS_SRQ_CHUNK;
    v->rx_nchunks++;
    for (uint32_t i = 0; i < VERBS_SRQ_CHUNK; i++)
        v->rx_repost[v->rx_nrepost++] = first + VERBS_SRQ_CHUNK - 1 - i;
    v->rx_bufs += VERBS_SRQ_CHUNK;
    verbs_rx_flush(v);
    return RMP_SUCCESS;
}

void verbs_srq_limit_event(verbs_tp_t *v)
{
    v->st_srq_events++;
    if (v->rx_bufs >= v->rx_max) {
        tp_verbose(&v->base, "verbs: SRQ low again at its maximum of %u buffers: senders "
                   "now wait on RNR until this rank polls", v->rx_bufs);
        return; /* not re-armed: no event storm while a slow receiver catches up */
    }
    if (rx_add_chunk(v) != RMP_SUCCESS)
        return;
    v->srq_limit = v->rx_bufs / 4;
    tp_verbose(&v->base, "verbs: SRQ ran low (arrivals outran polling): grown to %u "
               "buffers", v->rx_bufs);
    srq_arm(v);
}

/* ---- life cycle -------------------------------------------------------------------------- */

int verbs_eager_open(verbs_tp_t *v)
{
    /* Send side: one region of bounce buffers, registered once. */
    size_t bytes = (size_t)VERBS_TX_BUFS * VERBS_BUF_SIZE;
    if (posix_memalign((void **)&v->tx_mem, 4096, bytes) ||
        !(v->tx_free = malloc(VERBS_TX_BUFS * sizeof(uint32_t))))
        return RMP_ERR_NO_MEM;
    v->tx_mr = ibv_reg_mr(v->pd, v->tx_mem, bytes, IBV_ACCESS_LOCAL_WRITE);
    if (!v->tx_mr) {
        verbs_reg_error(v, "send bounce buffers", bytes, errno);
        return RMP_ERR_TRANSPORT;
    }
    for (uint32_t i = 0; i < VERBS_TX_BUFS; i++)
        v->tx_free[i] = VERBS_TX_BUFS - 1 - i;
    v->tx_nfree = VERBS_TX_BUFS;

    /* Receive side: the SRQ is created for its maximum and filled to its initial size. */
    uint32_t dev_max = (uint32_t)v->dattr.max_srq_wr - 1;
    v->rx_max = VERBS_SRQ_MAX < dev_max ? VERBS_SRQ_MAX
                                        : dev_max / VERBS_SRQ_CHUNK * VERBS_SRQ_CHUNK;
    uint32_t init = (uint32_t)verbs_env_count(v, "RMP_VERBS_SRQ", VERBS_SRQ_INIT, VERBS_SRQ_CHUNK,
                                        v->rx_max);
    init = (init + VERBS_SRQ_CHUNK - 1) / VERBS_SRQ_CHUNK * VERBS_SRQ_CHUNK;
    /* not the eager path's, but read with the other knobs of the queues: the QPs' ack timeout */
    v->ack_timeout = (uint8_t)verbs_env_count(v, "RMP_VERBS_TIMEOUT", VERBS_TIMEOUT, 8, 24);
    struct ibv_srq_init_attr sa = {.attr = {.max_wr = v->rx_max, .max_sge = 1}};
    v->srq = ibv_create_srq(v->pd, &sa);
    if (!v->srq) {
        int err = errno;
        tp_error(&v->base, "verbs: ibv_create_srq (%u buffers) on %s: %s%s", v->rx_max, v->devname,
                 strerror(err), verbs_memlock_hint(err));
        return RMP_ERR_TRANSPORT;
    }
    v->rx_chunks = calloc(v->rx_max / VERBS_SRQ_CHUNK, sizeof(verbs_chunk_t));
    v->rx_repost = malloc(v->rx_max * sizeof(uint32_t));
    if (!v->rx_chunks || !v->rx_repost)
        return RMP_ERR_NO_MEM;
    while (v->rx_bufs < init) {
        int rc = rx_add_chunk(v);
        if (rc != RMP_SUCCESS)
            return rc;
    }
    v->srq_limit = v->rx_bufs / 4;
    return srq_arm(v);
}

void verbs_eager_close(verbs_tp_t *v)
{
    if (v->srq && ibv_destroy_srq(v->srq))
        tp_verbose(&v->base, "verbs: ibv_destroy_srq: %s", strerror(errno));
    for (uint32_t i = 0; v->rx_chunks && i < v->rx_nchunks; i++) {
        if (v->rx_chunks[i].mr)
            ibv_dereg_mr(v->rx_chunks[i].mr);
        free(v->rx_chunks[i].mem);
    }
    free(v->rx_chunks);
    free(v->rx_repost);
    if (v->tx_mr)
        ibv_dereg_mr(v->tx_mr);
    free(v->tx_mem);
    free(v->tx_free);
}
