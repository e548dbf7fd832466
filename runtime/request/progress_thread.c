/* progress_thread.c — RMP_PROGRESS_THREAD=1: one thread per process that advances rendezvous
 * transfers and collective schedules while the application computes. It polls while there are
 * events; with work outstanding it sleeps in the same block() the blocking waits use
 * (transport wait fds, plus an eventfd the runtime rings when it posts work no transport fd
 * announces); otherwise, or while an application thread progresses itself, it sleeps on the
 * eventfd alone, so that peers need not ring this rank's doorbell for every message. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core.h"
#include "match.h"

/* An idle sleep is bounded too: a safety net, the eventfd is the mechanism. */
#define PROGTHR_IDLE_MS 250

/* Asleep on the eventfd alone, lock released (held on entry and exit). */
static void progthr_idle(rmp_ctx_t *c)
{
    c->progthr.idle = true;
    ctx_unlock(c);
    struct pollfd p = {.fd = c->progthr.wake_fd, .events = POLLIN};
    if (poll(&p, 1, PROGTHR_IDLE_MS) < 0 && errno != EINTR)
        core_error(c, "progress thread: poll on its wake eventfd: %s", strerror(errno));
    ctx_lock(c);
    c->progthr.idle = false;
    progthr_drain(c);
}

/* The thread's loop: the runtime lock is held except while it sleeps. */
static void *progthr_main(void *arg)
{
    rmp_ctx_t *c = arg;
    ctx_lock(c);
    while (!c->progthr.stop) {
        if (progress_poll(c) > 0) {
            /* Events keep coming: let the application's threads in between two rounds. */
            ctx_unlock(c);
            ctx_lock(c);
            continue;
        }
        if (c->progressing == 0 && progthr_pending(c))
            progress_sleep(c);
        else
            progthr_idle(c);
    }
    ctx_unlock(c);
    return NULL;
}

int progthr_start(rmp_ctx_t *c)
{
    progthr_t *t = &c->progthr;
    t->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (t->wake_fd < 0) {
        core_error(c, "RMP_PROGRESS_THREAD=1: eventfd: %s (unset RMP_PROGRESS_THREAD to run "
                      "without the progress thread)", strerror(errno));
        return RMP_ERR_INTERNAL;
    }
    /* From now on two threads enter the runtime, whatever level the application asked for. */
    c->locking = true;
    t->stop = false;
    /* Signals (mrun's SIGTERM, the user's SIGINT) stay with the application's threads. */
    sigset_t all, old;
    sigfillset(&all);
    int rc = pthread_sigmask(SIG_SETMASK, &all, &old);
    t->on = true; /* before the thread reads it (block() asks for the wake fd) */
    if (rc == 0) {
        rc = pthread_create(&t->tid, NULL, progthr_main, c);
        int rc2 = pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (rc == 0 && rc2 != 0)
            core_error(c, "progress thread: restoring the signal mask: %s", strerror(rc2));
    }
    if (rc != 0) {
        core_error(c, "RMP_PROGRESS_THREAD=1: cannot start the progress thread: %s (raise the "
                      "thread limit, ulimit -u, or unset RMP_PROGRESS_THREAD)", strerror(rc));
        t->on = false;
        close(t->wake_fd);
        t->wake_fd = -1;
        c->locking = c->thread_level == RMP_THREAD_MULTIPLE;
        return RMP_ERR_INTERNAL;
    }
    core_verbose(c, "progress thread started (RMP_PROGRESS_THREAD=1)");
    return RMP_SUCCESS;
}

void progthr_stop(rmp_ctx_t *c)
{
    progthr_t *t = &c->progthr;
    if (!t->on || pthread_equal(pthread_self(), t->tid))
        return; /* never started, or the thread itself aborts: _exit ends it */
    ctx_lock(c);
    t->stop = true;
    t->idle = false;
    progthr_ring(c);                /* it may sleep in poll() ... */
    pthread_cond_broadcast(&c->cond); /* ... or wait there for another sleeper */
    ctx_unlock(c);
    int rc = pthread_join(t->tid, NULL);
    if (rc != 0)
        core_error(c, "progress thread: pthread_join: %s", strerror(rc));
    t->on = false;
    if (close(t->wake_fd) != 0)
        core_error(c, "progress thread: close of its wake eventfd: %s", strerror(errno));
    t->wake_fd = -1;
}
