/* event.h — raising rmp/rmp_event.h's events inside the runtime (event.c): with no listener a
 * source costs one load and a predicted branch; queued listeners' events are delivered by
 * event_drain when a thread leaves the runtime's lock (ctx_unlock). */
#ifndef RMP_RT_EVENT_H
#define RMP_RT_EVENT_H

extern unsigned ev_mask;  /* bit t: type t has a listener */
extern int ev_pending;    /* events queued for RMP_EVENT_UNLOCKED listeners */

void event_fire(int type, int ndata, const long long *data);
/* Delivers the queued events, no runtime lock held (a thread already delivering: nothing). */
void event_drain(void);

static inline int ev_wanted(int type)
{
    return __builtin_expect(__atomic_load_n(&ev_mask, __ATOMIC_RELAXED) >> type & 1, 0);
}
#define EV_RAISE(type, ...)                                                                    \
    do {                                                                                       \
        if (ev_wanted(type)) {                                                                 \
            const long long ev_d_[] = {__VA_ARGS__};                                           \
            event_fire(type, (int)(sizeof(ev_d_) / sizeof(ev_d_[0])), ev_d_);                  \
        }                                                                                      \
    } while (0)
static inline void ev_after_unlock(void)
{
    if (__builtin_expect(__atomic_load_n(&ev_pending, __ATOMIC_RELAXED) != 0, 0))
        event_drain();
}

#endif
