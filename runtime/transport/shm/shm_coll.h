/* shm_coll.h — small barrier, broadcast, allreduce and allgather through memory the ranks of
 * one node share: the shm transport's offload table (offload.h). Each rank's segment holds a fixed area
 * of SHM_COLL_CHANNELS channels; a communicator uses the channel of its context pair. Every
 * member posts its contribution in its own channel and counts itself in at the channel of the
 * communicator's rank 0; the last to arrive combines and writes the result, with its flag on
 * the same cache line, into every member's channel, then wakes those that sleep (shm_wake.h);
 * an allgather's last writes the blocks once, in its own channel, where the others read them;
 * a larger allgather (blocks up to SHM_COLL_BLOCK_MAX) leaves each block in its owner's block
 * buffer, from which every member copies it once.
 * A broadcast's root publishes into its own channel and returns; members copy it out. A rank
 * runs once per call: no rounds of messages, no rank waiting for another's turn on a core. shm_coll.c has the protocol; shm.c lays the areas out and wakes the sleepers. */
#ifndef RMP_SHM_COLL_H
#define RMP_SHM_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "transport/transport.h"

#define SHM_COLL_CHANNELS 8     /* communicators (context pairs 0..7) with a channel */
#define SHM_COLL_MAX 2048       /* bytes of a broadcast, allreduce or allgather (all blocks) the
                                 * channel carries */
#define SHM_COLL_BLOCK_MAX (64 << 10) /* an allgather block that does not fit the channel: each
                                 * member posts it once in a block buffer of its own (two per
                                 * channel) and copies everyone's out of theirs; with more than
                                 * 16 ranks on the node the buffers shrink (shm_coll_block_cap) */

typedef struct shm_coll shm_coll_t;

/* What the shm transport lends the backend (it owns the segments and the sleepers). */
typedef struct shm_coll_host {
    /* The area in world rank w's segment: NULL unless w is a rank of this node whose segment
     * is mapped and whom the core reaches through shm (or me). */
    void *(*area)(tp_t *tp, int w);
    /* Wake world rank w if it announced a sleep (the caller fenced after its stores). */
    void (*wake)(tp_t *tp, int w);
} shm_coll_host_t;

/* The largest allgather block the block buffers carry with nlocal ranks on the node (every
 * rank computes the same): SHM_COLL_BLOCK_MAX up to 16 ranks, then what keeps the node's block
 * buffers within 16 MiB (a multiple of 64 bytes, 0 at 2^15 ranks and more). */
size_t shm_coll_block_cap(int nlocal);

/* Bytes of the area in every segment with nlocal ranks on the node (a multiple of 64), zeroed
 * pages at creation. */
size_t shm_coll_area_bytes(int nlocal);

/* The backend of one shm transport, nlocal ranks on the node. enabled: RMP_SHM_COLL. NULL:
 * out of memory. */
shm_coll_t *shm_coll_open(tp_t *tp, bool enabled, int nlocal, const shm_coll_host_t *host);
void shm_coll_close(shm_coll_t *sc);
/* Its offload table, for tp->offload (valid until close). */
const ofl_ops_t *shm_coll_ops(const shm_coll_t *sc);
/* A call of mine waits for a result that is now there (for the look after a sleep is
 * announced: shm.c's shm_pending), or for a channel another communicator holds. */
bool shm_coll_pending(const shm_coll_t *sc);

#endif
