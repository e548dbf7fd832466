/* win.c — windows: memory that the ranks of a communicator expose to each other, and how each
 * rank reaches each other's (rma.h: paths per target, one atomic domain per window).
 * Creation is collective, in two exchanges on the window's own communicator (a dup: its
 * traffic never meets the program's):
 *   A. sizes, displacement units and what each rank can do (share memory with all the others,
 *      reach all of them with a transport's atomics, RMP_RMA_PATH=am): every rank then takes
 *      the same decisions from the same table (the atomic domain, a shared segment or not);
 *   B. after memory, control blocks and exposure exist here: bases and keys (per transport,
 *      named by the transport's name, since ranks may open different sets of transports), and
 *      whether it all worked here, so that every rank fails alike.
 * Handles index a table that grows on demand. Dynamic windows keep their attached regions in
 * a table exposed like memory: origins read it through the transport (refreshed on a miss) to
 * check ranges and find a region's key; active messages need none of it (the target checks).
 * The table has no fixed size: a small head, exposed at creation, holds a generation word
 * (odd while the owner changes the table), the count and the keys of the entries' block,
 * which is replaced by one twice as large when full. An origin reads the head, then the
 * entries, then the generation again, and retries unless it did not move: a torn read is
 * never trusted. Replaced blocks stay exposed until the window is freed (an origin may still
 * be reading one: it then just retries), which costs at most as much as the block in use. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collectives/coll.h"
#include "objmeta.h"
#include "rma.h"

/* Transports by name: a key travels in the slot of its transport's name. */
#define RMA_NSLOT 3
static const char *const slot_name[RMA_NSLOT] = {"self", "shm", "verbs"};

static int tp_slot(const tp_t *tp)
{
    for (int s = 0; tp && s < RMA_NSLOT; s++)
        if (!strcmp(tp->ops->name, slot_name[s]))
            return s;
    return -1;
}

static tp_t *slot_tp(int s)
{
    for (int i = 0; i < rmp_ctx.ntps; i++)
        if (tp_slot(rmp_ctx.tps[i]) == s)
            return rmp_ctx.tps[i];
    return NULL;
}

/* ---- dynamic windows' region tables ---- */
typedef struct dyn_entry {
    uint64_t base, size;
    tp_rkey_t key[RMA_NSLOT]; /* its exposure on each transport (by slot) */
} dyn_entry_t;

/* What origins read first (exposed at creation, never moves). */
typedef struct dyn_head {
    uint64_t gen;             /* odd while the owner changes the table */
    uint64_t n, cap;          /* entries in use, entries in the block */
    tp_rkey_t key[RMA_NSLOT]; /* the entries' block on each transport (by slot) */
} dyn_head_t;

/* A block of entries and its exposures (by rmp_ctx.tps index). */
typedef struct dyn_block {
    struct dyn_block *older; /* the blocks it replaced, kept exposed until free */
    dyn_entry_t *e;
    void *exph[RMP_MAX_TRANSPORTS];
} dyn_block_t;

/* A target's table as last read. */
typedef struct dyn_cache {
    dyn_entry_t *e;
    uint64_t n, cap;
} dyn_cache_t;

typedef struct rma_dyn {
    dyn_head_t *head;               /* exposed on every transport with an rma table */
    void *exph[RMP_MAX_TRANSPORTS]; /* the head's exposure, by rmp_ctx.tps index */
    dyn_block_t *block;             /* the entries in use (NULL: none attached yet) */
    tp_rkey_t (*tkey)[RMA_NSLOT];   /* [size]: the keys of each target's head */
    uint32_t *texposed;             /* [size]: slots the target exposed its head on */
    dyn_cache_t *cache;             /* [size] */
} rma_dyn_t;

/* What a rank tells the others in exchange B. */
typedef struct win_rec {
    int64_t base;
    int32_t err;
    uint32_t exposed; /* bit s: mem (or table) and ctrl keys valid in slot s */
    tp_rkey_t mem[RMA_NSLOT], ctrl[RMA_NSLOT], tbl[RMA_NSLOT];
} win_rec_t;

/* Exchange A, per rank. */
enum { A_SIZE, A_DISP, A_SHARE, A_TPMASK, A_FORCE, A_N };

/* The table: slot h-1 holds window h (RMP_WIN_NULL is 0), in chunks of WIN_CHUNK slots that
 * never move and are never freed, so that win_lookup (on every one-sided call, three per
 * lock-put-unlock) reads two atomics and takes no lock. Creation and free (several threads
 * may create and free windows at once) change slots under the table's mutex. */
#define WIN_CHUNK 64
#define WIN_DIR 1024 /* 65536 live windows at most */
static struct {
    pthread_mutex_t lock;
    _Atomic(win_t *) *_Atomic dir[WIN_DIR];
    hpool_t free; /* which slots are free (hpool.h) */
} win_tab = {.lock = PTHREAD_MUTEX_INITIALIZER, .free = {.limit = WIN_DIR * WIN_CHUNK}};

static void slot_set(int i, win_t *w) /* table mutex held; chunk i / WIN_CHUNK exists */
{
    _Atomic(win_t *) *c = atomic_load_explicit(&win_tab.dir[i / WIN_CHUNK], memory_order_relaxed);
    atomic_store_explicit(&c[i % WIN_CHUNK], w, memory_order_release);
}

static int win_insert(win_t *w)
{
    int err = RMP_ERR_NO_MEM;
    pthread_mutex_lock(&win_tab.lock);
    int i = hpool_get(&win_tab.free);
    int d = i / WIN_CHUNK;
    _Atomic(win_t *) *c =
        i < 0 ? NULL : atomic_load_explicit(&win_tab.dir[d], memory_order_relaxed);
    if (i >= 0 && !c && (c = calloc(WIN_CHUNK, sizeof(*c))))
        atomic_store_explicit(&win_tab.dir[d], c, memory_order_release);
    if (c) {
        w->handle = i + 1;
        slot_set(i, w);
        err = RMP_SUCCESS;
    } else if (i >= 0) {
        hpool_put(&win_tab.free, i);
    }
    pthread_mutex_unlock(&win_tab.lock);
    return err;
}

win_t *win_lookup(rmp_win_t h)
{
    if (h <= 0 || h > WIN_DIR * WIN_CHUNK)
        return NULL;
    _Atomic(win_t *) *c = atomic_load_explicit(&win_tab.dir[(h - 1) / WIN_CHUNK],
                                               memory_order_acquire);
    return c ? atomic_load_explicit(&c[(h - 1) % WIN_CHUNK], memory_order_acquire) : NULL;
}

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
        if (w->dyn && w->dyn->exph[i])
            tp->rma->unexpose(tp, w->dyn->exph[i]);
        for (dyn_block_t *b = w->dyn ? w->dyn->block : NULL; b; b = b->older)
            if (b->exph[i])
                tp->rma->unexpose(tp, b->exph[i]);
        for (int k = 0; k < w->nregions; k++)
            if (w->regions[k].exph[i])
                tp->rma->unexpose(tp, w->regions[k].exph[i]);
    }
    tp_t *shm = slot_tp(1);
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
    if (w->dyn) {
        for (dyn_block_t *b = w->dyn->block, *o; b; b = o) {
            o = b->older;
            free(b->e);
            free(b);
        }
        for (int r = 0; w->dyn->cache && r < w->size; r++)
            free(w->dyn->cache[r].e);
        free(w->dyn->head);
        free(w->dyn->tkey);
        free(w->dyn->texposed);
        free(w->dyn->cache);
        free(w->dyn);
    }
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
    tp_t *shm = slot_tp(1);
    a[A_SHARE] = one_node && (cc->size == 1 || (shm && shm->rma && shm->rma->seg_alloc));
    int64_t mask = 0;
    for (int i = 0; i < c->ntps; i++) {
        tp_t *tp = c->tps[i];
        int s = tp_slot(tp);
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
    tp_t *shm = slot_tp(1);
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
        int s = tp_slot(tp);
        if (s < 0 || !tp->rma)
            continue;
        if (w->flavor == RMP_WIN_FLAVOR_DYNAMIC)
            err = tp->rma->expose(tp, w->dyn->head, sizeof(dyn_head_t), &rec->tbl[s],
                                  &w->dyn->exph[i]);
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
            int s = tp_slot(tp);
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
                 slot_name[tp_slot(w->amo_tp)]);
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
    if (w && flavor == RMP_WIN_FLAVOR_DYNAMIC) {
        w->dyn = calloc(1, sizeof(rma_dyn_t));
        if (w->dyn) {
            w->dyn->head = calloc(1, sizeof(dyn_head_t));
            w->dyn->tkey = calloc((size_t)cl.size, sizeof(*w->dyn->tkey));
            w->dyn->texposed = calloc((size_t)cl.size, sizeof(uint32_t));
            w->dyn->cache = calloc((size_t)cl.size, sizeof(dyn_cache_t));
        }
    }
    if (!w || !recs || !w->t ||
        (flavor == RMP_WIN_FLAVOR_DYNAMIC &&
         (!w->dyn || !w->dyn->head || !w->dyn->tkey || !w->dyn->texposed || !w->dyn->cache))) {
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
                w->amo_tp = slot_tp(s);
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
        int s = tp_slot(w->amo_tp);
        if (w->amo_path == RMA_TP && s >= 0) {
            t->ctrl_key = recs[r].ctrl[s];
            t->mem_key = recs[r].mem[s];
        }
        if (w->dyn) {
            memcpy(w->dyn->tkey[r], recs[r].tbl, sizeof(recs[r].tbl));
            w->dyn->texposed[r] = recs[r].exposed;
        }
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

int win_enter(rmp_win_t h, win_t **w)
{
    int err = ctx_check();
    if (err)
        return err;
    *w = win_lookup(h);
    if (!*w)
        return RMP_ERR_WIN;
    ctx_lock(&rmp_ctx);
    return RMP_SUCCESS;
}

/* The owner's side of the generation word: odd from before a change until after it, so that an
 * origin's read of the table that overlaps a change sees the word move. */
static void dyn_change(rma_dyn_t *d, bool begin)
{
    if (!begin)
        atomic_thread_fence(memory_order_release);
    __atomic_store_n(&d->head->gen, d->head->gen + 1, __ATOMIC_RELEASE);
    if (begin)
        atomic_thread_fence(memory_order_seq_cst);
}

/* Room for want entries in my table: a block twice as large, exposed everywhere the head is,
 * when the one in use is full (lock held). */
static int dyn_room(win_t *w, uint64_t want)
{
    rmp_ctx_t *c = &rmp_ctx;
    rma_dyn_t *d = w->dyn;
    if (want <= d->head->cap)
        return RMP_SUCCESS;
    uint64_t cap = d->head->cap ? 2 * d->head->cap : 16;
    dyn_block_t *b = calloc(1, sizeof(*b));
    if (b)
        b->e = calloc(cap, sizeof(dyn_entry_t));
    if (!b || !b->e) {
        free(b);
        return RMP_ERR_NO_MEM;
    }
    if (d->block)
        memcpy(b->e, d->block->e, sizeof(dyn_entry_t) * d->head->n);
    tp_rkey_t key[RMA_NSLOT] = {{0}};
    int err = RMP_SUCCESS;
    for (int i = 0; i < c->ntps && !err; i++) {
        tp_t *tp = c->tps[i];
        int s = tp_slot(tp);
        if (s >= 0 && tp->rma)
            err = tp->rma->expose(tp, b->e, sizeof(dyn_entry_t) * cap, &key[s], &b->exph[i]);
    }
    if (err) {
        for (int i = 0; i < c->ntps; i++)
            if (b->exph[i])
                c->tps[i]->rma->unexpose(c->tps[i], b->exph[i]);
        free(b->e);
        free(b);
        return err;
    }
    b->older = d->block;
    dyn_change(d, true);
    d->block = b;
    memcpy(d->head->key, key, sizeof(key));
    d->head->cap = cap;
    dyn_change(d, false);
    return RMP_SUCCESS;
}

int rmp_win_attach(rmp_win_t win, void *base, ptrdiff_t size)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    rmp_ctx_t *c = &rmp_ctx;
    if (w->flavor != RMP_WIN_FLAVOR_DYNAMIC)
        err = RMP_ERR_RMA_FLAVOR;
    else if (size < 0 || (size > 0 && !base))
        err = RMP_ERR_ARG;
    for (int k = 0; !err && k < w->nregions; k++) {
        rma_region_t *g = &w->regions[k];
        if ((char *)base < g->base + g->size && g->base < (char *)base + size)
            err = RMP_ERR_RMA_ATTACH; /* overlaps: MPI-3.1 11.2.4 */
    }
    if (!err)
        err = dyn_room(w, (uint64_t)w->nregions + 1);
    if (!err && w->nregions == w->cap) {
        int cap = w->cap ? 2 * w->cap : 4;
        rma_region_t *r = realloc(w->regions, sizeof(*r) * (size_t)cap);
        if (r) {
            w->regions = r;
            w->cap = cap;
        } else {
            err = RMP_ERR_NO_MEM;
        }
    }
    if (err) {
        ctx_unlock(c);
        return err;
    }
    rma_region_t g = {.base = base, .size = (size_t)size};
    dyn_entry_t e = {.base = (uint64_t)(uintptr_t)base, .size = (uint64_t)size};
    for (int i = 0; i < c->ntps && !err; i++) {
        tp_t *tp = c->tps[i];
        int s = tp_slot(tp);
        if (s >= 0 && tp->rma)
            err = tp->rma->expose(tp, base, (size_t)size, &g.key[i], &g.exph[i]);
        if (!err && s >= 0 && tp->rma)
            e.key[s] = g.key[i];
    }
    if (err) {
        for (int i = 0; i < c->ntps; i++)
            if (g.exph[i])
                c->tps[i]->rma->unexpose(c->tps[i], g.exph[i]);
    } else {
        dyn_change(w->dyn, true);
        w->dyn->block->e[w->nregions] = e;
        w->dyn->head->n = (uint64_t)w->nregions + 1;
        dyn_change(w->dyn, false);
        w->regions[w->nregions++] = g;
    }
    ctx_unlock(c);
    return err;
}

int rmp_win_detach(rmp_win_t win, const void *base)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    rmp_ctx_t *c = &rmp_ctx;
    err = w->flavor != RMP_WIN_FLAVOR_DYNAMIC ? RMP_ERR_RMA_FLAVOR : RMP_ERR_ARG;
    for (int k = 0; w->flavor == RMP_WIN_FLAVOR_DYNAMIC && k < w->nregions; k++) {
        if (w->regions[k].base != base)
            continue;
        for (int i = 0; i < c->ntps; i++)
            if (w->regions[k].exph[i])
                c->tps[i]->rma->unexpose(c->tps[i], w->regions[k].exph[i]);
        int last = --w->nregions;
        w->regions[k] = w->regions[last];
        dyn_change(w->dyn, true);
        w->dyn->block->e[k] = w->dyn->block->e[last];
        w->dyn->head->n = (uint64_t)last;
        dyn_change(w->dyn, false);
        err = RMP_SUCCESS;
        break;
    }
    ctx_unlock(c);
    return err;
}

/* Target r's region table, read again through its data transport (lock held): head, entries,
 * generation again, until one read saw no change. */
static int dyn_refresh(win_t *w, int r)
{
    rma_target_t *t = &w->t[r];
    dyn_cache_t *cache = &w->dyn->cache[r];
    int s = tp_slot(t->data_tp);
    cache->n = 0; /* nothing trusted until a read succeeded */
    if (s < 0 || !(w->dyn->texposed[r] & (1u << s)))
        return RMP_ERR_RMA_RANGE;
    for (unsigned tries = 0;; tries++) {
        dyn_head_t h;
        uint64_t gen;
        int err = rma_tp_io(t->data_tp, t->world, &w->dyn->tkey[r][s], 0, &h, sizeof(h), false);
        if (err)
            return err;
        if (!(h.gen & 1) && h.n <= h.cap) {
            if (h.n > cache->cap) {
                dyn_entry_t *e = realloc(cache->e, sizeof(dyn_entry_t) * h.n);
                if (!e)
                    return RMP_ERR_NO_MEM;
                cache->e = e;
                cache->cap = h.n;
            }
            if (h.n)
                err = rma_tp_io(t->data_tp, t->world, &h.key[s], 0, cache->e,
                                sizeof(dyn_entry_t) * h.n, false);
            if (!err)
                err = rma_tp_io(t->data_tp, t->world, &w->dyn->tkey[r][s], 0, &gen,
                                sizeof(gen), false);
            if (err)
                return err;
            if (gen == h.gen) {
                cache->n = h.n;
                return RMP_SUCCESS;
            }
        }
        if (rmp_ctx.peers[t->world].failed)
            return rmp_ctx.peers[t->world].failed;
        if (tries > 16)
            progress_poll(&rmp_ctx); /* the owner is busy attaching: let time pass */
    }
}

/* The entry holding [lo, hi) whole (NULL: none). */
static const dyn_entry_t *dyn_find(const dyn_cache_t *tb, uint64_t lo, uint64_t hi)
{
    for (uint64_t i = 0; i < tb->n; i++)
        if (lo >= tb->e[i].base && hi <= tb->e[i].base + tb->e[i].size)
            return &tb->e[i];
    return NULL;
}

/* Whether every byte of [lo, hi) lies in some entry (adjacent regions together). */
static bool dyn_covered(const dyn_cache_t *tb, uint64_t lo, uint64_t hi)
{
    while (lo < hi) {
        uint64_t i = 0;
        while (i < tb->n && !(lo >= tb->e[i].base && lo < tb->e[i].base + tb->e[i].size))
            i++;
        if (i == tb->n)
            return false;
        lo = tb->e[i].base + tb->e[i].size;
    }
    return true;
}

bool win_attached(const win_t *w, uint64_t lo, uint64_t hi)
{
    while (lo < hi) {
        int k = 0;
        uint64_t b = 0;
        for (; k < w->nregions; k++) {
            b = (uint64_t)(uintptr_t)w->regions[k].base;
            if (lo >= b && lo < b + w->regions[k].size)
                break;
        }
        if (k == w->nregions)
            return false;
        lo = b + w->regions[k].size;
    }
    return true;
}

int win_range(win_t *w, int r, ptrdiff_t disp, ptrdiff_t lo, ptrdiff_t hi, uint64_t *off)
{
    rma_target_t *t = &w->t[r];
    if (w->flavor == RMP_WIN_FLAVOR_DYNAMIC) {
        *off = (uint64_t)disp; /* an absolute address in the target */
        if (lo >= hi || t->data_path == RMA_AM)
            return RMP_SUCCESS; /* nothing moves, or the target checks (am.c) */
        uint64_t a = (uint64_t)disp + (uint64_t)lo, b = (uint64_t)disp + (uint64_t)hi;
        if (r == w->rank)
            return win_attached(w, a, b) ? RMP_SUCCESS : RMP_ERR_RMA_RANGE;
        if (dyn_covered(&w->dyn->cache[r], a, b))
            return RMP_SUCCESS;
        int err = dyn_refresh(w, r); /* attached since I last looked? */
        if (err)
            return err;
        return dyn_covered(&w->dyn->cache[r], a, b) ? RMP_SUCCESS : RMP_ERR_RMA_RANGE;
    }
    ptrdiff_t at;
    if (__builtin_mul_overflow(disp, (ptrdiff_t)t->disp_unit, &at))
        return RMP_ERR_RMA_RANGE;
    *off = (uint64_t)at;
    if (lo >= hi)
        return RMP_SUCCESS;
    ptrdiff_t a, b;
    if (__builtin_add_overflow(at, lo, &a) || __builtin_add_overflow(at, hi, &b) || a < 0 ||
        b > t->size)
        return RMP_ERR_RMA_RANGE;
    return RMP_SUCCESS;
}

const tp_rkey_t *win_key(win_t *w, int r, tp_t *tp, uint64_t off, size_t len, uint64_t *toff)
{
    rma_target_t *t = &w->t[r];
    if (w->flavor != RMP_WIN_FLAVOR_DYNAMIC) {
        *toff = off;
        if (tp == t->data_tp && t->data_path == RMA_TP)
            return &t->data_key;
        return tp == w->amo_tp && w->amo_path == RMA_TP ? &t->mem_key : NULL;
    }
    if (r == w->rank) /* my own regions (a TP window's atomics to myself): no table read */
        for (int k = 0; k < w->nregions; k++) {
            rma_region_t *g = &w->regions[k];
            uint64_t b = (uint64_t)(uintptr_t)g->base;
            if (off < b || off + len > b + g->size)
                continue;
            for (int i = 0; i < rmp_ctx.ntps; i++)
                if (rmp_ctx.tps[i] == tp && g->exph[i]) {
                    *toff = off - b;
                    return &g->key[i];
                }
            return NULL;
        }
    int s = tp_slot(tp);
    const dyn_entry_t *e = s < 0 ? NULL : dyn_find(&w->dyn->cache[r], off, off + len);
    if (!e)
        return NULL;
    *toff = off - e->base;
    return &e->key[s];
}

const tp_rkey_t *win_key_part(win_t *w, int r, tp_t *tp, uint64_t off, size_t *len,
                              uint64_t *toff)
{
    if (w->flavor != RMP_WIN_FLAVOR_DYNAMIC)
        return win_key(w, r, tp, off, *len, toff);
    uint64_t end = 0; /* of the region holding off */
    if (r == w->rank) {
        for (int k = 0; k < w->nregions && !end; k++) {
            uint64_t b = (uint64_t)(uintptr_t)w->regions[k].base;
            if (off >= b && off < b + w->regions[k].size)
                end = b + w->regions[k].size;
        }
    } else {
        const dyn_entry_t *e = dyn_find(&w->dyn->cache[r], off, off + 1);
        end = e ? e->base + e->size : 0;
    }
    if (!end)
        return NULL;
    if (*len > end - off)
        *len = (size_t)(end - off);
    return win_key(w, r, tp, off, *len, toff);
}

int rmp_win_get_peer(rmp_win_t win, int rank, intptr_t *base, ptrdiff_t *size, int *disp_unit)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (rank < 0 || rank >= w->size)
        err = RMP_ERR_RANK;
    else if (!base || !size || !disp_unit)
        err = RMP_ERR_ARG;
    else {
        *base = (intptr_t)w->t[rank].base;
        *size = (ptrdiff_t)w->t[rank].size;
        *disp_unit = w->t[rank].disp_unit;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_win_shared_query(rmp_win_t win, int rank, ptrdiff_t *size, int *disp_unit,
                         void **baseptr)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (rank == RMP_PROC_NULL) { /* the first rank with memory this process maps */
        rank = 0;
        while (rank < w->size - 1 && (w->t[rank].size == 0 || !w->t[rank].mapped))
            rank++;
    }
    if (!size || !disp_unit || !baseptr)
        err = RMP_ERR_ARG;
    else if (rank < 0 || rank >= w->size)
        err = RMP_ERR_RANK;
    else { /* MPI-4: any flavor. Memory this process does not map (a peer's in a created or
            * dynamic window, one on another node) is 0 bytes at NULL */
        const char *mapped = w->t[rank].mapped;
        *size = mapped ? (ptrdiff_t)w->t[rank].size : 0;
        *disp_unit = w->t[rank].disp_unit;
        /* no bytes, no address: MPI names none for a 0-byte segment (PROC_NULL with every size
         * 0: "as if MPI_ALLOC_MEM was called with size 0", which may give NULL); NULL lets no
         * one store through it by mistake (MPICH's win_shared_noncontig_put expects it) */
        *baseptr = *size ? (void *)mapped : NULL;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_win_get_flavor(rmp_win_t win, int *flavor)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (flavor)
        *flavor = w->flavor;
    ctx_unlock(&rmp_ctx);
    return flavor ? RMP_SUCCESS : RMP_ERR_ARG;
}

int rmp_win_get_model(rmp_win_t win, int *model)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (model)
        *model = w->model;
    ctx_unlock(&rmp_ctx);
    return model ? RMP_SUCCESS : RMP_ERR_ARG;
}

int rmp_win_get_group(rmp_win_t win, rmp_group_t *group)
{
    int err = ctx_check();
    if (err)
        return err;
    win_t *w = win_lookup(win);
    if (!w)
        return RMP_ERR_WIN;
    return group ? rmp_comm_group(w->comm, group) : RMP_ERR_ARG;
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
    pthread_mutex_lock(&win_tab.lock);
    slot_set(*win - 1, NULL);
    hpool_put(&win_tab.free, *win - 1);
    pthread_mutex_unlock(&win_tab.lock);
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
