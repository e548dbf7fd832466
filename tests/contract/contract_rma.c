/* contract_rma.c — the contract of a transport's one-sided table (transport/rma.h) as cases
 * the harness (contract.c) runs like the others: expose + write + read byte-exact at the ends
 * of the exposed range, 8-byte atomics from every rank at once with their old values, many
 * operations in flight (RMP_AGAIN, then every completion exactly once), and a peer that dies.
 * Under verbs the ranks sit on two virtual nodes with verbs routed only across them: the
 * table must still reach the rank of its own node and itself (one atomic domain per window). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_harness.h"

#define RW_BIG (((size_t)1 << 20) + 3)
#define RW_LEN (RW_BIG + 4096 + 5)  /* exposed bytes: the largest piece fits at both ends */
#define AMO_N 300                   /* fetch-adds per origin and target */
#define AMO_INFLIGHT 8
#define AGAIN_W ((size_t)64 << 10)  /* exposed bytes of the back-pressure case */
#define AGAIN_PIECE 64
#define AGAIN_LIMIT 100000          /* operations issued without progress before giving up */
#define AGAIN_MORE 200

/* One operation's completion record: cb first (the transport hands back &cb). */
typedef struct ct_op {
    tp_rma_cb_t cb;
    int status;
    int calls; /* cb->done calls: exactly one per RMP_INPROGRESS */
} ct_op_t;

static void ct_op_done(tp_rma_cb_t *cb, int status)
{
    ct_op_t *o = (ct_op_t *)(void *)cb;
    o->status = status;
    o->calls++;
}

static const tp_rma_ops_t *rma(ct_t *t)
{
    return t->tp->rma;
}

/* The outcome of an issued operation: rc itself unless RMP_INPROGRESS, then its completion
 * (progressing meanwhile). 0 with *status, or -1 (no completion in time). */
static int ct_rma_finish(ct_t *t, int rc, ct_op_t *o, int *status, const char *what)
{
    if (rc != RMP_INPROGRESS) {
        *status = rc;
        return 0;
    }
    double end = ct_now() + CT_WAIT_S;
    while (o->calls == 0) {
        CT_CHECK(t, ct_now() < end, "%s: no completion within %d s", what, CT_WAIT_S);
        t->ops->progress(t->tp);
    }
    CT_CHECK(t, o->calls == 1, "%s: completed %d times", what, o->calls);
    *status = o->status;
    return 0;
}

/* One operation as data, so that issuing, retrying and waiting are written once. */
typedef struct ct_req {
    enum { CT_WRITE, CT_READ, CT_ATOMIC } kind;
    int peer;
    void *local; /* write: source; read: destination */
    size_t len;
    const tp_rkey_t *key;
    uint64_t off;
    tp_amo_t amo;
    uint64_t operand, compare, *result;
} ct_req_t;

static const char *const ct_req_name[] = {"write", "read", "atomic"};

static int ct_issue(ct_t *t, const ct_req_t *q, tp_rma_cb_t *cb)
{
    switch (q->kind) {
    case CT_WRITE: return rma(t)->write(t->tp, q->peer, q->local, q->len, q->key, q->off, cb);
    case CT_READ: return rma(t)->read(t->tp, q->peer, q->local, q->len, q->key, q->off, cb);
    default:
        return rma(t)->atomic(t->tp, q->peer, q->amo, q->operand, q->compare, q->result, q->key,
                              q->off, cb);
    }
}

/* Issue (retrying while RMP_AGAIN, progressing) and wait: 0 with *status, or -1. */
static int ct_do(ct_t *t, const ct_req_t *q, int *status)
{
    ct_op_t o = {.cb.done = ct_op_done};
    double end = ct_now() + CT_WAIT_S;
    int rc;
    while ((rc = ct_issue(t, q, &o.cb)) == RMP_AGAIN) {
        CT_CHECK(t, ct_now() < end, "%s with rank %d: RMP_AGAIN for %d s", ct_req_name[q->kind],
                 q->peer, CT_WAIT_S);
        t->ops->progress(t->tp);
    }
    return ct_rma_finish(t, rc, &o, status, ct_req_name[q->kind]);
}

static int ct_write(ct_t *t, int peer, const void *src, size_t len, const tp_rkey_t *k,
                    uint64_t off, int *status)
{
    ct_req_t q = {.kind = CT_WRITE, .peer = peer, .local = (void *)(uintptr_t)src, .len = len,
                  .key = k, .off = off};
    return ct_do(t, &q, status);
}

static int ct_read(ct_t *t, int peer, void *dst, size_t len, const tp_rkey_t *k, uint64_t off,
                   int *status)
{
    ct_req_t q = {.kind = CT_READ, .peer = peer, .local = dst, .len = len, .key = k, .off = off};
    return ct_do(t, &q, status);
}

static int ct_amo(ct_t *t, int peer, tp_amo_t op, uint64_t operand, uint64_t compare,
                  uint64_t *result, const tp_rkey_t *k, uint64_t off, int *status)
{
    ct_req_t q = {.kind = CT_ATOMIC, .peer = peer, .key = k, .off = off, .amo = op,
                  .operand = operand, .compare = compare, .result = result};
    return ct_do(t, &q, status);
}

/* Whether the case sends operations to target: every other rank must be reachable (verbs
 * crosses nodes and serves its own node too, shm serves its node); myself too under verbs. */
static int ct_targets(ct_t *t, bool *to)
{
    CT_CHECK(t, rma(t), "%s has no one-sided table (tp->rma NULL)", t->ops->name);
    for (int p = 0; p < t->size; p++) {
        to[p] = rma(t)->reach(t->tp, p);
        CT_CHECK(t, to[p] || p == t->rank, "reach(%d) is false: rank %d is %s", p, p,
                 t->node[p] == t->node[t->rank] ? "on my node" : "on another node");
        CT_CHECK(t, to[p] || t->ops != &tp_verbs_ops, "verbs does not reach me (rank %d): a "
                 "window's atomics to myself would leave the adapter's domain", p);
    }
    return 0;
}

/* Expose len bytes at mem as key slot 0 (and an empty key as slot 1) on the board. */
static int ct_expose(ct_t *t, void *mem, size_t len, void **exph, void **exph0)
{
    int rc = rma(t)->expose(t->tp, mem, len, &t->board->keys[t->rank][0], exph);
    CT_CHECK(t, rc == RMP_SUCCESS, "expose(%zu bytes): %s", len, rmp_strerror(rc));
    rc = rma(t)->expose(t->tp, mem, 0, &t->board->keys[t->rank][1], exph0);
    CT_CHECK(t, rc == RMP_SUCCESS, "expose(0 bytes): %s", rmp_strerror(rc));
    return 0;
}

/* ---- expose, write, read -------------------------------------------------------------------- */

/* One piece to target at off: written from a pattern, read back between guards, byte-exact. */
static int ct_rw_piece(ct_t *t, int target, uint32_t seq, size_t off, size_t len,
                       unsigned char *src, unsigned char *dst)
{
    const tp_rkey_t *k = &t->board->keys[target][0];
    int st = RMP_SUCCESS;
    ct_fill(src, (uint32_t)t->rank, seq, len);
    if (ct_write(t, target, src, len, k, off, &st))
        return -1;
    CT_CHECK(t, st == RMP_SUCCESS, "write of %zu bytes at %zu to rank %d: %s", len, off, target,
             rmp_strerror(st));
    memset(dst, 0xa5, len + 64);
    if (ct_read(t, target, dst + 32, len, k, off, &st))
        return -1;
    CT_CHECK(t, st == RMP_SUCCESS, "read of %zu bytes at %zu from rank %d: %s", len, off,
             target, rmp_strerror(st));
    for (size_t i = 0; i < 32; i++)
        CT_CHECK(t, dst[i] == 0xa5 && dst[32 + len + i] == 0xa5, "read of %zu bytes at %zu "
                 "from rank %d wrote outside its destination", len, off, target);
    CT_CHECK(t, !memcmp(dst + 32, src, len), "%zu bytes written at %zu to rank %d read back "
             "different", len, off, target);
    return 0;
}

/* What must be refused before anything moves: past the end, and into an empty key. */
static int ct_rw_refused(ct_t *t, int target, unsigned char *src, unsigned char *dst)
{
    const tp_rkey_t *k = &t->board->keys[target][0], *k0 = &t->board->keys[target][1];
    int st = RMP_SUCCESS;
    if (ct_read(t, target, dst, 8, k, RW_LEN - 8, &st))
        return -1;
    CT_CHECK(t, st == RMP_SUCCESS, "read of the last 8 bytes: %s", rmp_strerror(st));
    memset(src, 0x5a, 8);
    ct_op_t o = {.cb.done = ct_op_done};
    int rc = rma(t)->write(t->tp, target, src, 8, k, RW_LEN - 4, &o.cb);
    CT_CHECK(t, rc < 0, "write of 8 bytes at 4 before the end of rank %d's memory: %d, not "
             "refused", target, rc);
    rc = rma(t)->write(t->tp, target, src, 1, k0, 0, &o.cb);
    CT_CHECK(t, rc < 0, "write of 1 byte into rank %d's empty key: %d, not refused", target, rc);
    rc = rma(t)->read(t->tp, target, dst + 8, 1, k, RW_LEN, &o.cb);
    CT_CHECK(t, rc < 0, "read of 1 byte at the end of rank %d's memory: %d, not refused",
             target, rc);
    if (ct_write(t, target, src, 0, k0, 0, &st))
        return -1;
    CT_CHECK(t, st == RMP_SUCCESS, "write of 0 bytes into an empty key: %s", rmp_strerror(st));
    if (ct_read(t, target, dst + 8, 8, k, RW_LEN - 8, &st))
        return -1;
    CT_CHECK(t, st == RMP_SUCCESS && !memcmp(dst, dst + 8, 8), "a refused write changed rank "
             "%d's memory", target);
    return 0;
}

int ct_case_rma_rw(ct_t *t)
{
    bool to[CT_MAXR];
    if (ct_targets(t, to))
        return -1;
    unsigned char *mem = malloc(RW_LEN), *src = malloc(RW_LEN), *dst = malloc(RW_LEN + 64);
    void *exph = NULL, *exph0 = NULL;
    int bad = !mem || !src || !dst ? ct_fail(t, "out of memory") : 0;
    if (!bad) {
        memset(mem, 0, RW_LEN);
        bad = ct_expose(t, mem, RW_LEN, &exph, &exph0);
    }
    if (!bad)
        bad = ct_barrier(t);
    size_t sizes[] = {0, 1, 7, 4096, RW_BIG};
    uint32_t seq = 1;
    for (int p = 0; !bad && t->rank == 0 && p < t->size; p++) {
        for (size_t i = 0; !bad && to[p] && i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            bad = ct_rw_piece(t, p, seq++, 0, sizes[i], src, dst);
            if (!bad)
                bad = ct_rw_piece(t, p, seq++, RW_LEN - sizes[i], sizes[i], src, dst);
        }
        if (!bad && to[p])
            bad = ct_rw_refused(t, p, src, dst);
        if (!bad && to[p]) { /* last: the whole range, which the target checks itself */
            int st = RMP_SUCCESS;
            ct_fill(src, 0, 999, RW_LEN);
            bad = ct_write(t, p, src, RW_LEN, &t->board->keys[p][0], 0, &st);
            if (!bad && st != RMP_SUCCESS)
                bad = ct_fail(t, "write of %zu bytes to rank %d: %s", (size_t)RW_LEN, p,
                              rmp_strerror(st));
        }
    }
    if (!bad)
        bad = ct_barrier(t);
    if (!bad && (t->rank != 0 || to[0]))
        for (size_t i = 0; !bad && i < RW_LEN; i++)
            if (mem[i] != ct_byte(0, 999, i))
                bad = ct_fail(t, "my exposed memory, byte %zu of %zu: not what rank 0 wrote",
                              i, (size_t)RW_LEN);
    if (rma(t)) {
        rma(t)->unexpose(t->tp, exph);
        rma(t)->unexpose(t->tp, exph0);
    }
    free(mem);
    free(src);
    free(dst);
    return bad;
}

/* ---- atomics ---------------------------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* AMO_N fetch-adds of 1 on target's word 0, AMO_INFLIGHT at a time: old values all distinct. */
static int ct_amo_adds(ct_t *t, int target)
{
    const tp_rkey_t *k = &t->board->keys[target][0];
    ct_op_t ops[AMO_INFLIGHT];
    uint64_t res[AMO_INFLIGHT], olds[AMO_N];
    bool busy[AMO_INFLIGHT] = {false};
    int issued = 0, done = 0;
    double end = ct_now() + CT_WAIT_S;
    while (done < AMO_N) {
        CT_CHECK(t, ct_now() < end, "fetch-adds on rank %d: %d of %d done after %d s", target,
                 done, AMO_N, CT_WAIT_S);
        for (int i = 0; i < AMO_INFLIGHT; i++) {
            if (busy[i] && ops[i].calls) {
                CT_CHECK(t, ops[i].status == RMP_SUCCESS, "fetch-add on rank %d: %s", target,
                         rmp_strerror(ops[i].status));
                olds[done++] = res[i];
                busy[i] = false;
            }
            if (busy[i] || issued == AMO_N)
                continue;
            ops[i] = (ct_op_t){.cb.done = ct_op_done};
            int rc = rma(t)->atomic(t->tp, target, TP_AMO_FADD, 1, 0, &res[i], k, 0, &ops[i].cb);
            if (rc == RMP_AGAIN)
                continue;
            CT_CHECK(t, rc == RMP_SUCCESS || rc == RMP_INPROGRESS, "fetch-add on rank %d: %s",
                     target, rmp_strerror(rc));
            issued++;
            if (rc == RMP_SUCCESS)
                olds[done++] = res[i];
            else
                busy[i] = true;
        }
        t->ops->progress(t->tp);
    }
    qsort(olds, AMO_N, sizeof(olds[0]), cmp_u64);
    for (int i = 1; i < AMO_N; i++)
        CT_CHECK(t, olds[i] != olds[i - 1], "two fetch-adds on rank %d both saw %llu: not "
                 "atomic", target, (unsigned long long)olds[i]);
    atomic_fetch_add(&t->board->counts[target], AMO_N);
    return 0;
}

/* One atomic with its expected old value. */
static int ct_amo_expect(ct_t *t, int target, tp_amo_t op, uint64_t operand, uint64_t compare,
                         uint64_t off, uint64_t want, const char *what)
{
    uint64_t old = ~want;
    int st = RMP_SUCCESS;
    if (ct_amo(t, target, op, operand, compare, &old, &t->board->keys[target][0], off, &st))
        return -1;
    CT_CHECK(t, st == RMP_SUCCESS, "%s on rank %d: %s", what, target, rmp_strerror(st));
    CT_CHECK(t, old == want, "%s on rank %d: old value %llu, expected %llu", what, target,
             (unsigned long long)old, (unsigned long long)want);
    return 0;
}

/* Rank 0 on target's words 1 and 2: compare-swaps that hit and miss, negative and wrapping
 * adds, then bad offsets refused. */
static int ct_amo_sequence(ct_t *t, int target)
{
    if (ct_amo_expect(t, target, TP_AMO_CSWAP, 5, 0, 8, 0, "cswap 0 -> 5") ||
        ct_amo_expect(t, target, TP_AMO_CSWAP, 7, 0, 8, 5, "cswap 0 -> 7 (a miss)") ||
        ct_amo_expect(t, target, TP_AMO_CSWAP, 9, 5, 8, 5, "cswap 5 -> 9") ||
        ct_amo_expect(t, target, TP_AMO_FADD, (uint64_t)-9, 0, 8, 9, "fadd -9") ||
        ct_amo_expect(t, target, TP_AMO_FADD, 0, 0, 8, 0, "fadd 0") ||
        ct_amo_expect(t, target, TP_AMO_FADD, UINT64_MAX, 0, 16, 0, "fadd 2^64-1") ||
        ct_amo_expect(t, target, TP_AMO_FADD, 1, 0, 16, UINT64_MAX, "fadd 1 (wraps)"))
        return -1;
    uint64_t old;
    ct_op_t o = {.cb.done = ct_op_done};
    const tp_rkey_t *k = &t->board->keys[target][0];
    int rc = rma(t)->atomic(t->tp, target, TP_AMO_FADD, 1, 0, &old, k, 4, &o.cb);
    CT_CHECK(t, rc < 0, "fetch-add at offset 4 (not 8-aligned): %d, not refused", rc);
    rc = rma(t)->atomic(t->tp, target, TP_AMO_FADD, 1, 0, &old, k, 64, &o.cb);
    CT_CHECK(t, rc < 0, "fetch-add at offset 64 of 64 exposed bytes: %d, not refused", rc);
    return 0;
}

int ct_case_rma_atomic(ct_t *t)
{
    bool to[CT_MAXR];
    if (ct_targets(t, to))
        return -1;
    uint64_t *mem = aligned_alloc(64, 64);
    CT_CHECK(t, mem, "out of memory");
    memset(mem, 0, 64);
    void *exph = NULL, *exph0 = NULL;
    int bad = ct_expose(t, mem, 64, &exph, &exph0);
    if (!bad)
        bad = ct_barrier(t);
    if (!bad && !(rma(t)->caps & TP_RMA_ATOMIC)) {
        /* No atomics: the call must say so, so that the layer above falls back. */
        uint64_t old;
        ct_op_t o = {.cb.done = ct_op_done};
        int rc = rma(t)->atomic(t->tp, t->size - 1, TP_AMO_FADD, 1, 0, &old,
                                &t->board->keys[t->size - 1][0], 0, &o.cb);
        bad = rc != RMP_ERR_NOT_SUPPORTED
                  ? ct_fail(t, "no TP_RMA_ATOMIC, yet atomic() returned %d", rc) : 0;
        rma(t)->unexpose(t->tp, exph);
        rma(t)->unexpose(t->tp, exph0);
        free(mem);
        return bad;
    }
    /* Every rank adds at once on the last rank (another node under verbs) and on rank 1. */
    int targets[2] = {t->size - 1, 1};
    for (int i = 0; !bad && i < 2; i++)
        if (to[targets[i]])
            bad = ct_amo_adds(t, targets[i]);
    if (!bad && t->rank == 0)
        for (int p = 0; !bad && p < t->size; p++)
            if (to[p])
                bad = ct_amo_sequence(t, p);
    if (!bad)
        bad = ct_barrier(t);
    if (!bad) {
        /* Read through the transport (atomic with its adds), then by the target's CPU. */
        long want = atomic_load(&t->board->counts[t->rank]);
        uint64_t seen = __atomic_load_n(&mem[0], __ATOMIC_ACQUIRE);
        if (t->rank == 0 && to[t->size - 1])
            bad = ct_amo_expect(t, t->size - 1, TP_AMO_FADD, 0, 0, 0,
                                (uint64_t)atomic_load(&t->board->counts[t->size - 1]),
                                "the counter after every add");
        if (!bad && (uint64_t)want != seen)
            bad = ct_fail(t, "my counter holds %llu after %ld adds", (unsigned long long)seen,
                          want);
    }
    if (!bad)
        bad = ct_barrier(t); /* nobody unexposes while rank 0 still reads */
    rma(t)->unexpose(t->tp, exph);
    rma(t)->unexpose(t->tp, exph0);
    free(mem);
    return bad;
}

/* ---- many in flight --------------------------------------------------------------------------- */

/* Issue pieces without progress until RMP_AGAIN (or the limit); *n issued, *inprog of them
 * pending. Writes (read false) go from src, reads land in dst, at the same offsets. */
static int ct_flood(ct_t *t, int target, bool read, ct_op_t *ops, long limit, unsigned char *src,
                    unsigned char *dst, long *n, long *inprog)
{
    const tp_rkey_t *k = &t->board->keys[target][0];
    *n = *inprog = 0;
    for (long i = 0; i < limit; i++) {
        size_t off = (size_t)i * AGAIN_PIECE % AGAIN_W;
        ops[i] = (ct_op_t){.cb.done = ct_op_done};
        int rc = read ? rma(t)->read(t->tp, target, dst + off, AGAIN_PIECE, k, off, &ops[i].cb)
                      : rma(t)->write(t->tp, target, src + off, AGAIN_PIECE, k, off, &ops[i].cb);
        if (rc == RMP_AGAIN)
            return 0;
        CT_CHECK(t, rc == RMP_SUCCESS || rc == RMP_INPROGRESS, "%s %ld: %s",
                 read ? "read" : "write", i, rmp_strerror(rc));
        ops[i].calls = rc == RMP_SUCCESS ? -1 : 0; /* -1: done at once, no callback due */
        *inprog += rc == RMP_INPROGRESS;
        (*n)++;
    }
    return 0;
}

/* Progress until every pending one of ops[0..n) completed, then a while more: each exactly
 * once, successfully. */
static int ct_drain(ct_t *t, ct_op_t *ops, long n, const char *what)
{
    double end = ct_now() + CT_WAIT_S;
    for (long i = 0; i < n; i++)
        while (ops[i].calls == 0) {
            CT_CHECK(t, ct_now() < end, "%s %ld of %ld: no completion within %d s", what, i, n,
                     CT_WAIT_S);
            t->ops->progress(t->tp);
        }
    ct_settle(t);
    for (long i = 0; i < n; i++) {
        CT_CHECK(t, ops[i].calls <= 1, "%s %ld completed %d times", what, i, ops[i].calls);
        CT_CHECK(t, ops[i].calls < 0 || ops[i].status == RMP_SUCCESS, "%s %ld: %s", what, i,
                 rmp_strerror(ops[i].status));
    }
    return 0;
}

static int ct_again_origin(ct_t *t, int target, unsigned char *src, unsigned char *dst)
{
    ct_op_t *ops = calloc(AGAIN_LIMIT, sizeof(*ops));
    CT_CHECK(t, ops, "out of memory");
    long n, inprog;
    int bad = ct_flood(t, target, false, ops, AGAIN_LIMIT, src, NULL, &n, &inprog);
    if (!bad && inprog && n == AGAIN_LIMIT)
        bad = ct_fail(t, "%ld writes pending to rank %d without progress, and no RMP_AGAIN", n,
                      target);
    if (!bad)
        bad = ct_drain(t, ops, n, "write");
    /* Then more, retried through progress, until every piece of the range was written. */
    for (long i = 0; !bad && (i < AGAIN_MORE || n + i < (long)(AGAIN_W / AGAIN_PIECE)); i++) {
        size_t off = (size_t)(n + i) * AGAIN_PIECE % AGAIN_W;
        int st = RMP_SUCCESS;
        bad = ct_write(t, target, src + off, AGAIN_PIECE, &t->board->keys[target][0], off, &st);
        if (!bad && st != RMP_SUCCESS)
            bad = ct_fail(t, "write after the drain: %s", rmp_strerror(st));
    }
    /* Reads: bounded by the outstanding reads a connection allows. */
    long nr = 0;
    if (!bad)
        bad = ct_flood(t, target, true, ops, (long)(AGAIN_W / AGAIN_PIECE), NULL, dst, &nr,
                       &inprog);
    if (!bad)
        bad = ct_drain(t, ops, nr, "read");
    for (size_t i = 0; !bad && i < (size_t)nr * AGAIN_PIECE; i++)
        if (dst[i] != src[i])
            bad = ct_fail(t, "read %zu of rank %d's memory back: byte %zu differs",
                          i / AGAIN_PIECE, target, i);
    free(ops);
    return bad;
}

/* Back-pressure: rank 0 floods the last rank (another node under verbs) with writes and reads
 * without progressing: RMP_AGAIN once the transport is full, never a loss, each completion
 * exactly once; the target then holds exactly what was written. */
int ct_case_rma_again(ct_t *t)
{
    bool to[CT_MAXR];
    if (ct_targets(t, to))
        return -1;
    int target = t->size - 1;
    unsigned char *mem = calloc(1, AGAIN_W), *src = malloc(AGAIN_W), *dst = calloc(1, AGAIN_W);
    void *exph = NULL, *exph0 = NULL;
    int bad = !mem || !src || !dst ? ct_fail(t, "out of memory") : 0;
    if (!bad)
        bad = ct_expose(t, mem, AGAIN_W, &exph, &exph0);
    if (!bad)
        bad = ct_barrier(t);
    if (!bad && t->rank == 0) {
        ct_fill(src, 0, 7, AGAIN_W);
        bad = ct_again_origin(t, target, src, dst);
    }
    if (!bad)
        bad = ct_barrier(t);
    if (!bad && t->rank == target) {
        /* Every piece got written at least once, by the flood or the retries. */
        for (size_t i = 0; !bad && i < AGAIN_W; i++)
            if (mem[i] != ct_byte(0, 7, i))
                bad = ct_fail(t, "byte %zu of my exposed memory: not what rank 0 wrote", i);
    }
    if (rma(t)) {
        rma(t)->unexpose(t->tp, exph);
        rma(t)->unexpose(t->tp, exph0);
    }
    free(mem);
    free(src);
    free(dst);
    return bad;
}

/* ---- a peer that dies ------------------------------------------------------------------------ */

/* Rank 1 exposes memory and dies after a first write to it worked; rank 0's write, read and
 * atomic to it, issued back to back, each fail with an error (at once, or through their
 * completion, exactly once), within the wait: never a hang. */
int ct_case_rma_peer_failed(ct_t *t)
{
    t->orderly = false;
    CT_CHECK(t, rma(t), "%s has no one-sided table (tp->rma NULL)", t->ops->name);
    static uint64_t mem[512];
    if (t->rank == 1) {
        void *exph, *exph0;
        if (ct_expose(t, mem, sizeof(mem), &exph, &exph0) || ct_barrier(t))
            return -1;
        if (!ct_take(t, CT_T_DONE))
            return -1;
        atomic_store(&t->board->dying[1], 1);
        _exit(0); /* as a crash: nothing released */
    }
    if (t->rank != 0)
        return ct_barrier(t);
    if (ct_barrier(t))
        return -1;
    const tp_rkey_t *k = &t->board->keys[1][0];
    CT_CHECK(t, rma(t)->reach(t->tp, 1), "reach(1) is false");
    static uint64_t buf[512];
    int st = RMP_SUCCESS;
    if (ct_write(t, 1, buf, sizeof(buf), k, 0, &st))
        return -1;
    CT_CHECK(t, st == RMP_SUCCESS, "write to rank 1 while it lives: %s", rmp_strerror(st));
    ct_hdr_t h = {.magic = CT_MAGIC, .type = CT_T_DONE, .src = 0};
    if (ct_send(t, 1, &h, NULL))
        return -1;
    if (ct_wait_gone(t, 1))
        return -1;
    ct_op_t ops[3];
    int rc[3];
    uint64_t old;
    for (int i = 0; i < 3; i++)
        ops[i] = (ct_op_t){.cb.done = ct_op_done};
    rc[0] = rma(t)->write(t->tp, 1, buf, sizeof(buf), k, 0, &ops[0].cb);
    rc[1] = rma(t)->read(t->tp, 1, buf, sizeof(buf), k, 0, &ops[1].cb);
    rc[2] = rma(t)->caps & TP_RMA_ATOMIC
                ? rma(t)->atomic(t->tp, 1, TP_AMO_FADD, 1, 0, &old, k, 0, &ops[2].cb)
                : RMP_ERR_PEER;
    const char *what[3] = {"write", "read", "atomic"};
    for (int i = 0; i < 3; i++) {
        CT_CHECK(t, rc[i] != RMP_SUCCESS, "%s to the dead rank 1 succeeded", what[i]);
        CT_CHECK(t, rc[i] != RMP_AGAIN || i > 0, "%s to the dead rank 1: RMP_AGAIN with "
                 "nothing in flight", what[i]);
        if (rc[i] == RMP_AGAIN)
            continue; /* behind the ones in flight: they must fail anyway */
        if (ct_rma_finish(t, rc[i], &ops[i], &st, what[i]))
            return -1;
        CT_CHECK(t, st < 0, "%s to the dead rank 1 completed with %d, not an error", what[i],
                 st);
    }
    ct_settle(t);
    for (int i = 0; i < 3; i++)
        CT_CHECK(t, ops[i].calls <= 1, "%s to the dead rank 1 completed %d times", what[i],
                 ops[i].calls);
    /* Once it is known, later operations are refused at once. */
    ct_op_t late = {.cb.done = ct_op_done};
    int r = rma(t)->write(t->tp, 1, buf, 8, k, 0, &late.cb);
    if (ct_rma_finish(t, r, &late, &st, "late write"))
        return -1;
    CT_CHECK(t, st < 0, "a write to rank 1 after its failure was known: %d", st);
    return 0;
}
