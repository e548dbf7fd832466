/* part_move.c — how partitions move (part.h has the wire): rmp_pready marks send partitions
 * ready from any thread (atomics: a partition is counted once, a chunk is sent once, by
 * whichever of Pready and the CTS's arrival comes last), part_progress advances a round from
 * progress_poll, rmp_parrived tells whether a receive partition's bytes all landed. */
#include <stdlib.h>

#include "p2p.h"
#include "part.h"

static bool q_done(const struct rmp_request *q)
{
    return atomic_load_explicit(&q->done, memory_order_acquire) != 0;
}

/* Send chunk k once (lock held), if the round has no error; a chunk not sent counts as done. */
static void part_send_chunk(part_t *p, int k)
{
    if (atomic_exchange(&p->chunk_sent[k], 1))
        return;
    int rc = p->err;
    if (!rc)
        rc = p2p_isend_locked(p->c, 1, p->buf + part_chunk_off(p, k), part_chunk_len(p, k),
                              p->peer, PART_TAG(p->peer_id, k), &p->xreq[k]);
    if (rc) {
        p->err = p->err ? p->err : rc;
        p->xdone++;
    }
}

/* Sender, lock held: the CTS of the round came; send every chunk already ready. */
static int part_take_cts(part_t *p)
{
    if (atomic_load(&p->cts) || !p->cts_req || !q_done(p->cts_req))
        return 0;
    int err = p->cts_req->status.error;
    req_free(p->cts_req);
    p->cts_req = NULL;
    p->peer_id = p->cts_msg.id;
    p->err = err ? err : p->cts_msg.err;
    int rc = p2p_irecv_locked(p->c, 1, &p->cts_msg, sizeof(p->cts_msg), p->peer,
                              PART_CTS_TAG(p->id), &p->cts_req); /* the next round's */
    if (rc && !p->err)
        p->err = rc;
    atomic_store(&p->cts, 1); /* before reading the counts: see rmp_pready */
    for (int k = 0; k < p->nchunks; k++)
        if (p->err || atomic_load(&p->chunk_ready[k]) == part_chunk_parts(p, k, p->nparts))
            part_send_chunk(p, k);
    return 1;
}

/* Receiver, lock held: chunk k landed; the partitions it completes have arrived. */
static void part_landed(part_t *p, int k)
{
    size_t off = part_chunk_off(p, k), len = part_chunk_len(p, k);
    if (len == 0 || p->pbytes == 0)
        return;
    for (size_t q = off / p->pbytes; q <= (off + len - 1) / p->pbytes; q++) {
        if (--p->pending[q] > 0)
            continue;
        if (p->pack)
            dtype_unpack(p->dt, p->count, p->pack + q * p->pbytes, p->pbytes,
                         p->ubuf + q * (size_t)p->count * p->dt->extent);
        atomic_store_explicit(&p->arrived[q], 1, memory_order_release);
    }
}

/* Receiver, lock held: the chunks of the sender the HELLO describes, and which of them cover
 * each of my partitions. RMP_ERR_TRUNCATE (kept for every round) when the totals differ. */
static int part_learn(part_t *p)
{
    const part_hello_t *h = &p->hello;
    p->matched = true;
    p->peer_id = h->id;
    if (h->bytes != p->total || h->nparts < 0 || (h->nparts == 0 && h->bytes))
        return p->err = RMP_ERR_TRUNCATE;
    p->sbytes = h->nparts ? (size_t)(h->bytes / (uint64_t)h->nparts) : 0;
    p->per_chunk = h->nparts > PART_MAX_CHUNKS ? (h->nparts + PART_MAX_CHUNKS - 1) / PART_MAX_CHUNKS
                                               : 1;
    int nchunks = h->nparts ? (h->nparts + p->per_chunk - 1) / p->per_chunk : 0;
    p->xreq = calloc((size_t)nchunks + 1, sizeof(*p->xreq));
    if (!p->xreq)
        return p->err = RMP_ERR_NO_MEM;
    p->nchunks = nchunks;
    return RMP_SUCCESS;
}

/* Receiver, lock held: post this round's receives (counting the chunks over each partition),
 * then the CTS. Waits (returns 0) while the HELLO or the last round's CTS send is out. */
static int part_post(part_t *p)
{
    if (!p->matched) {
        if (!q_done(p->hello_req))
            return 0;
        int err = p->hello_req->status.error;
        req_free(p->hello_req);
        p->hello_req = NULL;
        if (err || part_learn(p) != RMP_SUCCESS)
            p->err = err ? err : p->err;
    }
    if (p->cts_req && !q_done(p->cts_req))
        return 0;
    req_free(p->cts_req);
    p->cts_req = NULL;
    p->posted = true;
    for (int q = 0; q < p->nparts; q++)
        p->pending[q] = 0;
    for (int k = 0; !p->err && k < p->nchunks; k++) {
        size_t off = part_chunk_off(p, k), len = part_chunk_len(p, k);
        for (size_t q = off / (p->pbytes ? p->pbytes : 1); len && q <= (off + len - 1) / p->pbytes;
             q++)
            p->pending[q]++;
        int rc = p2p_irecv_locked(p->c, 1, p->buf + off, len, p->peer, PART_TAG(p->id, k),
                                  &p->xreq[k]);
        if (rc)
            p->err = rc; /* the chunks posted still land; the rest count as done */
    }
    for (int q = 0; p->total == 0 && q < p->nparts; q++)
        atomic_store(&p->arrived[q], 1);
    for (int k = 0; k < p->nchunks; k++)
        if (!p->xreq[k])
            p->xdone++;
    p->cts_msg = (part_cts_t){.id = p->id, .err = p->err};
    int rc = p2p_isend_locked(p->c, 1, &p->cts_msg, sizeof(p->cts_msg), p->peer,
                              PART_CTS_TAG(p->peer_id), &p->cts_req);
    if (rc && !p->err)
        p->err = rc;
    return 1;
}

int part_progress(struct rmp_request *r)
{
    part_t *p = r->coll;
    int n = 0;
    if (p->send)
        n += part_take_cts(p);
    else if (!p->posted)
        n += part_post(p);
    if (p->send ? !atomic_load(&p->cts) : !p->posted)
        return n;
    for (int k = 0; k < p->nchunks; k++) {
        struct rmp_request *q = p->xreq[k];
        if (!q || !q_done(q))
            continue;
        if (q->status.error && !p->err)
            p->err = q->status.error;
        if (!p->send)
            part_landed(p, k);
        req_free(q);
        p->xreq[k] = NULL;
        p->xdone++;
        n++;
    }
    if (p->xdone < p->nchunks)
        return n;
    r->status.count = p->err ? 0 : p->total;
    progress_coll_remove(&rmp_ctx, r);
    req_complete(r, p->err);
    return n + 1;
}

/* The partitioned request of a handle, or NULL. */
static struct rmp_request *part_lookup(rmp_request_t h)
{
    struct rmp_request *r = req_lookup(h);
    return r && !r->orphan && r->coll_progress == part_progress ? r : NULL;
}

/* The active partitioned send of a handle, or NULL. */
static part_t *part_sender(rmp_request_t req)
{
    struct rmp_request *r = part_lookup(req);
    part_t *p = r && r->active ? r->coll : NULL;
    return p && p->send ? p : NULL;
}

/* Partition i is ready (i checked): pack it, count it, and send its chunk if that completes
 * the chunk after the CTS came. */
static int part_mark(part_t *p, int i)
{
    if (atomic_exchange(&p->ready[i], 1))
        return RMP_ERR_ARG; /* marked twice in one round */
    if (p->peer == RMP_PROC_NULL)
        return RMP_SUCCESS;
    if (p->pack)
        dtype_pack(p->dt, p->count, p->ubuf + (size_t)i * (size_t)p->count * p->dt->extent,
                   p->pack + (size_t)i * p->pbytes);
    int k = i / p->per_chunk;
    int got = atomic_fetch_add(&p->chunk_ready[k], 1) + 1;
    /* seq_cst against part_take_cts: its store of cts then load of the count, our add then
     * load of cts; one of the two sees the other, and part_send_chunk sends once */
    if (got == part_chunk_parts(p, k, p->nparts) && atomic_load(&p->cts)) {
        rmp_ctx_t *ctx = &rmp_ctx;
        ctx_lock(ctx);
        part_send_chunk(p, k);
        ctx_unlock(ctx);
    }
    return RMP_SUCCESS;
}

static int part_ready_check(rmp_request_t req, part_t **pp)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    *pp = part_sender(req);
    return *pp ? RMP_SUCCESS : RMP_ERR_REQUEST;
}

int rmp_pready(int partition, rmp_request_t req)
{
    return rmp_pready_range(partition, partition, req);
}

int rmp_pready_range(int lo, int hi, rmp_request_t req)
{
    part_t *p;
    int rc = part_ready_check(req, &p);
    if (rc)
        return rc;
    if (lo < 0 || hi >= p->nparts || lo > hi)
        return RMP_ERR_ARG;
    for (int i = lo; i <= hi && !rc; i++)
        rc = part_mark(p, i);
    return rc;
}

int rmp_pready_list(int n, const int partitions[], rmp_request_t req)
{
    part_t *p;
    int rc = part_ready_check(req, &p);
    if (rc)
        return rc;
    if (n < 0 || (n > 0 && !partitions))
        return RMP_ERR_ARG;
    for (int j = 0; j < n; j++) /* all valid before any is marked */
        if (partitions[j] < 0 || partitions[j] >= p->nparts)
            return RMP_ERR_ARG;
    for (int j = 0; j < n && !rc; j++)
        rc = part_mark(p, partitions[j]);
    return rc;
}

int rmp_parrived(rmp_request_t req, int partition, int *flag)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    struct rmp_request *r = part_lookup(req);
    part_t *p = r ? r->coll : NULL;
    if (!p || p->send)
        return RMP_ERR_REQUEST;
    if (!flag || partition < 0 || partition >= p->nparts)
        return RMP_ERR_ARG;
    if (!r->active) { /* MPI-4.0 4.2.4: an inactive request's partitions are all there */
        *flag = 1;
        return RMP_SUCCESS;
    }
    if (!atomic_load_explicit(&p->arrived[partition], memory_order_acquire)) {
        rmp_ctx_t *ctx = &rmp_ctx;
        ctx_lock(ctx);
        progress_poll(ctx);
        ctx_unlock(ctx);
    }
    *flag = atomic_load_explicit(&p->arrived[partition], memory_order_acquire);
    return RMP_SUCCESS;
}
