/* persist.c — persistent requests: rmp_*_init checks the arguments, resolves the datatype and
 * the peer and allocates the pack buffer once, keeping them in the request; rmp_start resets
 * the protocol state and runs the send or receive again with them. wait/test (wait.c) leave a
 * completed persistent request inactive instead of freeing it. */
#include <stdlib.h>

#include "p2p.h"
#include "protocol.h"

enum { PM_STANDARD, PM_SYNC, PM_BUFFERED }; /* a ready send is a standard one */

static int persist_init(req_kind_t kind, int mode, const void *buf, int count,
                        rmp_datatype_t type, int peer, int tag, rmp_comm_t comm,
                        rmp_request_t *req)
{
    p2p_args_t a;
    int rc = p2p_check_args(comm, &a, buf, count, type, peer, tag, kind == REQ_RECV);
    if (rc)
        return rc;
    if (!req)
        return RMP_ERR_ARG;
    struct rmp_request *r = req_alloc(kind);
    if (!r)
        return RMP_ERR_NO_MEM;
    r->persistent = true;
    r->pmode = (uint8_t)mode;
    r->sync = mode == PM_SYNC;
    r->ctx_id = a.c->ctx_id;
    r->comm = a.c;
    /* held until the request is freed (req_free): a communicator freed meanwhile keeps its
     * slot and context id, and the request keeps working on it (as MPICH's requests hold a
     * reference); without it, a new communicator in the slot would take its starts */
    ctx_lock(&rmp_ctx);
    comm_hold(a.c);
    dtype_hold(a.t, +1); /* as long as the request: every start packs or unpacks through it */
    ctx_unlock(&rmp_ctx);
    r->peer = peer;
    r->tag = tag;
    r->buf = (void *)buf;
    r->bytes = a.bytes;
    r->dt = a.t;
    r->count = count;
    atomic_store_explicit(&r->done, 1, memory_order_relaxed); /* nothing running */
    /* a non-contiguous type goes through a pack buffer of the request's own (a buffered send
     * packs straight into the attached buffer instead) */
    if (!a.t->contig && peer != RMP_PROC_NULL && mode != PM_BUFFERED) {
        if (!(r->tmp = malloc(a.bytes ? a.bytes : 1))) {
            ctx_lock(&rmp_ctx);
            req_free(r); /* and its hold */
            ctx_unlock(&rmp_ctx);
            return RMP_ERR_NO_MEM;
        }
        r->user_buf = (void *)buf;
        r->buf = r->tmp;
    }
    *req = req_handle(r);
    return RMP_SUCCESS;
}

int rmp_send_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                  rmp_comm_t comm, rmp_request_t *req)
{
    return persist_init(REQ_SEND, PM_STANDARD, buf, count, type, dest, tag, comm, req);
}

int rmp_ssend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req)
{
    return persist_init(REQ_SEND, PM_SYNC, buf, count, type, dest, tag, comm, req);
}

int rmp_bsend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req)
{
    return persist_init(REQ_SEND, PM_BUFFERED, buf, count, type, dest, tag, comm, req);
}

int rmp_rsend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req)
{
    return persist_init(REQ_SEND, PM_STANDARD, buf, count, type, dest, tag, comm, req);
}

int rmp_recv_init(void *buf, int count, rmp_datatype_t type, int source, int tag,
                  rmp_comm_t comm, rmp_request_t *req)
{
    return persist_init(REQ_RECV, PM_STANDARD, buf, count, type, source, tag, comm, req);
}

/* The send half of a start (lock held). */
static int start_send(rmp_ctx_t *ctx, struct rmp_request *r)
{
    if (r->pmode == PM_BUFFERED) {
        int rc = p2p_bsend_locked(r->comm, r->buf, r->count, r->dt, r->bytes, r->peer, r->tag,
                                  r);
        if (rc == RMP_SUCCESS)
            req_complete(r, RMP_SUCCESS); /* complete once copied, as rmp_ibsend */
        return rc;
    }
    if (r->tmp)
        dtype_pack(r->dt, r->count, r->user_buf, r->tmp);
    return proto_send(ctx, r);
}

/* Run a persistent request again (lock held): a fresh protocol state, the same arguments. */
static int start_locked(rmp_ctx_t *ctx, struct rmp_request *r)
{
    atomic_store_explicit(&r->done, 0, memory_order_relaxed);
    r->status = (rmp_status_t){0};
    r->state = RS_NONE;
    r->memh = NULL;
    r->remote_req = 0;
    r->xfer_len = r->xfer_done = 0;
    r->active = true;
    if (r->peer == RMP_PROC_NULL) {
        r->status = (rmp_status_t){.source = RMP_PROC_NULL, .tag = RMP_ANY_TAG};
        req_complete(r, RMP_SUCCESS);
        return RMP_SUCCESS;
    }
    int rc;
    /* a wildcard receive learns its sender anew at each match */
    r->peer_world = r->peer >= 0 ? r->comm->world[r->peer] : -1;
    if (r->kind == REQ_SEND)
        rc = start_send(ctx, r);
    else
        rc = proto_recv(ctx, r);
    if (rc != RMP_SUCCESS) { /* nothing started: inactive again */
        r->active = false;
        atomic_store_explicit(&r->done, 1, memory_order_release);
    }
    return rc;
}

/* The persistent, inactive request of a handle, or NULL. */
static struct rmp_request *startable(rmp_request_t h)
{
    struct rmp_request *r = req_lookup(h);
    return r && r->persistent && !r->active && !r->orphan ? r : NULL;
}

int rmp_start(rmp_request_t *req)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    struct rmp_request *r = req ? startable(*req) : NULL;
    if (!r)
        return RMP_ERR_REQUEST;
    if (r->coll_start) /* a persistent collective builds its schedule without the lock */
        return r->coll_start(r);
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    rc = start_locked(ctx, r);
    ctx_unlock(ctx);
    return rc;
}

int rmp_startall(int count, rmp_request_t reqs[])
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (count < 0)
        return RMP_ERR_COUNT;
    if (count > 0 && !reqs)
        return RMP_ERR_ARG;
    int i;
    uint64_t epoch = req_list_epoch();
    for (i = 0; i < count; i++) { /* all startable, none listed twice */
        struct rmp_request *r = startable(reqs[i]);
        if (!r || r->listed == epoch)
            return RMP_ERR_REQUEST;
        r->listed = epoch;
    }
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    for (i = 0; i < count; i++) {
        struct rmp_request *r = req_lookup(reqs[i]);
        int e;
        if (r->coll_start) { /* persistent collective: its start takes the lock itself */
            ctx_unlock(ctx);
            e = r->coll_start(r);
            ctx_lock(ctx);
        } else {
            e = start_locked(ctx, r);
        }
        if (e != RMP_SUCCESS && rc == RMP_SUCCESS)
            rc = e;
    }
    ctx_unlock(ctx);
    return rc;
}
