/* part.c — partitioned communication's requests (MPI-4.0 ch. 4): rmp_psend_init and
 * rmp_precv_init check the arguments and set the pair up (part.h: the HELLO that matches it),
 * rmp_start begins a round, rmp_request_free takes everything back. The request is a
 * persistent REQ_COLL one advanced by progress_poll (part_progress) while a round runs; wait
 * and test complete it as any persistent request. */
#include <stdlib.h>
#include <string.h>

#include "p2p.h"
#include "part.h"

/* A free id (lock held), or -1: ids name requests in the tags of the messages to them. */
static int part_id_take(rmp_ctx_t *ctx)
{
    for (int i = 0; i < PART_MAX_IDS; i++)
        if (!(ctx->part_ids[i / 64] & (1ull << (i % 64)))) {
            ctx->part_ids[i / 64] |= 1ull << (i % 64);
            return i;
        }
    return -1;
}

static void part_id_give(rmp_ctx_t *ctx, int id)
{
    ctx->part_ids[id / 64] &= ~(1ull << (id % 64));
}

bool part_is(const struct rmp_request *r)
{
    return r->coll_progress == part_progress;
}

/* An internal message of the pair is over: wait for what may still use its buffer (lock
 * held). A receive nobody sent to is taken back. */
static void part_settle(rmp_ctx_t *ctx, struct rmp_request *q)
{
    if (!q)
        return;
    if (q->kind == REQ_RECV)
        p2p_cancel_locked(q);
    progress_wait(ctx, &q->done);
    req_free(q);
}

static void part_free_mem(part_t *p)
{
    free(p->pack);
    free(p->xreq);
    free(p->ready);
    free(p->chunk_ready);
    free(p->chunk_sent);
    free(p->pending);
    free(p->arrived);
    free(p);
}

void part_release_locked(struct rmp_request *r)
{
    part_t *p = r->coll;
    rmp_ctx_t *ctx = &rmp_ctx;
    part_settle(ctx, p->hello_req);
    part_settle(ctx, p->cts_req);
    if (p->xreq)
        for (int k = 0; k < p->nchunks; k++)
            part_settle(ctx, p->xreq[k]);
    part_id_give(ctx, p->id);
    part_free_mem(p);
    r->coll = NULL;
}

/* The arrays of p for its side (sender: its own chunks too). */
static int part_alloc(part_t *p)
{
    size_t n = (size_t)p->nparts + 1;
    if (p->send) {
        p->per_chunk = p->nparts > PART_MAX_CHUNKS ? (p->nparts + PART_MAX_CHUNKS - 1) / PART_MAX_CHUNKS
                                                   : 1;
        p->nchunks = p->nparts ? (p->nparts + p->per_chunk - 1) / p->per_chunk : 0;
        p->sbytes = p->pbytes;
        size_t m = (size_t)p->nchunks + 1;
        p->ready = calloc(n, sizeof(*p->ready));
        p->chunk_ready = calloc(m, sizeof(*p->chunk_ready));
        p->chunk_sent = calloc(m, sizeof(*p->chunk_sent));
        p->xreq = calloc(m, sizeof(*p->xreq));
        if (!p->ready || !p->chunk_ready || !p->chunk_sent || !p->xreq)
            return RMP_ERR_NO_MEM;
    } else {
        p->pending = calloc(n, sizeof(*p->pending));
        p->arrived = calloc(n, sizeof(*p->arrived));
        if (!p->pending || !p->arrived)
            return RMP_ERR_NO_MEM;
    }
    p->buf = p->ubuf;
    if (!p->dt->contig) {
        if (!(p->pack = malloc(p->total ? p->total : 1)))
            return RMP_ERR_NO_MEM;
        p->buf = p->pack;
    }
    return RMP_SUCCESS;
}

/* The pair's first messages (lock held): the sender's HELLO and the receive of its first
 * CTS, or the receiver's receive of the HELLO. */
static int part_open(part_t *p)
{
    if (p->peer == RMP_PROC_NULL)
        return RMP_SUCCESS;
    if (!p->send)
        return p2p_irecv_locked(p->c, 1, &p->hello, sizeof(p->hello), p->peer,
                                PART_HELLO_TAG(p->utag), &p->hello_req);
    p->hello = (part_hello_t){.id = p->id, .nparts = p->nparts, .bytes = p->total};
    int rc = p2p_isend_locked(p->c, 1, &p->hello, sizeof(p->hello), p->peer,
                              PART_HELLO_TAG(p->utag), &p->hello_req);
    if (rc == RMP_SUCCESS)
        rc = p2p_irecv_locked(p->c, 1, &p->cts_msg, sizeof(p->cts_msg), p->peer,
                              PART_CTS_TAG(p->id), &p->cts_req);
    return rc;
}

static int part_start(struct rmp_request *r);

static int part_init(bool send, const void *buf, int nparts, long long count,
                     rmp_datatype_t type, int peer, int tag, rmp_comm_t comm, rmp_request_t *req)
{
    p2p_args_t a;
    if (count > INT32_MAX)
        return RMP_ERR_COUNT;
    int rc = p2p_check_args(comm, &a, buf, (int)count, type, peer, tag, !send);
    if (rc)
        return rc;
    if (peer == RMP_ANY_SOURCE) /* partitioned receives name their sender and tag */
        return RMP_ERR_RANK;
    if (tag == RMP_ANY_TAG)
        return RMP_ERR_TAG;
    size_t total;
    if (!req || nparts < 0)
        return RMP_ERR_ARG;
    if (__builtin_mul_overflow(a.bytes, (size_t)nparts, &total) ||
        dtype_bytes(a.t, (size_t)count * (size_t)nparts, &total))
        return RMP_ERR_COUNT;
    part_t *p = calloc(1, sizeof(*p));
    if (!p)
        return RMP_ERR_NO_MEM;
    *p = (part_t){.send = send, .c = a.c, .peer = peer, .utag = tag, .peer_id = -1, .dt = a.t,
                  .ubuf = (char *)buf, .nparts = nparts, .count = (int)count,
                  .pbytes = a.bytes, .total = total};
    rc = part_alloc(p);
    struct rmp_request *r = rc ? NULL : req_alloc(REQ_COLL);
    if (!r) {
        part_free_mem(p);
        return rc ? rc : RMP_ERR_NO_MEM;
    }
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    p->id = part_id_take(ctx);
    rc = p->id < 0 ? RMP_ERR_NO_MEM : part_open(p);
    if (rc) {
        if (p->id >= 0) {
            r->coll = p;
            part_release_locked(r);
        } else {
            part_free_mem(p);
        }
        req_free(r);
        ctx_unlock(ctx);
        return rc;
    }
    comm_hold(a.c); /* released by req_free, as a persistent request's */
    ctx_unlock(ctx);
    r->persistent = true;
    r->comm = a.c;
    r->coll = p;
    r->coll_start = part_start;
    r->coll_progress = part_progress;
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    atomic_store_explicit(&r->done, 1, memory_order_release); /* inactive */
    *req = req_handle(r);
    return RMP_SUCCESS;
}

int rmp_psend_init(const void *buf, int partitions, long long count, rmp_datatype_t type,
                   int dest, int tag, rmp_comm_t comm, rmp_request_t *req)
{
    return part_init(true, buf, partitions, count, type, dest, tag, comm, req);
}

int rmp_precv_init(void *buf, int partitions, long long count, rmp_datatype_t type, int source,
                   int tag, rmp_comm_t comm, rmp_request_t *req)
{
    return part_init(false, buf, partitions, count, type, source, tag, comm, req);
}

/* A new round's state (the request is inactive: no other thread touches it). */
static void part_reset(part_t *p)
{
    p->xdone = 0;
    p->err = p->matched && !p->send ? p->err : 0;
    p->posted = false;
    atomic_store(&p->cts, 0);
    for (int i = 0; p->send && i < p->nparts; i++)
        atomic_store_explicit(&p->ready[i], 0, memory_order_relaxed);
    for (int k = 0; p->send && k < p->nchunks; k++) {
        atomic_store_explicit(&p->chunk_ready[k], 0, memory_order_relaxed);
        atomic_store_explicit(&p->chunk_sent[k], 0, memory_order_relaxed);
    }
    for (int i = 0; !p->send && i < p->nparts; i++)
        atomic_store_explicit(&p->arrived[i], 0, memory_order_relaxed);
}

/* rmp_start of a partitioned request (lock not held). */
static int part_start(struct rmp_request *r)
{
    part_t *p = r->coll;
    part_reset(p);
    r->active = true;
    atomic_store_explicit(&r->done, 0, memory_order_release);
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    if (p->peer == RMP_PROC_NULL) { /* nothing moves; every partition is there */
        for (int i = 0; !p->send && i < p->nparts; i++)
            atomic_store(&p->arrived[i], 1);
        r->status = (rmp_status_t){.source = RMP_PROC_NULL, .tag = RMP_ANY_TAG};
        req_complete(r, RMP_SUCCESS);
    } else {
        r->status = (rmp_status_t){.source = p->peer, .tag = p->utag};
        progress_coll_add(ctx, r);
        part_progress(r);
    }
    ctx_unlock(ctx);
    return RMP_SUCCESS;
}
