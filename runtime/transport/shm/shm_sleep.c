/* shm_sleep.c — how a shm rank sleeps and is woken: its doorbell (a datagram socket another
 * core can poll) and its futex word, announced before blocking and cancelled by any sender. */
#include <errno.h>
#include <string.h>

#include "transport/shm/shm_tp.h"

/* @rmp-bell.<32 random hex digits>, published in my modex blob: why a random name, and why
 * strangers' datagrams are only counted, is told at the top of shm_bell.c. */
int shm_doorbell_open(shm_tp_t *s)
{
    const char *what = "";
    int e = shm_bell_open(&s->bell, &what);
    if (e) {
        tp_error(&s->base, "shm: doorbell: %s: %s (out of file descriptors? see ulimit -n)",
                 what, strerror(e));
        return RMP_ERR_TRANSPORT;
    }
    memcpy(s->blob.bell, s->bell.name, sizeof(s->blob.bell));
    /* The futex is the cheaper wakeup (shm_wait); a kernel or seccomp profile that refuses it
     * leaves the doorbell alone, which every rank keeps anyway (for a core that also waits on
     * other transports' descriptors). Each rank decides for itself: the word says which. */
    s->futex = shm_wake_usable(&s->seg->sleeping);
    if (!s->futex)
        tp_verbose(&s->base, "shm: futex refused (%s): sleeping on the doorbell only",
                   strerror(errno));
    return RMP_SUCCESS;
}

/* Something may be waiting for me (shm_arm): in my queue or on a fast ring to me. */
bool shm_tp_pending(shm_tp_t *s)
{
    if (!s->inq_broken && shm_queue_has_data(&s->inq))
        return true;
    if (shm_coll_pending(s->coll))
        return true;
    for (int k = 0; k < s->nhot; k++)
        if (!s->peers[s->hot[k]].broken && shm_ring_has_data(&s->peers[s->hot[k]].in))
            return true;
    return false;
}

/* Local ranks other than me announcing a sleep now (tp_ops_t.asleep): their `sleeping` word
 * is not AWAKE. One line per peer, read only after a slow yield (progress.c). */
int shm_asleep(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    int n = 0;
    for (int i = 0; i < s->nlocal; i++)
        if (i != s->me && s->peers[i].seg &&
            atomic_load_explicit(&s->peers[i].seg->sleeping, memory_order_relaxed) !=
                SHM_WAKE_AWAKE)
            n++;
    return n;
}

int shm_wait_fd(tp_t *tp)
{
    return ((shm_tp_t *)tp)->bell.fd;
}

/* Announce a sleep woken by `how`, then look at every ring once more (shm_wake.c says why this
 * order): RMP_AGAIN, announcement withdrawn, if a record is already there. */
static int shm_announce(shm_tp_t *s, unsigned how)
{
    shm_wake_announce(&s->seg->sleeping, how);
    if (shm_tp_pending(s)) {
        shm_wake_cancel(&s->seg->sleeping);
        return RMP_AGAIN;
    }
    return RMP_SUCCESS;
}

/* For a core that polls this transport's doorbell along with other descriptors. */
int shm_arm(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    s->armed_bell = true;
    return shm_announce(s, SHM_WAKE_BELL);
}

/* For a core with nothing else to wait on: announce a futex sleep (the rank that publishes a
 * record for me then wakes exactly me: shm_wake.c). */
int shm_arm_alone(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    if (!s->futex)
        return RMP_ERR_NOT_SUPPORTED;
    return shm_announce(s, SHM_WAKE_FUTEX);
}

/* Called without the core's lock: touches only the word and what the one sleeping thread owns
 * (settled, sleeps, drain_due, futex). Senders that skip their fence (not oversubscribed: see
 * bell_ring) get a second announcement and look after a short first sleep. */
int shm_wait_alone(tp_t *tp, int timeout_ms)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    int ms = s->fence || s->settled || timeout_ms <= SHM_SETTLE_MS ? timeout_ms : SHM_SETTLE_MS;
    int e = shm_wake_wait(&s->seg->sleeping, ms);
    if (e == ETIMEDOUT && ms < timeout_ms) {
        s->settled = true;
        return RMP_INPROGRESS;
    }
    /* Nobody of the job rings the doorbell of a futex sleeper, but anyone may: now and then,
     * not at every hand-off (a system call), read what strangers queued there (disarm). */
    s->drain_due = e == ETIMEDOUT || ++s->sleeps % SHM_DRAIN_EVERY == 0;
    if (e && e != ETIMEDOUT && e != EINTR) {
        /* Probed at open, so unexpected: say so once and leave sleeping to the doorbell. */
        s->futex = false;
        tp_error(tp, "shm: futex wait failed: %s; sleeping on the doorbell from now on",
                 strerror(e));
    }
    return RMP_SUCCESS;
}

/* Another thread of this process posted work (lock held): the word goes back to AWAKE, and a
 * thread blocked on it in wait_alone returns (or does not block at all). */
void shm_wake_alone(tp_t *tp)
{
    (void)shm_wake_poke(&((shm_tp_t *)tp)->seg->sleeping);
}

/* Empty my doorbell's queue, and name the first stranger who rang it (once per job). */
static void bell_drain(shm_tp_t *s)
{
    shm_bell_stranger_t who;
    int n = shm_bell_drain(&s->bell, s->pids, s->nlocal, &who);
    if (n > 0 && !s->stranger_said) {
        s->stranger_said = true;
        tp_error(&s->base, "shm: ignoring datagrams on my doorbell from pid %d (uid %u): not a "
                 "rank of this job (said once; they cannot alter data, only wake me)",
                 (int)who.pid, (unsigned)who.uid);
    }
}

void shm_disarm(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_wake_cancel(&s->seg->sleeping);
    /* A bell rung after this drain costs one spurious wakeup later, never a lost one; the
     * core polls every ring after this, whoever rang. */
    if (s->armed_bell || s->drain_due)
        bell_drain(s);
    s->armed_bell = s->drain_due = s->settled = false;
}
