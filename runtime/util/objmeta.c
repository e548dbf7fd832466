/* objmeta.c — names (MPI-3.1 6.8: set by the program, truncated to RMP_MAX_OBJECT_NAME - 1
 * characters) and info hints (MPI-3.1 6.4.4, 11.2.7) of communicators, datatypes and windows.
 * A small list per kind under its own mutex, searched by handle: only objects a program named
 * or gave hints to are in it. Lock order: the runtime lock (comm_release_locked calls
 * objmeta_forget under it), then this mutex, then the info table's (rmp_info_*): nothing here
 * takes the runtime lock while holding this mutex. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "objmeta.h"

typedef struct meta {
    int h;
    bool named;
    char name[RMP_MAX_OBJECT_NAME];
    rmp_info_t info; /* hints set on it (a private info object), or RMP_INFO_NULL */
} meta_t;

static pthread_mutex_t meta_mu = PTHREAD_MUTEX_INITIALIZER;
static meta_t *metas[OBJ_NKINDS];
static int nmetas[OBJ_NKINDS], capmetas[OBJ_NKINDS];

/* h's entry (mutex held); with create, made if missing (NULL: out of memory). */
static meta_t *meta_find(int kind, int h, bool create)
{
    for (int i = 0; i < nmetas[kind]; i++)
        if (metas[kind][i].h == h)
            return &metas[kind][i];
    if (!create)
        return NULL;
    if (nmetas[kind] == capmetas[kind]) {
        int cap = capmetas[kind] ? capmetas[kind] * 2 : 16;
        meta_t *m = realloc(metas[kind], sizeof(*m) * (size_t)cap);
        if (!m)
            return NULL;
        metas[kind] = m;
        capmetas[kind] = cap;
    }
    meta_t *m = &metas[kind][nmetas[kind]++];
    *m = (meta_t){.h = h, .info = RMP_INFO_NULL};
    return m;
}

void objmeta_forget(int kind, int h)
{
    rmp_info_t info = RMP_INFO_NULL;
    pthread_mutex_lock(&meta_mu);
    meta_t *m = meta_find(kind, h, false);
    if (m) {
        info = m->info;
        *m = metas[kind][--nmetas[kind]];
    }
    pthread_mutex_unlock(&meta_mu);
    if (info != RMP_INFO_NULL)
        (void)rmp_info_free(&info);
}

bool objmeta_name(int kind, int h, char *name)
{
    pthread_mutex_lock(&meta_mu);
    meta_t *m = meta_find(kind, h, false);
    bool named = m && m->named;
    if (named)
        memcpy(name, m->name, strlen(m->name) + 1);
    pthread_mutex_unlock(&meta_mu);
    return named;
}

static int set_name(int kind, int h, const char *name)
{
    pthread_mutex_lock(&meta_mu);
    meta_t *m = meta_find(kind, h, true);
    if (m) {
        size_t n = strnlen(name, RMP_MAX_OBJECT_NAME - 1);
        memcpy(m->name, name, n);
        m->name[n] = '\0';
        m->named = true;
    }
    pthread_mutex_unlock(&meta_mu);
    return m ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

static void put_name(const char *s, char *name, int *resultlen)
{
    size_t n = strlen(s);
    memcpy(name, s, n + 1);
    if (resultlen)
        *resultlen = (int)n;
}

/* ---- handles' validity ---- */
static int comm_valid(rmp_comm_t comm)
{
    int err = ctx_check();
    return err ? err : comm_get(comm) ? RMP_SUCCESS : RMP_ERR_COMM;
}

/* Windows are the one-sided layer's: it says which handles are live (ctx.h's rma_win_valid). */
static int win_valid(rmp_win_t win)
{
    int err = ctx_check();
    if (err)
        return err;
    return rmp_ctx.rma_win_valid ? rmp_ctx.rma_win_valid(win) : RMP_ERR_WIN;
}

/* ---- names ---- */
int rmp_comm_set_name(rmp_comm_t comm, const char *name)
{
    int err = comm_valid(comm);
    if (!err && !name)
        err = RMP_ERR_ARG;
    return err ? err : set_name(OBJ_COMM, comm, name);
}

int rmp_comm_get_name(rmp_comm_t comm, char *name, int *resultlen)
{
    int err = comm_valid(comm);
    if (!err && !name)
        err = RMP_ERR_ARG;
    if (err)
        return err;
    char s[RMP_MAX_OBJECT_NAME];
    if (!objmeta_name(OBJ_COMM, comm, s))
        strcpy(s, comm == RMP_COMM_WORLD ? "RMP_COMM_WORLD"
                  : comm == RMP_COMM_SELF ? "RMP_COMM_SELF" : "");
    put_name(s, name, resultlen);
    return RMP_SUCCESS;
}

int rmp_type_set_name(rmp_datatype_t type, const char *name)
{
    int err = ctx_check();
    if (!err && !dtype_get(type, false))
        err = RMP_ERR_TYPE;
    if (!err && !name)
        err = RMP_ERR_ARG;
    return err ? err : set_name(OBJ_TYPE, type, name);
}

int rmp_win_set_name(rmp_win_t win, const char *name)
{
    int err = win_valid(win);
    if (!err && !name)
        err = RMP_ERR_ARG;
    return err ? err : set_name(OBJ_WIN, win, name);
}

int rmp_win_get_name(rmp_win_t win, char *name, int *resultlen)
{
    int err = win_valid(win);
    if (!err && !name)
        err = RMP_ERR_ARG;
    if (err)
        return err;
    char s[RMP_MAX_OBJECT_NAME];
    if (!objmeta_name(OBJ_WIN, win, s))
        s[0] = '\0';
    put_name(s, name, resultlen);
    return RMP_SUCCESS;
}

/* ---- info hints ---- */
/* Every key of from set into to (neither locked by the caller). */
/* A hint an object of this kind keeps. MPI-3.1 6.4.4: get_info returns the hints "actually
 * used"; a communicator's are MPI-4's assertions (mpi_assert_no_any_tag, _no_any_source,
 * _exact_length, _allow_overtaking), so others are dropped, as MPICH does (its comm_info test
 * sets an unknown key and expects it gone); a window's are those and the RMA hints MPI defines
 * (MPI-4.0 12.2.1), so an unknown key is dropped there too (MPICH's rma/win_info). */
static bool hint_kept(int kind, const char *key)
{
    static const char *const win_hints[] = {
        "no_locks",       "accumulate_ordering",    "accumulate_ops",
        "same_size",      "same_disp_unit",         "alloc_shared_noncontig",
        "mpi_accumulate_granularity"};
    if (kind != OBJ_COMM && kind != OBJ_WIN)
        return true;
    if (strncmp(key, "mpi_assert_", 11) == 0)
        return true;
    for (size_t i = 0; kind == OBJ_WIN && i < sizeof win_hints / sizeof win_hints[0]; i++)
        if (strcmp(key, win_hints[i]) == 0)
            return true;
    return false;
}

static int info_merge(int kind, rmp_info_t to, rmp_info_t from)
{
    int n, err = rmp_info_get_nkeys(from, &n);
    char key[RMP_MAX_INFO_KEY + 1], val[RMP_MAX_INFO_VAL + 1];
    for (int i = 0; !err && i < n; i++) {
        int flag = 0;
        err = rmp_info_get_nthkey(from, i, key);
        if (!err && !hint_kept(kind, key))
            continue;
        if (!err)
            err = rmp_info_get(from, key, RMP_MAX_INFO_VAL, val, &flag);
        if (!err && flag)
            err = rmp_info_set(to, key, val);
    }
    return err;
}

/* h's hints become its old ones updated with info's (MPI_Comm_set_info: hints info does not
 * name are left as they were). */
static int set_info(int kind, int h, rmp_info_t info)
{
    if (info == RMP_INFO_NULL) /* no hints: nothing changes */
        return RMP_SUCCESS;
    int n, err = rmp_info_get_nkeys(info, &n); /* RMP_ERR_INFO for an invalid handle */
    if (err || n == 0)
        return err;
    rmp_info_t mine = RMP_INFO_NULL;
    pthread_mutex_lock(&meta_mu);
    meta_t *m = meta_find(kind, h, true);
    if (m)
        mine = m->info;
    pthread_mutex_unlock(&meta_mu);
    if (!m)
        return RMP_ERR_NO_MEM;
    bool fresh = mine == RMP_INFO_NULL;
    if (fresh && (err = rmp_info_create(&mine)))
        return err;
    err = info_merge(kind, mine, info);
    if (fresh) { /* install it, unless another thread did meanwhile (then merge into that) */
        pthread_mutex_lock(&meta_mu);
        m = meta_find(kind, h, true);
        bool raced = m && m->info != RMP_INFO_NULL;
        if (m && !raced && !err)
            m->info = mine;
        rmp_info_t other = raced ? m->info : RMP_INFO_NULL;
        pthread_mutex_unlock(&meta_mu);
        if (raced && !err)
            err = info_merge(kind, other, mine);
        if (raced || err || !m)
            (void)rmp_info_free(&mine);
        if (!m && !err)
            err = RMP_ERR_NO_MEM;
    }
    return err;
}

/* A new info object with h's hints (empty if none). */
static int get_info(int kind, int h, rmp_info_t *out)
{
    if (!out)
        return RMP_ERR_ARG;
    rmp_info_t mine = RMP_INFO_NULL, fresh;
    int err = rmp_info_create(&fresh);
    if (err)
        return err;
    pthread_mutex_lock(&meta_mu);
    meta_t *m = meta_find(kind, h, false);
    if (m && m->info != RMP_INFO_NULL && (err = rmp_info_dup(m->info, &mine)) == RMP_SUCCESS) {
        (void)rmp_info_free(&fresh);
        fresh = mine;
    }
    pthread_mutex_unlock(&meta_mu);
    if (err)
        (void)rmp_info_free(&fresh);
    else
        *out = fresh;
    return err;
}

int objmeta_copy_info(int kind, int parent, int child)
{
    rmp_info_t copy;
    int err = get_info(kind, parent, &copy);
    if (!err) {
        err = set_info(kind, child, copy);
        (void)rmp_info_free(&copy);
    }
    return err;
}

int rmp_comm_set_info(rmp_comm_t comm, rmp_info_t info)
{
    int err = comm_valid(comm);
    return err ? err : set_info(OBJ_COMM, comm, info);
}

int rmp_comm_get_info(rmp_comm_t comm, rmp_info_t *info)
{
    int err = comm_valid(comm);
    return err ? err : get_info(OBJ_COMM, comm, info);
}

int rmp_win_set_info(rmp_win_t win, rmp_info_t info)
{
    int err = win_valid(win);
    return err ? err : set_info(OBJ_WIN, win, info);
}

int rmp_win_get_info(rmp_win_t win, rmp_info_t *info)
{
    int err = win_valid(win);
    return err ? err : get_info(OBJ_WIN, win, info);
}
