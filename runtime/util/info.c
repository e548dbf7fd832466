/* info.c — info objects (MPI-3.1 ch. 9): ordered lists of (key, value) string pairs that carry
 * hints. Handles index a table under its own mutex (info objects are local, used by any thread
 * and need no runtime lock); 1 is RMP_INFO_ENV, read-only and built at its first use from what
 * the process knows of its job. Keys are compared exactly (case-sensitive, no trimming: the
 * standard strips spaces only in Fortran); a key set again keeps its place, so
 * rmp_info_get_nthkey lists keys in the order they were first set (as MPICH does). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core.h"

typedef struct info {
    bool in_use, readonly;
    int n, cap;
    char **keys, **vals;
} info_t;

static pthread_mutex_t info_mu = PTHREAD_MUTEX_INITIALIZER;
static hpool_t info_pool = {.first = 2, .limit = INT_MAX, .next = 2}; /* its handles */
static info_t *infos; /* [ninfos]; slot 0 unused (RMP_INFO_NULL), 1 RMP_INFO_ENV */
static int ninfos;

static void info_clear(info_t *in)
{
    for (int i = 0; i < in->n; i++) {
        free(in->keys[i]);
        free(in->vals[i]);
    }
    free(in->keys);
    free(in->vals);
    *in = (info_t){0};
}

static int info_find(const info_t *in, const char *key)
{
    for (int i = 0; i < in->n; i++)
        if (strcmp(in->keys[i], key) == 0)
            return i;
    return -1;
}

/* Set key to value in in (mutex held); the caller checked both. */
static int info_put(info_t *in, const char *key, const char *value)
{
    char *v = strdup(value);
    if (!v)
        return RMP_ERR_NO_MEM;
    int i = info_find(in, key);
    if (i >= 0) {
        free(in->vals[i]);
        in->vals[i] = v;
        return RMP_SUCCESS;
    }
    if (in->n == in->cap) {
        int cap = in->cap ? in->cap * 2 : 8;
        char **k = realloc(in->keys, sizeof(char *) * (size_t)cap);
        if (k)
            in->keys = k;
        char **vv = k ? realloc(in->vals, sizeof(char *) * (size_t)cap) : NULL;
        if (vv)
            in->vals = vv;
        if (!k || !vv) {
            free(v);
            return RMP_ERR_NO_MEM;
        }
        in->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return RMP_ERR_NO_MEM;
    }
    in->keys[in->n] = k;
    in->vals[in->n] = v;
    in->n++;
    return RMP_SUCCESS;
}

/* A free slot, the table grown if needed (mutex held); slots 0 and 1 are never handed out. */
static int info_slot(int *h_out)
{
    int h = hpool_get_in(&info_pool, (void **)&infos, &ninfos, sizeof(info_t));
    if (h < 0)
        return RMP_ERR_NO_MEM;
    *h_out = h;
    return RMP_SUCCESS;
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case RMP_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case RMP_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case RMP_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "MPI_THREAD_SINGLE";
    }
}

/* The command line as NUL-separated words: argv's first argc (argc > 0 and argv given), else
 * the process's own from /proc/self/cmdline; its length in bytes (cut to fit buf). */
static size_t info_cmdline(int argc, char *argv[], char *buf, size_t cap)
{
    size_t len = 0;
    if (argc > 0 && argv) {
        for (int i = 0; i < argc && argv[i] && len < cap - 1; i++) {
            size_t n = strnlen(argv[i], cap - 1 - len - 1);
            memcpy(buf + len, argv[i], n);
            len += n;
            buf[len++] = '\0';
        }
    } else {
        FILE *f = fopen("/proc/self/cmdline", "r");
        if (f) {
            len = fread(buf, 1, cap - 1, f);
            fclose(f);
        }
    }
    buf[len] = '\0';
    return len;
}

/* The environment's keys (MPI-4.0 9.4.1's that the process can know): command and argv (its
 * arguments, space-separated, when there are some), host, arch, wdir, and for the job's own
 * (RMP_INFO_ENV, rmp initialized) maxprocs (the world size) and thread_level. Mutex held. */
static int info_env_fill(info_t *in, int argc, char *argv[], bool job)
{
    char buf[8192];
    size_t len = info_cmdline(argc, argv, buf, sizeof buf);
    int err = RMP_SUCCESS;
    if (len > 0) {
        size_t first = strlen(buf);
        err = first ? info_put(in, "command", buf) : RMP_SUCCESS;
        if (!err && first + 1 < len) { /* the arguments, separated by spaces */
            char *args = buf + first + 1;
            size_t alen = len - first - 1;
            if (args[alen - 1] == '\0')
                alen--;
            for (size_t i = 0; i < alen; i++)
                if (args[i] == '\0')
                    args[i] = ' ';
            args[alen] = '\0';
            if (alen > RMP_MAX_INFO_VAL)
                args[RMP_MAX_INFO_VAL] = '\0';
            err = alen ? info_put(in, "argv", args) : RMP_SUCCESS;
        }
    }
    char v[RMP_MAX_INFO_VAL + 1];
    bool up = job && ctx_check() == RMP_SUCCESS;
    snprintf(v, sizeof v, "%d", rmp_ctx.size);
    if (!err && up)
        err = info_put(in, "maxprocs", v);
    if (!err && gethostname(v, sizeof v - 1) == 0) {
        v[sizeof v - 1] = '\0';
        err = info_put(in, "host", v);
    }
    struct utsname u;
    if (!err && uname(&u) == 0)
        err = info_put(in, "arch", u.machine);
    if (!err && getcwd(v, sizeof v))
        err = info_put(in, "wdir", v);
    if (!err && up)
        err = info_put(in, "thread_level", thread_level_name(rmp_ctx.thread_level));
    if (err)
        info_clear(in);
    return err;
}

/* RMP_INFO_ENV's content, built once rmp is initialized (the world size is known from then
 * on). Mutex held. */
static int info_env_build(info_t *in)
{
    in->in_use = in->readonly = true;
    return info_env_fill(in, 0, NULL, true); /* (a failure clears in) */
}

int rmp_info_create_env(int argc, char *argv[], rmp_info_t *info)
{
    if (!info || argc < 0)
        return RMP_ERR_ARG;
    pthread_mutex_lock(&info_mu);
    int h, err = info_slot(&h);
    if (!err) {
        infos[h] = (info_t){.in_use = true};
        if (!(err = info_env_fill(&infos[h], argc, argv, false))) /* (failed: slot freed) */
            *info = h;
    }
    pthread_mutex_unlock(&info_mu);
    return err;
}

/* The object of a handle (mutex held): RMP_ERR_INFO if invalid; RMP_INFO_ENV is built here. */
static int info_get_locked(rmp_info_t h, info_t **out)
{
    if (h == RMP_INFO_ENV) {
        if (ctx_check() != RMP_SUCCESS)
            return RMP_ERR_NOT_INITIALIZED;
        if (!hpool_grow((void **)&infos, &ninfos, sizeof(info_t), RMP_INFO_ENV))
            return RMP_ERR_NO_MEM;
        if (!infos[RMP_INFO_ENV].in_use) {
            int err = info_env_build(&infos[RMP_INFO_ENV]);
            if (err)
                return err;
        }
        *out = &infos[RMP_INFO_ENV];
        return RMP_SUCCESS;
    }
    if (h < 2 || h >= ninfos || !infos[h].in_use)
        return RMP_ERR_INFO;
    *out = &infos[h];
    return RMP_SUCCESS;
}

static int key_check(const char *key)
{
    if (!key)
        return RMP_ERR_ARG;
    size_t n = strnlen(key, RMP_MAX_INFO_KEY + 1);
    return n == 0 || n > RMP_MAX_INFO_KEY ? RMP_ERR_INFO_KEY : RMP_SUCCESS;
}

int rmp_info_create(rmp_info_t *info)
{
    if (!info)
        return RMP_ERR_ARG;
    pthread_mutex_lock(&info_mu);
    int h, err = info_slot(&h);
    if (!err) {
        infos[h] = (info_t){.in_use = true};
        *info = h;
    }
    pthread_mutex_unlock(&info_mu);
    return err;
}

int rmp_info_set(rmp_info_t info, const char *key, const char *value)
{
    int err = key_check(key);
    if (!err && !value)
        err = RMP_ERR_ARG;
    if (!err) {
        size_t n = strnlen(value, RMP_MAX_INFO_VAL + 1);
        if (n == 0 || n > RMP_MAX_INFO_VAL)
            err = RMP_ERR_INFO_VALUE;
    }
    pthread_mutex_lock(&info_mu);
    info_t *in = NULL;
    int herr = info_get_locked(info, &in);
    if (herr) /* the handle's error first, as MPICH checks it first */
        err = herr;
    else if (!err && in->readonly)
        err = RMP_ERR_INFO;
    if (!err)
        err = info_put(in, key, value);
    pthread_mutex_unlock(&info_mu);
    return err;
}

int rmp_info_get(rmp_info_t info, const char *key, int valuelen, char *value, int *flag)
{
    int err = key_check(key);
    if (!err && (valuelen < 0 || !value || !flag))
        err = RMP_ERR_ARG;
    pthread_mutex_lock(&info_mu);
    info_t *in = NULL;
    int herr = info_get_locked(info, &in);
    if (herr)
        err = herr;
    if (!err) {
        int i = info_find(in, key);
        *flag = i >= 0;
        if (i >= 0) { /* at most valuelen characters, then a NUL (value holds valuelen + 1) */
            size_t n = strlen(in->vals[i]);
            if (n > (size_t)valuelen)
                n = (size_t)valuelen;
            memcpy(value, in->vals[i], n);
            value[n] = '\0';
        }
    }
    pthread_mutex_unlock(&info_mu);
    return err;
}

int rmp_info_get_valuelen(rmp_info_t info, const char *key, int *valuelen, int *flag)
{
    int err = key_check(key);
    if (!err && (!valuelen || !flag))
        err = RMP_ERR_ARG;
    pthread_mutex_lock(&info_mu);
    info_t *in = NULL;
    int herr = info_get_locked(info, &in);
    if (herr)
        err = herr;
    if (!err) {
        int i = info_find(in, key);
        *flag = i >= 0;
        if (i >= 0)
            *valuelen = (int)strlen(in->vals[i]);
    }
    pthread_mutex_unlock(&info_mu);
    return err;
}

int rmp_info_get_nkeys(rmp_info_t info, int *nkeys)
{
    pthread_mutex_lock(&info_mu);
    info_t *in = NULL;
    int err = info_get_locked(info, &in);
    if (!err && !nkeys)
        err = RMP_ERR_ARG;
    if (!err)
        *nkeys = in->n;
    pthread_mutex_unlock(&info_mu);
    return err;
}

int rmp_info_get_nthkey(rmp_info_t info, int n, char *key)
{
    pthread_mutex_lock(&info_mu);
    info_t *in = NULL;
    int err = info_get_locked(info, &in);
    if (!err && (!key || n < 0 || n >= in->n))
        err = RMP_ERR_ARG;
    if (!err)
        memcpy(key, in->keys[n], strlen(in->keys[n]) + 1);
    pthread_mutex_unlock(&info_mu);
    return err;
}

int rmp_info_delete(rmp_info_t info, const char *key)
{
    int err = key_check(key);
    pthread_mutex_lock(&info_mu);
    info_t *in = NULL;
    int herr = info_get_locked(info, &in);
    if (herr)
        err = herr;
    else if (!err && in->readonly)
        err = RMP_ERR_INFO;
    int i = err ? -1 : info_find(in, key);
    if (!err && i < 0)
        err = RMP_ERR_INFO_NOKEY;
    if (!err) {
        free(in->keys[i]);
        free(in->vals[i]);
        memmove(&in->keys[i], &in->keys[i + 1], sizeof(char *) * (size_t)(in->n - i - 1));
        memmove(&in->vals[i], &in->vals[i + 1], sizeof(char *) * (size_t)(in->n - i - 1));
        in->n--;
    }
    pthread_mutex_unlock(&info_mu);
    return err;
}

int rmp_info_dup(rmp_info_t info, rmp_info_t *newinfo)
{
    pthread_mutex_lock(&info_mu);
    info_t *in = NULL;
    int h = 0, err = info_get_locked(info, &in);
    if (!err && !newinfo)
        err = RMP_ERR_ARG;
    if (!err)
        err = info_slot(&h); /* may move the table: in is looked up again below */
    if (!err) {
        in = &infos[info];
        info_t *out = &infos[h];
        *out = (info_t){.in_use = true};
        for (int i = 0; !err && i < in->n; i++)
            err = info_put(out, in->keys[i], in->vals[i]);
        if (err) {
            info_clear(out);
            hpool_put(&info_pool, h);
        } else
            *newinfo = h;
    }
    pthread_mutex_unlock(&info_mu);
    return err;
}

int rmp_info_free(rmp_info_t *info)
{
    if (!info)
        return RMP_ERR_ARG;
    pthread_mutex_lock(&info_mu);
    info_t *in = NULL;
    int err = info_get_locked(*info, &in);
    if (!err && in->readonly)
        err = RMP_ERR_INFO;
    if (!err) {
        info_clear(in);
        hpool_put(&info_pool, *info);
        *info = RMP_INFO_NULL;
    }
    pthread_mutex_unlock(&info_mu);
    return err;
}
