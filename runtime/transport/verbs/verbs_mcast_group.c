/* verbs_mcast_group.c — the multicast backend's standing resources: the job's group (its
 * address derived from the PMIx namespace, joined through librdmacm at open, left at close),
 * the UD QP attached to it with its buffers, CQ, completion channel and stall timer, and the
 * address handles toward peers' UD QPs. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "transport/verbs/verbs_mcast.h"

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

const char *mc_mode(const verbs_tp_t *v)
{
    const char *s = tp_knob(&v->base, "RMP_MCAST");
    return s ? s : "auto";
}

uint32_t verbs_mcast_qpn(const verbs_tp_t *v)
{
    const mc_state_t *mc = v->mcast;
    return mc && mc->usable ? mc->qp->qp_num : 0;
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

int mc_post_recvs(verbs_tp_t *v, mc_state_t *mc, const uint32_t *idx, uint32_t n)
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
            tp_error(&v->base, "verbs: mcast: ibv_post_recv on the UD QP: %s",
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
    if (!(mc->chan = ibv_create_comp_channel(v->dev)) ||
        !(mc->cq = ibv_create_cq(v->dev, (int)(MC_RQ + MC_SQ + 16), NULL, mc->chan, 0))) {
        snprintf(why, len, "a CQ for the UD QP: %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if ((mc->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)) < 0) {
        snprintf(why, len, "timerfd_create: %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if (verbs_watch_fd(v, mc->chan->fd, "multicast completion channel") ||
        verbs_watch_fd(v, mc->tfd, "multicast timer")) {
        snprintf(why, len, "no wake-ups for the UD QP");
        return RMP_ERR_TRANSPORT;
    }
    if (!(mc->peer_ah = calloc((size_t)v->base.env->size, sizeof(*mc->peer_ah)))) {
        snprintf(why, len, "out of memory");
        return RMP_ERR_NO_MEM;
    }
    if ((rc = mc_qp_up(v, mc, why, len)))
        return rc;
    return mc_buffers(v, mc, why, len);
}

static void mc_teardown(verbs_tp_t *v, mc_state_t *mc)
{
    const tp_env_t *env = v->base.env;
    if (mc->attached && ibv_detach_mcast(mc->qp, &mc->mgid, mc->mlid))
        tp_verbose(&v->base, "verbs: mcast: ibv_detach_mcast failed");
    if (mc->qp && ibv_destroy_qp(mc->qp))
        tp_verbose(&v->base, "verbs: mcast: ibv_destroy_qp (UD): %s", strerror(errno));
    if (mc->ah && ibv_destroy_ah(mc->ah))
        tp_verbose(&v->base, "verbs: mcast: ibv_destroy_ah: %s", strerror(errno));
    for (int p = 0; mc->peer_ah && p < env->size; p++)
        if (mc->peer_ah[p] && ibv_destroy_ah(mc->peer_ah[p]))
            tp_verbose(&v->base, "verbs: mcast: ibv_destroy_ah (rank %d): %s", p, strerror(errno));
    free(mc->peer_ah);
    if (mc->cq && ibv_destroy_cq(mc->cq)) /* events were acknowledged as they were taken */
        tp_verbose(&v->base, "verbs: mcast: ibv_destroy_cq: %s", strerror(errno));
    if (mc->chan && ibv_destroy_comp_channel(mc->chan))
        tp_verbose(&v->base, "verbs: mcast: ibv_destroy_comp_channel: %s", strerror(errno));
    if (mc->tfd >= 0)
        close(mc->tfd);
    if (mc->rx_mr && ibv_dereg_mr(mc->rx_mr))
        tp_verbose(&v->base, "verbs: mcast: ibv_dereg_mr (receive buffers): %s", strerror(errno));
    if (mc->tx_mr && ibv_dereg_mr(mc->tx_mr))
        tp_verbose(&v->base, "verbs: mcast: ibv_dereg_mr (headers): %s", strerror(errno));
    free(mc->rx);
    free(mc->tx_hdr);
    if (mc->joined && rdma_leave_multicast(mc->id, (struct sockaddr *)&mc->maddr))
        tp_verbose(&v->base, "verbs: mcast: rdma_leave_multicast: %s", strerror(errno));
    if (mc->id && rdma_destroy_id(mc->id))
        tp_verbose(&v->base, "verbs: mcast: rdma_destroy_id: %s", strerror(errno));
    if (mc->ech)
        rdma_destroy_event_channel(mc->ech);
    *mc = (mc_state_t){.job = mc->job, .tfd = -1};
}

/* Multicast that cannot be set up is not fatal: every bcast then says why it runs in software
 * (the blob tells every peer this rank has no group, so all of them choose alike). */
int mc_open(verbs_tp_t *v)
{
    const tp_env_t *env = v->base.env;
    if (strcmp(mc_mode(v), "on")) {
        /* auto has no window where multicast wins (verbs_mcast.h): no group, no pinned
         * buffers, no join at start-up until it has one. */
        tp_verbose(&v->base, "verbs: mcast: no group joined (RMP_MCAST=%s%s)", mc_mode(v),
                   strcmp(mc_mode(v), "off") ? ": multicast won at no size measured, see "
                                                "bench/README.md; RMP_MCAST=on joins" : "");
        return RMP_SUCCESS;
    }
    mc_state_t *mc = calloc(1, sizeof(*mc));
    if (!mc)
        return RMP_ERR_NO_MEM;
    v->mcast = mc;
    mc->tfd = -1;
    mc->job = fnv1a(env->nspace);
    mc->rng = ((uint64_t)mc->job << 32 | (uint32_t)env->rank) ^ (uint64_t)mc_now_us();
    const char *d = tp_knob(&v->base, "RMP_MCAST_DROP");
    mc->drop = d ? strtod(d, NULL) : 0.0; /* checked by the knob table */
    char why[200];
    if (mc_setup(v, mc, why, sizeof(why))) {
        mc_teardown(v, mc);
        if (!strcmp(mc_mode(v), "on"))
            tp_error(&v->base, "verbs: mcast: RMP_MCAST=on but %s on %s: bcast runs in software",
                     why, v->devname);
        else
            tp_verbose(&v->base, "verbs: mcast: not available: %s on %s", why, v->devname);
        return RMP_SUCCESS;
    }
    mc->usable = true;
    char gid[64];
    verbs_gid_str(&mc->mgid, gid, sizeof(gid));
    tp_verbose(&v->base, "verbs: mcast: joined group %s (MGID %s) on %s; UD QP 0x%x, MTU %u "
               "(%u-byte fragments), %u receive buffers, window %u fragments%s",
               inet_ntoa(mc->maddr.sin_addr), gid, v->devname, mc->qp->qp_num, mc->mtu,
               mc->mtu - MC_HDR_BYTES, MC_RQ, MC_WINDOW,
               mc->drop > 0 ? " (RMP_MCAST_DROP: dropping datagrams for testing)" : "");
    return RMP_SUCCESS;
}

int mc_wireup(verbs_tp_t *v)
{
    (void)v;
    return RMP_SUCCESS;
}

void mc_close(verbs_tp_t *v)
{
    mc_state_t *mc = v->mcast;
    if (!mc)
        return;
    if (mc->usable && mc->st_calls)
        tp_verbose(&v->base, "verbs: mcast: %llu bcasts; %llu datagrams sent, %llu "
                   "received, %llu dropped on purpose (RMP_MCAST_DROP), %llu of other jobs; "
                   "repaired by %llu RDMA READs of %llu bytes; %llu wake-ups",
                   (unsigned long long)mc->st_calls, (unsigned long long)mc->st_sent,
                   (unsigned long long)mc->st_recv, (unsigned long long)mc->st_dropped,
                   (unsigned long long)mc->st_foreign, (unsigned long long)mc->st_reads,
                   (unsigned long long)mc->st_read_bytes, (unsigned long long)mc->st_nudges);
    mc_teardown(v, mc);
    free(mc);
    v->mcast = NULL;
}

/* ---- toward a peer's UD QP ------------------------------------------------------------------- */

/* An address handle to rank w's port (from its blob), made on first use. */
static struct ibv_ah *mc_peer_ah(verbs_tp_t *v, mc_state_t *mc, int w, uint32_t *qpn)
{
    const verbs_blob_t *b = verbs_peer_blob(v, w);
    if (!b || !b->mcast_qpn)
        return NULL;
    *qpn = b->mcast_qpn;
    if (mc->peer_ah[w])
        return mc->peer_ah[w];
    struct ibv_ah_attr a = {.dlid = b->lid, .port_num = v->port};
    if (v->roce || b->link_layer == IBV_LINK_LAYER_ETHERNET) {
        a.is_global = 1;
        a.grh.hop_limit = 64;
        a.grh.sgid_index = (uint8_t)v->gid_index;
        memcpy(a.grh.dgid.raw, b->gid, sizeof(b->gid));
    }
    if (!(mc->peer_ah[w] = ibv_create_ah(v->pd, &a)))
        tp_verbose(&v->base, "verbs: mcast: ibv_create_ah toward rank %d: %s (it will "
                   "wake up late)", w, strerror(errno));
    return mc->peer_ah[w];
}

void mc_nudge(verbs_tp_t *v, int w)
{
    mc_state_t *mc = v->mcast;
    uint32_t qpn;
    struct ibv_ah *ah = mc->sq_out < MC_SQ ? mc_peer_ah(v, mc, w, &qpn) : NULL;
    if (!ah)
        return; /* it wakes up at its block timeout instead */
    mc_hdr_t *h = &mc->tx_hdr[mc->tx_next % MC_SQ];
    *h = (mc_hdr_t){.frag = MC_NUDGE, .root = (uint32_t)v->base.env->rank, .job = mc->job};
    struct ibv_sge sg = {.addr = (uintptr_t)h, .length = MC_HDR_BYTES, .lkey = mc->tx_mr->lkey};
    struct ibv_send_wr wr = {.wr_id = 0, .sg_list = &sg, .num_sge = 1, .opcode = IBV_WR_SEND,
                             .send_flags = IBV_SEND_SIGNALED,
                             .wr.ud = {.ah = ah, .remote_qpn = qpn, .remote_qkey = mc->qkey}},
                       *bad;
    int rc = ibv_post_send(mc->qp, &wr, &bad);
    if (rc) {
        tp_verbose(&v->base, "verbs: mcast: a wake-up datagram to rank %d: %s", w,
                   strerror(rc));
        return;
    }
    mc->tx_next++;
    mc->sq_out++;
}

/* ---- sleeping ------------------------------------------------------------------------------ */

/* Ask for an event at the next completion. Events taken are acknowledged at once. Returns 1:
 * poll again (a completion that came before the request raised no event). */
int mc_arm(verbs_tp_t *v, mc_state_t *mc)
{
    struct ibv_cq *cq;
    void *cctx;
    while (ibv_get_cq_event(mc->chan, &cq, &cctx) == 0) /* non-blocking fd: EAGAIN ends it */
        ibv_ack_cq_events(cq, 1);
    int rc = ibv_req_notify_cq(mc->cq, 0);
    if (rc) {
        tp_error(&v->base, "verbs: mcast: ibv_req_notify_cq: %s (polling instead)",
                 strerror(rc));
        return 1;
    }
    mc->armed = true;
    return 1;
}

/* The timer at the earliest stall check of the calls in flight (0: none). */
void mc_timer(verbs_tp_t *v, mc_state_t *mc, double at)
{
    if (at == mc->tfd_at)
        return;
    struct itimerspec its = {0};
    if (at > 0) {
        its.it_value.tv_sec = (time_t)(at / 1e6);
        its.it_value.tv_nsec = (long)((at - (double)its.it_value.tv_sec * 1e6) * 1e3);
        if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
            its.it_value.tv_nsec = 1;
    }
    if (timerfd_settime(mc->tfd, TFD_TIMER_ABSTIME, &its, NULL)) {
        tp_error(&v->base, "verbs: mcast: timerfd_settime: %s", strerror(errno));
        return;
    }
    mc->tfd_at = at;
}

double mc_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

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
        tp_error(&v->base, "verbs: mcast: ibv_post_send on the UD QP: %s", strerror(rc));
        return -1;
    }
    return (int)posted;
}
