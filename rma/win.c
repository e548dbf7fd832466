/* win.c — windows: memory that the ranks of a communicator expose to each other. Creation is
 * collective (every rank's base, size and displacement unit are exchanged, and the window gets
 * a communicator of its own, so that freeing it synchronizes only its ranks); rmp has no
 * one-sided operations on them yet. Handles index a table that grows on demand. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../collectives/coll.h"
#include "objmeta.h"

typedef struct win_peer {
    int64_t base, size, disp_unit;
} win_peer_t;

typedef struct win_region {
    char *base;
    ptrdiff_t size;
} win_region_t;

typedef struct win {
    rmp_comm_t comm; /* a duplicate of the creation's communicator */
    int size;
    win_peer_t *peers; /* [size]: what each rank exposed */
    void *alloc;       /* rmp_win_allocate's memory, freed with the window */
    bool dynamic;
    win_region_t *regions; /* a dynamic window's attached memory */
    int nregions, cap;
} win_t;

/* The table: slot h-1 holds window h (RMP_WIN_NULL is 0). Locked: windows may be created and
 * freed by several threads at once. */
static struct {
    pthread_mutex_t lock;
    win_t **slot;
    int n;
} win_tab = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int win_insert(win_t *w, rmp_win_t *h)
{
    int err = RMP_SUCCESS, i = 0;
    pthread_mutex_lock(&win_tab.lock);
    while (i < win_tab.n && win_tab.slot[i])
        i++;
    if (i == win_tab.n) {
        int n = win_tab.n ? 2 * win_tab.n : 16;
        win_t **s = realloc(win_tab.slot, sizeof(*s) * (size_t)n);
        if (s) {
            memset(s + win_tab.n, 0, sizeof(*s) * (size_t)(n - win_tab.n));
            win_tab.slot = s;
            win_tab.n = n;
        } else {
            err = RMP_ERR_NO_MEM;
        }
    }
    if (!err) {
        win_tab.slot[i] = w;
        *h = i + 1;
    }
    pthread_mutex_unlock(&win_tab.lock);
    return err;
}

/* The window of handle h, or NULL. Freeing a window while another thread uses it is
 * erroneous (as in MPI), so the pointer stays valid for the caller. */
static win_t *win_get(rmp_win_t h)
{
    win_t *w = NULL;
    pthread_mutex_lock(&win_tab.lock);
    if (h > 0 && h <= win_tab.n)
        w = win_tab.slot[h - 1];
    pthread_mutex_unlock(&win_tab.lock);
    return w;
}

static void win_destroy(win_t *w)
{
    if (!w)
        return;
    free(w->peers);
    free(w->regions);
    free(w->alloc);
    free(w);
}

/* Collective: the window over (base, size, disp_unit) on every rank of comm. On failure
 * alloc is not freed (the caller owns it until the window exists). */
static int win_make(void *base, ptrdiff_t size, int disp_unit, bool dynamic, rmp_comm_t comm,
                    void *alloc, rmp_win_t *win)
{
    coll_t cl;
    int err = coll_comm(comm, &cl);
    if (!err && (!win || size < 0 || disp_unit <= 0 || (size > 0 && !base)))
        err = RMP_ERR_ARG;
    if (err)
        return err;
    win_t *w = calloc(1, sizeof(*w));
    if (w)
        w->peers = malloc(sizeof(win_peer_t) * (size_t)cl.size);
    if (!w || !w->peers) {
        win_destroy(w);
        return RMP_ERR_NO_MEM; /* returned before any exchange: the others fail too or hang */
    }
    win_peer_t mine = {.base = (int64_t)(intptr_t)base, .size = size, .disp_unit = disp_unit};
    w->size = cl.size;
    w->dynamic = dynamic;
    w->comm = RMP_COMM_NULL;
    err = rmp_allgather(&mine, 3, RMP_INT64, w->peers, 3, RMP_INT64, comm);
    if (!err)
        err = rmp_comm_dup(comm, &w->comm);
    if (!err)
        err = win_insert(w, win);
    if (err) {
        if (w->comm != RMP_COMM_NULL)
            rmp_comm_free(&w->comm);
        win_destroy(w);
        return err;
    }
    w->alloc = alloc;
    return RMP_SUCCESS;
}

int rmp_win_create(void *base, ptrdiff_t size, int disp_unit, rmp_comm_t comm, rmp_win_t *win)
{
    return win_make(base, size, disp_unit, false, comm, NULL, win);
}

int rmp_win_allocate(ptrdiff_t size, int disp_unit, rmp_comm_t comm, void **baseptr, rmp_win_t *win)
{
    int err = ctx_check();
    if (!err && (!baseptr || size < 0))
        err = RMP_ERR_ARG;
    if (err)
        return err;
    /* aligned for any type, and a real (unique) address even for 0 bytes */
    void *p = aligned_alloc(64, ((size_t)size + 63) / 64 * 64 + (size ? 0 : 64));
    if (!p)
        return RMP_ERR_NO_MEM;
    err = win_make(p, size, disp_unit, false, comm, p, win);
    if (err) {
        free(p);
        return err;
    }
    *baseptr = p;
    return RMP_SUCCESS;
}

int rmp_win_create_dynamic(rmp_comm_t comm, rmp_win_t *win)
{
    return win_make(NULL, 0, 1, true, comm, NULL, win);
}

/* Under the table's lock: attach and detach may come from several threads at once. */
static int win_add_region(win_t *w, void *base, ptrdiff_t size)
{
    if (w->nregions == w->cap) {
        int cap = w->cap ? 2 * w->cap : 4;
        win_region_t *r = realloc(w->regions, sizeof(*r) * (size_t)cap);
        if (!r)
            return RMP_ERR_NO_MEM;
        w->regions = r;
        w->cap = cap;
    }
    w->regions[w->nregions++] = (win_region_t){.base = base, .size = size};
    return RMP_SUCCESS;
}

static int win_remove_region(win_t *w, const void *base)
{
    for (int i = 0; i < w->nregions; i++)
        if (w->regions[i].base == base) {
            w->regions[i] = w->regions[--w->nregions];
            return RMP_SUCCESS;
        }
    return RMP_ERR_ARG;
}

int rmp_win_attach(rmp_win_t win, void *base, ptrdiff_t size)
{
    int err = ctx_check();
    if (err)
        return err;
    win_t *w = win_get(win);
    if (!w || !w->dynamic)
        return RMP_ERR_WIN;
    if (size < 0 || (size > 0 && !base))
        return RMP_ERR_ARG;
    pthread_mutex_lock(&win_tab.lock);
    err = win_add_region(w, base, size);
    pthread_mutex_unlock(&win_tab.lock);
    return err;
}

int rmp_win_detach(rmp_win_t win, const void *base)
{
    int err = ctx_check();
    if (err)
        return err;
    win_t *w = win_get(win);
    if (!w || !w->dynamic)
        return RMP_ERR_WIN;
    pthread_mutex_lock(&win_tab.lock);
    err = win_remove_region(w, base);
    pthread_mutex_unlock(&win_tab.lock);
    return err;
}

int rmp_win_get_peer(rmp_win_t win, int rank, intptr_t *base, ptrdiff_t *size, int *disp_unit)
{
    int err = ctx_check();
    if (err)
        return err;
    win_t *w = win_get(win);
    if (!w)
        return RMP_ERR_WIN;
    if (rank < 0 || rank >= w->size)
        return RMP_ERR_RANK;
    if (!base || !size || !disp_unit)
        return RMP_ERR_ARG;
    *base = (intptr_t)w->peers[rank].base;
    *size = (ptrdiff_t)w->peers[rank].size;
    *disp_unit = (int)w->peers[rank].disp_unit;
    return RMP_SUCCESS;
}

int rmp_win_free(rmp_win_t *win)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!win)
        return RMP_ERR_ARG;
    win_t *w = win_get(*win);
    if (!w)
        return RMP_ERR_WIN;
    /* no rank may free memory a peer could still reach: everyone arrives first */
    err = rmp_barrier(w->comm);
    if (err)
        return err;
    objmeta_forget(OBJ_WIN, *win); /* its name and hints go with it, before the handle does */
    pthread_mutex_lock(&win_tab.lock);
    win_tab.slot[*win - 1] = NULL;
    pthread_mutex_unlock(&win_tab.lock);
    rmp_comm_free(&w->comm);
    win_destroy(w);
    *win = RMP_WIN_NULL;
    return RMP_SUCCESS;
}
