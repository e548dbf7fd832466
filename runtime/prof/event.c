/* event.c — rmp/rmp_event.h's listeners: a fixed table under one mutex. A listener called now runs
 * under that mutex (one at a time, so it needs no locking of its own); a queued one gets a ring
 * of RMP_EVENT_QUEUE events, drained outside the runtime's lock, and counts what did not fit.
 * Tools listen rarely and events are rare, so the mutex is never on a hot path: a source with
 * no listener only reads ev_mask. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "event.h"
#include "rmp.h"

#define MAX_LISTENERS 64

typedef struct listener {
    int id; /* 0: a free slot */
    int type, how;
    rmp_event_fn *fn;
    void *arg;
    int busy; /* queued deliveries running outside the mutex */
    unsigned head, len;
    unsigned long long dropped;
    rmp_event_t q[RMP_EVENT_QUEUE];
} listener_t;

unsigned ev_mask;
int ev_pending;
static listener_t lst[MAX_LISTENERS];
static int last_id;
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_idle = PTHREAD_COND_INITIALIZER;
static _Thread_local int draining;

static const rmp_event_info_t infos[RMP_EV_NTYPES] = {
    [RMP_EV_UNEXPECTED] = {"unexpected_msg", "a message arrived before a receive matched it "
                           "and was queued", 5,
                           {"source", "tag", "context_id", "bytes", "queue_length"}},
    [RMP_EV_RNDV_START] = {"rndv_start", "a send above the eager limit (or synchronous) began "
                           "its rendezvous", 5,
                           {"dest", "tag", "context_id", "bytes", "zero_copy"}},
    [RMP_EV_RNDV_FALLBACK] = {"rndv_fallback", "registering a rendezvous send's buffer for "
                              "zero-copy failed: the data is streamed instead", 3,
                              {"dest", "bytes", "error"}},
    [RMP_EV_CONNECTED] = {"peer_connected", "a connection to a peer was made (on first "
                          "use); transport 0 self, 1 shm, 2 verbs", 2,
                          {"peer", "transport"}},
    [RMP_EV_PEER_FAILED] = {"peer_failed", "a peer was found failed (its process ended, its "
                            "connection broke)", 2, {"peer", "error"}},
};

int rmp_event_count(void)
{
    return RMP_EV_NTYPES;
}

int rmp_event_info(int type, rmp_event_info_t *info)
{
    if (type < 0 || type >= RMP_EV_NTYPES || !info)
        return RMP_ERR_ARG;
    *info = infos[type];
    return RMP_SUCCESS;
}

/* ev_mask and ev_pending from the table (mutex held). */
static void recount(void)
{
    unsigned mask = 0;
    int pending = 0;
    for (int i = 0; i < MAX_LISTENERS; i++)
        if (lst[i].id) {
            mask |= 1u << lst[i].type;
            pending += lst[i].len + (lst[i].dropped != 0);
        }
    __atomic_store_n(&ev_mask, mask, __ATOMIC_RELAXED);
    __atomic_store_n(&ev_pending, pending, __ATOMIC_RELAXED);
}

int rmp_event_listen(int type, int how, rmp_event_fn *fn, void *arg, int *id)
{
    if (type < 0 || type >= RMP_EV_NTYPES || (how != RMP_EVENT_NOW && how != RMP_EVENT_UNLOCKED) ||
        !fn || !id)
        return RMP_ERR_ARG;
    pthread_mutex_lock(&ev_lock);
    int i = 0;
    while (i < MAX_LISTENERS && (lst[i].id || lst[i].busy))
        i++;
    if (i == MAX_LISTENERS) {
        pthread_mutex_unlock(&ev_lock);
        return RMP_ERR_NO_MEM;
    }
    lst[i] = (listener_t){.id = ++last_id, .type = type, .how = how, .fn = fn, .arg = arg};
    *id = lst[i].id;
    recount();
    pthread_mutex_unlock(&ev_lock);
    return RMP_SUCCESS;
}

int rmp_event_unlisten(int id)
{
    pthread_mutex_lock(&ev_lock);
    int i = 0;
    while (i < MAX_LISTENERS && (id <= 0 || lst[i].id != id))
        i++;
    if (i == MAX_LISTENERS) {
        pthread_mutex_unlock(&ev_lock);
        return RMP_ERR_ARG;
    }
    lst[i].id = 0; /* no new event reaches it; wait for a delivery in flight */
    while (lst[i].busy)
        pthread_cond_wait(&ev_idle, &ev_lock);
    lst[i].len = 0;
    lst[i].dropped = 0;
    recount();
    pthread_mutex_unlock(&ev_lock);
    return RMP_SUCCESS;
}

void event_fire(int type, int ndata, const long long *data)
{
    rmp_event_t ev = {.type = type, .ndata = ndata};
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ev.time_ns = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
    memcpy(ev.data, data, (size_t)ndata * sizeof(*data));
    pthread_mutex_lock(&ev_lock);
    for (int i = 0; i < MAX_LISTENERS; i++) {
        listener_t *l = &lst[i];
        if (!l->id || l->type != type)
            continue;
        if (l->how == RMP_EVENT_NOW)
            l->fn(&ev, 0, l->arg);
        else if (l->len == RMP_EVENT_QUEUE)
            l->dropped++;
        else
            l->q[(l->head + l->len++) % RMP_EVENT_QUEUE] = ev;
    }
    recount();
    pthread_mutex_unlock(&ev_lock);
}

/* One queued delivery (mutex held on entry and return, released around fn): 0 if none. */
static int deliver_one(void)
{
    for (int i = 0; i < MAX_LISTENERS; i++) {
        listener_t *l = &lst[i];
        if (!l->id || (!l->len && !l->dropped))
            continue;
        rmp_event_t ev;
        unsigned long long dropped = 0;
        if (l->len) {
            ev = l->q[l->head];
            l->head = (l->head + 1) % RMP_EVENT_QUEUE;
            l->len--;
        } else {
            dropped = l->dropped;
            l->dropped = 0;
        }
        recount();
        l->busy++;
        pthread_mutex_unlock(&ev_lock);
        l->fn(dropped ? NULL : &ev, dropped, l->arg);
        pthread_mutex_lock(&ev_lock);
        if (--l->busy == 0)
            pthread_cond_broadcast(&ev_idle);
        return 1;
    }
    return 0;
}

void event_drain(void)
{
    if (draining)
        return; /* a listener's own rmp_* calls leave the lock too */
    draining = 1;
    pthread_mutex_lock(&ev_lock);
    while (deliver_one())
        ;
    pthread_mutex_unlock(&ev_lock);
    draining = 0;
}
