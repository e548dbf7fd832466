/* shm_coop.c — the two-sided copy of a large message (see shm_coop.h): slot life cycle, the
 * chunk claims, and each side's copy loop. Everything read from a slot was written by another
 * process and is checked before it is used; a slot that holds nonsense ends the cooperation,
 * never the copy (the receiver can always finish alone). */
#include "transport/shm/shm_coop.h"

#include <errno.h>
#include <string.h>
#include <time.h>

enum { PH_IDLE = 0, PH_OFFERED = 1, PH_CLAIMING = 2, PH_STARTED = 3 };

#define KEY_SLOT_BITS 8 /* key: gen << 8 | (slot + 1) */
_Static_assert(SHM_COOP_SLOTS < (1 << KEY_SLOT_BITS), "slot numbers must fit the key");
_Static_assert(sizeof(shm_coop_slot_t) == 64, "one slot, one cache line");

static uint64_t state_of(uint32_t gen, unsigned phase)
{
    return (uint64_t)gen << 2 | phase;
}

static uint64_t claim_of(uint32_t front, uint32_t back)
{
    return (uint64_t)back << 32 | front;
}

size_t shm_coop_area_bytes(void)
{
    return SHM_COOP_SLOTS * sizeof(shm_coop_slot_t);
}

void shm_coop_attach(shm_coop_t *co, void *area)
{
    memset(co, 0, sizeof(*co));
    co->slots = area;
}

uint64_t shm_coop_offer(shm_coop_t *co, const void *buf, size_t len, int peer)
{
    for (int k = 0; k < SHM_COOP_SLOTS; k++) {
        int i = (co->next + k) % SHM_COOP_SLOTS;
        shm_coop_own_t *o = &co->own[i];
        if (o->live)
            continue;
        co->next = (i + 1) % SHM_COOP_SLOTS;
        uint32_t gen = ++co->gen;
        *o = (shm_coop_own_t){.buf = buf, .len = len, .peer = peer, .gen = gen, .live = true};
        co->unsettled++;
        /* Release: a receiver that sees OFFERED with this gen sees nothing older. */
        atomic_store_explicit(&co->slots[i].state, state_of(gen, PH_OFFERED),
                              memory_order_release);
        return (uint64_t)gen << KEY_SLOT_BITS | (uint64_t)(i + 1);
    }
    return 0;
}

/* The slot index a key names, or -1. */
static int key_slot(uint64_t key)
{
    uint64_t i = (key & ((1u << KEY_SLOT_BITS) - 1)) - 1;
    return key && i < SHM_COOP_SLOTS ? (int)i : -1;
}

static uint32_t key_gen(uint64_t key)
{
    return (uint32_t)(key >> KEY_SLOT_BITS);
}

void shm_coop_withdraw(shm_coop_t *co, uint64_t key)
{
    int i = key_slot(key);
    if (i < 0 || !co->own[i].live || co->own[i].gen != key_gen(key))
        return;
    if (!co->own[i].settled)
        co->unsettled--;
    co->own[i].live = false;
    atomic_store_explicit(&co->slots[i].state, state_of(0, PH_IDLE), memory_order_release);
}

/* Sender: the receiver's description of a started slot, checked against what was offered;
 * false if it describes something else (then this side does not help). */
static bool started_ok(const shm_coop_slot_t *sl, const shm_coop_own_t *o, uint64_t *dst,
                       uint64_t *len, uint64_t *chunk, uint32_t *n)
{
    const volatile shm_coop_slot_t *v = sl; /* read each field once */
    *dst = v->dst;
    *len = v->len;
    *chunk = v->chunk;
    *n = v->nchunks;
    return *len <= o->len && *chunk >= SHM_COOP_CHUNK_MIN && *chunk <= SHM_COOP_CHUNK_MAX &&
           *n == (*len + *chunk - 1) / *chunk;
}

/* Sender: take chunks from the back of slot i until none is left. */
static int help_slot(shm_coop_t *co, int i, const shm_coop_io_t *io)
{
    shm_coop_slot_t *sl = &co->slots[i];
    shm_coop_own_t *o = &co->own[i];
    uint64_t st = atomic_load_explicit(&sl->state, memory_order_acquire);
    if (st != state_of(o->gen, PH_STARTED))
        return 0; /* not matched yet */
    uint64_t dst, len, chunk;
    uint32_t n;
    int copied = 0;
    bool ok = started_ok(sl, o, &dst, &len, &chunk, &n);
    while (ok) {
        uint64_t c = atomic_load_explicit(&sl->claim, memory_order_acquire);
        uint32_t front = (uint32_t)c, back = (uint32_t)(c >> 32);
        if (back > n || front >= back)
            break; /* all claimed (or nonsense: leave the rest to the receiver) */
        if (!atomic_compare_exchange_weak_explicit(&sl->claim, &c, claim_of(front, back - 1),
                                                   memory_order_acq_rel, memory_order_relaxed))
            continue;
        uint64_t off = (uint64_t)(back - 1) * chunk;
        size_t bytes = (size_t)(len - off < chunk ? len - off : chunk);
        if (io->write(io->arg, o->peer, dst + off, o->buf + off, bytes))
            atomic_fetch_add_explicit(&sl->failed, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&sl->done, 1, memory_order_release);
        copied++;
    }
    o->settled = true;
    co->unsettled--;
    return copied;
}

int shm_coop_help(shm_coop_t *co, const shm_coop_io_t *io)
{
    int copied = 0;
    for (int i = 0; i < SHM_COOP_SLOTS && co->unsettled; i++)
        if (co->own[i].live && !co->own[i].settled)
            copied += help_slot(co, i, io);
    return copied;
}

shm_coop_slot_t *shm_coop_slot(void *peer_area, uint64_t key)
{
    int i = key_slot(key);
    return i < 0 ? NULL : &((shm_coop_slot_t *)peer_area)[i];
}

static size_t chunk_for(size_t len)
{
    size_t c = len / 4; /* four claims: enough to balance two sides, few system calls */
    if (c < SHM_COOP_CHUNK_MIN)
        c = SHM_COOP_CHUNK_MIN;
    if (c > SHM_COOP_CHUNK_MAX)
        c = SHM_COOP_CHUNK_MAX;
    return (c + 4095) & ~(size_t)4095;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Receiver: until every chunk is counted. The sender copies one chunk at a time, so what is
 * left is at most one chunk's copy by a running process. No yield: ranks that cooperate have
 * a core each (never offered when oversubscribed), so a sender preempted mid-chunk lost its
 * core to a stranger, and yielding ours would only hand a second core to strangers (measured
 * under a compile on both cores: 1 MiB ping-pong medians of 1.4 ms when yielding every 256
 * polls). It stops at the sender's death or after SHM_COOP_WAIT_S of no progress (a slot
 * scribbled over): ESRCH, ETIMEDOUT. */
static int wait_done(shm_coop_slot_t *sl, uint32_t n, const shm_coop_io_t *io)
{
    double deadline = 0;
    uint32_t seen = 0;
    for (unsigned spin = 1;; spin++) {
        uint32_t d = atomic_load_explicit(&sl->done, memory_order_acquire);
        if (d == n)
            return 0;
        if (d > n)
            return ETIMEDOUT; /* more chunks than there are: not the sender's doing */
        if (spin % 65536)
            continue;
        int e = io->alive(io->arg);
        if (e)
            return e;
        double t = now_s();
        if (d != seen || deadline == 0) {
            seen = d;
            deadline = t + SHM_COOP_WAIT_S;
        } else if (t > deadline) {
            return ETIMEDOUT;
        }
    }
}

int shm_coop_pull(shm_coop_slot_t *sl, uint64_t key, char *dst, uint64_t src, size_t len,
                  const shm_coop_io_t *io)
{
    uint32_t gen = key_gen(key);
    uint64_t want = state_of(gen, PH_OFFERED);
    /* Take the slot (the only writer from here to STARTED): a slot not offered with this gen
     * is someone else's, or the key is stale: copy alone. */
    if (!atomic_compare_exchange_strong_explicit(&sl->state, &want, state_of(gen, PH_CLAIMING),
                                                 memory_order_acquire, memory_order_relaxed))
        return SHM_COOP_DECLINED;
    size_t chunk = chunk_for(len);
    uint32_t n = (uint32_t)((len + chunk - 1) / chunk);
    sl->dst = (uint64_t)(uintptr_t)dst;
    sl->len = len;
    sl->chunk = chunk;
    sl->nchunks = n;
    atomic_store_explicit(&sl->claim, claim_of(0, n), memory_order_relaxed);
    atomic_store_explicit(&sl->done, 0, memory_order_relaxed);
    atomic_store_explicit(&sl->failed, 0, memory_order_relaxed);
    atomic_store_explicit(&sl->state, state_of(gen, PH_STARTED), memory_order_release);
    io->kick(io->arg);

    int err = 0;
    for (;;) {
        uint64_t c = atomic_load_explicit(&sl->claim, memory_order_acquire);
        uint32_t front = (uint32_t)c, back = (uint32_t)(c >> 32);
        if (back > n || front > back) {
            err = ETIMEDOUT; /* scribbled over: nothing counts, copy again below */
            break;
        }
        if (front == back)
            break;
        if (!atomic_compare_exchange_weak_explicit(&sl->claim, &c, claim_of(front + 1, back),
                                                   memory_order_acq_rel, memory_order_relaxed))
            continue;
        uint64_t off = (uint64_t)front * chunk;
        size_t bytes = (size_t)(len - off < chunk ? len - off : chunk);
        /* After a failure the claims go on without copying: every chunk must be counted
         * before returning, or the sender could still write into a buffer given back. */
        if (!err)
            err = io->read(io->arg, dst + off, src + off, bytes);
        atomic_fetch_add_explicit(&sl->done, 1, memory_order_release);
    }
    int w = err == ETIMEDOUT ? 0 : wait_done(sl, n, io);
    if (w == ESRCH)
        return ESRCH;
    if (err && err != ETIMEDOUT)
        return err;
    /* The sender failed a chunk, or the slot was not to be trusted: the whole buffer again,
     * alone (it is the sender's data either way: copying it twice changes nothing). */
    if (err || w || atomic_load_explicit(&sl->failed, memory_order_relaxed))
        return io->read(io->arg, dst, src, len);
    return 0;
}
