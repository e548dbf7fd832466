/* verbs_dev.c — which device, port and GID the verbs transport uses: the first ACTIVE port of
 * the first device that has one (or RMP_DEVICE=name[:port]), the GID picked for RoCE (RoCE v2
 * with an IPv4-mapped address first; RMP_GID_INDEX overrides), LID addressing on InfiniBand;
 * and the error messages that tell the user what to fix. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "transport/verbs/verbs.h"

const char *verbs_mtu_str(enum ibv_mtu m)
{
    switch (m) {
    case IBV_MTU_256: return "256";
    case IBV_MTU_512: return "512";
    case IBV_MTU_1024: return "1024";
    case IBV_MTU_2048: return "2048";
    case IBV_MTU_4096: return "4096";
    default: return "?";
    }
}

void verbs_gid_str(const union ibv_gid *g, char *buf, size_t len)
{
    const uint8_t *r = g->raw;
    static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (!memcmp(r, v4mapped, 12)) {
        snprintf(buf, len, "::ffff:%u.%u.%u.%u", r[12], r[13], r[14], r[15]);
        return;
    }
    size_t o = 0;
    for (int i = 0; i < 16 && o < len; i += 2)
        o += (size_t)snprintf(buf + o, len - o, "%s%02x%02x", i ? ":" : "", r[i], r[i + 1]);
}

static const char *state_str(enum ibv_port_state s)
{
    return ibv_port_state_str(s);
}

/* Device problems are errors on stderr: verbs_open (verbs.c) only gets here when the core
 * routes some peer to verbs (RMP_TRANSPORT=verbs, or ranks on other nodes: tp_env_t.route). */
#define DEV_FAIL(v, ...) tp_error(&(v)->base, __VA_ARGS__)

static bool gid_is_zero(const union ibv_gid *g)
{
    static const uint8_t z[16];
    return !memcmp(g->raw, z, 16);
}

static bool gid_is_v4mapped(const union ibv_gid *g)
{
    static const uint8_t p[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return !memcmp(g->raw, p, 12);
}

/* Rank of a GID table entry for RoCE: lower is better, -1 unusable. RoCE v2 routes over IP and
 * its IPv4-mapped entry is what rdmacm and perftest use; v1 only works inside one L2 domain. */
static int gid_rank(const struct ibv_gid_entry *e)
{
    if (gid_is_zero(&e->gid))
        return -1;
    bool link_local = e->gid.raw[0] == 0xfe && (e->gid.raw[1] & 0xc0) == 0x80;
    if (e->gid_type == IBV_GID_TYPE_ROCE_V2)
        return gid_is_v4mapped(&e->gid) ? 0 : link_local ? 2 : 1;
    return 3;
}

static int pick_gid(verbs_tp_t *v)
{
    const char *s = tp_knob(&v->base, "RMP_GID_INDEX");
    if (s) {
        char *end;
        long i = strtol(s, &end, 10);
        if (*end || i < 0 || i >= v->pattr.gid_tbl_len) {
            tp_error(&v->base, "verbs: RMP_GID_INDEX=%s is not an index of %s port %u's GID table "
                     "(0..%d; `show_gids` or `ibv_devinfo -v` lists them)", s, v->devname,
                     v->port, v->pattr.gid_tbl_len - 1);
            return RMP_ERR_ARG;
        }
        v->gid_index = (int)i;
    } else if (!v->roce) {
        v->gid_index = 0; /* InfiniBand: the port GID; addressing is by LID anyway */
    } else {
        int best = -1, best_rank = 99;
        for (int i = 0; i < v->pattr.gid_tbl_len; i++) {
            struct ibv_gid_entry e;
            if (ibv_query_gid_ex(v->dev, v->port, (uint32_t)i, &e, 0))
                continue; /* empty slots fail with ENODATA */
            int r = gid_rank(&e);
            if (r >= 0 && r < best_rank)
                best = i, best_rank = r;
        }
        if (best < 0) {
            DEV_FAIL(v, "verbs: %s port %u has no usable RoCE GID (is an IP address configured on "
                     "its network interface?)", v->devname, v->port);
            return RMP_ERR_NOT_SUPPORTED;
        }
        v->gid_index = best;
    }
    int rc = ibv_query_gid(v->dev, v->port, v->gid_index, &v->gid);
    if (rc) {
        tp_error(&v->base, "verbs: ibv_query_gid(%s port %u index %d): %s", v->devname, v->port,
                 v->gid_index, strerror(rc > 0 ? rc : errno));
        return RMP_ERR_TRANSPORT;
    }
    if (v->roce && gid_is_zero(&v->gid)) {
        tp_error(&v->base, "verbs: GID index %d of %s port %u is empty (pick another with "
                 "RMP_GID_INDEX)", v->gid_index, v->devname, v->port);
        return RMP_ERR_ARG;
    }
    return RMP_SUCCESS;
}

/* Open device d and check port p; RMP_SUCCESS if it is ACTIVE. */
static int try_port(verbs_tp_t *v, struct ibv_device *d, uint8_t p, bool named)
{
    if (ibv_query_port(v->dev, p, &v->pattr)) {
        DEV_FAIL(v, "verbs: ibv_query_port(%s port %u): %s (RMP_DEVICE=%s:<port> names a port "
                 "that exists)", ibv_get_device_name(d), p, strerror(errno),
                 ibv_get_device_name(d));
        return RMP_ERR_NOT_SUPPORTED;
    }
    if (v->pattr.state != IBV_PORT_ACTIVE) {
        if (!v->down_port[0])
            snprintf(v->down_port, sizeof(v->down_port), "%s port %u is %s",
                     ibv_get_device_name(d), p, state_str(v->pattr.state));
        if (named)
            DEV_FAIL(v, "verbs: port %u of %s is %s, not ACTIVE: check the link (`ibstat`, "
                     "`rdma link`), the subnet manager on InfiniBand, or choose another port "
                     "with RMP_DEVICE=%s:<port>", p, ibv_get_device_name(d),
                     state_str(v->pattr.state), ibv_get_device_name(d));
        return RMP_ERR_NOT_SUPPORTED;
    }
    v->port = p;
    return RMP_SUCCESS;
}

/* The capabilities this transport cannot work without, each with the way out. */
static int check_caps(verbs_tp_t *v)
{
    struct ibv_device_attr *a = &v->dattr;
    const char *miss = NULL;
    if (a->max_srq < 1 || a->max_srq_wr < 64)
        miss = "shared receive queues (max_srq / max_srq_wr)";
    else if ((uint32_t)a->max_qp_wr < 16)
        miss = "send queues of 16 work requests (max_qp_wr)";
    else if (a->max_cqe < 1024)
        miss = "completion queues of 1024 entries (max_cqe)";
    else if (v->pattr.max_msg_sz < VERBS_BUF_SIZE)
        miss = "messages of 8 KiB (max_msg_sz)";
    if (miss) {
        DEV_FAIL(v, "verbs: device %s lacks %s, which rmp's verbs transport needs: choose "
                 "another device with RMP_DEVICE=, or run with RMP_TRANSPORT=shm on one node",
                 v->devname, miss);
        return RMP_ERR_NOT_SUPPORTED;
    }
    return RMP_SUCCESS;
}

static int select_device(verbs_tp_t *v, struct ibv_device **list, int n)
{
    const char *want = tp_knob(&v->base, "RMP_DEVICE");
    char name[64] = "";
    long want_port = 0;
    if (want) {
        snprintf(name, sizeof(name), "%s", want);
        char *colon = strchr(name, ':');
        if (colon) {
            *colon = '\0';
            char *end;
            want_port = strtol(colon + 1, &end, 10);
            if (*end || want_port < 1 || want_port > 255) {
                tp_error(&v->base, "verbs: RMP_DEVICE=%s: the port after ':' must be a "
                         "number from 1 (e.g. RMP_DEVICE=mlx5_0:1)", want);
                return RMP_ERR_ARG;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        if (name[0] && strcmp(ibv_get_device_name(list[i]), name))
            continue;
        v->dev = ibv_open_device(list[i]);
        if (!v->dev) {
            DEV_FAIL(v, "verbs: ibv_open_device(%s): %s (permissions on /dev/infiniband?)",
                     ibv_get_device_name(list[i]), strerror(errno));
            continue;
        }
        if (ibv_query_device(v->dev, &v->dattr)) {
            DEV_FAIL(v, "verbs: ibv_query_device(%s): %s", ibv_get_device_name(list[i]),
                     strerror(errno));
        } else {
            uint8_t first = want_port ? (uint8_t)want_port : 1;
            uint8_t last = want_port ? (uint8_t)want_port : v->dattr.phys_port_cnt;
            for (uint8_t p = first; p >= 1 && p <= last; p++) {
                if (try_port(v, list[i], p, name[0] != '\0') == RMP_SUCCESS) {
                    snprintf(v->devname, sizeof(v->devname), "%s", ibv_get_device_name(list[i]));
                    return RMP_SUCCESS;
                }
            }
        }
        ibv_close_device(v->dev);
        v->dev = NULL;
    }
    if (name[0]) {
        bool found = false;
        for (int i = 0; i < n; i++)
            found |= !strcmp(ibv_get_device_name(list[i]), name);
        if (!found) {
            char all[256] = "";
            for (int i = 0; i < n; i++)
                snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? " " : "",
                         ibv_get_device_name(list[i]));
            DEV_FAIL(v, "verbs: RMP_DEVICE=%s: no such device (have: %s)", want, all);
        }
    } else {
        /* rxe reports its netdev's link: DOWN when the interface is down (`ip link set <if>
         * up`); InfiniBand ports sit in INIT until a subnet manager configures them. */
        DEV_FAIL(v, "verbs: no RDMA device has an ACTIVE port (%s): bring the link up (`ip "
                 "link`, `rdma link` show it; soft-RoCE follows its network interface), start "
                 "a subnet manager on InfiniBand (opensm), or name a port with RMP_DEVICE=",
                 v->down_port[0] ? v->down_port : "`ibv_devinfo` shows their state");
    }
    return RMP_ERR_NOT_SUPPORTED;
}

int verbs_dev_open(verbs_tp_t *v)
{
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    if (!list || n == 0) {
        /* The common case on a laptop or a container: no device at all. Not an error: the core
         * uses shm for local peers and says so for remote ones. */
        DEV_FAIL(v, "verbs: no RDMA device found (ibv_get_device_list: %s); without RDMA "
                 "hardware, soft-RoCE gives one: `rdma link add rxe0 type rxe netdev <if>`",
                 list ? "0 devices" : strerror(errno));
        if (list)
            ibv_free_device_list(list);
        return RMP_ERR_NOT_SUPPORTED;
    }
    int rc = select_device(v, list, n);
    ibv_free_device_list(list);
    if (rc != RMP_SUCCESS)
        return rc;
    v->roce = v->pattr.link_layer == IBV_LINK_LAYER_ETHERNET;
    v->max_msg = v->pattr.max_msg_sz;
    if ((rc = check_caps(v)) != RMP_SUCCESS || (rc = pick_gid(v)) != RMP_SUCCESS)
        return rc;
    if (!v->roce && v->pattr.lid == 0) {
        DEV_FAIL(v, "verbs: %s port %u has no LID yet: is a subnet manager running "
                 "(`sminfo`, opensm)?", v->devname, v->port);
        return RMP_ERR_NOT_SUPPORTED;
    }
    char g[64];
    verbs_gid_str(&v->gid, g, sizeof(g));
    tp_verbose(&v->base, "verbs: device %s port %u (%s), %s %d GID %s, active MTU %s, "
               "max_msg_sz %u", v->devname, v->port, v->roce ? "RoCE" : "InfiniBand",
               v->roce ? "GID index" : "LID", v->roce ? v->gid_index : v->pattr.lid, g,
               verbs_mtu_str(v->pattr.active_mtu), v->max_msg);
    return RMP_SUCCESS;
}

static void fmt_limit(rlim_t l, char *buf, size_t len)
{
    if (l == RLIM_INFINITY)
        snprintf(buf, len, "unlimited");
    else
        snprintf(buf, len, "%llu KiB", (unsigned long long)(l / 1024));
}

/* Providers that build their queues in user memory (mlx5, ...) pin it: creating a CQ, SRQ or
 * QP then fails with ENOMEM under a low memlock limit, just like a registration. */
const char *verbs_memlock_hint(int err)
{
    struct rlimit rl;
    if (err != ENOMEM || getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
        return "";
    return " (the locked-memory limit may be too low: raise it with `ulimit -l unlimited`)";
}

void verbs_reg_error(verbs_tp_t *v, const char *what, size_t len, int err)
{
    struct rlimit rl;
    bool memlock = (err == ENOMEM || err == EPERM || err == EAGAIN) &&
                   !getrlimit(RLIMIT_MEMLOCK, &rl);
    if (memlock && rl.rlim_cur != RLIM_INFINITY) {
        char cur[32];
        fmt_limit(rl.rlim_cur, cur, sizeof(cur));
        if (v->memlock_reported)
            return;
        v->memlock_reported = true;
        tp_error(&v->base, "verbs: ibv_reg_mr of %zu bytes (%s) on %s failed: %s. The locked-memory "
                 "limit is %s: raise it (`ulimit -l unlimited`; memlock in "
                 "/etc/security/limits.conf; LimitMEMLOCK= for systemd services; "
                 "--ulimit memlock=-1 for containers)", len, what, v->devname, strerror(err),
                 cur);
        return;
    }
    tp_error(&v->base, "verbs: ibv_reg_mr of %zu bytes (%s) on %s failed: %s", len, what,
             v->devname, strerror(err));
}
