/* shm_wake.h — hand-off wakeups between the ranks of one node: a futex on a word in the
 * sleeper's shared segment. The sleeper announces how it sleeps, re-checks its rings, then
 * blocks; the rank that publishes a record for it reads the word and wakes exactly that rank,
 * with one FUTEX_WAKE, only when the word says it sleeps. Knows nothing of rings or ranks. */
#ifndef RMP_SHM_WAKE_H
#define RMP_SHM_WAKE_H

#include <stdatomic.h>
#include <stdbool.h>

/* The word's values. Any other value (a broken or hostile peer wrote it) reads as BELL. */
enum {
    SHM_WAKE_AWAKE = 0, /* running: senders do nothing */
    SHM_WAKE_FUTEX = 1, /* blocked in shm_wake_wait: FUTEX_WAKE the word */
    SHM_WAKE_BELL = 2,  /* blocked in poll() on its doorbell (other transports have fds too) */
};

/* The word is shared between processes: lock-free, and the futex's own 32 bits. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && sizeof(atomic_uint) == 4,
               "the wake word must be a lock-free 32-bit atomic (a futex)");

/* true if this kernel lets us FUTEX_WAIT/FUTEX_WAKE a shared word (a seccomp filter may not):
 * wakes nobody, costs one system call. */
bool shm_wake_usable(atomic_uint *w);

/* Sleeper, before its last look at the rings: publish `how` (FUTEX or BELL), then a full
 * fence, so that the look cannot be ordered before the store (see shm_wake.c). */
void shm_wake_announce(atomic_uint *w, unsigned how);
/* Sleeper: awake again (its rings had data, or it woke up). */
void shm_wake_cancel(atomic_uint *w);
/* Sleeper: block while the word still says FUTEX, at most timeout_ms. 0 when woken (or the word
 * changed first), ETIMEDOUT, EINTR, or the errno of a futex that failed. */
int shm_wake_wait(atomic_uint *w, int timeout_ms);

/* Sender, after publishing a record and a full fence: take the sleeper's announcement (the word
 * goes back to AWAKE: later senders skip the system call). Returns what it said: AWAKE
 * (nothing to do), FUTEX (woken here), else BELL: the caller rings the doorbell. */
unsigned shm_wake_poke(atomic_uint *w);

#endif
