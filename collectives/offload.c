/* offload.c — the collective layer's one door to the adapter (runtime/transport/offload.h):
 * before a collective builds its software schedule it asks the transport that offers offload
 * whether it runs this call; if so the call becomes a collective request driven by the
 * backend's progress, otherwise the schedule runs. RMP_VERBOSE says, once per communicator,
 * collective and outcome, what was chosen and why. */
#include <stdio.h>
#include <stdlib.h>

#include "coll.h"
#include "hang.h"

static const char *const coll_names[OFL_NCOLL] = {"bcast", "barrier", "allreduce",
                                                   "allgather"};

typedef struct ofl_call {
    ofl_req_t *oreq;
    const ofl_ops_t *ops;
    comm_t *comm; /* held while the call runs (comm_hold) */
    rmp_op_t op;  /* its reduction's op, held likewise (op_hold); RMP_OP_NULL: none */
    ofl_coll_t coll;
    uint32_t seq; /* its collective sequence number (the hang report) */
} ofl_call_t;

/* Whether any transport has an offload table (fixed from rmp_init to rmp_finalize). */
static bool offload_any(rmp_ctx_t *c)
{
    for (int i = 0; i < c->ntps; i++)
        if (c->tps[i]->offload)
            return true;
    return false;
}

/* Looks of a blocking call at its result before it waits as a request (coll_offload): a few
 * microseconds at most. */
#define OFL_SPIN 64

static inline void ofl_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* The last call's block, kept for the next (lock held): no malloc per small collective. */
static ofl_call_t *call_spare;

static ofl_call_t *call_new(void)
{
    ofl_call_t *call = call_spare;
    call_spare = NULL;
    return call ? call : malloc(sizeof(*call));
}

static void call_free(ofl_call_t *call)
{
    free(call_spare);
    call_spare = call;
}

static int offload_progress(struct rmp_request *r)
{
    ofl_call_t *call = r->coll;
    int rc = call->ops->progress(call->oreq);
    if (rc == RMP_INPROGRESS)
        return 0;
    call->ops->finish(call->oreq);
    comm_t *comm = call->comm;
    rmp_op_t op = call->op;
    call_free(call);
    r->coll = NULL;
    progress_coll_remove(&rmp_ctx, r);
    req_complete(r, rc);
    comm_unhold(comm);
    op_unhold(op);
    return 1;
}

/* The hang report's line for a call a backend runs (lock held). */
static void offload_describe(struct rmp_request *r, char *buf, size_t len)
{
    ofl_call_t *call = r->coll;
    char cn[160];
    hang_comm_name(call->comm, cn, sizeof(cn));
    int used = snprintf(buf, len, "%s %s (%s) on %s, collective seq %u: ",
                        coll_names[call->coll], call->ops->where, call->ops->name, cn,
                        call->seq);
    if (used < 0 || (size_t)used >= len)
        return;
    if (call->ops->describe)
        call->ops->describe(call->oreq, buf + used, len - (size_t)used);
    else
        snprintf(buf + used, len - (size_t)used, "in progress (the backend says no more)");
}

static void offload_say(comm_t *comm, const ofl_args_t *a, bool taken, const ofl_ops_t *who,
                        const char *why)
{
    uint32_t bit = 1u << (a->coll * 2 + taken);
    if (comm->offload_said & bit)
        return;
    comm->offload_said |= bit;
    if (!why[0]) /* no backend gave a reason */
        why = comm->size <= 1 ? "a single rank"
                              : "no transport here runs collectives on the adapter";
    if (taken)
        core_verbose(&rmp_ctx, "offload: %s on a communicator of %d (context %u) runs %s (%s)",
                     coll_names[a->coll], comm->size, comm->ctx_id, who->where, who->name);
    else
        core_verbose(&rmp_ctx, "offload: %s on a communicator of %d (context %u) runs the "
                     "software schedule: %s", coll_names[a->coll], comm->size, comm->ctx_id,
                     why);
}

int coll_offload(const coll_t *cl, ofl_args_t *a, rmp_request_t *req)
{
    rmp_ctx_t *c = &rmp_ctx;
    comm_t *comm = cl->comm;
    a->seq = (uint32_t)cl->tag;
    /* The transports and their tables are fixed from rmp_init to rmp_finalize, so the common
     * answer (no adapter offload here: every shm-only job) costs no lock on the small-collective
     * path; only RMP_VERBOSE wants the reason said, under the lock below. */
    /* a persistent collective's start runs its software schedule: it reuses the tag of its
     * init (a backend's sequence number would go backwards) and completes as its own
     * request (persist_coll.c) */
    if (coll_pmode.mode == PCOLL_START)
        return RMP_ERR_NOT_SUPPORTED;
    /* RMP_CHECK_COLLECTIVES: the schedule starts with the check (coll_check.c), which no
     * backend runs */
    if (c->cfg.check_coll && cl->sig.kind != CK_NONE)
        return RMP_ERR_NOT_SUPPORTED;
    bool any = comm->size > 1 && !comm->dyn && offload_any(c); /* (dyn: sockets) */
    if (!any && !c->cfg.verbose)
        return RMP_ERR_NOT_SUPPORTED;
    ctx_lock(c);
    char why[320]; /* filled only when said: zeroing it per call showed in small collectives */
    why[0] = '\0';
    ofl_comm_t oc = {.ctx_id = comm->ctx_id + COLL_CTXOFF, .rank = comm->rank,
                     .size = comm->size, .world = comm->world, .state = &comm->offload};
    ofl_req_t *oreq = NULL;
    tp_t *tp = NULL;
    int rc = RMP_ERR_NOT_SUPPORTED;
    size_t used = 0;
    /* Every backend in transport order (shm before verbs: a communicator inside one node is
     * best served by memory); the reasons of those that decline are said together. */
    for (int i = 0; any && i < c->ntps && rc == RMP_ERR_NOT_SUPPORTED; i++) {
        if (!(tp = c->tps[i])->offload)
            continue;
        char one[160];
        one[0] = '\0';
        rc = tp->offload->start(tp, &oc, a, &oreq, one, sizeof(one));
        if (rc == RMP_ERR_NOT_SUPPORTED && one[0] && used < sizeof(why))
            used += (size_t)snprintf(why + used, sizeof(why) - used, "%s%s", used ? "; " : "",
                                     one);
    }
    offload_say(comm, a, rc == RMP_SUCCESS, rc == RMP_SUCCESS ? tp->offload : NULL, why);
    if (rc != RMP_SUCCESS) {
        ctx_unlock(c);
        return rc;
    }
    if (cl->blocking) { /* done at once (a root's publication): no request to make and free */
        /* A member that came first looks at its result line a little before it makes a
         * request and enters the progress engine (a few hundred instructions per look): the
         * root's publication or the last member's result comes within ~1 us when the ranks
         * have a core each. Not when they outnumber the cores: the one it waits for may need
         * this core. Nothing else progresses meanwhile, and the shm backend's calls need
         * nothing else (they wait for their peers' stores); any backend's call that is not
         * done after these looks waits in the progress engine, where everything progresses. */
        int spins = c->oversubscribed ? 1 : OFL_SPIN;
        while ((rc = tp->offload->progress(oreq)) == RMP_INPROGRESS && --spins > 0)
            ofl_relax();
        if (rc != RMP_INPROGRESS) {
            tp->offload->finish(oreq);
            ctx_unlock(c);
            *req = RMP_REQUEST_NULL;
            return rc;
        }
    }
    ofl_call_t *call = call_new();
    struct rmp_request *r = call ? req_alloc(REQ_COLL) : NULL;
    if (!r) {
        /* The call has started on the adapter and peers count on it: finish it here. */
        while ((rc = tp->offload->progress(oreq)) == RMP_INPROGRESS)
            progress_poll(c);
        tp->offload->finish(oreq);
        call_free(call);
        ctx_unlock(c);
        return rc ? rc : RMP_ERR_NO_MEM;
    }
    *call = (ofl_call_t){.oreq = oreq, .ops = tp->offload, .comm = comm,
                         .op = a->reduce.fn ? (rmp_op_t)a->reduce.op : RMP_OP_NULL,
                         .coll = a->coll, .seq = a->seq};
    comm_hold(comm);
    op_hold(call->op);
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    r->coll = call;
    r->coll_progress = offload_progress;
    r->coll_describe = offload_describe;
    *req = req_handle(r); /* before progress: r may complete (but not be freed) at once */
    progress_coll_add(c, r);
    if (!cl->blocking) /* (a blocking call has just looked, and its wait looks again) */
        offload_progress(r);
    ctx_unlock(c);
    return RMP_SUCCESS;
}

void coll_offload_comm_free(comm_t *comm)
{
    rmp_ctx_t *c = &rmp_ctx;
    ofl_comm_t oc = {.ctx_id = comm->ctx_id + COLL_CTXOFF, .rank = comm->rank,
                     .size = comm->size, .world = comm->world, .state = &comm->offload};
    for (int i = 0; i < c->ntps; i++)
        if (c->tps[i]->offload)
            c->tps[i]->offload->comm_free(c->tps[i], &oc);
}

static int host_reduce(const ofl_reduce_t *r, const void *in, void *inout)
{
    return op_apply(r->op, r->dt, in, inout, r->n);
}

ofl_reduce_t coll_offload_reduce(rmp_op_t op, const dtype_t *dt, int count)
{
    red_t rd = red_of(op, dt);
    return (ofl_reduce_t){.fn = host_reduce, .op = op, .dt = dt,
                          .n = rd.esz ? (size_t)count * dt->size / rd.esz : 0};
}

ofl_op_t coll_offload_op(rmp_op_t op)
{
    switch (op) {
    case RMP_SUM: return OFL_OP_SUM;
    case RMP_MIN: return OFL_OP_MIN;
    case RMP_MAX: return OFL_OP_MAX;
    case RMP_BAND: return OFL_OP_BAND;
    case RMP_BOR: return OFL_OP_BOR;
    default: return OFL_OP_OTHER;
    }
}

ofl_elem_t coll_offload_elem(dt_base_t base)
{
    switch (base) {
    case DT_INT32: return OFL_I32;
    case DT_UINT32: return OFL_U32;
    case DT_INT64: return OFL_I64;
    case DT_UINT64: return OFL_U64;
    default: return OFL_ELEM_OTHER;
    }
}
