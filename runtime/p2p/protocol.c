/* protocol.c — the path of one message: eager below the limit, rendezvous above it (and for
 * synchronous sends, which must wait for the match), and the dispatch of arrivals
 * (core_deliver) to matching. Runs with the runtime lock held. */
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "transport/copy.h"
#include "protocol.h"
#include "wire.h"

size_t proto_eager_limit(rmp_ctx_t *c, int peer)
{
    tp_t *tp = c->peers[peer].tp;
    size_t lim = c->cfg.eager_limit >= 0 ? (size_t)c->cfg.eager_limit : tp->eager_limit;
    size_t cap = tp->max_send - sizeof(pkt_rts_t);
    return lim < cap ? lim : cap;
}

static int send_rts(rmp_ctx_t *c, struct rmp_request *r, pkt_match_t *m)
{
    tp_t *tp = c->peers[r->peer_world].tp;
    pkt_rts_t h = {.m = *m, .sreq = (uint64_t)(uintptr_t)req_handle(r)}; /* checked on return */
    h.m.type = PKT_RTS;
    if (tp->caps & TP_CAP_GET) {
        int rc = tp->ops->mem_reg(tp, r->peer_world, r->buf, r->bytes, &h.rkey, &r->memh);
        if (rc == RMP_SUCCESS)
            h.m.flags |= PKT_F_GET;
        else {
            core_verbose(c, "registration of %zu bytes failed (%s): streaming instead", r->bytes,
                         rmp_strerror(rc));
            EV_RAISE(RMP_EV_RNDV_FALLBACK, r->peer_world, (long long)r->bytes, rc);
        }
    }
    EV_RAISE(RMP_EV_RNDV_START, r->peer_world, r->tag, m->ctx, (long long)r->bytes,
             !!(h.m.flags & PKT_F_GET));
    r->state = RS_RNDV_WAIT_FIN;
    rndv_track(c, r);
    int rc = outq_send(c, r->peer_world, &h, sizeof(h), NULL, 0, NULL);
    if (rc != RMP_SUCCESS) {
        rndv_untrack(c, r);
        if (r->memh)
            tp->ops->mem_dereg(tp, r->memh);
        r->memh = NULL;
    }
    return rc;
}

int proto_send(rmp_ctx_t *c, struct rmp_request *r)
{
    peer_t *p = &c->peers[r->peer_world];
    if (p->failed)
        return p->failed;
    if (!p->tp) {
        core_error(c, "no transport reaches rank %d", r->peer_world);
        return RMP_ERR_PEER;
    }
    pkt_match_t m = {.type = PKT_EAGER, .ctx = r->ctx_id, .src = r->comm->rank, .tag = r->tag,
                     .seq = p->send_seq, .len = r->bytes};
    int rc;
    r->msg_seq = p->send_seq;
    if (r->bytes <= proto_eager_limit(c, r->peer_world) && !r->sync)
        rc = outq_send(c, r->peer_world, &m, sizeof(m), r->buf, r->bytes, r);
    else
        rc = send_rts(c, r, &m);
    if (rc == RMP_SUCCESS) {
        if (__builtin_expect(c->prof != NULL, 0))
            prof_size(c->prof, r->bytes);
        p->send_seq++;
        p->msgs_sent++;
        p->bytes_sent += r->bytes;
        if (r->state != RS_NONE) {
            p->rndv_sent++;
            p->rndv_bytes += r->bytes;
        }
        r->comm->msgs_sent++;
        r->comm->bytes_sent += r->bytes;
    }
    return rc;
}

int proto_send_now(rmp_ctx_t *c, comm_t *comm, uint32_t ctx_id, const void *buf, size_t bytes,
                   int dst, int tag)
{
    int w = comm->world[dst];
    peer_t *p = &c->peers[w];
    if (p->failed || !p->connected || bytes > proto_eager_limit(c, w))
        return RMP_AGAIN; /* proto_send says why, connects, or goes rendezvous */
    pkt_match_t m = {.type = PKT_EAGER, .ctx = ctx_id, .src = comm->rank, .tag = tag,
                     .seq = p->send_seq, .len = bytes};
    int rc = outq_push_now(c, w, &m, sizeof(m), buf, bytes);
    if (rc == RMP_SUCCESS) {
        if (__builtin_expect(c->prof != NULL, 0))
            prof_size(c->prof, bytes);
        p->send_seq++;
        p->msgs_sent++;
        p->bytes_sent += bytes;
        comm->msgs_sent++;
        comm->bytes_sent += bytes;
    }
    return rc;
}

/* Fill the status of a matched receive; returns bytes to move. */
static size_t recv_matched(struct rmp_request *r, int src, int tag, size_t len)
{
    r->status.source = src;
    r->status.tag = tag;
    r->status.count = len <= r->bytes ? len : r->bytes;
    r->status.error = len <= r->bytes ? RMP_SUCCESS : RMP_ERR_TRUNCATE;
    return r->status.count;
}

int proto_recv(rmp_ctx_t *c, struct rmp_request *r)
{
    unexp_t *u = match_find_unexp(c->mq, r->ctx_id, r->peer, r->tag, true);
    int w = r->peer >= 0 ? r->comm->world[r->peer] : -1; /* -1: RMP_ANY_SOURCE */
    if (!u && w >= 0 && c->peers[w].failed) {
        /* What the peer sent before it failed has matched above; nothing more will come. */
        req_recv_finish(r, c->peers[w].failed);
        return RMP_SUCCESS;
    }
    if (!u)
        return match_post(c->mq, r) ? RMP_SUCCESS : RMP_ERR_NO_MEM;
    proto_recv_unexp(c, r, u);
    return RMP_SUCCESS;
}

void proto_recv_unexp(rmp_ctx_t *c, struct rmp_request *r, unexp_t *u)
{
    size_t n = recv_matched(r, u->src, u->tag, u->len);
    int failed = c->peers[u->src_world].failed;
    if (u->rndv && failed) {
        /* its data is still at a sender that failed since: nothing will ever answer */
        req_recv_finish(r, failed);
    } else if (u->rndv) {
        rndv_recv_start(c, r, u->src_world, u->len, u->sreq, &u->rkey, u->can_get);
    } else {
        if (n)
            memcpy(r->buf, u->data, n);
        req_recv_finish(r, RMP_SUCCESS);
    }
    free(u->data);
    free(u);
}

static void on_match_pkt(rmp_ctx_t *c, int src_world, const wire_pkt_t *pk)
{
    const pkt_match_t *m = &pk->h.m;
    const pkt_rts_t *rts = &pk->h.rts;
    struct rmp_request *r = match_take_posted(c->mq, m->ctx, m->src, m->tag);
    c->peers[src_world].msgs_recvd++;
    c->peers[src_world].bytes_recvd += m->len;
    if (r) {
        size_t n = recv_matched(r, m->src, m->tag, m->len);
        if (pk->type == PKT_RTS) {
            rndv_recv_start(c, r, src_world, m->len, rts->sreq, &rts->rkey,
                            m->flags & PKT_F_GET);
        } else {
            if (n)
                copy_bytes(r->buf, pk->payload, n);
            req_recv_finish(r, RMP_SUCCESS);
        }
        return;
    }
    unexp_t *u = calloc(1, sizeof(*u));
    if (!u) {
        core_error(c, "out of memory queueing a message from rank %d: aborting", src_world);
        boot_abort(c, 1, 1, "out of memory");
        return;
    }
    *u = (unexp_t){.ctx = m->ctx, .src = m->src, .tag = m->tag, .src_world = src_world,
                   .seq = m->seq, .len = m->len, .rndv = pk->type == PKT_RTS};
    if (u->rndv) {
        u->sreq = rts->sreq;
        u->rkey = rts->rkey;
        u->can_get = m->flags & PKT_F_GET;
    } else if (m->len) {
        u->data = malloc(m->len);
        if (!u->data) {
            core_error(c, "out of memory queueing %llu bytes from rank %d: aborting",
                       (unsigned long long)m->len, src_world);
            boot_abort(c, 1, 1, "out of memory");
            return;
        }
        memcpy(u->data, pk->payload, m->len);
    }
    if (!match_add_unexp(c->mq, u)) {
        free(u->data);
        free(u);
        core_error(c, "out of memory queueing a message from rank %d: aborting", src_world);
        boot_abort(c, 1, 1, "out of memory");
        return;
    }
    stats_unexp(&c->stats, match_unexp_count(c->mq));
    EV_RAISE(RMP_EV_UNEXPECTED, src_world, m->tag, m->ctx, (long long)m->len,
             (long long)match_unexp_count(c->mq));
    progress_kick_for(c, PROGRESS_ON_ANY); /* another thread may sleep in a probe for it */
}

void core_deliver(rmp_ctx_t *c, int src, const void *data, size_t len)
{
    peer_t *p = &c->peers[src];
    if (p->garbled)
        return;
    wire_pkt_t pk;
    const char *bad = wire_parse(data, len, &pk);
    if (!bad)
        bad = wire_check_seq(&pk, &p->recv_seq);
    if (bad) {
        fault_peer_garbled(c, src, data, len, bad);
        return;
    }
    switch (pk.type) {
    case PKT_EAGER:
    case PKT_RTS:
        on_match_pkt(c, src, &pk);
        break;
    case PKT_CTS:
    case PKT_FIN:
        rndv_on_ctl(c, src, &pk.h.ctl);
        break;
    case PKT_CANCEL:
        send_cancel_on_cancel(c, src, &pk.h.ctl);
        break;
    case PKT_CANCELLED:
    case PKT_NOT_CANCELLED:
        send_cancel_on_answer(c, src, &pk.h.ctl);
        break;
    case PKT_RMA:
        rma_hook_deliver(c, src, &pk.h.rma, pk.payload, pk.paylen);
        break;
    default: /* PKT_DATA: wire_parse knows no other type */
        rndv_on_data(c, src, &pk.h.data, pk.payload, pk.paylen);
        break;
    }
}
