/* verbs_probe.c — what the device offers the collective offload, probed once at open and
 * reported honestly in one RMP_VERBOSE line per capability: HCA atomics (used: verbs_atomic.c),
 * cross-channel / CORE-Direct and masked (extended) atomics (never used: upstream rdma-core has
 * no portable verbs for either; on mlx5 they live behind DevX and raw WQEs, which nothing here
 * can run); APM, DC and UMR (verbs_caps.c: reported, not used). The offload table (offload.h) is where a backend for them would plug in. */
#include <stdio.h>
#include <string.h>

#include "transport/verbs/verbs.h"
#include "transport/verbs/verbs_caps.h"

/* Build time: the mlx5 direct-verbs header is the only upstream door to mlx5 specifics. */
#if defined(__has_include)
#if __has_include(<infiniband/mlx5dv.h>)
#define PROBE_HAVE_MLX5DV 1
#endif
#endif
#ifndef PROBE_HAVE_MLX5DV
#define PROBE_HAVE_MLX5DV 0
#endif

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
    verbs_caps_t caps;
    verbs_caps_probe(v->dev, &v->dattr, &caps);
    int mlx5 = caps.mlx5;
    p->mlx5 = mlx5 > 0;
    probe_mlx5_only(v, mlx5, "cross-channel");
    probe_mlx5_only(v, mlx5, "masked atomics");
}

void verbs_probe_paths(verbs_tp_t *v)
{
    if (!v->base.env->verbose)
        return;
    verbs_caps_t caps;
    verbs_caps_probe(v->dev, &v->dattr, &caps);
    tp_verbose(&v->base, "verbs: %s", caps.apm_line);
    tp_verbose(&v->base, "verbs: %s", caps.dc_line);
    tp_verbose(&v->base, "verbs: %s", caps.umr_line);
}
