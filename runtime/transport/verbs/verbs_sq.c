/* verbs_sq.c — the send-queue slots of a verbs connection, which eager sends, RDMA READs and
 * the offload backends' work requests share: verbs_post takes slots and decides which work
 * requests are signaled, verbs_sq_retire gives them back when a signaled one completes. */
#include <stdio.h>
#include <string.h>

#include "transport/verbs/verbs.h"

/* Inline sends go unsignaled (no buffer to give back), except every quarter of the queue: a
 * signaled completion retires itself and the unsignaled WRs before it (an RC send queue
 * completes in order). With fewer than a quarter unsignaled at any time, a full queue always
 * holds a signaled WR whose completion frees slots. */
int verbs_post(verbs_tp_t *v, verbs_conn_t *c, struct ibv_send_wr *wr, bool force_sig)
{
    bool sig = force_sig || c->unsig + 1 >= v->sq_depth / 4;
    uint32_t saved_unsig = c->unsig;
    if (sig) {
        wr->send_flags |= IBV_SEND_SIGNALED;
        c->sig_ring[c->sig_tail++ % v->sq_depth] = (uint16_t)(c->unsig + 1);
        c->unsig = 0;
    } else {
        c->unsig++;
    }
    c->sq_free--;
    struct ibv_send_wr *bad;
    int rc = ibv_post_send(c->qp, wr, &bad);
    if (rc) {
        c->sq_free++;
        c->unsig = saved_unsig;
        if (sig)
            c->sig_tail--;
        tp_error(&v->base, "verbs: ibv_post_send to rank %d on %s: %s", c->peer,
                 v->devname, strerror(rc));
        return RMP_ERR_TRANSPORT;
    }
    return RMP_SUCCESS;
}

void verbs_sq_retire(verbs_tp_t *v, verbs_conn_t *c)
{
    /* sig_ring holds sq_depth entries at most: signaled WRs never outnumber slots. */
    if (c->sig_head == c->sig_tail)
        return;
    c->sq_free += c->sig_ring[c->sig_head++ % v->sq_depth];
}
