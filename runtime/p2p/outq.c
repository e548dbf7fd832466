/* outq.c — per-peer FIFO of packets the transport could not take yet (back-pressure).
 * Once a peer has queued packets every new one queues behind them, so per-peer order — and
 * with it MPI's non-overtaking rule — holds whatever the transport's buffer state. */
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

static int peer_ready(rmp_ctx_t *c, int peer)
{
    peer_t *p = &c->peers[peer];
    if (p->failed)
        return p->failed;
    if (!p->tp) {
        core_error(c, "no transport reaches rank %d (RMP_TRANSPORT=%s)", peer,
                   c->cfg.transport[0] ? c->cfg.transport : "auto");
        return RMP_ERR_PEER;
    }
    if (!p->connected) {
        int rc = p->tp->ops->connect(p->tp, peer);
        if (rc != RMP_SUCCESS)
            return rc;
        p->connected = true;
        EV_RAISE(RMP_EV_CONNECTED, peer, stats_tp(p->tp));
    }
    return RMP_SUCCESS;
}

static void enqueue(rmp_ctx_t *c, int peer, outq_item_t *it)
{
    peer_t *p = &c->peers[peer];
    it->next = NULL;
    if (p->outq_tail)
        p->outq_tail->next = it;
    else
        p->outq_head = it;
    p->outq_tail = it;
    c->outq_pending++;
    progthr_kick(c); /* a sleeping progress thread must come back to flush it */
}

int outq_push_now(rmp_ctx_t *c, int peer, const void *hdr, size_t hdrlen, const void *payload,
                  size_t len)
{
    peer_t *p = &c->peers[peer];
    if (p->outq_head)
        return RMP_AGAIN; /* behind what is queued: per-peer order */
    int rc = p->tp->ops->send(p->tp, peer, hdr, hdrlen, payload, len);
    /* to the own rank, no peer announces it: a sibling thread may sleep for it */
    if (rc == RMP_SUCCESS && peer == c->rank)
        progress_kick_for(c, NULL);
    return rc;
}

/* Send now or queue; copy: the queue keeps its own copy of the payload. */
static int send_or_queue(rmp_ctx_t *c, int peer, const void *hdr, size_t hdrlen,
                         const void *payload, size_t len, struct rmp_request *req, bool copy)
{
    int rc = peer_ready(c, peer);
    if (rc != RMP_SUCCESS)
        return rc;
    rc = outq_push_now(c, peer, hdr, hdrlen, payload, len);
    if (rc == RMP_SUCCESS) {
        if (req)
            req_complete(req, RMP_SUCCESS);
        return RMP_SUCCESS;
    }
    if (rc != RMP_AGAIN)
        return rc;
    /* one allocation: the item, then the payload's copy (freed with it by flush_peer) */
    outq_item_t *it = calloc(1, sizeof(*it) + (copy ? len : 0));
    if (!it)
        return RMP_ERR_NO_MEM;
    memcpy(&it->hdr, hdr, hdrlen);
    it->hdrlen = hdrlen;
    it->payload = payload;
    if (copy && len)
        it->payload = memcpy(it + 1, payload, len);
    it->len = len;
    it->req = req;
    enqueue(c, peer, it);
    return RMP_SUCCESS;
}

int outq_send(rmp_ctx_t *c, int peer, const void *hdr, size_t hdrlen, const void *payload,
              size_t len, struct rmp_request *req)
{
    return send_or_queue(c, peer, hdr, hdrlen, payload, len, req, false);
}

int outq_send_copy(rmp_ctx_t *c, int peer, const void *hdr, size_t hdrlen, const void *payload,
                   size_t len)
{
    return send_or_queue(c, peer, hdr, hdrlen, payload, len, NULL, true);
}

int outq_stream(rmp_ctx_t *c, int peer, struct rmp_request *r)
{
    outq_item_t *it = calloc(1, sizeof(*it));
    if (!it)
        return RMP_ERR_NO_MEM;
    it->stream = true;
    it->req = r;
    enqueue(c, peer, it);
    return RMP_SUCCESS;
}

/* Push DATA fragments of a stream; true when the whole stream is out. */
static bool stream_push(rmp_ctx_t *c, int peer, struct rmp_request *r, int *pushed)
{
    tp_t *tp = c->peers[peer].tp;
    size_t frag = tp->max_send - sizeof(pkt_data_t);
    while (r->xfer_done < r->xfer_len) {
        size_t n = r->xfer_len - r->xfer_done;
        if (n > frag)
            n = frag;
        pkt_data_t h = {.type = PKT_DATA, .rreq = r->remote_req, .off = r->xfer_done};
        if (tp->ops->send(tp, peer, &h, sizeof(h), (char *)r->buf + r->xfer_done, n) !=
            RMP_SUCCESS)
            return false;
        r->xfer_done += n;
        (*pushed)++;
    }
    return true;
}

static int flush_peer(rmp_ctx_t *c, int peer)
{
    peer_t *p = &c->peers[peer];
    int pushed = 0;
    while (p->outq_head) {
        outq_item_t *it = p->outq_head;
        if (it->stream) {
            if (!stream_push(c, peer, it->req, &pushed))
                break;
            req_complete(it->req, RMP_SUCCESS);
        } else {
            int rc = p->tp->ops->send(p->tp, peer, &it->hdr, it->hdrlen, it->payload, it->len);
            if (rc == RMP_AGAIN)
                break;
            if (it->req)
                req_complete(it->req, rc);
            pushed++;
        }
        p->outq_head = it->next;
        if (!p->outq_head)
            p->outq_tail = NULL;
        c->outq_pending--;
        free(it);
    }
    return pushed;
}

int outq_flush(rmp_ctx_t *c)
{
    if (c->outq_pending == 0)
        return 0;
    int n = 0;
    for (int i = 0; i < c->npeers; i++)
        if (c->peers[i].outq_head)
            n += flush_peer(c, i);
    return n;
}

void outq_fail_peer(rmp_ctx_t *c, int peer, int err)
{
    peer_t *p = &c->peers[peer];
    while (p->outq_head) {
        outq_item_t *it = p->outq_head;
        p->outq_head = it->next;
        if (it->req && !atomic_load(&it->req->done))
            req_complete(it->req, err);
        c->outq_pending--;
        free(it);
    }
    p->outq_tail = NULL;
}
