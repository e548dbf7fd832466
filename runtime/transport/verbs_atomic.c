/* verbs_atomic.c — PLACEHOLDER until the atomic backend lands: refuses every call. */
#include <stdio.h>

#include "transport/verbs.h"

static int atomic_start(verbs_tp_t *v, const ofl_comm_t *comm, const ofl_args_t *a,
                      ofl_req_t **req, char *why, size_t len)
{
    snprintf(why, len, "atomic: not built yet");
    return RMP_ERR_NOT_SUPPORTED;
}
static int atomic_progress(ofl_req_t *req) { return RMP_ERR_INTERNAL; }
static void atomic_finish(ofl_req_t *req) {}
static void atomic_comm_free(verbs_tp_t *v, const ofl_comm_t *comm) {}
static int atomic_open(verbs_tp_t *v) { return RMP_SUCCESS; }
static int atomic_wireup(verbs_tp_t *v) { return RMP_SUCCESS; }
static int atomic_progress_tp(verbs_tp_t *v) { return 0; }
static void atomic_close(verbs_tp_t *v) {}

const verbs_ofl_backend_t verbs_atomic_backend = {
    .name = "atomic", .start = atomic_start, .progress = atomic_progress, .finish = atomic_finish,
    .comm_free = atomic_comm_free, .open = atomic_open, .wireup = atomic_wireup,
    .progress_tp = atomic_progress_tp, .close = atomic_close,
};
