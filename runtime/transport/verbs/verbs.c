/* verbs.c — the RDMA verbs transport's ops table and life cycle: open/close of the shared
 * resources (PD, one CQ with its completion channel, one SRQ), the progress engine (busy-poll
 * the CQ, then device and rdmacm events), and blocking: one epoll fd multiplexes the completion
 * channel, the device's async events and the rdmacm event channel. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "transport/verbs/verbs.h"

#define CQ_POLL_BATCH 32
#define CQ_ACK_BATCH 64      /* ibv_ack_cq_events takes a lock: ack in batches */
#define EVENT_POLL_EVERY 64  /* progress calls between looks at async/rdmacm events */

int tp_verbs_check_device(const char *want, char *why, size_t len)
{
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)strcspn(want, ":"), want);
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n); /* NULL: no verbs support at all */
    bool found = false;
    char all[256] = "";
    for (int i = 0; list && i < n; i++) {
        const char *d = ibv_get_device_name(list[i]);
        found |= !strcmp(d, name);
        snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? " " : "", d);
    }
    if (list)
        ibv_free_device_list(list);
    if (found)
        return 0;
    if (all[0])
        snprintf(why, len, "RMP_DEVICE=%s: no RDMA device named %s (this machine has: %s)",
                 want, name, all);
    else
        snprintf(why, len, "RMP_DEVICE=%s: no RDMA device named %s (this machine has none)",
                 want, name);
    return -1;
}

static int peer_of_qp(verbs_tp_t *v, struct ibv_qp *qp)
{
    return qp ? verbs_peer_of_qpn(v, qp->qp_num) : -1;
}

/* ---- events ------------------------------------------------------------------------------ */

static void fail_all(verbs_tp_t *v, const char *why)
{
    for (int peer = 0; peer < v->base.env->size; peer++)
        if (v->conns[peer].state != VC_NONE)
            verbs_peer_failed(v, peer, why);
}

static void on_async(verbs_tp_t *v, struct ibv_async_event *e)
{
    int peer;
    char why[320];
    switch (e->event_type) {
    case IBV_EVENT_SRQ_LIMIT_REACHED:
        verbs_srq_limit_event(v);
        break;
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
        peer = peer_of_qp(v, e->element.qp);
        snprintf(why, sizeof(why), "%s on the QP to rank %d (%s)",
                 ibv_event_type_str(e->event_type), peer, v->devname);
        if (peer >= 0)
            verbs_peer_failed(v, peer, why);
        else
            tp_error(&v->base, "verbs: %s", why);
        break;
    case IBV_EVENT_CQ_ERR:
        /* Completions are lost and the driver moves the QPs that overran it to error: every
         * peer is failed, so that nothing waits for a completion that will never come. */
        snprintf(why, sizeof(why), "the completion queue on %s (%d entries) overran: "
                 "completions were lost%s", v->devname, v->cq_size,
                 v->fault == VF_CQ ? " (RMP_VERBS_FAULT=cq)" : "; fix: none by the user: rmp "
                 "sizes it for every outstanding request (an rmp bug: please report)");
        tp_error(&v->base, "verbs: %s", why);
        fail_all(v, why);
        break;
    case IBV_EVENT_PORT_ERR:
        tp_error(&v->base, "verbs: port %u of %s went down: traffic stops until it is ACTIVE again "
                 "(`ibv_devinfo`, check the link)", v->port, v->devname);
        break;
    case IBV_EVENT_DEVICE_FATAL:
        tp_error(&v->base, "verbs: device %s reported a fatal error: every peer over it is lost",
                 v->devname);
        /* They are: fail them, so that what waits for them ends (the device may be going away,
         * e.g. `rdma link delete`, which waits for this process to close it). */
        snprintf(why, sizeof(why), "device %s failed (IBV_EVENT_DEVICE_FATAL); fix: "
                 "`rdma link` / `ibv_devinfo` show whether it is back, then restart the job",
                 v->devname);
        fail_all(v, why);
        break;
    case IBV_EVENT_PATH_MIG: /* never on the devices tested (rmp loads no alternate path) */
    case IBV_EVENT_PATH_MIG_ERR:
        tp_verbose(&v->base, "verbs: %s on the QP to rank %d (%s)",
                   ibv_event_type_str(e->event_type), peer_of_qp(v, e->element.qp), v->devname);
        break;
    case IBV_EVENT_SRQ_ERR:
        tp_error(&v->base, "verbs: the shared receive queue on %s failed", v->devname);
        break;
    default: /* COMM_EST, LAST_WQE_REACHED, PORT_ACTIVE, GID/LID changes: informative */
        tp_verbose(&v->base, "verbs: async event on %s: %s", v->devname,
                   ibv_event_type_str(e->event_type));
    }
}

static int poll_events(verbs_tp_t *v)
{
    int n = 0;
    struct ibv_async_event e;
    while (ibv_get_async_event(v->dev, &e) == 0) { /* fd is non-blocking: EAGAIN ends it */
        on_async(v, &e);
        ibv_ack_async_event(&e);
        n++;
    }
    if (v->wiring == WIRE_RDMACM)
        n += verbs_cm_progress(v);
    return n;
}

/* ---- progress and blocking --------------------------------------------------------------- */

static void on_wc(verbs_tp_t *v, const struct ibv_wc *wc)
{
    verbs_conn_t *c;
    switch (wc->wr_id & WR_KIND_MASK) {
    case WR_RECV: verbs_on_recv(v, wc); break;
    case WR_SEND:
        if ((c = verbs_on_send(v, wc)))
            verbs_reads_push(v, c); /* slots freed: queued read segments may go */
        break;
    case WR_READ: verbs_on_read(v, wc); break;
    default: {
        verbs_cb_t *cb = (verbs_cb_t *)(uintptr_t)(wc->wr_id & ~(uint64_t)WR_KIND_MASK);
        cb->done(v, cb, wc);
        break;
    }
    }
}

static int verbs_progress(tp_t *tp)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    /* A nested call (tp_deliver reaching progress) would reorder arrivals: nothing then. */
    if (v->in_progress)
        return 0;
    v->in_progress = true;
    int n = v->nstash;
    for (int i = 0; i < v->nstash; i++)
        on_wc(v, &v->stash[i]);
    v->nstash = 0;
    struct ibv_wc wc[CQ_POLL_BATCH];
    for (int round = 0; round < 2; round++) { /* bounded: the caller has other work too */
        int k = ibv_poll_cq(v->cq, CQ_POLL_BATCH, wc);
        if (k < 0) {
            tp_error(tp, "verbs: ibv_poll_cq on %s failed", v->devname);
            break;
        }
        for (int i = 0; i < k; i++)
            on_wc(v, &wc[i]);
        n += k;
        if (k < CQ_POLL_BATCH)
            break;
    }
    verbs_rx_flush(v);
    n += verbs_fast_progress(v);
    n += verbs_offload_progress(v);
    /* Events are rare but cost a syscall to look for: look often only while connecting. */
    if (v->cm_pending || ++v->tick % EVENT_POLL_EVERY == 0) {
        v->tick = 0;
        n += poll_events(v);
        verbs_keepalive(v); /* probes are no work for the caller: not counted */
    }
    v->in_progress = false;
    return n;
}

static int verbs_wait_fd(tp_t *tp)
{
    return ((verbs_tp_t *)tp)->epfd;
}

/* Request a completion event, then look once more: a completion that arrived between the last
 * poll and the request would raise no event (the classic race); keep it for progress. */
static int verbs_arm(tp_t *tp)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    if (v->nstash)
        return RMP_AGAIN;
    int rc = ibv_req_notify_cq(v->cq, 0);
    if (rc) {
        tp_error(tp, "verbs: ibv_req_notify_cq on %s: %s (polling instead of sleeping)",
                 v->devname, strerror(rc));
        return RMP_AGAIN;
    }
    int k = ibv_poll_cq(v->cq, (int)(sizeof(v->stash) / sizeof(v->stash[0])), v->stash);
    if (k > 0) {
        v->nstash = k;
        return RMP_AGAIN;
    }
    return verbs_fast_arm(v); /* last: a refusal here undoes itself (no disarm follows) */
}

static void verbs_disarm(tp_t *tp)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    struct ibv_cq *cq;
    void *cq_ctx;
    while (ibv_get_cq_event(v->chan, &cq, &cq_ctx) == 0) /* non-blocking: EAGAIN ends it */
        v->cq_events_unacked++;
    if (v->cq_events_unacked >= CQ_ACK_BATCH) {
        ibv_ack_cq_events(v->cq, v->cq_events_unacked);
        v->cq_events_unacked = 0;
    }
    v->tick = EVENT_POLL_EVERY - 1; /* the wakeup may have been an async or rdmacm event */
    verbs_fast_disarm(v);
}

/* ---- life cycle -------------------------------------------------------------------------- */

/* What the verbs path did, for RMP_VERBOSE: the QPs used, the SRQ, how gets were split. */
static void report_usage(verbs_tp_t *v)
{
    const tp_env_t *env = v->base.env;
    if (!env->verbose || !v->conns)
        return;
    int nqp = 0;
    for (int p = 0; p < env->size; p++)
        nqp += v->conns[p].state == VC_READY;
    tp_verbose(&v->base, "verbs: used %d RC QPs on one CQ; %llu sends (%llu inline); %llu arrivals "
               "through the SRQ (%u buffers, %llu limit events); %llu gets in %llu RDMA READs, "
               "the largest %zu bytes in %u READs of <= %u bytes (max_msg_sz %u)", nqp,
               (unsigned long long)v->st_sends, (unsigned long long)v->st_inline,
               (unsigned long long)v->st_recvs, v->rx_bufs,
               (unsigned long long)v->st_srq_events, (unsigned long long)v->st_gets,
               (unsigned long long)v->st_reads, v->st_get_max, v->st_get_max_reads,
               v->max_msg < VERBS_READ_SEG ? v->max_msg : VERBS_READ_SEG, v->max_msg);
    if (v->fp_box)
        tp_verbose(&v->base, "verbs: fast path: %llu sends and %llu arrivals through rings "
                   "(%d given), %llu times a ring was full (those went through the SRQ)",
                   (unsigned long long)v->st_fp_sends, (unsigned long long)v->st_fp_recvs,
                   v->fp_nrx, (unsigned long long)v->st_fp_full);
    if (v->st_probes)
        tp_verbose(&v->base, "verbs: keepalive: %llu probes of peers silent for %llu s",
                   (unsigned long long)v->st_probes, (unsigned long long)(v->ka_ms / 1000));
}

static void verbs_close(tp_t *tp)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    const tp_env_t *env = tp->env;
    report_usage(v);
    if (v->wiring == WIRE_RDMACM) {
        verbs_cm_close(v);
    } else {
        for (int p = 0; v->conns && p < env->size; p++)
            if (v->conns[p].qp && ibv_destroy_qp(v->conns[p].qp))
                tp_verbose(tp, "verbs: ibv_destroy_qp (rank %d): %s", p, strerror(errno));
    }
    verbs_offload_close(v); /* its UD QP and registrations, before the CQ and PD go */
    verbs_rma_close(v);
    verbs_rdma_close(v);
    verbs_fast_close(v);
    verbs_eager_close(v);
    if (v->cq) {
        if (v->cq_events_unacked)
            ibv_ack_cq_events(v->cq, v->cq_events_unacked);
        if (ibv_destroy_cq(v->cq))
            tp_verbose(tp, "verbs: ibv_destroy_cq: %s", strerror(errno));
    }
    if (v->chan && ibv_destroy_comp_channel(v->chan))
        tp_verbose(tp, "verbs: ibv_destroy_comp_channel: %s", strerror(errno));
    if (v->pd && ibv_dealloc_pd(v->pd))
        tp_verbose(tp, "verbs: ibv_dealloc_pd: %s", strerror(errno));
    if (v->epfd >= 0)
        close(v->epfd);
    if (v->cm_devs)
        rdma_free_devices(v->cm_devs); /* owns the context in rdmacm mode */
    else if (v->dev)
        ibv_close_device(v->dev);
    if (v->conns)
        free(v->conns[0].sig_ring);
    free(v->conns);
    free(v->blob);
    free(v);
}

/* Queue sizes. The CQ must hold every completion that can be outstanding at once: one per
 * posted receive buffer plus a full send queue per QP (error flushes report even unsignaled
 * WRs). Past the device's CQ size, send queues shrink rather than risk an overrun. */
static int size_queues(verbs_tp_t *v)
{
    const tp_env_t *env = v->base.env;
    struct ibv_device_attr *a = &v->dattr;
    uint32_t srq_max = VERBS_SRQ_MAX < (uint32_t)a->max_srq_wr ? VERBS_SRQ_MAX
                                                               : (uint32_t)a->max_srq_wr;
    uint32_t nqp = (uint32_t)env->size + 1; /* rdmacm's loopback has two QPs */
    v->sq_depth = VERBS_SQ_DEPTH < (uint32_t)a->max_qp_wr ? VERBS_SQ_DEPTH : (uint32_t)a->max_qp_wr;
    uint64_t want = (uint64_t)srq_max + (uint64_t)nqp * v->sq_depth + 64;
    if (want > (uint64_t)a->max_cqe) {
        uint64_t room = (uint64_t)a->max_cqe > srq_max + 64 ? a->max_cqe - srq_max - 64 : 0;
        if (room / nqp < 8) {
            tp_error(&v->base, "verbs: %s's largest CQ (%d entries) cannot serve %d ranks: use "
                     "fewer ranks per node or another device (RMP_DEVICE=)", v->devname,
                     a->max_cqe, env->size);
            return RMP_ERR_NOT_SUPPORTED;
        }
        v->sq_depth = (uint32_t)(room / nqp);
        want = (uint64_t)srq_max + (uint64_t)nqp * v->sq_depth + 64;
    }
    v->cq_size = verbs_fault_cq_size(v, (int)want);
    uint32_t rd = (uint32_t)(a->max_qp_rd_atom < a->max_qp_init_rd_atom ? a->max_qp_rd_atom
                                                                         : a->max_qp_init_rd_atom);
    v->rd_atomic = rd < VERBS_RD_ATOMIC ? rd : VERBS_RD_ATOMIC;
    if (v->rd_atomic > v->sq_depth / 2)
        v->rd_atomic = v->sq_depth / 2;
    v->max_inline = VERBS_INLINE_WANT;
    return RMP_SUCCESS;
}

static int create_shared(verbs_tp_t *v)
{
    if (!(v->pd = ibv_alloc_pd(v->dev))) {
        tp_error(&v->base, "verbs: ibv_alloc_pd on %s: %s", v->devname, strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if (!(v->chan = ibv_create_comp_channel(v->dev))) {
        tp_error(&v->base, "verbs: ibv_create_comp_channel on %s: %s", v->devname, strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if (!(v->cq = ibv_create_cq(v->dev, v->cq_size, NULL, v->chan, 0))) {
        int err = errno;
        tp_error(&v->base, "verbs: ibv_create_cq (%d entries) on %s: %s%s", v->cq_size, v->devname,
                 strerror(err), verbs_memlock_hint(err));
        return RMP_ERR_TRANSPORT;
    }
    if ((v->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
        tp_error(&v->base, "verbs: epoll_create1: %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    int rc = verbs_watch_fd(v, v->chan->fd, "completion channel");
    if (rc == RMP_SUCCESS)
        rc = verbs_watch_fd(v, v->dev->async_fd, "async event");
    return rc;
}

static int read_settings(verbs_tp_t *v)
{
    const char *cm = tp_knob(&v->base, "RMP_CM"), *conn = tp_knob(&v->base, "RMP_CONNECT");
    if (cm && strcmp(cm, "ibv") && strcmp(cm, "rdmacm")) {
        tp_error(&v->base, "verbs: RMP_CM=%s: expected ibv (wiring through the modex, default) or "
                 "rdmacm", cm);
        return RMP_ERR_ARG;
    }
    if (conn && strcmp(conn, "lazy") && strcmp(conn, "eager")) {
        tp_error(&v->base, "verbs: RMP_CONNECT=%s: expected lazy (default) or eager", conn);
        return RMP_ERR_ARG;
    }
    v->wiring = cm && !strcmp(cm, "rdmacm") ? WIRE_RDMACM : WIRE_IBV;
    v->eager_connect = conn && !strcmp(conn, "eager");
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    v->psn = ((uint32_t)getpid() * 2654435761u ^ (uint32_t)ts.tv_nsec) & 0xffffff;
    return RMP_SUCCESS;
}

static int open_all(verbs_tp_t *v)
{
    const tp_env_t *env = v->base.env;
    int rc;
    if ((rc = read_settings(v)) || (rc = verbs_dev_open(v)))
        return rc;
    verbs_fault_open(v);
    verbs_probe_paths(v);
    if (v->wiring == WIRE_RDMACM) {
        /* librdmacm opens devices itself; the PD, CQ and SRQ must live on its context. */
        struct ibv_context *cm = verbs_cm_context(v, v->devname);
        if (!cm)
            return RMP_ERR_TRANSPORT;
        ibv_close_device(v->dev);
        v->dev = cm;
    }
    if ((rc = size_queues(v)))
        return rc;
    v->conns = calloc((size_t)env->size, sizeof(verbs_conn_t));
    uint16_t *rings = calloc((size_t)env->size * v->sq_depth, sizeof(uint16_t));
    if (!v->conns || !rings) {
        free(rings);
        return RMP_ERR_NO_MEM;
    }
    for (int p = 0; p < env->size; p++) {
        v->conns[p].peer = p;
        v->conns[p].sig_ring = rings + (size_t)p * v->sq_depth;
    }
    if ((rc = create_shared(v)) || (rc = verbs_eager_open(v)) || (rc = verbs_fast_open(v)) ||
        (rc = verbs_rdma_open(v)) ||
        (rc = verbs_offload_open(v)) || (rc = verbs_rma_open(v)))
        return rc;
    verbs_keepalive_open(v);
    rc = v->wiring == WIRE_RDMACM ? verbs_cm_open(v) : verbs_wire_open(v);
    if (rc == RMP_SUCCESS) {
        verbs_offload_publish(v);
        verbs_fast_publish(v);
    }
    return rc;
}

/* Opened only when the core may route some peer to verbs (env->route): a job on one node
 * does not even open the device: no queues, no pinned buffers, no memlock needs, faster
 * start-up. */
static int verbs_open(const tp_env_t *env, tp_t **tp_p)
{
    verbs_tp_t *v = calloc(1, sizeof(*v));
    if (!v)
        return RMP_ERR_NO_MEM;
    v->base = (tp_t){.ops = &tp_verbs_ops, .env = env, .max_send = VERBS_BUF_SIZE,
                     .eager_limit = VERBS_EAGER_DEFAULT};
    if (env->nroute == 0) {
        tp_verbose(&v->base, "verbs: not opened: %s", env->no_route);
        free(v);
        return RMP_ERR_NOT_SUPPORTED;
    }
    v->epfd = -1;
    int rc = open_all(v);
    if (rc != RMP_SUCCESS) {
        verbs_close(&v->base);
        return rc;
    }
    v->base.caps = v->rd_atomic ? TP_CAP_GET : 0;
    verbs_rma_enable(v);
    tp_verbose(&v->base, "verbs: eager limit %zu, max send %zu, inline up to %u bytes; SRQ %u "
               "buffers (grows to %u), send queue %u per QP, CQ %d; RDMA READ: %u in flight "
               "per QP, %u KiB segments%s", v->base.eager_limit, v->base.max_send,
               v->max_inline, v->rx_bufs, v->rx_max, v->sq_depth, v->cq_size, v->rd_atomic,
               (v->max_msg < VERBS_READ_SEG ? v->max_msg : VERBS_READ_SEG) >> 10,
               v->rd_atomic ? "" : " (device has no RDMA READ: rendezvous copies through sends)");
    *tp_p = &v->base;
    return RMP_SUCCESS;
}

static int verbs_addr_pack(tp_t *tp, const void **blob_p, size_t *len_p)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    *blob_p = v->blob;
    *len_p = v->blob_len;
    return RMP_SUCCESS;
}

static int verbs_wireup(tp_t *tp)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    /* rdmacm needs the peer's progress to accept: one-sided operations to every rank
     * (rma_qps) connect now, while every rank is here, so that no operation later waits on
     * a target that does not call rmp. */
    int rc = v->wiring == WIRE_RDMACM
                 ? (v->eager_connect || v->rma_qps ? verbs_cm_wireup(v) : RMP_SUCCESS)
                 : verbs_wire_wireup(v);
    return rc ? rc : verbs_offload_wireup(v);
}

static int verbs_connect(tp_t *tp, int peer)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    if (v->wiring == WIRE_RDMACM)
        return verbs_cm_connect(v, peer);
    return verbs_wire_connect(v, peer);
}

const tp_ops_t tp_verbs_ops = {
    .name = "verbs",
    .open = verbs_open,
    .addr_pack = verbs_addr_pack,
    .wireup = verbs_wireup,
    .connect = verbs_connect,
    .send = verbs_send,
    .mem_reg = verbs_mem_reg,
    .mem_dereg = verbs_mem_dereg,
    .get = verbs_get,
    .progress = verbs_progress,
    .wait_fd = verbs_wait_fd,
    .arm = verbs_arm,
    .disarm = verbs_disarm,
    .close = verbs_close,
    .abandon = tp_no_abandon, /* nothing of verbs outlives the process */
};
