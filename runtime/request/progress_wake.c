/* progress_wake.c — how the runtime wakes its progress thread (RMP_PROGRESS_THREAD=1): the
 * eventfd it rings when it posts work no transport fd announces, and the test of whether such
 * work is outstanding; and how a thread that posts work wakes another one asleep for the
 * process (RMP_THREAD_MULTIPLE: progress_kick_for). Apart from progress_thread.c because
 * every unlock of the runtime and every blocking sleep (progress.c) call it, while the thread
 * itself calls progress.c. */
#include <errno.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core.h"
#include "match.h"

/* Work only progress moves: a posted receive (its rendezvous starts when the RTS is polled),
 * a rendezvous under way, a collective schedule, packets queued on back-pressure. */
bool progthr_pending(const rmp_ctx_t *c)
{
    return !list_empty(&c->rndv_active) || !list_empty(&c->coll_active) || c->outq_pending ||
           match_posted_count(c->mq) > 0;
}

void progthr_ring(rmp_ctx_t *c)
{
    uint64_t one = 1;
    /* EAGAIN: the counter is saturated, i.e. a wakeup is pending anyway. */
    if (write(c->progthr.wake_fd, &one, sizeof one) < 0 && errno != EAGAIN)
        core_error(c, "progress thread: write to its wake eventfd: %s", strerror(errno));
}

void progthr_unlock_hook(rmp_ctx_t *c)
{
    if (c->progressing == 0 && !c->progthr.stop && progthr_pending(c)) {
        c->progthr.idle = false; /* one ring is enough */
        progthr_ring(c);
    }
}

void progthr_kick(rmp_ctx_t *c)
{
    /* Only a thread asleep in block() can miss the new work: one that is awake polls again
     * before it sleeps (the lock, held here, orders the two), one parked behind another
     * sleeper is woken with it, and an idle one by the unlock that follows. */
    if (c->progthr.on && c->blocker)
        progthr_ring(c);
}

int progthr_wait_fd(const rmp_ctx_t *c)
{
    return c->progthr.on ? c->progthr.wake_fd : -1;
}

int wake_open(rmp_ctx_t *c)
{
    c->kick_fd = -1;
    if (c->thread_level != RMP_THREAD_MULTIPLE)
        return RMP_SUCCESS; /* one thread: nobody else posts work while it sleeps */
    c->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (c->kick_fd < 0) {
        core_error(c, "RMP_THREAD_MULTIPLE: eventfd: %s", strerror(errno));
        return RMP_ERR_NO_MEM;
    }
    return RMP_SUCCESS;
}

void wake_close(rmp_ctx_t *c)
{
    if (c->kick_fd >= 0)
        close(c->kick_fd);
    c->kick_fd = -1;
}

void progress_kick_for(rmp_ctx_t *c, const void *on)
{
    /* blocker is set only while its thread sleeps without the lock: the caller, holding it,
     * is another thread */
    if (!c->blocker || !c->blocker_on || c->kicked)
        return;
    if (on && c->blocker_on != PROGRESS_ON_ANY && c->blocker_on != on)
        return; /* it waits for another request: this one's owner is awake or parked */
    c->kicked = true; /* block_alone must not re-arm over it; one wakeup is enough */
    uint64_t one = 1;
    if (c->blocker_alone)
        c->blocker_alone->ops->wake_alone(c->blocker_alone);
    else if (c->progthr.on)
        progthr_ring(c);
    else if (c->kick_fd >= 0 && write(c->kick_fd, &one, sizeof one) < 0 && errno != EAGAIN)
        core_error(c, "write to the wake eventfd: %s", strerror(errno));
}

void wake_drain(rmp_ctx_t *c)
{
    uint64_t v;
    if (c->kick_fd >= 0 && read(c->kick_fd, &v, sizeof v) < 0 && errno != EAGAIN)
        core_error(c, "read of the wake eventfd: %s", strerror(errno));
}

void progthr_drain(rmp_ctx_t *c)
{
    uint64_t v;
    if (c->progthr.on && read(c->progthr.wake_fd, &v, sizeof v) < 0 && errno != EAGAIN)
        core_error(c, "progress thread: read of its wake eventfd: %s", strerror(errno));
}
