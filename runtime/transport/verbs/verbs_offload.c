/* verbs_offload.c — the verbs transport's offload table (offload.h). bcast goes to the UD
 * multicast backend (verbs_mcast.c), barrier and allreduce to the RDMA-atomics backend
 * (verbs_atomic.c); each says at start() whether it runs the call. Also owns what both share:
 * the control region (registered memory per process that peers read, write and run atomics
 * on, published in the verbs blob) and the per-communicator state slots. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/verbs/verbs.h"

/* Per communicator: one slot per backend, kept on a list so close() frees what is left. */
typedef struct ofl_comm_slots {
    struct ofl_comm_slots *next, **pprev;
    void *mcast, *atomic;
} ofl_comm_slots_t;

static ofl_comm_slots_t *slots_head; /* one verbs transport per process */

static const verbs_ofl_backend_t *backend_for(ofl_coll_t coll)
{
    return coll == OFL_BCAST ? &verbs_mcast_backend : &verbs_atomic_backend;
}

static void **slot_of(ofl_comm_slots_t *s, const verbs_ofl_backend_t *be)
{
    return be == &verbs_mcast_backend ? &s->mcast : &s->atomic;
}

static int ofl_start(tp_t *tp, const ofl_comm_t *comm, const ofl_args_t *a, ofl_req_t **req,
                     char *why, size_t len)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    if (!v->ctrl_mr) {
        snprintf(why, len, "verbs offload is off (RMP_MCAST=off and RMP_COLL_OFFLOAD=off)");
        return RMP_ERR_NOT_SUPPORTED;
    }
    ofl_comm_slots_t *s = *comm->state;
    if (!s) {
        if (!(s = calloc(1, sizeof(*s))))
            return RMP_ERR_NO_MEM;
        s->next = slots_head;
        s->pprev = &slots_head;
        if (slots_head)
            slots_head->pprev = &s->next;
        slots_head = s;
        *comm->state = s;
    }
    const verbs_ofl_backend_t *be = backend_for(a->coll);
    ofl_comm_t mine = *comm;
    mine.state = slot_of(s, be);
    return be->start(v, &mine, a, req, why, len);
}

static int ofl_progress(ofl_req_t *req)
{
    return req->be->progress(req);
}

static void ofl_finish(ofl_req_t *req)
{
    req->be->finish(req);
}

static void slots_free(verbs_tp_t *v, ofl_comm_slots_t *s, const ofl_comm_t *comm)
{
    const verbs_ofl_backend_t *all[] = {&verbs_mcast_backend, &verbs_atomic_backend};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        ofl_comm_t mine = comm ? *comm : (ofl_comm_t){0};
        mine.state = slot_of(s, all[i]);
        if (*mine.state)
            all[i]->comm_free(v, &mine);
    }
    *s->pprev = s->next;
    if (s->next)
        s->next->pprev = s->pprev;
    free(s);
}

static void ofl_comm_free(tp_t *tp, const ofl_comm_t *comm)
{
    ofl_comm_slots_t *s = *comm->state;
    if (s)
        slots_free((verbs_tp_t *)tp, s, comm);
    *comm->state = NULL;
}

const ofl_ops_t verbs_offload_ops = {
    .name = "verbs",
    .where = "on the adapter",
    .start = ofl_start,
    .progress = ofl_progress,
    .finish = ofl_finish,
    .comm_free = ofl_comm_free,
};

/* ---- the control region ------------------------------------------------------------------ */

static bool knob_off(verbs_tp_t *v, const char *name)
{
    const char *s = tp_knob(&v->base, name);
    return s && !strcmp(s, "off");
}

int verbs_offload_open(verbs_tp_t *v)
{
    if (knob_off(v, "RMP_MCAST") && knob_off(v, "RMP_COLL_OFFLOAD")) {
        tp_verbose(&v->base, "verbs: offload off (RMP_MCAST=off, RMP_COLL_OFFLOAD=off)");
        return RMP_SUCCESS;
    }
    if (posix_memalign((void **)&v->ctrl, 4096, VERBS_CTRL_BYTES))
        return RMP_ERR_NO_MEM;
    memset(v->ctrl, 0, VERBS_CTRL_BYTES);
    v->ctrl_mr = ibv_reg_mr(v->pd, v->ctrl, VERBS_CTRL_BYTES,
                            IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
                                IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
    if (!v->ctrl_mr) {
        verbs_reg_error(v, "the offload control region", VERBS_CTRL_BYTES, errno);
        return RMP_ERR_TRANSPORT;
    }
    v->base.offload = &verbs_offload_ops;
    int rc = verbs_mcast_backend.open(v);
    if (rc == RMP_SUCCESS)
        rc = verbs_atomic_backend.open(v);
    /* A QP to every peer (same node and self too) costs start-up time and memory in every
     * process: only when a backend may run at all. Otherwise each call's refusal says why. */
    v->ofl_qps = rc == RMP_SUCCESS &&
                 (verbs_mcast_backend.may_run(v) || verbs_atomic_backend.may_run(v));
    if (rc == RMP_SUCCESS && !v->ofl_qps)
        tp_verbose(&v->base, "verbs: offload: no backend can run in this job: QPs only to the "
                   "peers the core routes to verbs");
    return rc;
}

/* The blob exists once the wiring opened (open_all): publish the region in it. */
void verbs_offload_publish(verbs_tp_t *v)
{
    if (v->ctrl_mr && v->blob) {
        v->blob->ctrl_addr = (uint64_t)(uintptr_t)v->ctrl;
        v->blob->ctrl_rkey = v->ctrl_mr->rkey;
        v->blob->ctrl_len = VERBS_CTRL_BYTES;
        v->blob->mcast_qpn = verbs_mcast_qpn(v);
        v->blob->ofl_caps = verbs_atomic_caps(v);
    }
}

int verbs_offload_wireup(verbs_tp_t *v)
{
    if (!v->ctrl_mr)
        return RMP_SUCCESS;
    int rc = verbs_mcast_backend.wireup(v);
    return rc ? rc : verbs_atomic_backend.wireup(v);
}

int verbs_offload_progress(verbs_tp_t *v)
{
    if (!v->ctrl_mr)
        return 0;
    return verbs_mcast_backend.progress_tp(v) + verbs_atomic_backend.progress_tp(v);
}

void verbs_offload_close(verbs_tp_t *v)
{
    while (slots_head)
        slots_free(v, slots_head, NULL);
    if (v->ctrl_mr) {
        verbs_mcast_backend.close(v);
        verbs_atomic_backend.close(v);
    }
    if (v->ctrl_mr && ibv_dereg_mr(v->ctrl_mr))
        tp_verbose(&v->base, "verbs: ibv_dereg_mr (control region): %s", strerror(errno));
    v->ctrl_mr = NULL;
    free(v->ctrl);
    v->ctrl = NULL;
}
