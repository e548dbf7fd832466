/* rmp/rmp_event.h — events a tool can hear as they happen (MPI_T events sit on these): a message
 * that arrived before its receive, a rendezvous begun, a zero-copy rendezvous that fell back to
 * streaming, a connection made, a peer found failed. Included by rmp.h; not on its own. */
#ifndef RMP_EVENT_H
#define RMP_EVENT_H

enum {
    RMP_EV_UNEXPECTED,    /* {source world rank, tag, context id, bytes, queue length} */
    RMP_EV_RNDV_START,    /* {destination world rank, tag, context id, bytes, zero-copy 0/1} */
    RMP_EV_RNDV_FALLBACK, /* {destination world rank, bytes, rmp error of the registration} */
    RMP_EV_CONNECTED,     /* {peer world rank, transport: 0 self, 1 shm, 2 verbs} */
    RMP_EV_PEER_FAILED,   /* {peer world rank, rmp error} */
    RMP_EV_NTYPES
};
#define RMP_EV_MAX_DATA 5

typedef struct rmp_event {
    int type, ndata;
    unsigned long long time_ns; /* CLOCK_MONOTONIC when it happened */
    long long data[RMP_EV_MAX_DATA];
} rmp_event_t;

typedef struct rmp_event_info {
    const char *name, *desc;
    int ndata;
    const char *data_names[RMP_EV_MAX_DATA];
} rmp_event_info_t;

/* RMP_EV_NTYPES; usable before rmp_init. */
int rmp_event_count(void);
/* Type's name and elements: RMP_SUCCESS or RMP_ERR_ARG (no such type, info NULL). */
int rmp_event_info(int type, rmp_event_info_t *info);

/* A listener: ev is the event (valid during the call only); dropped, when nonzero, counts the
 * events a queued listener lost since its last call because its queue was full (ev NULL). */
typedef void rmp_event_fn(const rmp_event_t *ev, unsigned long long dropped, void *arg);
enum {
    RMP_EVENT_NOW,     /* fn runs where the event happens, the runtime's lock held, one call at
                        * a time: it may read ev but must call no rmp_* function */
    RMP_EVENT_UNLOCKED /* the event is queued (RMP_EVENT_QUEUE per listener; more are dropped
                        * and counted) and fn runs when the thread that raised it leaves the
                        * runtime's lock: it may call any rmp_* function */
};
#define RMP_EVENT_QUEUE 64
/* Listen to events of type: *id for rmp_event_unlisten. RMP_ERR_ARG for a bad type, how or
 * NULL fn/id; RMP_ERR_NO_MEM. Thread-safe, usable before rmp_init and after rmp_finalize. */
int rmp_event_listen(int type, int how, rmp_event_fn *fn, void *arg, int *id);
/* Stop: once it returns, fn is not running and will not run (not to be called from fn);
 * queued events not yet delivered are discarded. RMP_ERR_ARG for an unknown id. */
int rmp_event_unlisten(int id);

#endif
