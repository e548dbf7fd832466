/* verbs_probe.c — what the device offers the collective offload, probed once at open and
 * reported honestly in one RMP_VERBOSE line per capability: HCA atomics (used: verbs_atomic.c),
 * cross-channel / CORE-Direct and masked (extended) atomics (never used: upstream rdma-core has
 * no portable verbs for either; on mlx5 they live behind DevX and raw WQEs, which nothing here
 * can run). The offload table (offload.h) is where a backend for them would plug in. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "transport/verbs/verbs.h"

/* Build time: the mlx5 direct-verbs header is the only upstream door to mlx5 specifics. */
#if defined(__has_include)
#if __has_include(<infiniband/mlx5dv.h>)
#define PROBE_HAVE_MLX5DV 1
#endif
#endif
#ifndef PROBE_HAVE_MLX5DV
#define PROBE_HAVE_MLX5DV 0
#endif

/* Whether the device is driven by mlx5. rmp does not link libmlx5 (nothing here runs on it):
 * ask it through dlopen when it is installed, else "unknown" (-1). */
static int probe_is_mlx5(struct ibv_device *d)
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

static struct ibv_device *probe_device(verbs_tp_t *v)
{
    return v->dev ? v->dev->device : NULL;
}

static void probe_atomics(verbs_tp_t *v, verbs_probe_t *p)
{
    const tp_t *tp = &v->base;
    p->atomic_hca = v->dattr.atomic_cap != IBV_ATOMIC_NONE;
    const char *scope = v->dattr.atomic_cap == IBV_ATOMIC_GLOB ? "GLOB (atomic with the CPU too)"
                        : p->atomic_hca ? "HCA (atomic among the adapter's own atomics)"
                                        : "NONE";
    if (p->atomic_hca)
        tp_verbose(tp, "atomics: %s on %s: fetch-add and compare-swap on 8 bytes, used for "
                   "barrier and small integer allreduce (RMP_COLL_OFFLOAD)", scope, v->devname);
    else
        tp_verbose(tp, "atomics: not available: %s reports atomic_cap %s: barrier and "
                   "allreduce run the software schedules", v->devname, scope);
}

/* Cross-channel (WAIT / SEND_EN work requests) and masked atomics share one answer: no
 * upstream verb exists; an mlx5 could expose them through DevX, for which rmp has no backend. */
static void probe_mlx5_only(verbs_tp_t *v, int mlx5, const char *what)
{
    const tp_t *tp = &v->base;
    if (mlx5 > 0)
        tp_verbose(tp, "%s: not used: %s is an mlx5 device, where it is reachable only "
                   "through DevX and raw WQEs (mlx5dv_wr_raw_wqe); rmp has no backend for it, "
                   "collectives run on atomics or in software", what, v->devname);
    else
        tp_verbose(tp, "%s: not available: device %s (vendor 0x%x, part %u) is not mlx5%s; "
                   "upstream rdma-core has no verb for it (headers: %s)", what, v->devname,
                   v->dattr.vendor_id, v->dattr.vendor_part_id,
                   mlx5 < 0 ? " (libmlx5 not installed)" : "",
                   PROBE_HAVE_MLX5DV ? "infiniband/mlx5dv.h present, no cross-channel or "
                                         "masked-atomic API in it"
                                       : "no infiniband/mlx5dv.h");
}

void verbs_probe_offload(verbs_tp_t *v, verbs_probe_t *p)
{
    memset(p, 0, sizeof(*p));
    probe_atomics(v, p);
    struct ibv_device *d = probe_device(v);
    int mlx5 = d ? probe_is_mlx5(d) : -1;
    p->mlx5 = mlx5 > 0;
    probe_mlx5_only(v, mlx5, "cross-channel");
    probe_mlx5_only(v, mlx5, "masked atomics");
}
