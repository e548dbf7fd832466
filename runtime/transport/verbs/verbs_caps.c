/* verbs_caps.c — the APM, DC and UMR probes (verbs_caps.h). rmp uses none of the three yet:
 * APM needs an alternate path (a second ACTIVE port, or a second fabric path) that the devices
 * rmp is tested on do not have; DC and UMR are mlx5-only (mlx5dv), and no mlx5 device is in
 * reach of the test suite, so no code path here claims to drive them. The lines say so per
 * device, and README's verbs section holds the DC design for a later step on real hardware. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "transport/verbs/verbs_caps.h"

/* Whether the device is driven by mlx5: asked through dlopen (rmp does not link libmlx5). */
static int caps_is_mlx5(struct ibv_device *d)
{
    void *lib = dlopen("libmlx5.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    bool (*is_supported)(struct ibv_device *);
    *(void **)&is_supported = dlsym(lib, "mlx5dv_is_supported");
    int r = is_supported ? is_supported(d) : -1;
    dlclose(lib);
    return r;
}

static int caps_alt_ports(struct ibv_context *ctx, const struct ibv_device_attr *a)
{
    int active = 0;
    for (uint8_t p = 1; p <= a->phys_port_cnt; p++) {
        struct ibv_port_attr pa;
        active += ibv_query_port(ctx, p, &pa) == 0 && pa.state == IBV_PORT_ACTIVE;
    }
    return active > 1 ? active - 1 : 0;
}

static void caps_apm(const char *name, bool rxe, verbs_caps_t *c)
{
    if (!c->apm)
        snprintf(c->apm_line, VERBS_CAP_LINE, "AUTO_PATH_MIG: no (%s does not report "
                 "IBV_DEVICE_AUTO_PATH_MIG): a failed path fails its peers", name);
    else if (rxe)
        snprintf(c->apm_line, VERBS_CAP_LINE, "AUTO_PATH_MIG: reported by %s, not used: "
                 "soft-RoCE stores an alternate path but its requester never migrates to it "
                 "(no IBV_EVENT_PATH_MIG ever comes); %d other ACTIVE port(s)", name,
                 c->alt_paths);
    else
        snprintf(c->apm_line, VERBS_CAP_LINE, "AUTO_PATH_MIG: yes on %s, %d other ACTIVE "
                 "port(s); rmp loads no alternate path yet (untested without such hardware), "
                 "a migration event is reported", name, c->alt_paths);
}

static void caps_mlx5_only(const char *name, int mlx5, const char *what, const char *api,
                           char *line)
{
    if (mlx5 > 0)
        snprintf(line, VERBS_CAP_LINE, "%s: %s is mlx5 (%s): available, not used by rmp yet "
                 "(see README, transports)", what, name, api);
    else
        snprintf(line, VERBS_CAP_LINE, "%s: no: %s is not an mlx5 device (%s), and %s exists "
                 "only there (%s)", what, name,
                 mlx5 < 0 ? "libmlx5 not installed" : "mlx5dv_is_supported: no", what, api);
}

void verbs_caps_probe(struct ibv_context *ctx, const struct ibv_device_attr *a,
                      verbs_caps_t *c)
{
    memset(c, 0, sizeof(*c));
    const char *name = ibv_get_device_name(ctx->device);
    c->apm = (a->device_cap_flags & IBV_DEVICE_AUTO_PATH_MIG) != 0;
    c->alt_paths = caps_alt_ports(ctx, a);
    c->mlx5 = caps_is_mlx5(ctx->device);
    caps_apm(name, a->vendor_id == 0xffffff /* rdma_rxe's RXE_VENDOR_ID */, c);
    caps_mlx5_only(name, c->mlx5, "DC", "mlx5dv_create_qp with MLX5DV_DCTYPE_DCI/DCT",
                   c->dc_line);
    caps_mlx5_only(name, c->mlx5, "UMR", "mlx5dv_wr_mr_list, mlx5dv_wr_mr_interleaved",
                   c->umr_line);
}
