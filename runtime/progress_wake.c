/* progress_wake.c — how the runtime wakes its progress thread (RMP_PROGRESS_THREAD=1): the
 * eventfd it rings when it posts work no transport fd announces, and the test of whether such
 * work is outstanding. Apart from progress_thread.c because every unlock of the runtime and
 * every blocking sleep (progress.c) call it, while the thread itself calls progress.c. */
#include <errno.h>
#include <string.h>
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

void progthr_drain(rmp_ctx_t *c)
{
    uint64_t v;
    if (c->progthr.on && read(c->progthr.wake_fd, &v, sizeof v) < 0 && errno != EAGAIN)
        core_error(c, "progress thread: read of its wake eventfd: %s", strerror(errno));
}
