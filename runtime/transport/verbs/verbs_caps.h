/* verbs_caps.h — what an RDMA device offers beyond plain RC verbs that rmp probes and reports:
 * automatic path migration (APM), the Dynamically Connected transport (DC) and user-mode memory
 * registration (UMR). Depends on libibverbs only, so rmp-info --devices prints the same lines
 * the transport prints under RMP_VERBOSE. */
#ifndef RMP_VERBS_CAPS_H
#define RMP_VERBS_CAPS_H

#include <infiniband/verbs.h>
#include <stdbool.h>

#define VERBS_CAP_LINE 320

typedef struct verbs_caps {
    bool apm;        /* IBV_DEVICE_AUTO_PATH_MIG reported */
    int alt_paths;   /* ACTIVE ports besides the first (an alternate path needs one) */
    int mlx5;        /* mlx5dv_is_supported: 1 yes, 0 no, -1 libmlx5 not installed */
    char apm_line[VERBS_CAP_LINE], dc_line[VERBS_CAP_LINE], umr_line[VERBS_CAP_LINE];
} verbs_caps_t;

/* Probe ctx (whose attributes are a): fills caps, each line starting "AUTO_PATH_MIG: ",
 * "DC: " or "UMR: " and saying what the device offers and what rmp does with it. */
void verbs_caps_probe(struct ibv_context *ctx, const struct ibv_device_attr *a,
                      verbs_caps_t *caps);

#endif
