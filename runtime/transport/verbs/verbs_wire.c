/* verbs_wire.c — RC QPs wired by hand through the PMIx modex (the default, RMP_CM=ibv). The
 * modex has one fence, so every rank creates its per-peer QPs at open and publishes their
 * numbers (one per world rank) with its LID, GID, PSN and MTU; a peer's QP toward me is then
 * known to me without any further exchange. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/blob.h"
#include "transport/verbs/verbs.h"

/* QP capabilities shared by both wirings; fills a for an RC QP on the shared CQ and SRQ. */
int verbs_qp_caps(verbs_tp_t *v, struct ibv_qp_init_attr *a)
{
    memset(a, 0, sizeof(*a));
    a->send_cq = v->cq;
    a->recv_cq = v->cq;
    a->srq = v->srq;
    a->qp_type = IBV_QPT_RC;
    a->sq_sig_all = 0;
    a->cap.max_send_wr = v->sq_depth;
    a->cap.max_send_sge = 2; /* header + payload inline without a copy */
    a->cap.max_inline_data = v->max_inline;
    return RMP_SUCCESS;
}

void verbs_conn_init_tx(verbs_tp_t *v, verbs_conn_t *c)
{
    c->sq_free = v->sq_depth;
    c->unsig = 0;
    c->sig_head = c->sig_tail = 0;
    c->reads_out = 0;
}

/* Probe the largest inline size the device grants, from VERBS_INLINE_WANT down to none. */
static struct ibv_qp *create_qp(verbs_tp_t *v, int peer)
{
    struct ibv_qp_init_attr a;
    for (;;) {
        verbs_qp_caps(v, &a);
        struct ibv_qp *qp = ibv_create_qp(v->pd, &a);
        if (qp) {
            v->max_inline = a.cap.max_inline_data < v->max_inline ? a.cap.max_inline_data
                                                                  : v->max_inline;
            return qp;
        }
        if (errno != EINVAL || v->max_inline == 0) {
            int err = errno;
            tp_error(&v->base, "verbs: ibv_create_qp (RC, for rank %d) on %s: %s%s", peer,
                     v->devname, strerror(err), verbs_memlock_hint(err));
            return NULL;
        }
        v->max_inline /= 2;
        if (v->max_inline < 32)
            v->max_inline = 0;
    }
}

/* A QP toward `peer` is needed when the core may pick verbs for it (env->route: the core's
 * one rule), and toward every peer, me included, when the offload backends may run
 * (verbs_offload.c) or one-sided operations may need one atomic domain across nodes
 * (verbs_rma.c): they reach each member, on this node too, through the device. */
bool verbs_needs_qp(verbs_tp_t *v, int peer)
{
    return v->ofl_qps || v->rma_qps || v->base.env->route[peer];
}

static int qp_to_init(verbs_tp_t *v, verbs_conn_t *c)
{
    struct ibv_qp_attr a = {
        .qp_state = IBV_QPS_INIT,
        .pkey_index = 0,
        .port_num = v->port,
        .qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_LOCAL_WRITE |
                           IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC, /* MRs limit */
    };
    int rc = ibv_modify_qp(c->qp, &a,
                           IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
    if (rc) {
        tp_error(&v->base, "verbs: QP for rank %d to INIT on %s: %s", c->peer, v->devname,
                 strerror(rc));
        return RMP_ERR_TRANSPORT;
    }
    c->state = VC_INIT;
    return RMP_SUCCESS;
}

int verbs_wire_open(verbs_tp_t *v)
{
    const tp_env_t *env = v->base.env;
    v->blob_len = sizeof(verbs_blob_t) + (size_t)env->size * sizeof(uint32_t);
    v->blob = calloc(1, v->blob_len);
    if (!v->blob)
        return RMP_ERR_NO_MEM;
    int nqp = 0;
    for (int p = 0; p < env->size; p++) {
        verbs_conn_t *c = &v->conns[p];
        if (!verbs_needs_qp(v, p))
            continue;
        if (!(c->qp = create_qp(v, p)))
            return RMP_ERR_TRANSPORT;
        verbs_conn_init_tx(v, c);
        int rc = qp_to_init(v, c);
        if (rc != RMP_SUCCESS)
            return rc;
        v->blob->qpn[p] = c->qp->qp_num;
        nqp++;
    }
    verbs_blob_t *b = v->blob;
    b->magic = VERBS_BLOB_MAGIC;
    b->wiring = WIRE_IBV;
    b->link_layer = v->pattr.link_layer;
    b->mtu = (uint8_t)v->pattr.active_mtu;
    b->lid = v->pattr.lid;
    b->psn = v->psn;
    b->nqpn = (uint32_t)env->size;
    memcpy(b->gid, v->gid.raw, 16);
    tp_verbose(&v->base, "verbs: wiring by modex: %d RC QPs created, %s", nqp,
               v->eager_connect ? "all connected at init (RMP_CONNECT=eager)"
                                  : "receive-ready at init, send-ready on first use");
    return RMP_SUCCESS;
}

/* The peer's blob, checked. */
const verbs_blob_t *verbs_peer_blob(verbs_tp_t *v, int peer)
{
    const tp_env_t *env = v->base.env;
    const void *data;
    size_t len;
    if (peer == env->rank) {
        /* Loopback needs no modex: a singleton (no launcher) has none. */
        data = v->blob;
        len = v->blob_len;
    } else if (tp_modex_get(&v->base, peer, &data, &len) != RMP_SUCCESS) {
        tp_error(&v->base, "verbs: no address of rank %d in the modex", peer);
        return NULL;
    }
    const verbs_blob_t *b = data;
    switch (blob_verbs_check(data, len, env->size, (uint8_t)v->wiring, v->pattr.link_layer)) {
    case BLOB_OK:
        return b;
    case BLOB_MALFORMED:
        tp_error(&v->base, "verbs: rank %d published a malformed address (a different rmp build?)",
                 peer);
        return NULL;
    case BLOB_WIRING:
        tp_error(&v->base, "verbs: rank %d wires with %s but I use %s: set the same RMP_CM on "
                 "every rank", peer, b->wiring == WIRE_RDMACM ? "rdmacm" : "ibv",
                 v->wiring == WIRE_RDMACM ? "rdmacm" : "ibv");
        return NULL;
    case BLOB_FABRIC:
        tp_error(&v->base, "verbs: rank %d is on %s but I am on %s: pick devices of one fabric "
                 "with RMP_DEVICE", peer,
                 b->link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE" : "InfiniBand",
                 v->roce ? "RoCE" : "InfiniBand");
        return NULL;
    case BLOB_NQPN:
    default:
        tp_error(&v->base, "verbs: rank %d published QP numbers for %u ranks, the job has %d",
                 peer, b->nqpn, env->size);
        return NULL;
    }
}

static int qp_to_rtr(verbs_tp_t *v, verbs_conn_t *c, const verbs_blob_t *b)
{
    const tp_env_t *env = v->base.env;
    enum ibv_mtu mtu = b->mtu < v->pattr.active_mtu ? (enum ibv_mtu)b->mtu : v->pattr.active_mtu;
    struct ibv_qp_attr a = {
        .qp_state = IBV_QPS_RTR,
        .path_mtu = mtu,
        .dest_qp_num = b->qpn[env->rank],
        .rq_psn = b->psn,
        .max_dest_rd_atomic = (uint8_t)v->rd_atomic,
        .min_rnr_timer = VERBS_MIN_RNR_TIMER,
        .ah_attr = {.dlid = b->lid, .sl = 0, .src_path_bits = 0, .port_num = v->port},
    };
    /* RoCE always routes by GID (RoCE v2 packets are UDP/IP); InfiniBand by LID. hop_limit
     * must exceed 1 for RoCE v2 to leave the subnet. */
    if (v->roce) {
        a.ah_attr.is_global = 1;
        memcpy(a.ah_attr.grh.dgid.raw, b->gid, 16);
        a.ah_attr.grh.sgid_index = (uint8_t)v->gid_index;
        a.ah_attr.grh.hop_limit = 64;
    }
    int rc = ibv_modify_qp(c->qp, &a,
                           IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                               IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (rc) {
        char g[64];
        verbs_gid_str((const union ibv_gid *)b->gid, g, sizeof(g));
        tp_error(&v->base, "verbs: QP for rank %d to RTR on %s (remote QPN 0x%x, %s %s): %s%s",
                 c->peer, v->devname, a.dest_qp_num, v->roce ? "GID" : "LID",
                 v->roce ? g : "", strerror(rc),
                 v->roce ? " (is the peer's GID reachable? RMP_GID_INDEX picks another)" : "");
        return RMP_ERR_TRANSPORT;
    }
    c->remote_qpn = a.dest_qp_num;
    c->state = VC_RTR;
    if (env->verbose) { /* where the QP goes: on RoCE, the peer's GID (its host's address) */
        char g[64];
        if (v->roce)
            verbs_gid_str((const union ibv_gid *)b->gid, g, sizeof(g));
        else
            snprintf(g, sizeof(g), "%u", b->lid);
        tp_verbose(&v->base, "verbs: rank %d: QP 0x%x <-> 0x%x at %s %s, path MTU %s", c->peer,
                   c->qp->qp_num, c->remote_qpn, v->roce ? "GID" : "LID", g,
                   verbs_mtu_str(mtu));
    }
    return RMP_SUCCESS;
}

static int qp_to_rts(verbs_tp_t *v, verbs_conn_t *c)
{
    struct ibv_qp_attr a = {
        .qp_state = IBV_QPS_RTS,
        .timeout = v->ack_timeout,
        .retry_cnt = VERBS_RETRY_CNT,
        .rnr_retry = VERBS_RNR_RETRY,
        .sq_psn = v->psn,
        .max_rd_atomic = (uint8_t)v->rd_atomic,
    };
    int rc = ibv_modify_qp(c->qp, &a,
                           IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                               IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
    if (rc) {
        tp_error(&v->base, "verbs: QP for rank %d to RTS on %s: %s", c->peer, v->devname,
                 strerror(rc));
        return RMP_ERR_TRANSPORT;
    }
    c->state = VC_READY;
    return RMP_SUCCESS;
}

/* Every QP becomes receive-ready now: it costs no traffic, and a peer may send to me before I
 * ever send to it (there is no channel to tell me to get ready later). Sending waits for the
 * first use unless RMP_CONNECT=eager. */
int verbs_wire_wireup(verbs_tp_t *v)
{
    const tp_env_t *env = v->base.env;
    for (int p = 0; p < env->size; p++) {
        verbs_conn_t *c = &v->conns[p];
        if (!c->qp)
            continue;
        const verbs_blob_t *b = verbs_peer_blob(v, p);
        if (!b)
            return RMP_ERR_TRANSPORT;
        if (b->qpn[env->rank] == 0) {
            /* Its selection disagrees with mine (e.g. different RMP_TRANSPORT): it has no QP
             * for me, so verbs cannot reach it. */
            tp_error(&v->base, "verbs: rank %d has no QP for me: is RMP_TRANSPORT the same on "
                     "every rank?", p);
            return RMP_ERR_TRANSPORT;
        }
        int rc = qp_to_rtr(v, c, b);
        if (rc == RMP_SUCCESS && v->eager_connect)
            rc = qp_to_rts(v, c);
        if (rc != RMP_SUCCESS)
            return rc;
    }
    return RMP_SUCCESS;
}

int verbs_wire_connect(verbs_tp_t *v, int peer)
{
    verbs_conn_t *c = &v->conns[peer];
    if (c->state == VC_READY)
        return RMP_SUCCESS;
    if (c->state == VC_FAILED)
        return RMP_ERR_PEER;
    if (c->state != VC_RTR) {
        tp_error(&v->base, "verbs: no QP toward rank %d (it is on my node: is "
                 "RMP_TRANSPORT the same on every rank?)", peer);
        return RMP_ERR_TRANSPORT;
    }
    int rc = qp_to_rts(v, c);
    if (rc == RMP_SUCCESS)
        tp_verbose(&v->base, "verbs: rank %d: RC QP 0x%x ready to send (RTS) on first use",
                   peer, c->qp->qp_num);
    return rc;
}
