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
 * The parts: queueing and progress here, broadcast in shm_coll_bcast.c, the counted calls in
 * shm_coll_count.c, what they share in shm_coll_call.h.
 * Every rank of the communicator makes the same choice in start(): it depends on the
 * collective, the size, the context pair and which ranks are on this node only. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/shm/shm_coll_call.h"

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


bool shm_coll_pending(const shm_coll_t *sc)
{
    for (int c = 0; c < SHM_COLL_CHANNELS; c++) {
        const sc_call_t *k = sc->head[c];
        if (!k)
            continue;
        if (k->coll == OFL_BCAST) {
            const sc_chan_t *root = k->mem[k->root].ch;
            if ((k->rank == k->root ? sc_pub_free(root) : sc_pub_find(k, root)) >= 0)
                return true;
        } else if (k->state == SC_QUEUED && k->large && !k->posted) {
            if (sc_blocks_free(k)) /* else its last reader wakes me */
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
        k->tag = sc_bcast_tag(comm, a->seq);
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

static int sc_progress(ofl_req_t *req)
{
    sc_call_t *k = (sc_call_t *)req;
    shm_coll_t *sc = k->sc;
    if (k->state == SC_DONE)
        return k->rc;
    if (sc->head[k->chan] != k) /* an earlier call of mine on this channel runs first */
        return RMP_INPROGRESS;
    if (k->coll == OFL_BCAST) {
        if ((k->rc = sc_bcast_step(k)) == RMP_INPROGRESS)
            return RMP_INPROGRESS;
    } else if (k->state == SC_QUEUED) {
        if (sc_arrive(k) == RMP_INPROGRESS)
            return RMP_INPROGRESS;
    } else {
        sc_chan_t *mine = k->mem[k->rank].ch;
        if (!atomic_load_explicit(&mine->done, memory_order_acquire))
            return RMP_INPROGRESS;
        k->rc = mine->status;
        if (k->large)
            sc_blocks_copy(k, k->rc);
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
    if (k->state == SC_QUEUED && k->large && !k->posted && !sc_blocks_free(k)) {
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
