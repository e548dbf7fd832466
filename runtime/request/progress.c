/* progress.c — the progress engine: poll every transport, push queued packets, and when a
 * wait lasts longer than RMP_SPIN_US, sleep until a peer wakes this rank: hand-off on shm's
 * futex when shm is all there is to wait on, else on the transports' file descriptors. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sched.h>
#include <sys/resource.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hang.h"
#include "protocol.h"

/* One blocking sleep is bounded: a safety net, never the mechanism (wakeups are explicit). */
#define BLOCK_TIMEOUT_MS 250
#define SETTLE_MS 2 /* first stage of a sleep: see block() */

int progress_poll(rmp_ctx_t *c)
{
    int n = 0;
    for (int i = 0; i < c->ntps; i++)
        n += c->tps[i]->ops->progress(c->tps[i]);
    n += outq_flush(c);
    list_t *it, *nx;
    LIST_FOR_EACH_SAFE(&c->coll_active, it, nx) { /* r may leave (and complete) in coll_progress */
        struct rmp_request *r = LIST_ENTRY(it, struct rmp_request, link);
        n += r->coll_progress(r);
    }
    return n;
}

void progress_coll_add(rmp_ctx_t *c, struct rmp_request *r)
{
    list_push_front(&c->coll_active, &r->link);
    progthr_kick(c); /* its first steps run in progress_poll: no transport fd announces them */
}

void progress_coll_remove(rmp_ctx_t *c, struct rmp_request *r)
{
    list_remove(&r->link);
}

double progress_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Another thread sleeps in poll() for everyone: wait for it (or for any completion). */
static void park(rmp_ctx_t *c)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 20 * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    c->waiters++;
    pthread_cond_timedwait(&c->cond, &c->lock, &ts);
    c->waiters--;
}

/* Arm every transport again (still armed): true when all still say sleeping is safe. */
static bool rearm(rmp_ctx_t *c)
{
    for (int i = 0; i < c->ntps; i++)
        if (c->tps[i]->ops->arm(c->tps[i]) != RMP_SUCCESS)
            return false;
    return true;
}

/* The one transport that can sleep by itself (tp_ops_t.wait_alone) when no other transport
 * has a descriptor to wait on (self never has one), else NULL. shm alone on a node: a futex. */
static tp_t *sole_sleeper(rmp_ctx_t *c)
{
    if (progthr_wait_fd(c) >= 0)
        return NULL; /* RMP_PROGRESS_THREAD: a posted operation wakes the sleeper by its fd */
    tp_t *w = NULL;
    for (int i = 0; i < c->ntps; i++) {
        tp_t *tp = c->tps[i];
        if ((tp->caps & TP_CAP_SLEEP_ALONE) && !w)
            w = tp;
        else if (tp->ops->wait_fd(tp) >= 0)
            return NULL;
    }
    return w;
}

/* Arm every transport, w for a sleep of its own: RMP_SUCCESS or the first refusal; *armed
 * counts the transports armed before it. */
static int arm_alone_all(rmp_ctx_t *c, tp_t *w, int *armed)
{
    int rc = RMP_SUCCESS;
    for (*armed = 0; *armed < c->ntps; (*armed)++) {
        tp_t *tp = c->tps[*armed];
        rc = tp == w ? w->ops->arm_alone(w) : tp->ops->arm(tp);
        if (rc != RMP_SUCCESS)
            break;
    }
    return rc;
}

/* This thread sleeps for the process from now on (lock held), in w's wait_alone (NULL: in
 * poll()), waiting for `on` (see progress_kick_for). */
static void blocker_begin(rmp_ctx_t *c, tp_t *w, const void *on)
{
    c->blocker = true;
    c->blocker_alone = w;
    c->blocker_on = on;
    c->kicked = false;
}

static void blocker_end(rmp_ctx_t *c)
{
    c->blocker = false;
    c->blocker_alone = NULL;
    c->blocker_on = NULL;
}

/* Hand-off sleep: w sleeps until the rank that makes this one runnable wakes exactly it (or a
 * second time after a short first stage, when w asks for it). false when w cannot sleep so:
 * then sleep on the descriptors. */
static bool block_alone(rmp_ctx_t *c, tp_t *w, const void *on, int ms)
{
    int armed, again;
    int rc = arm_alone_all(c, w, &armed);
    if (rc == RMP_SUCCESS) {
        blocker_begin(c, w, on); /* progress_kick_for ends the sleep through w */
        do {
            ctx_unlock(c);
            rc = w->ops->wait_alone(w, ms);
            ctx_lock(c);
            /* a kick between a first stage's end and here: the re-arm would undo it */
        } while (rc == RMP_INPROGRESS && !c->kicked &&
                 arm_alone_all(c, w, &again) == RMP_SUCCESS);
        blocker_end(c);
    }
    for (int i = 0; i < armed; i++) /* all of them after a sleep: a re-arm may have failed */
        c->tps[i]->ops->disarm(c->tps[i]);
    return rc != RMP_ERR_NOT_SUPPORTED;
}

/* Sleep on every transport's descriptor. Arm every transport first: an arm that reports
 * pending events means there is work, so return and poll instead. */
static void block_fds(rmp_ctx_t *c, const void *on, int ms)
{
    struct pollfd fds[RMP_MAX_TRANSPORTS + 2];
    int nfds = 0, armed = 0;
    for (; armed < c->ntps; armed++) {
        tp_t *tp = c->tps[armed];
        if (tp->ops->arm(tp) != RMP_SUCCESS)
            break;
        int fd = tp->ops->wait_fd(tp);
        if (fd >= 0)
            fds[nfds++] = (struct pollfd){.fd = fd, .events = POLLIN};
    }
    int wfd = progthr_wait_fd(c); /* RMP_PROGRESS_THREAD: new work posted wakes the sleeper */
    if (wfd >= 0)
        fds[nfds++] = (struct pollfd){.fd = wfd, .events = POLLIN};
    if (c->kick_fd >= 0) /* another thread posted work (progress_kick_for) */
        fds[nfds++] = (struct pollfd){.fd = c->kick_fd, .events = POLLIN};
    if (armed == c->ntps) {
        blocker_begin(c, NULL, on);
        ctx_unlock(c);
        /* Two stages: a wakeup raced with arming (shm senders that skip the fence, see
         * bell_ring) shows up at the re-arm after SETTLE_MS; after that every sender sees
         * this rank asleep, and the long sleep is safe. */
        int first = ms < SETTLE_MS ? ms : SETTLE_MS;
        int rc = poll(fds, nfds, first);
        if (rc == 0 && ms > first) {
            ctx_lock(c);
            bool safe = rearm(c);
            ctx_unlock(c);
            if (safe)
                rc = poll(fds, nfds, ms);
        }
        if (rc < 0 && errno != EINTR)
            core_error(c, "poll: %s", strerror(errno));
        ctx_lock(c);
        if (wfd >= 0)
            progthr_drain(c);
        if (c->kicked)
            wake_drain(c);
        blocker_end(c);
    }
    for (int i = 0; i < armed; i++)
        c->tps[i]->ops->disarm(c->tps[i]);
}

/* Sleep until a transport signals an event, at most ms; one thread sleeps for all (the
 * others park). */
static void block(rmp_ctx_t *c, const void *on, int ms)
{
    if (c->blocker) {
        park(c);
        return;
    }
    if (c->outq_pending) {
        /* Waiting for room in a peer's buffer: the peer does not signal that, so yield. */
        ctx_unlock(c);
        sched_yield();
        ctx_lock(c);
        return;
    }
    tp_t *w = sole_sleeper(c);
    if (!w || !block_alone(c, w, on, ms))
        block_fds(c, on, ms);
    if (c->waiters > 0)
        pthread_cond_broadcast(&c->cond);
}

void progress_sleep(rmp_ctx_t *c)
{
    block(c, NULL, BLOCK_TIMEOUT_MS); /* the progress thread: no completion's flag to name */
}

void progress_nap(rmp_ctx_t *c, int ms)
{
    if (!c->blocker) /* else park() would hold this thread for longer than asked */
        block(c, PROGRESS_ON_ANY, ms);
}

/* Pure spinning (no yield) for this long: a reply from a running peer comes in ~1 us. */
#define SPIN_HOT_US 5.0
/* Idle polls between two readings of the clock while hot-spinning: a clock read costs about
 * as much as an idle poll (more in some VMs), and a reply can come within a poll or two. */
#define SPIN_CLOCK_EVERY 16

/* A yield that kept this rank off its core this long gave it to a process of someone else for
 * a time slice: ranks that yield to each other come back within microseconds. Such a machine
 * is busy, and waits then sleep at once for BUSY_HOLD_US: a rank woken by its peer (a futex
 * hand-off, or a descriptor) is picked before the busy processes, a yielding one is not.
 * Measured here, 4 and 8 ranks on 2 cores: with two CPU hogs as nice as the ranks, barrier
 * and small allreduce/bcast took 1.3-3.5 ms when yielding first, 40-170 us sleeping at once;
 * on a quieter machine yielding first was up to 2.5 times faster (a core left idle costs an
 * IPI to wake up), so it stays the default there. The verdict holds BUSY_HOLD_US: the next
 * slow yield after it renews it while the hog runs (a few percent of its time), and a phase
 * of this job's own heavy copies (which preempts ranks too) costs small calls right after it
 * at most that long (with 1 s, `rmp-bench collectives` measured allreduce 4 B at n = 4 at
 * 27 us after reduce's large sizes, against 5 us alone). */
#define YIELD_SLOW_US 500.0
#define BUSY_HOLD_US 50000.0
/* A slow yield is not proof: 8 ranks of this job on 2 cores also keep each other off a core
 * for that long, and sleeping at once then cost 2-3x (every wake-up an IPI to an idle core).
 * What tells a stranger apart is preemption: ranks of this job give their core up themselves
 * (yield, sleep) within microseconds, a CPU hog is taken off only when its time slice ends,
 * and this rank, spinning next to it, is preempted too. So a slow yield counts only when this
 * thread was preempted (involuntary context switches, getrusage) PREEMPT_MIN times since the
 * last check. Measured, 8 ranks on 2 cores: alone, 0-2 preemptions between two slow yields
 * (mostly at start-up); next to two CPU hogs, 3-8 within milliseconds. */
#define PREEMPT_MIN 3
/* Preemption is not proof either: in a phase of large copies or reductions the job's own
 * ranks run for long stretches, preempt each other at ticks and make each other's yields
 * slow; the verdict then outlived the phase and turned the small calls after it into sleeps
 * and wake-ups (`rmp-bench collectives`, 4 ranks on 2 cores: allreduce 4 B right after
 * reduce's 1 MiB measured 20-22 us, 6-7 us without the verdict). A stranger is also runnable:
 * the machine's runnable threads (/proc/loadavg) outnumber this node's ranks that are not
 * asleep (the transports' asleep(): shm's futex words). Without a count of sleepers the test
 * assumes every rank runs, so a stranger is seen only when it beats the whole node. */
static bool strangers_runnable(rmp_ctx_t *c)
{
    char buf[128];
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return true; /* cannot tell: as before */
    ssize_t len = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    int running = 0;
    if (len <= 0)
        return true;
    buf[len] = '\0';
    if (sscanf(buf, "%*s %*s %*s %d/", &running) != 1)
        return true;
    int awake = c->local_size;
    for (int i = 0; i < c->ntps; i++)
        if (c->tps[i]->caps & TP_CAP_ASLEEP)
            awake -= c->tps[i]->ops->asleep(c->tps[i]);
    if (c->progthr.on)
        awake *= 2; /* a rank's progress thread may run beside it */
    return running > awake;
}

static void busy_check(rmp_ctx_t *c, double now)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0) {
        c->busy_until = now + BUSY_HOLD_US; /* cannot tell: as before */
        return;
    }
    long preempted = c->nivcsw_seen ? ru.ru_nivcsw - c->nivcsw_seen : 0; /* first: a baseline */
    c->nivcsw_seen = ru.ru_nivcsw;
    if (preempted >= PREEMPT_MIN && strangers_runnable(c))
        c->busy_until = now + BUSY_HOLD_US;
}

static bool flag_set(void *arg)
{
    return atomic_load_explicit((atomic_int *)arg, memory_order_acquire) != 0;
}

void progress_wait_until(rmp_ctx_t *c, bool (*done)(void *), void *arg)
{
    double start = -1, waited = 0, first = -1; /* first: the first idle poll (stats.wait_ns) */
    unsigned idle = 0;
    hang_wait_t hw = {0};
    c->progressing++; /* an idle progress thread stays asleep meanwhile (progress_thread.c) */
    hang_waiting(1);
    while (!done(arg)) {
        if (progress_poll(c) > 0) {
            start = -1;
            waited = 0;
            hw.said = false;
            continue;
        }
        if (done(arg))
            break;
        if (start < 0) {
            start = progress_now_us();
            idle = 0;
            if (first < 0)
                first = start;
        }
        if (waited < SPIN_HOT_US && !c->oversubscribed && ++idle % SPIN_CLOCK_EVERY != 0) {
            ctx_unlock(c); /* hot spin: other threads may take the lock in between */
            ctx_lock(c);
            continue;
        }
        double t = progress_now_us();
        waited = t - start;
        if (waited < (double)c->cfg.spin_us && t >= c->busy_until) {
            /* After a short hot spin, yield each round: the peer we wait for may be waiting
             * for our CPU (oversubscribed, or a busy machine); yield is cheap when it isn't. */
            bool yield = c->oversubscribed || waited > SPIN_HOT_US;
            ctx_unlock(c);
            if (yield)
                sched_yield();
            ctx_lock(c);
            double back = yield ? progress_now_us() : 0;
            if (back - t > YIELD_SLOW_US) /* see YIELD_SLOW_US */
                busy_check(c, back);
            continue;
        }
        fault_wait_check(c, t); /* a peer failed long ago: the job may never end by itself */
        if (hang_due(c, &hw, waited)) /* RMP_HANG_REPORT, or asked (mrun --timeout) */
            hang_report(c, &hw, waited,
                        done == flag_set ? LIST_ENTRY(arg, struct rmp_request, done) : NULL);
        block(c, done == flag_set ? arg : PROGRESS_ON_ANY, BLOCK_TIMEOUT_MS);
    }
    hang_waiting(-1);
    c->progressing--;
    if (first >= 0)
        c->stats.wait_ns += (uint64_t)((progress_now_us() - first) * 1e3);
}

void progress_wait(rmp_ctx_t *c, atomic_int *flag)
{
    progress_wait_until(c, flag_set, flag);
}
