/* win_dyn.c — dynamic windows (MPI-3.1 11.2.4) and where a target's memory is: attach and
 * detach, the region table each rank exposes, origins' cached copies of the targets' tables,
 * and the range and key lookups every operation makes (win_range, win_key) for all flavors.
 * The table has no fixed size: a small head, exposed at creation, holds a generation word
 * (odd while the owner changes the table), the count and the keys of the entries' block,
 * which is replaced by one twice as large when full. An origin reads the head, then the
 * entries, then the generation again, and retries unless it did not move: a torn read is
 * never trusted. Replaced blocks stay exposed until the window is freed (an origin may still
 * be reading one: it then just retries), which costs at most as much as the block in use.
 * Active messages need none of it (the target checks). */
#include <stdlib.h>
#include <string.h>

#include "rma.h"

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
/* A dynamic window's tables, for a window of size ranks (creation; RMP_ERR_NO_MEM). */
int dyn_new(win_t *w, int size)
{
    rma_dyn_t *d = w->dyn = calloc(1, sizeof(rma_dyn_t));
    if (!d)
        return RMP_ERR_NO_MEM;
    d->head = calloc(1, sizeof(dyn_head_t));
    d->tkey = calloc((size_t)size, sizeof(*d->tkey));
    d->texposed = calloc((size_t)size, sizeof(uint32_t));
    d->cache = calloc((size_t)size, sizeof(dyn_cache_t));
    return d->head && d->tkey && d->texposed && d->cache ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

/* My table's head exposed on tp (the i-th transport, slot s): its key in key. */
int dyn_expose(win_t *w, tp_t *tp, int i, tp_rkey_t *key)
{
    return tp->rma->expose(tp, w->dyn->head, sizeof(dyn_head_t), key, &w->dyn->exph[i]);
}

/* What target r told in exchange B: the keys of its table's head, and where it exposed it. */
void dyn_target(win_t *w, int r, const tp_rkey_t *tbl, uint32_t exposed)
{
    memcpy(w->dyn->tkey[r], tbl, sizeof(w->dyn->tkey[r]));
    w->dyn->texposed[r] = exposed;
}

/* The exposures of my tables on the i-th transport, tp, undone (free, or a failed creation). */
void dyn_unexpose(win_t *w, tp_t *tp, int i)
{
    if (w->dyn->exph[i])
        tp->rma->unexpose(tp, w->dyn->exph[i]);
    for (dyn_block_t *b = w->dyn->block; b; b = b->older)
        if (b->exph[i])
            tp->rma->unexpose(tp, b->exph[i]);
}

/* The tables' memory (after dyn_unexpose on every transport). */
void dyn_free(win_t *w)
{
    rma_dyn_t *d = w->dyn;
    for (dyn_block_t *b = d->block, *o; b; b = o) {
        o = b->older;
        free(b->e);
        free(b);
    }
    for (int r = 0; d->cache && r < w->size; r++)
        free(d->cache[r].e);
    free(d->head);
    free(d->tkey);
    free(d->texposed);
    free(d->cache);
    free(d);
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
        int s = rma_slot(tp);
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
        int s = rma_slot(tp);
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
    int s = rma_slot(t->data_tp);
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
    int s = rma_slot(tp);
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
