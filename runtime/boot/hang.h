/* hang.h — where a waiting rank is, for the hang report: after RMP_HANG_REPORT seconds without
 * progress, or when asked (SIGURG: mrun sends it when --timeout ends a job), a thread waiting
 * in rmp prints one line: the call it is in, the communicator and collective number, the
 * peers it waits for. The hot path only records the outermost blocking call in a per-thread
 * slot (two plain stores per call, no lock, no syscall); everything else is done by the
 * waiting thread itself on its slow path, under the runtime lock, where the request state it
 * describes is consistent. */
#ifndef RMP_HANG_H
#define RMP_HANG_H

#include <stdbool.h>
#include <stddef.h>

#include "core.h"

typedef struct hang_slot {
    const char *call;  /* the outermost blocking rmp call of this thread (NULL: none) */
    /* what a progress_wait_until that is not a wait for one request waits for (NULL: not
     * said): one line into buf */
    void (*what)(void *arg, char *buf, size_t len);
    void *what_arg;
    unsigned gen;      /* the last report request (SIGURG) this thread answered */
} hang_slot_t;

extern _Thread_local hang_slot_t hang_slot;

/* Entering a blocking call: keeps an outer call's name (rmp_barrier's wait is rmp_barrier,
 * not rmp_wait). Returns what hang_leave restores. */
static inline const char *hang_enter(const char *call)
{
    const char *prev = hang_slot.call;
    hang_slot.call = prev ? prev : call;
    return prev;
}
static inline void hang_leave(const char *prev)
{
    hang_slot.call = prev;
}

/* At rmp_init: the report signal's handler (unless the program has its own for SIGURG). */
void hang_init(rmp_ctx_t *c);

/* progress_wait_until's state for one wait. */
typedef struct hang_wait {
    bool said;          /* the RMP_HANG_REPORT line of this stall was printed */
} hang_wait_t;
/* progress_wait_until's threads, for the signal handler (which prints a line itself when no
 * thread waits in rmp). Lock held or single-threaded: plain load and store. */
void hang_waiting(int delta);
/* Whether a report is due (cheap: a load and a compare or two). */
bool hang_due(const rmp_ctx_t *c, const hang_wait_t *hw, double stalled_us);
/* Print this thread's line (lock held): req is the one request waited for, or NULL (then
 * hang_slot.what says what, if set). */
void hang_report(rmp_ctx_t *c, hang_wait_t *hw, double stalled_us,
                 const struct rmp_request *req);

/* One line on what request r waits for (lock held). */
void hang_describe_req(const rmp_ctx_t *c, const struct rmp_request *r, char *buf, size_t len);
/* "RMP_COMM_WORLD (context 0)", or the name a program gave it. */
void hang_comm_name(const comm_t *cm, char *buf, size_t len);
/* ", world rank 3" when comm rank r of cm is not world rank r, else "". */
void hang_world_of(const comm_t *cm, int r, char *buf, size_t len);
/* The sends this rank still owes and the rendezvous receives it still waits on (finalize's
 * wait; lock held): one line, "" when none. */
void hang_pending_p2p(const rmp_ctx_t *c, char *buf, size_t len);

/* rmp_finalize's closing barrier runs (the signal handler says so: no request waits there). */
void hang_in_fence(bool on);

#endif
