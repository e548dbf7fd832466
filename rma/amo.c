/* amo.c — element-wise atomic accumulates on a window's atomic domain (rma.h), and the
 * (the completion counters and blocking transport calls it uses are tpwait.c's).
 *
 * MPI wants accumulates to one location with one builtin type and the same op (or REPLACE,
 * NO_OP) atomic per element, whichever origins issue them. That holds only if every origin
 * updates a location the same way, so the mechanism is a function of the window and the
 * element alone (never of the origin):
 *   - TP windows (a NIC's atomics): 8-byte elements at an 8-aligned address by the
 *     transport's 8-byte atomics: FADD for integer SUM, an atomic read for NO_OP, a CAS loop
 *     for the rest (REPLACE, floating point, MIN/MAX, pairs...), CSWAP for compare-and-swap;
 *   - every element of DIRECT windows, and the other elements of TP windows, under the
 *     target's accumulate lock (its control block's RMA_CTRL_ACC word, taken with the
 *     domain's CSWAP): the whole operation read, combined with one op_reduce, written back
 *     (a 64 KiB accumulate is then a few memcpy and one loop, not 8192 CAS loops);
 *   - windows of the AM domain, and dynamic windows of the DIRECT domain (attached memory
 *     is no shared segment, so no CPU here can do atomics on it): everything as active
 *     messages, applied by the target's progress one at a time. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rma.h"

/* ---- words of the control block ---- */

static uint64_t cpu_amo(_Atomic uint64_t *p, tp_amo_t op, uint64_t operand, uint64_t compare)
{
    if (op == TP_AMO_FADD)
        return atomic_fetch_add(p, operand);
    atomic_compare_exchange_strong(p, &compare, operand);
    return compare; /* the value seen, whether swapped or not */
}

int rma_ctrl_amo_at(win_t *w, int r, unsigned word, tp_amo_t op, uint64_t operand, uint64_t compare,
                    uint64_t *old)
{
    if (word % 8 || word >= RMA_CTRL_BYTES || (op != TP_AMO_FADD && op != TP_AMO_CSWAP))
        return RMP_ERR_ARG;
    rma_target_t *t = &w->t[r];
    if (w->amo_path == RMA_DIRECT && t->ctrl) {
        *old = cpu_amo(t->ctrl + word / 8, op, operand, compare);
        return RMP_SUCCESS;
    }
    if (w->amo_path == RMA_TP)
        return rma_tp_amo(w->amo_tp, t->world, &t->ctrl_key, word, op, operand, compare, old);
    /* AM windows keep their lock words at the target, behind its progress: rma_am_lock */
    return RMP_ERR_NOT_SUPPORTED;
}

int rma_ctrl_amo(win_t *w, int r, tp_amo_t op, uint64_t operand, uint64_t compare, uint64_t *old)
{
    return rma_ctrl_amo_at(w, r, RMA_CTRL_LOCK, op, operand, compare, old);
}

/* ---- choosing the mechanism ---- */

bool rma_amo_by_am(const win_t *w)
{
    return w->amo_path == RMA_AM ||
           (w->amo_path == RMA_DIRECT && w->flavor == RMP_WIN_FLAVOR_DYNAMIC);
}

/* The element's address in the target's process (its alignment decides, the same for every
 * origin). */
static uint64_t target_addr(const win_t *w, int r, uint64_t off)
{
    return w->flavor == RMP_WIN_FLAVOR_DYNAMIC ? off : w->t[r].base + off;
}

/* ---- 8-byte elements by atomics ---- */

uint64_t rma_amo_combine8(rmp_op_t op, dt_base_t base, uint64_t old, const void *origin)
{
    uint64_t v = old;
    if (op == RMP_REPLACE)
        memcpy(&v, origin, 8);
    else if (op != RMP_NO_OP)
        op_reduce(op, base, origin, &v, 1); /* v = origin op old */
    return v;
}

/* One 8-byte word of target memory at off (offset from base, dynamic: address), on the
 * window's atomic transport (TP windows only). */
static int word_amo(win_t *w, int r, uint64_t off, tp_amo_t op, uint64_t operand, uint64_t compare,
                    uint64_t *old)
{
    rma_target_t *t = &w->t[r];
    uint64_t toff;
    const tp_rkey_t *key = win_key(w, r, w->amo_tp, off, 8, &toff);
    if (!key)
        return RMP_ERR_RMA_RANGE;
    return rma_tp_amo(w->amo_tp, t->world, key, toff, op, operand, compare, old);
}

static int element_by_atomics(win_t *w, int r, uint64_t off, dt_base_t base, rmp_op_t op,
                              const void *origin, const void *compare, uint64_t *old)
{
    uint64_t o = 0, cmp;
    if (origin)
        memcpy(&o, origin, 8);
    if (compare) {
        memcpy(&cmp, compare, 8);
        return word_amo(w, r, off, TP_AMO_CSWAP, o, cmp, old);
    }
    if (op == RMP_NO_OP)
        return word_amo(w, r, off, TP_AMO_FADD, 0, 0, old);
    if (op == RMP_SUM && (base == DT_INT64 || base == DT_UINT64)) /* two's complement: one add */
        return word_amo(w, r, off, TP_AMO_FADD, o, 0, old);
    /* CAS loop: from a first guess (0: costs no read), combine, swap if unchanged */
    uint64_t seen = 0;
    for (;;) {
        uint64_t want = rma_amo_combine8(op, base, seen, origin);
        int rc = word_amo(w, r, off, TP_AMO_CSWAP, want, seen, old);
        if (rc != RMP_SUCCESS || *old == seen)
            return rc;
        seen = *old;
    }
}

/* ---- other elements under the accumulate lock ---- */

static void backoff(unsigned *ns)
{
    rmp_ctx_t *c = &rmp_ctx;
    if (atomic_load(&c->state) == 1)
        progress_poll(c); /* what this rank owes others meanwhile (answers, completions) */
    ctx_unlock(c);        /* a thread of this rank may hold the lock and need ctx_lock */
    struct timespec ts = {0, (long)*ns};
    nanosleep(&ts, NULL);
    ctx_lock(c);
    if (*ns < 64000)
        *ns *= 2;
}

static int acc_lock(win_t *w, int r, uint64_t me)
{
    unsigned ns = 500;
    for (;;) {
        uint64_t old;
        int rc = rma_ctrl_amo_at(w, r, RMA_CTRL_ACC, TP_AMO_CSWAP, me, 0, &old);
        if (rc != RMP_SUCCESS || old == 0)
            return rc;
        /* a holder that died never lets go: fail instead of waiting forever */
        uint64_t holder = old - 1;
        int err = holder < (uint64_t)w->size ? rmp_ctx.peers[w->t[holder].world].failed : 0;
        if (err)
            return err;
        backoff(&ns);
    }
}

/* len bytes of target r's memory at off, to or from buf: its mapping, the atomic transport,
 * or (a create window of the DIRECT domain) the data path. */
static int mem_io(win_t *w, int r, uint64_t off, void *buf, size_t len, bool write)
{
    rma_target_t *t = &w->t[r];
    if (t->mapped && w->amo_path == RMA_DIRECT) {
        if (write)
            memcpy(t->mapped + off, buf, len);
        else
            memcpy(buf, t->mapped + off, len);
        return RMP_SUCCESS;
    }
    tp_t *tp = w->amo_path == RMA_TP ? w->amo_tp : t->data_path == RMA_TP ? t->data_tp : NULL;
    int rc = RMP_SUCCESS;
    while (tp && len && rc == RMP_SUCCESS) { /* a key per region the range spans */
        uint64_t toff;
        size_t part = len;
        const tp_rkey_t *key = win_key_part(w, r, tp, off, &part, &toff);
        if (!key)
            return RMP_ERR_RMA_RANGE;
        rc = rma_tp_io(tp, t->world, key, toff, buf, part, write);
        off += part, buf = (char *)buf + part, len -= part;
    }
    if (tp)
        return rc;
    /* the data path is active messages: issued, then a flush answered after them */
    rma_piece_t one = {0, len};
    rc = write ? rma_am_put(w, r, off, &one, 1, buf, len) : rma_am_get(w, r, off, &one, 1, buf, len);
    return rc != RMP_SUCCESS ? rc : rma_am_flush(w, r);
}

/* op_reduce reads typed elements: an origin at an address unfit for them goes through an
 * aligned copy, in chunks. */
static bool elem_aligned(const void *p, dt_base_t base)
{
    size_t esize = dtype_base_size(base);
    return (uintptr_t)p % _Alignof(max_align_t) == 0 ||
           ((esize & (esize - 1)) == 0 && (uintptr_t)p % esize == 0);
}

static void combine_into(rmp_op_t op, dt_base_t base, const char *origin, char *cur, size_t len)
{
    size_t esize = dtype_base_size(base);
    if (elem_aligned(origin, base)) {
        op_reduce(op, base, origin, cur, len / esize);
        return;
    }
    _Alignas(max_align_t) char in[256];
    size_t room = sizeof(in) - sizeof(in) % esize;
    for (size_t at = 0, n; at < len; at += n) {
        n = len - at < room ? len - at : room;
        memcpy(in, origin + at, n);
        op_reduce(op, base, in, cur + at, n / esize);
    }
}

/* The whole operation under the lock, in bulk: every piece read into one packed buffer (the
 * old elements: to result), combined there at once, written back. Pieces need not hold whole
 * elements (a pair type's value and index sit apart in memory): the packed buffer does. One
 * contiguous piece of mapped memory is combined in place. */
static int bulk_locked(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs,
                       dt_base_t base, rmp_op_t op, const char *origin, const char *compare,
                       char *result, size_t bytes)
{
    rma_target_t *t = &w->t[r];
    bool change_op = !compare && op != RMP_NO_OP;
    /* in place only where op_reduce may read the target's elements as typed (else through
     * the aligned buffer below) */
    if (npcs == 1 && t->mapped && w->amo_path == RMA_DIRECT && !compare &&
        (op == RMP_REPLACE || !change_op || elem_aligned(t->mapped + off + pcs[0].off, base))) {
        char *p = t->mapped + off + pcs[0].off;
        if (result)
            memcpy(result, p, bytes);
        if (op == RMP_REPLACE)
            memmove(p, origin, bytes);
        else if (change_op)
            combine_into(op, base, origin, p, bytes);
        return RMP_SUCCESS;
    }
    _Alignas(max_align_t) char stack[256];
    char *cur = bytes <= sizeof(stack) ? stack : malloc(bytes);
    if (!cur)
        return RMP_ERR_NO_MEM;
    int rc = RMP_SUCCESS;
    size_t pos = 0;
    for (int i = 0; i < npcs && rc == RMP_SUCCESS; pos += pcs[i++].len)
        rc = mem_io(w, r, off + (uint64_t)pcs[i].off, cur + pos, pcs[i].len, false);
    if (rc == RMP_SUCCESS && result)
        memcpy(result, cur, bytes);
    bool change = compare ? !memcmp(cur, compare, bytes) : change_op;
    const char *src = cur;
    if (compare || op == RMP_REPLACE)
        src = origin;
    else if (change)
        combine_into(op, base, origin, cur, bytes);
    pos = 0;
    for (int i = 0; i < npcs && rc == RMP_SUCCESS && change; pos += pcs[i++].len)
        rc = mem_io(w, r, off + (uint64_t)pcs[i].off, (char *)src + pos, pcs[i].len, true);
    if (cur != stack)
        free(cur);
    return rc;
}

/* ---- the entry ---- */

int rma_amo(win_t *w, int r, uint64_t off, const rma_piece_t *pcs, int npcs, dt_base_t base,
            rmp_op_t op, const void *packed, size_t bytes, void *result, const void *compare)
{
    if (rma_amo_by_am(w))
        return rma_am_acc(w, r, off, pcs, npcs, base, op, packed, bytes, result, compare);
    size_t esize = dtype_base_size(base);
    if (!esize)
        return RMP_ERR_TYPE;
    if (!compare && op != RMP_REPLACE && op != RMP_NO_OP && op_builtin_check(op, base))
        return RMP_ERR_OP;
    /* 8-byte atomics of the transport for whole aligned 8-byte elements on TP windows;
     * everything else (every DIRECT window) under the accumulate lock, in bulk */
    bool words = esize == 8 && w->amo_path == RMA_TP;
    size_t sum = 0;
    for (int i = 0; i < npcs; i++) {
        sum += pcs[i].len;
        words = words && pcs[i].len % 8 == 0 &&
                target_addr(w, r, off + (uint64_t)pcs[i].off) % 8 == 0;
    }
    if (sum != bytes || (op != RMP_NO_OP && bytes && !packed))
        return RMP_ERR_ARG;
    if (bytes % esize)
        return RMP_ERR_TYPE; /* pieces may split elements (pairs), the whole may not */
    if (compare && bytes != esize)
        return RMP_ERR_ARG;
    const char *in = op == RMP_NO_OP && !compare ? NULL : packed;
    char *res = result;
    uint64_t me = 1 + (uint64_t)w->rank;
    bool locked = false;
    int rc = RMP_SUCCESS;
    if (words) {
        uint64_t pos = 0;
        for (int i = 0; i < npcs && rc == RMP_SUCCESS; pos += pcs[i++].len)
            for (size_t k = 0; k < pcs[i].len && rc == RMP_SUCCESS; k += 8) {
                uint64_t old;
                rc = element_by_atomics(w, r, off + (uint64_t)pcs[i].off + k, base, op,
                                        in ? in + pos + k : NULL, compare, &old);
                if (rc == RMP_SUCCESS && res)
                    memcpy(res + pos + k, &old, 8);
            }
    } else if (bytes) {
        rc = acc_lock(w, r, me);
        locked = rc == RMP_SUCCESS;
        if (locked)
            rc = bulk_locked(w, r, off, pcs, npcs, base, op, in, compare, res, bytes);
    }
    if (locked) {
        uint64_t old;
        int urc = rma_ctrl_amo_at(w, r, RMA_CTRL_ACC, TP_AMO_CSWAP, 0, me, &old);
        if (rc == RMP_SUCCESS)
            rc = urc != RMP_SUCCESS ? urc : old == me ? RMP_SUCCESS : RMP_ERR_INTERNAL;
    }
    if (rc == RMP_SUCCESS) { /* complete at the target already: counted for flush alike */
        rma_issued(w, r);
        rma_completed(w, r, RMP_SUCCESS, false);
    }
    return rc;
}
