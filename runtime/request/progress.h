/* progress.h — the progress engine (progress.c, progress_test.c) and the progress thread
 * (progress_thread.c) with its wakeups (progress_wake.c): what every wait and test calls. */
#ifndef RMP_PROGRESS_H
#define RMP_PROGRESS_H

#include <stdatomic.h>
#include <stdbool.h>

#include "ctx.h"

/* ---- Progress (progress.c) ---- */
/* One pass over transports and queued sends (lock held); returns events handled. */
int progress_poll(rmp_ctx_t *c);
/* Advance until *flag becomes non-zero (lock held on entry and exit). Spins, then blocks. */
void progress_wait(rmp_ctx_t *c, atomic_int *flag);
/* Advance until done(arg) returns true (lock held on entry and exit). */
void progress_wait_until(rmp_ctx_t *c, bool (*done)(void *), void *arg);
/* Sleep until a transport (or the progress thread's eventfd) signals, as a blocking wait
 * does; returns at once when there is work (lock held on entry and exit). */
void progress_sleep(rmp_ctx_t *c);
/* The monotonic clock in microseconds, as the waits measure time. */
double progress_now_us(void);
/* progress_sleep bounded by ms, for any event (lock held; another thread asleep for the
 * process: returns at once). */
void progress_nap(rmp_ctx_t *c, int ms);
/* A test call's progress (progress_test.c; lock held): poll while events come and done(arg)
 * is false, then, when a run of such calls finds nothing and ranks outnumber cores, give the
 * core up (yield, then progress_nap). Returns done(arg). */
bool progress_test(rmp_ctx_t *c, bool (*done)(void *), void *arg);
/* Collective requests whose schedules progress_poll advances (lock held). */
void progress_coll_add(rmp_ctx_t *c, struct rmp_request *r);
void progress_coll_remove(rmp_ctx_t *c, struct rmp_request *r);

/* ---- The progress thread (progress_thread.c) ---- */
/* Start it (init, after wire-up; from then on the runtime locks at every thread level). */
int progthr_start(rmp_ctx_t *c);
/* Stop and join it (lock NOT held); no-op if it does not run or when called by it. */
void progthr_stop(rmp_ctx_t *c);
/* ---- Waking it (progress_wake.c) ---- */
/* New work that no transport fd will announce was posted (lock held): wake the sleeper. */
void progthr_kick(rmp_ctx_t *c);
/* Work only progress moves is outstanding (lock held); ring the thread's eventfd. */
bool progthr_pending(const rmp_ctx_t *c);
void progthr_ring(rmp_ctx_t *c);
/* The eventfd a sleeper polls besides the transports' fds (-1: no progress thread), and the
 * read that resets it after a wakeup. */
int progthr_wait_fd(const rmp_ctx_t *c);
void progthr_drain(rmp_ctx_t *c);
/* RMP_THREAD_MULTIPLE: the blocked thread is woken by the thread that posts work for it
 * (progress_kick_for), not by its sleep's time bound. wake_open makes the eventfd a poll() sleep
 * listens to (c->kick_fd; -1 below RMP_THREAD_MULTIPLE), wake_close closes it. */
int wake_open(rmp_ctx_t *c);
void wake_close(rmp_ctx_t *c);
/* Lock held, by a thread that posted work no peer announces (a message to its own rank, a
 * request it completed, an unexpected message it queued): if another thread sleeps in block()
 * for the process waiting for it, that thread wakes now. `on`: the done flag of a completed
 * request (wakes a sleeper waiting for that flag or for any event), PROGRESS_ON_ANY (only a
 * sleeper waiting for any event: a probe, waitany), NULL (any sleeper but the progress
 * thread's idle one). At most one wakeup per sleep. */
#define PROGRESS_ON_ANY ((const void *)&rmp_ctx.blocker_on)
void progress_kick_for(rmp_ctx_t *c, const void *on);
/* After a poll() sleep: reset the eventfd. */
void wake_drain(rmp_ctx_t *c);

#endif
