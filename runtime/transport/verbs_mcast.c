/* verbs_mcast.c — PLACEHOLDER until the mcast backend lands: refuses every call. */
#include <stdio.h>

#include "transport/verbs.h"

static int mcast_start(verbs_tp_t *v, const ofl_comm_t *comm, const ofl_args_t *a,
                      ofl_req_t **req, char *why, size_t len)
{
    snprintf(why, len, "mcast: not built yet");
    return RMP_ERR_NOT_SUPPORTED;
}
static int mcast_progress(ofl_req_t *req) { return RMP_ERR_INTERNAL; }
static void mcast_finish(ofl_req_t *req) {}
static void mcast_comm_free(verbs_tp_t *v, const ofl_comm_t *comm) {}
static int mcast_open(verbs_tp_t *v) { return RMP_SUCCESS; }
static int mcast_wireup(verbs_tp_t *v) { return RMP_SUCCESS; }
static int mcast_progress_tp(verbs_tp_t *v) { return 0; }
static void mcast_close(verbs_tp_t *v) {}

const verbs_ofl_backend_t verbs_mcast_backend = {
    .name = "mcast", .start = mcast_start, .progress = mcast_progress, .finish = mcast_finish,
    .comm_free = mcast_comm_free, .open = mcast_open, .wireup = mcast_wireup,
    .progress_tp = mcast_progress_tp, .close = mcast_close,
};
