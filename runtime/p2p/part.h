/* part.h — what the two files of partitioned communication share (MPI-4.0 ch. 4): part.c makes,
 * starts and frees the requests and matches them; part_move.c moves the partitions (Pready,
 * the progress of a round, Parrived).
 *
 * The wire. A pair is one rmp_psend_init and the rmp_precv_init it matches: the k-th psend
 * init of (comm, dest, tag) matches the k-th precv init of (comm, source, tag), whatever the
 * order of the starts, because the psend init sends a HELLO (its partition count, its total
 * bytes, its id) at once and the precv init posts the receive for it, both with a tag made of
 * the user's tag: messages of one tag between two ranks match in order. Every later message
 * of the pair carries the id of the request it goes to (an id of the receiving process) and
 * travels on the communicator's hidden collective context with a negative tag, which no
 * collective and no user message uses. Each round (start .. completion), the receiver posts
 * one receive per wire chunk straight into its buffer, then sends CTS (its id, and an error
 * if the sizes differ); each send chunk goes when all its partitions are ready and the CTS
 * of the round came, whichever is last (so a receive buffer is never written before its
 * start). A chunk is one send partition, or (above PART_MAX_CHUNKS partitions) that many
 * consecutive ones. A receive partition has arrived when every chunk over its bytes landed. */
#ifndef RMP_PART_H
#define RMP_PART_H

#include "core.h"

#define PART_ID_BITS 12
#define PART_MAX_IDS ((1 << PART_ID_BITS) - 1)   /* live partitioned requests per process */
#define PART_CHUNK_BITS 18
#define PART_MAX_CHUNKS ((1 << PART_CHUNK_BITS) - 1) /* the last index is the CTS's */
#define PART_HELLO_TAG(utag) (-3 - (utag))          /* -3 .. -(3 + RMP_TAG_UB) */
#define PART_TAG(id, chunk) (-(RMP_TAG_UB + 4) - ((id) << PART_CHUNK_BITS | (chunk)))
#define PART_CTS_TAG(id) PART_TAG(id, PART_MAX_CHUNKS)

typedef struct part_hello {
    int32_t id, nparts; /* the sender's id and partition count */
    uint64_t bytes;     /* its total */
} part_hello_t;

typedef struct part_cts {
    int32_t id;  /* the receiver's id */
    int32_t err; /* RMP_ERR_TRUNCATE: the totals differ (no data moves) */
} part_cts_t;

typedef struct part {
    bool send;
    comm_t *c;
    int peer, utag, id;
    int peer_id;             /* -1 until the HELLO (receiver) or the first CTS (sender) */
    const dtype_t *dt;
    char *ubuf;              /* the user's buffer */
    char *buf;               /* what goes on the wire: ubuf, or the packed copy (pack) */
    char *pack;              /* non-contiguous types: the packed data (NULL: none) */
    int nparts, count;       /* my partitions, elements of dt in each */
    size_t pbytes, total;    /* bytes of one of my partitions, of all */
    /* wire chunks (the sender's partitions): the sender knows them at init, the receiver
     * from the HELLO */
    int nchunks, per_chunk;  /* chunks; send partitions in each (the last may have fewer) */
    size_t sbytes;           /* bytes of one send partition */
    struct rmp_request **xreq; /* [nchunks] this round's data send or receive, NULL: none */
    int xdone;               /* chunks of this round whose transfer ended */
    int err;                 /* this round's error */
    bool matched;            /* receiver: the HELLO came (nchunks, xreq are set) */
    bool posted;             /* receiver: this round's receives and CTS are out */
    /* sender: partition and chunk readiness, marked by Pready from any thread */
    atomic_uchar *ready;     /* [nparts] */
    atomic_int *chunk_ready; /* [nchunks] partitions ready */
    atomic_uchar *chunk_sent;/* [nchunks] its send was started (or skipped) this round */
    atomic_int cts;          /* the CTS of this round came */
    /* receiver: per partition, chunks still to land, and whether it arrived */
    int *pending;            /* [nparts] */
    atomic_uchar *arrived;   /* [nparts] */
    part_hello_t hello;      /* sent (sender) or received (receiver) */
    part_cts_t cts_msg;      /* received (sender) or sent (receiver) */
    struct rmp_request *hello_req, *cts_req; /* internal */
} part_t;

/* coll_progress of a partitioned request (lock held): one step of its round; the mark of
 * a partitioned request. */
int part_progress(struct rmp_request *r);

static inline size_t part_chunk_off(const part_t *p, int k)
{
    return (size_t)k * (size_t)p->per_chunk * p->sbytes;
}
static inline size_t part_chunk_len(const part_t *p, int k)
{
    size_t end = part_chunk_off(p, k + 1);
    size_t tot = p->sbytes * (size_t)(p->send ? p->nparts : p->hello.nparts);
    return (end < tot ? end : tot) - part_chunk_off(p, k);
}
/* Send partitions in chunk k. */
static inline int part_chunk_parts(const part_t *p, int k, int nsend)
{
    int first = k * p->per_chunk;
    return nsend - first < p->per_chunk ? nsend - first : p->per_chunk;
}

#endif
