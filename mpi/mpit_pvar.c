/* mpit_pvar.c — performance variables (MPI-4.0 15.3.7): pvar i is rmp's counter i
 * (rmp_stats_*), an MPI_UNSIGNED_LONG_LONG bound to no object, and after those the counters
 * rmp keeps per communicator (rmp_comm_stats), bound to an MPI_Comm. Counters and timers are read
 * through a handle that counts from its start: it starts stopped, a stop keeps what it
 * counted, a reset or a write sets its count. A high-water mark's handle has a mark of its own
 * (rmp_stats_watch) that starts at the level at its start or reset. Levels are continuous and
 * read-only (their value is the runtime's own). Sessions hold handles; freeing a session
 * frees its handles. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mpit.h"

typedef struct pvh {
    int session;            /* 0: a free slot */
    int pvar, cls;          /* cls: RMP_STAT_* */
    MPI_Comm comm;          /* what it is bound to (MPI_T_BIND_MPI_COMM) */
    int watch;              /* a high-water mark's own (rmp_stats_watch), -1: none (before
                             * MPI_Init: it reads the runtime's, since MPI_Init) */
    bool started;
    unsigned long long acc; /* counted while started, before the last start */
    unsigned long long base; /* the variable's value at the last start */
} pvh_t;

/* Handles h (pvh.h[h - 1]) and sessions s (pvh.live[s - 1]), never reused while live. */
static struct {
    pvh_t *h;
    int nh;
    bool *live;
    int ns;
} pv;

/* The per-communicator ones: pvar rmp_stats_count() + k reads comm_vars[k]. */
static const rmp_stat_info_t comm_vars[] = {
    {"comm_msgs_sent", "messages sent on the communicator (its collectives' too)",
     RMP_STAT_COUNTER},
    {"comm_bytes_sent", "bytes of the messages sent on the communicator", RMP_STAT_COUNTER},
};
#define NCOMMVARS (int)(sizeof(comm_vars) / sizeof(comm_vars[0]))

int rmpi_t_pvar_count(void)
{
    return rmp_stats_count() + NCOMMVARS;
}

int rmpi_t_pvar_info(int i, rmp_stat_info_t *info, int *bind)
{
    int n = rmp_stats_count();
    *bind = i < n ? MPI_T_BIND_NO_OBJECT : MPI_T_BIND_MPI_COMM;
    if (i >= n && i < n + NCOMMVARS)
        *info = comm_vars[i - n];
    else if (i < 0 || i >= n || rmp_stats_info(i, info) != RMP_SUCCESS)
        return MPI_T_ERR_INVALID_INDEX;
    return MPI_SUCCESS;
}

static const char *pvar_name(int i)
{
    rmp_stat_info_t info;
    int bind;
    return rmpi_t_pvar_info(i, &info, &bind) == MPI_SUCCESS ? info.name : "";
}

static int pvar_class(int cls)
{
    static const int of[] = {
        [RMP_STAT_COUNTER] = MPI_T_PVAR_CLASS_COUNTER,
        [RMP_STAT_LEVEL] = MPI_T_PVAR_CLASS_LEVEL,
        [RMP_STAT_HIGHWATERMARK] = MPI_T_PVAR_CLASS_HIGHWATERMARK,
        [RMP_STAT_TIMER] = MPI_T_PVAR_CLASS_TIMER,
    };
    return of[cls];
}

/* Counters, timers and high-water marks start, stop, reset and write per handle; levels
 * cannot. */
static bool pvar_continuous(int cls)
{
    return cls == RMP_STAT_LEVEL;
}

/* A handle goes (lock held): its watch with it. */
static void pvh_drop(pvh_t *p)
{
    if (p->watch >= 0)
        rmp_stats_unwatch(p->watch);
    p->session = 0;
}

int MPI_T_pvar_get_num(int *num_pvar)
{
    return rmpi_t_count(num_pvar, rmpi_t_pvar_count());
}

int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                        int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                        char *desc, int *desc_len, int *bind, int *readonly, int *continuous,
                        int *atomic)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    rmp_stat_info_t info;
    int b;
    if (rmpi_t_pvar_info(pvar_index, &info, &b) != MPI_SUCCESS)
        return MPI_T_ERR_INVALID_INDEX;
    rmpi_t_str(info.name, name, name_len);
    rmpi_t_str(info.desc, desc, desc_len);
    rmpi_t_put(verbosity, MPI_T_VERBOSITY_USER_DETAIL);
    rmpi_t_put(var_class, pvar_class(info.cls));
    rmpi_t_put(datatype, MPI_UNSIGNED_LONG_LONG);
    rmpi_t_put(enumtype, MPI_T_ENUM_NULL);
    rmpi_t_put(bind, b);
    rmpi_t_put(readonly, pvar_continuous(info.cls));
    rmpi_t_put(continuous, pvar_continuous(info.cls));
    rmpi_t_put(atomic, 0);
    return MPI_SUCCESS;
}

int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!name || !pvar_index)
        return MPI_T_ERR_INVALID;
    int i = rmpi_t_find(name, rmpi_t_pvar_count(), pvar_name), bind;
    rmp_stat_info_t info;
    if (i < 0 || rmpi_t_pvar_info(i, &info, &bind) || pvar_class(info.cls) != var_class)
        return MPI_T_ERR_INVALID_NAME; /* a name is unique within its class only */
    *pvar_index = i;
    return MPI_SUCCESS;
}

/* ---- sessions ---- */

int MPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    int rc = rmpi_t_enter(session);
    if (rc)
        return rc;
    bool *p = realloc(pv.live, sizeof(*p) * (size_t)(pv.ns + 1));
    if (p) {
        pv.live = p;
        pv.live[pv.ns++] = true;
        *session = pv.ns;
    }
    rmpi_t_unlock();
    return p ? MPI_SUCCESS : MPI_T_ERR_OUT_OF_SESSIONS;
}

static bool session_ok(MPI_T_pvar_session s)
{
    return s >= 1 && s <= pv.ns && pv.live[s - 1];
}

int MPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    int rc = rmpi_t_enter(session);
    if (rc)
        return rc;
    bool ok = session_ok(*session);
    if (ok) {
        pv.live[*session - 1] = false;
        for (int i = 0; i < pv.nh; i++)
            if (pv.h[i].session == *session)
                pvh_drop(&pv.h[i]);
    }
    rmpi_t_unlock();
    if (!ok)
        return MPI_T_ERR_INVALID_SESSION;
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

void rmpi_t_pvar_fini(void)
{
    for (int i = 0; i < pv.nh; i++)
        if (pv.h[i].session)
            pvh_drop(&pv.h[i]);
    free(pv.h);
    free(pv.live);
    memset(&pv, 0, sizeof(pv));
}

/* ---- handles ---- */

/* The value of handle p's variable now: MPI_SUCCESS, or MPI_T_ERR_INVALID_HANDLE when the
 * communicator it is bound to is gone. */
static int pvar_now(const pvh_t *p, unsigned long long *v)
{
    if (p->watch >= 0 && rmp_stats_watch_read(p->watch, v) == RMP_SUCCESS)
        return MPI_SUCCESS; /* (after MPI_Finalize: the runtime's mark) */
    int n = rmp_stats_count();
    if (p->pvar >= n) {
        unsigned long long m[2];
        if (rmp_comm_stats(p->comm, &m[0], &m[1]) != RMP_SUCCESS)
            return MPI_T_ERR_INVALID_HANDLE;
        *v = m[p->pvar - n];
        return MPI_SUCCESS;
    }
    unsigned long long all[64];
    if (n > 64 || rmp_stats_get(all, p->pvar + 1) != RMP_SUCCESS)
        return MPI_T_ERR_INVALID;
    *v = all[p->pvar];
    return MPI_SUCCESS;
}

/* A free slot in the handle table (lock held): its index, or -1 out of memory. */
static int pvh_slot(void)
{
    int h = 0;
    while (h < pv.nh && pv.h[h].session)
        h++;
    if (h == pv.nh) {
        pvh_t *p = realloc(pv.h, sizeof(*p) * (size_t)(pv.nh + 16));
        if (!p)
            return -1;
        memset(p + pv.nh, 0, sizeof(*p) * 16);
        pv.h = p;
        pv.nh += 16;
    }
    return h;
}

/* A variable bound to a communicator needs a live one (obj_handle: an MPI_Comm *). */
int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                            MPI_T_pvar_handle *handle, int *count)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    rmp_stat_info_t info;
    int bind;
    unsigned long long m, b;
    if (rmpi_t_pvar_info(pvar_index, &info, &bind) != MPI_SUCCESS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    MPI_Comm comm = bind == MPI_T_BIND_MPI_COMM && obj_handle ? *(MPI_Comm *)obj_handle : -1;
    if (bind == MPI_T_BIND_MPI_COMM && rmp_comm_stats(comm, &m, &b) != RMP_SUCCESS)
        return MPI_T_ERR_INVALID_HANDLE;
    rmpi_t_lock();
    int h = -1;
    rc = !session_ok(session) ? MPI_T_ERR_INVALID_SESSION
         : (h = pvh_slot()) < 0 ? MPI_T_ERR_OUT_OF_HANDLES
                                : MPI_SUCCESS;
    int watch = -1;
    if (!rc && info.cls == RMP_STAT_HIGHWATERMARK)
        rc = rmp_stats_watch(pvar_index, &watch) == RMP_ERR_NO_MEM ? MPI_T_ERR_OUT_OF_HANDLES
                                                                   : MPI_SUCCESS;
    if (!rc) {
        pv.h[h] = (pvh_t){.session = session, .pvar = pvar_index, .cls = info.cls, .comm = comm,
                          .watch = watch};
        if (watch >= 0)
            rmp_stats_watch_read(watch, &pv.h[h].acc); /* the level now */
        *handle = h + 1;
        *count = 1;
    }
    rmpi_t_unlock();
    return rc;
}

/* Handle h of session s, or NULL (lock held). */
static pvh_t *pvh_get(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    if (h < 1 || h > pv.nh || !pv.h[h - 1].session || pv.h[h - 1].session != s)
        return NULL;
    return &pv.h[h - 1];
}

/* Handle h of session s (lock held): MPI_SUCCESS with *p, or why there is none. */
static int pvh_find(MPI_T_pvar_session s, MPI_T_pvar_handle h, pvh_t **p)
{
    if (!session_ok(s))
        return MPI_T_ERR_INVALID_SESSION;
    *p = pvh_get(s, h);
    return *p ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    int rc = rmpi_t_enter(handle);
    if (rc)
        return rc;
    pvh_t *p;
    rc = pvh_find(session, *handle, &p);
    if (!rc)
        pvh_drop(p);
    rmpi_t_unlock();
    if (!rc)
        *handle = MPI_T_PVAR_HANDLE_NULL;
    return rc;
}

typedef enum { OP_READ, OP_START, OP_STOP, OP_RESET, OP_WRITE, OP_READRESET } pvh_op_t;

/* The operations on a high-water mark's handle (lock held): its watch follows the level while
 * started, acc keeps the mark while stopped. */
static int pvh_mark(pvh_t *p, pvh_op_t op, unsigned long long now, unsigned long long *value)
{
    unsigned long long mark = p->started ? now : p->acc;
    if (op == OP_READ || op == OP_READRESET)
        *value = mark;
    if (op == OP_START && !p->started && p->watch >= 0)
        rmp_stats_watch_set(p->watch, 0); /* from the level now */
    if ((op == OP_RESET || op == OP_READRESET || op == OP_WRITE) && p->watch >= 0) {
        rmp_stats_watch_set(p->watch, op == OP_WRITE ? *value : 0);
        rmp_stats_watch_read(p->watch, &p->acc);
    }
    if (op == OP_STOP && p->started)
        p->acc = mark;
    p->started = op == OP_START || (p->started && op != OP_STOP);
    return MPI_SUCCESS;
}

/* One operation on one handle (lock held), all at one reading of the variable: *value is
 * what a write sets, what a read returns. MPI_SUCCESS or why not. */
static int pvh_do(pvh_t *p, pvh_op_t op, unsigned long long *value)
{
    if (pvar_continuous(p->cls) && op != OP_READ)
        return op == OP_START || op == OP_STOP ? MPI_T_ERR_PVAR_NO_STARTSTOP
                                               : MPI_T_ERR_PVAR_NO_WRITE;
    unsigned long long now;
    int rc = pvar_now(p, &now);
    if (rc)
        return rc;
    if (pvar_continuous(p->cls)) {
        *value = now;
        return MPI_SUCCESS;
    }
    if (p->cls == RMP_STAT_HIGHWATERMARK)
        return pvh_mark(p, op, now, value);
    unsigned long long count = p->acc + (p->started ? now - p->base : 0);
    if (op == OP_READ || op == OP_READRESET)
        *value = count;
    if (op == OP_START && !p->started)
        p->started = true, p->base = now;
    else if (op == OP_STOP && p->started)
        p->started = false, p->acc = count;
    else if (op == OP_RESET || op == OP_WRITE || op == OP_READRESET)
        p->acc = op == OP_WRITE ? *value : 0, p->base = now;
    return MPI_SUCCESS;
}

/* op on handle h of session s, or on each of its handles that allows it (ALL_HANDLES, for
 * start, stop and reset only). */
static int pvh_apply(MPI_T_pvar_session s, MPI_T_pvar_handle h, pvh_op_t op, void *value)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!value && (op == OP_READ || op == OP_WRITE || op == OP_READRESET))
        return MPI_T_ERR_INVALID;
    unsigned long long v = op == OP_WRITE ? *(unsigned long long *)value : 0;
    rmpi_t_lock();
    pvh_t *p;
    if (!session_ok(s))
        rc = MPI_T_ERR_INVALID_SESSION;
    else if (h == MPI_T_PVAR_ALL_HANDLES && (op == OP_START || op == OP_STOP || op == OP_RESET)) {
        for (int i = 0; i < pv.nh; i++)
            if (pv.h[i].session == s)
                pvh_do(&pv.h[i], op, &v); /* those that cannot are left alone */
    } else if (!(rc = pvh_find(s, h, &p)))
        rc = pvh_do(p, op, &v);
    rmpi_t_unlock();
    if (!rc && (op == OP_READ || op == OP_READRESET))
        *(unsigned long long *)value = v;
    return rc;
}

int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return pvh_apply(session, handle, OP_START, NULL);
}

int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return pvh_apply(session, handle, OP_STOP, NULL);
}

int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return pvh_apply(session, handle, OP_RESET, NULL);
}

int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    return pvh_apply(session, handle, OP_WRITE, (void *)buf);
}

int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    return pvh_apply(session, handle, OP_READ, buf);
}

int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    return pvh_apply(session, handle, OP_READRESET, buf);
}
