/* shm_ring.c — the SPSC record ring behind the shm transport (see shm_ring.h). Records are
 * 64-byte aligned, each starting with a small header; a record never wraps: when it does not
 * fit before the end of the data area, a SKIP record pads the tail and it starts at offset 0.
 *
 * The consumer learns that a record is there from the record itself, not from head: the
 * header's stamp, stored last with release, names the record's position in the stream
 * (mixed with the ring's random key). So a receiver polling an idle ring touches one cache
 * line, the next record's, and a small message costs one miss (the line the sender wrote)
 * instead of two (head's line, then the record's): fast-box latency with ring capacity.
 * What lies at the consumer's position before the producer's stamp is stale: an older
 * record's stamp (another position) or payload, equal to the expected stamp with
 * probability 2^-64 for data that does not know the key. head is still published, for
 * attach's checks and for a peer that reads it. */
#include "transport/shm/shm_ring.h"

#include "transport/copy.h"

#include <string.h>
#include <sys/random.h>
#include <time.h>

/* Address-free lock-free atomics are what make the indices safe between processes. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "shm rings need lock-free 64-bit atomics");

#define REC_DATA 0x41544144u /* "DATA" */
#define REC_SKIP 0x50494b53u /* "SKIP": the rest of the data area is padding */

/* len and kind are plain memory: the producer writes them before its release store of the
 * stamp, the consumer reads them after an acquire load of it, so they need no atomics. */
typedef struct shm_rec {
    uint32_t len;           /* DATA: hdrlen + len bytes that follow */
    uint32_t kind;          /* REC_DATA or REC_SKIP */
    _Atomic uint64_t stamp; /* rec_stamp(position): written last, with release */
} shm_rec_t;

static uint64_t rec_stamp(uint64_t key, uint64_t pos)
{
    return (pos + 1) ^ key; /* + 1: a zeroed ring holds no valid record at position 0 */
}

static uint64_t rec_bytes(size_t len)
{
    return (sizeof(shm_rec_t) + len + SHM_RING_ALIGN - 1) & ~(uint64_t)(SHM_RING_ALIGN - 1);
}

size_t shm_ring_capacity(size_t want)
{
    size_t cap = SHM_RING_MIN;
    while (cap < want && cap < SHM_RING_MAX)
        cap <<= 1;
    return cap;
}

size_t shm_ring_footprint(size_t cap)
{
    return sizeof(shm_ring_ctl_t) + cap;
}

size_t shm_ring_max_record(size_t cap)
{
    /* Why a quarter: any record of at most cap/2 fits an empty ring (if it does not fit before
     * the end, the end is less than cap/2 away, so padding + record <= cap). A quarter leaves
     * room for a few records in flight, so a producer need not wait for a fully empty ring. */
    return cap / 4 - sizeof(shm_rec_t);
}

void shm_ring_init(void *mem, size_t cap)
{
    shm_ring_ctl_t *ctl = mem;
    atomic_init(&ctl->head, 0);
    atomic_init(&ctl->tail, 0);
    ctl->cap = cap;
    uint64_t key;
    if (getrandom(&key, sizeof(key), GRND_NONBLOCK) != (ssize_t)sizeof(key)) {
        struct timespec t; /* no entropy yet (early boot): still unlike any payload pattern */
        clock_gettime(CLOCK_MONOTONIC, &t);
        key = ((uint64_t)t.tv_nsec << 32 ^ (uint64_t)t.tv_sec ^ (uint64_t)(uintptr_t)mem) *
              0x9e3779b97f4a7c15ull;
    }
    ctl->key = key;
}

int shm_ring_attach(shm_ring_t *r, void *mem, size_t cap, bool producer)
{
    shm_ring_ctl_t *ctl = mem;
    if (ctl->cap != cap || cap < SHM_RING_MIN || cap > SHM_RING_MAX || (cap & (cap - 1)))
        return -1;
    memset(r, 0, sizeof(*r));
    r->ctl = ctl;
    r->data = (uint8_t *)mem + sizeof(shm_ring_ctl_t);
    r->cap = cap;
    r->mask = cap - 1;
    r->max = shm_ring_max_record(cap);
    uint64_t head = atomic_load_explicit(&ctl->head, memory_order_acquire);
    uint64_t tail = atomic_load_explicit(&ctl->tail, memory_order_acquire);
    /* Both indices only ever move by aligned records: an unaligned one is garbage, and
     * reading a record header from it could run past the end of the data area. */
    if ((head | tail) & (SHM_RING_ALIGN - 1))
        return -1;
    r->pos = producer ? head : tail;
    r->other = producer ? tail : 0;
    r->key = ctl->key;
    return 0;
}

int shm_ring_try_write(shm_ring_t *r, const void *hdr, size_t hdrlen, const void *payload,
                       size_t len)
{
    if (hdrlen > r->max || len > r->max - hdrlen)
        return SHM_RING_TOOBIG;
    uint64_t need = rec_bytes(hdrlen + len);
    uint64_t off = r->pos & r->mask;
    uint64_t to_end = r->cap - off;
    bool wrap = need > to_end;

    /* Stay in the hot window while the consumer keeps up. A line of the data area not touched
     * for a whole lap has left both caches, and fetching it costs more than the message (a
     * barrier at n=2 took 1.2 us during the first lap of a 256 KiB ring and 0.6 us after).
     * So the write that crosses SHM_RING_HOT looks at tail (once per lap): if the consumer
     * is close behind (within a quarter of the window) and past the room this record needs at
     * offset 0, it starts over there, so that ping-pong-like traffic reuses the same few
     * kilobytes; a streaming producer finds the consumer further behind and goes round as
     * before, with the whole ring to fill. */
    if (!wrap && off < SHM_RING_HOT && off + need >= SHM_RING_HOT && r->cap > 2 * SHM_RING_HOT) {
        r->other = atomic_load_explicit(&r->ctl->tail, memory_order_acquire);
        /* the second test is the space check of a wrapped write: pos + to_end + need - tail */
        wrap = r->pos - r->other <= SHM_RING_HOT / 4 && r->other >= r->pos - off + need;
    }
    uint64_t total = wrap ? to_end + need : need;

    /* Look at the consumer's line only when the cached tail says "full". Acquire pairs with
     * the consumer's release: its reads of the bytes we are about to overwrite are done. */
    if (r->pos + total - r->other > r->cap) {
        r->other = atomic_load_explicit(&r->ctl->tail, memory_order_acquire);
        if (r->pos + total - r->other > r->cap)
            return SHM_RING_AGAIN;
    }

    uint64_t pos = r->pos;
    if (wrap) {
        shm_rec_t *skip = (shm_rec_t *)(r->data + off);
        skip->len = 0;
        skip->kind = REC_SKIP;
        atomic_store_explicit(&skip->stamp, rec_stamp(r->key, pos), memory_order_release);
        pos += to_end;
        off = 0;
    }
    shm_rec_t *rec = (shm_rec_t *)(r->data + off);
    rec->len = (uint32_t)(hdrlen + len);
    rec->kind = REC_DATA;
    uint8_t *body = (uint8_t *)(rec + 1);
    copy_bytes(body, hdr, hdrlen);
    copy_bytes(body + hdrlen, payload, len);
    /* The stamp last: the consumer reads nothing of the record before it sees it. */
    atomic_store_explicit(&rec->stamp, rec_stamp(r->key, pos), memory_order_release);

    r->pos = pos + need;
    atomic_store_explicit(&r->ctl->head, r->pos, memory_order_release);
    return SHM_RING_OK;
}

/* The record at the consumer's position, if its producer stamped it (acquire: what it wrote
 * before the stamp is visible), else NULL. */
static const shm_rec_t *stamped(shm_ring_t *r)
{
    const shm_rec_t *rec = (const shm_rec_t *)(r->data + (r->pos & r->mask));
    uint64_t st = atomic_load_explicit(&((shm_rec_t *)rec)->stamp, memory_order_acquire);
    return st == rec_stamp(r->key, r->pos) ? rec : NULL;
}

int shm_ring_peek(shm_ring_t *r, const void **data_p, size_t *len_p)
{
    for (;;) {
        const shm_rec_t *rec = stamped(r);
        if (!rec)
            return SHM_RING_EMPTY;
        /* The producer is another process: validate before trusting what it wrote, and read
         * each field once so a later scribble cannot change what was checked. */
        uint64_t off = r->pos & r->mask;
        const volatile shm_rec_t *vrec = rec; /* volatile: the compiler may not re-read it */
        uint32_t kind = vrec->kind, len = vrec->len;
        if (kind == REC_SKIP) {
            if (off == 0) /* a producer pads only a tail shorter than its record */
                return SHM_RING_CORRUPT;
            r->pos += r->cap - off;
            r->cur = 0;
            /* Publish now: the freed padding is space the producer may be waiting for. */
            atomic_store_explicit(&r->ctl->tail, r->pos, memory_order_release);
            continue;
        }
        if (kind != REC_DATA || len > r->max || rec_bytes(len) > r->cap - off)
            return SHM_RING_CORRUPT;
        r->cur = rec_bytes(len);
        *data_p = rec + 1;
        *len_p = len;
        return SHM_RING_READY;
    }
}

void shm_ring_release(shm_ring_t *r)
{
    if (!r->cur)
        return;
    r->pos += r->cur;
    r->cur = 0;
    /* Release: our reads of the record happen before the producer may reuse its bytes. */
    atomic_store_explicit(&r->ctl->tail, r->pos, memory_order_release);
}

bool shm_ring_has_data(shm_ring_t *r)
{
    return stamped(r) != NULL;
}
