/* isendrecv.c — rmp_isendrecv and rmp_isendrecv_replace (MPI-4.0 3.10): a send and a receive
 * started together, completed by one request. The user's request is a REQ_COLL request driven
 * from progress_poll's coll_active list (as the collectives' schedules are): its coll_progress
 * looks at the two internal requests and, once both are done, hands the receive's status to
 * it and completes it. The replace form sends from a packed copy of the buffer taken at the
 * call, so the receive may land in the buffer at any time (even before the send left).
 * rmp_request_free may free the request while it runs (as a point-to-point one): it is then
 * orphaned, and req_complete frees it when both halves are done. */
#include <stdlib.h>

#include "p2p.h"

typedef struct isr {
    struct rmp_request *rr, *sr; /* internal: no user handle names them */
    void *copy;                  /* the replace form's outgoing data (NULL: none) */
} isr_t;

static bool req_done(const struct rmp_request *r)
{
    return atomic_load_explicit(&r->done, memory_order_acquire) != 0;
}

/* coll_progress of the user's request (lock held). */
static int isr_progress(struct rmp_request *r)
{
    isr_t *x = r->coll;
    if (!req_done(x->rr) || !req_done(x->sr))
        return 0;
    int rerr = x->rr->status.error, serr = x->sr->status.error;
    r->status = x->rr->status; /* source, tag, count, cancelled of the receive */
    r->status.error = RMP_SUCCESS;
    req_free(x->rr);
    req_free(x->sr);
    free(x->copy);
    free(x);
    r->coll = NULL;
    progress_coll_remove(&rmp_ctx, r);
    req_complete(r, rerr ? rerr : serr); /* the last touch of r */
    return 1;
}

/* Post the receive (typed, into recvbuf) and the send (sbuf/scount/st, or the packed bytes of
 * copy when copy is not NULL), then the user's request that completes with both. Arguments
 * already checked; copy (if any) is taken over. */
static int isr_start(const p2p_args_t *ra, void *recvbuf, int recvcount, int source, int recvtag,
                     const p2p_args_t *sa, const void *sbuf, int scount, int dest, int sendtag,
                     void *copy, rmp_request_t *req)
{
    isr_t *x = calloc(1, sizeof(*x));
    struct rmp_request *r = x ? req_alloc(REQ_COLL) : NULL;
    if (!r) {
        free(x);
        free(copy);
        return RMP_ERR_NO_MEM;
    }
    x->copy = copy;
    int rc =
        p2p_recv_typed(ra->c, 0, recvbuf, recvcount, ra->t, ra->bytes, source, recvtag, &x->rr);
    if (rc == RMP_SUCCESS) {
        rc = copy ? p2p_isend_bytes(sa->c, 0, copy, sa->bytes, dest, sendtag, &x->sr)
                  : p2p_send_typed(sa->c, 0, sbuf, scount, sa->t, sa->bytes, dest, sendtag, false,
                                   &x->sr);
        if (rc != RMP_SUCCESS) { /* take the receive back: nothing of the call stays posted */
            rmp_ctx_t *c = &rmp_ctx;
            ctx_lock(c);
            p2p_cancel_locked(x->rr);
            progress_wait(c, &x->rr->done); /* a matched one completes with its data */
            req_free(x->rr);
            ctx_unlock(c);
        }
    }
    if (rc != RMP_SUCCESS) {
        req_free(r);
        free(x->copy);
        free(x);
        return rc;
    }
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    r->coll = x;
    r->coll_progress = isr_progress;
    r->freeable = true;   /* rmp_request_free: orphan until isr_progress completes it */
    *req = req_handle(r); /* before progress: r may complete (but not be freed) at once */
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    progress_coll_add(c, r);
    isr_progress(r);
    ctx_unlock(c);
    return RMP_SUCCESS;
}

int rmp_isendrecv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, rmp_datatype_t recvtype, int source,
                  int recvtag, rmp_comm_t comm, rmp_request_t *req)
{
    p2p_args_t ra, sa;
    int rc = p2p_check_args(comm, &ra, recvbuf, recvcount, recvtype, source, recvtag, true);
    if (!rc)
        rc = p2p_check_args(comm, &sa, sendbuf, sendcount, sendtype, dest, sendtag, false);
    if (rc)
        return rc;
    if (!req)
        return RMP_ERR_ARG;
    return isr_start(&ra, recvbuf, recvcount, source, recvtag, &sa, sendbuf, sendcount, dest,
                     sendtag, NULL, req);
}

int rmp_isendrecv_replace(void *buf, int count, rmp_datatype_t type, int dest, int sendtag,
                          int source, int recvtag, rmp_comm_t comm, rmp_request_t *req)
{
    p2p_args_t ra, sa;
    int rc = p2p_check_args(comm, &ra, buf, count, type, source, recvtag, true);
    if (!rc)
        rc = p2p_check_args(comm, &sa, buf, count, type, dest, sendtag, false);
    if (rc)
        return rc;
    if (!req)
        return RMP_ERR_ARG;
    /* the outgoing data, packed now: the receive may overwrite buf before the send left */
    void *copy = malloc(sa.bytes ? sa.bytes : 1);
    if (!copy)
        return RMP_ERR_NO_MEM;
    if (dest != RMP_PROC_NULL)
        dtype_pack(sa.t, count, buf, copy);
    return isr_start(&ra, buf, count, source, recvtag, &sa, buf, count, dest, sendtag, copy, req);
}
