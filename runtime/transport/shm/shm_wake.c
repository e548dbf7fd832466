/* shm_wake.c — the futex under shm's hand-off waiting (shm_wake.h). The word lives in the
 * sleeper's segment, which its local peers map MAP_SHARED: a shared futex (no FUTEX_PRIVATE),
 * keyed by the kernel on the page, not the address, so each process may map it anywhere.
 *
 * Why no wakeup is lost (sleeper S owns the word W, sender P publishes a record R for S):
 *   S: store W = FUTEX ; fence seq_cst ; load every ring head  ; FUTEX_WAIT(W, FUTEX)
 *   P: store head (R)  ; fence seq_cst ; load W ; if not AWAKE: xchg(W, AWAKE), FUTEX_WAKE
 * The two fences are totally ordered. If P's comes first, S's load of the head sees R and S
 * does not block. If S's comes first, P's load sees FUTEX (or a later value: AWAKE from S
 * itself, then awake, or from another sender's xchg, which wakes S just the same). The xchg
 * hands that announcement to one sender only, so one FUTEX_WAKE per sleep, not one per send.
 * Its FUTEX_WAKE either finds S queued on W and wakes it, or comes before S's FUTEX_WAIT;
 * then the kernel's compare of W (now AWAKE) with FUTEX, made atomically with queueing S
 * (under the futex hash bucket's lock), fails and S returns at once. Either way S runs again
 * and polls its rings.
 *
 * A sender that skips its fence (shm does, when ranks do not outnumber cores: the fence costs
 * a cache-line round trip per message) can read W before its head store is visible; S may then
 * block with R pending. shm covers that with a short first wait and a second look (shm_wait).
 *
 * Trust: W sits in a segment every local rank of the job maps read-write, so a broken peer can
 * write anything there. The value is only ever compared, never used to index or size anything:
 * a stray AWAKE makes a sleep end early, a stray FUTEX costs senders a needless FUTEX_WAKE,
 * any other value reads as BELL (one needless datagram). Sleeps are bounded by their timeout
 * either way: at worst spurious wakeups, never a hang or a crash. */
#include "transport/shm/shm_wake.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long wake_futex(atomic_uint *w, int op, unsigned val, const struct timespec *timeout)
{
    return syscall(SYS_futex, (unsigned *)w, op, val, timeout, NULL, 0);
}

bool shm_wake_usable(atomic_uint *w)
{
    return wake_futex(w, FUTEX_WAKE, 1, NULL) >= 0;
}

void shm_wake_announce(atomic_uint *w, unsigned how)
{
    atomic_store_explicit(w, how, memory_order_seq_cst);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with the sender's: see the top */
}

void shm_wake_cancel(atomic_uint *w)
{
    atomic_store_explicit(w, SHM_WAKE_AWAKE, memory_order_relaxed);
}

int shm_wake_wait(atomic_uint *w, int timeout_ms)
{
    struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
    /* FUTEX_WAIT's timeout is relative (CLOCK_MONOTONIC): a clock step cannot stretch it. */
    if (wake_futex(w, FUTEX_WAIT, SHM_WAKE_FUTEX, &ts) == 0)
        return 0;
    return errno == EAGAIN ? 0 : errno; /* EAGAIN: a sender took the word before we slept */
}

unsigned shm_wake_poke(atomic_uint *w)
{
    /* A plain load first: when the peer is awake (nearly always), the line stays shared and
     * the sender writes nothing to it. */
    if (atomic_load_explicit(w, memory_order_relaxed) == SHM_WAKE_AWAKE)
        return SHM_WAKE_AWAKE;
    unsigned how = atomic_exchange_explicit(w, SHM_WAKE_AWAKE, memory_order_acq_rel);
    if (how == SHM_WAKE_FUTEX)
        (void)wake_futex(w, FUTEX_WAKE, 1, NULL); /* only fails on a bad address: it is ours */
    else if (how != SHM_WAKE_AWAKE)
        how = SHM_WAKE_BELL;
    return how;
}
