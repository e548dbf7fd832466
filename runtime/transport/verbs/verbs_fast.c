/* verbs_fast.c — the RDMA-WRITE eager fast path: a receiver gives its busiest senders (after
 * RMP_VERBS_FASTPATH_AFTER arrivals, RMP_VERBS_FASTPATH_PEERS of them at most) a ring of
 * registered slots; the sender RDMA-WRITEs header, payload and a trailing sequence word into
 * the next slot, and the receiver's progress finds it by reading that word: no receive
 * buffer, no SRQ refill, no completion at the receiver.
 *
 * Each rank registers one mailbox per peer at open (published in the modex blob). A peer
 * writes into my mailbox: the ring it offers me (address, key, slot count, then the offer
 * word last), how many of my ring messages it has taken (credits back: every half ring), and
 * whether it sleeps on its completion channel (then I send through its SRQ, whose completion
 * wakes it). A sender never waits for the ring: full, asleep or too large, the message goes
 * through the SRQ as before.
 * Order between the two paths (one pair's messages arrive in the order sent): a slot carries
 * how many SRQ messages went before it, and is taken only once those have arrived; an SRQ
 * message's immediate data carries, above the sender's rank, how many ring messages went
 * before it (mod 256: a ring holds fewer), which are in place already (an RC QP executes its
 * work requests in order) and are taken first. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "transport/verbs/verbs.h"

typedef struct verbs_fp_box {
    uint64_t ring_addr;         /* the ring the peer offers me */
    uint32_t ring_rkey, ring_slots;
    uint64_t offer;             /* written with the three above, last: 1 = they are valid */
    uint64_t credits;           /* messages of my ring the peer has taken */
    uint64_t asleep;            /* nonzero: the peer sleeps on its completion channel */
    uint64_t pad[3];
} verbs_fp_box_t;

typedef struct fp_head {
    uint64_t seq;               /* message number on this ring, from 1; also in the tail */
    uint32_t len;               /* header + payload bytes */
    uint32_t srq_before;        /* SRQ messages the sender sent before this one */
} fp_head_t;

#define FP_FRAME (sizeof(fp_head_t) + sizeof(uint64_t))
#define FP_IMM_RANKS (1 << 24) /* ranks the immediate data holds beside a ring count */
#define FP_SPIN_MAX (1u << 24) /* reads of a slot an SRQ arrival proves written */

static size_t fp_wire(size_t total)
{
    return sizeof(fp_head_t) + ((total + 7) & ~(size_t)7) + sizeof(uint64_t);
}

static uint64_t ld(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE); /* written by the adapter */
}

static bool imm_counts(const verbs_tp_t *v)
{
    return v->base.env->size <= FP_IMM_RANKS;
}

/* ---- small writes into a peer's mailbox -------------------------------------------------- */

/* Inline, unsignaled: `len` bytes at field offset `off` of my mailbox at the peer. */
static int box_write(verbs_tp_t *v, verbs_conn_t *c, size_t off, const void *src, size_t len)
{
    const verbs_blob_t *b = verbs_peer_blob(v, c->peer);
    if (!b || !b->fp_box_addr)
        return RMP_ERR_NOT_SUPPORTED;
    if (c->state != VC_READY || c->sq_free == 0)
        return RMP_AGAIN;
    struct ibv_sge sge = {.addr = (uintptr_t)src, .length = (uint32_t)len};
    struct ibv_send_wr wr = {
        .wr_id = verbs_send_wrid(c->peer, 0), .sg_list = &sge, .num_sge = 1,
        .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_INLINE,
        .wr.rdma = {.remote_addr = b->fp_box_addr +
                                   (uint64_t)v->base.env->rank * sizeof(verbs_fp_box_t) + off,
                    .rkey = b->fp_box_rkey},
    };
    return verbs_post(v, c, &wr, false);
}

static void credits_back(verbs_tp_t *v, verbs_conn_t *c, bool all)
{
    uint64_t n = c->fp.rx_next;
    if (n - c->fp.rx_returned < (all ? 1 : VERBS_FP_SLOTS / 2))
        return;
    if (box_write(v, c, offsetof(verbs_fp_box_t, credits), &n, sizeof(n)) == RMP_SUCCESS)
        c->fp.rx_returned = n;
}

/* ---- the receiver: taking slots ---------------------------------------------------------- */

/* 1: the next slot of c's ring holds a message that may be delivered now; 0: not (yet);
 * negative: garbled (the peer failed). `srq_ok`: an SRQ arrival proved it precedes. */
static int slot_ready(verbs_tp_t *v, verbs_conn_t *c, bool srq_ok)
{
    char *slot = c->fp.rx_ring + (c->fp.rx_next % VERBS_FP_SLOTS) * VERBS_FP_SLOT;
    fp_head_t *h = (fp_head_t *)slot;
    uint64_t seq = c->fp.rx_next + 1;
    if (ld(&h->seq) != seq)
        return 0;
    if (h->len > VERBS_FP_SLOT - FP_FRAME) {
        char why[160];
        snprintf(why, sizeof(why), "a fast-path slot of %u bytes from rank %d (%s): garbled",
                 h->len, c->peer, v->devname);
        verbs_peer_failed(v, c->peer, why);
        return -1;
    }
    if (ld((uint64_t *)(slot + fp_wire(h->len) - sizeof(uint64_t))) != seq)
        return 0;
    return srq_ok || (int32_t)(h->srq_before - c->fp.srq_recv) <= 0;
}

static void slot_take(verbs_tp_t *v, verbs_conn_t *c)
{
    char *slot = c->fp.rx_ring + (c->fp.rx_next % VERBS_FP_SLOTS) * VERBS_FP_SLOT;
    c->fp.rx_next++;
    v->st_fp_recvs++;
    c->heard = true;
    tp_deliver(&v->base, c->peer, slot + sizeof(fp_head_t), ((fp_head_t *)slot)->len);
    credits_back(v, c, false);
}

int verbs_fast_progress(verbs_tp_t *v)
{
    int n = 0;
    for (int i = 0; i < v->fp_nrx; i++) {
        verbs_conn_t *c = &v->conns[v->fp_rx[i]];
        for (uint32_t k = 0; k < VERBS_FP_SLOTS && c->state != VC_FAILED; k++) {
            if (slot_ready(v, c, false) != 1)
                break;
            slot_take(v, c);
            n++;
        }
    }
    if (v->fp_asleep && !v->fp_armed)
        verbs_fast_disarm(v); /* a wake-up write that found no queue slot */
    return n;
}

int verbs_fast_imm_src(verbs_tp_t *v, uint32_t imm)
{
    return imm_counts(v) ? (int)(imm & (FP_IMM_RANKS - 1)) : (int)imm;
}

int verbs_fast_before_srq(verbs_tp_t *v, verbs_conn_t *c, uint32_t imm)
{
    if (!imm_counts(v))
        return RMP_SUCCESS;
    uint32_t k = imm >> 24;
    while ((c->fp.rx_next & 0xff) != k) {
        int r = 0;
        for (uint32_t spin = 0; c->fp.rx_ring && spin < FP_SPIN_MAX && !r; spin++)
            r = slot_ready(v, c, true);
        if (r < 0)
            return RMP_ERR_PEER;
        if (r == 0) {
            char why[200];
            snprintf(why, sizeof(why), "an SRQ message from rank %d (%s) follows ring message "
                     "%u, which is not in its ring", c->peer, v->devname, k);
            verbs_peer_failed(v, c->peer, why);
            return RMP_ERR_PEER;
        }
        slot_take(v, c);
    }
    return RMP_SUCCESS;
}

/* ---- the receiver: offering a ring ------------------------------------------------------- */

static int ring_make(verbs_tp_t *v, verbs_conn_t *c)
{
    size_t bytes = (size_t)VERBS_FP_SLOTS * VERBS_FP_SLOT;
    char *ring = mmap(NULL, bytes, verbs_fault_ring_prot(v), MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ring == MAP_FAILED)
        return RMP_ERR_NO_MEM;
    c->fp.rx_mr = ibv_reg_mr(v->pd, ring, bytes, IBV_ACCESS_LOCAL_WRITE |
                             IBV_ACCESS_REMOTE_WRITE);
    if (!c->fp.rx_mr) {
        int err = errno;
        tp_verbose(&v->base, "verbs: fast path: no ring for rank %d: ibv_reg_mr (%zu bytes) on "
                   "%s: %s%s; it keeps sending through the SRQ", c->peer, bytes, v->devname,
                   strerror(err), verbs_memlock_hint(err));
        munmap(ring, bytes);
        return RMP_ERR_TRANSPORT;
    }
    c->fp.rx_ring = ring;
    return RMP_SUCCESS;
}

static void ring_free(verbs_conn_t *c)
{
    if (c->fp.rx_mr)
        ibv_dereg_mr(c->fp.rx_mr);
    if (c->fp.rx_ring)
        munmap(c->fp.rx_ring, (size_t)VERBS_FP_SLOTS * VERBS_FP_SLOT);
    c->fp.rx_mr = NULL;
    c->fp.rx_ring = NULL;
}

static void offer(verbs_tp_t *v, verbs_conn_t *c)
{
    if (v->fp_nrx >= v->fp_max_peers) {
        tp_verbose(&v->base, "verbs: fast path: rank %d stays on the SRQ: all %d rings are "
                   "given (RMP_VERBS_FASTPATH_PEERS)", c->peer, v->fp_max_peers);
        c->fp.rx_refused = true;
        return;
    }
    if (c->state == VC_RTR && verbs_wire_connect(v, c->peer) != RMP_SUCCESS)
        return;
    if (c->state != VC_READY || c->sq_free == 0)
        return; /* the next arrival tries again */
    if (ring_make(v, c) != RMP_SUCCESS) {
        c->fp.rx_refused = true;
        return;
    }
    struct { uint64_t addr; uint32_t rkey, slots; uint64_t offer; } o = {
        (uintptr_t)c->fp.rx_ring, c->fp.rx_mr->rkey, VERBS_FP_SLOTS, 1};
    int rc = box_write(v, c, offsetof(verbs_fp_box_t, ring_addr), &o, sizeof(o));
    if (rc != RMP_SUCCESS) {
        ring_free(c);
        c->fp.rx_refused = rc != RMP_AGAIN;
        return;
    }
    v->fp_rx[v->fp_nrx++] = c->peer;
    tp_verbose(&v->base, "verbs: fast path: rank %d gets a ring (%u slots of %u bytes, %u KiB) "
               "after %u messages; %d of %d rings given", c->peer, VERBS_FP_SLOTS,
               VERBS_FP_SLOT, VERBS_FP_SLOTS * VERBS_FP_SLOT / 1024, c->fp.srq_recv, v->fp_nrx,
               v->fp_max_peers);
}

void verbs_fast_after_srq(verbs_tp_t *v, verbs_conn_t *c)
{
    c->fp.srq_recv++;
    if (!v->fp_box || c->fp.rx_ring || c->fp.rx_refused || c->fp.srq_recv < v->fp_after)
        return;
    const verbs_blob_t *b = verbs_peer_blob(v, c->peer);
    if (!b || !b->fp_box_addr)
        c->fp.rx_refused = true; /* it has no mailboxes: it could not use a ring */
    else
        offer(v, c);
}

/* ---- the sender -------------------------------------------------------------------------- */

uint32_t verbs_fast_imm(verbs_tp_t *v, verbs_conn_t *c)
{
    uint32_t rank = (uint32_t)v->base.env->rank;
    return imm_counts(v) ? rank | (uint32_t)(c->fp.tx_sent & 0xff) << 24 : rank;
}

/* Whether c has a ring of the peer's with a free slot for a message of `total` bytes. */
static bool ring_room(verbs_tp_t *v, verbs_conn_t *c, size_t total)
{
    verbs_fp_box_t *box = &v->fp_box[c->peer];
    if (!c->fp.tx_addr) {
        if (!ld(&box->offer))
            return false;
        c->fp.tx_rkey = box->ring_rkey;
        c->fp.tx_slots = box->ring_slots;
        c->fp.tx_addr = box->ring_addr;
    }
    if (total > VERBS_FP_SLOT - FP_FRAME || ld(&box->asleep))
        return false;
    if (c->fp.tx_sent - ld(&box->credits) >= c->fp.tx_slots) {
        v->st_fp_full++;
        return false;
    }
    return true;
}

static void fill(char *buf, verbs_conn_t *c, const void *hdr, size_t hdrlen,
                 const void *payload, size_t len)
{
    size_t total = hdrlen + len, wire = fp_wire(total);
    uint64_t seq = c->fp.tx_sent + 1;
    *(fp_head_t *)buf = (fp_head_t){seq, (uint32_t)total, c->fp.srq_sent};
    memcpy(buf + sizeof(fp_head_t), hdr, hdrlen);
    if (len)
        memcpy(buf + sizeof(fp_head_t) + hdrlen, payload, len);
    memset(buf + sizeof(fp_head_t) + total, 0, wire - sizeof(fp_head_t) - total);
    memcpy(buf + wire - sizeof(uint64_t), &seq, sizeof(seq));
}

int verbs_fast_send(verbs_tp_t *v, verbs_conn_t *c, const void *hdr, size_t hdrlen,
                    const void *payload, size_t len)
{
    if (!v->fp_box || !ring_room(v, c, hdrlen + len))
        return RMP_ERR_NOT_SUPPORTED;
    if (c->sq_free == 0)
        return RMP_AGAIN;
    size_t wire = fp_wire(hdrlen + len);
    char small[VERBS_INLINE_WANT], *buf = small;
    uint32_t idx = 0;
    bool inl = wire <= v->max_inline && wire <= sizeof(small);
    if (!inl) {
        if (v->tx_nfree == 0)
            return RMP_AGAIN;
        idx = v->tx_free[--v->tx_nfree];
        buf = v->tx_mem + (size_t)idx * VERBS_BUF_SIZE;
    }
    fill(buf, c, hdr, hdrlen, payload, len);
    struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = (uint32_t)wire,
                          .lkey = inl ? 0 : v->tx_mr->lkey};
    struct ibv_send_wr wr = {
        .wr_id = verbs_send_wrid(c->peer, inl ? 0 : idx + 1), .sg_list = &sge, .num_sge = 1,
        .opcode = IBV_WR_RDMA_WRITE, .send_flags = inl ? IBV_SEND_INLINE : 0,
        .wr.rdma = {.remote_addr = c->fp.tx_addr +
                                   (c->fp.tx_sent % c->fp.tx_slots) * VERBS_FP_SLOT,
                    .rkey = c->fp.tx_rkey},
    };
    int rc = verbs_post(v, c, &wr, !inl); /* signaled with a buffer: it comes back with it */
    if (rc != RMP_SUCCESS) {
        if (!inl)
            v->tx_free[v->tx_nfree++] = idx;
        return rc;
    }
    c->fp.tx_sent++;
    v->st_fp_sends++;
    verbs_fault_after_send(v, c);
    return RMP_SUCCESS;
}

/* ---- sleeping: senders must wake me through the SRQ -------------------------------------- */

static int tell_asleep(verbs_tp_t *v, uint64_t asleep)
{
    int rc = RMP_SUCCESS;
    for (int i = 0; i < v->fp_nrx; i++) {
        verbs_conn_t *c = &v->conns[v->fp_rx[i]];
        if (c->state != VC_FAILED &&
            box_write(v, c, offsetof(verbs_fp_box_t, asleep), &asleep, sizeof(asleep)))
            rc = RMP_AGAIN;
    }
    return rc;
}

static bool any_ready(verbs_tp_t *v)
{
    for (int i = 0; i < v->fp_nrx; i++) {
        verbs_conn_t *c = &v->conns[v->fp_rx[i]];
        if (c->state != VC_FAILED && slot_ready(v, c, false))
            return true;
    }
    return false;
}

/* Senders that see my flag send through the SRQ, whose completion wakes me. One that read it
 * just before my flag landed may still write a slot: the look after the flags, and the core's
 * re-arm after its short first sleep, find that one. A refusal takes the flags back itself:
 * the core calls no disarm for a transport that refused. */
int verbs_fast_arm(verbs_tp_t *v)
{
    if (v->fp_nrx == 0)
        return RMP_SUCCESS;
    if (any_ready(v))
        goto refuse;
    if (!v->fp_armed) {
        v->fp_armed = v->fp_asleep = true;
        if (tell_asleep(v, 1) != RMP_SUCCESS)
            goto refuse;
    }
    if (!any_ready(v))
        return RMP_SUCCESS;
refuse:
    verbs_fast_disarm(v);
    return RMP_AGAIN;
}

void verbs_fast_disarm(verbs_tp_t *v)
{
    v->fp_armed = false;
    if (v->fp_asleep && tell_asleep(v, 0) == RMP_SUCCESS)
        v->fp_asleep = false;
}

/* ---- life cycle -------------------------------------------------------------------------- */

int verbs_fast_open(verbs_tp_t *v)
{
    const char *mode = tp_knob(&v->base, "RMP_VERBS_FASTPATH"); /* knobs.c checked it */
    if (mode && !strcmp(mode, "off"))
        return RMP_SUCCESS;
    if (!imm_counts(v)) {
        tp_verbose(&v->base, "verbs: fast path off: %d ranks do not fit the immediate data "
                   "beside a ring count", v->base.env->size);
        return RMP_SUCCESS;
    }
    bool on = mode && !strcmp(mode, "on");
    v->fp_after = on ? 1u : (uint32_t)verbs_env_count(v, "RMP_VERBS_FASTPATH_AFTER",
                                                      VERBS_FP_AFTER, 1, 1 << 30);
    v->fp_max_peers = (int)verbs_env_count(v, "RMP_VERBS_FASTPATH_PEERS", VERBS_FP_PEERS, 0,
                                           1024);
    size_t bytes = (size_t)v->base.env->size * sizeof(verbs_fp_box_t);
    if (posix_memalign((void **)&v->fp_box, 4096, bytes) ||
        !(v->fp_rx = calloc((size_t)v->fp_max_peers + 1, sizeof(int))))
        return RMP_ERR_NO_MEM;
    memset(v->fp_box, 0, bytes);
    v->fp_box_mr = ibv_reg_mr(v->pd, v->fp_box, bytes, IBV_ACCESS_LOCAL_WRITE |
                              IBV_ACCESS_REMOTE_WRITE);
    if (!v->fp_box_mr) {
        int err = errno;
        tp_verbose(&v->base, "verbs: fast path off: ibv_reg_mr of its mailboxes (%zu bytes) on "
                   "%s: %s%s", bytes, v->devname, strerror(err), verbs_memlock_hint(err));
        free(v->fp_box);
        v->fp_box = NULL;
        return RMP_SUCCESS;
    }
    tp_verbose(&v->base, "verbs: fast path %s: a ring of %u KiB for each of at most %d senders, "
               "after %u messages from one", on ? "on" : "auto",
               VERBS_FP_SLOTS * VERBS_FP_SLOT / 1024, v->fp_max_peers, v->fp_after);
    return RMP_SUCCESS;
}

void verbs_fast_publish(verbs_tp_t *v)
{
    if (v->fp_box_mr && v->blob) {
        v->blob->fp_box_addr = (uintptr_t)v->fp_box;
        v->blob->fp_box_rkey = v->fp_box_mr->rkey;
    }
}

void verbs_fast_close(verbs_tp_t *v)
{
    for (int p = 0; v->conns && p < v->base.env->size; p++)
        ring_free(&v->conns[p]);
    if (v->fp_box_mr)
        ibv_dereg_mr(v->fp_box_mr);
    free(v->fp_box);
    free(v->fp_rx);
}
