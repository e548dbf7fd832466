/* progress_test.c — the progress a test call makes (rmp_test*, rmp_request_get_status,
 * rmp_iprobe, rmp_improbe): as far as the data that arrived allows, and, when the program
 * polls in a loop that finds nothing while ranks outnumber cores, the core goes to the rank
 * that holds the data: a yield, then short sleeps that a peer's send ends (issue 34). */
#include <sched.h>

#include "core.h"

/* Passes of progress in one call while they find events: a round of a collective schedule
 * posts sends and receives whose partners may be in the rings already. */
#define TEST_POLLS_MAX 16
/* Calls of a run that do nothing more: a program that tests once after posting, or whose
 * message is on its way, pays no system call. */
#define TEST_QUIET 2
/* A longer gap between one call's end and the next one's start means the program works
 * between them: not a polling loop, and a new run starts (a sleep there would delay its work,
 * not a peer's). */
#define TEST_GAP_US 10.0
/* One sleep's bound: a peer's send ends it at once; the bound is for what no peer announces
 * (a generalized request completed by another thread, a program polling its own flags). */
#define TEST_NAP_MS 1

/* A call that found nothing: the n-th of a run yields from TEST_QUIET on, and sleeps once the
 * run has lasted RMP_SPIN_US (20 us by default when oversubscribed), as a blocking wait would.
 * With a core per rank, nothing: spinning costs nobody, and a test stays a few nanoseconds
 * (no clock, no system call). t: when the call began. True when the core was given up (events
 * may have come). */
static bool backoff(rmp_ctx_t *c, double t)
{
    if (!c->oversubscribed)
        return false;
    if (c->test_idle.fruitless == 0 || t - c->test_idle.last > TEST_GAP_US) {
        c->test_idle.fruitless = 0;
        c->test_idle.since = t;
    }
    bool gave = ++c->test_idle.fruitless > TEST_QUIET;
    /* another thread asleep for the process, or the progress thread: they sleep, we yield */
    if (gave && (t - c->test_idle.since < (double)c->cfg.spin_us || c->blocker ||
                 c->progthr.on)) {
        ctx_unlock(c);
        sched_yield();
        ctx_lock(c);
    } else if (gave) {
        progress_nap(c, TEST_NAP_MS);
    }
    c->test_idle.last = progress_now_us();
    return gave;
}

/* Poll while passes find events and done(arg) is false; done(arg) is called until it says
 * true and never after (a matched probe's takes the message it finds). *found: its answer. */
static bool advance(rmp_ctx_t *c, bool (*done)(void *), void *arg, bool *found)
{
    bool moved = false;
    for (int i = 0; !(*found = done(arg)) && i < TEST_POLLS_MAX; i++) {
        if (progress_poll(c) == 0)
            break;
        moved = true;
    }
    if (*found || moved)
        c->test_idle.fruitless = 0; /* the run ends: progress */
    return *found || moved;
}

bool progress_test(rmp_ctx_t *c, bool (*done)(void *), void *arg)
{
    bool found;
    double t = c->oversubscribed ? progress_now_us() : 0; /* the gap excludes our own work */
    if (!advance(c, done, arg, &found) && backoff(c, t))
        advance(c, done, arg, &found);
    return found;
}
