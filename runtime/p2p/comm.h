/* comm.h — the communicator as the runtime knows it (comm.c owns the table): comm_t, its
 * creation over world ranks with a context id, and the holds that keep a freed one alive
 * while operations on it are pending. Making communicators for programs is comm/'s. */
#ifndef RMP_COMM_H
#define RMP_COMM_H

#include <stdbool.h>
#include <stdint.h>

#include "rmp.h"

typedef struct rmp_ctx rmp_ctx_t;

typedef struct comm {
    bool in_use;
    rmp_comm_t handle;
    uint32_t ctx_id;      /* p2p context; ctx_id + 1 is the collective context */
    int rank, size;
    int *world;           /* comm rank -> world rank */
    uint32_t coll_seq;    /* collective call counter: tags for internal traffic */
    void *offload;        /* the offload backend's state for this communicator (offload.h) */
    uint32_t offload_said; /* bit k: the offload choice for collective k was reported */
    void *topo;           /* its Cartesian or graph topology (comm/topo.c), one block
                           * freed with the communicator; NULL: none */
    int busy;             /* collectives in flight, posted receives and persistent requests
                           * on it (comm_hold) */
    /* Freed by the user while busy: its handle is gone (comm_get says so), and the last
     * holder to let go calls this (lock held) to release it for good. NULL: not freed. */
    void (*freed)(struct comm *c);
    /* An intercommunicator (lworld != NULL; comm/inter.c): size and world above are
     * then the REMOTE group, the ranks point-to-point names (so the p2p paths serve it
     * unchanged), rank is mine in the local group (what a message carries as its source),
     * lsize and lworld the local group. bridge: a hidden intracommunicator over both groups
     * (lfirst: mine first) that owns the context pair (only its collective context is used,
     * the intercommunicator's p2p only its p2p one); the intercommunicator collectives run
     * their schedules on it. */
    int lsize;
    int *lworld;
    rmp_comm_t bridge;
    bool lfirst;
    struct bsend_buf *bsend; /* its own buffer for buffered sends (bsend.c), or NULL */
    int session; /* the session it derives from (rmp_comm_create_from_group), 0: none */
    uint64_t msgs_sent, bytes_sent; /* sent on it, collectives' too (rmp_comm_stats) */
    bool dyn; /* names a dynamic peer (world id >= size): no offload backend serves it */
} comm_t;

/* Is handle h an intercommunicator? The one test the collectives' entries make before their
 * intracommunicator paths (invalid handles: false, the intracommunicator checks say why). */
static inline bool comm_is_inter(rmp_comm_t h);

/* comm_get(h), the communicator for a handle: inline in ctx.h (it reads the context). */
/* (comm_create takes the lock itself.)
 * New communicator over the given world ranks (size n, my position `rank`) with context id
 * ctx_id; returns its handle in *out. */
int comm_create(const int *world, int n, int rank, uint32_t ctx_id, rmp_comm_t *out);
/* Lock held: the memory of c goes, now (rmp_comm_free decides when). */
void comm_release_locked(comm_t *c);
/* Lock held: a nonblocking collective starts, or ends, on c; a receive enters or leaves the
 * posted queue (match.c); a persistent request is made or freed (persist.c, req_free). MPI
 * lets a program free a communicator with operations pending, which then complete normally:
 * the end of the last one runs c->freed if it was freed meanwhile. */
void comm_hold(comm_t *c);
void comm_unhold(comm_t *c);
int comm_init_builtin(rmp_ctx_t *ctx); /* WORLD and SELF, at init */
void comm_fini(rmp_ctx_t *ctx);
/* Comm rank of world rank w in c, or -1. */
int comm_rank_of_world(const comm_t *c, int w);

/* A communicator made from parent (dup, split, create, create_group) derives from the same
 * session (lock NOT held). */
void comm_inherit_session(rmp_comm_t parent, rmp_comm_t child);

#endif
