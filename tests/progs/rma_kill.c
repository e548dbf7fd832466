/* rma_kill.c — a window's target killed by SIGKILL in the middle of an epoch; the origins must
 * see their operations, flushes, unlocks and fences either succeed (the data may still land,
 * or the target's memory is mapped here) or fail with the peer's error (RMP_ERR_PEER), and
 * mrun must end the job naming the killed rank (exit 137). Any other outcome is a FAIL, and
 * every blocking phase is bounded by the watchdog: a hang is a FAIL too.
 *
 *   rma_kill lock FLAVOR       every origin holds a shared lock on the victim (the last rank)
 *                              with puts, accumulates and fetch_and_ops in flight when it dies;
 *                              they keep issuing and flushing until an error or the end
 *   rma_kill fence FLAVOR      the victim dies instead of entering a fence the others are in,
 *                              puts to it pending
 *   rma_kill lockwait FLAVOR   the victim holds its own window exclusively when it dies; the
 *                              origins wait for that lock (and then operate)
 * FLAVOR: allocate, create or shared (allocate_shared: one node only).
 * Prints "rank R: ... failed: <error>" when an origin sees the error, then waits for mrun. */
#include "progs.h"

enum { NI = 4096 };

static int n, me, victim;

/* rc of an operation to the dead (or dying) target: success or the peer's error; true when
 * it failed (the origin stops there). */
static bool outcome(const char *what, int rc)
{
    if (rc == RMP_SUCCESS)
        return false;
    if (rc != RMP_ERR_PEER) {
        FAIL("rank %d: %s to the killed rank %d returned %d (%s), expected RMP_ERR_PEER", me,
             what, victim, rc, rmp_strerror(rc));
        exit(1);
    }
    printf("rank %d: %s failed: %s\n", me, what, rmp_strerror(rc));
    fflush(stdout);
    return true;
}

static void die(void)
{
    printf("rank %d: raising SIGKILL\n", me);
    fflush(stdout);
    raise(SIGKILL);
}

/* After the failure: mrun ends the job. The watchdog says so if it does not. */
static void await_end(void)
{
    phase("waiting for mrun to end the job (the target was killed)", 30);
    for (;;)
        pause();
}

/* Puts, accumulates and fetch_and_ops to the victim, flushed, until one fails (or forever:
 * mrun ends it). */
static void hammer(rmp_win_t win, int64_t *src)
{
    for (long k = 0;; k++) {
        int64_t one = 1, old;
        if (outcome("put", rmp_put(src, NI, RMP_INT64, victim, 0, NI, RMP_INT64, win)) ||
            outcome("accumulate",
                    rmp_accumulate(&one, 1, RMP_INT64, victim, 1, 1, RMP_INT64, RMP_SUM, win)) ||
            outcome("fetch_and_op",
                    rmp_fetch_and_op(&one, &old, RMP_INT64, victim, 2, RMP_SUM, win)) ||
            outcome("flush", rmp_win_flush(victim, win)))
            return;
        if (k % 64 == 63 && (outcome("unlock", rmp_win_unlock(victim, win)) ||
                             outcome("lock", rmp_win_lock(RMP_LOCK_SHARED, victim, 0, win))))
            return;
    }
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &me);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    prog_rank = me;
    const char *mode = argc > 1 ? argv[1] : "lock", *flavor = argc > 2 ? argv[2] : "allocate";
    victim = n - 1;
    if (n < 2) {
        FAIL("rma_kill needs 2 ranks or more");
        return 1;
    }
    int64_t *mem = NULL, *src = calloc(NI, 8);
    rmp_win_t win;
    phase("window creation", 60);
    if (!strcmp(flavor, "create")) {
        mem = calloc(NI, 8);
        MUST(rmp_win_create(mem, NI * 8, 8, RMP_COMM_WORLD, &win));
    } else if (!strcmp(flavor, "shared")) {
        MUST(rmp_win_allocate_shared(NI * 8, 8, RMP_COMM_WORLD, (void **)&mem, &win));
    } else {
        MUST(rmp_win_allocate(NI * 8, 8, RMP_COMM_WORLD, (void **)&mem, &win));
    }
    for (int i = 0; i < NI; i++)
        src[i] = me * NI + i;
    MUST(rmp_barrier(RMP_COMM_WORLD));
    phase(mode, 60);
    if (!strcmp(mode, "lock")) {
        if (me != victim) {
            CHECK(rmp_win_lock(RMP_LOCK_SHARED, victim, 0, win));
            CHECK(rmp_put(src, NI, RMP_INT64, victim, 0, NI, RMP_INT64, win));
        }
        MUST(rmp_barrier(RMP_COMM_WORLD)); /* every origin in its epoch, a put in flight */
        if (me == victim)
            die();
        hammer(win, src);
    } else if (!strcmp(mode, "fence")) {
        MUST(rmp_win_fence(0, win));
        if (me != victim)
            CHECK(rmp_put(src, NI, RMP_INT64, victim, 0, NI, RMP_INT64, win));
        MUST(rmp_barrier(RMP_COMM_WORLD));
        if (me == victim)
            die();
        for (;;) { /* fence after fence, a put to the dead rank in each */
            if (outcome("fence", rmp_win_fence(0, win)) ||
                outcome("put", rmp_put(src, NI, RMP_INT64, victim, 0, NI, RMP_INT64, win)))
                break;
        }
    } else if (!strcmp(mode, "lockwait")) {
        if (me == victim)
            CHECK(rmp_win_lock(RMP_LOCK_EXCLUSIVE, victim, 0, win));
        MUST(rmp_barrier(RMP_COMM_WORLD)); /* the victim holds its own lock */
        if (me == victim) {
            int64_t v = 7;
            CHECK(rmp_put(&v, 1, RMP_INT64, victim, 0, 1, RMP_INT64, win));
            die();
        }
        if (!outcome("lock (held by the killed rank)",
                     rmp_win_lock(RMP_LOCK_EXCLUSIVE, victim, 0, win)))
            hammer(win, src);
    } else {
        FAIL("unknown mode %s (lock, fence, lockwait)", mode);
        return 1;
    }
    await_end();
    return 1;
}
