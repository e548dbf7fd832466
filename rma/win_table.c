/* win_table.c — window handles: the table that maps an rmp_win_t to its win_t (read on every
 * one-sided call, without a lock), and the transports' slots, by which a key travels in the
 * exchanges of creation (win.c) and in a dynamic window's region table (win_dyn.c). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rma.h"

/* Transports by name: a key travels in the slot of its transport's name (ranks may open
 * different sets of transports, so an index into rmp_ctx.tps would not do). */
const char *const rma_slot_name[RMA_NSLOT] = {"self", "shm", "verbs"};

int rma_slot(const tp_t *tp)
{
    for (int s = 0; tp && s < RMA_NSLOT; s++)
        if (!strcmp(tp->ops->name, rma_slot_name[s]))
            return s;
    return -1;
}

tp_t *rma_slot_tp(int s)
{
    for (int i = 0; i < rmp_ctx.ntps; i++)
        if (rma_slot(rmp_ctx.tps[i]) == s)
            return rmp_ctx.tps[i];
    return NULL;
}

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

int win_insert(win_t *w)
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
    unsigned i = (unsigned)h - 1; /* unsigned: a shift and a mask, and h <= 0 wraps high */
    if (i >= WIN_DIR * WIN_CHUNK)
        return NULL;
    _Atomic(win_t *) *c = atomic_load_explicit(&win_tab.dir[i / WIN_CHUNK], memory_order_acquire);
    return c ? atomic_load_explicit(&c[i % WIN_CHUNK], memory_order_acquire) : NULL;
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

void win_remove(rmp_win_t h)
{
    pthread_mutex_lock(&win_tab.lock);
    slot_set(h - 1, NULL);
    hpool_put(&win_tab.free, h - 1);
    pthread_mutex_unlock(&win_tab.lock);
}
