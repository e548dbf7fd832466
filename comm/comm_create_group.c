/* comm_create_group.c — the communicator creations whose context-id agreement (ctxid.h) is not
 * one blocking allreduce over the whole parent:
 * - rmp_comm_create_group: only the members of the group call, so the masks are reduced over
 *   them alone, by point-to-point on the parent's collective context with tags above
 *   RMP_TAG_UB (the collectives' own tags are at most RMP_TAG_UB, so neither mistakes the
 *   other's messages): the members send their masks to the group's first member, which sends
 *   back the BAND of all;
 * - rmp_comm_idup: the same exchange over the whole parent, run as a nonblocking request by
 *   the progress engine under the runtime lock, tagged with a collective tag of the parent
 *   (taken as every collective takes one, so it is the same on every rank and distinct from
 *   the tags of the collectives around it); its rounds are the blocking creations' (ctxid.c).
 *   The new communicator's handle is made at the call (so the MPI layer can give it its
 *   error handler at once) and gets its context id when the request completes. An
 *   intercommunicator's parent, for the exchange, is its bridge (both groups, inter.h): the
 *   new intercommunicator and its own bridge are made at the call and get the pair agreed
 *   together, so no member waits in the call for the other group;
 * - rmp_comm_dup_with_info, rmp_comm_idup_with_info: the dups with other hints. */
#include <stdlib.h>
#include <string.h>

#include "comm_coll.h"
#include "ctxid.h"
#include "inter.h"
#include "objmeta.h"
#include "topo.h"

#define GROUP_TAG_BASE 0x40000000 /* create_group's tags: GROUP_TAG_BASE + the user's tag */
#define CTX_ID_NONE 0xfffffffeu   /* a communicator whose id is being agreed: matches nothing */

/* ---- rmp_comm_create_group ---- */
typedef struct grp_red {
    comm_t *c;      /* the parent */
    const int *pr;  /* members' ranks in the parent, in group order */
    int n, me, tag; /* members, my position, the exchange's tag */
} grp_red_t;

static int wait_all(rmp_request_t *h, int n)
{
    int err = RMP_SUCCESS;
    for (int i = 0; i < n; i++) {
        int e = h[i] == RMP_REQUEST_NULL ? RMP_SUCCESS : rmp_wait(&h[i], RMP_STATUS_IGNORE);
        if (e && !err)
            err = e;
    }
    return err;
}

/* ctx_reduce_fn: buf = BAND of every member's buf (first member gathers, then sends back). */
static int group_allreduce(uint32_t *buf, int nwords, void *arg)
{
    const grp_red_t *g = arg;
    size_t bytes = sizeof(uint32_t) * (size_t)nwords;
    struct rmp_request *r;
    int err = RMP_SUCCESS;
    if (g->n == 1)
        return RMP_SUCCESS;
    if (g->me != 0) {
        uint32_t *out = malloc(bytes);
        if (!out)
            return RMP_ERR_NO_MEM;
        memcpy(out, buf, bytes);
        rmp_request_t h[2] = {RMP_REQUEST_NULL, RMP_REQUEST_NULL};
        err = p2p_irecv_bytes(g->c, COLL_CTXOFF, buf, bytes, g->pr[0], g->tag, &r);
        if (!err) {
            h[0] = req_handle(r);
            err = p2p_isend_bytes(g->c, COLL_CTXOFF, out, bytes, g->pr[0], g->tag, &r);
            if (!err)
                h[1] = req_handle(r);
            else
                rmp_cancel(&h[0]);
        }
        int e = wait_all(h, 2);
        free(out);
        return err ? err : e;
    }
    uint32_t *in = malloc(bytes * (size_t)(g->n - 1));
    rmp_request_t *h = calloc((size_t)g->n - 1, sizeof(*h));
    if (!in || !h) {
        free(in);
        free(h);
        return RMP_ERR_NO_MEM;
    }
    for (int i = 1; i < g->n && !err; i++)
        if (!(err = p2p_irecv_bytes(g->c, COLL_CTXOFF, in + (size_t)(i - 1) * (size_t)nwords,
                                    bytes, g->pr[i], g->tag, &r)))
            h[i - 1] = req_handle(r);
    if (err) /* the receives posted would wait for senders that keep waiting for us */
        for (int i = 0; i < g->n - 1; i++)
            if (h[i] != RMP_REQUEST_NULL)
                rmp_cancel(&h[i]);
    int e = wait_all(h, g->n - 1);
    if (!err)
        err = e;
    for (int i = 1; i < g->n && !err; i++)
        for (int k = 0; k < nwords; k++)
            buf[k] &= in[(size_t)(i - 1) * (size_t)nwords + (size_t)k];
    /* the result goes back even after an error, so that no member waits for it forever: a
     * failed reduction reads as a round nobody held (the last word 0), and the members retry
     * or, on their own errors, stop */
    if (err)
        memset(buf, 0, bytes);
    int serr = RMP_SUCCESS;
    for (int i = 1; i < g->n; i++) {
        h[i - 1] = RMP_REQUEST_NULL;
        int s = p2p_isend_bytes(g->c, COLL_CTXOFF, buf, bytes, g->pr[i], g->tag, &r);
        if (!s)
            h[i - 1] = req_handle(r);
        else if (!serr)
            serr = s;
    }
    e = wait_all(h, g->n - 1);
    free(in);
    free(h);
    return err ? err : serr ? serr : e;
}

/* The parent ranks of group's members (in group order) into *pr_p, or RMP_ERR_GROUP when one
 * is not in comm. */
static int group_in_parent(rmp_comm_t comm, rmp_group_t group, int n, int **pr_p)
{
    rmp_group_t cg;
    int *idx = malloc(sizeof(int) * (size_t)n), *pr = malloc(sizeof(int) * (size_t)n);
    int err = idx && pr ? rmp_comm_group(comm, &cg) : RMP_ERR_NO_MEM;
    if (!err) {
        for (int i = 0; i < n; i++)
            idx[i] = i;
        err = rmp_group_translate_ranks(group, n, idx, cg, pr);
        (void)rmp_group_free(&cg);
    }
    for (int i = 0; !err && i < n; i++)
        if (pr[i] == RMP_UNDEFINED)
            err = RMP_ERR_GROUP;
    free(idx);
    if (err)
        free(pr);
    else
        *pr_p = pr;
    return err;
}

int rmp_comm_create_group(rmp_comm_t comm, rmp_group_t group, int tag, rmp_comm_t *newcomm)
{
    int err = ctx_check();
    if (err)
        return err;
    comm_t *c = comm_get(comm);
    if (!c)
        return RMP_ERR_COMM;
    int n = 0, me = RMP_UNDEFINED;
    if ((err = rmp_group_size(group, &n)) || (err = rmp_group_rank(group, &me)))
        return err;
    if (!newcomm)
        return RMP_ERR_ARG;
    if (tag < 0 || tag > RMP_TAG_UB)
        return RMP_ERR_TAG;
    int *pr = NULL, *world = NULL;
    if (n > 0 && (err = group_in_parent(comm, group, n, &pr)))
        return err;
    if (me == RMP_UNDEFINED) { /* not a member: nothing to take part in */
        free(pr);
        *newcomm = RMP_COMM_NULL;
        return RMP_SUCCESS;
    }
    if (!(world = malloc(sizeof(int) * (size_t)n))) {
        free(pr);
        return RMP_ERR_NO_MEM;
    }
    for (int i = 0; i < n; i++)
        world[i] = c->world[pr[i]];
    grp_red_t g = {.c = c, .pr = pr, .n = n, .me = me, .tag = GROUP_TAG_BASE + tag};
    ctx_waiter_t w = {.parent = c->ctx_id, .sub = (1ull << 32) | (uint64_t)tag};
    uint32_t id;
    err = ctx_agree(&w, group_allreduce, &g, n, &id);
    if (!err && (err = comm_create(world, n, me, id, newcomm)))
        ctx_release(id);
    if (!err)
        comm_inherit_session(c->handle, *newcomm);
    free(pr);
    free(world);
    return err;
}

/* ---- rmp_comm_dup_with_info ---- */
int rmp_comm_dup_with_info(rmp_comm_t comm, rmp_info_t info, rmp_comm_t *newcomm)
{
    int n, err = ctx_check();
    if (!err && !comm_get(comm))
        err = RMP_ERR_COMM;
    if (!err && info != RMP_INFO_NULL)
        err = rmp_info_get_nkeys(info, &n); /* refused before anything is created */
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err)
        err = rmp_comm_dup(comm, newcomm);
    if (!err) {
        objmeta_forget(OBJ_COMM, *newcomm); /* not comm's hints, which dup copied */
        if ((err = rmp_comm_set_info(*newcomm, info)))
            rmp_comm_free(newcomm);
    }
    return err;
}

/* ---- rmp_comm_idup ---- */
typedef struct idup {
    comm_t *parent, *child;
    int tag;
    bool gathered; /* root: the gather of this round is done, the results are going out */
    bool retry;    /* a round is to start at the next progress call */
    int err;
    ctx_waiter_t w;
    uint32_t mine[CTX_BUF_WORDS]; /* my contribution, then the round's result */
    uint32_t out[CTX_BUF_WORDS];  /* what a non-root sends (mine receives the result) */
    uint32_t *in;                 /* root: the others' contributions [size - 1] */
    struct rmp_request **reqs;    /* the current step's requests, [size] */
    int nreqs;
} idup_t;

static void idup_post(idup_t *d, bool send, void *buf, int peer)
{
    if (d->err)
        return;
    struct rmp_request *r = NULL;
    size_t bytes = sizeof(d->mine);
    int e = send ? p2p_isend_locked(d->parent, COLL_CTXOFF, buf, bytes, peer, d->tag, &r)
                 : p2p_irecv_locked(d->parent, COLL_CTXOFF, buf, bytes, peer, d->tag, &r);
    if (e)
        d->err = e;
    else
        d->reqs[d->nreqs++] = r;
}

/* Start a round (lock held): my contribution, then the gather's requests. */
static void idup_round(idup_t *d)
{
    ctx_round_begin_locked(&d->w, d->mine);
    d->gathered = false;
    int n = d->parent->size;
    if (d->parent->rank == 0) {
        for (int i = 1; i < n; i++)
            idup_post(d, false, d->in + (size_t)(i - 1) * CTX_BUF_WORDS, i);
    } else {
        memcpy(d->out, d->mine, sizeof(d->out));
        idup_post(d, false, d->mine, 0);
        idup_post(d, true, d->out, 0);
    }
}

/* True when the step's requests are all done (then freed); errors go to d->err. */
static bool idup_step_done(idup_t *d)
{
    for (int i = 0; i < d->nreqs; i++)
        if (!atomic_load_explicit(&d->reqs[i]->done, memory_order_acquire))
            return false;
    for (int i = 0; i < d->nreqs; i++) {
        int e = d->reqs[i]->status.error;
        if (e && !d->err)
            d->err = e;
        req_free(d->reqs[i]);
    }
    d->nreqs = 0;
    return true;
}

static void idup_free(idup_t *d)
{
    free(d->in);
    free(d->reqs);
    free(d);
}

/* The request's coll_progress (lock held). A round that did not count starts again, but at
 * most once per call: on a one-rank communicator a round needs no message, and while another
 * creation of this process holds the mask, retrying in a loop here would never let it run. */
static int idup_progress(struct rmp_request *r)
{
    idup_t *d = r->coll;
    int events = 0;
    bool restarted = false;
    if (d->retry) {
        d->retry = false;
        restarted = true;
        idup_round(d);
        events++;
    }
    while (idup_step_done(d)) {
        events++;
        int n = d->parent->size;
        if (!d->err && d->parent->rank == 0 && !d->gathered) { /* reduce, send the result */
            for (int i = 1; i < n; i++)
                for (int k = 0; k < CTX_BUF_WORDS; k++)
                    d->mine[k] &= d->in[(size_t)(i - 1) * CTX_BUF_WORDS + (size_t)k];
            d->gathered = true;
            for (int i = 1; i < n; i++)
                idup_post(d, true, d->mine, i);
            if (!d->err)
                continue;
        }
        /* the round is over (or failed) */
        uint32_t id = 0;
        bool done;
        int err = ctx_round_end_locked(&d->w, d->err, d->mine, n, &id, &done);
        if (!done) { /* not agreed yet: again */
            if (restarted) {
                d->retry = true; /* the next progress call starts it */
                return events;
            }
            restarted = true;
            idup_round(d);
            if (d->err) /* posting failed: what was posted ends first (receives cancelled) */
                for (int i = 0; i < d->nreqs; i++)
                    p2p_cancel_locked(d->reqs[i]);
            continue;
        }
        comm_t *parent = d->parent, *child = d->child;
        /* an intercommunicator's bridge shares its pair; the program never holds its handle,
         * so it lives exactly as long as the intercommunicator (comm_ops.c's teardown) */
        comm_t *cbridge = child->lworld ? &rmp_ctx.comms[child->bridge] : NULL;
        if (!err) { /* the new communicator is usable from now on */
            child->ctx_id = id;
            if (cbridge)
                cbridge->ctx_id = child->ctx_id;
        }
        r->coll = NULL;
        idup_free(d);
        progress_coll_remove(&rmp_ctx, r);
        req_complete(r, err); /* the last touch of r */
        comm_unhold(parent);
        /* freed by the program meanwhile (erroneous, but no reason to corrupt the table): its
         * teardown runs now, with the id it got; after a failure the handle goes, as MPI
         * leaves newcomm undefined */
        bool freed = child->freed != NULL;
        comm_unhold(child);
        if (err && !freed) {
            comm_release_locked(child);
            if (cbridge)
                comm_release_locked(cbridge);
        }
        return events;
    }
    return events;
}

/* The new communicator at the call, on an id that matches nothing until the agreement
 * completes: the parent's members (and topology) for an intracommunicator, its groups and a
 * bridge of its own for an intercommunicator; the hints of both. */
static int idup_shell(rmp_comm_t comm, const intra_t *cl, const inter_t *it, rmp_comm_t *h)
{
    int err = it ? inter_build_copy(it, CTX_ID_NONE, h)
                 : comm_create(cl->comm->world, cl->size, cl->rank, CTX_ID_NONE, h);
    if (!err)
        comm_inherit_session(comm, *h);
    if (!err && !it)
        err = topo_dup(cl->comm, comm_get(*h));
    if (!err)
        err = objmeta_copy_info(OBJ_COMM, comm, *h);
    if (err && *h != RMP_COMM_NULL)
        rmp_comm_free(h); /* (an intercommunicator's bridge goes with it) */
    return err;
}

/* An intercommunicator's idup agrees over its bridge (both groups, inter.h), as its dup does:
 * the same rounds as an intracommunicator's, on the bridge's collective context and tag. */
int rmp_comm_idup(rmp_comm_t comm, rmp_comm_t *newcomm, rmp_request_t *req)
{
    bool inter = comm_is_inter(comm);
    inter_t it = {0};
    intra_t cl = {0};
    int err = inter ? inter_get(comm, &it) : comm_intra(comm, &cl);
    if (!err && (!newcomm || !req))
        err = RMP_ERR_ARG;
    if (err)
        return err;
    comm_t *parent = inter ? it.br : cl.comm; /* the agreement runs over it */
    int n = inter ? it.lsize + it.rsize : cl.size;
    idup_t *d = calloc(1, sizeof(*d));
    if (d) {
        d->in = malloc(sizeof(uint32_t) * CTX_BUF_WORDS * (size_t)(n > 1 ? n - 1 : 1));
        d->reqs = calloc((size_t)n + 1, sizeof(*d->reqs));
    }
    struct rmp_request *r = d && d->in && d->reqs ? req_alloc(REQ_COLL) : NULL;
    rmp_comm_t h = RMP_COMM_NULL;
    /* the communicator exists from now on, with an id that matches no message yet */
    err = r ? idup_shell(comm, &cl, inter ? &it : NULL, &h) : RMP_ERR_NO_MEM;
    if (err && r) {
        /* no communicator can be made now (the table is full: on every rank alike): the
         * request completes with the error, where MPI reports a nonblocking call's errors
         * and where programs look for it (MPICH's errors/comm/too_many_icomms) */
        idup_free(d);
        r->status = (rmp_status_t){.source = RMP_PROC_NULL, .tag = RMP_ANY_TAG, .error = err};
        atomic_store(&r->done, 1);
        *newcomm = RMP_COMM_NULL;
        *req = req_handle(r);
        return RMP_SUCCESS;
    }
    if (err) {
        if (d)
            idup_free(d);
        return err;
    }
    rmp_ctx_t *c = &rmp_ctx;
    d->parent = parent;
    d->child = comm_get(h);
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    r->coll = d;
    r->coll_progress = idup_progress;
    *newcomm = h;
    *req = req_handle(r); /* before progress: r may complete (but not be freed) at once */
    ctx_lock(c);
    uint32_t seq = parent->coll_seq++; /* this call's collective tag, as coll_sched takes it */
    d->tag = (int)(seq & RMP_TAG_UB);
    d->w = (ctx_waiter_t){.parent = parent->ctx_id, .sub = seq};
    comm_hold(parent);
    comm_hold(d->child);
    progress_coll_add(c, r);
    idup_round(d);
    idup_progress(r);
    ctx_unlock(c);
    return RMP_SUCCESS;
}

/* The new handle exists at once: its hints are replaced then, while the agreement runs. */
int rmp_comm_idup_with_info(rmp_comm_t comm, rmp_info_t info, rmp_comm_t *newcomm,
                            rmp_request_t *req)
{
    int n, err = ctx_check();
    if (!err && info != RMP_INFO_NULL)
        err = rmp_info_get_nkeys(info, &n); /* refused before anything is started */
    if (!err)
        err = rmp_comm_idup(comm, newcomm, req);
    if (!err) {
        objmeta_forget(OBJ_COMM, *newcomm); /* not comm's hints, which idup copied */
        err = rmp_comm_set_info(*newcomm, info);
        if (err) { /* (no memory) the others take part in the dup: it completes first */
            (void)rmp_wait(req, RMP_STATUS_IGNORE);
            (void)rmp_comm_free(newcomm);
        }
    }
    return err;
}
