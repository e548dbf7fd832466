/* mpit_evreg.c — event registrations (MPI_T_event_handle_alloc ...) and their callbacks. Each
 * event type a registration exists for has two rmp listeners (rmp/rmp_event.h): one called where
 * the event happens, the runtime's lock held, for registrations with a callback of safety
 * MPI_RESTRICTED or above (the weakest such is called, told that level: it may only read the
 * instance); one called when the raising thread leaves the runtime, for those whose only
 * callback is MPI_T_CB_REQUIRE_NONE (it may call MPI; events that outran it are counted and
 * handed to its dropped handler). Lock order: the runtime's, rmp's event lock, reg.lock; the
 * table is never locked while a NONE callback runs (it may call anything). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "mpit.h"

#define NSAFETY (MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE + 1)

typedef struct evreg {
    int live, type, busy;
    MPI_T_event_cb_function *cb[NSAFETY];
    void *ud[NSAFETY];
    MPI_T_event_dropped_cb_function *dropped;
} evreg_t;

/* Registration h is reg.r[h - 1]; slots are not reused while a delivery holds them. */
static struct {
    pthread_mutex_t lock, install;
    pthread_cond_t idle;
    evreg_t *r;
    int n;
    int listener[RMP_EV_NTYPES][2]; /* rmp listener ids, 0: not installed */
} reg = {.lock = PTHREAD_MUTEX_INITIALIZER, .install = PTHREAD_MUTEX_INITIALIZER,
         .idle = PTHREAD_COND_INITIALIZER};
static atomic_int inst_seq;
static _Thread_local int in_cb_of; /* the registration whose NONE callback this thread runs */

/* The weakest level at or above MPI_RESTRICTED with a callback, or -1. */
static int restricted_level(const evreg_t *e)
{
    for (int s = MPI_T_CB_REQUIRE_MPI_RESTRICTED; s < NSAFETY; s++)
        if (e->cb[s])
            return s;
    return -1;
}

/* The callback, with the instance set for the thread around it. */
static void call(evreg_t *e, int h, int s, MPI_T_event_cb_function *cb, void *ud,
                 const rmp_event_t *ev)
{
    rmpi_t_inst_t saved = rmpi_t_inst;
    rmpi_t_inst = (rmpi_t_inst_t){.id = atomic_fetch_add(&inst_seq, 1) + 1, .ev = ev};
    cb(rmpi_t_inst.id, h, (MPI_T_cb_safety)s, ud);
    rmpi_t_inst = saved;
    (void)e;
}

static void on_now(const rmp_event_t *ev, unsigned long long dropped, void *arg)
{
    pthread_mutex_lock(&reg.lock);
    for (int h = 1; h <= reg.n; h++) {
        evreg_t *e = &reg.r[h - 1];
        int s = e->live && e->type == ev->type ? restricted_level(e) : -1;
        if (s >= 0)
            call(e, h, s, e->cb[s], e->ud[s], ev);
    }
    pthread_mutex_unlock(&reg.lock);
}

/* Registration h's NONE callback (or dropped handler), reg.lock released around it. */
static void call_none(int h, const rmp_event_t *ev, unsigned long long dropped)
{
    evreg_t *e = &reg.r[h - 1];
    MPI_T_event_cb_function *cb = e->cb[MPI_T_CB_REQUIRE_NONE];
    MPI_T_event_dropped_cb_function *dcb = e->dropped;
    void *ud = e->ud[MPI_T_CB_REQUIRE_NONE];
    e->busy++;
    pthread_mutex_unlock(&reg.lock);
    int outer = in_cb_of;
    in_cb_of = h;
    if (ev)
        call(e, h, MPI_T_CB_REQUIRE_NONE, cb, ud, ev);
    else if (dcb)
        dcb((MPI_Count)dropped, h, 0, MPI_T_CB_REQUIRE_NONE, ud);
    in_cb_of = outer;
    pthread_mutex_lock(&reg.lock);
    e = &reg.r[h - 1]; /* (the table may have grown) */
    if (--e->busy == 0)
        pthread_cond_broadcast(&reg.idle);
}

static void on_unlocked(const rmp_event_t *ev, unsigned long long dropped, void *arg)
{
    int type = (int)(intptr_t)arg;
    pthread_mutex_lock(&reg.lock);
    for (int h = 1; h <= reg.n; h++) {
        evreg_t *e = &reg.r[h - 1];
        if (e->live && e->type == type && e->cb[MPI_T_CB_REQUIRE_NONE] &&
            restricted_level(e) < 0)
            call_none(h, ev, dropped);
    }
    pthread_mutex_unlock(&reg.lock);
}

/* rmp's two listeners for type, once (never under reg.lock: rmp's event lock comes first). */
static int install(int type)
{
    int rc = RMP_SUCCESS;
    pthread_mutex_lock(&reg.install);
    if (!reg.listener[type][0]) {
        rc = rmp_event_listen(type, RMP_EVENT_NOW, on_now, NULL, &reg.listener[type][0]);
        if (!rc)
            rc = rmp_event_listen(type, RMP_EVENT_UNLOCKED, on_unlocked,
                                  (void *)(intptr_t)type, &reg.listener[type][1]);
        if (rc && reg.listener[type][0]) {
            rmp_event_unlisten(reg.listener[type][0]);
            reg.listener[type][0] = 0;
        }
    }
    pthread_mutex_unlock(&reg.install);
    return rc ? MPI_T_ERR_MEMORY : MPI_SUCCESS;
}

void rmpi_t_event_fini(void)
{
    pthread_mutex_lock(&reg.install);
    for (int t = 0; t < RMP_EV_NTYPES; t++)
        for (int k = 0; k < 2; k++)
            if (reg.listener[t][k]) {
                rmp_event_unlisten(reg.listener[t][k]);
                reg.listener[t][k] = 0;
            }
    pthread_mutex_unlock(&reg.install);
    pthread_mutex_lock(&reg.lock);
    free(reg.r);
    reg.r = NULL;
    reg.n = 0;
    pthread_mutex_unlock(&reg.lock);
}

int MPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                             MPI_T_event_registration *event_registration)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (event_index < 0 || event_index >= rmp_event_count())
        return MPI_T_ERR_INVALID_INDEX;
    if (!event_registration)
        return MPI_T_ERR_INVALID;
    if ((rc = install(event_index)))
        return rc;
    pthread_mutex_lock(&reg.lock);
    int h = 1;
    while (h <= reg.n && (reg.r[h - 1].live || reg.r[h - 1].busy))
        h++;
    if (h > reg.n) {
        evreg_t *r = realloc(reg.r, (size_t)h * sizeof(*r));
        if (!r) {
            pthread_mutex_unlock(&reg.lock);
            return MPI_T_ERR_MEMORY;
        }
        reg.r = r;
        reg.n = h;
    }
    reg.r[h - 1] = (evreg_t){.live = 1, .type = event_index};
    pthread_mutex_unlock(&reg.lock);
    *event_registration = h;
    return MPI_SUCCESS;
}

/* Registration h locked (reg.lock held on MPI_SUCCESS), or why not. */
static int reg_get(MPI_T_event_registration h, evreg_t **e)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    pthread_mutex_lock(&reg.lock);
    if (h < 1 || h > reg.n || !reg.r[h - 1].live) {
        pthread_mutex_unlock(&reg.lock);
        return MPI_T_ERR_INVALID_HANDLE;
    }
    *e = &reg.r[h - 1];
    return MPI_SUCCESS;
}

/* The set/get_info calls: rmp takes no hints, so info_used is always empty. */
static int no_hints(MPI_T_event_registration h, int safety, MPI_Info *info_used)
{
    evreg_t *e;
    int rc = reg_get(h, &e);
    if (rc)
        return rc;
    pthread_mutex_unlock(&reg.lock);
    if (safety < 0 || safety >= NSAFETY)
        return MPI_T_ERR_INVALID;
    if (info_used && MPI_Info_create(info_used) != MPI_SUCCESS)
        return MPI_T_ERR_MEMORY;
    return MPI_SUCCESS;
}

int MPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    return no_hints(event_registration, 0, NULL);
}

int MPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                MPI_Info *info_used)
{
    return info_used ? no_hints(event_registration, 0, info_used) : MPI_T_ERR_INVALID;
}

int MPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                  MPI_T_event_cb_function *event_cb_function)
{
    evreg_t *e;
    int rc = reg_get(event_registration, &e);
    if (rc)
        return rc;
    if ((int)cb_safety < 0 || (int)cb_safety >= NSAFETY) {
        pthread_mutex_unlock(&reg.lock);
        return MPI_T_ERR_INVALID;
    }
    e->cb[cb_safety] = event_cb_function; /* NULL: that level's callback removed */
    e->ud[cb_safety] = user_data;
    pthread_mutex_unlock(&reg.lock);
    return MPI_SUCCESS;
}

int MPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info info)
{
    return no_hints(event_registration, (int)cb_safety, NULL);
}

int MPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    return info_used ? no_hints(event_registration, (int)cb_safety, info_used)
                     : MPI_T_ERR_INVALID;
}

int MPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                    MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    evreg_t *e;
    int rc = reg_get(event_registration, &e);
    if (rc)
        return rc;
    e->dropped = dropped_cb_function;
    pthread_mutex_unlock(&reg.lock);
    return MPI_SUCCESS;
}

/* No callback of h runs after this returns (but the one that calls it, if it does). */
int MPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                            MPI_T_event_free_cb_function *free_cb_function)
{
    evreg_t *e;
    int h = event_registration;
    int rc = reg_get(h, &e);
    if (rc)
        return rc;
    e->live = 0;
    while (reg.r[h - 1].busy > (in_cb_of == h))
        pthread_cond_wait(&reg.idle, &reg.lock);
    pthread_mutex_unlock(&reg.lock);
    if (free_cb_function)
        free_cb_function(h, MPI_T_CB_REQUIRE_NONE, user_data);
    return MPI_SUCCESS;
}
