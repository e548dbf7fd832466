/* offload.h — the optional second ops table of a transport: collectives that the network
 * adapter runs (a UD multicast broadcast, barrier and small allreduce on RDMA atomics; a
 * cross-channel backend would plug in here too), or that the ranks of one node run through
 * memory they share (shm_coll.c). The collective layer (collectives/offload.c)
 * asks start() before it builds a software schedule; the backend either starts the call or says
 * why not, and the software schedule runs instead. A backend that cannot do something says so
 * there, and only there. Depends on nothing of the runtime above the transports. */
#ifndef RMP_OFFLOAD_H
#define RMP_OFFLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp;

typedef enum { OFL_BCAST = 0, OFL_BARRIER, OFL_ALLREDUCE, OFL_ALLGATHER, OFL_NCOLL } ofl_coll_t;

/* Reduction of an allreduce, in the adapter's terms (OFL_OP_OTHER: anything else). */
typedef enum { OFL_OP_SUM = 0, OFL_OP_MIN, OFL_OP_MAX, OFL_OP_BAND, OFL_OP_BOR, OFL_OP_OTHER }
    ofl_op_t;
/* Element type of an allreduce (OFL_ELEM_OTHER: floating point, bytes, ...). */
typedef enum { OFL_I32 = 0, OFL_U32, OFL_I64, OFL_U64, OFL_ELEM_OTHER } ofl_elem_t;

/* The reduction of an allreduce, for a backend that combines in host memory (shm): inout =
 * in (op) inout over one rank's whole contribution (ofl_args_t.bytes), as the collective layer
 * defines it for this call's op and type (user ops included). Returns RMP_SUCCESS or an error
 * of the op. Copied by value into the backend's call: valid until the call finishes. */
typedef struct ofl_reduce {
    int (*fn)(const struct ofl_reduce *r, const void *in, void *inout);
    int op;              /* the call's op (rmp_op_t), for fn */
    const void *dt;      /* the call's type, for fn */
    size_t n;            /* elements, as fn counts them */
} ofl_reduce_t;

/* A communicator as a backend sees it. */
typedef struct ofl_comm {
    uint32_t ctx_id;   /* the communicator's collective context id: unique in the job */
    int rank, size;    /* my position, the number of members */
    const int *world;  /* comm rank -> world rank */
    void **state;      /* the backend's own per-communicator state (NULL at first); dropped in
                        * comm_free */
} ofl_comm_t;

/* One collective call. Every rank of the communicator passes the same coll, seq, bytes, root,
 * count, op and elem (a correct program does): start() must decide from those and from
 * job-wide facts only, so that every rank makes the same choice. */
typedef struct ofl_args {
    ofl_coll_t coll;
    uint32_t seq;      /* the communicator's collective sequence number of this call */
    /* OFL_BCAST: bytes of packed data at buf, from root */
    void *buf;
    size_t bytes;
    int root;
    /* OFL_ALLREDUCE: count elements of my contribution at sbuf (NULL: in place, rbuf holds
     * it; else sbuf never overlaps rbuf) reduced over the communicator into rbuf */
    const void *sbuf;
    void *rbuf;
    int count;
    ofl_op_t op;
    ofl_elem_t elem;
    /* OFL_ALLREDUCE: bytes is my contribution's packed size, reduce how to combine two */
    ofl_reduce_t reduce;
    /* OFL_ALLGATHER: my block of bytes (packed) at sbuf (NULL: in place, it is block `rank` of
     * rbuf), every member's block in rank order into rbuf (size x bytes). bytes is the slot
     * size, the same on every rank; cut: my block was longer and is cut to the slot, which
     * ends every member's call with RMP_ERR_TRUNCATE (the blocks still arrive). */
    bool cut;
} ofl_args_t;

typedef struct ofl_req ofl_req_t; /* a backend's in-flight call */

typedef struct ofl_ops {
    const char *name; /* "mcast", "atomics", ...: named in RMP_VERBOSE lines */
    const char *where; /* "on the adapter", "in shared memory": ditto */
    /* RMP_SUCCESS: the call started (*req); RMP_ERR_NOT_SUPPORTED: not by this backend, with a
     * one-line reason in why, or none (why[0] = 0) when the communicator is not one this
     * backend serves at all (the caller runs the software schedule, and RMP_VERBOSE gives the
     * other backends' reasons); another RMP_ERR_*: the call failed. The runtime lock is held. */
    int (*start)(struct tp *tp, const ofl_comm_t *comm, const ofl_args_t *a, ofl_req_t **req,
                 char *why, size_t len);
    /* Advance (lock held): RMP_INPROGRESS (2), or the call's outcome (RMP_SUCCESS or an error),
     * after which the core calls finish(). */
    int (*progress)(ofl_req_t *req);
    /* Release the call (once, after progress returned its outcome). */
    void (*finish)(ofl_req_t *req);
    /* The communicator is being freed (lock held): drop *comm->state. */
    void (*comm_free)(struct tp *tp, const ofl_comm_t *comm);
    /* Optional (NULL: none): one line on what the call waits for, in the communicator's
     * ranks (the hang report; lock held). */
    void (*describe)(ofl_req_t *req, char *buf, size_t len);
} ofl_ops_t;

#endif
