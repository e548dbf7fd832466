/* shm_coll.c — the shared-memory collective backend (shm_coll.h says what it is for).
 *
 * Barrier, allreduce and allgather, on channel c (the communicator's context pair), n members:
 *   every member  writes its contribution into its own channel's `in` (allreduce, allgather;
 *                 nothing for barrier) and clears its own `done`, then
 *                 counts itself in: a compare-and-swap on `arrived` in the channel of the
 *                 communicator's rank 0 (the home), with release and acquire;
 *   the n-th      (whoever it is: no rank waits for a given one to be scheduled) resets the
 *                 count, combines the inputs — in rank order, whatever op: every rank gets the
 *                 same bits, and a non-commutative op its MPI order — writes the result with a
 *                 status into every other member's `out`, sets its `done` (release), and after
 *                 one full fence wakes those that announced a sleep. An allgather's n-th
 *                 writes the blocks, in rank order, once: into its own `out` (and its own
 *                 result), and tells the others where (`from`): each member reads the blocks
 *                 once, and nobody copies n results;
 *   the others    poll their own `done` (a line nobody else touches until it changes: the
 *                 flag and the first 56 bytes of the result arrive in one cache miss), or sleep
 *                 and are woken by the n-th.
 * A larger allgather (blocks of up to SHM_COLL_BLOCK_MAX, all of them more than a channel
 * holds) is the same count with no combining: each member first posts its block in one of two
 * block buffers of its own on the channel (the parity of the call's sequence number, which
 * every member knows without asking), once the readers of that buffer's last call all counted
 * themselves in its `read`; the n-th only checks that the block sizes agree and sets the
 * flags; then every member copies each block straight from its owner's buffer and counts
 * itself in that buffer's `read` (the last reader wakes the owner, which may sleep waiting for
 * the buffer). Each block is written once and read once per member: no n-1 messages, no
 * handshakes, one wait. An owner writes a buffer again two calls later at the earliest, by
 * which time the reading of the call before has begun everywhere (every member counted itself
 * into the call between), and only after its readers all said they are done.
 * Broadcast needs nobody but the root (bcast_step): the root publishes into one of two buffers
 * of its channel and returns; each member copies it out and counts itself as read; a buffer
 * is written again only once all its readers counted. A member whose count differs from the
 * root's (the publication says the root's bytes) copies what fits and fails.
 * Why this is safe to reuse: a member counts itself into call k + 1 only after it saw call k's
 * result, and the count resets before any result is written, so the n-th of call k has read
 * every input of call k before anyone writes call k + 1's; and nobody but the n-th writes a
 * member's `out` and `done`, after that member cleared `done`. An allgather's result in the
 * n-th's `out` is read by the others after their `done`: the next write of that `out` is by
 * the n-th of a later call, after every member counted itself into it, so after every member
 * copied this one out.
 * A rank's calls on one channel run in the order it made them (a queue per channel): MPI's
 * order of collectives on a communicator. The home's count carries the context id of the
 * communicator counting: one freed with a call still in flight and a new one that got the same
 * pair (and home) cannot mix their counts; the new one waits for the count to drain.
 * Every rank of the communicator makes the same choice in start(): it depends on the
 * collective, the size, the context pair and which ranks are on this node only. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

size_t shm_coll_block_cap(int nlocal)
{
    size_t cap = nlocal <= 16 ? SHM_COLL_BLOCK_MAX
                              : ((size_t)16 << 20) / ((size_t)nlocal * SHM_COLL_CHANNELS * 2);
    return cap / 64 * 64;
}

static size_t blocks_stride(size_t cap)
{
    return sizeof(sc_blocks_t) + 2 * cap;
}

size_t shm_coll_area_bytes(int nlocal)
{
    return sizeof(sc_area_t) + SHM_COLL_CHANNELS * blocks_stride(shm_coll_block_cap(nlocal));
}

/* Channel c's block buffers in an area. */
static sc_blocks_t *area_blocks(void *area, size_t cap, int c)
{
    return (sc_blocks_t *)((char *)area + sizeof(sc_area_t) + (size_t)c * blocks_stride(cap));
}

static int sc_start(tp_t *tp, const ofl_comm_t *comm, const ofl_args_t *a, ofl_req_t **req,
                    char *why, size_t len);
static int sc_progress(ofl_req_t *req);
static void sc_finish(ofl_req_t *req);
static void sc_comm_free(tp_t *tp, const ofl_comm_t *comm);
static void sc_describe(ofl_req_t *req, char *buf, size_t len);

shm_coll_t *shm_coll_open(tp_t *tp, bool enabled, int nlocal, const shm_coll_host_t *host)
{
    shm_coll_t *sc = calloc(1, sizeof(*sc));
    if (sc)
        *sc = (shm_coll_t){.ops = {.name = "shm", .where = "in shared memory",
                                   .start = sc_start, .progress = sc_progress,
                                   .finish = sc_finish, .comm_free = sc_comm_free,
                                   .describe = sc_describe},
                           .host = *host, .tp = tp, .enabled = enabled,
                           .block_cap = shm_coll_block_cap(nlocal)};
    return sc;
}

const ofl_ops_t *shm_coll_ops(const shm_coll_t *sc)
{
    return &sc->ops;
}

void shm_coll_close(shm_coll_t *sc)
{
    if (sc)
        free(sc->spare);
    free(sc); /* calls still queued belong to requests the core frees */
}

/* A call block for n members: the spare if it is large enough. */
static sc_call_t *call_get(shm_coll_t *sc, int n)
{
    sc_call_t *k = sc->spare;
    if (k && k->cap >= n) {
        sc->spare = NULL;
        return k;
    }
    if ((k = malloc(sizeof(*k) + (size_t)n * sizeof(sc_member_t))))
        k->cap = n;
    return k;
}

/* A call block back: kept as the spare (the larger of two), or freed. */
static void call_put(shm_coll_t *sc, sc_call_t *k)
{
    if (sc->spare && sc->spare->cap >= k->cap) {
        free(k);
        return;
    }
    free(sc->spare);
    sc->spare = k;
}

/* Broadcast: the publication buffer of the root's that is free (-1: none), or, for a reader,
 * the one that holds this call (-1: not yet). */
static int pub_free(const sc_chan_t *root)
{
    for (int p = 0; p < 2; p++)
        if (atomic_load_explicit(&root->read[p], memory_order_acquire) == root->need[p])
            return p;
    return -1;
}

static int pub_find(const sc_call_t *k, const sc_chan_t *root)
{
    for (int p = 0; p < 2; p++)
        if (atomic_load_explicit(&root->pub[p].tag, memory_order_acquire) == k->tag &&
            atomic_load_explicit(&root->read[p], memory_order_relaxed) < root->need[p])
            return p;
    return -1;
}

/* Large allgather: my block buffer of this call is free (its last readers are done). */
static bool blocks_free(const sc_call_t *k)
{
    const sc_blocks_t *b = k->mem[k->rank].bl;
    return atomic_load_explicit(&b->read[k->par], memory_order_acquire) == b->need[k->par];
}

bool shm_coll_pending(const shm_coll_t *sc)
{
    for (int c = 0; c < SHM_COLL_CHANNELS; c++) {
        const sc_call_t *k = sc->head[c];
        if (!k)
            continue;
        if (k->coll == OFL_BCAST) {
            const sc_chan_t *root = k->mem[k->root].ch;
            if ((k->rank == k->root ? pub_free(root) : pub_find(k, root)) >= 0)
                return true;
        } else if (k->state == SC_QUEUED && k->large && !k->posted) {
            if (blocks_free(k)) /* else its last reader wakes me */
                return true;
        } else if (k->state != SC_ARRIVED ||
                   atomic_load_explicit(&k->mem[k->rank].ch->done, memory_order_acquire)) {
            return true;
        }
    }
    return false;
}

/* Why this backend does not run the call (every member reaches the same verdict), or NULL. */
static const char *refuse(const shm_coll_t *sc, const ofl_comm_t *comm, const ofl_args_t *a,
                          char *why, size_t len)
{
    unsigned pair = comm->ctx_id / 2;
    if (!sc->enabled)
        snprintf(why, len, "shm: RMP_SHM_COLL=0");
    else if (pair >= SHM_COLL_CHANNELS)
        snprintf(why, len, "shm: context pair %u has no channel (pairs 0 to %d do)", pair,
                 SHM_COLL_CHANNELS - 1);
    else if (a->coll == OFL_ALLGATHER && a->bytes * (size_t)comm->size > SHM_COLL_MAX &&
             a->bytes > sc->block_cap)
        snprintf(why, len, "shm: blocks of %zu bytes are more than a block buffer's %zu",
                 a->bytes, sc->block_cap);
    else if (a->coll != OFL_BARRIER && a->coll != OFL_ALLGATHER && a->bytes > SHM_COLL_MAX)
        snprintf(why, len, "shm: %zu bytes are more than a channel's %d", a->bytes,
                 SHM_COLL_MAX);
    else if (a->coll == OFL_ALLREDUCE && !a->reduce.fn)
        snprintf(why, len, "shm: no host reduction for this op");
    else
        return NULL;
    return why;
}

/* A broadcast's tag: its communicator (context id and members) and its sequence number there.
 * The members make it part of a publication's name because a context id comes back: a
 * communicator freed and made again over other ranks may reach the same sequence number while
 * a reader of the old one has not read yet (a reader holds its context pair until then, so
 * the same members cannot have it again). Never 0. */
static uint64_t bcast_tag(const ofl_comm_t *comm, uint32_t seq)
{
    uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)comm->ctx_id << 32 | seq);
    for (int r = 0; r < comm->size; r++)
        h = (h ^ (uint32_t)comm->world[r]) * 0x100000001b3ull;
    h ^= h >> 29;
    return h ? h : 1;
}

/* Broadcast, fan-out only: the root publishes into a free buffer of its own and is done; a
 * member copies the publication out and counts itself as read; the last to read wakes the
 * root if it sleeps waiting for a buffer. Nobody waits for anyone but the root. */
static int bcast_step(sc_call_t *k)
{
    sc_chan_t *root = k->mem[k->root].ch;
    int p, n = k->size;
    if (k->rank == k->root) {
        if ((p = pub_free(root)) < 0)
            return RMP_INPROGRESS;
        atomic_store_explicit(&root->pub[p].tag, 0, memory_order_relaxed);
        root->need[p] = (uint32_t)n - 1;
        atomic_store_explicit(&root->read[p], 0, memory_order_relaxed);
        if (k->bytes)
            memcpy(root->pub[p].data, k->buf, k->bytes);
        root->pub[p].bytes = k->bytes;
        atomic_store_explicit(&root->pub[p].tag, k->tag, memory_order_release);
        atomic_thread_fence(memory_order_seq_cst); /* pairs with the sleeper's: shm_wake.c */
        for (int r = 0; r < n; r++)
            if (r != k->rank)
                k->sc->host.wake(k->sc->tp, k->mem[r].world);
        return RMP_SUCCESS;
    }
    if ((p = pub_find(k, root)) < 0)
        return RMP_INPROGRESS;
    uint32_t need = root->need[p]; /* before I count: the root may reuse p once I did */
    size_t sent = root->pub[p].bytes, got = sent < k->bytes ? sent : k->bytes;
    if (got)
        memcpy(k->buf, root->pub[p].data, got);
    if (atomic_fetch_add_explicit(&root->read[p], 1, memory_order_acq_rel) + 1 == need) {
        atomic_thread_fence(memory_order_seq_cst);
        k->sc->host.wake(k->sc->tp, k->mem[k->root].world);
    }
    return sent == k->bytes ? RMP_SUCCESS : RMP_ERR_TRUNCATE;
}

static int sc_start(tp_t *tp, const ofl_comm_t *comm, const ofl_args_t *a, ofl_req_t **req,
                    char *why, size_t len)
{
    shm_coll_t *sc = (shm_coll_t *)tp->offload; /* my table is my first member */
    int c = (int)(comm->ctx_id / 2), n = comm->size;
    sc_call_t *k = call_get(sc, n);
    if (!k)
        return RMP_ERR_NO_MEM;
    bool bc = a->coll == OFL_BCAST;
    int cap = k->cap;
    *k = (sc_call_t){.cap = cap, .sc = sc, .chan = c, .state = SC_QUEUED, .ctx = comm->ctx_id,
                     .coll = a->coll, .rank = comm->rank, .size = n, .root = bc ? a->root : 0,
                     .buf = bc ? a->buf : a->rbuf, .sbuf = a->sbuf,
                     .bytes = a->coll == OFL_BARRIER ? 0 : a->bytes, .red = a->reduce,
                     .cut = a->coll == OFL_ALLGATHER && a->cut};
    /* One pass over the members (after the fixed part: assigning a struct may write its tail
     * padding, where mem[] begins): their areas, and whether the communicator is one of this
     * node's shm at all (if not, it is not mine to explain: no reason) */
    for (int r = 0; r < n; r++) {
        sc_area_t *ar = sc->host.area(tp, k->mem[r].world = comm->world[r]);
        if (!ar) {
            why[0] = '\0';
            call_put(sc, k);
            return RMP_ERR_NOT_SUPPORTED;
        }
        k->mem[r].ch = c < SHM_COLL_CHANNELS ? &ar->chan[c] : NULL;
        k->mem[r].bl = c < SHM_COLL_CHANNELS ? area_blocks(ar, sc->block_cap, c) : NULL;
    }
    if (refuse(sc, comm, a, why, len)) {
        call_put(sc, k);
        return RMP_ERR_NOT_SUPPORTED;
    }
    if (bc)
        k->tag = bcast_tag(comm, a->seq);
    k->large = a->coll == OFL_ALLGATHER && a->bytes * (size_t)n > SHM_COLL_MAX;
    k->par = (int)(a->seq & 1);
    k->mark = (uint64_t)comm->ctx_id << 32 | 1u << 31 | (a->seq & 0x7fffffffu);
    if (sc->tail[c])
        sc->tail[c]->next = k;
    else
        sc->head[c] = k;
    sc->tail[c] = k;
    *req = (ofl_req_t *)k;
    return RMP_SUCCESS;
}

/* Large allgather: my block into my buffer of this call, for the n - 1 others (published by
 * my count, which releases). RMP_INPROGRESS while the buffer's last readers still copy. */
static int blocks_post(sc_call_t *k)
{
    if (k->posted)
        return RMP_SUCCESS;
    if (!blocks_free(k))
        return RMP_INPROGRESS;
    sc_blocks_t *b = k->mem[k->rank].bl;
    int p = k->par;
    atomic_store_explicit(&b->read[p], 0, memory_order_relaxed);
    b->need[p] = (uint32_t)k->size - 1;
    b->bytes = (uint32_t)k->bytes;
    const char *src = k->sbuf ? k->sbuf : (char *)k->buf + (size_t)k->rank * k->bytes;
    if (k->bytes)
        memcpy(b->blk + (size_t)p * k->sc->block_cap, src, k->bytes);
    k->posted = true;
    return RMP_SUCCESS;
}

/* Large allgather, the call over with rc: every block copied straight from its owner's buffer
 * (mine from where it is), each owner counted as read, and woken by its last reader (it may
 * sleep waiting for the buffer). A failed call reads nothing: each member frees its own. */
static void blocks_copy(sc_call_t *k, int rc)
{
    int n = k->size, me = k->rank, p = k->par;
    sc_blocks_t *mine = k->mem[me].bl;
    if (rc != RMP_SUCCESS && rc != RMP_ERR_TRUNCATE) {
        atomic_store_explicit(&mine->read[p], mine->need[p], memory_order_release);
        return;
    }
    if (k->sbuf && k->bytes)
        memcpy((char *)k->buf + (size_t)me * k->bytes, k->sbuf, k->bytes);
    for (int i = 1; i < n; i++) { /* from me + 1 on: the members do not all start at rank 0 */
        int r = (me + i) % n;
        sc_blocks_t *b = k->mem[r].bl;
        uint32_t need = b->need[p]; /* before I count: the owner may reuse blk[p] once I did */
        if (k->bytes)
            memcpy((char *)k->buf + (size_t)r * k->bytes, b->blk + (size_t)p * k->sc->block_cap,
                   k->bytes);
        if (atomic_fetch_add_explicit(&b->read[p], 1, memory_order_acq_rel) + 1 == need) {
            atomic_thread_fence(memory_order_seq_cst); /* pairs with the sleeper's: shm_wake.c */
            k->sc->host.wake(k->sc->tp, k->mem[r].world);
        }
    }
}

/* The n-th member: every input is visible (acquired through the count). The result, in my
 * buffer, then in every other member's out (an allgather's in mine only); their flags; one
 * fence; their wakeups. */
static void combine(sc_call_t *k, uint32_t word)
{
    int rc = RMP_SUCCESS, n = k->size;
    const char *res = NULL;
    bool bad = (word & SC_BAD) != 0, gather = k->coll == OFL_ALLGATHER;
    if (bad) {
        rc = RMP_ERR_ARG;
        tp_error(k->sc->tp, "the ranks of a communicator (collective context %u) called different "
                 "collectives, or one with different sizes, at the same point: each call "
                 "fails with RMP_ERR_ARG (RMP_CHECK_COLLECTIVES=1 names the ranks)", k->ctx);
    } else if (k->coll == OFL_ALLREDUCE && k->bytes) {
        /* in_0 op (in_1 op (... op in_n-1)), into my own result buffer */
        memcpy(k->buf, k->mem[n - 1].ch->in, k->bytes);
        for (int r = n - 2; r >= 0 && rc == RMP_SUCCESS; r--)
            rc = k->red.fn(&k->red, k->mem[r].ch->in, k->buf);
        res = k->buf;
    } else if (k->large) { /* the blocks stay where their owners put them */
        for (int r = 0; r < n && rc == RMP_SUCCESS; r++)
            if (k->mem[r].bl->bytes != (uint32_t)k->bytes) {
                rc = RMP_ERR_ARG;
                tp_error(k->sc->tp, "the ranks of a communicator (collective context %u) called "
                         "allgather with blocks of different sizes (%zu bytes here, %u at rank "
                         "%d): each call fails with RMP_ERR_ARG", k->ctx, k->bytes,
                         k->mem[r].bl->bytes, r);
            }
        if (rc == RMP_SUCCESS && (word & SC_CUT))
            rc = RMP_ERR_TRUNCATE;
    } else if (gather) {
        for (int r = 0; r < n && k->bytes; r++)
            memcpy((char *)k->buf + (size_t)r * k->bytes, k->mem[r].ch->in, k->bytes);
        memcpy(k->mem[k->rank].ch->out, k->buf, (size_t)n * k->bytes);
        if (word & SC_CUT)
            rc = RMP_ERR_TRUNCATE;
    }
    for (int r = 0; r < n; r++) {
        if (r == k->rank)
            continue;
        sc_chan_t *m = k->mem[r].ch;
        if (res)
            memcpy(m->out, res, k->bytes);
        m->status = rc;
        m->from = k->rank;
        atomic_store_explicit(&m->done, 1, memory_order_release);
    }
    atomic_thread_fence(memory_order_seq_cst); /* pairs with the sleeper's: shm_wake.c */
    for (int r = 0; r < n; r++)
        if (r != k->rank)
            k->sc->host.wake(k->sc->tp, k->mem[r].world);
    k->rc = rc;
}

/* Count myself in. RMP_INPROGRESS: the home's count belongs to another communicator still
 * (try again later), or I am in and wait; RMP_SUCCESS: I was the n-th and the call is done. */
static int arrive(sc_call_t *k)
{
    sc_chan_t *mine = k->mem[k->rank].ch, *home = k->mem[0].ch;
    uint64_t v = atomic_load_explicit(&home->arrived, memory_order_relaxed), nv;
    uint32_t in, lo, what = (uint32_t)k->coll << SC_KIND_SHIFT |
                            (k->large ? SC_LARGE_BYTES : (uint32_t)k->bytes) << SC_BYTES_SHIFT;
    bool posted = false;
    if (k->large && blocks_post(k) == RMP_INPROGRESS)
        return RMP_INPROGRESS;
    do {
        lo = (uint32_t)v;
        in = lo & SC_COUNT_MASK;
        if (in && (uint32_t)(v >> 32) != k->ctx)
            return RMP_INPROGRESS;
        if (!posted) { /* my contribution, before I count (my channel is free: see top) */
            atomic_store_explicit(&mine->done, 0, memory_order_relaxed);
            if (k->bytes && k->coll != OFL_BARRIER && !k->large)
                memcpy(mine->in,
                       k->sbuf                     ? k->sbuf
                       : k->coll == OFL_ALLGATHER ? (char *)k->buf + (size_t)k->rank * k->bytes
                                                   : k->buf,
                       k->bytes);
            posted = true;
        }
        uint32_t nlo = !in ? what | 1
                       : (lo & ~(SC_BAD | SC_CUT | SC_COUNT_MASK)) != what ? (lo + 1) | SC_BAD
                                                                           : lo + 1;
        nlo |= k->cut ? SC_CUT : 0;
        nv = (uint64_t)k->ctx << 32 | nlo;
    } while (!atomic_compare_exchange_weak_explicit(&home->arrived, &v, nv, memory_order_acq_rel,
                                                    memory_order_relaxed));
    atomic_store_explicit(&mine->entered, k->mark, memory_order_relaxed);
    if ((int)in + 1 < k->size) {
        k->state = SC_ARRIVED;
        return RMP_INPROGRESS;
    }
    atomic_store_explicit(&home->arrived, 0, memory_order_relaxed); /* before any result */
    combine(k, (uint32_t)nv);
    if (k->large)
        blocks_copy(k, k->rc);
    return RMP_SUCCESS;
}

static int sc_progress(ofl_req_t *req)
{
    sc_call_t *k = (sc_call_t *)req;
    shm_coll_t *sc = k->sc;
    if (k->state == SC_DONE)
        return k->rc;
    if (sc->head[k->chan] != k) /* an earlier call of mine on this channel runs first */
        return RMP_INPROGRESS;
    if (k->coll == OFL_BCAST) {
        if ((k->rc = bcast_step(k)) == RMP_INPROGRESS)
            return RMP_INPROGRESS;
    } else if (k->state == SC_QUEUED) {
        if (arrive(k) == RMP_INPROGRESS)
            return RMP_INPROGRESS;
    } else {
        sc_chan_t *mine = k->mem[k->rank].ch;
        if (!atomic_load_explicit(&mine->done, memory_order_acquire))
            return RMP_INPROGRESS;
        k->rc = mine->status;
        if (k->large)
            blocks_copy(k, k->rc);
        else if (k->coll == OFL_ALLGATHER && k->bytes &&
            (k->rc == RMP_SUCCESS || k->rc == RMP_ERR_TRUNCATE))
            memcpy(k->buf, k->mem[mine->from].ch->out, (size_t)k->size * k->bytes);
        else if (k->rc == RMP_SUCCESS && k->bytes)
            memcpy(k->buf, mine->out, k->bytes);
    }
    k->state = SC_DONE;
    if (!(sc->head[k->chan] = k->next))
        sc->tail[k->chan] = NULL;
    return k->rc;
}

static void sc_finish(ofl_req_t *req)
{
    sc_call_t *k = (sc_call_t *)req;
    call_put(k->sc, k);
}

/* What a call waits for, for the hang report: the members that have not counted themselves
 * into it (their `entered` is not this call's mark), or the root of a broadcast. */
static void sc_describe(ofl_req_t *req, char *buf, size_t len)
{
    const sc_call_t *k = (const sc_call_t *)req;
    if (k->coll == OFL_BCAST) {
        if (k->rank == k->root)
            snprintf(buf, len, "waiting for the readers of an earlier broadcast of mine");
        else
            snprintf(buf, len, "waiting for the root, rank %d", k->root);
        return;
    }
    if (k->sc->head[k->chan] != k) {
        snprintf(buf, len, "queued behind an earlier call of mine on the same channel");
        return;
    }
    if (k->state == SC_QUEUED && k->large && !k->posted && !blocks_free(k)) {
        snprintf(buf, len, "waiting for the members of an earlier allgather on channel %d to "
                 "copy my block out of its buffer", k->chan);
        return;
    }
    if (k->state == SC_QUEUED) {
        snprintf(buf, len, "waiting for channel %d, which another communicator still counts on",
                 k->chan);
        return;
    }
    size_t used = 0;
    int shown = 0;
    for (int r = 0; r < k->size && used < len; r++)
        if (atomic_load_explicit(&k->mem[r].ch->entered, memory_order_relaxed) != k->mark)
            used += (size_t)snprintf(buf + used, len - used, "%s%d",
                                     shown++ ? ", " : "waiting for rank ", r);
    if (!shown)
        snprintf(buf, len, "every member arrived: waiting for the last one's result");
}

static void sc_comm_free(tp_t *tp, const ofl_comm_t *comm)
{
    (void)tp; /* nothing per communicator: a channel's state is its calls */
    (void)comm;
}
