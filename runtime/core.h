/* core.h — the runtime's internal view: the one context struct, communicators, requests,
 * and the internal calls that collectives/ and transports build on. Status codes are the
 * public RMP_* ones plus the two internal outcomes below; never exposed to users. */
#ifndef RMP_CORE_H
#define RMP_CORE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "event.h"
#include "hpool.h"
#include "knobs.h"
#include "list.h"
#include "log.h"
#include "prof.h"
#include "rmp.h"
#include "stats.h"
#include "transport/transport.h"

/* RMP_AGAIN and RMP_INPROGRESS, the internal outcomes, come with transport/transport.h. */

#define RMP_MAX_TRANSPORTS 4
#define RMP_MAX_COMMS 4096
#define SESSION_MAX 64 /* live sessions at once: ctx.session_live's bits */
/* Peers gained after init (dynpeer.c): world ids size .. size + RMP_MAX_DYN_PEERS - 1. */
#define RMP_MAX_DYN_PEERS 256
#define RMP_DYN_ADDR_MAX 108 /* an endpoint's address: a socket path (sun_path) */

typedef struct rmp_ctx rmp_ctx_t;

/* ---- Datatypes (datatype.c) ---- */
/* The builtin types, whose values double as their handles. The pair types (MINLOC/MAXLOC)
 * are reduced as records: value then int, packed without padding (their base size). */
typedef enum {
    DT_NONE = 0, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32,
    DT_UINT64, DT_FLOAT, DT_DOUBLE, DT_BYTE, DT_2INT, DT_FLOAT_INT, DT_DOUBLE_INT, DT_LONG_INT,
    DT_SHORT_INT,
    /* issue 20, predefined types: long double, wchar_t, C bool, the C complex types, the long
     * double pair, Fortran LOGICAL and the Fortran pairs (both members REAL, DOUBLE PRECISION) */
    DT_LONG_DOUBLE, DT_WCHAR, DT_C_BOOL, DT_C_FLOAT_COMPLEX, DT_C_DOUBLE_COMPLEX,
    DT_C_LONG_DOUBLE_COMPLEX, DT_LONG_DOUBLE_INT, DT_LOGICAL, DT_2REAL, DT_2DOUBLE,
    DT_PACKED, /* issue 20: MPI_PACKED, bytes of a packed buffer (rmp_pack) */
    DT_NBUILTIN
} dt_base_t;

/* A builtin element's form in external32 (type_pack.c), whose sizes are the standard's for
 * the type's name (MPI-3.1 13.5.2): EXT_NATIVE its own bytes, big-endian; EXT_INT4 and
 * EXT_UINT4 a long or unsigned long of 8 bytes (LP64) in 4; EXT_WCHAR2 a 4-byte wchar_t in 2;
 * EXT_QUAD a long double that is not IEEE binary128 (x87's 80 bits) as binary128, and
 * EXT_QUAD2 two of them (long double complex). */
typedef enum { EXT_NATIVE = 0, EXT_INT4, EXT_UINT4, EXT_WCHAR2, EXT_QUAD, EXT_QUAD2 } dt_ext_t;

/* A block of a struct-like type: count elements of old at disp bytes from the origin. */
typedef struct dt_block {
    ptrdiff_t disp;
    int count;
    rmp_datatype_t old;
} dt_block_t;

typedef struct dtype {
    bool in_use, committed, builtin;
    dt_base_t base;       /* the one builtin type every element is made of; DT_NONE: mixed */
    dt_ext_t ext;         /* a builtin's external32 form; derived types: EXT_NATIVE (their
                           * elements say) */
    size_t size;          /* bytes of data in one element */
    size_t extent;        /* bytes from one element to the next */
    ptrdiff_t lb;         /* lower bound: where the element's span starts, from its origin */
    ptrdiff_t true_lb, true_ub; /* where its data really lies, from the origin (a resized
                                 * type's data may reach outside [lb, lb + extent)) */
    bool contig;          /* lb == 0, size == extent and no gaps: memcpy is enough */
    /* The strictest C alignment of the builtins it is made of; a struct type's extent is
     * rounded up to it (MPI-3.1 4.1.6, as a C compiler pads a struct). sticky: its bounds
     * were set by resized (at any depth), which pads nothing, as MPICH and Open MPI do. */
    unsigned short align;
    bool sticky;
    /* What keeps a derived type's slot after rmp_type_free (type_slot.c): the types built on
     * it or naming it in their record, and the operations in flight on it (dtype_hold). The
     * slot goes back to the pool when it is freed and this is 0. */
    int refs;
    /* A negative extent (resized to one, or built so, as MPI allows): extent is then 0 and
     * neg_extent the real one. Such a type is usable one element at a time (count <= 1:
     * dtype_bytes refuses more, every step by extent would go the wrong way); a type built
     * on it places each of its elements in a block of its own (type_blocks.c), so it may be
     * used in any count. 0: not negative. */
    ptrdiff_t neg_extent;
    /* vector kind (nblocks == 0): count blocks of blocklen `old` elements, block starts
     * stride*extent(old) apart */
    int count, blocklen, stride;
    rmp_datatype_t old;
    /* block kind (indexed, hindexed, struct, resized, the pair builtins): nblocks blocks */
    int nblocks;
    dt_block_t *blocks;
    struct dt_env *env;   /* how it was built (type_env.h): rmp_type_get_contents; NULL for
                           * builtins */
} dtype_t;

/* dtype_get(h, need_commit), the type of a handle: defined inline below rmp_ctx. */
size_t dtype_base_size(dt_base_t b);
/* `count` elements of t as one buffer: *bytes gets the packed size. RMP_ERR_COUNT if the data
 * (count * size) or the memory it spans (count * extent) exceeds PTRDIFF_MAX: such a buffer
 * cannot exist, and every later product (pack, pointer steps) must not wrap. Inline: it is
 * on every send and receive (a contiguous type has extent == size: one product). */
static inline int dtype_bytes(const dtype_t *t, size_t count, size_t *bytes)
{
    size_t size, span;
    if (t->neg_extent && count > 1)
        return RMP_ERR_COUNT;
    if (__builtin_mul_overflow(count, t->size, &size) || size > PTRDIFF_MAX)
        return RMP_ERR_COUNT;
    if (!t->contig && (__builtin_mul_overflow(count, t->extent, &span) || span > PTRDIFF_MAX))
        return RMP_ERR_COUNT;
    *bytes = size;
    return RMP_SUCCESS;
}
/* A block of count > 0 elements of t at buf + off bytes: a real buffer (not RMP_IN_PLACE), or
 * NULL (RMP_BOTTOM) when the type's data, with the block's offset, lies at absolute addresses
 * (rmp_get_address), all above the first page, which is never mapped. Like MPICH, BOTTOM is
 * refused only where no type map could make it valid. */
static inline bool dtype_block_ok(const void *buf, ptrdiff_t off, const dtype_t *t)
{
    ptrdiff_t at;
    if (buf)
        return buf != RMP_IN_PLACE;
    return t->size == 0 || (!__builtin_add_overflow(off, t->true_lb, &at) && at >= 4096);
}
static inline bool dtype_buf_ok(const void *buf, const dtype_t *t)
{
    return dtype_block_ok(buf, 0, t);
}
/* Pack count elements at src into dst (size*count bytes), and the reverse. `bytes` caps how
 * much is unpacked (a truncated message). */
void dtype_pack(const dtype_t *t, int count, const void *src, void *dst);
void dtype_unpack(const dtype_t *t, int count, const void *src, size_t bytes, void *dst);
/* A receive that will unpack through t later holds it (delta +1) until then (-1), so that a
 * type freed meanwhile keeps its slot (type_slot.c; lock held). */
void dtype_hold(const dtype_t *t, int delta);

/* ---- Reduction ops (op.c) ---- */
/* RMP_SUCCESS, RMP_ERR_OP (bad op or op undefined for the base type). */
int op_check(rmp_op_t op, dt_base_t base); /* op_user.c: user ops fit every type */
int op_builtin_check(rmp_op_t op, dt_base_t base); /* op.c: the builtin ops' table */
/* inout[i] = in[i] (op) inout[i] for n base elements. */
void op_reduce(rmp_op_t op, dt_base_t base, const void *in, void *inout, size_t n);
/* out = in op in2, elementwise; out must not overlap either input. */
void op_reduce3(rmp_op_t op, dt_base_t base, const void *in, const void *in2, void *out,
                size_t n);

/* The reduction steps of the schedules (op_user.c): a builtin op over n base elements of
 * dt->base, a user op (rmp_op_create) over n elements of dt. RMP_SUCCESS, or RMP_ERR_NO_MEM
 * when a user op on a non-contiguous type found no memory to unpack into. */
int op_apply(rmp_op_t op, const dtype_t *dt, const void *in, void *inout, size_t n);
int op_apply3(rmp_op_t op, const dtype_t *dt, const void *in, const void *in2, void *out,
              size_t n);
bool op_is_user(rmp_op_t op);
bool op_commutes(rmp_op_t op); /* builtins do; a user op as created */
/* A collective in flight that applies op (a user op) holds it, so that rmp_op_free meanwhile
 * does not take it away (lock held; builtins: nothing). */
void op_hold(rmp_op_t op);
void op_unhold(rmp_op_t op);

/* ---- Communicators (comm.c) ---- */
typedef struct comm {
    bool in_use;
    rmp_comm_t handle;
    uint32_t ctx_id;      /* p2p context; ctx_id + 1 is the collective context */
    int rank, size;
    int *world;           /* comm rank -> world rank */
    uint32_t coll_seq;    /* collective call counter: tags for internal traffic */
    void *offload;        /* the offload backend's state for this communicator (offload.h) */
    uint32_t offload_said; /* bit k: the offload choice for collective k was reported */
    void *topo;           /* its Cartesian or graph topology (collectives/topo.c), one block
                           * freed with the communicator; NULL: none */
    int busy;             /* collectives in flight, posted receives and persistent requests
                           * on it (comm_hold) */
    /* Freed by the user while busy: its handle is gone (comm_get says so), and the last
     * holder to let go calls this (lock held) to release it for good. NULL: not freed. */
    void (*freed)(struct comm *c);
    /* An intercommunicator (lworld != NULL; collectives/inter.c): size and world above are
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

/* comm_get(h), the communicator for a handle: defined inline below rmp_ctx. */
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

/* ---- Requests (request.c) ---- */
/* REQ_MSG: not an operation but a message taken out of matching by rmp_mprobe (mprobe.c),
 * which only carries it (msg) to rmp_mrecv; never waited for. */
/* REQ_GREQ: a generalized request (greq.c): completed by the program, its callbacks at greq. */
typedef enum { REQ_SEND = 1, REQ_RECV, REQ_COLL, REQ_MSG, REQ_GREQ } req_kind_t;

typedef enum {
    RS_NONE = 0,
    RS_RNDV_WAIT_FIN,   /* send: RTS sent, waiting for FIN or CTS */
    RS_STREAM,          /* send: streaming DATA after a CTS */
    RS_RNDV_GET,        /* recv: get in progress */
    RS_RECV_DATA        /* recv: CTS sent, DATA arriving */
} req_state_t;

/* A request lives in a slot of the request table (request.c), which never moves and never
 * gives memory back, so a slot's generation can always be read. The public handle
 * (rmp_request_t) is not a pointer but (index, generation) packed into a pointer-sized value
 * (req_handle): a handle whose slot was freed or reused since, or that never came from rmp,
 * fails req_lookup and the call returns RMP_ERR_REQUEST instead of touching another request.
 * Inside the runtime (and collectives/) requests are plain struct pointers. */
struct rmp_request {
    _Atomic uint32_t gen;  /* odd while allocated; bumped at alloc and at free */
    uint32_t idx;          /* slot index in the table (fixed for the slot's life) */
    /* everything from `kind` on is zeroed by req_alloc */
    req_kind_t kind;
    uint64_t listed;       /* the array check that saw it last (req_list_epoch): duplicates */
    atomic_int done;
    rmp_status_t status;
    struct rmp_request *next; /* free lists (request.c) */
    list_t link;           /* on one queue at a time: posted (match.c), the context's
                            * rndv_active or coll_active */
    uint64_t match_seq;    /* posted receive: its place in posting order (match.c); 0 if not */

    /* p2p */
    uint32_t ctx_id;
    int peer;              /* comm rank (RMP_ANY_SOURCE allowed for recv) */
    int peer_world;        /* world rank of the peer (-1 unknown) */
    int tag;
    comm_t *comm;
    void *buf;             /* contiguous data: user buffer or pack buffer */
    size_t bytes;          /* send: message length; recv: capacity */
    void *user_buf;        /* noncontiguous: where to unpack on completion */
    const dtype_t *dt;
    int count;
    uint32_t msg_seq;      /* send: its message's sequence number to the peer (peer_t.send_seq),
                            * which names the message to the receiver when it is cancelled */
    void *tmp;             /* pack buffer to free */
    bool sync;             /* send: synchronous (rendezvous whatever the size: it completes
                            * only once the receiver matched) */
    bool persistent;       /* made by rmp_*_init (persist.c): completion leaves it inactive,
                            * only rmp_request_free frees it */
    bool active;           /* persistent: started and not yet completed by a wait/test */
    bool orphan;           /* rmp_request_free'd while active: req_complete frees it */
    uint8_t pmode;         /* persistent send: its mode (persist.c) */
    /* send cancellation (send_cancel.c): the receiver's answer to a CANCEL is awaited (the
     * request is not done until it came, even if the send itself completed: cancel_held) */
    bool cancel_wait, cancel_held;
    void *msg;             /* REQ_MSG: the unexp_t taken from matching (mprobe.c) */
    void *greq;            /* REQ_GREQ: its callbacks and extra state (greq.c) */

    /* protocols */
    req_state_t state;
    void *memh;            /* send: registration for rendezvous */
    uint64_t remote_req;   /* cookie of the peer's request (sreq or rreq) */
    size_t xfer_len;       /* bytes to move (min(msg, capacity)) */
    size_t xfer_done;      /* bytes moved so far */

    /* collectives (collectives/): a schedule advanced by progress_poll while the request is
     * on the context's coll_active list (linked through `link`). coll_progress returns
     * the events it handled; when the schedule ends it calls progress_coll_remove and then
     * req_complete, and never touches the request again. */
    void *coll;
    int (*coll_progress)(struct rmp_request *r);
    /* A persistent collective (collectives/persist_coll.c): rmp_start calls it, lock NOT
     * held, to build and post its schedule again (its arguments live in tmp). */
    int (*coll_start)(struct rmp_request *r);
    /* (A partitioned request, runtime/part.c, is such a request with its own coll_start.) */
    /* A REQ_COLL request made of point-to-point operations (rmp_isendrecv): unlike a
     * collective's, rmp_request_free may free it (it completes in the background). */
    bool freeable;
    /* A collective: one line on what it waits for (runtime/hang.c's report), NULL: none. */
    void (*coll_describe)(struct rmp_request *r, char *buf, size_t len);
};

/* Generalized requests (greq.c), lock NOT held (their callbacks may call rmp): hand out a
 * completed one's status through its query callback and free it (wait.c's reap); free a
 * completed one (rmp_request_free); run its cancel callback (rmp_cancel). */
int greq_reap(struct rmp_request *r, rmp_status_t *status);
/* A completed generalized request's status from its query callback, the request kept. */
int greq_query(struct rmp_request *r, rmp_status_t *status);
void greq_free_done(struct rmp_request *r);
void greq_cancel(struct rmp_request *r);

/* Partitioned requests (part.c): is r one; its state goes (lock held, r inactive), before
 * req_free at rmp_request_free. */
bool part_is(const struct rmp_request *r);
void part_release_locked(struct rmp_request *r);

/* A fresh request (its own slot; NULL when out of memory or past REQ_MAX_LIVE live ones). */
struct rmp_request *req_alloc(req_kind_t kind);
/* A value no other call got, for marking the requests of one array (wait.c, persist.c): an
 * entry whose request already carries it is listed twice. Never 0 (a fresh request's). */
uint64_t req_list_epoch(void);
/* Give the slot back; every handle to it becomes invalid. */
void req_free(struct rmp_request *r);
/* Mark complete with an error code (status.error); wakes waiting threads. */
void req_complete(struct rmp_request *r, int err);
/* A send's cancel was answered, or never will be (send_cancel.c, a failed peer): r leaves the
 * context's list of pending cancels (c->cancels; lock held) and is done now if its send is
 * over, else when it ends. */
void req_cancel_settle(rmp_ctx_t *c, struct rmp_request *r);
/* A receive got all its data (or failed): unpack into the user's buffer if needed, complete
 * (with its truncation error, if any, when err is RMP_SUCCESS). */
void req_recv_finish(struct rmp_request *r, int err);

/* Handle layout: bit 0 always set (an aligned pointer, e.g. a wild one, never has it, and
 * RMP_REQUEST_NULL is 0), the slot index above it, the generation in the high bits. */
#define REQ_CHUNK_BITS 10      /* slots per chunk: 1024 */
#define REQ_DIR_BITS 15        /* chunks: 32768, i.e. 32M live requests at most */
#define REQ_MAX_LIVE (1u << (REQ_CHUNK_BITS + REQ_DIR_BITS))
#if UINTPTR_MAX > 0xffffffffu
#define REQ_GEN_SHIFT 32       /* 32 generation bits: a slot reused 2^31 times wraps */
#else
#define REQ_GEN_SHIFT 26       /* 32-bit pointers: 6 generation bits */
#endif
#define REQ_GEN_MASK ((uint32_t)(UINTPTR_MAX >> REQ_GEN_SHIFT))

/* The table's chunk directory (request.c): chunk k holds slots [k << REQ_CHUNK_BITS, ...). */
extern struct rmp_request *_Atomic req_dir[1u << REQ_DIR_BITS];

static inline rmp_request_t req_handle(struct rmp_request *r)
{
    uintptr_t gen = atomic_load_explicit(&r->gen, memory_order_relaxed) & REQ_GEN_MASK;
    return (rmp_request_t)(gen << REQ_GEN_SHIFT | (uintptr_t)r->idx << 1 | 1u);
}

/* The live request a handle names, or NULL (RMP_REQUEST_NULL, a value rmp never handed out,
 * a freed request, or a slot reused since). An array index and a compare, no lock: safe from
 * any thread, as the table never moves and generations are atomic. */
static inline struct rmp_request *req_lookup(rmp_request_t h)
{
    uintptr_t v = (uintptr_t)h;
    uint32_t gen = (uint32_t)(v >> REQ_GEN_SHIFT);
    uintptr_t idx = (v >> 1) & ((1u << (REQ_GEN_SHIFT - 1)) - 1);
    if (!(v & 1u) || !(gen & 1u) || idx >= REQ_MAX_LIVE)
        return NULL;
    struct rmp_request *chunk =
        atomic_load_explicit(&req_dir[idx >> REQ_CHUNK_BITS], memory_order_acquire);
    if (!chunk)
        return NULL;
    struct rmp_request *r = &chunk[idx & ((1u << REQ_CHUNK_BITS) - 1)];
    uint32_t now = atomic_load_explicit(&r->gen, memory_order_acquire) & REQ_GEN_MASK;
    return now == gen ? r : NULL;
}

/* ---- Internal point-to-point (p2p.c, protocol.c): used by collectives/ ---- */
/* These hand out the request itself (*req), not a public handle: req_handle makes one.
 * The arguments are trusted (the public calls check them first).
 * ctxoff 0: the comm's p2p context; 1: its collective context. Lock NOT held by caller. */
int p2p_isend(comm_t *c, int ctxoff, const void *buf, int count, rmp_datatype_t dt, int dst,
              int tag, struct rmp_request **req);
int p2p_irecv(comm_t *c, int ctxoff, void *buf, int count, rmp_datatype_t dt, int src, int tag,
              struct rmp_request **req);
/* Byte variants (no datatype). */
int p2p_isend_bytes(comm_t *c, int ctxoff, const void *buf, size_t bytes, int dst, int tag,
                    struct rmp_request **req);
int p2p_irecv_bytes(comm_t *c, int ctxoff, void *buf, size_t bytes, int src, int tag,
                    struct rmp_request **req);
/* The same with the runtime lock HELD by the caller (the schedule engine posts from inside
 * progress), byte buffers only. */
int p2p_isend_locked(comm_t *c, int ctxoff, const void *buf, size_t bytes, int dst, int tag,
                     struct rmp_request **req);
int p2p_irecv_locked(comm_t *c, int ctxoff, void *buf, size_t bytes, int src, int tag,
                     struct rmp_request **req);
/* Cancel a posted, unmatched receive (lock held): true if it was cancelled (it completes with
 * status.cancelled set); false for sends, matched or completed receives. */
bool p2p_cancel_locked(struct rmp_request *r);

/* ---- Per-peer state ---- */
typedef struct outq_item outq_item_t; /* queued outgoing packet (protocol.c) */

typedef struct peer {
    tp_t *tp;            /* transport reaching this peer (NULL: unreachable) */
    bool connected;
    int node;            /* node id (PMIx) */
    uint32_t send_seq;   /* next sequence number to this peer */
    uint32_t recv_seq;   /* next expected from this peer */
    outq_item_t *outq_head, *outq_tail; /* packets waiting for transport resources */
    bool no_get;         /* get() was refused once: stream rendezvous data instead */
    int failed;          /* 0, or the error every new operation with this peer gets */
    bool garbled;        /* sent a malformed packet: what it sends is dropped */
    /* Messages (eager or RTS) and their bytes, to and from it, and how many of those sent
     * went by rendezvous: on a line the message path touches anyway; stats.c sums them by
     * transport, and RMP_PROFILE's matrix is made of them (prof.c: one set of counters). */
    uint64_t msgs_sent, bytes_sent, msgs_recvd, bytes_recvd;
    uint64_t rndv_sent, rndv_bytes;
} peer_t;

/* ---- Configuration (init.c, from the RMP_* knobs validated by knobs.c) ---- */
typedef struct config {
    int verbose;           /* RMP_VERBOSE */
    long eager_limit;      /* RMP_EAGER_LIMIT (-1: transport default) */
    long spin_us;          /* RMP_SPIN_US (-1: automatic) */
    char transport[32];    /* RMP_TRANSPORT: "" (auto), "shm", "verbs" */
    int use_cma;           /* RMP_CMA (default 1): 0 forces copy through the rings */
    size_t shm_ring_bytes; /* RMP_SHM_RING_KB * 1024 */
    bool quiet_failure;    /* rmp_init fails for a reason another rank explains */
    long hang_report_s;    /* RMP_HANG_REPORT: seconds without progress before a report; 0 off */
    bool check_coll;       /* RMP_CHECK_COLLECTIVES (collectives/coll_check.c) */
    long finalize_timeout_s; /* RMP_FINALIZE_TIMEOUT: 0, no bound */
    bool explained;        /* why rmp_init fails was printed already (a refused RMP_* value,
                            * rings the node cannot hold): no generic line after it */
    knob_val_t knobs[KNOB_COUNT]; /* every knob as validated at rmp_init (knobs.c) */
} config_t;

/* ---- The progress thread (progress_thread.c, RMP_PROGRESS_THREAD=1) ---- */
typedef struct progthr {
    bool on;                 /* the thread runs (started at init, joined at finalize/abort) */
    bool stop;               /* asks it to leave its loop (lock held) */
    bool idle;               /* asleep on wake_fd alone, no transport armed (lock held): nothing
                              * to move, or an application thread is progressing itself */
    int wake_fd;             /* eventfd it sleeps on besides the transports' (-1: none) */
    pthread_t tid;
} progthr_t;

/* ---- The one runtime context ---- */
typedef struct match_queues match_queues_t; /* match.c */
struct pkt_rma;   /* a one-sided packet's header (protocol.h) */
struct rma_early; /* one kept for a handler not installed yet (rma_hook.c) */

struct rmp_ctx {
    atomic_int state;        /* 0 never, 1 initialized, 2 finalized, 3 a child forked after 1 */
    int thread_level;
    pthread_mutex_t lock;    /* the runtime lock (taken only at RMP_THREAD_MULTIPLE) */
    bool locking;            /* RMP_THREAD_MULTIPLE, or a progress thread runs */
    pthread_cond_t cond;     /* waiters that are not the blocking thread */
    bool blocker;            /* a thread is blocked in poll() for everyone */
    tp_t *blocker_alone;     /* ... in this transport's wait_alone (NULL: in poll()) */
    const void *blocker_on;  /* ... waiting for this done flag, PROGRESS_ON_ANY, or NULL
                              * (the progress thread: for nothing a completion gives) */
    bool kicked;             /* progress_kick_for woke it since the sleep began */
    int kick_fd;             /* RMP_THREAD_MULTIPLE: an eventfd in that poll() (else -1) */
    int waiters;
    int progressing;         /* threads in progress_wait_until: the progress thread steps aside */

    /* job */
    int rank, size;          /* world */
    char nspace[256];        /* PMIx namespace ("singleton" without a launcher) */
    bool singleton;
    int local_rank, local_size; /* on my node */
    int *local_ranks;        /* world ranks on my node, in local-rank order */
    int *node;               /* [size] node id of each world rank (boot_node_map) */
    int ncores;              /* online CPUs */
    bool oversubscribed;     /* more ranks on the node than cores */
    double busy_until;       /* progress.c: until then (us, monotonic) waits sleep at once */
    long nivcsw_seen;        /* progress.c: involuntary switches at the last slow yield */
    struct {                 /* progress_test.c: the current run of test calls finding nothing */
        unsigned fruitless;  /* calls in the run (0: none) */
        double since, last;  /* us, monotonic: the run's start, the last call's end */
    } test_idle;
    config_t cfg;

    peer_t *peers;           /* [size + RMP_MAX_DYN_PEERS]: the world, then dynamic peers */
    int npeers;              /* ids in use are below it (size, and up with dynamic peers) */
    struct dyn *dyn;         /* dynpeer.c's table of dynamic peers (NULL: none met yet) */
    /* Set by dynpeer.c when it opens the late transport, read by transports.c's upcall: the
     * world id of the peer at an address (lock held), without transports.c calling dynpeer.c
     * back (the two would call each other). */
    int (*dyn_peer_by_addr)(rmp_ctx_t *c, const char *addr);
    struct dyn_port *ports;  /* dynport.c: the ports this process opened */
    struct dyn_child *children; /* dynport.c: spawned jobs' launchers, reaped at teardown */
    struct dyn_name *names;  /* dynname.c: the services this process published */
    int first_failed;        /* fault.c: the first peer that failed, if failed_at_us > 0 */
    double failed_at_us;     /* fault.c: when (monotonic us, progress.c's clock) */
    int outq_pending;        /* packets queued in all peers' outq */
    list_t rndv_active;      /* sends waiting for FIN/CTS, receives with data to come
                              * (rendezvous.c; request.link) */
    list_t coll_active;      /* collective requests with schedules in progress (progress.c) */
    tp_t *tps[RMP_MAX_TRANSPORTS];
    int ntps;
    tp_env_t tp_env[RMP_MAX_TRANSPORTS]; /* what each transport was opened with (transports.c) */
    bool *routes;            /* [RMP_MAX_TRANSPORTS * size]: the tp_env_t.route arrays */

    struct bsend_buf *bsend; /* the buffer attached for buffered sends (bsend.c), or
                              * NULL */
    struct bsend_buf *bsend_dead; /* freed communicators' buffers, messages in flight */
    struct bsend_buf *session_bsend[SESSION_MAX]; /* session k + 1's buffer, or NULL */
    /* Sends whose cancel waits for the receiver's answer (send_cancel.c): finalize waits
     * for them, a peer's failure ends theirs. */
    struct rmp_request **cancels;
    int ncancels, cancels_cap;
    comm_t *comms;           /* [RMP_MAX_COMMS] */
    hpool_t comm_pool;       /* their handles from 2 on (comm.c) */
    match_queues_t *mq;

    dtype_t *dtypes;         /* datatype table */
    hpool_t dtype_pool;      /* its derived types' handles (type_slot.c) */

    progthr_t progthr;       /* RMP_PROGRESS_THREAD (progress_thread.c) */
    /* One-sided communication's active messages: the layer above (rma/am.c) installs these,
     * the runtime calls them and knows nothing else of windows. rma_deliver gets each checked
     * PKT_RMA packet (header by copy, payload inside the arrival, lock held) and returns false
     * for one it cannot take yet (its window's creation here is still under way);
     * rma_peer_failed ends what waits on a failed peer there. Arrivals not taken (or before
     * rma_deliver is set) wait in rma_early, in order, for rma_hook_replay. */
    bool (*rma_deliver)(rmp_ctx_t *c, int src, const struct pkt_rma *h, const void *payload,
                        size_t len);
    void (*rma_peer_failed)(rmp_ctx_t *c, int peer, int status);
    void (*rma_fini)(rmp_ctx_t *c); /* teardown: the layer's own state goes */
    struct rma_early *rma_early, **rma_early_tail;
    void *boot;              /* bootstrap.c private state */
    uint64_t part_ids[64];   /* part.c: ids of live partitioned requests (their tags) */
    /* Who holds the runtime (init.c's rt_hold): the world model while world_up (rmp_init ..
     * rmp_finalize; world_done after), and each session (session.c: live ones in
     * session_live, bit k for handle k + 1). */
    int holders;
    bool world_up, world_done;
    uint64_t session_live;
    double t0;
    stats_t stats;           /* the counters tools read (stats.c) */
    tp_stats_t tp_closed;    /* the closed transports' counters (tps_close keeps them) */
    struct prof *prof;       /* RMP_PROFILE's counters while recording (prof.h), else NULL */
};

extern rmp_ctx_t rmp_ctx; /* the one instance */

/* progress_wake.c: called at unlock while the progress thread idles (lock held); wakes it
 * when work that needs it appeared and no other thread is progressing. */
void progthr_unlock_hook(rmp_ctx_t *c);

/* Lock helpers: no-ops below RMP_THREAD_MULTIPLE unless a progress thread runs. */
static inline void ctx_lock(rmp_ctx_t *c)
{
    if (c->locking)
        pthread_mutex_lock(&c->lock);
}
static inline void ctx_unlock(rmp_ctx_t *c)
{
    if (c->locking) {
        if (c->progthr.idle)
            progthr_unlock_hook(c);
        pthread_mutex_unlock(&c->lock);
    }
    ev_after_unlock(); /* queued event listeners run here, the lock released */
}
/* The checks every call starts with are inline: they are on every send and receive, and a
 * call into another file for a load and a compare was a tenth of a small message's path.
 *
 * RMP_SUCCESS if initialized and not finalized. */
static inline int ctx_check(void)
{
    return atomic_load(&rmp_ctx.state) == 1 ? RMP_SUCCESS : RMP_ERR_NOT_INITIALIZED;
}

/* Handles: builtins and named synonyms below DT_FIRST_DERIVED (rmp.h; a synonym is a copy
 * of its builtin's descriptor, same base), derived types from DT_FIRST_DERIVED on. The
 * table is allocated once with room for DT_MAX_DERIVED derived types and never moves, so a dtype_t pointer kept
 * by a pending request stays valid while the table is used by other threads. */
#define DT_FIRST_DERIVED 80
#define DT_MAX_DERIVED   65536
#define DT_TABLE_CAP     (DT_FIRST_DERIVED + DT_MAX_DERIVED)

/* NULL if the handle is not a valid (and, if need_commit, committed) type. Lock-free on
 * purpose: callers may or may not hold the runtime lock, and the table never moves. A freed
 * type keeps its descriptor (types built on it still need the layout). */
static inline const dtype_t *dtype_get(rmp_datatype_t h, bool need_commit)
{
    const dtype_t *tab = rmp_ctx.dtypes;
    if (!tab || h <= 0 || h >= DT_TABLE_CAP)
        return NULL;
    const dtype_t *t = &tab[h];
    if (!t->in_use || (need_commit && !t->committed))
        return NULL;
    return t;
}

/* The communicator for a handle, NULL if invalid. No lock needed: the table never moves, and
 * freeing a communicator while another thread uses it is erroneous (as in MPI). */
static inline comm_t *comm_get(rmp_comm_t h)
{
    if (h < 0 || h >= RMP_MAX_COMMS || !rmp_ctx.comms)
        return NULL;
    comm_t *c = &rmp_ctx.comms[h];
    return c->in_use && !c->freed ? c : NULL;
}

static inline bool comm_is_inter(rmp_comm_t h)
{
    comm_t *c = comm_get(h);
    return __builtin_expect(c && c->lworld, 0);
}

/* ---- Progress (progress.c) ---- */
/* One pass over transports and queued sends (lock held); returns events handled. */
int progress_poll(rmp_ctx_t *c);
/* Advance until *flag becomes non-zero (lock held on entry and exit). Spins, then blocks. */
void progress_wait(rmp_ctx_t *c, atomic_int *flag);
/* Advance until done(arg) returns true (lock held on entry and exit). */
void progress_wait_until(rmp_ctx_t *c, bool (*done)(void *), void *arg);
/* Sleep until a transport (or the progress thread's eventfd) signals, as a blocking wait
 * does; returns at once when there is work (lock held on entry and exit). */
void progress_sleep(rmp_ctx_t *c);
/* The monotonic clock in microseconds, as the waits measure time. */
double progress_now_us(void);
/* progress_sleep bounded by ms, for any event (lock held; another thread asleep for the
 * process: returns at once). */
void progress_nap(rmp_ctx_t *c, int ms);
/* A test call's progress (progress_test.c; lock held): poll while events come and done(arg)
 * is false, then, when a run of such calls finds nothing and ranks outnumber cores, give the
 * core up (yield, then progress_nap). Returns done(arg). */
bool progress_test(rmp_ctx_t *c, bool (*done)(void *), void *arg);
/* Collective requests whose schedules progress_poll advances (lock held). */
void progress_coll_add(rmp_ctx_t *c, struct rmp_request *r);
void progress_coll_remove(rmp_ctx_t *c, struct rmp_request *r);

/* ---- Buffered sends (bsend.c) ---- */
/* At teardown, after finalize delivered every message: release the attached buffer's record
 * (the memory is the user's). */
void bsend_fini(rmp_ctx_t *c);
/* A communicator goes (lock held): its buffer is detached, kept until its messages left. */
void bsend_comm_release(rmp_ctx_t *ctx, comm_t *c);
/* A session is finalized (lock held): its buffer likewise. */
void bsend_session_release(rmp_ctx_t *ctx, int session);
/* The session a group derives from (0: none; collectives/group.c; lock NOT held), and
 * setting it (the groups of a session's psets). */
int group_session(rmp_group_t group);
void group_set_session(rmp_group_t group, int session);
/* A communicator made from parent (dup, split, create, create_group) derives from the same
 * session (lock NOT held). */
void comm_inherit_session(rmp_comm_t parent, rmp_comm_t child);

/* ---- The progress thread (progress_thread.c) ---- */
/* Start it (init, after wire-up; from then on the runtime locks at every thread level). */
int progthr_start(rmp_ctx_t *c);
/* Stop and join it (lock NOT held); no-op if it does not run or when called by it. */
void progthr_stop(rmp_ctx_t *c);
/* ---- Waking it (progress_wake.c) ---- */
/* New work that no transport fd will announce was posted (lock held): wake the sleeper. */
void progthr_kick(rmp_ctx_t *c);
/* Work only progress moves is outstanding (lock held); ring the thread's eventfd. */
bool progthr_pending(const rmp_ctx_t *c);
void progthr_ring(rmp_ctx_t *c);
/* The eventfd a sleeper polls besides the transports' fds (-1: no progress thread), and the
 * read that resets it after a wakeup. */
int progthr_wait_fd(const rmp_ctx_t *c);
void progthr_drain(rmp_ctx_t *c);
/* RMP_THREAD_MULTIPLE: the blocked thread is woken by the thread that posts work for it
 * (progress_kick_for), not by its sleep's time bound. wake_open makes the eventfd a poll() sleep
 * listens to (c->kick_fd; -1 below RMP_THREAD_MULTIPLE), wake_close closes it. */
int wake_open(rmp_ctx_t *c);
void wake_close(rmp_ctx_t *c);
/* Lock held, by a thread that posted work no peer announces (a message to its own rank, a
 * request it completed, an unexpected message it queued): if another thread sleeps in block()
 * for the process waiting for it, that thread wakes now. `on`: the done flag of a completed
 * request (wakes a sleeper waiting for that flag or for any event), PROGRESS_ON_ANY (only a
 * sleeper waiting for any event: a probe, waitany), NULL (any sleeper but the progress
 * thread's idle one). At most one wakeup per sleep. */
#define PROGRESS_ON_ANY ((const void *)&rmp_ctx.blocker_on)
void progress_kick_for(rmp_ctx_t *c, const void *on);
/* After a poll() sleep: reset the eventfd. */
void wake_drain(rmp_ctx_t *c);

/* ---- Holding the runtime (init.c): rmp_init and sessions ---- */
/* Start it, or count one more holder of the running one (*provided: its level). */
int rt_hold(int required, int *provided);
/* One holder less; the last one finalizes (collective over the job, as rmp_finalize). */
int rt_release(void);

/* ---- Bootstrap (bootstrap.c) ---- */
int boot_init(rmp_ctx_t *c);
int boot_put(rmp_ctx_t *c, const char *key, const void *blob, size_t len);
int boot_fence(rmp_ctx_t *c);   /* commit + fence collecting the modex */
int boot_barrier(rmp_ctx_t *c); /* fence without data */
/* A rank whose start-up failure is the consequence of another rank's (that rank says why):
 * under mrun, waits up to a second for mrun to end it, so that mrun and the program of the
 * rank that explains are the only ones to speak. Returns at once under other launchers. */
void boot_await_end(rmp_ctx_t *c);
int boot_get(rmp_ctx_t *c, int peer, const char *key, const void **blob_p, size_t *len_p);
/* Ends the job: code is what the program passed to rmp_abort (reported to mrun), status what
 * the launcher and this process's exit report (rmp_abort's mapping). Never returns. */
void boot_abort(rmp_ctx_t *c, int code, int status, const char *msg);
/* Tells the launcher (mrun) that this rank's errors from now on follow world rank peer's
 * failure, so that the job's failure is blamed on the peer. */
void boot_peer_failed(rmp_ctx_t *c, int peer);
void boot_finalize(rmp_ctx_t *c);
/* fin_barrier.c: rmp_finalize's barrier over the transports, progressing while it waits (lock
 * NOT held): every rank entered rmp_finalize when it returns. A failed peer's error, after
 * the rounds went on without it. */
int fin_barrier(rmp_ctx_t *c);
/* node[w] = world rank w's node id (tp_env_t.node says what -1 means). */
void boot_node_map(rmp_ctx_t *c, int *node);
/* Peer's modex blob published by transport `name` (valid until rmp_finalize). */
int core_modex_get(rmp_ctx_t *c, int peer, const char *name, const void **blob_p,
                   size_t *len_p);

/* ---- The transports (transports.c): the core's side of transport/transport.h ---- */
/* Routes (which transport may serve which peer: decided here, once), environments, open and
 * publish in the modex. */
int tps_open(rmp_ctx_t *c);
/* After the modex fence: every transport's wireup, then each peer's transport. */
int tps_wireup(rmp_ctx_t *c);
/* Lock held: open a transport after init (dynamic peers' sock), with no routes of the world;
 * it joins c->tps (closed with the others). */
int tps_open_late(rmp_ctx_t *c, const tp_ops_t *ops, tp_t **tp_p);

/* ---- Dynamic peers (dynpeer.c): processes of other jobs met after init ---- */
/* My endpoint's address (opens the sock transport on first call); lock NOT held. */
int dyn_my_addr(rmp_ctx_t *c, char *addr, size_t len);
/* Lock held: the world id of the process at endpoint addr, made if new (-1: no room). */
int dyn_peer_locked(rmp_ctx_t *c, const char *addr);
/* Lock held: communicators naming the ids of world[0..n-1] come (+1) or go (-1); a dynamic
 * peer that no communicator names any more is let go (its connections closed). */
void dyn_ref_locked(rmp_ctx_t *c, const int *world, int n, int delta);
/* A dynamic peer's endpoint address as its modex blob (core_modex_get for ids >= size). */
int dyn_modex_get(rmp_ctx_t *c, int peer, const void **blob_p, size_t *len_p);
void dyn_fini(rmp_ctx_t *c);
/* Ports (dynport.c; lock NOT held): a listening socket named by a port name of the form
 * DYN_PORT_PREFIX<socket path>, at most RMP_MAX_PORT_NAME bytes with its NUL. */
#define DYN_PORT_PREFIX "rmp-port:unix:"
int dyn_port_open(rmp_ctx_t *c, char *name);
int dyn_port_close(rmp_ctx_t *c, const char *name);
/* The listening socket of my open port `name`, or -1 (RMP_ERR_PORT: not one of mine). */
int dyn_port_fd(rmp_ctx_t *c, const char *name);
/* The socket path a port name carries, or NULL when the name is not a port name. */
const char *dyn_port_path(const char *name);
void dyn_port_fini(rmp_ctx_t *c);
void dyn_name_fini(rmp_ctx_t *c); /* unpublishes what this process published */
/* A spawned job's launcher (collectives/spawn.c), reaped at teardown (bounded). */
void dyn_child_add(rmp_ctx_t *c, pid_t pid);
void dyn_port_abandon(rmp_ctx_t *c); /* rmp_abort: their names go, nothing else */
/* Close them all; orderly: every peer passed the rmp_finalize barrier (else abandon first). */
void tps_close(rmp_ctx_t *c, bool orderly);
/* rmp_abort: only what would outlive the process (tp_ops_t.abandon). */
void tps_abandon(rmp_ctx_t *c);

/* ---- Upcalls from the transports (through transports.c's tp_upcalls_t) ---- */
/* An arrival from world rank src (protocol.c). */
void core_deliver(rmp_ctx_t *c, int src, const void *data, size_t len);
/* An asynchronous get() finished (rendezvous.c). */
void core_get_done(rmp_ctx_t *c, void *cookie, int status);
/* A peer failed: fail everything pending with it (fault.c). */
void core_peer_failed(rmp_ctx_t *c, int peer, int status, const char *why);
/* A wait at now_us (monotonic us) that outlived a peer's failure by FAULT_GRACE_S: the job
 * cannot end by itself, this rank ends it (fault.c; does not return then). */
void fault_wait_check(rmp_ctx_t *c, double now_us);

#endif
