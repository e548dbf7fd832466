/* shm_coop.h — a large rendezvous message copied by both of its ranks at once. With CMA the
 * receiver alone pulls the sender's buffer (process_vm_readv), while the sender, blocked in its
 * wait for the FIN, keeps a core idle. Here the sender offers a slot in its segment with the
 * RTS; the receiver, once matched, describes its buffer there and takes chunks from the front,
 * and the sender, whenever it progresses, takes chunks from the back and writes them into the
 * receiver (process_vm_writev). Chunks are claimed one at a time with a compare-and-swap on one
 * word, so a sender that never comes (busy computing) leaves the whole copy to the receiver,
 * which never waits for it except for the one chunk the sender is copying. Measured on this
 * 2-core VM (bench/README.md, issue 24): a 1 MiB copy in 55-62 us instead of 95-110. */
#ifndef RMP_SHM_COOP_H
#define RMP_SHM_COOP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHM_COOP_SLOTS 128          /* large sends of one rank offered at once (more: CMA alone) */
#define SHM_COOP_MIN (128u << 10)   /* smaller messages: one copy by the receiver is as fast */
#define SHM_COOP_CHUNK_MIN (64u << 10)
#define SHM_COOP_CHUNK_MAX (1u << 20)
#define SHM_COOP_WAIT_S 10          /* receiver's bound on waiting for the sender's last chunk */

/* One slot in the sender's segment. `state` is gen << 2 | phase; the receiver's fields are
 * written before its release store of STARTED and read by the sender after an acquire. */
typedef struct shm_coop_slot {
    _Alignas(64) _Atomic uint64_t state;
    _Atomic uint64_t claim;  /* front: next chunk of the receiver (low 32 bits); back: end of
                              * the unclaimed chunks (high 32 bits): the sender takes back - 1 */
    _Atomic uint32_t done;   /* chunks copied, by either side (release after the copy) */
    _Atomic uint32_t failed; /* chunks the sender could not write: the receiver copies again */
    uint64_t dst;            /* receiver: its buffer, in its own address space */
    uint64_t len;            /* receiver: bytes to move (at most what was offered) */
    uint64_t chunk;          /* receiver: bytes per chunk */
    uint32_t nchunks;
} shm_coop_slot_t;

/* The sender's private record of a slot it offered. */
typedef struct shm_coop_own {
    const char *buf;
    size_t len;
    int peer;     /* local index of the receiver */
    uint32_t gen;
    bool live;    /* offered, not withdrawn */
    bool settled; /* nothing left to help with (copied, or the slot held nonsense) */
} shm_coop_own_t;

typedef struct shm_coop {
    shm_coop_slot_t *slots; /* SHM_COOP_SLOTS, in my segment */
    shm_coop_own_t own[SHM_COOP_SLOTS];
    int unsettled;          /* live slots not settled: shm_coop_help has work to look at */
    int next;               /* where the search for a free slot starts */
    uint32_t gen;
} shm_coop_t;

/* How the copies are done (CMA in shm.c; memcpy between threads in the unit test). Each
 * returns 0 or an errno value. read: receiver, [src + off, + n) of the sender into dst + off;
 * write: sender, its src + off into the receiver's dst + off; alive: receiver, 0 while the
 * sender may still finish its chunk (ESRCH once it is gone). */
typedef struct shm_coop_io {
    int (*read)(void *arg, char *dst, uint64_t src, size_t n);
    int (*write)(void *arg, int peer, uint64_t dst, const char *src, size_t n);
    int (*alive)(void *arg);
    void (*kick)(void *arg); /* receiver: the sender may sleep: wake it to help */
    void *arg;
} shm_coop_io_t;

/* Outcomes of shm_coop_pull besides 0 (copied) and an errno value. */
enum { SHM_COOP_DECLINED = -1 /* the slot is not offered as the key says: copy alone */ };

size_t shm_coop_area_bytes(void); /* a multiple of 64; zeroed pages are idle slots */
void shm_coop_attach(shm_coop_t *co, void *area);

/* Sender: offer buf for a copy with the receiver of local index `peer`. The key goes in the
 * RTS's rkey; 0: no slot free (the receiver copies alone). */
uint64_t shm_coop_offer(shm_coop_t *co, const void *buf, size_t len, int peer);
/* Sender: the receiver is done with the slot (FIN) or the send ended otherwise. */
void shm_coop_withdraw(shm_coop_t *co, uint64_t key);
/* Sender: copy the chunks left in every started slot; returns chunks copied. */
int shm_coop_help(shm_coop_t *co, const shm_coop_io_t *io);
static inline bool shm_coop_busy(const shm_coop_t *co)
{
    return co->unsettled > 0;
}

/* Receiver: the slot the key names in the sender's area, or NULL if it names none. */
shm_coop_slot_t *shm_coop_slot(void *peer_area, uint64_t key);
/* Receiver: copy len bytes of the sender's buffer at src into dst, the sender helping. 0 when
 * every byte is there, SHM_COOP_DECLINED (nothing copied: the caller copies alone), or an
 * errno value of a failed copy (no chunk is still being written when it returns). */
int shm_coop_pull(shm_coop_slot_t *sl, uint64_t key, char *dst, uint64_t src, size_t len,
                  const shm_coop_io_t *io);

#endif
