/* verbs_cm.c — RC QPs wired by librdmacm (RMP_CM=rdmacm): each rank listens on an rdma_cm id
 * bound to its device's IP (published in the modex); connect() resolves the peer and connects
 * with private data naming my rank; events are read from a non-blocking channel inside
 * progress. QPs still use the shared PD, CQ and SRQ. When two ranks connect to each other at
 * once, the attempt of the lower rank wins and the other is rejected with a "collision" note. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transport/verbs/verbs.h"

#define CM_TIMEOUT_MS 5000
#define CM_EAGER_DEADLINE_S 60
#define CM_MAGIC 0x524d4331u /* "RMC1" */

/* Private data of a connect (and of a reject). */
typedef struct cm_priv {
    uint32_t magic;
    uint32_t job;   /* hash of the PMIx namespace: a stray connect from another job is refused */
    int32_t rank;
    uint32_t collision; /* reject: "my own attempt wins, wait for it" */
} cm_priv_t;

static uint32_t job_hash(const tp_env_t *env)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const char *s = env->nspace; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

struct ibv_context *verbs_cm_context(verbs_tp_t *v, const char *name)
{
    int n = 0;
    v->cm_devs = rdma_get_devices(&n);
    for (int i = 0; v->cm_devs && i < n; i++)
        if (!strcmp(ibv_get_device_name(v->cm_devs[i]->device), name))
            return v->cm_devs[i];
    tp_error(&v->base, "verbs: librdmacm does not offer device %s (rdma_get_devices: %d "
             "devices; is the rdma_ucm module loaded?)", name, n);
    return NULL;
}

/* ---- addresses --------------------------------------------------------------------------- */

static void to_sockaddr(const uint8_t a16[16], uint16_t port_be, struct sockaddr_storage *ss)
{
    static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    memset(ss, 0, sizeof(*ss));
    if (!memcmp(a16, v4, 12)) {
        struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
        s4->sin_family = AF_INET;
        s4->sin_port = port_be;
        memcpy(&s4->sin_addr, a16 + 12, 4);
    } else {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
        s6->sin6_family = AF_INET6;
        s6->sin6_port = port_be;
        memcpy(&s6->sin6_addr, a16, 16);
    }
}

static void addr_str(const uint8_t a16[16], uint16_t port_be, char *buf, size_t len)
{
    struct sockaddr_storage ss;
    to_sockaddr(a16, port_be, &ss);
    char ip[INET6_ADDRSTRLEN] = "?";
    if (ss.ss_family == AF_INET)
        inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, ip, sizeof(ip));
    else
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, ip, sizeof(ip));
    snprintf(buf, len, "%s:%u", ip, ntohs(port_be));
}

/* IPv4 address of network interface `ifname` as an IPv4-mapped a16; false if none. */
static bool if_ipv4(const char *ifname, uint8_t a16[16])
{
    struct ifaddrs *all, *i;
    if (getifaddrs(&all))
        return false;
    bool found = false;
    for (i = all; i && !found; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || strcmp(i->ifa_name, ifname))
            continue;
        memset(a16, 0, 10);
        a16[10] = a16[11] = 0xff;
        memcpy(a16 + 12, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, 4);
        found = true;
    }
    freeifaddrs(all);
    return found;
}

/* The IP rdmacm should bind: the GID's own address on RoCE; else (InfiniBand, or a GID without
 * an IP in it) the IPv4 address of the device's network interface (IPoIB). */
static int local_addr(verbs_tp_t *v, uint8_t a16[16])
{
    static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    const uint8_t *g = v->gid.raw;
    bool link_local = g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
    if (v->roce && (!memcmp(g, v4, 12) || !link_local)) {
        memcpy(a16, g, 16);
        return RMP_SUCCESS;
    }
    char ifname[IF_NAMESIZE] = "";
    struct ibv_gid_entry e;
    if (!ibv_query_gid_ex(v->dev, v->port, (uint32_t)v->gid_index, &e, 0) && e.ndev_ifindex &&
        if_indextoname(e.ndev_ifindex, ifname) && if_ipv4(ifname, a16))
        return RMP_SUCCESS;
    char dir[256];
    snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/device/net", v->devname);
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d));) {
        if (de->d_name[0] != '.' && if_ipv4(de->d_name, a16)) {
            closedir(d);
            return RMP_SUCCESS;
        }
    }
    if (d)
        closedir(d);
    tp_error(&v->base, "verbs: RMP_CM=rdmacm needs an IP address on %s's network "
             "interface (IPoIB on InfiniBand); none found: configure one, or use the default "
             "wiring (RMP_CM=ibv)", v->devname);
    return RMP_ERR_NOT_SUPPORTED;
}

/* ---- QPs and ids ------------------------------------------------------------------------- */

static int cm_create_qp(verbs_tp_t *v, struct rdma_cm_id *id, int peer)
{
    if (id->verbs != v->dev) {
        tp_error(&v->base, "verbs: rdmacm routed rank %d through %s, not %s (is the IP "
                 "published by that rank on %s's network?)", peer,
                 id->verbs ? ibv_get_device_name(id->verbs->device) : "no device", v->devname,
                 v->devname);
        return RMP_ERR_TRANSPORT;
    }
    struct ibv_qp_init_attr a;
    for (;;) {
        verbs_qp_caps(v, &a);
        if (!rdma_create_qp(id, v->pd, &a)) {
            if (a.cap.max_inline_data < v->max_inline)
                v->max_inline = a.cap.max_inline_data;
            return RMP_SUCCESS;
        }
        if (errno != EINVAL || v->max_inline == 0) {
            int err = errno;
            tp_error(&v->base, "verbs: rdma_create_qp (for rank %d) on %s: %s%s", peer,
                     v->devname, strerror(err), verbs_memlock_hint(err));
            return RMP_ERR_TRANSPORT;
        }
        v->max_inline = v->max_inline / 2 < 32 ? 0 : v->max_inline / 2;
    }
}

static void cm_destroy(struct rdma_cm_id *id)
{
    if (id->qp)
        rdma_destroy_qp(id);
    rdma_destroy_id(id);
}

static struct rdma_conn_param conn_param(verbs_tp_t *v, const cm_priv_t *priv)
{
    return (struct rdma_conn_param){
        .private_data = priv,
        .private_data_len = sizeof(*priv),
        .responder_resources = (uint8_t)v->rd_atomic,
        .initiator_depth = (uint8_t)v->rd_atomic,
        .retry_count = VERBS_RETRY_CNT,
        .rnr_retry_count = VERBS_RNR_RETRY,
    };
}

/* The ack timeout as in the ibv wiring (rdmacm's default is derived from the path). */
static void set_timeout(verbs_tp_t *v, struct rdma_cm_id *id)
{
    uint8_t t = v->ack_timeout;
    if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &t, sizeof(t)))
        tp_verbose(&v->base, "verbs: rdmacm ack timeout not settable: %s", strerror(errno));
}

static void recount_pending(verbs_tp_t *v)
{
    int n = 0;
    for (int p = 0; p < v->base.env->size; p++)
        n += v->conns[p].state == VC_CONNECTING || v->conns[p].state == VC_WAIT_PEER;
    v->cm_pending = n;
}

static void cm_fail(verbs_tp_t *v, verbs_conn_t *c, const char *what, int status)
{
    char addr[64] = "?";
    const verbs_blob_t *b = verbs_peer_blob(v, c->peer);
    if (b)
        addr_str(b->cm_addr, b->cm_port, addr, sizeof(addr));
    char why[400];
    snprintf(why, sizeof(why), "rdmacm connection to rank %d (%s) on %s: %s (status %d); fix: "
             "that address must be reachable from here over the RDMA device's netdev (`ping`, "
             "`ip route`), or wire through the modex (RMP_CM=ibv)", c->peer, addr, v->devname,
             what, status);
    verbs_peer_failed(v, c->peer, why);
}

int verbs_cm_connect(verbs_tp_t *v, int peer)
{
    verbs_conn_t *c = &v->conns[peer];
    if (c->state == VC_FAILED)
        return RMP_ERR_PEER;
    if (c->id || c->state == VC_WAIT_PEER || c->state == VC_READY)
        return RMP_SUCCESS; /* under way, or accepted from the peer */
    const verbs_blob_t *b = verbs_peer_blob(v, peer);
    if (!b)
        return RMP_ERR_TRANSPORT;
    struct sockaddr_storage src, dst;
    to_sockaddr(v->blob->cm_addr, 0, &src);
    to_sockaddr(b->cm_addr, b->cm_port, &dst);
    verbs_fault_cm_dst(v, peer, &dst);
    struct rdma_cm_id *id;
    if (rdma_create_id(v->cm_chan, &id, c, RDMA_PS_TCP)) {
        tp_error(&v->base, "verbs: rdma_create_id (to rank %d): %s", peer, strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if (rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst, CM_TIMEOUT_MS)) {
        char a[64];
        addr_str(b->cm_addr, b->cm_port, a, sizeof(a));
        tp_error(&v->base, "verbs: rdma_resolve_addr to rank %d at %s: %s", peer, a,
                 strerror(errno));
        rdma_destroy_id(id);
        return RMP_ERR_TRANSPORT;
    }
    c->id = id;
    c->active = true;
    c->state = VC_CONNECTING;
    recount_pending(v);
    return RMP_SUCCESS;
}

/* ---- events ------------------------------------------------------------------------------ */

/* Accept id for c: as its connection, or (loopback) as the passive side of my own attempt. */
static int cm_accept(verbs_tp_t *v, verbs_conn_t *c, struct rdma_cm_id *id, bool as_aux)
{
    id->context = c;
    int rc = cm_create_qp(v, id, c->peer);
    if (rc != RMP_SUCCESS)
        return rc;
    set_timeout(v, id);
    cm_priv_t priv = {.magic = CM_MAGIC, .job = job_hash(v->base.env), .rank = v->base.env->rank};
    struct rdma_conn_param p = conn_param(v, &priv);
    if (rdma_accept(id, &p)) {
        tp_error(&v->base, "verbs: rdma_accept (rank %d): %s", c->peer, strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if (as_aux) {
        c->aux = id;
    } else {
        c->id = id;
        c->active = false;
        c->qp = id->qp;
        verbs_conn_init_tx(v, c);
        c->state = VC_CONNECTING;
    }
    return RMP_SUCCESS;
}

/* A peer connects. Returns an id to destroy once the event is acked, or NULL. */
static struct rdma_cm_id *on_request(verbs_tp_t *v, struct rdma_cm_event *ev)
{
    const tp_env_t *env = v->base.env;
    struct rdma_cm_id *id = ev->id;
    cm_priv_t priv = {0};
    if (ev->param.conn.private_data && ev->param.conn.private_data_len >= sizeof(priv))
        memcpy(&priv, ev->param.conn.private_data, sizeof(priv));
    int peer = priv.rank;
    cm_priv_t rej = {.magic = CM_MAGIC, .job = job_hash(env), .rank = env->rank};
    if (priv.magic != CM_MAGIC || priv.job != job_hash(env) || peer < 0 || peer >= env->size) {
        tp_verbose(&v->base, "verbs: rdmacm: refused a connection from outside this job");
        rdma_reject(id, NULL, 0);
        return id;
    }
    verbs_conn_t *c = &v->conns[peer];
    bool accept, aux = false;
    if (peer == env->rank) {
        accept = aux = true;                      /* loopback: my own attempt's other end */
    } else if (c->state == VC_FAILED || c->state == VC_READY) {
        accept = false;
    } else if (!c->id) {
        accept = true;                            /* nothing from my side: take it */
    } else if (c->active && c->state == VC_CONNECTING) {
        /* Both connect at once: the lower rank's attempt wins on both sides. */
        accept = peer < env->rank;
        if (accept) {
            c->aux = c->id; /* mine lost: destroyed when its reject (or next event) comes */
            c->id = NULL;
            c->qp = NULL;
        } else {
            rej.collision = 1;
        }
    } else {
        accept = false;
    }
    if (!accept) {
        rdma_reject(id, &rej, sizeof(rej));
        return id;
    }
    if (cm_accept(v, c, id, aux) != RMP_SUCCESS) {
        cm_fail(v, c, "accept failed", 0);
        if (aux)
            c->aux = NULL;
        else if (c->id == id)
            c->id = NULL, c->qp = NULL;
        return id;
    }
    return NULL;
}

/* The responder's RNR timer is a QP attribute librdmacm does not set: set it once connected
 * (an RTS -> RTS change), so both wirings NAK alike (see verbs_eager.c). */
static void set_rnr_timer(verbs_tp_t *v, struct ibv_qp *qp)
{
    struct ibv_qp_attr a = {.min_rnr_timer = VERBS_MIN_RNR_TIMER};
    int rc = ibv_modify_qp(qp, &a, IBV_QP_MIN_RNR_TIMER);
    if (rc)
        tp_verbose(&v->base, "verbs: setting the RNR timer on QP 0x%x: %s", qp->qp_num,
                   strerror(rc));
}

static void on_established(verbs_tp_t *v, verbs_conn_t *c, struct rdma_cm_id *id)
{
    if (id->qp)
        set_rnr_timer(v, id->qp);
    if (id != c->id)
        return; /* the loopback's passive side */
    c->state = VC_READY;
    if (v->base.env->verbose) { /* where the QP goes, as its address vector says */
        struct ibv_qp_attr a;
        struct ibv_qp_init_attr ia;
        char g[64] = "?", at[80] = "";
        if (ibv_query_qp(id->qp, &a, IBV_QP_AV | IBV_QP_DEST_QPN, &ia) == 0) {
            if (a.ah_attr.is_global)
                verbs_gid_str(&a.ah_attr.grh.dgid, g, sizeof(g));
            else
                snprintf(g, sizeof(g), "%u", a.ah_attr.dlid);
            snprintf(at, sizeof(at), " <-> 0x%x at %s %s", a.dest_qp_num,
                     a.ah_attr.is_global ? "GID" : "LID", g);
        }
        tp_verbose(&v->base, "verbs: rank %d: connected by rdmacm (%s), QP 0x%x%s", c->peer,
                   c->active ? "I connected" : "it connected", id->qp->qp_num, at);
    }
    verbs_reads_push(v, c);
}

/* My attempt was rejected: a collision the peer wins (its own request is on the way) is
 * normal; anything else fails the peer. */
static struct rdma_cm_id *on_rejected(verbs_tp_t *v, verbs_conn_t *c, struct rdma_cm_id *id,
                                      struct rdma_cm_event *ev)
{
    cm_priv_t priv = {0};
    if (ev->param.conn.private_data && ev->param.conn.private_data_len >= sizeof(priv))
        memcpy(&priv, ev->param.conn.private_data, sizeof(priv));
    if (id == c->aux) {
        c->aux = NULL;
        return id;
    }
    if (priv.magic == CM_MAGIC && priv.collision) {
        c->id = NULL;
        c->qp = NULL;
        c->state = VC_WAIT_PEER;
        return id;
    }
    cm_fail(v, c, "rejected (is that rank running with RMP_CM=rdmacm too?)", ev->status);
    return NULL;
}

static struct rdma_cm_id *on_event(verbs_tp_t *v, struct rdma_cm_event *ev)
{
    const tp_env_t *env = v->base.env;
    if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
        return on_request(v, ev);
    struct rdma_cm_id *id = ev->id;
    verbs_conn_t *c = id ? id->context : NULL;
    if (!c) {
        tp_verbose(&v->base, "verbs: rdmacm event %s on the listening id",
                   rdma_event_str(ev->event));
        return NULL;
    }
    bool loser = id == c->aux && c->peer != env->rank;
    switch (ev->event) {
    case RDMA_CM_EVENT_ADDR_RESOLVED:
        if (loser) {
            c->aux = NULL;
            return id;
        }
        set_timeout(v, id);
        if (rdma_resolve_route(id, CM_TIMEOUT_MS))
            cm_fail(v, c, "rdma_resolve_route failed", errno);
        return NULL;
    case RDMA_CM_EVENT_ROUTE_RESOLVED: {
        if (loser) {
            c->aux = NULL;
            return id;
        }
        if (cm_create_qp(v, id, c->peer) != RMP_SUCCESS) {
            cm_fail(v, c, "cannot create its QP", 0);
            return NULL;
        }
        c->qp = id->qp;
        verbs_conn_init_tx(v, c);
        cm_priv_t priv = {.magic = CM_MAGIC, .job = job_hash(env), .rank = env->rank};
        struct rdma_conn_param p = conn_param(v, &priv);
        if (rdma_connect(id, &p))
            cm_fail(v, c, "rdma_connect failed", errno);
        return NULL;
    }
    case RDMA_CM_EVENT_ESTABLISHED:
        if (loser) {
            c->aux = NULL;
            return id;
        }
        on_established(v, c, id);
        return NULL;
    case RDMA_CM_EVENT_REJECTED:
        return on_rejected(v, c, id, ev);
    case RDMA_CM_EVENT_ADDR_ERROR:
    case RDMA_CM_EVENT_ROUTE_ERROR:
    case RDMA_CM_EVENT_CONNECT_ERROR:
    case RDMA_CM_EVENT_UNREACHABLE:
        if (loser) {
            c->aux = NULL;
            return id;
        }
        cm_fail(v, c, rdma_event_str(ev->event), ev->status);
        return NULL;
    case RDMA_CM_EVENT_DISCONNECTED:
        /* Ranks disconnect only in close(), after the finalize barrier: during progress this
         * means the peer's process is gone. */
        if (!loser && id == c->id)
            verbs_peer_failed(v, c->peer, "disconnected (its process ended?)");
        return NULL;
    case RDMA_CM_EVENT_DEVICE_REMOVAL:
        tp_error(&v->base, "verbs: device %s was removed", v->devname);
        return NULL;
    default:
        return NULL;
    }
}

int verbs_cm_progress(verbs_tp_t *v)
{
    int n = 0;
    struct rdma_cm_event *ev;
    while (rdma_get_cm_event(v->cm_chan, &ev) == 0) { /* non-blocking: EAGAIN ends it */
        struct rdma_cm_id *dead = on_event(v, ev);
        rdma_ack_cm_event(ev);
        if (dead)
            cm_destroy(dead); /* only after its event is acked */
        n++;
    }
    if (n)
        recount_pending(v);
    return n;
}

/* ---- life cycle -------------------------------------------------------------------------- */

int verbs_cm_open(verbs_tp_t *v)
{
    uint8_t a16[16];
    int rc = local_addr(v, a16);
    if (rc != RMP_SUCCESS)
        return rc;
    if (!(v->cm_chan = rdma_create_event_channel())) {
        tp_error(&v->base, "verbs: rdma_create_event_channel: %s (is /dev/infiniband/rdma_cm "
                 "there? modprobe rdma_ucm)", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if (rdma_create_id(v->cm_chan, &v->listen_id, NULL, RDMA_PS_TCP)) {
        tp_error(&v->base, "verbs: rdma_create_id: %s", strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    struct sockaddr_storage ss;
    to_sockaddr(a16, 0, &ss);
    char as[64];
    addr_str(a16, 0, as, sizeof(as));
    if (rdma_bind_addr(v->listen_id, (struct sockaddr *)&ss)) {
        tp_error(&v->base, "verbs: rdma_bind_addr(%s) for %s: %s", as, v->devname, strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    if (v->listen_id->verbs != v->dev) {
        tp_error(&v->base, "verbs: address %s belongs to device %s, not %s (RMP_DEVICE=)", as,
                 v->listen_id->verbs ? ibv_get_device_name(v->listen_id->verbs->device)
                                       : "none", v->devname);
        return RMP_ERR_TRANSPORT;
    }
    if (rdma_listen(v->listen_id, 128)) {
        tp_error(&v->base, "verbs: rdma_listen on %s: %s", as, strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    v->blob_len = sizeof(verbs_blob_t);
    if (!(v->blob = calloc(1, v->blob_len)))
        return RMP_ERR_NO_MEM;
    verbs_blob_t *b = v->blob;
    b->magic = VERBS_BLOB_MAGIC;
    b->wiring = WIRE_RDMACM;
    b->link_layer = v->pattr.link_layer;
    b->mtu = (uint8_t)v->pattr.active_mtu;
    b->lid = v->pattr.lid;
    b->psn = v->psn;
    memcpy(b->gid, v->gid.raw, 16);
    memcpy(b->cm_addr, a16, 16);
    b->cm_port = rdma_get_src_port(v->listen_id);
    addr_str(a16, b->cm_port, as, sizeof(as));
    tp_verbose(&v->base, "verbs: wiring by rdmacm: listening on %s, %s", as,
               v->eager_connect ? "connecting to all at init (RMP_CONNECT=eager)"
                                  : "connecting on first use");
    return verbs_watch_fd(v, v->cm_chan->fd, "rdmacm event channel");
}

/* RMP_CONNECT=eager: connect to myself and every higher rank, accept the lower ones, and wait
 * until all are up (every rank is here at once, right after the modex fence). */
int verbs_cm_wireup(verbs_tp_t *v)
{
    const tp_env_t *env = v->base.env;
    for (int p = env->rank; p < env->size; p++) {
        if (!verbs_needs_qp(v, p))
            continue;
        int rc = verbs_cm_connect(v, p);
        if (rc != RMP_SUCCESS)
            return rc;
    }
    time_t deadline = time(NULL) + CM_EAGER_DEADLINE_S;
    for (;;) {
        int missing = -1;
        for (int p = 0; p < env->size && missing < 0; p++) {
            if (v->conns[p].state == VC_FAILED)
                return RMP_ERR_PEER;
            if (verbs_needs_qp(v, p) && v->conns[p].state != VC_READY)
                missing = p;
        }
        if (missing < 0)
            return RMP_SUCCESS;
        if (time(NULL) > deadline) {
            tp_error(&v->base, "verbs: rdmacm: rank %d not connected after %d s (is it running "
                     "with RMP_CM=rdmacm and RMP_CONNECT=eager too?)", missing,
                     CM_EAGER_DEADLINE_S);
            return RMP_ERR_TRANSPORT;
        }
        struct pollfd pfd = {.fd = v->cm_chan->fd, .events = POLLIN};
        poll(&pfd, 1, 100);
        verbs_cm_progress(v);
    }
}

void verbs_cm_close(verbs_tp_t *v)
{
    for (int p = 0; v->conns && p < v->base.env->size; p++) {
        verbs_conn_t *c = &v->conns[p];
        if (c->id)
            cm_destroy(c->id);
        if (c->aux)
            cm_destroy(c->aux);
        c->id = c->aux = NULL;
        c->qp = NULL;
    }
    if (v->listen_id)
        rdma_destroy_id(v->listen_id);
    if (v->cm_chan)
        rdma_destroy_event_channel(v->cm_chan);
}
