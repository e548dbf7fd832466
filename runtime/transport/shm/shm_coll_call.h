/* shm_coll_call.h — what the parts of the shared-memory collective backend share: the layout of
 * a rank's collective area (channels, broadcast publications, allgather blocks), a call's state,
 * and the steps shm_coll.c (queueing, progress) takes from shm_coll_bcast.c and shm_coll_count.c. */
#ifndef RMP_SHM_COLL_CALL_H
#define RMP_SHM_COLL_CALL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "transport/shm/shm_coll.h"

/* A broadcast I root: its tag and its data share their first line. */
typedef struct sc_pub {
    _Alignas(64) _Atomic uint64_t tag; /* the call's tag (bcast_tag), 0: none */
    uint64_t bytes; /* the root's: a reader whose count differs fails (RMP_ERR_TRUNCATE) */
    char data[SHM_COLL_MAX];
} sc_pub_t;

/* The home's count, low word: members in, and what the first of them called (collective and
 * bytes); a member that called something else sets SC_BAD as it counts itself in, and the
 * n-th then fails the call on every member instead of combining mismatched inputs (a barrier
 * counted with an allreduce, counts that differ): no silent success, at no extra cost. A
 * member whose allgather block was cut to the slot sets SC_CUT: every member's call then
 * ends with RMP_ERR_TRUNCATE, as the software schedules end. */
#define SC_COUNT_MASK 0xffffu  /* members in: up to 65535 */
#define SC_CUT 0x10000u
#define SC_BYTES_SHIFT 17      /* 12 bits: 0 .. SHM_COLL_MAX */
#define SC_KIND_SHIFT 29       /* 2 bits: ofl_coll_t */
#define SC_BAD 0x80000000u
#define SC_LARGE_BYTES 0xfffu  /* the bytes field of a large allgather: more than SHM_COLL_MAX */
_Static_assert(SHM_COLL_MAX < SC_LARGE_BYTES, "the bytes of a call fit their field");
_Static_assert(OFL_NCOLL <= 4, "the collective of a call fits its field");

typedef struct sc_chan {
    _Alignas(64) _Atomic uint64_t arrived; /* at the home: context id << 32 | SC_* word */
    _Alignas(64) atomic_uint done;         /* mine: 0 while I wait, 1 once out holds my result */
    int32_t status;                        /* the call's outcome (a user op can fail) */
    int32_t from;                          /* allgather: the member whose `out` holds it */
    char out[SHM_COLL_MAX];                /* the result: its first 52 bytes share done's line */
    _Alignas(64) char in[SHM_COLL_MAX];    /* my contribution */
    /* Broadcasts I root, two at a time: pub[p] may be written again once its `need` readers
     * all counted themselves in `read` (one line that only readers write) */
    _Alignas(64) atomic_uint read[2];
    uint32_t need[2];
    sc_pub_t pub[2];
    /* The call I last counted myself into (sc_call_t.mark), a line of its own: read only by
     * a peer's hang report, to name the members that have not arrived. */
    _Alignas(64) _Atomic uint64_t entered;
} sc_chan_t;

typedef struct sc_area {
    sc_chan_t chan[SHM_COLL_CHANNELS];
} sc_area_t;

/* The blocks of large allgathers I own on one channel, two calls at a time (by the parity of
 * the call's sequence number): block p (cap bytes from blk + p * cap) may be written again once
 * its `need` readers all counted themselves in read[p]. Only its owner writes need, bytes and
 * the blocks. The segment's area holds sc_area_t, then one of these per channel, each followed
 * by its two blocks (shm_coll_area_bytes). */
typedef struct sc_blocks {
    _Alignas(64) atomic_uint read[2];
    uint32_t need[2];
    uint32_t bytes; /* the block size of my current call: the n-th checks that they agree */
    _Alignas(64) char blk[];
} sc_blocks_t;

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "shm_coll needs lock-free 64-bit atomics");
_Static_assert(sizeof(sc_area_t) % 64 == 0, "the area keeps the segment's lines aligned");
_Static_assert(sizeof(sc_blocks_t) % 64 == 0, "the blocks keep the segment's lines aligned");

enum { SC_QUEUED, SC_ARRIVED, SC_DONE };

typedef struct sc_member {
    sc_chan_t *ch;   /* the call's channel in the member's area */
    sc_blocks_t *bl; /* its large allgather blocks on that channel */
    int world;
} sc_member_t;

typedef struct sc_call {
    struct sc_call *next;  /* the channel's queue */
    shm_coll_t *sc;
    int chan, state, rc;
    uint32_t ctx;
    uint64_t tag;          /* bcast: names this call among every broadcast on the channel */
    uint64_t mark;         /* barrier, allreduce: context and sequence number, never 0 */
    ofl_coll_t coll;
    int rank, size, root;
    void *buf;             /* bcast: the data; allreduce, allgather: the result */
    const void *sbuf;      /* allreduce, allgather: my contribution (NULL: in place, in buf) */
    size_t bytes;          /* allgather: one block */
    bool cut;              /* allgather: my block was cut to the slot */
    bool large;            /* allgather through the members' block buffers */
    bool posted;           /* large: my block is in blk[par] */
    int par;               /* large: the block buffer of this call (sequence number's parity) */
    ofl_reduce_t red;
    int cap;               /* members mem[] has room for */
    sc_member_t mem[];     /* by comm rank */
} sc_call_t;

struct shm_coll {
    ofl_ops_t ops;  /* first: tp->offload points here, and start() finds me from it */
    shm_coll_host_t host;
    tp_t *tp;
    bool enabled;
    size_t block_cap; /* shm_coll_block_cap of the node's ranks */
    sc_call_t *head[SHM_COLL_CHANNELS], *tail[SHM_COLL_CHANNELS]; /* my calls, oldest first */
    sc_call_t *spare; /* the last call ended, kept for the next: no malloc per small call */
};

/* Broadcast (shm_coll_bcast.c). */
int sc_pub_free(const sc_chan_t *root);
int sc_pub_find(const sc_call_t *k, const sc_chan_t *root);
uint64_t sc_bcast_tag(const ofl_comm_t *comm, uint32_t seq);
int sc_bcast_step(sc_call_t *k);

/* The counted calls: barrier, allreduce, allgather (shm_coll_count.c). */
bool sc_blocks_free(const sc_call_t *k);
int sc_arrive(sc_call_t *k);
void sc_blocks_copy(sc_call_t *k, int rc);

#endif
