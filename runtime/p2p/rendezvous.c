/* rendezvous.c — large messages: the receiver, once matched, pulls the data with the
 * transport's single-copy get() (CMA on shm, RDMA READ on verbs) and sends a FIN; where get()
 * is impossible it sends a CTS and the sender streams DATA fragments through send(). */
#include <string.h>

#include "protocol.h"
#include "wire.h"

void rndv_track(rmp_ctx_t *c, struct rmp_request *r)
{
    list_push_front(&c->rndv_active, &r->link);
}

void rndv_untrack(rmp_ctx_t *c, struct rmp_request *r)
{
    list_remove(&r->link);
}

static void send_ctl(rmp_ctx_t *c, int peer, uint8_t type, uint64_t sreq, uint64_t rreq,
                     uint64_t xlen)
{
    pkt_ctl_t h = {.type = type, .sreq = sreq, .rreq = rreq, .xlen = xlen};
    int rc = outq_send(c, peer, &h, sizeof(h), NULL, 0, NULL);
    if (rc != RMP_SUCCESS)
        core_error(c, "cannot send %s to rank %d: %s", type == PKT_FIN ? "FIN" : "CTS", peer,
                   rmp_strerror(rc));
}

static void ask_stream(rmp_ctx_t *c, struct rmp_request *r, int src_world, size_t xfer)
{
    r->state = RS_RECV_DATA;
    r->xfer_len = xfer;
    r->xfer_done = 0;
    if (xfer)
        rndv_track(c, r);
    send_ctl(c, src_world, PKT_CTS, r->remote_req, (uint64_t)(uintptr_t)req_handle(r), xfer);
    if (!xfer)
        req_recv_finish(r, RMP_SUCCESS);
}

void rndv_recv_start(rmp_ctx_t *c, struct rmp_request *r, int src_world, size_t len,
                     uint64_t sreq, const tp_rkey_t *rkey, bool can_get)
{
    peer_t *p = &c->peers[src_world];
    size_t xfer = r->status.count;
    r->peer_world = src_world;
    r->remote_req = sreq;
    (void)len;
    if (!can_get || p->no_get)
        return ask_stream(c, r, src_world, xfer);
    int rc = xfer ? p->tp->ops->get(p->tp, src_world, r->buf, xfer, rkey, 0, r) : RMP_SUCCESS;
    if (rc == RMP_INPROGRESS) {
        r->state = RS_RNDV_GET;
        rndv_track(c, r);
        return;
    }
    if (rc == RMP_ERR_NOT_SUPPORTED) {
        p->no_get = true;
        core_verbose(c, "%s get from rank %d refused: rendezvous copies through send()",
                     p->tp->ops->name, src_world);
        return ask_stream(c, r, src_world, xfer);
    }
    if (rc == RMP_ERR_PEER) /* the sender's process is gone: fail everything else with it */
        core_peer_failed(c, src_world, rc, "its process is gone (rendezvous get)");
    send_ctl(c, src_world, PKT_FIN, sreq, 0, 0);
    req_recv_finish(r, rc);
}

void core_get_done(rmp_ctx_t *c, void *cookie, int status)
{
    struct rmp_request *r = cookie;
    rndv_untrack(c, r);
    send_ctl(c, r->peer_world, PKT_FIN, r->remote_req, 0, 0);
    req_recv_finish(r, status);
}

static void send_release(rmp_ctx_t *c, struct rmp_request *r)
{
    tp_t *tp = c->peers[r->peer_world].tp;
    if (r->memh && tp)
        tp->ops->mem_dereg(tp, r->memh);
    r->memh = NULL;
}

/* The request a peer's cookie names (a handle of ours it echoes), if that packet may act on
 * it; else NULL: following it would corrupt another request. */
static struct rmp_request *cookie_req(int src_world, uint64_t cookie, req_kind_t kind,
                                      req_state_t state)
{
    struct rmp_request *r = req_lookup((rmp_request_t)(uintptr_t)cookie);
    return wire_req_expects(r, src_world, kind, state) ? r : NULL;
}

void rndv_on_ctl(rmp_ctx_t *c, int src_world, const pkt_ctl_t *h)
{
    struct rmp_request *r = cookie_req(src_world, h->sreq, REQ_SEND, RS_RNDV_WAIT_FIN);
    if (!r) {
        fault_peer_garbled(c, src_world, h, sizeof(*h), "CTS/FIN for no send of mine");
        return;
    }
    rndv_untrack(c, r);
    send_release(c, r);
    if (h->type == PKT_FIN || h->xlen == 0) {
        r->state = RS_NONE;
        req_complete(r, RMP_SUCCESS);
        return;
    }
    r->state = RS_STREAM;
    r->remote_req = h->rreq;
    r->xfer_len = h->xlen < r->bytes ? h->xlen : r->bytes;
    r->xfer_done = 0;
    int rc = outq_stream(c, src_world, r);
    if (rc != RMP_SUCCESS)
        req_complete(r, rc);
}

void rndv_on_data(rmp_ctx_t *c, int src_world, const pkt_data_t *h, const void *payload,
                  size_t len)
{
    struct rmp_request *r = cookie_req(src_world, h->rreq, REQ_RECV, RS_RECV_DATA);
    if (!r) {
        fault_peer_garbled(c, src_world, h, sizeof(*h) + len, "DATA for no receive of mine");
        return;
    }
    const char *bad = wire_data_fits(h->off, len, r->xfer_len, r->xfer_done);
    if (bad) {
        fault_peer_garbled(c, src_world, h, sizeof(*h) + len, bad);
        return;
    }
    memcpy((char *)r->buf + h->off, payload, len);
    r->xfer_done += len;
    if (r->xfer_done == r->xfer_len) {
        rndv_untrack(c, r);
        r->state = RS_NONE;
        req_recv_finish(r, RMP_SUCCESS);
    }
}
