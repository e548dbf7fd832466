/* rma.h — the one-sided layer (MPI-3.1 ch. 11): windows, their epochs, and the operations on
 * them. It sits above the runtime (requests, progress, the packets of the core: the active
 * messages) and the collectives (creation and fence are collective), and drives the
 * transports' one-sided data movers (runtime/transport/rma.h) directly. Files:
 *   win.c     creation of every flavor (exposure, keys, control blocks, shared segments), free
 *   win_table.c  handles (the window table), transports' key slots
 *   win_dyn.c attach/detach, dynamic windows' region tables; range and key lookups
 *   win_query.c  queries (peer, flavor, model, group, shared_query)
 *   flush.c   the epoch checks, flush*, sync: completion per target
 *   fence.c   fence epochs
 *   pscw.c    general active target: post/start/complete/wait/test
 *   lock.c    passive target: lock/unlock(_all) on the target's lock word
 *   ops.c     put/get/accumulate/get_accumulate/fetch_and_op/compare_and_swap and the request
 *             forms: argument and range checks, then one path per target (below)
 *   fast.c    the short path of small calls (predefined types, mapped memory / DIRECT atomics)
 *   flat.c    a datatype x count as a list of contiguous pieces (the target's layout)
 *   amo.c     element-wise atomic accumulates: transport atomics (TP windows, 8-byte
 *             elements), or the accumulate lock (the rest, in bulk)
 *   am.c      active messages: what goes through the target's progress (PKT_RMA)
 *   tpwait.c  completion counters per target; one blocking transport write/read/atomic
 *
 * Paths. Every target t of a window is reached one way for data (put/get) and one way for
 * atomics (accumulates, locks), fixed at creation, the same on every rank of the window:
 *   RMA_DIRECT  t's memory is mapped here (a shared segment; myself): memcpy, C11 atomics
 *   RMA_TP      t is reached by a transport's write/read/atomic (rma->tp, keys)
 *   RMA_AM      active messages applied by t's progress (no transport can, or RMP_RMA_AM=1)
 * The atomic domain of a window is one for all its ranks (RMA_DIRECT when every rank maps
 * every other: one node; else the one transport that reaches every rank with TP_RMA_ATOMIC;
 * else RMA_AM), because a CPU atomic and a NIC atomic on one word are not atomic together.
 *
 * Locking: every function here runs with the runtime lock held (ctx_lock) unless it says
 * otherwise; waiting uses progress_wait_until. */
#ifndef RMP_RMA_H
#define RMP_RMA_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

typedef enum { RMA_DIRECT = 0, RMA_TP, RMA_AM } rma_path_t;

/* Control block: RMA_CTRL_BYTES per rank per window, in memory its peers reach on the
 * window's atomic path (a shared segment, or exposed on the atomic transport). 8-byte words:
 *   RMA_CTRL_LOCK   the passive-target lock: RMA_LOCK_EXCL when held exclusively, plus one
 *                   per shared holder
 *   RMA_CTRL_ACC    the accumulate lock: 0 free, 1 + the holder's window rank when held
 *                   (DIRECT windows, and non-8-byte elements on TP: read, combined and
 *                   written back under it)
 *   RMA_CTRL_POST   post/complete counters of general active target (pscw.c) */
#define RMA_CTRL_BYTES 64u
#define RMA_CTRL_LOCK 0u
#define RMA_CTRL_ACC 8u
#define RMA_CTRL_POST 16u
#define RMA_LOCK_EXCL (UINT64_C(1) << 32)

/* An attached region of a dynamic window (its owner's view; origins learn regions by
 * asking: see am.c / win_dyn.c). */
typedef struct rma_region {
    char *base;
    size_t size;
    void *exph[RMP_MAX_TRANSPORTS]; /* its exposure on each transport with an rma table */
    tp_rkey_t key[RMP_MAX_TRANSPORTS];
} rma_region_t;

/* Epoch state of this rank toward one target (flush.c, fence.c, pscw.c, lock.c). */
typedef enum { RMA_LK_NONE = 0, RMA_LK_SHARED, RMA_LK_EXCL } rma_lock_t;

/* One target rank of the window, as this rank sees it. */
typedef struct rma_target {
    int world;              /* its world rank */
    int64_t size;           /* bytes it exposed (dynamic: 0) */
    int disp_unit;
    uint64_t base;          /* its base address, in its process (dynamic: 0) */
    rma_path_t data_path;   /* how put/get reach it */
    tp_t *data_tp;          /* RMA_TP: the transport */
    tp_rkey_t data_key;     /* RMA_TP: the key of its window memory on data_tp */
    char *mapped;           /* RMA_DIRECT: its window memory, here */
    /* the atomic path is the window's (win->amo_path, win->amo_tp) */
    tp_rkey_t ctrl_key;     /* RMA_TP: its control block on win->amo_tp */
    tp_rkey_t mem_key;      /* RMA_TP: its window memory on win->amo_tp (accumulates) */
    _Atomic uint64_t *ctrl; /* RMA_DIRECT: its control block, here */
    /* completion (ops.c, am.c): operations issued to it not yet complete there / here */
    uint64_t issued, completed;        /* remote completion */
    uint64_t issued_local, completed_local; /* origin buffers free (flush_local) */
    int error;              /* first failure of an operation to it (reported by flush/epoch end) */
    uint64_t am_sent, am_acked; /* RMA_AM: active messages sent / acknowledged by the target */
    /* epochs */
    rma_lock_t lock;        /* passive target: my lock on it */
    bool in_access_group;   /* between start and complete: a member of the start group */
    bool lock_nocheck;      /* locked with RMP_MODE_NOCHECK: no lock word was taken */
} rma_target_t;

typedef enum { RMA_EP_NONE = 0, RMA_EP_FENCE, RMA_EP_PSCW, RMA_EP_LOCK, RMA_EP_LOCK_ALL }
    rma_epoch_t;

typedef struct win {
    rmp_win_t handle;
    rmp_comm_t comm;        /* a duplicate of the creation's communicator (the window's own
                             * traffic: fence barriers, post/complete notices, AM replies) */
    comm_t *c;              /* its comm_t */
    int rank, size;
    int flavor;             /* RMP_WIN_FLAVOR_* */
    int model;              /* RMP_WIN_UNIFIED */
    char *base;             /* my memory (dynamic: NULL) */
    size_t bytes;
    int disp_unit;
    rma_target_t *t;        /* [size] */
    rma_path_t amo_path;    /* the window's atomic domain (see above) */
    tp_t *amo_tp;           /* RMA_TP: the transport every atomic goes through */
    _Atomic uint64_t *ctrl; /* my control block, here */
    /* what creation made, released at free (win.c) */
    void *alloc;            /* allocate: memory to free (not a segment) */
    void *segh, *ctrl_segh; /* segments of my memory / my control block (shm) */
    void **peer_segh;       /* [size] mappings of peers' segments (NULL entries: none) */
    void *exph[RMP_MAX_TRANSPORTS], *ctrl_exph[RMP_MAX_TRANSPORTS];
    rma_region_t *regions;  /* dynamic: attached here */
    int nregions, cap;
    /* epochs (flush.c, fence.c, pscw.c, lock.c) */
    rma_epoch_t access;     /* the access epoch open now */
    bool fence_open;        /* a fence opened an epoch (no NOSUCCEED) */
    bool exposing;          /* between post and wait/test */
    rmp_group_t post_group, start_group;
    int nlocks;             /* targets locked (lock), or lock_all */
    int *post_ranks, npost; /* post's group as window ranks, and whose "done" came */
    bool *post_done;
    int *start_ranks, nstart; /* start's group as window ranks */
    /* dynamic windows (win_dyn.c): my exposed region table and the targets' tables as last read */
    struct rma_dyn *dyn;
    /* operations whose data lands later (rget into a noncontiguous buffer, request forms on
     * asynchronous paths): finished by rma_defer_run (flush.c) */
    struct rma_defer *defer;
    /* active messages (am.c) */
    uint64_t am_applied;    /* operations applied here for others (statistics) */
} win_t;

/* ---- win_table.c ---- */
/* Transports by name: a key travels in the slot of its transport's name (self, shm, verbs). */
#define RMA_NSLOT 3
extern const char *const rma_slot_name[RMA_NSLOT];
/* tp's slot (-1: none, or tp NULL); the transport open here in slot s (NULL: none). */
int rma_slot(const tp_t *tp);
tp_t *rma_slot_tp(int s);
/* A new window in the table: w->handle set (RMP_ERR_NO_MEM: table full). */
int win_insert(win_t *w);
/* Handle h out of the table (free: after which win_lookup(h) is NULL). */
void win_remove(rmp_win_t h);
/* The window of handle h (NULL: invalid); the pointer stays valid while the caller holds the
 * runtime lock or until rmp_win_free (freeing a window in use is erroneous). */
win_t *win_lookup(rmp_win_t h);
/* The entry of a call on window h: rmp initialized, h valid (RMP_ERR_WIN); on success *w is
 * set and the runtime lock taken (the caller unlocks). */
int win_enter(rmp_win_t h, win_t **w);

/* ---- win_dyn.c ---- */
/* A dynamic window's tables for size ranks (w->dyn; RMP_ERR_NO_MEM, dyn_free still due). */
int dyn_new(win_t *w, int size);
/* My table's head exposed on the i-th transport tp: its key in *key. */
int dyn_expose(win_t *w, tp_t *tp, int i, tp_rkey_t *key);
/* Target r's head keys (by slot) and the slots it exposed them on (exchange B). */
void dyn_target(win_t *w, int r, const tp_rkey_t *tbl, uint32_t exposed);
/* Undo my tables' exposures on the i-th transport tp; then dyn_free frees them. */
void dyn_unexpose(win_t *w, tp_t *tp, int i);
void dyn_free(win_t *w);
/* Target rank r's memory range check: [disp*disp_unit, + bytes) within what it exposed
 * (dynamic: within regions it attached, adjacent ones together, as far as this rank knows). RMP_SUCCESS or
 * RMP_ERR_RMA_RANGE. *off gets the offset from its base (dynamic: the absolute address). */
int win_range(win_t *w, int r, ptrdiff_t disp, ptrdiff_t lo, ptrdiff_t hi, uint64_t *off);
/* The key on transport tp (w->t[r].data_tp or w->amo_tp) of target r's memory at offset off
 * (win_range's), and in *toff the offset to pass with it: the window's key for the static
 * flavors, the key of the region holding [off, off + len) for a dynamic window (after
 * win_range found it). NULL: none (the target did not expose on tp). */
const tp_rkey_t *win_key(win_t *w, int r, tp_t *tp, uint64_t off, size_t len, uint64_t *toff);
/* The same for the first part of [off, off + *len) that one key covers: *len shortened to the
 * end of the dynamic window's region holding off (static flavors: as win_key). */
const tp_rkey_t *win_key_part(win_t *w, int r, tp_t *tp, uint64_t off, size_t *len,
                              uint64_t *toff);
/* Whether every byte of [lo, hi) (addresses here) lies in regions attached to my dynamic
 * window w (adjacent regions together). */
bool win_attached(const win_t *w, uint64_t lo, uint64_t hi);

/* ---- flush.c (and fence.c, pscw.c, lock.c) ---- */
/* May this rank issue an operation to target r now (an access epoch covers it)? RMP_SUCCESS
 * or RMP_ERR_RMA_SYNC. req: a request-based operation (passive target only). */
int rma_epoch_check(win_t *w, int r, bool req);
/* Everything issued to target r complete there (local: only the origin buffers free). Waits
 * (progress); returns the first error of those operations, and clears it. */
int rma_flush_target(win_t *w, int r, bool local);
/* Nothing in flight to r, nothing to report, nothing deferred: a flush has nothing to do
 * (inline: every unlock asks). */
static inline bool rma_idle(const win_t *w, int r)
{
    const rma_target_t *t = &w->t[r];
    return t->completed == t->issued && t->completed_local == t->issued_local && !t->error &&
           !w->defer;
}
/* rma_flush_target on every target: the first error. */
int rma_flush_all(win_t *w, bool local);

/* ---- flush.c: deferred completion ---- */
/* Target r's operations all complete (completed == issued): finish the deferred ones to it
 * (unpack what arrived, complete their requests). Lock held. */
void rma_defer_run(win_t *w, int r);
/* Finish later, once r's operations complete, what cannot be finished now: unpack tmp (bytes)
 * into user as count elements of dt (dt NULL: nothing), free tmp (owned from here on),
 * complete *rq if wanted (rq NULL: none). */
int rma_defer(win_t *w, int r, void *tmp, const dtype_t *dt, int count, void *user,
              size_t bytes, rmp_request_t *rq);
/* A request already complete with err (rq NULL: none wanted; err: no request, err back). */
int rma_req_done_now(rmp_request_t *rq, int err);

/* ---- tpwait.c: completion bookkeeping (ops.c / amo.c / am.c count, flush.c waits) ---- */
/* Count one operation issued to r (remote and local completion pending). */
void rma_issued(win_t *w, int r);
/* It completed (err: its outcome); local: only its local completion. */
void rma_completed(win_t *w, int r, int err, bool local);
/* A blocking 8-byte atomic on target r's lock word (RMA_CTRL_LOCK of its control block), on
 * the window's atomic path (lock.c). *old gets the previous value. */
int rma_ctrl_amo(win_t *w, int r, tp_amo_t op, uint64_t operand, uint64_t compare,
                 uint64_t *old);
/* (amo.c) rma_ctrl_amo names no word: it is the lock word, RMA_CTRL_LOCK. This one takes the
 * word's byte offset in the control block (RMA_CTRL_*). RMP_ERR_NOT_SUPPORTED on an AM
 * window (its locks go through rma_am_lock). */
int rma_ctrl_amo_at(win_t *w, int r, unsigned word, tp_amo_t op, uint64_t operand,
                    uint64_t compare, uint64_t *old);

/* ---- fast.c: the short paths of put/get and the accumulates (predefined types, static
 * windows, mapped memory or a DIRECT atomic domain, no request). true: done, *err its outcome;
 * false: nothing happened, take the general path (ops.c), which checks and reports all. ---- */
bool rma_fast_move(bool put, void *origin, int count, rmp_datatype_t type, int target,
                   ptrdiff_t disp, int tcount, rmp_datatype_t ttype, rmp_win_t win, int *err);
/* count elements of type on every side; result NULL: an accumulate (no result wanted);
 * compare: a compare-and-swap (count 1). */
bool rma_fast_acc(const void *origin, void *result, const void *compare, int count,
                  rmp_datatype_t type, int target, ptrdiff_t disp, rmp_op_t op, rmp_win_t win,
                  int *err);
/* Whether compare_and_swap takes elements of b: integers, logical, byte. */
bool rma_cas_type(dt_base_t b);

/* ---- flat.c ---- */
/* count elements of t as contiguous pieces, in order, offsets from the buffer's address
 * (the type's lb and holes taken into account), adjacent pieces merged. *pcs is malloc'd (or
 * points at *one when a single piece: no allocation for contiguous data); free with
 * rma_pieces_free. RMP_ERR_NO_MEM. */
typedef struct rma_piece {
    int64_t off;
    size_t len;
} rma_piece_t;
int rma_flatten(const dtype_t *t, int count, rma_piece_t *one, rma_piece_t **pcs, int *n);
void rma_pieces_free(rma_piece_t *one, rma_piece_t *pcs);

/* ---- amo.c ---- */
/* An accumulate-class operation on target r on the window's atomic path (w->amo_path), the
 * same mechanism for a (window, element type) on every origin so that concurrent accumulates
 * to one location stay element-wise atomic: on TP windows 8-byte elements by the transport's
 * 8-byte atomics (FADD for integer SUM, an atomic read for NO_OP, a CAS loop for every other
 * op); every element of DIRECT windows and other sizes on TP read, combined (one op_reduce
 * over the operation) and written back under the target's accumulate lock; RMA_AM:
 * rma_am_acc. pcs/off as
 * am.c's; packed: bytes of origin elements (op RMP_NO_OP: ignored); result (NULL: not
 * wanted): the target's elements before, packed; compare (non-NULL): a compare-and-swap of
 * one element (op ignored). Blocking on DIRECT and TP (complete at the target on return, the
 * operation counted issued and completed); on AM as rma_am_acc. */
int rma_amo(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, dt_base_t base,
            rmp_op_t op, const void *packed, size_t bytes, void *result, const void *compare);
/* A transport's write (or read) of len bytes at key + off on world rank `world`, waited for
 * (progress; RMP_AGAIN retried): its outcome. For whoever needs one blocking transfer. */
int rma_tp_io(tp_t *tp, int world, const tp_rkey_t *key, uint64_t off, void *buf, size_t len,
              bool write);
/* The same for one 8-byte atomic (op, operand, compare) at key + off; *old the value before. */
int rma_tp_amo(tp_t *tp, int world, const tp_rkey_t *key, uint64_t off, tp_amo_t op,
               uint64_t operand, uint64_t compare, uint64_t *old);
/* Whether rma_amo on w goes as active messages (completing later, like rma_am_acc: result
 * filled when the answer comes) rather than blocking: the AM domain, and dynamic windows of
 * the DIRECT domain (attached user memory is mapped by no other rank). */
bool rma_amo_by_am(const win_t *w);
/* One step of the CAS loop: the 8-byte element `old` combined with the origin's (op a builtin
 * valid for base, RMP_REPLACE or RMP_NO_OP), as the target's new value. */
uint64_t rma_amo_combine8(rmp_op_t op, dt_base_t base, uint64_t old, const void *origin);

/* ---- am.c: operations through target r's progress (RMA_AM), applied there in the order they
 * were sent from this rank. The window is named on the wire by w->c->ctx_id (the same on every
 * rank). Target memory: `off` is the offset from the target's base (dynamic: an absolute
 * address), pcs the target layout's pieces from there; data travels packed. Each call counts
 * itself with rma_issued and ends with rma_completed when the target acknowledged it (the
 * target checks the range again: RMP_ERR_RMA_RANGE comes back in the acknowledgement).
 * Returns RMP_SUCCESS once sent (queued), or an error (nothing issued). ---- */
/* Install the core's PKT_RMA handler (called at every window creation; idempotent). */
void rma_am_init(rmp_ctx_t *c);
int rma_am_put(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs,
               const void *packed, size_t bytes);
/* dst (packed, bytes) is filled when the reply comes, before rma_completed. */
int rma_am_get(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, void *dst,
               size_t bytes);
/* Accumulate of `base` elements with op (a builtin, RMP_REPLACE, RMP_NO_OP); result: the
 * target's elements before (packed, bytes; NULL: none wanted); compare: a compare-and-swap of
 * one element (op ignored). Atomic with every other accumulate the target applies. */
int rma_am_acc(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, dt_base_t base,
               rmp_op_t op, const void *packed, size_t bytes, void *result,
               const void *compare);
/* Passive-target lock and unlock through the target's progress (RMA_AM windows): lock waits
 * for the grant (the target queues requests it cannot grant yet, first come first served);
 * unlock is sent after everything issued before it (ordered) and waits for its answer. */
int rma_am_lock(win_t *w, int r, rma_lock_t type);
int rma_am_unlock(win_t *w, int r);
/* A ping to r answered once everything sent before it was applied; waits. */
int rma_am_flush(win_t *w, int r);
/* The window's target side: register it (creation) so arrivals find it by ctx id, and drop
 * it (free, after the closing barrier). */
int rma_am_register(win_t *w);
void rma_am_unregister(win_t *w);

#endif
