/* shm_tp.h — what the parts of the shared-memory transport share: the segment's layout, the
 * modex blob, the per-peer and per-instance state, and the functions each part (segment, CMA,
 * point-to-point, sleep, room) offers the life cycle in shm.c. Internal to runtime/transport/shm. */
#ifndef RMP_SHM_TP_H
#define RMP_SHM_TP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include "transport/shm/shm_bell.h"
#include "transport/shm/shm_coll.h"
#include "transport/shm/shm_coop.h"
#include "transport/shm/shm_queue.h"
#include "transport/shm/shm_ring.h"
#include "transport/shm/shm_seg.h"
#include "transport/shm/shm_wake.h"
#include "transport/transport.h"

#define SHM_MAGIC 0x34306d6873706d72ull /* "rmpshm04" */
#define SHM_RING_DEFAULT (256u << 10)
#define SHM_QUEUE_DEFAULT (1u << 20) /* the incoming queue, at least (see shm_open_tp) */
#define SHM_FAST_RINGS 4           /* outgoing fast rings per rank (see shm_send) */
#define SHM_FAST_AFTER 16          /* records to a peer through its queue before a fast ring */
#define SHM_FROM_FAST 0x80000000u  /* queue record's `from` flag: "my fast ring to you is..." */
#define SHM_LOCAL_MAX (1 << 24)    /* local ranks a queue record's `from` can name */
#define SHM_EAGER_DEFAULT (16u << 10)
#define SHM_POLL_BUDGET 16         /* records per fast ring per progress call: fairness */
#define SHM_QUEUE_BUDGET 64        /* records from the queue per progress call */
#define SHM_CMA_CHUNK (64u << 20)  /* bytes per process_vm_readv call */
#define SHM_NAME_MAX 144          /* "/rmp." tag "-r" rank ".l" 16 hex digits, and a NUL */
#define SHM_ABANDON_WAIT_MS 500    /* see shm_abandon: only a dead or stuck peer costs it */
#define SHM_VANISHED_WAIT_MS 10000 /* see seg_open_peer: only a job being ended costs it */
#define SHM_SETTLE_MS 2            /* first stage of a futex sleep after fence-less sends */
#define SHM_DRAIN_EVERY 32         /* futex sleeps between two reads of the doorbell */

/* Start of every segment. `sleeping` is alone on its line: the owner writes it only around
 * blocking, senders read it after every send. It is also the futex the owner blocks on
 * (shm_wake.h: SHM_WAKE_FUTEX or SHM_WAKE_BELL says how to wake it, AWAKE that it runs). The
 * header is followed by the owner's incoming queue, then its SHM_FAST_RINGS outgoing fast
 * rings, then the slots of its large sends (shm_coop.h), then its collective area
 * (shm_coll.h). The size does not depend on the number of
 * local ranks: n ranks use n segments, not n rings each. */
typedef struct shm_seg_hdr {
    _Alignas(64) atomic_uint sleeping; /* owner is about to block (shm_wake.h's values) */
    _Alignas(64) atomic_int mapped;   /* ranks that mapped it (creator included) */
    int32_t pid;                      /* owner: CMA target and probe value */
    uint32_t nlocal;                  /* local_size, as a consistency check */
    uint64_t magic;
    uint64_t queue_cap;               /* data bytes of the queue */
    uint64_t ring_cap;                /* data bytes of each fast ring */
    uint64_t ring_stride;             /* bytes from one fast ring to the next */
    uint32_t nfast;                   /* fast rings */
} shm_seg_hdr_t;

/* The flags are shared between processes: that needs address-free, lock-free atomics. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "shm needs lock-free int atomics");

#define SHM_HDR_BYTES ((sizeof(shm_seg_hdr_t) + 63) & ~(size_t)63)

/* The modex blob: only the used prefix of name[] is published. */
typedef struct shm_blob {
    uint64_t hdr_addr;  /* segment address in its owner, for the CMA probe */
    uint64_t seg_bytes;
    char bell[SHM_BELL_NAME]; /* the owner's doorbell (random: see shm_bell.c) */
    char name[SHM_NAME_MAX];
} shm_blob_t;

typedef struct shm_peer {
    int world;
    int32_t pid;
    shm_seg_hdr_t *seg;   /* the peer's segment (mine when it is me) */
    size_t seg_bytes;
    uint64_t hdr_addr;    /* seg's address in the peer */
    shm_queue_t outq;     /* its queue, in its segment: I am one of the producers */
    shm_ring_t out;       /* my fast ring to it, in my segment (ctl NULL: none yet) */
    shm_ring_t in;        /* its fast ring to me, in its segment (ctl NULL: none yet) */
    uint32_t queued;      /* records sent to it through its queue (up to SHM_FAST_AFTER) */
    struct sockaddr_un bell;
    socklen_t bell_len;
    char seg_name[SHM_NAME_MAX]; /* "" until known: unlinked if the job is abandoned */
    bool cma_ok;          /* probe passed and no get refused since */
    bool broken;          /* its fast ring held garbage: not read any more */
} shm_peer_t;

typedef struct shm_tp {
    tp_t base;
    int me, nlocal;
    int *local_of;        /* world rank -> local index, -1 off-node */
    shm_peer_t *peers;    /* by local index */
    shm_seg_hdr_t *seg;   /* mine */
    int seg_fd;           /* mine, flocked (shared) while I live: see seg_dir; -1: none */
    size_t seg_bytes, ring_cap, queue_cap;
    shm_queue_t inq;      /* my queue: I consume */
    bool inq_broken;      /* it held garbage: not read any more */
    int nfast_used;       /* my fast rings handed out so far (never taken back) */
    int *hot;             /* local indices of the peers with a fast ring to me */
    int nhot;
    shm_bell_t bell;      /* my doorbell */
    shm_coll_t *coll;     /* the collective backend (offload table) */
    shm_coop_t coop;      /* my large sends that receivers may copy with my help */
    int32_t *pids;        /* by local index, 0 until known: whose doorbell rings count */
    bool stranger_said;   /* a stranger's datagram was reported (once is enough) */
    bool cma;             /* RMP_CMA != 0 */
    bool coop_on;         /* RMP_SHM_COOP != 0: large sends offer the receiver help */
    bool fence;           /* bell_ring fences (oversubscribed ranks sleep often) */
    bool futex;           /* shm_wait may block on a futex (shm_wake_usable at open) */
    bool armed_bell;      /* armed for a core that polls the doorbell (shm_arm) */
    bool settled;         /* the short first stage of this futex sleep is over */
    bool drain_due;       /* read the doorbell at disarm (a futex sleep does now and then) */
    unsigned sleeps;      /* futex sleeps: the doorbell is drained every SHM_DRAIN_EVERY */
    unsigned rr;          /* first fast ring polled next time */
    bool in_progress;     /* inside shm_progress */
    bool wired;           /* shm_wireup mapped every local segment */
    struct shm_tp *next_live; /* shm_live: the instances open in this process */
    char tag[SHM_TAG_BYTES];
    shm_blob_t blob;
    size_t blob_len;
} shm_tp_t;

/* Where the parts of a segment are: fixed by the sizes the mapper expects (checked against
 * the header when a peer's segment is mapped), never by what the header says alone. */
static inline void *shm_seg_queue(shm_seg_hdr_t *seg)
{
    return (char *)seg + SHM_HDR_BYTES;
}

static inline shm_ring_ctl_t *shm_seg_fast(shm_tp_t *s, shm_seg_hdr_t *seg, int i)
{
    return (shm_ring_ctl_t *)((char *)seg + SHM_HDR_BYTES + shm_queue_footprint(s->queue_cap) +
                              (size_t)i * shm_ring_footprint(s->ring_cap));
}

static inline size_t shm_seg_size(size_t queue_cap, size_t ring_cap, int nlocal)
{
    return SHM_HDR_BYTES + shm_queue_footprint(queue_cap) +
           SHM_FAST_RINGS * shm_ring_footprint(ring_cap) + shm_coop_area_bytes() +
           shm_coll_area_bytes(nlocal);
}

static inline void *shm_seg_coop(shm_tp_t *s, shm_seg_hdr_t *seg)
{
    return (char *)seg + s->seg_bytes - shm_coll_area_bytes(s->nlocal) - shm_coop_area_bytes();
}

static inline void *shm_seg_coll(shm_tp_t *s, shm_seg_hdr_t *seg)
{
    return (char *)seg + s->seg_bytes - shm_coll_area_bytes(s->nlocal);
}

static inline shm_peer_t *shm_peer_of(shm_tp_t *s, int world)
{
    if (world < 0 || world >= s->base.env->size || s->local_of[world] < 0)
        return NULL;
    return &s->peers[s->local_of[world]];
}

/* Called after a record is published to p: wake p if it announced a sleep (shm_wake_poke).
 * Why no wakeup is lost is told at the top of shm_wake.c (Dekker's pattern: the sender's fence
 * here pairs with the sleeper's in shm_wake_announce).
 *
 * The sender's fence waits for its store of head to reach the receiver, which is polling
 * that line: a full cache-line transfer per message (msgrate 3.1 M/s with it, 4.5 M/s without
 * on this machine). So the fence is kept only where sleeping is frequent (oversubscribed
 * ranks). Without it, the one race left is a receiver arming within the fraction of a
 * microsecond in which a store sits in the sender's store buffer; the receiver's sleep covers
 * it: a first stage of a few ms, then a second announcement and look at the rings that sees
 * the record, and only then the long sleep (shm_wait here, block() in progress.c). A record
 * published after that finds the announcement long visible, so it wakes the sleeper. */
static inline void shm_tp_ring(shm_tp_t *s, shm_peer_t *p)
{
    if (s->fence)
        atomic_thread_fence(memory_order_seq_cst);
    if (shm_wake_poke(&p->seg->sleeping) == SHM_WAKE_BELL)
        shm_bell_ring(&s->bell, &p->bell, p->bell_len);
}

/* The segment (shm_segment.c). */
void shm_prefault(shm_tp_t *s, void *addr, size_t len);
int shm_seg_create(shm_tp_t *s);
int shm_peer_learn(shm_tp_t *s, int i, shm_blob_t *b);
int shm_seg_map_peer(shm_tp_t *s, int i, const shm_blob_t *b);

/* CMA: the single-copy rendezvous and the large sends both sides copy (shm_cma.c). */
void shm_cma_probe(shm_tp_t *s, shm_peer_t *p);
int shm_coop_help_mine(shm_tp_t *s);
int shm_mem_reg(tp_t *tp, int peer, void *buf, size_t len, tp_rkey_t *rkey, void **memh_p);
int shm_mem_dereg(tp_t *tp, void *memh);
int shm_get(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey, size_t off,
            void *cookie);

/* Point-to-point: the queue and the fast rings (shm_p2p.c). */
int shm_send(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
             size_t len);
int shm_progress(tp_t *tp);

/* Sleeping and waking: the doorbell and the futex word (shm_sleep.c). */
int shm_doorbell_open(shm_tp_t *s);
bool shm_tp_pending(shm_tp_t *s);
int shm_asleep(tp_t *tp);
int shm_wait_fd(tp_t *tp);
int shm_arm(tp_t *tp);
int shm_arm_alone(tp_t *tp);
int shm_wait_alone(tp_t *tp, int timeout_ms);
void shm_wake_alone(tp_t *tp);
void shm_disarm(tp_t *tp);

/* Whether the node's shared memory holds the job's segments (shm_room.c). */
int shm_fits(shm_tp_t *s);

#endif
