/* attr.c — attribute caching (MPI-3.1 6.7) on communicators, datatypes and windows, and the
 * predefined attributes: the store and its operations (attr.h), which the MPI calls
 * (attr_calls.c) are made of. This lives in the MPI layer, not in rmp: keyvals carry callbacks with
 * MPI signatures that are called with MPI handles, and rmp's own objects need no attributes.
 *
 * State: a table of keyvals (never reused, so that a freed keyval is always recognized) and,
 * per kind of object, a table indexed by handle of each object's attributes in the order they
 * were set. One mutex guards both; it is never held while a user callback runs (callbacks may
 * call MPI, attribute calls included). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"


/* User keyvals are numbered from here (the predefined ones are below). */
enum { KV_FIRST = 32 };

typedef struct keyval {
    int kind;
    bool freed;   /* MPI_*_free_keyval was called */
    int refs;     /* 1 until freed, plus one per attribute that holds the keyval: the keyval
                     is usable while refs > 0 (a freed keyval lives on in its attributes) */
    rmpi_copy_fn *copy;
    rmpi_delete_fn *del;
    void *extra;
} keyval_t;

typedef struct attr {
    int keyval;
    void *val;
} attr_t;

/* What MPI_Win_get_attr reports for a window. */
typedef struct win_rec {
    bool known;
    void *base;
    MPI_Aint size;
    int disp_unit, flavor, model;
} win_rec_t;

typedef struct obj {
    attr_t *a;
    int n, cap;
    win_rec_t win;
} obj_t;

static struct {
    pthread_mutex_t lock;
    keyval_t *kv;
    int nkv, kvcap;
    obj_t *objs[3]; /* per kind, indexed by handle; NULL until the object holds something */
    int nobjs[3];
} at = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* ---- Tables (lock held) -------------------------------------------------------------- */
/* The keyval of handle k, or NULL when k is not a live user keyval. */
static keyval_t *kv_get(int k)
{
    if (k < KV_FIRST || k - KV_FIRST >= at.nkv)
        return NULL;
    return &at.kv[k - KV_FIRST];
}

static void kv_release(int k)
{
    keyval_t *kv = kv_get(k);
    if (kv)
        kv->refs--; /* the slot itself is never reused */
}

/* The object's record, made when `make` (NULL when out of memory or absent). */
static obj_t *obj_get(int kind, int h, bool make)
{
    if (h < 0)
        return NULL;
    if (h >= at.nobjs[kind]) {
        if (!make)
            return NULL;
        int n = h + 16;
        obj_t *p = realloc(at.objs[kind], sizeof(*p) * (size_t)n);
        if (!p)
            return NULL;
        memset(p + at.nobjs[kind], 0, sizeof(*p) * (size_t)(n - at.nobjs[kind]));
        at.objs[kind] = p;
        at.nobjs[kind] = n;
    }
    return &at.objs[kind][h];
}

static int attr_find(const obj_t *o, int k)
{
    for (int i = 0; o && i < o->n; i++)
        if (o->a[i].keyval == k)
            return i;
    return -1;
}

static bool attr_append(obj_t *o, int k, void *val)
{
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 4;
        attr_t *p = realloc(o->a, sizeof(*p) * (size_t)cap);
        if (!p)
            return false;
        o->a = p;
        o->cap = cap;
    }
    o->a[o->n++] = (attr_t){.keyval = k, .val = val};
    kv_get(k)->refs++;
    return true;
}

static void attr_remove(obj_t *o, int i)
{
    kv_release(o->a[i].keyval);
    memmove(o->a + i, o->a + i + 1, sizeof(*o->a) * (size_t)(o->n - i - 1));
    if (--o->n == 0) {
        free(o->a);
        o->a = NULL;
        o->cap = 0;
    }
}

/* ---- Checks and raising --------------------------------------------------------------- */
/* The RMP error of an invalid object of the kind, or RMP_SUCCESS. */
static int obj_check(int kind, int h)
{
    int size;
    size_t sz;
    intptr_t base;
    ptrdiff_t wsize;
    int du;
    switch (kind) {
    case RMPI_KIND_COMM:
        return rmp_comm_size(h, &size);
    case RMPI_KIND_TYPE:
        return h == MPI_DATATYPE_NULL ? RMP_ERR_TYPE : rmp_type_size(h, &sz);
    default:
        return rmp_win_get_peer(h, 0, &base, &wsize, &du);
    }
}

static int raise_code(int kind, int h, int code, const char *call)
{
    if (kind == RMPI_KIND_COMM)
        return rmpi_raise_code(h, code, call);
    if (kind == RMPI_KIND_WIN)
        return rmpi_raise_win_code(h, code, call);
    return rmpi_raise_code(MPI_COMM_WORLD, code, call);
}

static int raise_err(int kind, int h, int rmp_err, const char *call)
{
    return raise_code(kind, h, rmpi_code(rmp_err), call);
}

/* Is k a predefined keyval of the kind? */
static bool kv_predefined(int kind, int k)
{
    if (kind == RMPI_KIND_COMM)
        return k >= MPI_TAG_UB && k <= MPI_APPNUM;
    if (kind == RMPI_KIND_WIN)
        return k >= MPI_WIN_BASE && k <= MPI_WIN_MODEL;
    return false;
}

/* MPI_SUCCESS when k is a live user keyval of the kind (lock held). A freed keyval that
 * attributes still hold stays usable, as in MPICH: a delete callback may free its keyval
 * again, and a program may free a copy of the handle twice (test/mpi/attr/keyval_double_free). */
static int kv_check(int kind, int k)
{
    keyval_t *kv = kv_get(k);
    if (!kv || kv->refs <= 0 || kv->kind != kind)
        return MPI_ERR_KEYVAL;
    return MPI_SUCCESS;
}

/* ---- The operations, for every kind (attr.h; the MPI calls are attr_calls.c's) -------- */
int rmpi_attr_create_keyval(int kind, rmpi_copy_fn *copy, rmpi_delete_fn *del, int *keyval,
                         void *extra, const char *call)
{
    if (!keyval)
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, call);
    int code = MPI_SUCCESS;
    pthread_mutex_lock(&at.lock);
    if (at.nkv == at.kvcap) {
        int cap = at.kvcap ? 2 * at.kvcap : 16;
        keyval_t *p = realloc(at.kv, sizeof(*p) * (size_t)cap);
        if (p) {
            at.kv = p;
            at.kvcap = cap;
        } else {
            code = MPI_ERR_NO_MEM;
        }
    }
    if (!code) {
        at.kv[at.nkv] = (keyval_t){.kind = kind, .refs = 1, .copy = copy, .del = del,
                                   .extra = extra};
        *keyval = KV_FIRST + at.nkv++;
    }
    pthread_mutex_unlock(&at.lock);
    /* errors of keyval calls belong to no object: MPI_COMM_WORLD's handler */
    return rmpi_raise_code(MPI_COMM_WORLD, code, call);
}

int rmpi_attr_free_keyval(int kind, int *keyval, const char *call)
{
    int code = MPI_SUCCESS;
    if (!keyval)
        code = MPI_ERR_ARG;
    pthread_mutex_lock(&at.lock);
    if (!code)
        code = kv_check(kind, *keyval);
    if (!code) {
        keyval_t *kv = kv_get(*keyval);
        if (!kv->freed) { /* a second free of a keyval still alive changes nothing */
            kv->freed = true;
            kv->refs--;
        }
        *keyval = MPI_KEYVAL_INVALID;
    }
    pthread_mutex_unlock(&at.lock);
    return rmpi_raise_code(MPI_COMM_WORLD, code, call);
}

/* Under the lock: whether k is a live keyval of the kind (its code), and h's attribute of k
 * (*i its index, -1 when not set) with the keyval's delete callback and extra state, which
 * the caller runs without the lock. */
static int attr_lookup(int kind, int h, int k, int *i, rmpi_delete_fn **del, void **val,
                       void **extra)
{
    *del = NULL;
    *val = *extra = NULL;
    pthread_mutex_lock(&at.lock);
    int code = kv_check(kind, k);
    obj_t *o = code ? NULL : obj_get(kind, h, false);
    *i = attr_find(o, k);
    if (*i >= 0) {
        keyval_t *kv = kv_get(k);
        *del = kv->del;
        *extra = kv->extra;
        *val = o->a[*i].val;
    }
    pthread_mutex_unlock(&at.lock);
    return code;
}

int rmpi_attr_set(int kind, int h, int k, void *val, const char *call)
{
    int rc = obj_check(kind, h);
    if (rc != RMP_SUCCESS)
        return raise_err(kind, h, rc, call);
    rmpi_delete_fn *del;
    void *old, *extra;
    int i, code = attr_lookup(kind, h, k, &i, &del, &old, &extra);
    if (code)
        return raise_code(kind, h, code, call);
    if (del) { /* the old value goes first: its delete callback may refuse */
        code = del(h, k, old, extra);
        if (code)
            return raise_code(kind, h, code, call);
    }
    pthread_mutex_lock(&at.lock);
    obj_t *o = obj_get(kind, h, true);
    i = attr_find(o, k);
    if (!o)
        code = MPI_ERR_NO_MEM;
    else if (i >= 0)
        o->a[i].val = val;
    else if (!attr_append(o, k, val))
        code = MPI_ERR_NO_MEM;
    pthread_mutex_unlock(&at.lock);
    return raise_code(kind, h, code, call);
}

/* The values of the predefined attributes (read-only for the program). */
static int pre_tag_ub = RMP_TAG_UB, pre_host = MPI_PROC_NULL, pre_io = MPI_ANY_SOURCE,
           pre_wtime_global = 0, pre_universe, pre_appnum = 0, pre_lastused;

int rmpi_attr_get(int kind, int h, int k, void *val, int *flag, const char *call)
{
    int rc = obj_check(kind, h);
    if (rc != RMP_SUCCESS)
        return raise_err(kind, h, rc, call);
    if (!val || !flag)
        return raise_code(kind, h, MPI_ERR_ARG, call);
    void *out = NULL;
    int code = MPI_SUCCESS;
    *flag = 0;
    if (kind == RMPI_KIND_COMM && kv_predefined(kind, k)) {
        int *p = k == MPI_TAG_UB             ? &pre_tag_ub
                 : k == MPI_HOST             ? &pre_host
                 : k == MPI_IO               ? &pre_io
                 : k == MPI_WTIME_IS_GLOBAL  ? &pre_wtime_global
                 : k == MPI_UNIVERSE_SIZE    ? &pre_universe
                 : k == MPI_APPNUM           ? &pre_appnum
                                             : &pre_lastused;
        pthread_mutex_lock(&at.lock);
        (void)rmp_universe_size(&pre_universe);
        const char *app = getenv("RMP_APPNUM"); /* set for MPI_Comm_spawn_multiple's children */
        pre_appnum = app ? atoi(app) : 0;
        pre_lastused = rmpi_lastusedcode();
        pthread_mutex_unlock(&at.lock);
        out = p;
        *flag = 1;
    } else if (kind == RMPI_KIND_WIN && kv_predefined(kind, k)) {
        pthread_mutex_lock(&at.lock);
        obj_t *o = obj_get(kind, h, false);
        if (o && o->win.known) {
            win_rec_t *w = &o->win;
            out = k == MPI_WIN_BASE          ? w->base
                  : k == MPI_WIN_SIZE        ? (void *)&w->size
                  : k == MPI_WIN_DISP_UNIT   ? (void *)&w->disp_unit
                  : k == MPI_WIN_CREATE_FLAVOR ? (void *)&w->flavor
                                               : (void *)&w->model;
            *flag = 1;
        }
        pthread_mutex_unlock(&at.lock);
    } else {
        pthread_mutex_lock(&at.lock);
        code = kv_check(kind, k);
        obj_t *o = code ? NULL : obj_get(kind, h, false);
        int i = attr_find(o, k);
        if (i >= 0) {
            out = o->a[i].val;
            *flag = 1;
        }
        pthread_mutex_unlock(&at.lock);
    }
    if (code)
        return raise_code(kind, h, code, call);
    if (*flag)
        memcpy(val, &out, sizeof out);
    return MPI_SUCCESS;
}

int rmpi_attr_delete(int kind, int h, int k, const char *call)
{
    int rc = obj_check(kind, h);
    if (rc != RMP_SUCCESS)
        return raise_err(kind, h, rc, call);
    rmpi_delete_fn *del;
    void *val, *extra;
    int i, code = attr_lookup(kind, h, k, &i, &del, &val, &extra);
    if (code || i < 0) /* not set: nothing to delete (MPICH's answer too) */
        return raise_code(kind, h, code, call);
    if (del && (code = del(h, k, val, extra)) != MPI_SUCCESS)
        return raise_code(kind, h, code, call); /* refused: the attribute stays */
    pthread_mutex_lock(&at.lock);
    obj_t *o = obj_get(kind, h, false);
    if ((i = attr_find(o, k)) >= 0)
        attr_remove(o, i);
    pthread_mutex_unlock(&at.lock);
    return MPI_SUCCESS;
}

/* ---- Hooks for the life cycle of objects ---------------------------------------------- */
int rmpi_attr_delete_all(int kind, int h)
{
    for (;;) {
        pthread_mutex_lock(&at.lock);
        obj_t *o = obj_get(kind, h, false);
        if (!o || !o->n) {
            if (o)
                o->win.known = false;
            pthread_mutex_unlock(&at.lock);
            return MPI_SUCCESS;
        }
        attr_t a = o->a[o->n - 1];
        keyval_t *kv = kv_get(a.keyval);
        rmpi_delete_fn *del = kv->del;
        void *extra = kv->extra;
        pthread_mutex_unlock(&at.lock);
        int code = del ? del(h, a.keyval, a.val, extra) : MPI_SUCCESS;
        if (code)
            return code;
        pthread_mutex_lock(&at.lock);
        o = obj_get(kind, h, false);
        int i = attr_find(o, a.keyval);
        if (i >= 0)
            attr_remove(o, i);
        pthread_mutex_unlock(&at.lock);
    }
}

int rmpi_attr_copy(int kind, int old, int new_)
{
    /* A snapshot of old's attributes: the callbacks run without the lock. */
    pthread_mutex_lock(&at.lock);
    obj_t *o = obj_get(kind, old, false);
    int n = o ? o->n : 0;
    attr_t *snap = n ? malloc(sizeof(*snap) * (size_t)n) : NULL;
    if (n && !snap) {
        pthread_mutex_unlock(&at.lock);
        return MPI_ERR_NO_MEM;
    }
    if (n)
        memcpy(snap, o->a, sizeof(*snap) * (size_t)n);
    for (int i = 0; i < n; i++)
        kv_get(snap[i].keyval)->refs++; /* kept alive through the callbacks */
    pthread_mutex_unlock(&at.lock);

    int code = MPI_SUCCESS, i;
    for (i = 0; i < n && !code; i++) {
        pthread_mutex_lock(&at.lock);
        keyval_t *kv = kv_get(snap[i].keyval);
        rmpi_copy_fn *copy = kv->copy;
        void *extra = kv->extra;
        pthread_mutex_unlock(&at.lock);
        void *out = NULL;
        int flag = 0;
        if (copy)
            code = copy(old, snap[i].keyval, extra, snap[i].val, &out, &flag);
        if (code || !flag)
            continue;
        pthread_mutex_lock(&at.lock);
        obj_t *no = obj_get(kind, new_, true);
        int j = attr_find(no, snap[i].keyval);
        if (!no)
            code = MPI_ERR_NO_MEM;
        else if (j >= 0)
            no->a[j].val = out;
        else if (!attr_append(no, snap[i].keyval, out))
            code = MPI_ERR_NO_MEM;
        pthread_mutex_unlock(&at.lock);
    }
    pthread_mutex_lock(&at.lock);
    for (i = 0; i < n; i++)
        kv_release(snap[i].keyval);
    pthread_mutex_unlock(&at.lock);
    free(snap);
    if (code)
        (void)rmpi_attr_delete_all(kind, new_); /* the copies made so far go again */
    return code;
}

void rmpi_win_born(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor,
                   int model)
{
    pthread_mutex_lock(&at.lock);
    obj_t *o = obj_get(RMPI_KIND_WIN, win, true);
    if (o) /* out of memory: the window has no MPI_WIN_* attributes (flag 0) */
        o->win = (win_rec_t){.known = true, .base = base, .size = size, .disp_unit = disp_unit,
                             .flavor = flavor, .model = model};
    pthread_mutex_unlock(&at.lock);
}

int rmpi_attr_finalize(void)
{
    int code = rmpi_attr_delete_all(RMPI_KIND_COMM, MPI_COMM_SELF);
    if (!code)
        code = rmpi_attr_delete_all(RMPI_KIND_COMM, MPI_COMM_WORLD);
    return code;
}
