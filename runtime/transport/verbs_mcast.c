/* verbs_mcast.c — broadcast over UD multicast: one group per job (its address derived from the
 * PMIx namespace, joined through librdmacm at open), one UD QP per process attached to it, the
 * datagram intake (filtering, RMP_MCAST_DROP, early datagrams kept for a call not started yet)
 * and the choice, identical on every rank, of whether a bcast runs here (RMP_MCAST). One call's
 * protocol (fragments, repair, flow control) is in verbs_mcast_call.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transport/verbs_mcast.h"

double mc_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static const char *mc_mode(void)
{
    const char *s = verbs_env("RMP_MCAST");
    return s ? s : "auto";
}

uint8_t verbs_mcast_usable(const verbs_tp_t *v)
{
    const mc_state_t *mc = v->mcast;
    return mc && mc->usable;
}

/* ---- the group ------------------------------------------------------------------------------ */

/* The device's IPv4 address, from a RoCE v2 IPv4-mapped GID: librdmacm binds to it. */
static int mc_local_addr(verbs_tp_t *v, struct sockaddr_in *sa, char *why, size_t len)
{
    static const uint8_t v4map[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (!v->roce || memcmp(v->gid.raw, v4map, sizeof(v4map))) {
        snprintf(why, len, "GID index %d of %s is not an IPv4 RoCE address (pick one with "
                 "RMP_GID_INDEX)", v->gid_index, v->devname);
        return RMP_ERR_NOT_SUPPORTED;
    }
    *sa = (struct sockaddr_in){.sin_family = AF_INET};
    memcpy(&sa->sin_addr, v->gid.raw + 12, 4);
    return RMP_SUCCESS;
}

/* Join 239.a.b.c (a hash of the namespace: two jobs never share a group) and wait, bounded, for
 * librdmacm's answer: the MGID/MLID to attach to, the AH attributes and the Q_Key to send with. */
static int mc_join(verbs_tp_t *v, mc_state_t *mc, char *why, size_t len)
{
    struct sockaddr_in src;
    int rc = mc_local_addr(v, &src, why, len);
    if (rc)
        return rc;
    uint32_t h = mc->job;
    mc->maddr = (struct sockaddr_in){.sin_family = AF_INET,
                                     .sin_addr.s_addr = htonl(0xef000000u | (h & 0xffffff))};
    if (!(mc->ech = rdma_create_event_channel()) ||
        rdma_create_id(mc->ech, &mc->id, NULL, RDMA_PS_UDP) ||
        rdma_bind_addr(mc->id, (struct sockaddr *)&src) ||
        rdma_join_multicast(mc->id, (struct sockaddr *)&mc->maddr, NULL)) {
        snprintf(why, len, "librdmacm: joining the group failed: %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    struct pollfd pfd = {.fd = mc->ech->fd, .events = POLLIN};
    if ((rc = poll(&pfd, 1, MC_JOIN_MS)) <= 0) {
        snprintf(why, len, "librdmacm: no answer to the join within %d ms%s", MC_JOIN_MS,
                 rc < 0 ? " (poll failed)" : "");
        return RMP_ERR_TRANSPORT;
    }
    struct rdma_cm_event *e;
    if (rdma_get_cm_event(mc->ech, &e)) {
        snprintf(why, len, "rdma_get_cm_event: %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if (e->event != RDMA_CM_EVENT_MULTICAST_JOIN) {
        snprintf(why, len, "librdmacm answered the join with %s (status %d)",
                 rdma_event_str(e->event), e->status);
        rdma_ack_cm_event(e);
        return RMP_ERR_TRANSPORT;
    }
    mc->joined = true;
    struct ibv_ah_attr ah = e->param.ud.ah_attr;
    mc->remote_qpn = e->param.ud.qp_num;
    mc->qkey = e->param.ud.qkey;
    rdma_ack_cm_event(e);
    mc->mgid = ah.grh.dgid;
    mc->mlid = ah.dlid;
    if (!(mc->ah = ibv_create_ah(v->pd, &ah))) {
        snprintf(why, len, "ibv_create_ah for the group: %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    return RMP_SUCCESS;
}

/* ---- the UD QP ------------------------------------------------------------------------------ */

static int mc_post_recvs(verbs_tp_t *v, mc_state_t *mc, const uint32_t *idx, uint32_t n)
{
    struct ibv_sge sg[32];
    struct ibv_recv_wr wr[32], *bad;
    for (uint32_t done = 0; done < n;) {
        uint32_t k = n - done < 32 ? n - done : 32;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t b = idx[done + i];
            sg[i] = (struct ibv_sge){.addr = (uintptr_t)(mc->rx + (size_t)b * mc->rx_bytes),
                                     .length = mc->rx_bytes, .lkey = mc->rx_mr->lkey};
            wr[i] = (struct ibv_recv_wr){.wr_id = b, .sg_list = &sg[i], .num_sge = 1,
                                         .next = i + 1 < k ? &wr[i + 1] : NULL};
        }
        int rc = ibv_post_recv(mc->qp, wr, &bad);
        if (rc) {
            core_error(v->base.ctx, "verbs: mcast: ibv_post_recv on the UD QP: %s",
                       strerror(rc));
            return RMP_ERR_TRANSPORT;
        }
        done += k;
    }
    return RMP_SUCCESS;
}

static int mc_qp_up(verbs_tp_t *v, mc_state_t *mc, char *why, size_t len)
{
    struct ibv_qp_init_attr ia = {.send_cq = mc->cq, .recv_cq = mc->cq, .qp_type = IBV_QPT_UD,
                                  .cap = {.max_send_wr = MC_SQ, .max_recv_wr = MC_RQ,
                                          .max_send_sge = 2, .max_recv_sge = 1}};
    if (!(mc->qp = ibv_create_qp(v->pd, &ia))) {
        snprintf(why, len, "ibv_create_qp (UD): %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .port_num = v->port, .qkey = mc->qkey};
    int rc = ibv_modify_qp(mc->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                                           IBV_QP_QKEY);
    a = (struct ibv_qp_attr){.qp_state = IBV_QPS_RTR};
    if (!rc)
        rc = ibv_modify_qp(mc->qp, &a, IBV_QP_STATE);
    a = (struct ibv_qp_attr){.qp_state = IBV_QPS_RTS, .sq_psn = v->psn};
    if (!rc)
        rc = ibv_modify_qp(mc->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
    if (rc) {
        snprintf(why, len, "bringing the UD QP to RTS: %s", strerror(rc));
        return RMP_ERR_TRANSPORT;
    }
    if ((rc = ibv_attach_mcast(mc->qp, &mc->mgid, mc->mlid))) {
        snprintf(why, len, "ibv_attach_mcast: %s (the device allows %d QPs per group)",
                 strerror(rc), v->dattr.max_mcast_qp_attach);
        return RMP_ERR_TRANSPORT;
    }
    mc->attached = true;
    return RMP_SUCCESS;
}

static int mc_buffers(verbs_tp_t *v, mc_state_t *mc, char *why, size_t len)
{
    mc->rx_bytes = (mc->mtu + MC_GRH + 63u) & ~63u;
    size_t rx = (size_t)MC_RQ * mc->rx_bytes, tx = (size_t)MC_SQ * MC_HDR_BYTES;
    if (posix_memalign((void **)&mc->rx, 4096, rx) ||
        posix_memalign((void **)&mc->tx_hdr, 4096, tx)) {
        snprintf(why, len, "out of memory for %zu bytes of datagram buffers", rx + tx);
        return RMP_ERR_NO_MEM;
    }
    mc->rx_mr = ibv_reg_mr(v->pd, mc->rx, rx, IBV_ACCESS_LOCAL_WRITE);
    mc->tx_mr = mc->rx_mr ? ibv_reg_mr(v->pd, mc->tx_hdr, tx, 0) : NULL;
    if (!mc->tx_mr) {
        int err = errno;
        snprintf(why, len, "ibv_reg_mr of the datagram buffers: %s%s", strerror(err),
                 verbs_memlock_hint(err));
        return RMP_ERR_TRANSPORT;
    }
    uint32_t all[MC_RQ];
    for (uint32_t i = 0; i < MC_RQ; i++)
        all[i] = i;
    return mc_post_recvs(v, mc, all, MC_RQ);
}

static int mc_setup(verbs_tp_t *v, mc_state_t *mc, char *why, size_t len)
{
    int rc = mc_join(v, mc, why, len);
    if (rc)
        return rc;
    mc->mtu = 128u << v->pattr.active_mtu; /* IBV_MTU_256 = 1 */
    if (!(mc->cq = ibv_create_cq(v->dev, (int)(MC_RQ + MC_SQ + 16), NULL, NULL, 0))) {
        snprintf(why, len, "ibv_create_cq for the UD QP: %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if ((rc = mc_qp_up(v, mc, why, len)))
        return rc;
    return mc_buffers(v, mc, why, len);
}

static void mc_teardown(verbs_tp_t *v, mc_state_t *mc)
{
    rmp_ctx_t *ctx = v->base.ctx;
    if (mc->attached && ibv_detach_mcast(mc->qp, &mc->mgid, mc->mlid))
        core_verbose(ctx, "verbs: mcast: ibv_detach_mcast failed");
    if (mc->qp && ibv_destroy_qp(mc->qp))
        core_verbose(ctx, "verbs: mcast: ibv_destroy_qp (UD): %s", strerror(errno));
    if (mc->ah && ibv_destroy_ah(mc->ah))
        core_verbose(ctx, "verbs: mcast: ibv_destroy_ah: %s", strerror(errno));
    if (mc->cq && ibv_destroy_cq(mc->cq))
        core_verbose(ctx, "verbs: mcast: ibv_destroy_cq: %s", strerror(errno));
    if (mc->rx_mr && ibv_dereg_mr(mc->rx_mr))
        core_verbose(ctx, "verbs: mcast: ibv_dereg_mr (receive buffers): %s", strerror(errno));
    if (mc->tx_mr && ibv_dereg_mr(mc->tx_mr))
        core_verbose(ctx, "verbs: mcast: ibv_dereg_mr (headers): %s", strerror(errno));
    free(mc->rx);
    free(mc->tx_hdr);
    if (mc->joined && rdma_leave_multicast(mc->id, (struct sockaddr *)&mc->maddr))
        core_verbose(ctx, "verbs: mcast: rdma_leave_multicast: %s", strerror(errno));
    if (mc->id && rdma_destroy_id(mc->id))
        core_verbose(ctx, "verbs: mcast: rdma_destroy_id: %s", strerror(errno));
    if (mc->ech)
        rdma_destroy_event_channel(mc->ech);
    *mc = (mc_state_t){.job = mc->job};
}

/* Multicast that cannot be set up is not fatal: every bcast then says why it runs in software
 * (the blob tells every peer this rank has no group, so all of them choose alike). */
static int mcast_open(verbs_tp_t *v)
{
    rmp_ctx_t *ctx = v->base.ctx;
    if (!strcmp(mc_mode(), "off"))
        return RMP_SUCCESS;
    mc_state_t *mc = calloc(1, sizeof(*mc));
    if (!mc)
        return RMP_ERR_NO_MEM;
    v->mcast = mc;
    mc->job = fnv1a(ctx->nspace);
    mc->rng = ((uint64_t)mc->job << 32 | (uint32_t)ctx->rank) ^ (uint64_t)mc_now_us();
    const char *d = verbs_env("RMP_MCAST_DROP");
    mc->drop = d ? strtod(d, NULL) : 0.0; /* checked by the knob table */
    char why[200];
    if (mc_setup(v, mc, why, sizeof(why))) {
        mc_teardown(v, mc);
        if (!strcmp(mc_mode(), "on"))
            core_error(ctx, "verbs: mcast: RMP_MCAST=on but %s on %s: bcast runs in software",
                       why, v->devname);
        else
            core_verbose(ctx, "verbs: mcast: not available: %s on %s", why, v->devname);
        return RMP_SUCCESS;
    }
    mc->usable = true;
    char gid[64];
    verbs_gid_str(&mc->mgid, gid, sizeof(gid));
    core_verbose(ctx, "verbs: mcast: joined group %s (MGID %s) on %s; UD QP 0x%x, MTU %u "
                 "(%u-byte fragments), %u receive buffers, window %u fragments%s",
                 inet_ntoa(mc->maddr.sin_addr), gid, v->devname, mc->qp->qp_num, mc->mtu,
                 mc->mtu - MC_HDR_BYTES, MC_RQ, MC_WINDOW,
                 mc->drop > 0 ? " (RMP_MCAST_DROP: dropping datagrams for testing)" : "");
    return RMP_SUCCESS;
}

static int mcast_wireup(verbs_tp_t *v)
{
    (void)v;
    return RMP_SUCCESS;
}

static void mcast_close(verbs_tp_t *v)
{
    mc_state_t *mc = v->mcast;
    if (!mc)
        return;
    if (mc->usable && mc->st_calls)
        core_verbose(v->base.ctx, "verbs: mcast: %llu bcasts; %llu datagrams sent, %llu "
                     "received, %llu dropped on purpose (RMP_MCAST_DROP), %llu of other jobs; "
                     "repaired by %llu RDMA READs of %llu bytes",
                     (unsigned long long)mc->st_calls, (unsigned long long)mc->st_sent,
                     (unsigned long long)mc->st_recv, (unsigned long long)mc->st_dropped,
                     (unsigned long long)mc->st_foreign, (unsigned long long)mc->st_reads,
                     (unsigned long long)mc->st_read_bytes);
    mc_teardown(v, mc);
    free(mc);
    v->mcast = NULL;
}

/* ---- sends and the datagram intake ---------------------------------------------------------- */

/* Fragments [h->frag, h->frag + n) of k's buffer to the group, in one post (one doorbell: on
 * soft-RoCE every post is a system call). Returns how many were posted, -1 on an error. */
int mc_post_frags(verbs_tp_t *v, mc_call_t *k, const mc_hdr_t *h, const char *buf,
                  uint32_t fbytes, uint32_t lkey, uint32_t n)
{
    mc_state_t *mc = v->mcast;
    struct ibv_sge sg[MC_SEND_BATCH][2];
    struct ibv_send_wr wr[MC_SEND_BATCH], *bad = NULL;
    for (uint32_t i = 0; i < n; i++) {
        mc_hdr_t *slot = &mc->tx_hdr[(mc->tx_next + i) % MC_SQ];
        *slot = *h;
        slot->frag = h->frag + i;
        uint64_t off = (uint64_t)slot->frag * fbytes;
        uint32_t len = (uint32_t)(h->total - off < fbytes ? h->total - off : fbytes);
        sg[i][0] = (struct ibv_sge){.addr = (uintptr_t)slot, .length = MC_HDR_BYTES,
                                    .lkey = mc->tx_mr->lkey};
        sg[i][1] = (struct ibv_sge){.addr = (uintptr_t)(buf + off), .length = len, .lkey = lkey};
        wr[i] = (struct ibv_send_wr){.wr_id = (uintptr_t)k, .sg_list = sg[i], .num_sge = 2,
                                     .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
                                     .next = i + 1 < n ? &wr[i + 1] : NULL,
                                     .wr.ud = {.ah = mc->ah, .remote_qpn = mc->remote_qpn,
                                               .remote_qkey = mc->qkey}};
    }
    int rc = ibv_post_send(mc->qp, wr, &bad);
    uint32_t posted = rc ? (uint32_t)(bad - wr) : n;
    mc->tx_next += posted;
    mc->sq_out += posted;
    mc->st_sent += posted;
    if (rc) {
        core_error(v->base.ctx, "verbs: mcast: ibv_post_send on the UD QP: %s", strerror(rc));
        return -1;
    }
    return (int)posted;
}

static bool mc_drop_one(mc_state_t *mc)
{
    if (mc->drop <= 0)
        return false;
    mc->rng ^= mc->rng << 13; /* xorshift64 */
    mc->rng ^= mc->rng >> 7;
    mc->rng ^= mc->rng << 17;
    return (double)(mc->rng >> 11) / 9007199254740992.0 < mc->drop;
}

static void mc_repost(mc_state_t *mc, uint32_t b)
{
    mc->repost[mc->nrepost++] = b;
}

/* Whether buffer b holds a datagram of this job meant for someone else than its sender. */
static bool mc_parse(verbs_tp_t *v, mc_state_t *mc, uint32_t b, uint32_t len, mc_hdr_t *h)
{
    if (len < MC_GRH + MC_HDR_BYTES)
        return false;
    memcpy(h, mc->rx + (size_t)b * mc->rx_bytes + MC_GRH, sizeof(*h));
    if (h->job != mc->job) {
        mc->st_foreign++;
        return false;
    }
    return h->root != (uint32_t)v->base.ctx->rank; /* our own, looped back */
}

static void mc_deliver(verbs_tp_t *v, mc_state_t *mc, mc_call_t *k, uint32_t b, uint32_t len,
                       const mc_hdr_t *h)
{
    const char *p = mc->rx + (size_t)b * mc->rx_bytes + MC_GRH + MC_HDR_BYTES;
    (void)v;
    mc_call_datagram(k, h, p, len - MC_GRH - MC_HDR_BYTES);
}

static void mc_on_recv(verbs_tp_t *v, mc_state_t *mc, uint32_t b, uint32_t len)
{
    mc_hdr_t h;
    if (!mc_parse(v, mc, b, len, &h)) {
        mc_repost(mc, b);
        return;
    }
    if (mc_drop_one(mc)) {
        mc->st_dropped++;
        mc_repost(mc, b);
        return;
    }
    mc->st_recv++;
    mc_call_t *k = mc_call_find(mc, h.ctx, h.seq);
    if (k) {
        mc_deliver(v, mc, k, b, len, &h);
        mc_repost(mc, b);
        return;
    }
    /* No such call here yet: keep it for when the call starts, the oldest making room. */
    if (mc->stash_n == MC_STASH_MAX) {
        mc_repost(mc, mc->stash[mc->stash_head]);
        mc->stash_head = (mc->stash_head + 1) % MC_STASH_MAX;
        mc->stash_n--;
    }
    uint32_t at = (mc->stash_head + mc->stash_n++) % MC_STASH_MAX;
    mc->stash[at] = b;
    mc->stash_len[at] = len;
}

/* Take the stashed datagrams of (ctx, seq) out (all seqs when any_seq): to k, or dropped. */
static void mc_stash_take(verbs_tp_t *v, mc_state_t *mc, mc_call_t *k, uint32_t ctx,
                          uint32_t seq, bool any_seq)
{
    uint32_t keep = 0, n = mc->stash_n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = (mc->stash_head + i) % MC_STASH_MAX, b = mc->stash[at];
        mc_hdr_t h;
        memcpy(&h, mc->rx + (size_t)b * mc->rx_bytes + MC_GRH, sizeof(h));
        if (h.ctx == ctx && (any_seq || h.seq == seq)) {
            if (k)
                mc_deliver(v, mc, k, b, mc->stash_len[at], &h);
            mc_repost(mc, b);
            continue;
        }
        uint32_t to = (mc->stash_head + keep++) % MC_STASH_MAX;
        mc->stash[to] = b;
        mc->stash_len[to] = mc->stash_len[at];
    }
    mc->stash_n = keep;
}

void mc_stash_feed(verbs_tp_t *v, mc_call_t *k, uint32_t ctx, uint32_t seq)
{
    mc_stash_take(v, v->mcast, k, ctx, seq, false);
}

void mc_stash_drop(mc_state_t *mc, uint32_t ctx)
{
    mc_stash_take(NULL, mc, NULL, ctx, 0, true);
}

static int mcast_progress_tp(verbs_tp_t *v)
{
    mc_state_t *mc = v->mcast;
    if (!mc || !mc->usable)
        return 0;
    struct ibv_wc wc[32];
    int k = ibv_poll_cq(mc->cq, 32, wc);
    if (k < 0) {
        core_error(v->base.ctx, "verbs: mcast: ibv_poll_cq on the UD CQ failed");
        k = 0;
    }
    for (int i = 0; i < k; i++) {
        if (wc[i].opcode & IBV_WC_RECV) {
            if (wc[i].status == IBV_WC_SUCCESS)
                mc_on_recv(v, mc, (uint32_t)wc[i].wr_id, wc[i].byte_len);
            else if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
                mc_repost(mc, (uint32_t)wc[i].wr_id);
            continue;
        }
        mc->sq_out--;
        mc_call_sent((mc_call_t *)(uintptr_t)wc[i].wr_id, &wc[i]);
    }
    if (mc->nrepost && mc_post_recvs(v, mc, mc->repost, mc->nrepost) == RMP_SUCCESS)
        mc->nrepost = 0;
    /* A call in flight waits on memory peers write (no completion wakes us): keep the
     * progress engine polling rather than sleeping, but give the CPU away while idle. */
    if (mc->calls && k == 0) {
        sched_yield();
        return 1;
    }
    return k;
}

/* ---- the choice ----------------------------------------------------------------------------- */

static int mc_comm_facts(verbs_tp_t *v, const ofl_comm_t *comm, mc_comm_t **cc_p)
{
    if (*comm->state) {
        *cc_p = *comm->state;
        return RMP_SUCCESS;
    }
    mc_comm_t *cc = calloc(1, sizeof(*cc));
    int *nodes = calloc((size_t)comm->size, sizeof(int));
    if (!cc || !nodes) {
        free(cc);
        free(nodes);
        return RMP_ERR_NO_MEM;
    }
    cc->unusable = -1;
    uint32_t mtu = 1u << 30;
    for (int r = 0; r < comm->size; r++) {
        int w = comm->world[r];
        const verbs_blob_t *b = verbs_peer_blob(v, w);
        if (!b || !b->mcast) {
            if (cc->unusable < 0)
                cc->unusable = r;
        } else if ((128u << b->mtu) < mtu) {
            mtu = 128u << b->mtu;
        }
        int node = v->base.ctx->peers[w].node, j = 0;
        while (j < cc->nodes && nodes[j] != node)
            j++;
        if (j == cc->nodes)
            nodes[cc->nodes++] = node;
    }
    free(nodes);
    cc->fbytes = cc->unusable < 0 ? mtu - MC_HDR_BYTES : 0;
    *comm->state = cc;
    *cc_p = cc;
    return RMP_SUCCESS;
}

/* Decided from RMP_MCAST, what every member published, the nodes and the byte count only:
 * every rank of the communicator reaches the same answer. */
static int mcast_start(verbs_tp_t *v, const ofl_comm_t *comm, const ofl_args_t *a,
                       ofl_req_t **req, char *why, size_t len)
{
    const char *mode = mc_mode();
    mc_comm_t *cc;
    if (!strcmp(mode, "off")) {
        snprintf(why, len, "RMP_MCAST=off");
        return RMP_ERR_NOT_SUPPORTED;
    }
    int rc = mc_comm_facts(v, comm, &cc);
    if (rc)
        return rc;
    if (cc->unusable >= 0) {
        snprintf(why, len, "mcast: rank %d of the communicator has no multicast group (its "
                 "RMP_VERBOSE says why)", cc->unusable);
        return RMP_ERR_NOT_SUPPORTED;
    }
    if (comm->size > (int)MC_SLOT_RANKS) {
        snprintf(why, len, "mcast: %d ranks, more than the %u it serves", comm->size,
                 MC_SLOT_RANKS);
        return RMP_ERR_NOT_SUPPORTED;
    }
    if (!strcmp(mode, "auto") && cc->nodes < MC_AUTO_NODES) {
        snprintf(why, len, "mcast (RMP_MCAST=auto): the communicator spans %d node%s, fewer "
                 "than %d", cc->nodes, cc->nodes == 1 ? "" : "s", MC_AUTO_NODES);
        return RMP_ERR_NOT_SUPPORTED;
    }
    if (!strcmp(mode, "auto") && a->bytes < MC_AUTO_MIN_BYTES) {
        snprintf(why, len, "mcast (RMP_MCAST=auto): %zu bytes, below the %u where multicast "
                 "wins", a->bytes, MC_AUTO_MIN_BYTES);
        return RMP_ERR_NOT_SUPPORTED;
    }
    rc = mc_call_start(v, comm, cc, a, req);
    if (rc == RMP_SUCCESS)
        snprintf(why, len, "mcast: RMP_MCAST=%s, %d nodes, %u-byte datagrams", mode, cc->nodes,
                 cc->fbytes + MC_HDR_BYTES);
    return rc;
}

/* Its context id may be reused by a new communicator: datagrams kept for it must not reach
 * that one's calls. */
static void mcast_comm_free(verbs_tp_t *v, const ofl_comm_t *comm)
{
    mc_state_t *mc = v->mcast;
    if (mc && mc->usable)
        mc_stash_drop(mc, comm->ctx_id);
    free(*comm->state);
    *comm->state = NULL;
}

const verbs_ofl_backend_t verbs_mcast_backend = {
    .name = "mcast", .start = mcast_start, .progress = mc_call_progress,
    .finish = mc_call_finish, .comm_free = mcast_comm_free, .open = mcast_open,
    .wireup = mcast_wireup, .progress_tp = mcast_progress_tp, .close = mcast_close,
};
