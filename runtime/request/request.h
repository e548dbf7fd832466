/* request.h — requests (request.c owns the table): struct rmp_request with every kind's
 * fields, checkable handles (index and generation), allocation and completion; the calls of
 * generalized (greq.c) and partitioned (part.c) requests the completion calls make. */
#ifndef RMP_REQUEST_H
#define RMP_REQUEST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "comm.h"
#include "dtype.h"
#include "list.h"
#include "rmp.h"

typedef struct rmp_ctx rmp_ctx_t;

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

#endif
