/* request.c — request objects: the request table behind checkable handles, allocation,
 * completion. Completion is an atomic flag so a thread may test it without the lock; threads
 * parked on the runtime's condition variable are woken when any request completes. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The table: a fixed directory of chunks of REQ_CHUNK slots. Chunks are added (never moved or
 * freed) as the number of live requests grows, so a slot's address and generation stay
 * readable for the life of the process: req_lookup needs no lock, and a stale or forged
 * handle is refused by its generation instead of reaching reused memory. The table keeps its
 * peak size (one chunk is about 200 KiB). */
#define REQ_CHUNK (1u << REQ_CHUNK_BITS)
struct rmp_request *_Atomic req_dir[1u << REQ_DIR_BITS];

/* Free slots: each thread keeps a private list (no lock on the request path: a ping-pong or
 * a small collective makes several requests per call), and exchanges batches of REQ_BATCH
 * with the shared pool under req_pool_lock when its list runs empty or grows past
 * REQ_CACHE_MAX. A request may be freed by another thread than the one that allocated it:
 * a private list is only ever touched by its own thread. At a thread's exit its list goes
 * back to the pool. */
#define REQ_BATCH 32
#define REQ_CACHE_MAX (2 * REQ_BATCH)
static pthread_mutex_t req_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rmp_request *req_pool; /* shared free slots (req_pool_lock) */
static uint32_t req_nslots;          /* slots ever created (req_pool_lock) */

/* One thread-local block: a single TLS address lookup per call in a -fPIC library. */
typedef struct req_tls {
    struct rmp_request *cache; /* the free list */
    int cached;                /* its length */
    bool keyed;                /* this thread's drain is registered */
} req_tls_t;
static _Thread_local req_tls_t req_tls;
static pthread_key_t req_cache_key;
static pthread_once_t req_cache_once = PTHREAD_ONCE_INIT;

/* At a thread's exit: its free slots go back to the pool. */
static void req_cache_drain(void *unused)
{
    (void)unused;
    req_tls_t *tl = &req_tls;
    pthread_mutex_lock(&req_pool_lock);
    while (tl->cache) {
        struct rmp_request *r = tl->cache;
        tl->cache = r->next;
        r->next = req_pool;
        req_pool = r;
    }
    pthread_mutex_unlock(&req_pool_lock);
    tl->cached = 0;
}

static void req_cache_key_init(void)
{
    (void)pthread_key_create(&req_cache_key, req_cache_drain);
}

/* Register this thread's drain once; false if that failed (then it keeps no private list). */
static __attribute__((noinline)) bool req_cache_key_register(req_tls_t *tl)
{
    (void)pthread_once(&req_cache_once, req_cache_key_init);
    tl->keyed = pthread_setspecific(req_cache_key, tl) == 0;
    return tl->keyed;
}

/* A new chunk's slots, all free (generation 0), onto the pool (pool lock held). */
static bool req_new_chunk(void)
{
    if (req_nslots >= REQ_MAX_LIVE)
        return false;
    struct rmp_request *chunk = calloc(REQ_CHUNK, sizeof(*chunk));
    if (!chunk)
        return false;
    for (uint32_t i = REQ_CHUNK; i-- > 0;) {
        chunk[i].idx = req_nslots + i;
        atomic_init(&chunk[i].gen, 0);
        chunk[i].next = req_pool;
        req_pool = &chunk[i];
    }
    atomic_store_explicit(&req_dir[req_nslots >> REQ_CHUNK_BITS], chunk, memory_order_release);
    req_nslots += REQ_CHUNK;
    return true;
}

/* Refill the thread's empty list with up to REQ_BATCH slots from the pool. */
static __attribute__((noinline)) void req_cache_refill(req_tls_t *tl)
{
    int batch = tl->keyed || req_cache_key_register(tl) ? REQ_BATCH : 1;
    pthread_mutex_lock(&req_pool_lock);
    if (!req_pool)
        (void)req_new_chunk();
    for (int i = 0; i < batch && req_pool; i++) {
        struct rmp_request *r = req_pool;
        req_pool = r->next;
        r->next = tl->cache;
        tl->cache = r;
        tl->cached++;
    }
    pthread_mutex_unlock(&req_pool_lock);
}

/* The thread's list is full: REQ_BATCH of its slots back to the pool. */
static __attribute__((noinline)) void req_cache_spill(req_tls_t *tl)
{
    pthread_mutex_lock(&req_pool_lock);
    for (int i = 0; i < REQ_BATCH && tl->cache; i++) {
        struct rmp_request *r = tl->cache;
        tl->cache = r->next;
        tl->cached--;
        r->next = req_pool;
        req_pool = r;
    }
    pthread_mutex_unlock(&req_pool_lock);
}

/* No drain could be registered: straight back to the pool. */
static __attribute__((noinline)) void req_pool_put(struct rmp_request *r)
{
    pthread_mutex_lock(&req_pool_lock);
    r->next = req_pool;
    req_pool = r;
    pthread_mutex_unlock(&req_pool_lock);
}

static inline void req_gen_bump(struct rmp_request *r)
{
    uint32_t g = atomic_load_explicit(&r->gen, memory_order_relaxed);
    atomic_store_explicit(&r->gen, g + 1, memory_order_release);
}

/* Zero everything from `kind` on. One memset of the whole (about 200 bytes) compiles to a
 * `rep stos` under gcc, which alone took 5 % of a ping-pong's profile (its start-up cost);
 * pieces of at most 64 bytes are stored inline, with 16-byte stores. */
#define REQ_TAIL_OFF offsetof(struct rmp_request, kind)
#define REQ_TAIL_BYTES (sizeof(struct rmp_request) - REQ_TAIL_OFF)
_Static_assert(REQ_TAIL_BYTES > 192 && REQ_TAIL_BYTES <= 256,
               "req_zero_tail's pieces must cover the request's tail: adjust them");
static inline void req_zero_tail(struct rmp_request *r)
{
    char *z = (char *)r + REQ_TAIL_OFF;
    memset(z, 0, 64);
    memset(z + 64, 0, 64);
    memset(z + 128, 0, 64);
    memset(z + 192, 0, REQ_TAIL_BYTES - 192);
}

struct rmp_request *req_alloc(req_kind_t kind)
{
    req_tls_t *tl = &req_tls;
    if (!tl->cache)
        req_cache_refill(tl);
    struct rmp_request *r = tl->cache;
    if (!r)
        return NULL;
    tl->cache = r->next;
    tl->cached--;
    req_zero_tail(r);
    r->kind = kind;
    r->peer_world = -1;
    atomic_init(&r->done, 0);
    /* odd: live. Release pairs with req_lookup's acquire, so a thread that finds this
     * generation through a handle also sees the fields set above. Only the slot's owner
     * (here: the thread whose free list held it) ever writes gen, so a load and a store do,
     * without a locked read-modify-write on the request path. */
    req_gen_bump(r);
    return r;
}

uint64_t req_list_epoch(void)
{
    static _Atomic uint64_t epoch;
    return atomic_fetch_add_explicit(&epoch, 1, memory_order_relaxed) + 1;
}

void req_free(struct rmp_request *r)
{
    /* Even generation: already free. A second free would make it live again; only a bug in
     * rmp can get here (users reach requests through req_lookup), so refuse it quietly. */
    if (!r || !(atomic_load_explicit(&r->gen, memory_order_relaxed) & 1u))
        return;
    if (r->tmp) { /* most requests have none: no call into libc on the message path */
        free(r->tmp);
        r->tmp = NULL;
    }
    if (r->persistent && r->comm) /* its hold since rmp_*_init (persist.c); lock held */
        comm_unhold(r->comm);
    if (r->persistent && r->dt) /* the same for its type */
        dtype_hold(r->dt, -1);
    req_gen_bump(r); /* even: every handle dies (the freeing thread owns the slot) */
    req_tls_t *tl = &req_tls;
    if (!tl->keyed && !req_cache_key_register(tl)) {
        req_pool_put(r);
        return;
    }
    if (tl->cached >= REQ_CACHE_MAX)
        req_cache_spill(tl);
    r->next = tl->cache;
    tl->cache = r;
    tl->cached++;
}

void req_complete(struct rmp_request *r, int err)
{
    if (__builtin_expect(r->cancel_wait, 0)) {
        /* its send is over, but a cancel's answer is still to come: that answer completes it
         * (send_cancel.c), and only then may a wait return and the handle die */
        if (err != RMP_SUCCESS || r->status.error == 0)
            r->status.error = err;
        r->cancel_held = true;
        return;
    }
    if (r->orphan) {
        /* rmp_request_free'd while active: nobody holds a handle to it, nobody waits for it
         * (every caller's last touch of r is this call) */
        req_free(r);
        return;
    }
    if (err != RMP_SUCCESS || r->status.error == 0)
        r->status.error = err;
    atomic_store_explicit(&r->done, 1, memory_order_release);
    if (rmp_ctx.waiters > 0)
        pthread_cond_broadcast(&rmp_ctx.cond);
    if (rmp_ctx.blocker) /* another thread sleeps for the process: it may wait for r */
        progress_kick_for(&rmp_ctx, &r->done);
}

void req_cancel_settle(rmp_ctx_t *c, struct rmp_request *r)
{
    for (int i = 0; i < c->ncancels; i++)
        if (c->cancels[i] == r) {
            c->cancels[i] = c->cancels[--c->ncancels];
            break;
        }
    r->cancel_wait = false;
    if (r->cancel_held) {
        r->cancel_held = false;
        req_complete(r, r->status.error);
    }
}

/* Can n bytes be whole elements of t's one scalar base type? A message that ends inside one
 * came from a type of another signature (MPI_ERR_TYPE, as MPICH finds it); bytes and packed
 * data fit anything, and a pair type (MPI_DOUBLE_INT, ...) may end after its first member
 * (MPI_Get_elements counts it). */
static bool recv_whole(const dtype_t *t, size_t n)
{
    switch (t->base) {
    case DT_NONE: case DT_BYTE: case DT_PACKED: case DT_2INT: case DT_FLOAT_INT:
    case DT_DOUBLE_INT: case DT_LONG_INT: case DT_SHORT_INT: case DT_LONG_DOUBLE_INT:
    case DT_2REAL: case DT_2DOUBLE:
        return true;
    default: {
        size_t sz = dtype_base_size(t->base);
        return sz == 0 || n % sz == 0;
    }
    }
}

void req_recv_finish(struct rmp_request *r, int err)
{
    if (err == RMP_SUCCESS && r->dt && !recv_whole(r->dt, r->status.count))
        err = RMP_ERR_TYPE;
    if (r->tmp && r->dt) { /* user_buf NULL: RMP_BOTTOM, absolute addresses */
        dtype_unpack(r->dt, r->count, r->tmp, r->status.count, r->user_buf);
        if (!r->persistent) { /* a persistent receive unpacks through it at every start */
            free(r->tmp);
            r->tmp = NULL;
            dtype_hold(r->dt, -1); /* taken when it was posted (p2p.c, mprobe.c) */
            r->dt = NULL;
        }
    }
    if (err == RMP_SUCCESS)
        err = r->status.error;
    req_complete(r, err);
}
