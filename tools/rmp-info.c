/* rmp-info.c — what this rmp is and what it finds here (like ompi_info / ucx_info): the
 * version, how it was built, its transports, the RDMA devices libibverbs lists with their ports
 * and capabilities, and every RMP_* knob with its default and its value in this environment.
 * Needs no job: it runs the queries itself (libibverbs directly, the runtime's knob table). */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "transport/verbs/verbs_caps.h"
#include "knobs.h"
#include "rmp.h"

#ifndef RMP_INFO_CC
#define RMP_INFO_CC "unknown"
#define RMP_INFO_VARIANT "unknown"
#define RMP_INFO_CFLAGS ""
#endif
#ifndef RMP_INFO_FORTRAN /* mk/fortran.mk: what the Fortran bindings are, or why they are not */
#define RMP_INFO_FORTRAN "unknown"
#endif

static void info_version(void)
{
    int ma, mi, pa;
    const char *v = rmp_get_version(&ma, &mi, &pa);
    printf("rmp %s (library %d.%d.%d, header %s), MPI %d.%d subset through rmp/mpi.h\n", v, ma,
           mi, pa, RMP_VERSION_STRING, 3, 1);
}

static void info_build(void)
{
    printf("build: variant %s, compiler %s, flags %s\n", RMP_INFO_VARIANT, RMP_INFO_CC,
           RMP_INFO_CFLAGS);
    printf("fortran: %s\n", RMP_INFO_FORTRAN);
    printf("transports: self (a rank to itself), shm (ranks on one node: rings + CMA), "
           "verbs (RDMA: RC, UD multicast, atomics; needs a device below)\n");
}

static const char *info_atomics(enum ibv_atomic_cap cap)
{
    return cap == IBV_ATOMIC_HCA ? "yes (HCA)" : cap == IBV_ATOMIC_GLOB ? "yes (global)" : "no";
}

static const char *info_link(uint8_t layer)
{
    return layer == IBV_LINK_LAYER_ETHERNET     ? "Ethernet (RoCE)"
           : layer == IBV_LINK_LAYER_INFINIBAND ? "InfiniBand"
                                                : "unspecified";
}

/* The port's non-zero GIDs, one line each, as 8 groups of 4 hex digits. */
static void info_gids(struct ibv_context *ctx, uint8_t port, int tbl_len)
{
    int shown = 0;
    for (int i = 0; i < tbl_len; i++) {
        union ibv_gid gid;
        if (ibv_query_gid(ctx, port, i, &gid) != 0)
            break;
        static const uint8_t zero[16];
        if (memcmp(gid.raw, zero, sizeof zero) == 0)
            continue;
        printf("      GID[%d] ", i);
        for (int b = 0; b < 16; b += 2)
            printf("%02x%02x%s", gid.raw[b], gid.raw[b + 1], b < 14 ? ":" : "\n");
        shown++;
    }
    if (!shown)
        printf("      no GID configured (RoCE needs an IP address on the netdev)\n");
}

static void info_port(struct ibv_context *ctx, uint8_t port)
{
    struct ibv_port_attr pa;
    int err = ibv_query_port(ctx, port, &pa);
    if (err) {
        printf("    port %u: ibv_query_port failed: %s\n", port, strerror(err));
        return;
    }
    printf("    port %u: %s, link layer %s, MTU %d active / %d max, LID %u\n", port,
           ibv_port_state_str(pa.state), info_link(pa.link_layer), 128 << pa.active_mtu,
           128 << pa.max_mtu, pa.lid);
    info_gids(ctx, port, pa.gid_tbl_len);
}

static void info_device(struct ibv_device *dev)
{
    const char *name = ibv_get_device_name(dev);
    struct ibv_context *ctx = ibv_open_device(dev);
    if (!ctx) {
        printf("  device %s: cannot open: %s (check /dev/infiniband permissions)\n", name,
               strerror(errno));
        return;
    }
    struct ibv_device_attr a;
    int err = ibv_query_device(ctx, &a);
    if (err) {
        printf("  device %s: ibv_query_device failed: %s\n", name, strerror(err));
    } else {
        printf("  device %s: %u port(s), firmware %s, max QPs %d, max MR size %llu\n", name,
               a.phys_port_cnt, a.fw_ver[0] ? a.fw_ver : "?", a.max_qp,
               (unsigned long long)a.max_mr_size);
        printf("    SRQ: %s (max %d)  atomics: %s  multicast: %s (max %d groups)\n",
               a.max_srq > 0 ? "yes" : "no", a.max_srq, info_atomics(a.atomic_cap),
               a.max_mcast_grp > 0 ? "yes" : "no", a.max_mcast_grp);
        /* CORE-Direct (cross-channel) has no capability bit in upstream libibverbs. */
        printf("    cross-channel: not reported (upstream libibverbs has no query for it)\n");
        verbs_caps_t caps;
        verbs_caps_probe(ctx, &a, &caps);
        printf("    %s\n    %s\n    %s\n", caps.apm_line, caps.dc_line, caps.umr_line);
        for (uint8_t p = 1; p <= a.phys_port_cnt; p++)
            info_port(ctx, p);
    }
    if (ibv_close_device(ctx) != 0)
        fprintf(stderr, "rmp-info: ibv_close_device(%s) failed\n", name);
}

/* Verbs pins every registered buffer and, with most providers, the queues themselves: a job
 * started under a small locked-memory limit (a resource manager's daemon passes its own down)
 * fails at its first large message. Said here, on the node, before any job hits it. */
static void info_memlock(int ndev)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_MEMLOCK, &rl)) {
        printf("locked memory (ulimit -l): unknown: %s\n", strerror(errno));
        return;
    }
    if (rl.rlim_cur == RLIM_INFINITY) {
        printf("locked memory (ulimit -l): unlimited\n");
        return;
    }
    printf("locked memory (ulimit -l): %llu KiB%s\n", (unsigned long long)(rl.rlim_cur / 1024),
           ndev > 0 ? ": verbs registers message buffers (rendezvous, RMA windows) and may need "
                      "more; `ulimit -l unlimited` for jobs across nodes"
                    : "");
}

static void info_devices(void)
{
    int n = 0;
    errno = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    if (!list) {
        printf("verbs devices: none (no RDMA device on this host: libibverbs cannot list "
               "devices: %s); ranks on one node use shm, jobs across nodes need a device\n",
               strerror(errno));
        return;
    }
    if (n == 0)
        printf("verbs devices: none (no RDMA device on this host); ranks on one node use "
               "shm, and jobs across nodes need a device\n");
    else
        printf("verbs devices: %d\n", n);
    for (int i = 0; i < n; i++)
        info_device(list[i]);
    ibv_free_device_list(list);
    info_memlock(n);
}

/* One knob: name, default, current value (or why it is refused), and its documentation. */
static bool info_knob(const knob_t *k)
{
    const char *text = getenv(k->name);
    char cur[KNOB_TEXT_MAX + 64], err[256];
    bool ok = true;
    if (!text || !*text) {
        snprintf(cur, sizeof cur, "(unset)");
    } else {
        knob_val_t v;
        ok = knob_parse(k, text, &v, err, sizeof err) == 0;
        snprintf(cur, sizeof cur, "%s%s", text, ok ? "" : " (INVALID)");
    }
    printf("  %-32s default %-14s current %s\n", k->name, k->dflt ? k->dflt : "(see doc)", cur);
    printf("      %s\n", k->doc);
    if (!ok)
        printf("      %s\n", err);
    return ok;
}

static void info_typo(const char *line)
{
    printf("  %s\n", line); /* the line starts with "warning:" and has no newline */
}

static int info_knobs(void)
{
    int bad = 0;
    printf("knobs: %d (RMP_* environment variables, read by rmp_init)\n", KNOB_COUNT);
    for (int i = 0; i < KNOB_COUNT; i++)
        bad += !info_knob(&knob_table[i]);
    knob_warn_typos(info_typo);
    return bad;
}

int main(int argc, char **argv)
{
    bool all = argc == 1, knobs = false, devices = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--version")) {
            info_version();
            return 0;
        } else if (!strcmp(argv[i], "--knobs")) {
            knobs = true;
        } else if (!strcmp(argv[i], "--devices")) {
            devices = true;
        } else {
            fprintf(stderr, "%s: unknown option '%s'\n"
                            "usage: rmp-info [--version | --knobs | --devices]\n",
                    argv[0], argv[i]);
            return strcmp(argv[i], "--help") && strcmp(argv[i], "-h") ? 2 : 0;
        }
    }
    if (all) {
        info_version();
        info_build();
    }
    if (all || devices)
        info_devices();
    int bad = all || knobs ? info_knobs() : 0;
    if (bad)
        fprintf(stderr, "rmp-info: %d knob(s) have values rmp_init would refuse (see above)\n",
                bad);
    return bad ? 1 : 0;
}
