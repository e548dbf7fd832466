/* shm_queue.h — a lock-free multi-producer/single-consumer queue of variable-length records in
 * shared memory. The shm transport gives each rank one, in its own segment, fed by every local
 * peer: memory per rank that does not grow with the node's size (shm_ring.h is the per-pair
 * fast path). Each record carries a 32-bit `from` word that the queue does not interpret. */
#ifndef RMP_SHM_QUEUE_H
#define RMP_SHM_QUEUE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHM_QUEUE_ALIGN 64       /* records start on a cache line */
#define SHM_QUEUE_MIN (4u << 10) /* smallest data area */
#define SHM_QUEUE_MAX (1u << 30) /* largest data area */

enum {
    SHM_QUEUE_OK = 0,
    SHM_QUEUE_AGAIN = 1,     /* try_write: not enough free space now (back-pressure) */
    SHM_QUEUE_TOOBIG = -1,   /* try_write: hdrlen + len > shm_queue_max_record() */
    SHM_QUEUE_EMPTY = 0,     /* peek: nothing committed at the head of the queue */
    SHM_QUEUE_READY = 1,     /* peek: a record is returned */
    SHM_QUEUE_CORRUPT = -2,  /* peek or try_write: the shared memory holds garbage */
};

/* The shared part; the data area follows. `head` is moved by producers (compare-and-swap: a
 * reservation), `tail` by the consumer only; each alone on its cache line. A reserved record
 * is published by its own header word (see shm_queue.c), so the consumer never reads head. */
typedef struct shm_queue_ctl {
    _Alignas(SHM_QUEUE_ALIGN) _Atomic uint64_t head; /* producers: bytes reserved */
    _Alignas(SHM_QUEUE_ALIGN) _Atomic uint64_t tail; /* consumer: bytes released */
    _Alignas(SHM_QUEUE_ALIGN) uint64_t cap;          /* data bytes, a power of two */
} shm_queue_ctl_t;

/* One side's private handle. A producer handle may be used by one thread at a time; any
 * number of producer handles (in any processes) may write to one queue at once. */
typedef struct shm_queue {
    shm_queue_ctl_t *ctl;
    uint8_t *data;
    uint64_t cap, mask;
    uint64_t tail;  /* consumer: its index; producer: the last tail seen */
    uint64_t cur;   /* consumer: bytes of the record returned by peek (0: none) */
    size_t max;     /* largest hdrlen + len of one record */
} shm_queue_t;

/* The data area size used for a request of `want` bytes: a power of two, clamped. */
size_t shm_queue_capacity(size_t want);
/* Bytes of memory a queue with data area `cap` occupies (a multiple of SHM_QUEUE_ALIGN). */
size_t shm_queue_footprint(size_t cap);
/* Lay out an empty queue over zeroed memory (fresh ftruncate'd pages, or memset): `mem`
 * SHM_QUEUE_ALIGN-aligned, shm_queue_footprint(cap) bytes. Done once by the owner. */
void shm_queue_init(void *mem, size_t cap);
/* Attach to an initialized queue of data area `cap` (what the caller mapped; the size in the
 * shared memory is not trusted): 0, or -1 if `mem` does not hold a valid queue of that size. */
int shm_queue_attach(shm_queue_t *q, void *mem, size_t cap, bool producer);
/* Largest hdrlen + len one record can carry (a quarter of the data area, less the header). */
size_t shm_queue_max_record(size_t cap);

/* Producer: reserve room, copy hdr then payload, publish. Never blocks, never overwrites
 * unread data. SHM_QUEUE_OK, _AGAIN, _TOOBIG, or _CORRUPT (the indices are impossible: a
 * broken peer wrote them). */
int shm_queue_try_write(shm_queue_t *q, uint32_t from, const void *hdr, size_t hdrlen,
                        const void *payload, size_t len);

/* Consumer: the oldest record, in place (valid until release); the same one until release.
 * SHM_QUEUE_READY, _EMPTY (nothing, or the oldest reservation is still being written), or
 * _CORRUPT. */
int shm_queue_peek(shm_queue_t *q, uint32_t *from_p, const void **data_p, size_t *len_p);
/* Consumer: give the record returned by peek back to the producers. */
void shm_queue_release(shm_queue_t *q);
/* Consumer: true if a committed record may be waiting (reads one header word). */
bool shm_queue_has_data(shm_queue_t *q);

#endif
