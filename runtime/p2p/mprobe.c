/* mprobe.c — matched probes: the message a probe finds is taken out of the unexpected queue
 * at once (under the lock), so no other receive can match it, and handed to the program as a
 * message handle: a request slot of kind REQ_MSG carrying the queue entry, so that a stale or
 * forged handle is refused (req_lookup) like a request's. mrecv receives that entry. */
#include <stdlib.h>

#include "match.h"
#include "p2p.h"
#include "protocol.h"

static void status_of(const unexp_t *u, rmp_status_t *status)
{
    if (status)
        *status = (rmp_status_t){.source = u->src, .tag = u->tag, .count = u->len};
}

static int mprobe(int source, int tag, rmp_comm_t comm, bool block, int *flag,
                  rmp_message_t *msg, rmp_status_t *status)
{
    p2p_args_t pa;
    int rc = p2p_check_args(comm, &pa, NULL, 0, RMP_BYTE, source, tag, true);
    if (rc)
        return rc;
    if (!msg || (!block && !flag))
        return RMP_ERR_ARG;
    if (flag)
        *flag = 1;
    if (source == RMP_PROC_NULL) {
        *msg = RMP_MESSAGE_NO_PROC;
        if (status)
            *status = (rmp_status_t){.source = RMP_PROC_NULL, .tag = RMP_ANY_TAG};
        return RMP_SUCCESS;
    }
    struct rmp_request *m = req_alloc(REQ_MSG); /* before the lock: it may take a lock */
    if (!m)
        return RMP_ERR_NO_MEM;
    unexp_t *found;
    int failed = p2p_probe(pa.c, source, tag, block, true, NULL, &found);
    if (!found) {
        req_free(m);
        *msg = RMP_MESSAGE_NULL;
        if (flag)
            *flag = 0;
        return failed; /* as rmp_probe: a failed source with nothing left fails */
    }
    m->msg = found;
    m->comm = pa.c;
    status_of(found, status);
    *msg = (rmp_message_t)req_handle(m);
    return RMP_SUCCESS;
}

int rmp_mprobe(int source, int tag, rmp_comm_t comm, rmp_message_t *msg, rmp_status_t *status)
{
    return mprobe(source, tag, comm, true, NULL, msg, status);
}

int rmp_improbe(int source, int tag, rmp_comm_t comm, int *flag, rmp_message_t *msg,
                rmp_status_t *status)
{
    return mprobe(source, tag, comm, false, flag, msg, status);
}

/* A receive request for message u into count elements of t at buf (a, checked). */
static struct rmp_request *mrecv_req(const p2p_args_t *a, void *buf, int count,
                                     const unexp_t *u)
{
    struct rmp_request *r = req_alloc(REQ_RECV);
    if (!r)
        return NULL;
    r->buf = buf;
    if (!a->t->contig) {
        if (!(r->tmp = malloc(a->bytes ? a->bytes : 1))) {
            req_free(r);
            return NULL;
        }
        r->buf = r->tmp;
        r->user_buf = buf;
        r->dt = a->t;
        ctx_lock(&rmp_ctx);
        dtype_hold(a->t, +1); /* until req_recv_finish unpacks */
        ctx_unlock(&rmp_ctx);
        r->count = count;
    }
    r->bytes = a->bytes;
    r->ctx_id = u->ctx;
    r->comm = a->c;
    r->peer = u->src;
    r->tag = u->tag;
    return r;
}

int rmp_imrecv(void *buf, int count, rmp_datatype_t type, rmp_message_t *msg,
               rmp_request_t *req)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!msg || !req)
        return RMP_ERR_ARG;
    struct rmp_request *r;
    if (*msg == RMP_MESSAGE_NO_PROC) {
        if ((rc = p2p_null_request(REQ_RECV, &r)))
            return rc;
        *msg = RMP_MESSAGE_NULL;
        *req = req_handle(r);
        return RMP_SUCCESS;
    }
    struct rmp_request *m = req_lookup((rmp_request_t)*msg);
    if (!m || m->kind != REQ_MSG)
        return RMP_ERR_REQUEST;
    p2p_args_t a;
    unexp_t *u = m->msg;
    if ((rc = p2p_check_args(m->comm->handle, &a, buf, count, type, u->src, u->tag, true)))
        return rc;
    if (!(r = mrecv_req(&a, buf, count, u)))
        return RMP_ERR_NO_MEM;
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    proto_recv_unexp(ctx, r, u); /* frees u */
    ctx_unlock(ctx);
    req_free(m);
    *msg = RMP_MESSAGE_NULL;
    *req = req_handle(r);
    return RMP_SUCCESS;
}

int rmp_mrecv(void *buf, int count, rmp_datatype_t type, rmp_message_t *msg,
              rmp_status_t *status)
{
    rmp_request_t r;
    int rc = rmp_imrecv(buf, count, type, msg, &r);
    return rc ? rc : rmp_wait(&r, status);
}
