/* mpit_pvar.c — performance variables (MPI-4.0 15.3.7): pvar i is rmp's counter i
 * (rmp_stats_*), an MPI_UNSIGNED_LONG_LONG bound to no object. Counters and timers are read
 * through a handle that counts from its start: it starts stopped, a stop keeps what it
 * counted, a reset or a write sets its count; levels and high-water marks are continuous and
 * read-only (their value is the runtime's own). Sessions hold handles; freeing a session
 * frees its handles. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mpit.h"

typedef struct pvh {
    int session;            /* 0: a free slot */
    int pvar;
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

static const char *pvar_name(int i)
{
    rmp_stat_info_t info;
    return rmp_stats_info(i, &info) == RMP_SUCCESS ? info.name : "";
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

/* Counters and timers start, stop, reset and write per handle; the others cannot. */
static bool pvar_continuous(int cls)
{
    return cls == RMP_STAT_LEVEL || cls == RMP_STAT_HIGHWATERMARK;
}

int MPI_T_pvar_get_num(int *num_pvar)
{
    return rmpi_t_count(num_pvar, rmp_stats_count());
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
    if (rmp_stats_info(pvar_index, &info) != RMP_SUCCESS)
        return MPI_T_ERR_INVALID_INDEX;
    rmpi_t_str(info.name, name, name_len);
    rmpi_t_str(info.desc, desc, desc_len);
    rmpi_t_put(verbosity, MPI_T_VERBOSITY_USER_DETAIL);
    rmpi_t_put(var_class, pvar_class(info.cls));
    rmpi_t_put(datatype, MPI_UNSIGNED_LONG_LONG);
    rmpi_t_put(enumtype, MPI_T_ENUM_NULL);
    rmpi_t_put(bind, MPI_T_BIND_NO_OBJECT);
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
    int i = rmpi_t_find(name, rmp_stats_count(), pvar_name);
    rmp_stat_info_t info;
    if (i < 0 || rmp_stats_info(i, &info) || pvar_class(info.cls) != var_class)
        return MPI_T_ERR_INVALID_NAME; /* a name is unique within its class only */
    *pvar_index = i;
    return MPI_SUCCESS;
}

/* ---- sessions ---- */

int MPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!session)
        return MPI_T_ERR_INVALID;
    rmpi_t_lock();
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
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!session)
        return MPI_T_ERR_INVALID;
    rmpi_t_lock();
    bool ok = session_ok(*session);
    if (ok) {
        pv.live[*session - 1] = false;
        for (int i = 0; i < pv.nh; i++)
            if (pv.h[i].session == *session)
                pv.h[i].session = 0;
    }
    rmpi_t_unlock();
    if (!ok)
        return MPI_T_ERR_INVALID_SESSION;
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

void rmpi_t_pvar_fini(void)
{
    free(pv.h);
    free(pv.live);
    memset(&pv, 0, sizeof(pv));
}

/* ---- handles ---- */

/* The variable's value now. */
static unsigned long long pvar_now(int pvar)
{
    unsigned long long v[64];
    int n = rmp_stats_count();
    if (pvar >= n || n > 64 || rmp_stats_get(v, pvar + 1) != RMP_SUCCESS)
        return 0;
    return v[pvar];
}

int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                            MPI_T_pvar_handle *handle, int *count)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    rmp_stat_info_t info;
    if (rmp_stats_info(pvar_index, &info) != RMP_SUCCESS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    rmpi_t_lock();
    rc = session_ok(session) ? MPI_SUCCESS : MPI_T_ERR_INVALID_SESSION;
    int h = 0;
    while (!rc && h < pv.nh && pv.h[h].session)
        h++;
    if (!rc && h == pv.nh) {
        pvh_t *p = realloc(pv.h, sizeof(*p) * (size_t)(pv.nh + 16));
        if (p) {
            memset(p + pv.nh, 0, sizeof(*p) * 16);
            pv.h = p;
            pv.nh += 16;
        } else
            rc = MPI_T_ERR_OUT_OF_HANDLES;
    }
    if (!rc) {
        pv.h[h] = (pvh_t){.session = session, .pvar = pvar_index};
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

int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!handle)
        return MPI_T_ERR_INVALID;
    rmpi_t_lock();
    pvh_t *p = session_ok(session) ? pvh_get(session, *handle) : NULL;
    rc = !session_ok(session) ? MPI_T_ERR_INVALID_SESSION
         : !p                 ? MPI_T_ERR_INVALID_HANDLE
                              : MPI_SUCCESS;
    if (p)
        p->session = 0;
    rmpi_t_unlock();
    if (!rc)
        *handle = MPI_T_PVAR_HANDLE_NULL;
    return rc;
}

/* What a handle reads now. */
static unsigned long long pvh_value(const pvh_t *p)
{
    rmp_stat_info_t info;
    rmp_stats_info(p->pvar, &info);
    if (pvar_continuous(info.cls))
        return pvar_now(p->pvar);
    return p->acc + (p->started ? pvar_now(p->pvar) - p->base : 0);
}

typedef enum { OP_START, OP_STOP, OP_RESET, OP_WRITE } pvh_op_t;

/* One operation on one handle (lock held); MPI_SUCCESS or why not. */
static int pvh_do(pvh_t *p, pvh_op_t op, unsigned long long value)
{
    rmp_stat_info_t info;
    rmp_stats_info(p->pvar, &info);
    if (pvar_continuous(info.cls))
        return op == OP_START || op == OP_STOP ? MPI_T_ERR_PVAR_NO_STARTSTOP
                                               : MPI_T_ERR_PVAR_NO_WRITE;
    unsigned long long now = pvar_now(p->pvar);
    if (op == OP_START && !p->started)
        p->started = true, p->base = now;
    else if (op == OP_STOP && p->started)
        p->started = false, p->acc += now - p->base;
    else if (op == OP_RESET || op == OP_WRITE)
        p->acc = op == OP_WRITE ? value : 0, p->base = now;
    return MPI_SUCCESS;
}

/* op on handle h of session s, or on each of its handles that allows it (ALL_HANDLES). */
static int pvh_apply(MPI_T_pvar_session s, MPI_T_pvar_handle h, pvh_op_t op,
                     unsigned long long value)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    rmpi_t_lock();
    if (!session_ok(s))
        rc = MPI_T_ERR_INVALID_SESSION;
    else if (h == MPI_T_PVAR_ALL_HANDLES && op != OP_WRITE) {
        for (int i = 0; i < pv.nh; i++)
            if (pv.h[i].session == s)
                pvh_do(&pv.h[i], op, value); /* those that cannot are left alone */
    } else {
        pvh_t *p = pvh_get(s, h);
        rc = p ? pvh_do(p, op, value) : MPI_T_ERR_INVALID_HANDLE;
    }
    rmpi_t_unlock();
    return rc;
}

int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return pvh_apply(session, handle, OP_START, 0);
}

int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return pvh_apply(session, handle, OP_STOP, 0);
}

int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return pvh_apply(session, handle, OP_RESET, 0);
}

int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    if (!buf && rmpi_t_ready() == MPI_SUCCESS)
        return MPI_T_ERR_INVALID;
    return pvh_apply(session, handle, OP_WRITE, buf ? *(const unsigned long long *)buf : 0);
}

/* Read (and, reset: then reset) one handle. */
static int pvh_read(MPI_T_pvar_session s, MPI_T_pvar_handle h, void *buf, bool reset)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!buf)
        return MPI_T_ERR_INVALID;
    rmpi_t_lock();
    pvh_t *p = session_ok(s) ? pvh_get(s, h) : NULL;
    rc = !session_ok(s) ? MPI_T_ERR_INVALID_SESSION : !p ? MPI_T_ERR_INVALID_HANDLE : MPI_SUCCESS;
    if (!rc && reset) {
        rmp_stat_info_t info;
        rmp_stats_info(p->pvar, &info);
        rc = pvar_continuous(info.cls) ? MPI_T_ERR_PVAR_NO_WRITE : MPI_SUCCESS;
    }
    if (!rc)
        *(unsigned long long *)buf = pvh_value(p);
    if (!rc && reset)
        pvh_do(p, OP_RESET, 0);
    rmpi_t_unlock();
    return rc;
}

int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    return pvh_read(session, handle, buf, false);
}

int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    return pvh_read(session, handle, buf, true);
}
