/* shm_queue.c — the MPSC record queue behind the shm transport (see shm_queue.h). Producers
 * reserve space by compare-and-swap on head and publish each record by storing its `mark`
 * word last; the consumer walks records by their marks, zeroes the mark word of every line it
 * frees, and only then releases the space. A record never wraps (a SKIP record pads the end). */
#include "transport/shm/shm_queue.h"

#include <string.h>

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "shm queues need lock-free 64-bit atomics");

#define QREC_DATA 0x41544144u /* "DATA" */
#define QREC_SKIP 0x50494b53u /* "SKIP": the rest of the data area is padding */

/* Record header. `mark` is ~(the record's position) once committed and 0 before: every line
 * start of free space holds 0 (fresh memory, then the consumer's zeroing), so a line whose
 * mark is still 0 is space reserved and being written. The complement, not the position,
 * so that position 0 is not 0; a stale value cannot match either: positions only grow. */
typedef struct shm_qrec {
    _Atomic uint64_t mark;
    uint32_t len;  /* DATA: hdrlen + len bytes that follow the header */
    uint32_t kind; /* QREC_DATA or QREC_SKIP */
    uint32_t from; /* the producer's word, passed through */
    uint32_t pad;
} shm_qrec_t;

_Static_assert(sizeof(shm_qrec_t) == 24, "record header layout");

static uint64_t qrec_bytes(size_t len)
{
    return (sizeof(shm_qrec_t) + len + SHM_QUEUE_ALIGN - 1) & ~(uint64_t)(SHM_QUEUE_ALIGN - 1);
}

size_t shm_queue_capacity(size_t want)
{
    size_t cap = SHM_QUEUE_MIN;
    while (cap < want && cap < SHM_QUEUE_MAX)
        cap <<= 1;
    return cap;
}

size_t shm_queue_footprint(size_t cap)
{
    return sizeof(shm_queue_ctl_t) + cap;
}

size_t shm_queue_max_record(size_t cap)
{
    /* As in shm_ring.c: a record of at most cap/2 fits an empty queue at any wrap point; a
     * quarter leaves room for several producers' records in flight. */
    return cap / 4 - sizeof(shm_qrec_t);
}

void shm_queue_init(void *mem, size_t cap)
{
    shm_queue_ctl_t *ctl = mem;
    atomic_init(&ctl->head, 0);
    atomic_init(&ctl->tail, 0);
    ctl->cap = cap;
}

int shm_queue_attach(shm_queue_t *q, void *mem, size_t cap, bool producer)
{
    shm_queue_ctl_t *ctl = mem;
    if (ctl->cap != cap || cap < SHM_QUEUE_MIN || cap > SHM_QUEUE_MAX || (cap & (cap - 1)))
        return -1;
    memset(q, 0, sizeof(*q));
    q->ctl = ctl;
    q->data = (uint8_t *)mem + sizeof(shm_queue_ctl_t);
    q->cap = cap;
    q->mask = cap - 1;
    q->max = shm_queue_max_record(cap);
    q->tail = atomic_load_explicit(&ctl->tail, memory_order_acquire);
    /* Positions move by whole lines: an unaligned tail is garbage, and a consumer starting
     * there would read a header across the end of the data area. */
    if (q->tail & (SHM_QUEUE_ALIGN - 1))
        return -1;
    (void)producer; /* both sides start from tail: producers reserve from head each time */
    return 0;
}

/* Producer: reserve `need` bytes (plus padding to the end if they would wrap). On success
 * *pos_p is the reserved start and *skip_p the padding bytes before the record. */
static int queue_reserve(shm_queue_t *q, uint64_t need, uint64_t *pos_p, uint64_t *skip_p)
{
    uint64_t h = atomic_load_explicit(&q->ctl->head, memory_order_relaxed);
    for (;;) {
        /* Honest reservations move head by whole lines: an unaligned one would put a record
         * header across the end of the data area. */
        if (h & (SHM_QUEUE_ALIGN - 1))
            return SHM_QUEUE_CORRUPT;
        uint64_t off = h & q->mask, to_end = q->cap - off;
        uint64_t skip = need > to_end ? to_end : 0;
        /* The cached tail is older than h: "full" by it may be stale, so look again. */
        if (h + skip + need - q->tail > q->cap) {
            q->tail = atomic_load_explicit(&q->ctl->tail, memory_order_acquire);
            if (q->tail > h) { /* h is older still: the consumer passed it meanwhile */
                h = atomic_load_explicit(&q->ctl->head, memory_order_relaxed);
                if (q->tail > h)
                    return SHM_QUEUE_CORRUPT; /* tail beyond head: not our peers' doing */
                continue;
            }
            if (h - q->tail > q->cap || (q->tail & (SHM_QUEUE_ALIGN - 1)))
                return SHM_QUEUE_CORRUPT; /* more reserved than the queue holds */
            if (h + skip + need - q->tail > q->cap)
                return SHM_QUEUE_AGAIN;
        }
        /* Relaxed is enough: the RMW order on head makes reservations disjoint, and the
         * acquire load of tail above ordered the consumer's frees before our writes. */
        if (atomic_compare_exchange_weak_explicit(&q->ctl->head, &h, h + skip + need,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            *pos_p = h;
            *skip_p = skip;
            return SHM_QUEUE_OK;
        }
    }
}

int shm_queue_try_write(shm_queue_t *q, uint32_t from, const void *hdr, size_t hdrlen,
                        const void *payload, size_t len)
{
    if (hdrlen > q->max || len > q->max - hdrlen)
        return SHM_QUEUE_TOOBIG;
    uint64_t need = qrec_bytes(hdrlen + len), pos, skip;
    int rc = queue_reserve(q, need, &pos, &skip);
    if (rc != SHM_QUEUE_OK)
        return rc;
    if (skip) {
        shm_qrec_t *s = (shm_qrec_t *)(q->data + (pos & q->mask));
        s->len = 0;
        s->kind = QREC_SKIP;
        s->from = from;
        atomic_store_explicit(&s->mark, ~pos, memory_order_release);
        pos += skip;
    }
    shm_qrec_t *rec = (shm_qrec_t *)(q->data + (pos & q->mask));
    rec->len = (uint32_t)(hdrlen + len);
    rec->kind = QREC_DATA;
    rec->from = from;
    rec->pad = 0;
    uint8_t *body = (uint8_t *)(rec + 1);
    if (hdrlen)
        memcpy(body, hdr, hdrlen);
    if (len)
        memcpy(body + hdrlen, payload, len);
    /* The mark last, with release: the consumer's acquire load of it sees the whole record. */
    atomic_store_explicit(&rec->mark, ~pos, memory_order_release);
    return SHM_QUEUE_OK;
}

/* Consumer: free `bytes` at the tail. Every line start in them gets mark 0 again (the
 * invariant of free space), then one release store hands them to the producers. */
static void queue_free(shm_queue_t *q, uint64_t bytes)
{
    uint64_t off = q->tail & q->mask;
    for (uint64_t o = 0; o < bytes; o += SHM_QUEUE_ALIGN)
        atomic_store_explicit(&((shm_qrec_t *)(q->data + off + o))->mark, 0,
                              memory_order_relaxed);
    q->tail += bytes;
    atomic_store_explicit(&q->ctl->tail, q->tail, memory_order_release);
}

int shm_queue_peek(shm_queue_t *q, uint32_t *from_p, const void **data_p, size_t *len_p)
{
    for (;;) {
        uint64_t off = q->tail & q->mask;
        shm_qrec_t *rec = (shm_qrec_t *)(q->data + off);
        uint64_t m = atomic_load_explicit(&rec->mark, memory_order_acquire);
        if (m == 0)
            return SHM_QUEUE_EMPTY;
        if (m != ~q->tail)
            return SHM_QUEUE_CORRUPT;
        /* The producers are other processes: read each field once, then check it. */
        const volatile shm_qrec_t *v = rec;
        uint32_t kind = v->kind, len = v->len, from = v->from;
        if (kind == QREC_SKIP) {
            if (off == 0) /* a skip never starts a lap: it would free the whole queue */
                return SHM_QUEUE_CORRUPT;
            q->cur = 0;
            queue_free(q, q->cap - off); /* now: a producer may be waiting for it */
            continue;
        }
        if (kind != QREC_DATA || len > q->max || qrec_bytes(len) > q->cap - off)
            return SHM_QUEUE_CORRUPT;
        q->cur = qrec_bytes(len);
        *from_p = from;
        *data_p = rec + 1;
        *len_p = len;
        return SHM_QUEUE_READY;
    }
}

void shm_queue_release(shm_queue_t *q)
{
    if (!q->cur)
        return;
    uint64_t bytes = q->cur;
    q->cur = 0;
    queue_free(q, bytes);
}

bool shm_queue_has_data(shm_queue_t *q)
{
    const shm_qrec_t *rec = (const shm_qrec_t *)(q->data + (q->tail & q->mask));
    return atomic_load_explicit(&((shm_qrec_t *)rec)->mark, memory_order_acquire) != 0;
}
