/* am.c — active messages, the origin's half: one-sided operations sent as PKT_RMA packets to
 * the target's progress (rma.h's RMA_AM path, and every operation under RMP_RMA_PATH=am), and
 * their answers. Everything goes through outq, so the packets of one origin reach a target in
 * the order they were issued, after everything else sent to it before: the target applies
 * them in that order, which is what makes flush a ping and unlock a packet like the others.
 *
 * An operation is a record in a table, named on the wire by slot and generation (a late or
 * forged answer names no live record and fails its sender as garbled). Data longer than one
 * packet carries goes in pieces, each acknowledged; the operation completes (rma_completed)
 * when every piece was, with the first error any piece met. */
#include <stdlib.h>
#include <string.h>

#include "am.h"

typedef struct am_op {
    win_t *w;     /* NULL once its window was unregistered (answers still accepted) */
    int r, world; /* target: window rank, world rank */
    uint32_t gen;
    bool counted; /* rma_issued: ends with rma_completed */
    bool done;    /* every answer came (blocking operations wait for it) */
    int pending;  /* packets not answered yet, +1 while the origin is still sending */
    int err;      /* first failure */
    char *buf;    /* GET: the destination; ACC: the result (NULL: none); packed */
    size_t bytes;
} am_op_t;

static am_op_t **op_tab; /* [op_cap]: live operations, NULL slots free */
static uint32_t op_cap, op_hint, op_gen;

static am_op_t *op_new(win_t *w, int r, bool counted, void *buf, size_t bytes, uint64_t *id)
{
    uint32_t slot = op_cap;
    for (uint32_t k = 0; k < op_cap; k++) {
        uint32_t i = (op_hint + k) % op_cap;
        if (!op_tab[i]) {
            slot = i;
            break;
        }
    }
    if (slot == op_cap) {
        uint32_t cap = op_cap ? 2 * op_cap : 64;
        am_op_t **t = realloc(op_tab, cap * sizeof(*t));
        if (!t)
            return NULL;
        memset(t + op_cap, 0, (cap - op_cap) * sizeof(*t));
        op_tab = t;
        op_cap = cap;
    }
    am_op_t *op = calloc(1, sizeof(*op));
    if (!op)
        return NULL;
    *op = (am_op_t){.w = w,
                    .r = r,
                    .world = w->t[r].world,
                    .gen = ++op_gen,
                    .counted = counted,
                    .pending = 1,
                    .buf = buf,
                    .bytes = bytes};
    op_tab[slot] = op;
    op_hint = slot + 1;
    *id = (uint64_t)op->gen << 32 | slot;
    if (counted)
        rma_issued(w, r);
    return op;
}

/* The live operation an answer names, or NULL. */
static am_op_t *op_of(uint64_t id)
{
    uint32_t slot = (uint32_t)id;
    if (slot >= op_cap || !op_tab[slot] || op_tab[slot]->gen != (uint32_t)(id >> 32))
        return NULL;
    return op_tab[slot];
}

static void op_free(am_op_t *op, uint64_t id)
{
    op_tab[(uint32_t)id] = NULL;
    free(op);
}

/* One answer (or the sender's hold) less; the last ends the operation. Non-blocking
 * operations are freed here, blocking ones by their waiter. */
static void op_settle(am_op_t *op, uint64_t id)
{
    if (--op->pending > 0)
        return;
    op->done = true;
    if (op->counted) {
        if (op->w)
            rma_completed(op->w, op->r, op->err, false);
        op_free(op, id);
    }
}

static void op_fail(am_op_t *op, int err)
{
    if (op->err == RMP_SUCCESS)
        op->err = err;
}

/* Send one request packet of op; counted among its pending answers once sent. */
static int send_req(am_op_t *op, uint64_t id, pkt_rma_t h, const void *payload, size_t len)
{
    h.type = PKT_RMA;
    h.id = id;
    int rc = outq_send_copy(&rmp_ctx, op->world, &h, sizeof(h), payload, len);
    if (rc == RMP_SUCCESS)
        op->pending++;
    else
        op_fail(op, rc);
    return rc;
}

/* Check what every send needs before an operation is issued: a transport that carries at
 * least one element, and a live target. */
static int target_ready(win_t *w, int r, size_t elem)
{
    rmp_ctx_t *c = &rmp_ctx;
    if (r < 0 || r >= w->size)
        return RMP_ERR_RANK;
    int world = w->t[r].world;
    if (c->peers[world].failed)
        return c->peers[world].failed;
    size_t max = am_max_payload(c, world);
    if (max < elem || max == 0) {
        core_error(c, "one-sided operation to rank %d: no transport carries its packets", world);
        return RMP_ERR_PEER;
    }
    return RMP_SUCCESS;
}

/* Send the pieces of a PUT, GET or ACC: each piece of target memory cut to what one packet
 * carries (whole elements of esize bytes), the packed data following along. */
static void send_pieces(am_op_t *op, uint64_t id, pkt_rma_t h, uint64_t off, const rma_piece_t *pcs,
                        int npcs, const char *packed, size_t esize)
{
    size_t max = am_max_payload(&rmp_ctx, op->world);
    max -= max % esize;
    bool data = h.kind == PKT_RMA_PUT || (h.kind == PKT_RMA_ACC && packed);
    uint64_t pos = 0;
    for (int i = 0; i < npcs; i++) {
        uint64_t at = off + (uint64_t)pcs[i].off; /* pieces may lie below the base */
        for (size_t left = pcs[i].len; left;) {
            size_t n = left < max ? left : max;
            h.off = at;
            h.pos = pos;
            h.len = n;
            if (send_req(op, id, h, data ? packed + pos : NULL, data ? n : 0) != RMP_SUCCESS)
                return; /* the target fails: later pieces would too */
            at += n, pos += n, left -= n;
        }
    }
}

/* An accumulate whose pieces split elements (a pair type's value and index sit apart in
 * memory): packets of whole elements, each listing the target pieces its bytes go to
 * (PKT_RMA_F_PIECES), so that the target combines every element whole. Adjacent parts share
 * one list entry; an element that would overfill a packet starts the next one. */
static void send_elems(am_op_t *op, uint64_t id, pkt_rma_t h, uint64_t off, const rma_piece_t *pcs,
                       const char *packed, size_t bytes, size_t esize)
{
    size_t max = am_max_payload(&rmp_ctx, op->world), one = sizeof(pkt_rma_piece_t);
    if (max > 65536)
        max = 65536; /* buffers below are of this size (the self transport takes 2^62) */
    pkt_rma_piece_t *list = malloc((max / one + esize) * one); /* may pass max by an element */
    char *pay = malloc(max);
    h.flags |= PKT_RMA_F_PIECES;
    h.off = off;
    int i = 0;
    size_t in = 0; /* the next element starts `in` bytes into piece i */
    for (uint64_t pos = 0; pos < bytes && list && pay;) {
        uint32_t nd = 0;
        size_t n = 0;
        while (pos + n < bytes) {
            int si = i;
            size_t sin = in;
            uint32_t snd = nd;
            pkt_rma_piece_t last = nd ? list[nd - 1] : (pkt_rma_piece_t){0, 0};
            for (size_t need = esize, take; need; need -= take) { /* the element's parts */
                take = pcs[i].len - in < need ? pcs[i].len - in : need;
                int64_t at = pcs[i].off + (int64_t)in;
                if (nd && list[nd - 1].off + (int64_t)list[nd - 1].len == at)
                    list[nd - 1].len += take;
                else
                    list[nd++] = (pkt_rma_piece_t){at, take};
                if ((in += take) == pcs[i].len)
                    i++, in = 0;
            }
            if (nd * one + (packed ? n + esize : 0) > max) {
                i = si, in = sin, nd = snd; /* it goes in the next packet */
                if (nd)
                    list[nd - 1] = last;
                break;
            }
            n += esize;
        }
        if (n == 0) {
            core_error(&rmp_ctx, "one-sided accumulate to rank %d: an element does not fit a "
                       "packet", op->world);
            op_fail(op, RMP_ERR_PEER);
            break;
        }
        memcpy(pay, list, nd * one);
        if (packed)
            memcpy(pay + nd * one, packed + pos, n);
        h.pos = pos, h.len = n, h.pad = nd;
        if (send_req(op, id, h, pay, nd * one + (packed ? n : 0)) != RMP_SUCCESS)
            break;
        pos += n;
    }
    if (!list || !pay)
        op_fail(op, RMP_ERR_NO_MEM);
    free(list);
    free(pay);
}

/* The pieces' total must be the packed bytes, of whole elements; *split: some piece is not
 * whole elements (send_elems' case). */
static int pieces_check(const rma_piece_t *pcs, int npcs, size_t bytes, size_t esize, bool *split)
{
    if (npcs < 0 || (npcs && !pcs))
        return RMP_ERR_ARG;
    size_t sum = 0;
    *split = false;
    for (int i = 0; i < npcs; i++) {
        *split = *split || pcs[i].len % esize;
        sum += pcs[i].len;
    }
    if (sum != bytes)
        return RMP_ERR_INTERNAL;
    return bytes % esize ? RMP_ERR_TYPE : RMP_SUCCESS;
}

static int issue(win_t *w, int r, pkt_rma_t h, uint64_t off, const rma_piece_t *pcs, int npcs,
                 const void *packed, void *buf, size_t bytes, size_t esize)
{
    bool split;
    int rc = pieces_check(pcs, npcs, bytes, esize, &split);
    if (rc == RMP_SUCCESS)
        rc = target_ready(w, r, esize);
    if (rc != RMP_SUCCESS)
        return rc;
    uint64_t id;
    am_op_t *op = op_new(w, r, true, buf, bytes, &id);
    if (!op)
        return RMP_ERR_NO_MEM;
    h.ctx = w->c->ctx_id;
    if (split) /* only an accumulate's elements are bigger than a byte */
        send_elems(op, id, h, off, pcs, packed, bytes, esize); /* NO_OP: NULL */
    else
        send_pieces(op, id, h, off, pcs, npcs, packed, esize);
    op_settle(op, id); /* the sender's hold: answers may all have come during the sends */
    return RMP_SUCCESS;
}

int rma_am_put(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, const void *packed,
               size_t bytes)
{
    return issue(w, r, (pkt_rma_t){.kind = PKT_RMA_PUT}, off, pcs, npcs, packed, NULL, bytes, 1);
}

int rma_am_get(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, void *dst,
               size_t bytes)
{
    return issue(w, r, (pkt_rma_t){.kind = PKT_RMA_GET}, off, pcs, npcs, NULL, dst, bytes, 1);
}

int rma_am_acc(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, dt_base_t base,
               rmp_op_t op, const void *packed, size_t bytes, void *result, const void *compare)
{
    if (base <= DT_NONE || base >= DT_NBUILTIN)
        return RMP_ERR_TYPE;
    size_t esize = dtype_base_size(base);
    if (!compare) {
        if (op != RMP_REPLACE && op != RMP_NO_OP && op_builtin_check(op, base) != RMP_SUCCESS)
            return RMP_ERR_OP;
        pkt_rma_t h = {.kind = PKT_RMA_ACC, .base = (uint8_t)base, .op = op};
        if (result)
            h.flags |= PKT_RMA_F_RESULT;
        if (op == RMP_NO_OP) { /* nothing to send: the target only reads */
            h.flags |= PKT_RMA_F_NODATA;
            packed = NULL;
        }
        return issue(w, r, h, off, pcs, npcs, packed, result, bytes, esize);
    }
    /* compare-and-swap: one element, its new value and its comparand in one packet */
    bool split;
    int rc = pieces_check(pcs, npcs, bytes, esize, &split);
    if (rc == RMP_SUCCESS && split)
        rc = RMP_ERR_TYPE; /* no pair type compares and swaps */
    if (rc == RMP_SUCCESS && (bytes != esize || npcs != 1 || !packed))
        rc = RMP_ERR_ARG;
    char two[2 * 32]; /* the largest builtin element (long double complex) is 32 bytes */
    if (rc == RMP_SUCCESS && esize > 32)
        rc = RMP_ERR_TYPE;
    if (rc == RMP_SUCCESS)
        rc = target_ready(w, r, 2 * esize);
    if (rc != RMP_SUCCESS)
        return rc;
    memcpy(two, packed, esize);
    memcpy(two + esize, compare, esize);
    uint64_t id;
    am_op_t *o = op_new(w, r, true, result, bytes, &id);
    if (!o)
        return RMP_ERR_NO_MEM;
    pkt_rma_t h = {.kind = PKT_RMA_CAS,
                   .base = (uint8_t)base,
                   .flags = result ? PKT_RMA_F_RESULT : 0,
                   .ctx = w->c->ctx_id,
                   .off = off + (uint64_t)pcs[0].off,
                   .len = esize};
    send_req(o, id, h, two, 2 * esize);
    op_settle(o, id);
    return RMP_SUCCESS;
}

static bool op_is_done(void *arg)
{
    return ((am_op_t *)arg)->done;
}

/* A control request (LOCK, UNLOCK, FLUSH) and the wait for its ACK; its outcome. */
static int control(win_t *w, int r, uint8_t kind, int32_t arg)
{
    int rc = target_ready(w, r, 0);
    if (rc != RMP_SUCCESS)
        return rc;
    uint64_t id;
    am_op_t *op = op_new(w, r, false, NULL, 0, &id);
    if (!op)
        return RMP_ERR_NO_MEM;
    pkt_rma_t h = {.kind = kind, .ctx = w->c->ctx_id, .op = arg};
    send_req(op, id, h, NULL, 0);
    op_settle(op, id);
    progress_wait_until(&rmp_ctx, op_is_done, op); /* a failing target settles it too */
    rc = op->err;
    op_free(op, id);
    return rc;
}

int rma_am_lock(win_t *w, int r, rma_lock_t type)
{
    if (type != RMA_LK_SHARED && type != RMA_LK_EXCL)
        return RMP_ERR_ARG;
    return control(w, r, PKT_RMA_LOCK, (int32_t)type);
}

int rma_am_unlock(win_t *w, int r)
{
    return control(w, r, PKT_RMA_UNLOCK, 0);
}

int rma_am_flush(win_t *w, int r)
{
    return control(w, r, PKT_RMA_FLUSH, 0);
}

/* ---- answers ---- */

static void garbled(rmp_ctx_t *c, int src, const pkt_rma_t *h, const char *why)
{
    fault_peer_garbled(c, src, h, sizeof(*h), why);
}

static void on_answer(rmp_ctx_t *c, int src, const pkt_rma_t *h, const void *payload, size_t len)
{
    am_op_t *op = op_of(h->id);
    if (!op || op->world != src || op->done)
        return garbled(c, src, h, "one-sided answer to no operation waiting for it");
    if (h->kind == PKT_RMA_DATA) {
        if (!op->buf || h->pos > op->bytes || len > op->bytes - h->pos)
            return garbled(c, src, h, "one-sided data outside the buffer it answers");
        memcpy(op->buf + h->pos, payload, len);
        return;
    }
    int st = h->op;
    if (st > RMP_SUCCESS || st <= RMP_ERR_LAST)
        return garbled(c, src, h, "one-sided acknowledgement with no known outcome");
    if (st != RMP_SUCCESS)
        op_fail(op, st);
    op_settle(op, h->id);
}

static bool am_deliver(rmp_ctx_t *c, int src, const pkt_rma_t *h, const void *payload, size_t len)
{
    if (h->kind != PKT_RMA_ACK && h->kind != PKT_RMA_DATA)
        return am_target_deliver(c, src, h, payload, len);
    on_answer(c, src, h, payload, len);
    return true;
}

/* No answer will come from peer: what waits for one ends with its error. */
static void am_peer_failed(rmp_ctx_t *c, int peer, int status)
{
    for (uint32_t i = 0; i < op_cap; i++) {
        am_op_t *op = op_tab[i];
        if (!op || op->world != peer || op->done)
            continue;
        op_fail(op, status);
        op->pending = 1; /* the answers that will never come */
        op_settle(op, (uint64_t)op->gen << 32 | i);
    }
    am_target_peer_failed(c, peer);
}

static void am_fini(rmp_ctx_t *c)
{
    (void)c;
    for (uint32_t i = 0; i < op_cap; i++)
        free(op_tab[i]);
    free(op_tab);
    op_tab = NULL;
    op_cap = op_hint = 0;
    am_target_fini();
}

void rma_am_init(rmp_ctx_t *c)
{
    rma_hook_set(c, am_deliver, am_peer_failed, am_fini);
}

/* Operations still waiting for answers from a window that goes: their answers are accepted
 * (and dropped), no longer counted on it. */
static void am_forget_window(win_t *w)
{
    for (uint32_t i = 0; i < op_cap; i++)
        if (op_tab[i] && op_tab[i]->w == w)
            op_tab[i]->w = NULL;
}

/* A window goes: the origin's half forgets it, then the target's registry drops it. */
void rma_am_unregister(win_t *w)
{
    am_forget_window(w);
    am_target_unregister(w);
}
