/* p2p.c — the point-to-point API: argument checks (a clear error code, never a crash, and
 * nothing queued or sent before every argument passed), request set-up (packing non-contiguous
 * datatypes), then the protocol under the runtime lock. Users get handles (req_handle). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hang.h"
#include "match.h"
#include "p2p.h"
#include "protocol.h"

static int check_tag(int tag, bool recv)
{
    if (recv && tag == RMP_ANY_TAG)
        return RMP_SUCCESS;
    return tag < 0 || tag > RMP_TAG_UB ? RMP_ERR_TAG : RMP_SUCCESS;
}

static int check_peer(const comm_t *c, int peer, bool recv)
{
    if (peer == RMP_PROC_NULL || (recv && peer == RMP_ANY_SOURCE))
        return RMP_SUCCESS;
    return peer < 0 || peer >= c->size ? RMP_ERR_RANK : RMP_SUCCESS;
}

int p2p_null_request(req_kind_t kind, struct rmp_request **req)
{
    struct rmp_request *r = req_alloc(kind);
    if (!r)
        return RMP_ERR_NO_MEM;
    r->status = (rmp_status_t){.source = RMP_PROC_NULL, .tag = RMP_ANY_TAG};
    atomic_store(&r->done, 1);
    *req = r;
    return RMP_SUCCESS;
}

static int start_send(comm_t *c, int ctxoff, const void *buf, size_t bytes, int dst, int tag,
                      struct rmp_request *r, struct rmp_request **req, bool locked)
{
    rmp_ctx_t *ctx = &rmp_ctx;
    r->ctx_id = c->ctx_id + (uint32_t)ctxoff;
    r->comm = c;
    r->peer = dst;
    r->peer_world = c->world[dst];
    r->tag = tag;
    if (!r->buf)
        r->buf = (void *)buf;
    r->bytes = bytes;
    if (!locked)
        ctx_lock(ctx);
    r->msg_seq = ctx->peers[r->peer_world].send_seq; /* proto_send_now's number (cancel) */
    /* The usual small send goes out at once: complete before anyone could wait for it (no
     * waiter to wake, no outq layer); anything else takes proto_send's way. */
    int rc = r->sync ? RMP_AGAIN : proto_send_now(ctx, c, r->ctx_id, r->buf, bytes, dst, tag);
    if (rc == RMP_SUCCESS)
        atomic_store_explicit(&r->done, 1, memory_order_release);
    else if (rc == RMP_AGAIN)
        rc = proto_send(ctx, r);
    if (!locked)
        ctx_unlock(ctx);
    if (rc != RMP_SUCCESS) {
        req_free(r);
        return rc;
    }
    *req = r;
    return RMP_SUCCESS;
}

static int start_recv(comm_t *c, int ctxoff, void *buf, size_t bytes, int src, int tag,
                      struct rmp_request *r, struct rmp_request **req, bool locked)
{
    rmp_ctx_t *ctx = &rmp_ctx;
    r->ctx_id = c->ctx_id + (uint32_t)ctxoff;
    r->comm = c;
    r->peer = src;
    r->tag = tag;
    if (!r->buf)
        r->buf = buf;
    r->bytes = bytes;
    if (!locked)
        ctx_lock(ctx);
    int rc = proto_recv(ctx, r);
    if (!locked)
        ctx_unlock(ctx);
    if (rc != RMP_SUCCESS) {
        req_free(r);
        return rc;
    }
    *req = r;
    return RMP_SUCCESS;
}

int p2p_isend_bytes(comm_t *c, int ctxoff, const void *buf, size_t bytes, int dst, int tag,
                    struct rmp_request **req)
{
    if (dst == RMP_PROC_NULL)
        return p2p_null_request(REQ_SEND, req);
    struct rmp_request *r = req_alloc(REQ_SEND);
    if (!r)
        return RMP_ERR_NO_MEM;
    return start_send(c, ctxoff, buf, bytes, dst, tag, r, req, false);
}

int p2p_irecv_bytes(comm_t *c, int ctxoff, void *buf, size_t bytes, int src, int tag,
                    struct rmp_request **req)
{
    if (src == RMP_PROC_NULL)
        return p2p_null_request(REQ_RECV, req);
    struct rmp_request *r = req_alloc(REQ_RECV);
    if (!r)
        return RMP_ERR_NO_MEM;
    return start_recv(c, ctxoff, buf, bytes, src, tag, r, req, false);
}

int p2p_isend_locked(comm_t *c, int ctxoff, const void *buf, size_t bytes, int dst, int tag,
                     struct rmp_request **req)
{
    struct rmp_request *r = req_alloc(REQ_SEND);
    if (!r)
        return RMP_ERR_NO_MEM;
    return start_send(c, ctxoff, buf, bytes, dst, tag, r, req, true);
}

int p2p_irecv_locked(comm_t *c, int ctxoff, void *buf, size_t bytes, int src, int tag,
                     struct rmp_request **req)
{
    struct rmp_request *r = req_alloc(REQ_RECV);
    if (!r)
        return RMP_ERR_NO_MEM;
    return start_recv(c, ctxoff, buf, bytes, src, tag, r, req, true);
}

bool p2p_cancel_locked(struct rmp_request *r)
{
    if (r->kind != REQ_RECV || atomic_load(&r->done) || !match_remove_posted(rmp_ctx.mq, r))
        return false;
    r->status.cancelled = 1;
    r->status.count = 0;
    if (r->dt && !r->persistent) { /* nothing to unpack: its type's hold goes now */
        dtype_hold(r->dt, -1);
        r->dt = NULL;
    }
    req_complete(r, RMP_SUCCESS);
    return true;
}

int p2p_send_typed(comm_t *c, int ctxoff, const void *buf, int count, const dtype_t *t,
                   size_t bytes, int dst, int tag, bool sync, struct rmp_request **req)
{
    if (dst == RMP_PROC_NULL)
        return p2p_null_request(REQ_SEND, req);
    struct rmp_request *r = req_alloc(REQ_SEND);
    if (!r)
        return RMP_ERR_NO_MEM;
    r->sync = sync;
    if (t->contig)
        return start_send(c, ctxoff, buf, bytes, dst, tag, r, req, false);
    if (!(r->tmp = malloc(bytes ? bytes : 1))) {
        req_free(r);
        return RMP_ERR_NO_MEM;
    }
    dtype_pack(t, count, buf, r->tmp);
    r->buf = r->tmp;
    return start_send(c, ctxoff, r->tmp, bytes, dst, tag, r, req, false);
}

int p2p_recv_typed(comm_t *c, int ctxoff, void *buf, int count, const dtype_t *t, size_t bytes,
                   int src, int tag, struct rmp_request **req)
{
    if (src == RMP_PROC_NULL)
        return p2p_null_request(REQ_RECV, req);
    struct rmp_request *r = req_alloc(REQ_RECV);
    if (r && t->contig)
        return start_recv(c, ctxoff, buf, bytes, src, tag, r, req, false);
    if (!r || !(r->tmp = malloc(bytes ? bytes : 1))) {
        req_free(r);
        return RMP_ERR_NO_MEM;
    }
    r->buf = r->tmp;
    r->user_buf = buf;
    r->dt = t;
    r->count = count;
    ctx_lock(&rmp_ctx);
    dtype_hold(t, +1); /* until req_recv_finish unpacks */
    ctx_unlock(&rmp_ctx);
    return start_recv(c, ctxoff, r->tmp, bytes, src, tag, r, req, false);
}

/* The type of `count` elements and their packed size: RMP_ERR_TYPE, RMP_ERR_COUNT. */
static int typed_size(rmp_datatype_t dt, int count, const dtype_t **tp, size_t *bytes)
{
    const dtype_t *t = dtype_get(dt, true);
    if (!t)
        return RMP_ERR_TYPE;
    if (count < 0)
        return RMP_ERR_COUNT;
    *tp = t;
    return dtype_bytes(t, (size_t)count, bytes);
}

int p2p_isend(comm_t *c, int ctxoff, const void *buf, int count, rmp_datatype_t dt, int dst,
              int tag, struct rmp_request **req)
{
    const dtype_t *t;
    size_t bytes;
    int rc = typed_size(dt, count, &t, &bytes);
    return rc ? rc : p2p_send_typed(c, ctxoff, buf, count, t, bytes, dst, tag, false, req);
}

int p2p_irecv(comm_t *c, int ctxoff, void *buf, int count, rmp_datatype_t dt, int src, int tag,
              struct rmp_request **req)
{
    const dtype_t *t;
    size_t bytes;
    int rc = typed_size(dt, count, &t, &bytes);
    return rc ? rc : p2p_recv_typed(c, ctxoff, buf, count, t, bytes, src, tag, req);
}

int p2p_check_args(rmp_comm_t comm, p2p_args_t *a, const void *buf, int count,
                   rmp_datatype_t dt, int peer, int tag, bool recv)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    comm_t *c = comm_get(comm);
    if (!c)
        return RMP_ERR_COMM;
    if (count < 0)
        return RMP_ERR_COUNT;
    /* nothing of no type: accepted, as MPICH does (Open MPI refuses it), since programs pass
     * DATATYPE_NULL there (mpi4py to MPI_PROC_NULL, MPICH's partitioned tests to a peer); any
     * element still needs a type */
    if (count == 0 && dt == RMP_DATATYPE_NULL)
        dt = RMP_BYTE;
    if ((rc = typed_size(dt, count, &a->t, &a->bytes)))
        return rc;
    if ((rc = check_peer(c, peer, recv)) || (rc = check_tag(tag, recv)))
        return rc;
    if (a->bytes > 0 && !dtype_buf_ok(buf, a->t)) /* RMP_BOTTOM: absolute addresses */
        return RMP_ERR_BUFFER;
    a->c = c;
    return RMP_SUCCESS;
}

int p2p_isend_mode(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, bool sync, rmp_request_t *req)
{
    p2p_args_t a;
    struct rmp_request *r;
    int rc = p2p_check_args(comm, &a, buf, count, type, dest, tag, false);
    if (rc)
        return rc;
    if (!req)
        return RMP_ERR_ARG;
    if ((rc = p2p_send_typed(a.c, 0, buf, count, a.t, a.bytes, dest, tag, sync, &r)))
        return rc;
    *req = req_handle(r);
    return RMP_SUCCESS;
}

int rmp_isend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm, rmp_request_t *req)
{
    return p2p_isend_mode(buf, count, type, dest, tag, comm, false, req);
}

int rmp_irecv(void *buf, int count, rmp_datatype_t type, int source, int tag, rmp_comm_t comm,
              rmp_request_t *req)
{
    p2p_args_t a;
    struct rmp_request *r;
    int rc = p2p_check_args(comm, &a, buf, count, type, source, tag, true);
    if (rc)
        return rc;
    if (!req)
        return RMP_ERR_ARG;
    if ((rc = p2p_recv_typed(a.c, 0, buf, count, a.t, a.bytes, source, tag, &r)))
        return rc;
    *req = req_handle(r);
    return RMP_SUCCESS;
}

/* The blocking calls' second half: wait for a request no user handle names, hand out its
 * status, free it. Without the handle round trip of rmp_wait (req_handle, req_lookup, a second
 * initialization check), which a ping-pong pays twice per message. */
static int finish_blocking(struct rmp_request *r, rmp_status_t *status, const char *call)
{
    if (!atomic_load_explicit(&r->done, memory_order_acquire)) {
        rmp_ctx_t *c = &rmp_ctx;
        const char *prev = hang_enter(call);
        ctx_lock(c);
        progress_wait(c, &r->done);
        ctx_unlock(c);
        hang_leave(prev);
    }
    int err = r->status.error;
    if (status)
        *status = r->status;
    req_free(r);
    return err;
}

int rmp_send(const void *buf, int count, rmp_datatype_t type, int dest, int tag, rmp_comm_t comm)
{
    p2p_args_t a;
    struct rmp_request *r;
    int rc = p2p_check_args(comm, &a, buf, count, type, dest, tag, false);
    if (rc)
        return rc;
    if (a.t->contig && dest != RMP_PROC_NULL) {
        /* the usual small send: pushed now, no request made, waited for and freed */
        rmp_ctx_t *ctx = &rmp_ctx;
        ctx_lock(ctx);
        rc = proto_send_now(ctx, a.c, a.c->ctx_id, buf, a.bytes, dest, tag);
        ctx_unlock(ctx);
        if (rc != RMP_AGAIN)
            return rc;
    }
    rc = p2p_send_typed(a.c, 0, buf, count, a.t, a.bytes, dest, tag, false, &r);
    return rc ? rc : finish_blocking(r, RMP_STATUS_IGNORE, __func__);
}

int rmp_recv(void *buf, int count, rmp_datatype_t type, int source, int tag, rmp_comm_t comm,
             rmp_status_t *status)
{
    p2p_args_t a;
    struct rmp_request *r;
    int rc = p2p_check_args(comm, &a, buf, count, type, source, tag, true);
    if (!rc)
        rc = p2p_recv_typed(a.c, 0, buf, count, a.t, a.bytes, source, tag, &r);
    return rc ? rc : finish_blocking(r, status, __func__);
}

/* Both halves are checked before the receive is posted: a posted receive may match a waiting
 * message at once, and that message would be lost if the send were refused afterwards. Only
 * a failure after the checks (out of memory, a failed peer) can still leave the receive
 * posted; it is then cancelled, or completed if it has matched already (its data and status
 * delivered as usual, the send's error returned). */
int rmp_sendrecv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, rmp_datatype_t recvtype, int source,
                 int recvtag, rmp_comm_t comm, rmp_status_t *status)
{
    p2p_args_t ra, sa;
    int rc = p2p_check_args(comm, &ra, recvbuf, recvcount, recvtype, source, recvtag, true);
    if (!rc)
        rc = p2p_check_args(comm, &sa, sendbuf, sendcount, sendtype, dest, sendtag, false);
    if (rc)
        return rc;
    struct rmp_request *rr, *sr;
    if ((rc = p2p_recv_typed(ra.c, 0, recvbuf, recvcount, ra.t, ra.bytes, source, recvtag, &rr)))
        return rc;
    rmp_request_t r[2] = {req_handle(rr), RMP_REQUEST_NULL};
    rc = p2p_send_typed(sa.c, 0, sendbuf, sendcount, sa.t, sa.bytes, dest, sendtag, false, &sr);
    if (rc == RMP_SUCCESS)
        r[1] = req_handle(sr);
    if (rc) {
        rmp_cancel(&r[0]);
        rmp_wait(&r[0], status);
        return rc;
    }
    const char *prev = hang_enter(__func__);
    int rc_send = rmp_wait(&r[1], RMP_STATUS_IGNORE);
    rc = rmp_wait(&r[0], status);
    hang_leave(prev);
    return rc ? rc : rc_send;
}

int rmp_cancel(rmp_request_t *req)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    struct rmp_request *r = req ? req_lookup(*req) : NULL;
    if (!r || r->orphan || r->kind == REQ_MSG) /* freed by the user; a message handle */
        return RMP_ERR_REQUEST;
    if (r->kind == REQ_GREQ) { /* the program's own operation: its cancel callback */
        greq_cancel(r);
        return RMP_SUCCESS;
    }
    if (r->kind != REQ_RECV && r->kind != REQ_SEND)
        return RMP_SUCCESS;
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    if (r->kind == REQ_SEND)
        send_cancel(ctx, r); /* send_cancel.c: asks the receiver, the answer comes later */
    else
        p2p_cancel_locked(r);
    ctx_unlock(ctx);
    return RMP_SUCCESS;
}

typedef struct probe_arg {
    rmp_ctx_t *ctx;
    uint32_t cid;
    int src, tag;
    int src_world;  /* -1: any source */
    bool take;      /* remove the message from matching (mprobe.c) */
    unexp_t *found;
    int failed;     /* the source failed and nothing of it matches: its error */
} probe_arg_t;

static void probe_what(void *arg, char *buf, size_t len)
{
    probe_arg_t *a = arg;
    const comm_t *cm = NULL;
    for (int h = 0; h < RMP_MAX_COMMS && !cm; h++) /* the report only: a scan is fine */
        if (a->ctx->comms[h].in_use && a->ctx->comms[h].ctx_id == a->cid)
            cm = &a->ctx->comms[h];
    char cn[160] = "", w[40] = "";
    if (cm) {
        hang_comm_name(cm, cn, sizeof(cn));
        hang_world_of(cm, a->src, w, sizeof(w));
    }
    char from[64] = "any rank";
    if (a->src >= 0)
        snprintf(from, sizeof(from), "rank %d%s", a->src, w);
    snprintf(buf, len, "a probe on %s: waiting for a message from %s (tag %d)",
             cm ? cn : "a communicator", from, a->tag);
}

static bool probe_found(void *arg)
{
    probe_arg_t *a = arg;
    a->found = match_find_unexp(a->ctx->mq, a->cid, a->src, a->tag, a->take);
    a->failed = !a->found && a->src_world >= 0 ? a->ctx->peers[a->src_world].failed : 0;
    return a->found != NULL || a->failed;
}

int p2p_probe(comm_t *c, int source, int tag, bool block, bool take, rmp_status_t *status,
              unexp_t **found)
{
    rmp_ctx_t *ctx = &rmp_ctx;
    probe_arg_t a = {.ctx = ctx, .cid = c->ctx_id, .src = source, .tag = tag,
                     .src_world = source >= 0 ? c->world[source] : -1, .take = take};
    ctx_lock(ctx);
    if (block) {
        const char *prev = hang_enter(take ? "rmp_mprobe" : "rmp_probe");
        hang_slot.what = probe_what;
        hang_slot.what_arg = &a;
        progress_wait_until(ctx, probe_found, &a);
        hang_slot.what = NULL;
        hang_leave(prev);
    } else {
        progress_test(ctx, probe_found, &a); /* a polling loop gives its core up */
    }
    if (a.found && status)
        *status = (rmp_status_t){.source = a.found->src, .tag = a.found->tag,
                                 .count = a.found->len};
    ctx_unlock(ctx);
    *found = a.found;
    return a.failed;
}

static int probe(int source, int tag, rmp_comm_t comm, bool block, int *flag,
                 rmp_status_t *status)
{
    p2p_args_t pa;
    int rc = p2p_check_args(comm, &pa, NULL, 0, RMP_BYTE, source, tag, true);
    if (rc)
        return rc;
    if (!block && !flag)
        return RMP_ERR_ARG;
    if (source == RMP_PROC_NULL) {
        if (flag)
            *flag = 1;
        if (status)
            *status = (rmp_status_t){.source = RMP_PROC_NULL, .tag = RMP_ANY_TAG};
        return RMP_SUCCESS;
    }
    unexp_t *found;
    rc = p2p_probe(pa.c, source, tag, block, false, status, &found);
    if (flag)
        *flag = found != NULL;
    return rc; /* a probe of a failed peer (nothing of it left) fails, as a receive does */
}

int rmp_probe(int source, int tag, rmp_comm_t comm, rmp_status_t *status)
{
    return probe(source, tag, comm, true, NULL, status);
}

int rmp_iprobe(int source, int tag, rmp_comm_t comm, int *flag, rmp_status_t *status)
{
    return probe(source, tag, comm, false, flag, status);
}
