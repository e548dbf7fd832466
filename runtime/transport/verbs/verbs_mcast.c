/* verbs_mcast.c — broadcast over UD multicast: the datagram intake (filtering, RMP_MCAST_DROP,
 * early datagrams kept for a call not started yet), the progress that lets a rank sleep in a
 * call, and the choice, identical on every rank, of whether a bcast runs here (RMP_MCAST).
 * The group and the UD QP are in verbs_mcast_group.c, one call's protocol (fragments, repair,
 * flow control) in verbs_mcast_call.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transport/verbs/verbs_mcast.h"


/* ---- sends and the datagram intake ---------------------------------------------------------- */


static bool mc_drop_one(mc_state_t *mc)
{
    if (mc->drop <= 0)
        return false;
    mc->rng ^= mc->rng << 13; /* xorshift64 */
    mc->rng ^= mc->rng >> 7;
    mc->rng ^= mc->rng << 17;
    return (double)(mc->rng >> 11) / 9007199254740992.0 < mc->drop;
}

static void mc_repost(mc_state_t *mc, uint32_t b)
{
    mc->repost[mc->nrepost++] = b;
}

/* Whether buffer b holds a datagram of this job meant for someone else than its sender. */
static bool mc_parse(verbs_tp_t *v, mc_state_t *mc, uint32_t b, uint32_t len, mc_hdr_t *h)
{
    if (len < MC_GRH + MC_HDR_BYTES)
        return false;
    memcpy(h, mc->rx + (size_t)b * mc->rx_bytes + MC_GRH, sizeof(*h));
    if (h->job != mc->job) {
        mc->st_foreign++;
        return false;
    }
    return h->root != (uint32_t)v->base.env->rank; /* our own, looped back */
}

static void mc_deliver(verbs_tp_t *v, mc_state_t *mc, mc_call_t *k, uint32_t b, uint32_t len,
                       const mc_hdr_t *h)
{
    const char *p = mc->rx + (size_t)b * mc->rx_bytes + MC_GRH + MC_HDR_BYTES;
    (void)v;
    mc_call_datagram(k, h, p, len - MC_GRH - MC_HDR_BYTES);
}

static void mc_on_recv(verbs_tp_t *v, mc_state_t *mc, uint32_t b, uint32_t len)
{
    mc_hdr_t h;
    if (!mc_parse(v, mc, b, len, &h)) {
        mc_repost(mc, b);
        return;
    }
    if (h.frag != MC_NUDGE && mc_drop_one(mc)) {
        mc->st_dropped++;
        mc_repost(mc, b);
        return;
    }
    if (h.frag == MC_NUDGE) { /* its work was waking us up */
        mc->st_nudges++;
        mc_repost(mc, b);
        return;
    }
    mc->st_recv++;
    mc_call_t *k = mc_call_find(mc, h.ctx, h.seq);
    if (k) {
        mc_deliver(v, mc, k, b, len, &h);
        mc_repost(mc, b);
        return;
    }
    /* No such call here yet: keep it for when the call starts, the oldest making room. */
    if (mc->stash_n == MC_STASH_MAX) {
        mc_repost(mc, mc->stash[mc->stash_head]);
        mc->stash_head = (mc->stash_head + 1) % MC_STASH_MAX;
        mc->stash_n--;
    }
    uint32_t at = (mc->stash_head + mc->stash_n++) % MC_STASH_MAX;
    mc->stash[at] = b;
    mc->stash_len[at] = len;
}

/* Take the stashed datagrams of (ctx, seq) out (all seqs when any_seq): to k, or dropped. */
static void mc_stash_take(verbs_tp_t *v, mc_state_t *mc, mc_call_t *k, uint32_t ctx,
                          uint32_t seq, bool any_seq)
{
    uint32_t keep = 0, n = mc->stash_n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = (mc->stash_head + i) % MC_STASH_MAX, b = mc->stash[at];
        mc_hdr_t h;
        memcpy(&h, mc->rx + (size_t)b * mc->rx_bytes + MC_GRH, sizeof(h));
        if (h.ctx == ctx && (any_seq || h.seq == seq)) {
            if (k)
                mc_deliver(v, mc, k, b, mc->stash_len[at], &h);
            mc_repost(mc, b);
            continue;
        }
        uint32_t to = (mc->stash_head + keep++) % MC_STASH_MAX;
        mc->stash[to] = b;
        mc->stash_len[to] = mc->stash_len[at];
    }
    mc->stash_n = keep;
}

void mc_stash_feed(verbs_tp_t *v, mc_call_t *k, uint32_t ctx, uint32_t seq)
{
    mc_stash_take(v, v->mcast, k, ctx, seq, false);
}

void mc_stash_drop(mc_state_t *mc, uint32_t ctx)
{
    mc_stash_take(NULL, mc, NULL, ctx, 0, true);
}

static int mcast_progress_tp(verbs_tp_t *v)
{
    mc_state_t *mc = v->mcast;
    if (!mc || !mc->usable)
        return 0;
    struct ibv_wc wc[32];
    int k = ibv_poll_cq(mc->cq, 32, wc);
    if (k < 0) {
        tp_error(&v->base, "verbs: mcast: ibv_poll_cq on the UD CQ failed");
        k = 0;
    }
    if (k > 0)
        mc->armed = false; /* the event may have fired: take it and ask again when idle */
    for (int i = 0; i < k; i++) {
        if (wc[i].opcode & IBV_WC_RECV) {
            if (wc[i].status == IBV_WC_SUCCESS)
                mc_on_recv(v, mc, (uint32_t)wc[i].wr_id, wc[i].byte_len);
            else if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
                mc_repost(mc, (uint32_t)wc[i].wr_id);
            continue;
        }
        mc->sq_out--;
        if (wc[i].wr_id) /* 0: a wake-up datagram */
            mc_call_sent((mc_call_t *)(uintptr_t)wc[i].wr_id, &wc[i]);
    }
    if (mc->nrepost && mc_post_recvs(v, mc, mc->repost, mc->nrepost) == RMP_SUCCESS)
        mc->nrepost = 0;
    if (k || !mc->calls)
        return k;
    /* Idle in a call: datagrams (and peers' wake-ups) raise an event, stall checks the
     * timer, so the progress engine may sleep on the transport's fds. */
    if (!mc->armed)
        return mc_arm(v, mc);
    double at = 0;
    for (mc_call_t *c = mc->calls; c; c = mc_call_next(c)) {
        double d = mc_call_deadline(c);
        if (d > 0 && (at == 0 || d < at))
            at = d;
    }
    mc_timer(v, mc, at);
    return 0;
}

/* ---- the choice ----------------------------------------------------------------------------- */

static int mc_comm_facts(verbs_tp_t *v, const ofl_comm_t *comm, mc_comm_t **cc_p)
{
    if (*comm->state) {
        *cc_p = *comm->state;
        return RMP_SUCCESS;
    }
    mc_comm_t *cc = calloc(1, sizeof(*cc));
    int *nodes = calloc((size_t)comm->size, sizeof(int));
    if (!cc || !nodes) {
        free(cc);
        free(nodes);
        return RMP_ERR_NO_MEM;
    }
    cc->unusable = -1;
    uint32_t mtu = 1u << 30;
    for (int r = 0; r < comm->size; r++) {
        int w = comm->world[r];
        const verbs_blob_t *b = verbs_peer_blob(v, w);
        if (!b || !b->mcast_qpn) {
            if (cc->unusable < 0)
                cc->unusable = r;
        } else if ((128u << b->mtu) < mtu) {
            mtu = 128u << b->mtu;
        }
        int node = v->base.env->node[w], j = 0;
        while (j < cc->nodes && nodes[j] != node)
            j++;
        if (j == cc->nodes)
            nodes[cc->nodes++] = node;
    }
    free(nodes);
    cc->fbytes = cc->unusable < 0 ? mtu - MC_HDR_BYTES : 0;
    *comm->state = cc;
    *cc_p = cc;
    return RMP_SUCCESS;
}

/* Decided from RMP_MCAST, what every member published, the nodes and the byte count only:
 * every rank of the communicator reaches the same answer. */
static int mcast_start(verbs_tp_t *v, const ofl_comm_t *comm, const ofl_args_t *a,
                       ofl_req_t **req, char *why, size_t len)
{
    const char *mode = mc_mode(v);
    mc_comm_t *cc;
    if (!strcmp(mode, "off")) {
        snprintf(why, len, "RMP_MCAST=off");
        return RMP_ERR_NOT_SUPPORTED;
    }
    int rc = mc_comm_facts(v, comm, &cc);
    if (rc)
        return rc;
    if (!strcmp(mode, "auto") && cc->nodes < MC_AUTO_NODES) {
        snprintf(why, len, "mcast (RMP_MCAST=auto): the communicator spans %d node%s, fewer "
                 "than %d", cc->nodes, cc->nodes == 1 ? "" : "s", MC_AUTO_NODES);
        return RMP_ERR_NOT_SUPPORTED;
    }
    if (!strcmp(mode, "auto")) {
        snprintf(why, len, "mcast (RMP_MCAST=auto): slower than the software schedule at every "
                 "size measured (soft-RoCE, see bench/README.md); RMP_MCAST=on forces it");
        return RMP_ERR_NOT_SUPPORTED;
    }
    if (cc->unusable >= 0) {
        snprintf(why, len, "mcast: rank %d of the communicator has no multicast group (its "
                 "RMP_VERBOSE says why)", cc->unusable);
        return RMP_ERR_NOT_SUPPORTED;
    }
    if (comm->size > (int)MC_SLOT_RANKS) {
        snprintf(why, len, "mcast: %d ranks, more than the %u it serves", comm->size,
                 MC_SLOT_RANKS);
        return RMP_ERR_NOT_SUPPORTED;
    }
    rc = mc_call_start(v, comm, cc, a, req);
    if (rc == RMP_SUCCESS) {
        mc_call_t *k = (mc_call_t *)*req;
        k->base.be = &verbs_mcast_backend;
        if (!mc_call_is_root(k)) /* datagrams that came before the call */
            mc_stash_feed(v, k, k->ctx, k->seq);
    }
    if (rc == RMP_SUCCESS)
        snprintf(why, len, "mcast: RMP_MCAST=%s, %d nodes, %u-byte datagrams", mode, cc->nodes,
                 cc->fbytes + MC_HDR_BYTES);
    return rc;
}

/* Its context id may be reused by a new communicator: datagrams kept for it must not reach
 * that one's calls. */
static void mcast_comm_free(verbs_tp_t *v, const ofl_comm_t *comm)
{
    mc_state_t *mc = v->mcast;
    if (mc && mc->usable)
        mc_stash_drop(mc, comm->ctx_id);
    free(*comm->state);
    *comm->state = NULL;
}

/* The root sends and waits for the reports; a receiver takes datagrams and repairs. */
static int mcast_progress(ofl_req_t *req)
{
    mc_call_t *k = (mc_call_t *)req;
    return mc_call_is_root(k) ? mc_root_step(k) : mc_recv_step(k);
}

/* Only RMP_MCAST=on sets a group up (mc_open); repairs then read from the root over RC. */
static bool mcast_may_run(const verbs_tp_t *v)
{
    return v->mcast != NULL;
}

const verbs_ofl_backend_t verbs_mcast_backend = {
    .name = "mcast", .start = mcast_start, .progress = mcast_progress,
    .finish = mc_call_finish, .comm_free = mcast_comm_free, .open = mc_open,
    .may_run = mcast_may_run,
    .wireup = mc_wireup, .progress_tp = mcast_progress_tp, .close = mc_close,
};
