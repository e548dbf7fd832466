/* match.h — MPI matching: the posted-receive queue and the unexpected-message queue.
 * Receives match on (context id, source, tag) with wildcards on the receive side; both queues
 * are kept per (context, source) bucket in post/arrival order, which gives MPI's
 * non-overtaking rule while a match looks only at the sender's (or the context's) entries. */
#ifndef RMP_MATCH_H
#define RMP_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "list.h"
#include "transport/transport.h"

struct rmp_request;
struct match_bucket;

/* An arrived message no receive was posted for. */
typedef struct unexp {
    list_t by_src;                  /* in its (ctx, src) bucket, in arrival order */
    list_t by_ctx;                  /* in its context's list (ANY_SOURCE receives look here) */
    struct match_bucket *b_src, *b_ctx; /* the two buckets it is queued in */
    uint32_t ctx;
    int src;            /* comm rank of the sender */
    int tag;
    int src_world;      /* world rank of the sender */
    uint32_t seq;       /* its number from that sender (pkt_match_t.seq): names it to a cancel */
    size_t len;         /* message length in bytes */
    bool rndv;          /* true: an RTS (data still at the sender) */
    bool can_get;       /* rendezvous: rkey valid, get() allowed */
    void *data;         /* eager: a malloc'd copy of the payload (NULL if len == 0) */
    uint64_t sreq;      /* rendezvous: sender's request cookie */
    tp_rkey_t rkey;     /* rendezvous: where to get the data */
} unexp_t;

typedef struct match_queues match_queues_t;

match_queues_t *match_create(void);
/* Frees the queues and every unexpected entry still queued (and its data). */
void match_destroy(match_queues_t *mq);

/* Append a receive request (its ctx_id, peer (comm rank or RMP_ANY_SOURCE) and tag (or
 * RMP_ANY_TAG) are set) to the posted queue. false: out of memory, nothing queued. While
 * queued, it holds its communicator (r->comm, if set: comm_hold), lock held: a freed
 * communicator keeps its context id until its last posted receive leaves the queue (matched,
 * cancelled or failed), so no later communicator's message can match it. */
bool match_post(match_queues_t *mq, struct rmp_request *r);
/* Remove and return the earliest posted receive, specific or wildcard, that an arrival
 * (ctx, src >= 0, tag) matches. */
struct rmp_request *match_take_posted(match_queues_t *mq, uint32_t ctx, int src, int tag);
/* Remove and return the first posted receive naming exactly source `src` in ctx (no
 * wildcard receives): used when that source failed. */
struct rmp_request *match_take_posted_from(match_queues_t *mq, uint32_t ctx, int src);
/* Remove a posted receive (cancel); false if it was not queued (already matched). */
bool match_remove_posted(match_queues_t *mq, struct rmp_request *r);

/* Append an arrival (src >= 0) to the unexpected queue. false: out of memory, not queued. */
bool match_add_unexp(match_queues_t *mq, unexp_t *u);
/* First unexpected message matching (ctx, src|ANY, tag|ANY); removed from the queue if
 * `take`, else left in place (probe). NULL if none. */
unexp_t *match_find_unexp(match_queues_t *mq, uint32_t ctx, int src, int tag, bool take);

/* Remove and return the unexpected message (eager or RTS) that world rank src_world sent with
 * sequence number seq (a send being cancelled), NULL if there is none (matched already, or
 * taken by mprobe). A scan of every queued message: cancelling is rare. */
unexp_t *match_take_unexp_seq(match_queues_t *mq, int src_world, uint32_t seq);

/* Remove and free every unexpected message of context ctx (its communicator was freed:
 * nothing can receive them, and a later communicator may take the id); returns how many. */
size_t match_drop_ctx(match_queues_t *mq, uint32_t ctx);

/* Counts, for tests and leak checks. */
size_t match_posted_count(const match_queues_t *mq);
size_t match_unexp_count(const match_queues_t *mq);

#endif
