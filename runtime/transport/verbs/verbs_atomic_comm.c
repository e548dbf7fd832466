/* verbs_atomic_comm.c — the RDMA-atomics backend (verbs_atomic.c) per communicator and as a
 * whole: which calls it takes (RMP_COLL_OFFLOAD, the op, the type, the size, what was measured
 * to win under auto) and why it refuses the others, each communicator's slot and its members'
 * regions, and the backend's open, wireup, progress and close. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/verbs/verbs_atomic.h"

/* ---- selection ----------------------------------------------------------------------------- */

/* Per communicator, decided once from job-wide facts: the slot, every member's region and
 * atomics, the QP addresses. */
static int atom_comm_new(verbs_tp_t *v, const ofl_comm_t *comm, atom_comm_t **out)
{
    atom_comm_t *ac = calloc(1, sizeof(*ac));
    int n = comm->size;
    if (!ac || !(ac->world = malloc((size_t)n * sizeof(int))) ||
        !(ac->raddr = malloc((size_t)n * sizeof(uint64_t))) ||
        !(ac->rkey = malloc((size_t)n * sizeof(uint32_t)))) {
        if (ac)
            free(ac->world), free(ac->raddr);
        free(ac);
        return RMP_ERR_NO_MEM;
    }
    *ac = (atom_comm_t){.slot = (int)(comm->ctx_id / 2), .rank = comm->rank, .size = n,
                        .ctx_id = comm->ctx_id, .world = ac->world, .raddr = ac->raddr,
                        .rkey = ac->rkey};
    memcpy(ac->world, comm->world, (size_t)n * sizeof(int));
    if (n > ATOM_MAXN)
        snprintf(ac->bad, sizeof(ac->bad), "atomics: %d members, more than the %d one release "
                 "round serves", n, ATOM_MAXN);
    else if (ac->slot >= ATOM_NSLOTS)
        snprintf(ac->bad, sizeof(ac->bad), "atomics: context %u has no slot (only the %d "
                 "lowest context ids do: free communicators you no longer use)",
                 comm->ctx_id & ~1u, ATOM_NSLOTS);
    for (int j = 0; j < n && !ac->bad[0]; j++) {
        const verbs_blob_t *b = verbs_peer_blob(v, ac->world[j]);
        if (!b || !(b->ofl_caps & VERBS_OFL_ATOMIC) ||
            verbs_ctrl_remote(v, ac->world[j], &ac->raddr[j], &ac->rkey[j]))
            snprintf(ac->bad, sizeof(ac->bad), "atomics: rank %d has no atomics control region "
                     "(its device lacks HCA atomics, or RMP_COLL_OFFLOAD=off there)",
                     ac->world[j]);
        else
            ac->raddr[j] += VERBS_CTRL_MCAST_BYTES + (uint64_t)ac->slot * ATOM_SLOT_BYTES;
    }
    *out = ac;
    return RMP_SUCCESS;
}

/* RMP_COLL_OFFLOAD=auto runs atomics only where they were measured to win: in the soft-RoCE
 * VM at n = 2..8 over 2 to 4 nodes (bench/README.md, "Barrier and allreduce on RDMA atomics"),
 * the barrier from 8 ranks (4 runs of 5, median 0.56x the software time), the allreduce
 * nowhere consistently (rxe executes atomics on the host's CPU, like messages, and the central
 * counter costs a wake-up per step). A hardware HCA deserves its own measurement. */
#define ATOM_AUTO_BARRIER_MIN 8
static const char *atom_auto_refuse(const atom_tp_t *t, const ofl_args_t *a, int n)
{
    if (t->mode != ATOM_AUTO)
        return NULL;
    if (a->coll == OFL_BARRIER)
        return n >= ATOM_AUTO_BARRIER_MIN
                   ? NULL
                   : "RMP_COLL_OFFLOAD=auto: atomics beat the software barrier only from 8 "
                     "ranks where measured (bench/README.md); RMP_COLL_OFFLOAD=on forces them";
    return "RMP_COLL_OFFLOAD=auto: atomics did not beat the software allreduce where measured "
           "(bench/README.md); RMP_COLL_OFFLOAD=on forces them";
}

/* Why this call does not run on atomics, from facts every member shares; NULL: it does. */
static const char *atom_refuse(const atom_tp_t *t, const ofl_args_t *a, int n, char *why,
                               size_t len)
{
    static const char *const ops[] = {"SUM", "MIN", "MAX", "BAND", "BOR", "another op"};
    if (t->mode == ATOM_OFF)
        return "RMP_COLL_OFFLOAD=off";
    if (!t->probe.atomic_hca)
        return "atomics: the device has none (atomic_cap NONE)";
    if (a->coll == OFL_ALLGATHER)
        return "atomics: barrier and allreduce only";
    if (a->coll != OFL_ALLREDUCE)
        return atom_auto_refuse(t, a, n);
    if (a->op == OFL_OP_OTHER || a->elem == OFL_ELEM_OTHER) {
        snprintf(why, len, "atomics: %s on %s: only SUM, MIN, MAX, BAND, BOR on 32- and 64-bit "
                 "integers", ops[a->op], a->elem == OFL_ELEM_OTHER ? "this type" : "integers");
        return why;
    }
    if (a->count < 1 || a->count > ATOM_MAXW) {
        snprintf(why, len, "atomics: %d elements (1 to %d run on atomics)", a->count, ATOM_MAXW);
        return why;
    }
    return atom_auto_refuse(t, a, n);
}

static int atomic_start(verbs_tp_t *v, const ofl_comm_t *comm, const ofl_args_t *a,
                        ofl_req_t **req, char *why, size_t len)
{
    const atom_tp_t *t = v->atomic;
    const char *no = atom_refuse(t, a, comm->size, why, len);
    if (no) {
        if (no != why)
            snprintf(why, len, "%s", no);
        return RMP_ERR_NOT_SUPPORTED;
    }
    atom_comm_t *ac = *comm->state;
    int rc;
    if (!ac && (rc = atom_comm_new(v, comm, &ac)))
        return rc;
    *comm->state = ac;
    if (ac->bad[0]) {
        snprintf(why, len, "%s", ac->bad);
        return RMP_ERR_NOT_SUPPORTED;
    }
    atom_req_t *r = calloc(1, sizeof(*r));
    if (!r)
        return RMP_ERR_NO_MEM;
    *r = (atom_req_t){.base.be = &verbs_atomic_backend, .v = v, .ac = ac,
                      .epoch = ++ac->epoch, .reduce = a->coll == OFL_ALLREDUCE, .op = a->op,
                      .elem = a->elem, .rbuf = a->rbuf};
    if (r->reduce) {
        const void *src = a->sbuf ? a->sbuf : a->rbuf;
        r->nw = a->count;
        for (int w = 0; w < r->nw; w++) {
            r->mine[w] = atom_to_acc(a->op, a->elem, atom_load(a->elem, src, w));
            r->wst[w] = r->mine[w] ? W_TODO : W_DONE; /* the identity changes nothing */
        }
    }
    if (ac->tail)
        ac->tail->next = r;
    else
        ac->head = r;
    ac->tail = r;
    *req = &r->base;
    return RMP_SUCCESS;
}

/* ---- life cycle ---------------------------------------------------------------------------- */

static void atomic_comm_free(verbs_tp_t *v, const ofl_comm_t *comm)
{
    atom_comm_t *ac = *comm->state;
    *comm->state = NULL;
    if (!ac)
        return;
    if (ac->head)
        ac->freed = true; /* freed with calls unfinished: the last one drops it */
    else
        atom_comm_drop(v, ac);
}

static int atomic_open(verbs_tp_t *v)
{
    atom_tp_t *t = calloc(1, sizeof(*t));
    if (!t)
        return RMP_ERR_NO_MEM;
    const char *m = tp_knob(&v->base, "RMP_COLL_OFFLOAD");
    t->mode = !m || !strcmp(m, "auto") ? ATOM_AUTO : !strcmp(m, "on") ? ATOM_ON : ATOM_OFF;
    for (int i = 0; i < ATOM_NSLOTS; i++)
        t->bg_cb[i].done = atom_bg_done;
    verbs_probe_offload(v, &t->probe);
    v->atomic = t;
    return RMP_SUCCESS;
}

/* auto runs nothing on atomics below ATOM_AUTO_BARRIER_MIN ranks: no communicator is larger
 * than the world. */
static bool atomic_may_run(const verbs_tp_t *v)
{
    const atom_tp_t *t = v->atomic;
    if (!t || t->mode == ATOM_OFF || !t->probe.atomic_hca)
        return false;
    return t->mode == ATOM_ON || v->base.env->size >= ATOM_AUTO_BARRIER_MIN;
}

uint8_t verbs_atomic_caps(verbs_tp_t *v)
{
    const atom_tp_t *t = v->atomic;
    return t && t->mode != ATOM_OFF && t->probe.atomic_hca ? VERBS_OFL_ATOMIC : 0;
}

static int atomic_wireup(verbs_tp_t *v)
{
    (void)v;
    return RMP_SUCCESS; /* QPs connect on a communicator's first call */
}

static int atomic_progress_tp(verbs_tp_t *v)
{
    (void)v;
    return 0; /* calls advance from their own progress */
}

static void atomic_close(verbs_tp_t *v)
{
    free(v->atomic);
    v->atomic = NULL;
}

const verbs_ofl_backend_t verbs_atomic_backend = {
    .name = "atomic", .start = atomic_start, .progress = atomic_progress, .finish = atomic_finish,
    .comm_free = atomic_comm_free, .open = atomic_open, .may_run = atomic_may_run,
    .wireup = atomic_wireup,
    .progress_tp = atomic_progress_tp, .close = atomic_close,
};

