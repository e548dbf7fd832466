/* win.c — windows: creation of every flavor and free. Memory that the ranks of a communicator
 * expose to each other, and how each rank reaches each other's (rma.h: paths per target, one
 * atomic domain per window). Creation is collective, in two exchanges on the window's own
 * communicator (a dup: its traffic never meets the program's):
 *   A. sizes, displacement units and what each rank can do (share memory with all the others,
 *      reach all of them with a transport's atomics, RMP_RMA_PATH=am): every rank then takes
 *      the same decisions from the same table (the atomic domain, a shared segment or not);
 *   B. after memory, control blocks and exposure exist here: bases and keys (per transport,
 *      named by the transport's slot, win_table.c), and whether it all worked here, so that
 *      every rank fails alike.
 * The handle table is win_table.c's, dynamic windows' region tables win_dyn.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collectives/coll.h"
#include "objmeta.h"
#include "rma.h"

typedef struct win_rec {
    int64_t base;
    int32_t err;
    uint32_t exposed; /* bit s: mem (or table) and ctrl keys valid in slot s */
    tp_rkey_t mem[RMA_NSLOT], ctrl[RMA_NSLOT], tbl[RMA_NSLOT];
} win_rec_t;

/* Exchange A, per rank. */
enum { A_SIZE, A_DISP, A_SHARE, A_TPMASK, A_FORCE, A_N };

/* Everything creation made (lock held; also for a half-made window). */
static void win_release(win_t *w)
{
    rmp_ctx_t *c = &rmp_ctx;
    for (int i = 0; i < c->ntps; i++) {
        tp_t *tp = c->tps[i];
        if (!tp->rma)
            continue;
        if (w->exph[i])
            tp->rma->unexpose(tp, w->exph[i]);
        if (w->ctrl_exph[i])
            tp->rma->unexpose(tp, w->ctrl_exph[i]);
        if (w->dyn)
            dyn_unexpose(w, tp, i);
        for (int k = 0; k < w->nregions; k++)
            if (w->regions[k].exph[i])
                tp->rma->unexpose(tp, w->regions[k].exph[i]);
    }
    tp_t *shm = rma_slot_tp(1);
    if (w->peer_segh && shm)
        for (int r = 0; r < w->size; r++)
            if (w->peer_segh[r])
                shm->rma->seg_free(shm, w->peer_segh[r]);
    if (w->segh && shm)
        shm->rma->seg_free(shm, w->segh);
    if (!w->peer_segh)
        free((void *)w->ctrl); /* not in a segment: allocated by win_memory */
    free(w->peer_segh);
    free(w->alloc);
    if (w->dyn)
        dyn_free(w);
    free(w->regions);
    free(w->t);
    free(w);
}

/* What this rank can do for the window (exchange A). */
static void win_abilities(const comm_t *cc, int64_t *a)
{
    rmp_ctx_t *c = &rmp_ctx;
    bool one_node = c->node[c->rank] >= 0 || cc->size == 1;
    for (int r = 0; r < cc->size && one_node; r++)
        one_node = cc->world[r] == c->rank || c->node[cc->world[r]] == c->node[c->rank];
    tp_t *shm = rma_slot_tp(1);
    a[A_SHARE] = one_node && (cc->size == 1 || (shm && shm->rma && shm->rma->seg_alloc));
    int64_t mask = 0;
    for (int i = 0; i < c->ntps; i++) {
        tp_t *tp = c->tps[i];
        int s = rma_slot(tp);
        if (s < 0 || !tp->rma || !(tp->rma->caps & TP_RMA_ATOMIC))
            continue;
        bool all = true;
        for (int r = 0; r < cc->size && all; r++)
            all = tp->rma->reach(tp, cc->world[r]);
        if (all)
            mask |= 1 << s;
    }
    a[A_TPMASK] = mask;
    const knob_val_t *k = knob_lookup(c->cfg.knobs, "RMP_RMA_PATH");
    a[A_FORCE] = k && k->set && !strcmp(k->text, "am");
}

static size_t round64(size_t n)
{
    return (n + 63) / 64 * 64;
}

/* Memory and control blocks (lock held). seg: the window lives in one segment of the node,
 * made by rank 0 (control blocks of every rank, then each rank's memory: allocate_shared
 * contiguous in rank order, allocate 64-byte aligned), which the others map. *err: this
 * rank's outcome, reported in exchange B. */
static int win_memory(win_t *w, const int64_t *a, bool seg, void **base)
{
    rmp_ctx_t *c = &rmp_ctx;
    bool alloc = w->flavor == RMP_WIN_FLAVOR_ALLOCATE || w->flavor == RMP_WIN_FLAVOR_SHARED;
    if (!seg) {
        w->ctrl = aligned_alloc(64, RMA_CTRL_BYTES);
        if (!w->ctrl)
            return RMP_ERR_NO_MEM;
        memset((void *)w->ctrl, 0, RMA_CTRL_BYTES);
        if (alloc) { /* aligned for any type, and a real (unique) address even for 0 bytes */
            size_t n = round64(w->bytes);
            w->alloc = aligned_alloc(64, n ? n : 64);
            if (!w->alloc)
                return RMP_ERR_NO_MEM;
            *base = w->alloc;
        }
        return RMP_SUCCESS;
    }
    size_t *at = malloc(sizeof(size_t) * (size_t)w->size);
    w->peer_segh = calloc((size_t)w->size, sizeof(void *));
    if (!at || !w->peer_segh) {
        free(at);
        return RMP_ERR_NO_MEM;
    }
    size_t total = round64((size_t)w->size * RMA_CTRL_BYTES);
    for (int r = 0; r < w->size; r++) {
        size_t n = (size_t)a[r * A_N + A_SIZE];
        at[r] = total;
        total += w->flavor == RMP_WIN_FLAVOR_SHARED ? n : round64(n);
    }
    tp_t *shm = rma_slot_tp(1);
    struct {
        int32_t err;
        int32_t pad;
        tp_rkey_t key;
    } made = {0};
    char *p = NULL;
    int err = RMP_SUCCESS;
    if (w->rank == 0)
        made.err = w->size == 1 ? RMP_SUCCESS
                                : shm->rma->seg_alloc(shm, total, (void **)&p, &made.key, &w->segh);
    if (w->size == 1 && !made.err) { /* alone: no node to share with, plain memory */
        p = w->alloc = aligned_alloc(64, round64(total));
        made.err = p ? RMP_SUCCESS : RMP_ERR_NO_MEM;
        if (p)
            memset(p, 0, round64(total));
    }
    if (w->size > 1) {
        ctx_unlock(c);
        err = rmp_bcast(&made, sizeof(made), RMP_BYTE, 0, w->comm);
        ctx_lock(c);
    }
    if (!err)
        err = made.err;
    if (!err && w->rank != 0)
        err = shm->rma->seg_map(shm, w->c->world[0], &made.key, total, (void **)&p,
                                &w->peer_segh[0]);
    if (!err) {
        for (int r = 0; r < w->size; r++) {
            w->t[r].ctrl = (_Atomic uint64_t *)(p + (size_t)r * RMA_CTRL_BYTES);
            if (alloc)
                w->t[r].mapped = p + at[r];
        }
        w->ctrl = w->t[w->rank].ctrl;
        w->ctrl_segh = w->segh ? w->segh : w->peer_segh[0];
        if (alloc)
            *base = w->t[w->rank].mapped;
    }
    free(at);
    return err;
}

/* Exposure on every transport with an rma table (lock held): my memory (or a dynamic
 * window's region table), and my control block on the atomic transport. */
static int win_expose(win_t *w, win_rec_t *rec)
{
    rmp_ctx_t *c = &rmp_ctx;
    int err = RMP_SUCCESS;
    for (int i = 0; i < c->ntps && !err; i++) {
        tp_t *tp = c->tps[i];
        int s = rma_slot(tp);
        if (s < 0 || !tp->rma)
            continue;
        if (w->flavor == RMP_WIN_FLAVOR_DYNAMIC)
            err = dyn_expose(w, tp, i, &rec->tbl[s]);
        else
            err = tp->rma->expose(tp, w->base, w->bytes, &rec->mem[s], &w->exph[i]);
        if (!err && w->amo_path == RMA_TP && tp == w->amo_tp)
            err = tp->rma->expose(tp, (void *)w->ctrl, RMA_CTRL_BYTES, &rec->ctrl[s],
                                  &w->ctrl_exph[i]);
        if (!err)
            rec->exposed |= 1u << s;
    }
    return err;
}

/* How this rank reaches target r for put and get (lock held). */
static void win_target_path(win_t *w, int r, const win_rec_t *rec, bool force_am)
{
    rmp_ctx_t *c = &rmp_ctx;
    rma_target_t *t = &w->t[r];
    if (r == w->rank || (t->mapped && !force_am)) {
        t->data_path = RMA_DIRECT;
        if (r == w->rank && !t->mapped)
            t->mapped = w->base;
        return;
    }
    t->data_path = RMA_AM;
    if (force_am)
        return;
    /* the transport the core routes the peer to first (shm on a node), then any other */
    tp_t *first = c->peers[t->world].tp;
    for (int pass = 0; pass < 2 && t->data_path == RMA_AM; pass++)
        for (int i = 0; i < c->ntps; i++) {
            tp_t *tp = c->tps[i];
            int s = rma_slot(tp);
            if ((pass == 0) != (tp == first) || s < 0 || !tp->rma ||
                !(rec->exposed & (1u << s)) || !tp->rma->reach(tp, t->world))
                continue;
            t->data_path = RMA_TP;
            t->data_tp = tp;
            t->data_key = rec->mem[s];
            break;
        }
}

/* RMP_VERBOSE: the window's atomic domain and why, and how many targets each data path
 * reaches (one line per window and rank). */
static void win_say_paths(const win_t *w, bool force, bool share)
{
    rmp_ctx_t *c = &rmp_ctx;
    if (!c->cfg.verbose)
        return;
    int direct = 0, tp = 0, am = 0;
    for (int r = 0; r < w->size; r++) {
        direct += w->t[r].data_path == RMA_DIRECT;
        tp += w->t[r].data_path == RMA_TP;
        am += w->t[r].data_path == RMA_AM;
    }
    const char *why;
    char buf[96];
    if (w->amo_path == RMA_DIRECT) {
        why = "in mapped memory (CPU atomics): every rank of the window on this node";
    } else if (w->amo_path == RMA_TP) {
        snprintf(buf, sizeof buf, "on the adapter (%s): it reaches every rank with atomics",
                 rma_slot_name[rma_slot(w->amo_tp)]);
        why = buf;
    } else if (force) {
        why = "through the target's progress: RMP_RMA_PATH=am";
    } else {
        why = share ? "through the target's progress: no shared memory for the control blocks"
                    : "through the target's progress: no transport with atomics reaches "
                      "every rank";
    }
    core_verbose(c, "window %d (%d ranks): atomics %s; put/get: %d direct, %d by a transport, "
                 "%d through the target's progress", (int)w->handle, w->size, why, direct, tp,
                 am);
}

/* objmeta.c's question (it names windows), answered by the window table, which it may not
 * call: installed in the context at every creation (ctx.h's rma_win_valid). */
static int win_valid(rmp_win_t win)
{
    intptr_t base;
    ptrdiff_t size;
    int du;
    return rmp_win_get_peer(win, 0, &base, &size, &du); /* rank 0 exists in every window */
}

/* Collective: the window of flavor over size bytes at base (allocate flavors: memory made
 * here, *baseptr gets it). */
static int win_make(int flavor, void *base, ptrdiff_t size, int disp_unit, rmp_comm_t comm,
                    void **baseptr, rmp_win_t *win)
{
    rmp_ctx_t *c = &rmp_ctx;
    coll_t cl;
    bool alloc = flavor == RMP_WIN_FLAVOR_ALLOCATE || flavor == RMP_WIN_FLAVOR_SHARED;
    int err = coll_comm(comm, &cl);
    if (!err && (!win || size < 0 || disp_unit <= 0 || (alloc && !baseptr) ||
                 (!alloc && size > 0 && !base)))
        err = RMP_ERR_ARG;
    if (!err && comm_is_inter(comm))
        err = RMP_ERR_COMM;
    if (err)
        return err;
    win_t *w = calloc(1, sizeof(*w));
    int64_t *a = w ? malloc(sizeof(int64_t) * A_N * (size_t)cl.size) : NULL;
    win_rec_t *recs = a ? calloc((size_t)cl.size, sizeof(win_rec_t)) : NULL;
    if (w)
        w->t = calloc((size_t)cl.size, sizeof(rma_target_t));
    if (!w || !recs || !w->t || (flavor == RMP_WIN_FLAVOR_DYNAMIC && dyn_new(w, cl.size))) {
        free(a);
        free(recs);
        if (w) {
            ctx_lock(c);
            win_release(w);
            ctx_unlock(c);
        }
        return RMP_ERR_NO_MEM; /* before any exchange: the others fail too or hang */
    }
    w->comm = RMP_COMM_NULL;
    w->flavor = flavor;
    w->model = RMP_WIN_UNIFIED;
    w->base = alloc ? NULL : base;
    w->bytes = (size_t)size;
    w->disp_unit = disp_unit;
    w->rank = cl.rank;
    w->size = cl.size;
    err = rmp_comm_dup(comm, &w->comm);
    if (!err) {
        w->c = comm_get(w->comm);
        int64_t mine[A_N] = {[A_SIZE] = size, [A_DISP] = disp_unit};
        ctx_lock(c);
        win_abilities(w->c, mine);
        ctx_unlock(c);
        err = rmp_allgather(mine, A_N, RMP_INT64, a, A_N, RMP_INT64, w->comm);
    }
    /* every rank decides alike from the same table */
    bool share = true, force = false, registered = false;
    int64_t tpmask = ~(int64_t)0;
    for (int r = 0; !err && r < w->size; r++) {
        share = share && a[r * A_N + A_SHARE];
        force = force || a[r * A_N + A_FORCE];
        tpmask &= a[r * A_N + A_TPMASK];
    }
    if (!err && flavor == RMP_WIN_FLAVOR_SHARED && !share)
        err = RMP_ERR_RMA_SHARED;
    if (err)
        goto fail;
    ctx_lock(c);
    if (force) {
        w->amo_path = RMA_AM;
    } else if (share) {
        w->amo_path = RMA_DIRECT;
    } else {
        w->amo_path = RMA_AM;
        for (int s = 0; s < RMA_NSLOT; s++)
            if (tpmask & (1 << s)) {
                w->amo_path = RMA_TP;
                w->amo_tp = rma_slot_tp(s);
                break;
            }
    }
    bool seg = share && (w->amo_path == RMA_DIRECT || alloc);
    win_rec_t *me = &recs[w->rank];
    void *mem = NULL;
    me->err = win_memory(w, a, seg, &mem);
    if (alloc && !me->err)
        w->base = mem;
    me->base = (int64_t)(intptr_t)w->base;
    if (!me->err)
        me->err = win_expose(w, me);
    if (!me->err) {
        rma_am_init(c);
        c->rma_win_valid = win_valid;
        me->err = rma_am_register(w); /* before B: after it, every rank takes messages */
        registered = !me->err;
    }
    ctx_unlock(c);
    /* in place: my record is already in my slot (the slot as send buffer is an alias) */
    err = rmp_allgather(RMP_IN_PLACE, 0, RMP_BYTE, recs, sizeof(*me), RMP_BYTE, w->comm);
    for (int r = 0; !err && r < w->size; r++)
        err = recs[r].err;
    if (err)
        goto fail;
    ctx_lock(c);
    for (int r = 0; r < w->size; r++) {
        rma_target_t *t = &w->t[r];
        t->world = w->c->world[r];
        t->size = a[r * A_N + A_SIZE];
        t->disp_unit = (int)a[r * A_N + A_DISP];
        t->base = (uint64_t)recs[r].base;
        win_target_path(w, r, &recs[r], force);
        int s = rma_slot(w->amo_tp);
        if (w->amo_path == RMA_TP && s >= 0) {
            t->ctrl_key = recs[r].ctrl[s];
            t->mem_key = recs[r].mem[s];
        }
        if (w->dyn)
            dyn_target(w, r, recs[r].tbl, recs[r].exposed);
    }
    ctx_unlock(c);
    err = win_insert(w);
    if (err)
        goto fail;
    win_say_paths(w, force, share);
    free(a);
    free(recs);
    if (alloc)
        *baseptr = w->base;
    *win = w->handle;
    return RMP_SUCCESS;
fail:
    ctx_lock(c);
    if (registered)
        rma_am_unregister(w);
    ctx_unlock(c);
    if (w->comm != RMP_COMM_NULL)
        rmp_comm_free(&w->comm);
    ctx_lock(c);
    win_release(w);
    ctx_unlock(c);
    free(a);
    free(recs);
    return err;
}

int rmp_win_create(void *base, ptrdiff_t size, int disp_unit, rmp_comm_t comm, rmp_win_t *win)
{
    return win_make(RMP_WIN_FLAVOR_CREATE, base, size, disp_unit, comm, NULL, win);
}

int rmp_win_allocate(ptrdiff_t size, int disp_unit, rmp_comm_t comm, void **baseptr,
                     rmp_win_t *win)
{
    return win_make(RMP_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, comm, baseptr, win);
}

int rmp_win_allocate_shared(ptrdiff_t size, int disp_unit, rmp_comm_t comm, void **baseptr,
                            rmp_win_t *win)
{
    return win_make(RMP_WIN_FLAVOR_SHARED, NULL, size, disp_unit, comm, baseptr, win);
}

int rmp_win_create_dynamic(rmp_comm_t comm, rmp_win_t *win)
{
    return win_make(RMP_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, comm, NULL, win);
}

int rmp_win_free(rmp_win_t *win)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!win)
        return RMP_ERR_ARG;
    win_t *w;
    err = win_enter(*win, &w);
    if (err)
        return err;
    rmp_ctx_t *c = &rmp_ctx;
    /* a lock, lock_all, start or post not ended: MPI-3.1 11.2.5 (a fence epoch may be open) */
    bool open = (w->access != RMA_EP_NONE && w->access != RMA_EP_FENCE) || w->exposing;
    /* operations issued in a fence epoch complete before the memory goes */
    for (int r = 0; !open && r < w->size; r++) {
        int e = rma_flush_target(w, r, false);
        err = err ? err : e;
    }
    ctx_unlock(c);
    if (open)
        return RMP_ERR_RMA_SYNC;
    /* no rank may free memory a peer could still reach: everyone arrives first */
    int e = rmp_barrier(w->comm);
    err = err ? err : e;
    if (e)
        return err;
    objmeta_forget(OBJ_WIN, *win); /* its name and hints go with it, before the handle does */
    win_remove(*win);
    ctx_lock(c);
    rma_am_unregister(w);
    ctx_unlock(c);
    rmp_comm_free(&w->comm);
    ctx_lock(c);
    win_release(w);
    ctx_unlock(c);
    *win = RMP_WIN_NULL;
    return err;
}
