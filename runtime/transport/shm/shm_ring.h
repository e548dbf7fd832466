/* shm_ring.h — a lock-free single-producer/single-consumer ring of variable-length records
 * that lives in memory shared between two processes (or threads). The shm transport puts one
 * per (sender, receiver) pair in the receiver's segment; the ring knows nothing of ranks. */
#ifndef RMP_SHM_RING_H
#define RMP_SHM_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHM_RING_ALIGN 64       /* cache line: records and the two indices are aligned to it */
#define SHM_RING_MIN (4u << 10) /* smallest data area */
#define SHM_RING_MAX (1u << 30) /* largest data area (indices are 64-bit, this bounds memory) */
#define SHM_RING_HOT (16u << 10) /* see shm_ring_try_write: an idle ring restarts below this */

/* Results of try_write and peek. */
enum {
    SHM_RING_OK = 0,
    SHM_RING_AGAIN = 1,    /* try_write: not enough free space now (back-pressure) */
    SHM_RING_TOOBIG = -1,  /* try_write: hdrlen + len > shm_ring_max_record() */
    SHM_RING_EMPTY = 0,    /* peek: nothing to read */
    SHM_RING_READY = 1,    /* peek: a record is returned */
    SHM_RING_CORRUPT = -2, /* peek: the shared memory holds garbage (a broken peer) */
};

/* The shared part, at the start of the ring's memory; the data area follows it. Each index is
 * a byte count that only grows (never wraps in practice: 2^64 bytes), written by one side
 * only, and alone on its cache line so the two sides never write the same line. */
typedef struct shm_ring_ctl {
    _Alignas(SHM_RING_ALIGN) _Atomic uint64_t head; /* producer: bytes published */
    _Alignas(SHM_RING_ALIGN) _Atomic uint64_t tail; /* consumer: bytes released */
    _Alignas(SHM_RING_ALIGN) uint64_t cap;          /* data bytes, a power of two; set by init */
    uint64_t key; /* random, set by init: mixed into each record's stamp (see shm_ring.c) */
} shm_ring_ctl_t;

/* One side's private handle (process-local memory). `pos` is this side's own index (only it
 * writes it, so no need to read it back from shared memory); `other` is the last value seen
 * of the other side's index, reloaded only when it no longer suffices — for the producer that
 * is the cached consumer index that keeps it off the consumer's cache line. */
typedef struct shm_ring {
    shm_ring_ctl_t *ctl;
    uint8_t *data;
    uint64_t cap, mask;
    uint64_t pos;   /* producer: head; consumer: tail */
    uint64_t other; /* producer: cached tail */
    uint64_t key;   /* the ring's stamp key (ctl->key, read once at attach) */
    uint64_t cur;   /* consumer: bytes of the record returned by peek (0: none) */
    size_t max;     /* largest hdrlen + len of one record */
} shm_ring_t;

/* The data area size used for a request of `want` bytes: a power of two, clamped. */
size_t shm_ring_capacity(size_t want);
/* Bytes of memory a ring with data area `cap` occupies (a multiple of SHM_RING_ALIGN). */
size_t shm_ring_footprint(size_t cap);
/* Lay out an empty ring over `mem` (SHM_RING_ALIGN-aligned, shm_ring_footprint(cap) bytes).
 * Done once by the memory's owner before anyone attaches. */
void shm_ring_init(void *mem, size_t cap);
/* Attach one side to an initialized ring of data area `cap` (what the caller mapped: the
 * size written in the shared memory is the peer's word, not trusted): 0, or -1 if `mem` does
 * not hold a valid ring of that size. */
int shm_ring_attach(shm_ring_t *r, void *mem, size_t cap, bool producer);
/* Largest hdrlen + len one record can carry: a quarter of the data area minus the record
 * header, so a record always fits an empty ring whatever the wrap point. */
size_t shm_ring_max_record(size_t cap);

/* Producer: copy hdr then payload into one record and publish it. Never blocks, never
 * overwrites unread data. SHM_RING_OK, SHM_RING_AGAIN or SHM_RING_TOOBIG. */
int shm_ring_try_write(shm_ring_t *r, const void *hdr, size_t hdrlen, const void *payload,
                       size_t len);

/* Consumer: the oldest unreleased record, in place (valid until shm_ring_release). Calling
 * it again before release returns the same record. SHM_RING_READY, _EMPTY or _CORRUPT. */
int shm_ring_peek(shm_ring_t *r, const void **data_p, size_t *len_p);
/* Consumer: give the record returned by peek back to the producer. */
void shm_ring_release(shm_ring_t *r);
/* Consumer: true if a record is waiting (the stamp of the next record, as peek reads it). */
bool shm_ring_has_data(shm_ring_t *r);

#endif
