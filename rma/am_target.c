/* am_target.c — active messages, the target's half: the windows this rank exposes, found by
 * their communicator's ctx id; requests applied in arrival order (per origin, the order it
 * issued them: outq and the transports keep it) under the runtime lock, which is what makes
 * every accumulate here atomic with every other; and the passive-target lock as a queue of
 * requests granted first come first served (shared holders together, exclusive alone).
 *
 * Nothing a peer sends is trusted: ranges are checked against the window again (an origin's
 * view of a dynamic window may be stale: RMP_ERR_RMA_RANGE goes back in the ACK), and what no
 * rmp origin produces (an element size that does not divide the length, an op that does not
 * apply, a sender outside the window) fails the sender as garbled. */
#include <stdlib.h>
#include <string.h>

#include "am.h"

typedef struct lock_ent {
    int src; /* world rank */
    rma_lock_t type;
    pkt_rma_t req; /* the LOCK packet, echoed in the grant */
} lock_ent_t;

typedef struct am_win {
    win_t *w;
    uint32_t ctx;
    lock_ent_t *held, *queue; /* holders; requests waiting, oldest first */
    int nheld, nqueue, cap_held, cap_queue;
} am_win_t;

static am_win_t **wins;
static int nwins, cap_wins;

static am_win_t *win_of_ctx(uint32_t ctx)
{
    for (int i = 0; i < nwins; i++)
        if (wins[i]->ctx == ctx)
            return wins[i];
    return NULL;
}

static void garbled(rmp_ctx_t *c, int src, const pkt_rma_t *h, const char *why)
{
    fault_peer_garbled(c, src, h, sizeof(*h), why);
}

void am_send_ack(rmp_ctx_t *c, int dst, const pkt_rma_t *h, int status)
{
    pkt_rma_t a = {.type = PKT_RMA,
                   .kind = PKT_RMA_ACK,
                   .ctx = h->ctx,
                   .op = status,
                   .id = h->id,
                   .pos = h->pos};
    (void)outq_send_copy(c, dst, &a, sizeof(a), NULL, 0);
}

void am_send_data(rmp_ctx_t *c, int dst, const pkt_rma_t *h, uint64_t pos, const void *data,
                  size_t len)
{
    size_t max = am_max_payload(c, dst);
    pkt_rma_t d = {.type = PKT_RMA, .kind = PKT_RMA_DATA, .ctx = h->ctx, .id = h->id};
    for (size_t done = 0; max && done < len;) {
        size_t n = len - done < max ? len - done : max;
        d.pos = pos + done;
        d.len = n;
        /* copied if it must wait: later requests may change the window's bytes meanwhile */
        if (outq_send_copy(c, dst, &d, sizeof(d), (const char *)data + done, n) != RMP_SUCCESS)
            return;
        done += n;
    }
}

/* Whether [off, off + len) lies in my window memory (dynamic: off is an address, inside one
 * attached region, or adjacent ones); *mem: where (NULL for 0 bytes of an empty window). */
static bool target_mem(win_t *w, uint64_t off, uint64_t len, char **mem)
{
    if (w->flavor == RMP_WIN_FLAVOR_DYNAMIC) {
        *mem = (char *)(uintptr_t)off;
        return off + len >= off && (len == 0 || win_attached(w, off, off + len));
    }
    if (off > w->bytes || len > w->bytes - off)
        return false;
    *mem = w->base ? w->base + off : NULL;
    return true;
}

/* Combine n elements of origin data into target memory (both possibly unaligned): through
 * aligned copies, since op_reduce reads typed elements. */
static int combine(rmp_op_t op, dt_base_t base, const void *in, char *mem, size_t len)
{
    if (op == RMP_NO_OP || len == 0)
        return RMP_SUCCESS;
    if (op == RMP_REPLACE) {
        memmove(mem, in, len);
        return RMP_SUCCESS;
    }
    char *a = malloc(2 * len);
    if (!a)
        return RMP_ERR_NO_MEM;
    memcpy(a, in, len);
    memcpy(a + len, mem, len);
    op_reduce(op, base, a, a + len, len / dtype_base_size(base));
    memcpy(mem, a + len, len);
    free(a);
    return RMP_SUCCESS;
}

/* Piece k of a PKT_RMA_F_PIECES list (read by copy: the payload may be unaligned), and where
 * it lies here (false: outside the window). */
static bool piece_mem(win_t *w, const pkt_rma_t *h, const char *list, uint32_t k,
                      pkt_rma_piece_t *p, char **mem)
{
    memcpy(p, list + (size_t)k * sizeof(*p), sizeof(*p));
    return target_mem(w, h->off + (uint64_t)p->off, p->len, mem);
}

/* An accumulate of whole elements spread over a list of pieces (wire.c checked the list
 * arrived): gathered into one packed buffer, combined there, scattered back. */
static void apply_acc_pieces(rmp_ctx_t *c, int src, win_t *w, const pkt_rma_t *h,
                             const char *payload)
{
    pkt_rma_piece_t p;
    char *mem;
    uint64_t sum = 0;
    bool in = true;
    for (uint32_t k = 0; k < h->pad; k++) {
        in = piece_mem(w, h, payload, k, &p, &mem) && in;
        if (p.len > h->len - sum)
            return garbled(c, src, h, "one-sided accumulate pieces longer than its data");
        sum += p.len;
    }
    if (sum != h->len)
        return garbled(c, src, h, "one-sided accumulate pieces shorter than its data");
    if (!in)
        return am_send_ack(c, src, h, RMP_ERR_RMA_RANGE);
    char *cur = malloc(h->len ? h->len : 1);
    if (!cur)
        return am_send_ack(c, src, h, RMP_ERR_NO_MEM);
    const char *data = payload + (size_t)h->pad * sizeof(p);
    size_t pos = 0;
    for (uint32_t k = 0; k < h->pad; pos += p.len, k++)
        if (piece_mem(w, h, payload, k, &p, &mem) && p.len)
            memcpy(cur + pos, mem, p.len);
    if (h->flags & PKT_RMA_F_RESULT)
        am_send_data(c, src, h, h->pos, cur, h->len); /* the elements before */
    int rc = combine(h->op, h->base, data, cur, h->len);
    pos = 0;
    for (uint32_t k = 0; k < h->pad && rc == RMP_SUCCESS && h->op != RMP_NO_OP; pos += p.len, k++)
        if (piece_mem(w, h, payload, k, &p, &mem) && p.len)
            memcpy(mem, cur + pos, p.len);
    free(cur);
    am_send_ack(c, src, h, rc);
}

static void apply_acc(rmp_ctx_t *c, int src, win_t *w, const pkt_rma_t *h, const char *payload)
{
    size_t esize = dtype_base_size(h->base);
    bool cas = h->kind == PKT_RMA_CAS;
    rmp_op_t op = cas ? RMP_REPLACE : h->op;
    if (h->len % esize || (cas && h->len != esize))
        return garbled(c, src, h, "one-sided accumulate not of whole elements");
    if (!cas && op != RMP_REPLACE && op != RMP_NO_OP && op_builtin_check(op, h->base))
        return garbled(c, src, h, "one-sided accumulate with an op the type has not");
    if (!cas && op != RMP_NO_OP && (h->flags & PKT_RMA_F_NODATA))
        return garbled(c, src, h, "one-sided accumulate with no operand");
    if (!cas && (h->flags & PKT_RMA_F_PIECES))
        return apply_acc_pieces(c, src, w, h, payload);
    char *mem;
    if (!target_mem(w, h->off, h->len, &mem))
        return am_send_ack(c, src, h, RMP_ERR_RMA_RANGE);
    if (h->flags & PKT_RMA_F_RESULT)
        am_send_data(c, src, h, h->pos, mem, h->len); /* the elements before */
    int rc = RMP_SUCCESS;
    if (!cas)
        rc = combine(op, h->base, payload, mem, h->len);
    else if (!memcmp(mem, payload + esize, esize)) /* integer types: bits are the value */
        memcpy(mem, payload, esize);
    am_send_ack(c, src, h, rc);
}

/* ---- the passive-target lock ---- */

static bool grantable(const am_win_t *aw, rma_lock_t type)
{
    for (int i = 0; i < aw->nheld; i++)
        if (type == RMA_LK_EXCL || aw->held[i].type == RMA_LK_EXCL)
            return false;
    return true;
}

static bool push(lock_ent_t **v, int *n, int *cap, lock_ent_t e)
{
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 4;
        lock_ent_t *t = realloc(*v, (size_t)nc * sizeof(*t));
        if (!t)
            return false;
        *v = t;
        *cap = nc;
    }
    (*v)[(*n)++] = e;
    return true;
}

static void drop(lock_ent_t *v, int *n, int i)
{
    memmove(v + i, v + i + 1, (size_t)(*n - i - 1) * sizeof(*v));
    (*n)--;
}

/* Grant the oldest waiting requests while they fit (an exclusive one at the head waits for
 * everyone, and holds back the shared ones behind it: first come first served). */
static void grant_waiting(rmp_ctx_t *c, am_win_t *aw)
{
    while (aw->nqueue && grantable(aw, aw->queue[0].type)) {
        lock_ent_t e = aw->queue[0];
        drop(aw->queue, &aw->nqueue, 0);
        bool ok = push(&aw->held, &aw->nheld, &aw->cap_held, e);
        am_send_ack(c, e.src, &e.req, ok ? RMP_SUCCESS : RMP_ERR_NO_MEM);
    }
}

static void on_lock(rmp_ctx_t *c, int src, am_win_t *aw, const pkt_rma_t *h)
{
    rma_lock_t type = (rma_lock_t)h->op;
    if (type != RMA_LK_SHARED && type != RMA_LK_EXCL)
        return garbled(c, src, h, "one-sided lock of no known type");
    lock_ent_t e = {.src = src, .type = type, .req = *h};
    if (!push(&aw->queue, &aw->nqueue, &aw->cap_queue, e))
        return am_send_ack(c, src, h, RMP_ERR_NO_MEM);
    grant_waiting(c, aw);
}

static void on_unlock(rmp_ctx_t *c, int src, am_win_t *aw, const pkt_rma_t *h)
{
    for (int i = 0; i < aw->nheld; i++) {
        if (aw->held[i].src == src) {
            drop(aw->held, &aw->nheld, i);
            am_send_ack(c, src, h, RMP_SUCCESS);
            grant_waiting(c, aw);
            return;
        }
    }
    am_send_ack(c, src, h, RMP_ERR_RMA_SYNC); /* it holds no lock here */
}

static void apply(rmp_ctx_t *c, int src, am_win_t *aw, const pkt_rma_t *h, const char *payload)
{
    win_t *w = aw->w;
    if (comm_rank_of_world(w->c, src) < 0)
        return garbled(c, src, h, "one-sided packet from a rank outside the window");
    w->am_applied++;
    switch (h->kind) {
    case PKT_RMA_PUT: {
        char *mem;
        bool in = target_mem(w, h->off, h->len, &mem);
        if (in && h->len)
            memmove(mem, payload, h->len);
        return am_send_ack(c, src, h, in ? RMP_SUCCESS : RMP_ERR_RMA_RANGE);
    }
    case PKT_RMA_GET: {
        char *mem;
        bool in = target_mem(w, h->off, h->len, &mem);
        if (in)
            am_send_data(c, src, h, h->pos, mem, h->len);
        return am_send_ack(c, src, h, in ? RMP_SUCCESS : RMP_ERR_RMA_RANGE);
    }
    case PKT_RMA_ACC:
    case PKT_RMA_CAS:
        return apply_acc(c, src, w, h, payload);
    case PKT_RMA_LOCK:
        return on_lock(c, src, aw, h);
    case PKT_RMA_UNLOCK:
        return on_unlock(c, src, aw, h);
    default: /* PKT_RMA_FLUSH: everything before it was applied, in order */
        return am_send_ack(c, src, h, RMP_SUCCESS);
    }
}

bool am_target_deliver(rmp_ctx_t *c, int src, const pkt_rma_t *h, const void *payload, size_t len)
{
    (void)len; /* wire_parse checked it against the header */
    am_win_t *aw = win_of_ctx(h->ctx);
    if (!aw)
        return false; /* its window's creation here is under way: the runtime keeps it */
    apply(c, src, aw, h, payload);
    return true;
}

int rma_am_register(win_t *w)
{
    if (win_of_ctx(w->c->ctx_id))
        return RMP_SUCCESS;
    if (nwins == cap_wins) {
        int nc = cap_wins ? 2 * cap_wins : 8;
        am_win_t **t = realloc(wins, (size_t)nc * sizeof(*t));
        if (!t)
            return RMP_ERR_NO_MEM;
        wins = t;
        cap_wins = nc;
    }
    am_win_t *aw = calloc(1, sizeof(*aw));
    if (!aw)
        return RMP_ERR_NO_MEM;
    aw->w = w;
    aw->ctx = w->c->ctx_id;
    wins[nwins++] = aw;
    rma_hook_replay(&rmp_ctx); /* what came early, in arrival order */
    return RMP_SUCCESS;
}

static void win_free(am_win_t *aw)
{
    free(aw->held);
    free(aw->queue);
    free(aw);
}

size_t am_max_payload(rmp_ctx_t *c, int peer)
{
    tp_t *tp = c->peers[peer].tp;
    if (!tp || tp->max_send <= sizeof(pkt_rma_t))
        return 0;
    return tp->max_send - sizeof(pkt_rma_t);
}

void am_target_unregister(win_t *w)
{
    for (int i = 0; i < nwins; i++) {
        if (wins[i]->w == w) {
            win_free(wins[i]);
            wins[i] = wins[--nwins];
            return;
        }
    }
}

void am_target_peer_failed(rmp_ctx_t *c, int peer)
{
    for (int i = 0; i < nwins; i++) {
        am_win_t *aw = wins[i];
        for (int j = aw->nqueue; j-- > 0;)
            if (aw->queue[j].src == peer)
                drop(aw->queue, &aw->nqueue, j);
        for (int j = aw->nheld; j-- > 0;)
            if (aw->held[j].src == peer)
                drop(aw->held, &aw->nheld, j); /* a dead holder must not lock others out */
        grant_waiting(c, aw);
    }
}

void am_target_fini(void)
{
    for (int i = 0; i < nwins; i++)
        win_free(wins[i]);
    free(wins);
    wins = NULL;
    nwins = cap_wins = 0;
}
