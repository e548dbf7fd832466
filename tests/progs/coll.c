/* coll.c — integration test of the collectives, run under `mrun -n N`. Every collective, op
 * and builtin type, counts 0..100000, several roots, in place and not, on COMM_WORLD and on
 * split communicators, checked against a serial reference built from every rank's known
 * inputs (integer-valued, so every reduction order gives the same bits). Also derived types,
 * argument errors, comm dup/split/free, and separation from user p2p traffic.
 * Usage: coll [section...]  (barrier bcast reduce allreduce gather scatter allgather alltoall
 * reduce_scatter derived errors comm separation nonblocking; default all). Rank 0 prints "coll: OK <n> checks". */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmp.h"

/* ---- per-type helpers ----------------------------------------------------------------- */
typedef struct tinfo {
    rmp_datatype_t dt;
    const char *name;
    size_t size;
    bool real, byte;
    void (*set)(void *b, size_t i, int64_t v);
    void (*combine)(rmp_op_t op, void *acc, size_t i, const void *in, size_t j);
    void (*fmt)(const void *b, size_t i, char *out, size_t len);
} tinfo_t;

#define REF_OPS(T)                                                                                 \
    case RMP_MIN:                                                                                  \
        return a < b ? a : b;                                                                      \
    case RMP_MAX:                                                                                  \
        return a > b ? a : b;                                                                      \
    case RMP_LAND:                                                                                 \
        return (T)(a != 0 && b != 0);                                                              \
    case RMP_LOR:                                                                                  \
        return (T)(a != 0 || b != 0);
#define TYPE_INT(T, NAME, DT, FMT, CAST, BYTE)                                                     \
    static T ref_##NAME(rmp_op_t op, T a, T b)                                                     \
    {                                                                                              \
        switch (op) {                                                                              \
        case RMP_SUM:                                                                              \
            return (T)((uint64_t)a + (uint64_t)b);                                                 \
        case RMP_PROD:                                                                             \
            return (T)((uint64_t)a * (uint64_t)b);                                                 \
        case RMP_BAND:                                                                             \
            return (T)(a & b);                                                                     \
        case RMP_BOR:                                                                              \
            return (T)(a | b);                                                                     \
        case RMP_BXOR:                                                                             \
            return (T)(a ^ b);                                                                     \
            REF_OPS(T)                                                                             \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    TYPE_COMMON(T, NAME, DT, FMT, CAST, false, BYTE)
#define TYPE_REAL(T, NAME, DT)                                                                     \
    static T ref_##NAME(rmp_op_t op, T a, T b)                                                     \
    {                                                                                              \
        switch (op) {                                                                              \
        case RMP_SUM:                                                                              \
            return a + b;                                                                          \
        case RMP_PROD:                                                                             \
            return a * b;                                                                          \
            REF_OPS(T)                                                                             \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    TYPE_COMMON(T, NAME, DT, "%g", double, true, false)
#define TYPE_COMMON(T, NAME, DT, FMT, CAST, REAL, BYTE)                                            \
    static void set_##NAME(void *b, size_t i, int64_t v)                                           \
    {                                                                                              \
        ((T *)b)[i] = (T)v;                                                                        \
    }                                                                                              \
    static void comb_##NAME(rmp_op_t op, void *acc, size_t i, const void *in, size_t j)            \
    {                                                                                              \
        ((T *)acc)[i] = ref_##NAME(op, ((const T *)in)[j], ((T *)acc)[i]);                         \
    }                                                                                              \
    static void fmt_##NAME(const void *b, size_t i, char *o, size_t n)                             \
    {                                                                                              \
        snprintf(o, n, FMT, (CAST)((const T *)b)[i]);                                              \
    }                                                                                              \
    static const tinfo_t t_##NAME = {DT,   #NAME,      sizeof(T),   REAL,                          \
                                     BYTE, set_##NAME, comb_##NAME, fmt_##NAME};

TYPE_INT(int8_t, int8, RMP_INT8, "%" PRId64, int64_t, false)
TYPE_INT(int16_t, int16, RMP_INT16, "%" PRId64, int64_t, false)
TYPE_INT(int32_t, int32, RMP_INT32, "%" PRId64, int64_t, false)
TYPE_INT(int64_t, int64, RMP_INT64, "%" PRId64, int64_t, false)
TYPE_INT(uint8_t, uint8, RMP_UINT8, "%" PRIu64, uint64_t, false)
TYPE_INT(uint16_t, uint16, RMP_UINT16, "%" PRIu64, uint64_t, false)
TYPE_INT(uint32_t, uint32, RMP_UINT32, "%" PRIu64, uint64_t, false)
TYPE_INT(uint64_t, uint64, RMP_UINT64, "%" PRIu64, uint64_t, false)
TYPE_INT(uint8_t, byte, RMP_BYTE, "%" PRIu64, uint64_t, true)
TYPE_REAL(float, float, RMP_FLOAT)
TYPE_REAL(double, double, RMP_DOUBLE)

static const tinfo_t *types[] = {&t_int8,   &t_int16,  &t_int32, &t_int64,  &t_uint8, &t_uint16,
                                 &t_uint32, &t_uint64, &t_float, &t_double, &t_byte};
#define NTYPES (sizeof(types) / sizeof(types[0]))
static const char *op_names[] = {"-",    "sum", "prod", "min",  "max",
                                 "band", "bor", "bxor", "land", "lor"};

static bool op_valid(const tinfo_t *t, rmp_op_t op)
{
    bool bitwise = op == RMP_BAND || op == RMP_BOR || op == RMP_BXOR;
    return t->byte ? bitwise : !(t->real && bitwise);
}

/* ---- inputs, checks, reporting ------------------------------------------------------- */
static struct {
    int wrank, wsize;
    long checks;
    int failed, printed;
    uint64_t salt; /* advanced identically on every rank: each call gets fresh data */
    const char *comm_name;
} g;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The input of contributor `who` at index i: small integers (products of 9 stay exact in a
 * float), plenty of zeros for the logical ops, all bits for the bitwise ones. */
static int64_t gen(int who, size_t i, rmp_op_t op)
{
    uint64_t h = mix(g.salt * 0x100000001b3ull ^ mix((uint64_t)who * 1000003u + i));
    switch (op) {
    case RMP_PROD:
        return (int64_t)(h % 5) - 2;
    case RMP_LAND:
    case RMP_LOR:
        return h % 3 == 0 ? 0 : (int64_t)(h % 99) - 49;
    case RMP_BAND:
    case RMP_BOR:
    case RMP_BXOR:
        return (int64_t)h;
    default:
        return (int64_t)(h % 2001) - 1000;
    }
}

static void fill(const tinfo_t *t, void *buf, size_t n, int who, rmp_op_t op)
{
    for (size_t i = 0; i < n; i++)
        t->set(buf, i, gen(who, i, op));
}

typedef struct what {
    const char *coll;
    const tinfo_t *t;
    rmp_op_t op;
    int count, root, rank, in_place;
} what_t;

static void fail(const what_t *w, size_t i, const char *got, const char *want)
{
    g.failed = 1;
    if (g.printed++ < 20)
        printf("coll: FAIL %s %s %s count=%d root=%d rank=%d index=%zu got=%s want=%s "
               "comm=%s inplace=%d\n",
               w->coll, w->t ? w->t->name : "-", op_names[w->op], w->count, w->root, w->rank, i,
               got, want, g.comm_name, w->in_place);
}

static void expect_rc(const what_t *w, int rc)
{
    if (rc != RMP_SUCCESS) {
        char got[64];
        snprintf(got, sizeof(got), "rc=%d(%s)", rc, rmp_strerror(rc));
        fail(w, 0, got, "rc=0");
    }
}

/* Compare n elements of got (starting at element go) with want; one check per call. */
static void expect(const what_t *w, const void *got, size_t go, const void *want, size_t n)
{
    g.checks++;
    const tinfo_t *t = w->t;
    for (size_t i = 0; i < n; i++) {
        if (memcmp((const char *)got + (go + i) * t->size, (const char *)want + i * t->size,
                   t->size) != 0) {
            char gs[48], ws[48];
            t->fmt(got, go + i, gs, sizeof(gs));
            t->fmt(want, i, ws, sizeof(ws));
            fail(w, go + i, gs, ws);
            return;
        }
    }
}

/* The reduction of every rank's input, folded serially. */
static void reference(const tinfo_t *t, rmp_op_t op, int nranks, size_t n, void *want, void *tmp)
{
    fill(t, want, n, 0, op);
    for (int r = 1; r < nranks; r++) {
        fill(t, tmp, n, r, op);
        for (size_t i = 0; i < n; i++)
            t->combine(op, want, i, tmp, i);
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "coll: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

/* ---- the collectives on builtin types ------------------------------------------------- */
typedef struct tcomm {
    rmp_comm_t comm;
    const char *name;
    int rank, size;
} tcomm_t;

/* Counts for a call; 100000 only for a few types (big) to keep the run short. */
static int counts_for(const tinfo_t *t, bool big, int out[5])
{
    static const int base[] = {0, 1, 7, 1000};
    int n = 0;
    for (; n < 4; n++)
        out[n] = base[n];
    if (big && (t->dt == RMP_INT32 || t->dt == RMP_DOUBLE))
        out[n++] = 100000;
    return n;
}

/* Distinct roots among 0, size-1 and size/2. */
static int roots_for(int size, int out[3])
{
    int n = 0, cand[3] = {0, size - 1, size / 2};
    for (int i = 0; i < 3; i++) {
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= out[j] == cand[i];
        if (!dup)
            out[n++] = cand[i];
    }
    return n;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* one clock for every process on the machine */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Nobody leaves a barrier before the last rank entered it (the last one arrives late). */
static void run_barrier(const tcomm_t *c)
{
    what_t w = {"barrier", &t_double, 0, 0, -1, c->rank, 0};
    for (int i = 0; i < 20; i++)
        expect_rc(&w, rmp_barrier(c->comm));
    for (int i = 0; i < 3; i++) {
        double entered = 0, left;
        if (c->rank == c->size - 1) {
            nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
            entered = now();
        }
        expect_rc(&w, rmp_barrier(c->comm));
        left = now();
        expect_rc(&w, rmp_bcast(&entered, 1, RMP_DOUBLE, c->size - 1, c->comm));
        if (left < entered)
            expect(&w, &left, 0, &entered, 1);
        g.checks++;
    }
}

static void run_bcast(const tcomm_t *c)
{
    int counts[5], roots[3], nr = roots_for(c->size, roots);
    for (size_t k = 0; k < NTYPES; k++) {
        const tinfo_t *t = types[k];
        int nc = counts_for(t, true, counts);
        for (int ci = 0; ci < nc; ci++)
            for (int ri = 0; ri < nr; ri++) {
                size_t n = (size_t)counts[ci];
                int root = roots[ri];
                g.salt++;
                char *buf = xmalloc(n * t->size), *want = xmalloc(n * t->size);
                fill(t, want, n, root, RMP_OP_NULL);
                fill(t, buf, n, c->rank == root ? root : c->rank + 1000, RMP_OP_NULL);
                what_t w = {"bcast", t, 0, counts[ci], root, c->rank, 0};
                expect_rc(&w, rmp_bcast(buf, counts[ci], t->dt, root, c->comm));
                expect(&w, buf, 0, want, n);
                free(buf);
                free(want);
            }
    }
}

/* One reduce (root >= 0) or allreduce (root < 0) call and its check. */
static void reduce_one(const tcomm_t *c, const tinfo_t *t, rmp_op_t op, int count, int root,
                       int in_place)
{
    size_t n = (size_t)count, bytes = n * t->size;
    bool gets = root < 0 || c->rank == root, inpl = in_place && gets;
    char *in = xmalloc(bytes), *out = xmalloc(bytes), *want = xmalloc(bytes);
    g.salt++;
    fill(t, in, n, c->rank, op);
    if (inpl)
        memcpy(out, in, bytes);
    else
        fill(t, out, n, c->rank + 1000, op); /* junk the result must overwrite */
    const void *send = inpl ? RMP_IN_PLACE : in;
    what_t w = {root < 0 ? "allreduce" : "reduce", t, op, count, root, c->rank, inpl};
    int rc = root < 0 ? rmp_allreduce(send, out, count, t->dt, op, c->comm)
                      : rmp_reduce(send, out, count, t->dt, op, root, c->comm);
    expect_rc(&w, rc);
    if (gets) {
        reference(t, op, c->size, n, want, in);
        expect(&w, out, 0, want, n);
    }
    free(in);
    free(out);
    free(want);
}

static void run_reductions(const tcomm_t *c, bool all)
{
    int counts[5], roots[3], nr = all ? 1 : roots_for(c->size, roots);
    if (all)
        roots[0] = -1;
    for (size_t k = 0; k < NTYPES; k++)
        for (rmp_op_t op = RMP_SUM; op <= RMP_LOR; op++) {
            if (!op_valid(types[k], op))
                continue;
            int nc = counts_for(types[k], op == RMP_SUM || op == RMP_MAX, counts);
            for (int ci = 0; ci < nc; ci++)
                for (int ri = 0; ri < nr; ri++)
                    for (int inpl = 0; inpl < 2; inpl++)
                        if (counts[ci] < 100000 || (ri == 0 && !inpl) || all)
                            reduce_one(c, types[k], op, counts[ci], roots[ri], inpl);
        }
}

/* gather, scatter, allgather, alltoall: one call and its check. Block b of rank r holds
 * gen(r) (alltoall: gen(r * 4096 + b), the block from r to b). */
typedef enum { K_GATHER, K_SCATTER, K_ALLGATHER, K_ALLTOALL } kind_t;
static const char *kind_names[] = {"gather", "scatter", "allgather", "alltoall"};

static int move_call(kind_t kind, const void *s, void *r, int count, const tinfo_t *t, int root,
                     rmp_comm_t comm)
{
    switch (kind) {
    case K_GATHER:
        return rmp_gather(s, count, t->dt, r, count, t->dt, root, comm);
    case K_SCATTER:
        return rmp_scatter(s, count, t->dt, r, count, t->dt, root, comm);
    case K_ALLGATHER:
        return rmp_allgather(s, count, t->dt, r, count, t->dt, comm);
    default:
        return rmp_alltoall(s, count, t->dt, r, count, t->dt, comm);
    }
}

static void move_one(const tcomm_t *c, kind_t kind, const tinfo_t *t, int count, int root,
                     int in_place)
{
    int me = c->rank, p = c->size;
    size_t n = (size_t)count, blk = n * t->size, all = blk * (size_t)p;
    bool am_root = me == root, inpl = in_place && (am_root || kind >= K_ALLGATHER);
    char *sbuf = xmalloc(all), *rbuf = xmalloc(all), *want = xmalloc(blk);
    g.salt++;
    for (int b = 0; b < p; b++) /* send blocks, receive junk */
        fill(t, sbuf + b * blk, n,
             kind == K_ALLTOALL ? me * 4096 + b : (kind == K_SCATTER ? b : me), 0);
    fill(t, rbuf, n * (size_t)p, me + 1000, 0);
    const void *s = sbuf;
    void *r = rbuf;
    if (inpl && kind == K_SCATTER) {
        r = RMP_IN_PLACE;
    } else if (inpl) {
        if (kind == K_ALLTOALL)
            memcpy(rbuf, sbuf, all);
        else
            memcpy(rbuf + me * blk, sbuf, blk);
        s = RMP_IN_PLACE;
    }
    if (kind == K_GATHER && !am_root)
        r = NULL; /* insignificant at non-roots */
    if (kind == K_SCATTER && !am_root)
        s = NULL;
    what_t w = {kind_names[kind], t, 0, count, kind >= K_ALLGATHER ? -1 : root, me, inpl};
    expect_rc(&w, move_call(kind, s, r, count, t, root, c->comm));
    if (kind == K_SCATTER) {
        fill(t, want, n, me, 0);
        expect(&w, inpl ? sbuf : rbuf, inpl ? n * (size_t)me : 0, want, n);
    } else if (kind != K_GATHER || am_root) {
        for (int b = 0; b < p; b++) {
            fill(t, want, n, kind == K_ALLTOALL ? b * 4096 + me : b, 0);
            expect(&w, rbuf, n * (size_t)b, want, n);
        }
    }
    free(sbuf);
    free(rbuf);
    free(want);
}

static void run_moves(const tcomm_t *c, kind_t kind)
{
    int counts[5], roots[3] = {-1}, nr = kind >= K_ALLGATHER ? 1 : roots_for(c->size, roots);
    for (size_t k = 0; k < NTYPES; k++) {
        int nc = counts_for(types[k], types[k]->dt == RMP_INT32, counts);
        for (int ci = 0; ci < nc; ci++)
            for (int ri = 0; ri < nr; ri++)
                for (int inpl = 0; inpl < 2; inpl++)
                    move_one(c, kind, types[k], counts[ci], roots[ri], inpl);
    }
}

/* ---- reduce_scatter: block and irregular counts (zeros included) ---------------------- */
static void reduce_scatter_one(const tcomm_t *c, const tinfo_t *t, rmp_op_t op, const int *counts,
                               int block, int in_place)
{
    size_t total = 0, off = 0, mine = counts ? (size_t)counts[c->rank] : (size_t)block;
    for (int i = 0; i < c->size; i++) {
        size_t k = counts ? (size_t)counts[i] : (size_t)block;
        off += i < c->rank ? k : 0;
        total += k;
    }
    char *in = xmalloc(total * t->size), *out = xmalloc(total * t->size);
    char *want = xmalloc(total * t->size);
    g.salt++;
    fill(t, in, total, c->rank, op);
    if (in_place)
        memcpy(out, in, total * t->size);
    else
        fill(t, out, total, c->rank + 1000, op);
    const void *send = in_place ? RMP_IN_PLACE : in;
    what_t w = {counts ? "reduce_scatter" : "reduce_scatter_block", t, op, (int)total, -1, c->rank,
                in_place};
    expect_rc(&w, counts ? rmp_reduce_scatter(send, out, counts, t->dt, op, c->comm)
                         : rmp_reduce_scatter_block(send, out, block, t->dt, op, c->comm));
    reference(t, op, c->size, total, want, in);
    expect(&w, out, 0, want + off * t->size, mine);
    free(in);
    free(out);
    free(want);
}

static void run_reduce_scatter(const tcomm_t *c)
{
    int *irregular = xmalloc(sizeof(int) * (size_t)c->size);
    for (int i = 0; i < c->size; i++)
        irregular[i] = (i * 5 + 3) % 11; /* 3, 8, 2, 7, 1, 6, 0, ... */
    static const int blocks[] = {0, 1, 7, 300};
    for (size_t k = 0; k < NTYPES; k++)
        for (rmp_op_t op = RMP_SUM; op <= RMP_LOR; op++) {
            if (!op_valid(types[k], op))
                continue;
            for (int inpl = 0; inpl < 2; inpl++) {
                for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++)
                    reduce_scatter_one(c, types[k], op, NULL, blocks[b], inpl);
                reduce_scatter_one(c, types[k], op, irregular, -1, inpl);
            }
            if (op == RMP_SUM && (types[k]->dt == RMP_INT32 || types[k]->dt == RMP_DOUBLE))
                reduce_scatter_one(c, types[k], op, NULL, 20000, 0);
        }
    free(irregular);
}

/* ---- derived datatypes: vector(3 blocks of 2 int32, stride 3) = 6 ints over 8 ---------- */
#define V_SIZE 6
#define V_EXT  8
/* Position (in ints) of the k-th packed int of consecutive vector elements. */
static size_t vpos(size_t k)
{
    size_t j = k % V_SIZE;
    return k / V_SIZE * V_EXT + j / 2 * 3 + j % 2;
}

static int32_t *ints(size_t n, int who) /* gen(who) values; who < 0: all -1 (gaps marker) */
{
    int32_t *b = xmalloc(n * 4);
    for (size_t i = 0; i < n; i++)
        b[i] = who < 0 ? -1 : (int32_t)gen(who, i, 0);
    return b;
}

static void derived_bcast_gather(const tcomm_t *c, rmp_datatype_t v)
{
    int me = c->rank, p = c->size, root = p - 1;
    what_t w = {"bcast-vector", &t_int32, 0, 5, root, me, 0};
    g.salt++;
    int32_t *buf = ints(5 * V_EXT, me == root ? root : -1), *want = ints(5 * V_EXT, -1);
    for (size_t k = 0; k < 5 * V_SIZE; k++)
        want[vpos(k)] = (int32_t)gen(root, vpos(k), 0);
    if (me == root)
        memcpy(want, buf, 5 * V_EXT * 4);
    expect_rc(&w, rmp_bcast(buf, 5, v, root, c->comm));
    expect(&w, buf, 0, want, 5 * V_EXT);
    free(buf);
    free(want);

    /* vector -> contiguous, contiguous -> vector (same type signature: 12 ints), and the
     * latter in place at the root (its slot keeps its own data, gaps included) */
    for (int mode = 0; mode < 3; mode++) {
        static const char *names[] = {"gather-vector-to-int", "gather-int-to-vector",
                                      "gather-int-to-vector"};
        bool inpl = mode == 2 && me == 0;
        what_t wg = {names[mode], &t_int32, 0, 2, 0, me, inpl};
        size_t slot = mode ? 2 * V_EXT : 2 * V_SIZE;
        g.salt++;
        int32_t *s = ints(2 * V_EXT, me), *r = ints((size_t)p * slot, -1);
        int32_t *wt = ints((size_t)p * slot, -1);
        for (int q = 0; q < p; q++)
            for (size_t k = 0; k < 2 * V_SIZE; k++) {
                if (mode == 0)
                    wt[(size_t)q * slot + k] = (int32_t)gen(q, vpos(k), 0);
                else
                    wt[(size_t)q * slot + vpos(k)] = (int32_t)gen(q, k, 0);
            }
        if (inpl)
            for (size_t i = 0; i < slot; i++) /* own slot in place: footprint and gaps */
                r[i] = wt[i] = wt[i] == -1 ? 77 : wt[i];
        int rc = mode == 0 ? rmp_gather(s, 2, v, r, 2 * V_SIZE, RMP_INT32, 0, c->comm)
                           : rmp_gather(inpl ? RMP_IN_PLACE : s, 2 * V_SIZE, RMP_INT32, r, 2, v, 0,
                                        c->comm);
        expect_rc(&wg, rc);
        if (me == 0)
            expect(&wg, r, 0, wt, (size_t)p * slot);
        free(s);
        free(r);
        free(wt);
    }
}

static void derived_others(const tcomm_t *c, rmp_datatype_t v)
{
    int me = c->rank, p = c->size;
    size_t span = (size_t)p * V_EXT;
    for (int inpl = 0; inpl < 2; inpl++) { /* allreduce sum over 4 vector elements */
        what_t w = {"allreduce-vector", &t_int32, RMP_SUM, 4, -1, me, inpl};
        g.salt++;
        int32_t *s = ints(4 * V_EXT, me), *r = inpl ? ints(4 * V_EXT, me) : ints(4 * V_EXT, -1);
        int32_t *want = inpl ? ints(4 * V_EXT, me) : ints(4 * V_EXT, -1);
        for (size_t k = 0; k < 4 * V_SIZE; k++) {
            int64_t sum = 0;
            for (int q = 0; q < p; q++)
                sum += gen(q, vpos(k), 0);
            want[vpos(k)] = (int32_t)sum;
        }
        expect_rc(&w, rmp_allreduce(inpl ? RMP_IN_PLACE : s, r, 4, v, RMP_SUM, c->comm));
        expect(&w, r, 0, want, 4 * V_EXT);
        free(s);
        free(r);
        free(want);
    }
    { /* scatter 12 ints per rank into 2 vectors; allgather and alltoall of vectors */
        what_t w = {"scatter-int-to-vector", &t_int32, 0, 2, 0, me, 0};
        g.salt++;
        int32_t *s = xmalloc((size_t)p * 2 * V_SIZE * 4), *r = ints(2 * V_EXT, -1);
        int32_t *want = ints(2 * V_EXT, -1);
        for (int q = 0; q < p; q++)
            for (size_t k = 0; k < 2 * V_SIZE; k++)
                s[(size_t)q * 2 * V_SIZE + k] = (int32_t)gen(q, k, 0);
        for (size_t k = 0; k < 2 * V_SIZE; k++)
            want[vpos(k)] = (int32_t)gen(me, k, 0);
        expect_rc(&w, rmp_scatter(s, 2 * V_SIZE, RMP_INT32, r, 2, v, 0, c->comm));
        expect(&w, r, 0, want, 2 * V_EXT);
        free(s);
        free(r);
        free(want);
    }
    for (int mode = 0; mode < 4; mode++) { /* allgather, alltoall; each also in place */
        int a2a = mode & 1, inpl = mode >> 1;
        what_t w = {a2a ? "alltoall-vector" : "allgather-vector", &t_int32, 0, 1, -1, me, inpl};
        g.salt++;
        int32_t *s = xmalloc(span * 4), *r = ints(span, -1), *want;
        for (int q = 0; q < p; q++) /* block q: sent to q (alltoall) */
            for (size_t i = 0; i < V_EXT; i++)
                s[(size_t)q * V_EXT + i] = (int32_t)gen(a2a ? me * 4096 + q : me, i, 0);
        if (inpl && a2a)
            memcpy(r, s, span * 4);
        else if (inpl)
            memcpy(r + (size_t)me * V_EXT, s, V_EXT * 4);
        want = xmalloc(span * 4); /* gaps keep what was there */
        memcpy(want, r, span * 4);
        for (int q = 0; q < p; q++) /* block q: received from q */
            for (size_t k = 0; k < V_SIZE; k++)
                want[(size_t)q * V_EXT + vpos(k)] =
                    (int32_t)gen(a2a ? q * 4096 + me : q, vpos(k), 0);
        const void *sb = inpl ? RMP_IN_PLACE : s;
        int rc = a2a ? rmp_alltoall(sb, 1, v, r, 1, v, c->comm)
                     : rmp_allgather(sb, 1, v, r, 1, v, c->comm);
        expect_rc(&w, rc);
        expect(&w, r, 0, want, span);
        free(s);
        free(r);
        free(want);
    }
}

static void run_derived(const tcomm_t *c)
{
    rmp_datatype_t v;
    what_t w = {"type_vector", &t_int32, 0, 3, -1, c->rank, 0};
    expect_rc(&w, rmp_type_vector(3, 2, 3, RMP_INT32, &v));
    expect_rc(&w, rmp_type_commit(&v));
    derived_bcast_gather(c, v);
    derived_others(c, v);
    expect_rc(&w, rmp_type_free(&v));
}

/* ---- argument errors: every rank gets the same bad argument, so none may hang ------------ */
static void expect_err(const char *call, int rc, int want)
{
    g.checks++;
    if (rc != want) {
        what_t w = {call, NULL, 0, 0, -1, g.wrank, 0};
        char gs[48], ws[48];
        snprintf(gs, sizeof(gs), "%d", rc);
        snprintf(ws, sizeof(ws), "%d", want);
        fail(&w, 0, gs, ws);
    }
}

static void run_errors(const tcomm_t *c)
{
    int32_t a[4] = {0}, b[64] = {0};
    float f[2] = {0};
    rmp_comm_t cm = c->comm, nul = RMP_COMM_NULL;
    rmp_datatype_t unc;
    rmp_type_contiguous(2, RMP_INT32, &unc); /* never committed */
    expect_err("bcast-comm-null", rmp_bcast(a, 1, RMP_INT32, 0, RMP_COMM_NULL), RMP_ERR_COMM);
    expect_err("barrier-comm-bad", rmp_barrier(12345), RMP_ERR_COMM);
    expect_err("allreduce-comm-bad", rmp_allreduce(a, b, 1, RMP_INT32, RMP_SUM, 4095),
               RMP_ERR_COMM);
    expect_err("bcast-root-neg", rmp_bcast(a, 1, RMP_INT32, -1, cm), RMP_ERR_ROOT);
    expect_err("bcast-root-big", rmp_bcast(a, 1, RMP_INT32, c->size, cm), RMP_ERR_ROOT);
    expect_err("reduce-root", rmp_reduce(a, b, 1, RMP_INT32, RMP_SUM, c->size, cm), RMP_ERR_ROOT);
    expect_err("gather-root", rmp_gather(a, 1, RMP_INT32, b, 1, RMP_INT32, -3, cm), RMP_ERR_ROOT);
    expect_err("scatter-root", rmp_scatter(b, 1, RMP_INT32, a, 1, RMP_INT32, c->size, cm),
               RMP_ERR_ROOT);
    expect_err("bcast-count", rmp_bcast(a, -1, RMP_INT32, 0, cm), RMP_ERR_COUNT);
    expect_err("allreduce-count", rmp_allreduce(a, b, -2, RMP_INT32, RMP_SUM, cm), RMP_ERR_COUNT);
    expect_err("allgather-count", rmp_allgather(a, -1, RMP_INT32, b, 1, RMP_INT32, cm),
               RMP_ERR_COUNT);
    expect_err("bcast-type", rmp_bcast(a, 1, 999, 0, cm), RMP_ERR_TYPE);
    expect_err("bcast-uncommitted", rmp_bcast(a, 1, unc, 0, cm), RMP_ERR_TYPE);
    expect_err("alltoall-type", rmp_alltoall(a, 1, RMP_DATATYPE_NULL, b, 1, RMP_INT32, cm),
               RMP_ERR_TYPE);
    expect_err("allreduce-band-float", rmp_allreduce(f, f + 1, 1, RMP_FLOAT, RMP_BAND, cm),
               RMP_ERR_OP);
    expect_err("allreduce-op-null", rmp_allreduce(a, b, 1, RMP_INT32, RMP_OP_NULL, cm), RMP_ERR_OP);
    expect_err("reduce-op-bad", rmp_reduce(a, b, 1, RMP_INT32, 42, 0, cm), RMP_ERR_OP);
    expect_err("allreduce-sum-byte", rmp_allreduce(a, b, 1, RMP_BYTE, RMP_SUM, cm), RMP_ERR_OP);
    expect_err("allreduce-null-recv", rmp_allreduce(a, NULL, 1, RMP_INT32, RMP_SUM, cm),
               RMP_ERR_BUFFER);
    expect_err("bcast-null", rmp_bcast(NULL, 3, RMP_INT32, 0, cm), RMP_ERR_BUFFER);
    expect_err("bcast-in-place", rmp_bcast(RMP_IN_PLACE, 1, RMP_INT32, 0, cm), RMP_ERR_BUFFER);
    expect_err("allgather-null-send", rmp_allgather(NULL, 1, RMP_INT32, b, 1, RMP_INT32, cm),
               RMP_ERR_BUFFER);
    expect_err("comm-free-world", rmp_comm_free(&(rmp_comm_t){RMP_COMM_WORLD}), RMP_ERR_COMM);
    expect_err("comm-free-self", rmp_comm_free(&(rmp_comm_t){RMP_COMM_SELF}), RMP_ERR_COMM);
    expect_err("comm-free-null", rmp_comm_free(&nul), RMP_ERR_COMM);
    expect_err("comm-free-ptr", rmp_comm_free(NULL), RMP_ERR_ARG);
    expect_err("comm-dup-ptr", rmp_comm_dup(cm, NULL), RMP_ERR_ARG);
    expect_err("comm-dup-null", rmp_comm_dup(RMP_COMM_NULL, &nul), RMP_ERR_COMM);
    expect_err("comm-split-color", rmp_comm_split(cm, -5, 0, &nul), RMP_ERR_ARG);
    rmp_type_free(&unc);
    /* nothing was sent by the failed calls: the next collectives still line up */
    a[0] = 1;
    expect_err("allreduce-after-errors", rmp_allreduce(a, b, 1, RMP_INT32, RMP_SUM, cm), 0);
    expect_err("allreduce-after-errors-value", b[0], c->size);
}

/* ---- communicators ----------------------------------------------------------------------- */
static void expect_int(const char *what, long got, long want)
{
    char gs[32], ws[32];
    g.checks++;
    if (got != want) {
        what_t w = {what, NULL, 0, 0, -1, g.wrank, 0};
        snprintf(gs, sizeof(gs), "%ld", got);
        snprintf(ws, sizeof(ws), "%ld", want);
        fail(&w, 0, gs, ws);
    }
}

/* A quick allreduce on a new communicator: sum of (world rank + 1) over its members. */
static void comm_sum_check(const char *what, rmp_comm_t cm, long want)
{
    int64_t mine = g.wrank + 1, sum = -1;
    expect_int(what, rmp_allreduce(&mine, &sum, 1, RMP_INT64, RMP_SUM, cm), 0);
    expect_int(what, (long)sum, want);
}

static void run_comm(void)
{
    int me = g.wrank, n = g.wsize, r = -1, s = -1;
    rmp_comm_t dup = RMP_COMM_NULL, holes = RMP_COMM_NULL, again;
    expect_int("comm-dup", rmp_comm_dup(RMP_COMM_WORLD, &dup), 0);
    rmp_comm_rank(dup, &r);
    rmp_comm_size(dup, &s);
    expect_int("comm-dup-rank", r, me);
    expect_int("comm-dup-size", s, n);
    comm_sum_check("comm-dup-allreduce", dup, (long)n * (n + 1) / 2);
    comm_sum_check("comm-self-allreduce", RMP_COMM_SELF, me + 1);
    rmp_comm_t self = RMP_COMM_NULL;
    expect_int("comm-dup-self", rmp_comm_dup(RMP_COMM_SELF, &self), 0);
    comm_sum_check("comm-dup-self-allreduce", self, me + 1);
    expect_int("comm-free-dup-self", rmp_comm_free(&self), 0);

    /* ranks 1, 4, 7, ... stay out; the others are ordered by descending world rank */
    int color = me % 3 == 1 ? RMP_UNDEFINED : 7;
    expect_int("comm-split-holes", rmp_comm_split(dup, color, -me, &holes), 0);
    long members = 0, sum = 0, above = 0;
    for (int q = 0; q < n; q++)
        if (q % 3 != 1) {
            members++;
            sum += q + 1;
            above += q > me;
        }
    if (color == RMP_UNDEFINED) {
        expect_int("comm-split-undefined", holes, RMP_COMM_NULL);
    } else {
        rmp_comm_rank(holes, &r);
        rmp_comm_size(holes, &s);
        expect_int("comm-split-holes-rank", r, above);
        expect_int("comm-split-holes-size", s, members);
        comm_sum_check("comm-split-holes-allreduce", holes, sum);
        again = holes;
        expect_int("comm-free", rmp_comm_free(&holes), 0);
        expect_int("comm-free-sets-null", holes, RMP_COMM_NULL);
        expect_int("comm-freed-use", rmp_barrier(again), RMP_ERR_COMM);
        expect_int("comm-free-twice", rmp_comm_free(&again), RMP_ERR_COMM);
    }
    /* many short-lived communicators: context ids keep being agreed and released */
    for (int i = 0; i < 50; i++) {
        rmp_comm_t t;
        expect_int("comm-split-loop", rmp_comm_split(RMP_COMM_WORLD, me % 2, me, &t), 0);
        rmp_comm_size(t, &s);
        expect_int("comm-split-loop-size", s, (n + 1 - me % 2) / 2);
        expect_int("comm-split-loop-free", rmp_comm_free(&t), 0);
    }
    expect_int("comm-free-dup", rmp_comm_free(&dup), 0);
}

/* User p2p traffic and collective traffic never match each other: a wildcard receive posted
 * before collectives still gets the user's message afterwards. */
static void run_separation(void)
{
    if (g.wsize < 2)
        return;
    int32_t got = -1, v = 4242, x = 1, y = 0;
    rmp_request_t req = RMP_REQUEST_NULL;
    rmp_status_t st;
    if (g.wrank == 0)
        expect_int("sep-irecv",
                   rmp_irecv(&got, 1, RMP_INT32, RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &req),
                   0);
    expect_int("sep-bcast", rmp_bcast(&x, 1, RMP_INT32, 1, RMP_COMM_WORLD), 0);
    expect_int("sep-allreduce", rmp_allreduce(&x, &y, 1, RMP_INT32, RMP_SUM, RMP_COMM_WORLD), 0);
    expect_int("sep-allreduce-value", y, g.wsize);
    expect_int("sep-barrier", rmp_barrier(RMP_COMM_WORLD), 0);
    if (g.wrank == 1)
        expect_int("sep-send", rmp_send(&v, 1, RMP_INT32, 0, 7, RMP_COMM_WORLD), 0);
    if (g.wrank == 0) {
        expect_int("sep-wait", rmp_wait(&req, &st), 0);
        expect_int("sep-value", got, 4242);
        expect_int("sep-tag", st.tag, 7);
        expect_int("sep-source", st.source, 1);
    }
}

/* ---- nonblocking: many collectives in flight on every communicator at once, interleaved
 * with point-to-point traffic on COMM_WORLD, completed in a scrambled order -------------- */
enum { NB_BAR, NB_ALLRED, NB_BIG, NB_BCAST, NB_AG, NB_A2A, NB_RS, NB_RED, NB_GATHER, NB_SCAT, NB_N };
#define NB_BIGN 30000 /* above every eager limit: rendezvous inside a schedule */

typedef struct nb_bufs {
    int32_t *in, *out, *big_in, *big_out, *bc, *ag_out, *a2a_in, *a2a_out, *rs_out, *red_out;
    int32_t *ga_out, *sc_in, sc_out, *rs_in, *ag_in;
} nb_bufs_t;

static int32_t *nb_vec(size_t n, int who)
{
    int32_t *v = xmalloc(n * sizeof(int32_t));
    fill(&t_int32, v, n, who, RMP_SUM);
    return v;
}

/* Post the NB_N collectives of one communicator (identical order on every rank). */
static void nb_post(const tcomm_t *c, nb_bufs_t *b, rmp_request_t *r, int root)
{
    int n = c->size, me = c->rank;
    what_t w = {"nonblocking-post", &t_int32, RMP_SUM, 0, root, me, 0};
    b->in = nb_vec(5, me);
    b->out = xmalloc(5 * sizeof(int32_t));
    b->big_in = nb_vec(NB_BIGN, me);
    b->big_out = xmalloc(NB_BIGN * sizeof(int32_t));
    b->bc = me == root ? nb_vec(9, root) : nb_vec(9, 1000 + me);
    b->ag_out = xmalloc(3 * sizeof(int32_t) * (size_t)n);
    b->a2a_in = xmalloc(2 * sizeof(int32_t) * (size_t)n);
    for (int j = 0; j < n; j++)
        fill(&t_int32, b->a2a_in + 2 * j, 2, me * 4096 + j, 0);
    b->a2a_out = xmalloc(2 * sizeof(int32_t) * (size_t)n);
    b->rs_out = xmalloc(4 * sizeof(int32_t));
    b->red_out = xmalloc(5 * sizeof(int32_t));
    b->ga_out = xmalloc(sizeof(int32_t) * (size_t)n);
    b->sc_in = nb_vec((size_t)n, root);
    b->rs_in = nb_vec(4 * (size_t)n, me);
    b->ag_in = nb_vec(3, me);
    expect_rc(&w, rmp_ibarrier(c->comm, &r[NB_BAR]));
    expect_rc(&w, rmp_iallreduce(b->in, b->out, 5, RMP_INT32, RMP_SUM, c->comm, &r[NB_ALLRED]));
    expect_rc(&w, rmp_iallreduce(b->big_in, b->big_out, NB_BIGN, RMP_INT32, RMP_SUM, c->comm,
                                 &r[NB_BIG]));
    expect_rc(&w, rmp_ibcast(b->bc, 9, RMP_INT32, root, c->comm, &r[NB_BCAST]));
    expect_rc(&w, rmp_iallgather(b->ag_in, 3, RMP_INT32, b->ag_out, 3, RMP_INT32, c->comm, &r[NB_AG]));
    expect_rc(&w, rmp_ialltoall(b->a2a_in, 2, RMP_INT32, b->a2a_out, 2, RMP_INT32, c->comm,
                                &r[NB_A2A]));
    expect_rc(&w, rmp_ireduce_scatter_block(b->rs_in, b->rs_out, 4, RMP_INT32, RMP_SUM, c->comm,
                                            &r[NB_RS]));
    expect_rc(&w, rmp_ireduce(b->in, b->red_out, 5, RMP_INT32, RMP_SUM, root, c->comm, &r[NB_RED]));
    expect_rc(&w, rmp_igather(&b->in[0], 1, RMP_INT32, b->ga_out, 1, RMP_INT32, root, c->comm,
                              &r[NB_GATHER]));
    expect_rc(&w, rmp_iscatter(b->sc_in, 1, RMP_INT32, &b->sc_out, 1, RMP_INT32, root, c->comm,
                               &r[NB_SCAT]));
}

static void nb_check(const tcomm_t *c, nb_bufs_t *b, int root)
{
    int n = c->size, me = c->rank;
    int32_t *want = xmalloc(sizeof(int32_t) * (size_t)(4 * n > NB_BIGN ? 4 * n : NB_BIGN));
    int32_t *tmp = xmalloc(sizeof(int32_t) * (size_t)(4 * n > NB_BIGN ? 4 * n : NB_BIGN));
    what_t w = {"nonblocking", &t_int32, RMP_SUM, 5, -1, me, 0};
    reference(&t_int32, RMP_SUM, n, 5, want, tmp);
    expect(&w, b->out, 0, want, 5);
    if (me == root) {
        w.coll = "nonblocking-reduce";
        expect(&w, b->red_out, 0, want, 5);
    }
    w.coll = "nonblocking-big";
    reference(&t_int32, RMP_SUM, n, NB_BIGN, want, tmp);
    expect(&w, b->big_out, 0, want, NB_BIGN);
    w.coll = "nonblocking-bcast";
    fill(&t_int32, want, 9, root, RMP_SUM);
    expect(&w, b->bc, 0, want, 9);
    w.coll = "nonblocking-allgather";
    for (int j = 0; j < n; j++) {
        fill(&t_int32, want, 3, j, RMP_SUM);
        expect(&w, b->ag_out, 3 * (size_t)j, want, 3);
    }
    w.coll = "nonblocking-alltoall";
    for (int j = 0; j < n; j++) {
        fill(&t_int32, want, 2, j * 4096 + me, 0);
        expect(&w, b->a2a_out, 2 * (size_t)j, want, 2);
    }
    w.coll = "nonblocking-reduce_scatter";
    reference(&t_int32, RMP_SUM, n, 4 * (size_t)n, want, tmp);
    expect(&w, b->rs_out, 0, want + 4 * me, 4);
    if (me == root) {
        w.coll = "nonblocking-gather";
        for (int j = 0; j < n; j++) {
            fill(&t_int32, want, 5, j, RMP_SUM);
            expect(&w, b->ga_out, (size_t)j, want, 1);
        }
    }
    w.coll = "nonblocking-scatter";
    fill(&t_int32, want, (size_t)n, root, RMP_SUM);
    expect(&w, &b->sc_out, 0, want + me, 1);
    free(want);
    free(tmp);
    free(b->in);
    free(b->out);
    free(b->big_in);
    free(b->big_out);
    free(b->bc);
    free(b->ag_out);
    free(b->a2a_in);
    free(b->a2a_out);
    free(b->rs_out);
    free(b->red_out);
    free(b->ga_out);
    free(b->sc_in);
    free(b->rs_in);
    free(b->ag_in);
}

static void run_nonblocking(const tcomm_t *cs, int ncomms)
{
    enum { ROUNDS = 6, PP = 2000 };
    int me = g.wrank, n = g.wsize;
    /* run_separation's wildcard receive must not see this section's messages */
    rmp_barrier(RMP_COMM_WORLD);
    for (int round = 0; round < ROUNDS; round++) {
        g.salt = ((uint64_t)99 << 40) + (uint64_t)round; /* the same on every rank: all comms */
        nb_bufs_t b[3];
        rmp_request_t r[3][NB_N], p2p[2];
        int32_t *pin = nb_vec(PP, me), *pout = xmalloc(PP * sizeof(int32_t));
        what_t w = {"nonblocking-p2p", &t_int32, 0, PP, -1, me, 0};
        /* user p2p on WORLD posted before, between and after the collectives */
        expect_rc(&w, rmp_irecv(pout, PP, RMP_INT32, (me - 1 + n) % n, round, RMP_COMM_WORLD,
                                &p2p[0]));
        for (int i = 0; i < ncomms; i++) {
            nb_post(&cs[i], &b[i], r[i], (round + i) % cs[i].size);
            if (i == 0)
                expect_rc(&w, rmp_isend(pin, PP, RMP_INT32, (me + 1) % n, round, RMP_COMM_WORLD,
                                        &p2p[1]));
        }
        /* complete: test-poll some, waitany over a mix, then waitall in reverse */
        int flag = 0;
        for (int k = 0; k < 100 && !flag; k++)
            expect_rc(&w, rmp_test(&r[ncomms - 1][NB_BAR], &flag, RMP_STATUS_IGNORE));
        rmp_request_t mix[4] = {r[0][NB_A2A], p2p[0], r[ncomms - 1][NB_BIG], p2p[1]};
        int idx;
        expect_rc(&w, rmp_waitany(4, mix, &idx, RMP_STATUS_IGNORE));
        expect_rc(&w, rmp_waitall(4, mix, RMP_STATUSES_IGNORE));
        r[0][NB_A2A] = r[ncomms - 1][NB_BIG] = RMP_REQUEST_NULL;
        for (int i = ncomms - 1; i >= 0; i--) {
            rmp_request_t rev[NB_N];
            for (int k = 0; k < NB_N; k++)
                rev[k] = r[i][NB_N - 1 - k];
            w.coll = "nonblocking-waitall";
            expect_rc(&w, rmp_waitall(NB_N, rev, RMP_STATUSES_IGNORE));
        }
        w.coll = "nonblocking-p2p";
        fill(&t_int32, pin, PP, (me - 1 + n) % n, RMP_SUM);
        expect(&w, pout, 0, pin, PP);
        for (int i = 0; i < ncomms; i++) {
            g.salt = ((uint64_t)99 << 40) + (uint64_t)round;
            nb_check(&cs[i], &b[i], (round + i) % cs[i].size);
        }
        free(pin);
        free(pout);
    }
}

/* ---- main ------------------------------------------------------------------------------ */
static bool selected(int argc, char **argv, const char *name)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0 || strcmp(argv[i], "all") == 0)
            return true;
    return false;
}

static void run_on(const tcomm_t *c, int argc, char **argv, int index)
{
    g.comm_name = c->name;
    g.salt = (uint64_t)index << 32; /* split groups of different sizes make different calls */
    if (selected(argc, argv, "barrier"))
        run_barrier(c);
    if (selected(argc, argv, "bcast"))
        run_bcast(c);
    if (selected(argc, argv, "reduce"))
        run_reductions(c, false);
    if (selected(argc, argv, "allreduce"))
        run_reductions(c, true);
    for (kind_t k = K_GATHER; k <= K_ALLTOALL; k++)
        if (selected(argc, argv, kind_names[k]))
            run_moves(c, k);
    if (selected(argc, argv, "reduce_scatter"))
        run_reduce_scatter(c);
    if (selected(argc, argv, "derived"))
        run_derived(c);
    if (selected(argc, argv, "errors"))
        run_errors(c);
}

/* COMM_WORLD, even/odd ranks, and everyone in reversed order (key = -rank). */
static int make_comms(tcomm_t *cs)
{
    int me = g.wrank;
    cs[0] = (tcomm_t){RMP_COMM_WORLD, "world", me, g.wsize};
    cs[1] = (tcomm_t){RMP_COMM_NULL, "even-odd", -1, -1};
    cs[2] = (tcomm_t){RMP_COMM_NULL, "reversed", -1, -1};
    if (rmp_comm_split(RMP_COMM_WORLD, me % 2, me, &cs[1].comm) ||
        rmp_comm_split(RMP_COMM_WORLD, 0, -me, &cs[2].comm)) {
        printf("coll: FAIL comm_split - - count=0 root=-1 rank=%d index=0 got=error want=ok\n", me);
        return 1;
    }
    for (int i = 1; i < 3; i++) {
        rmp_comm_rank(cs[i].comm, &cs[i].rank);
        rmp_comm_size(cs[i].comm, &cs[i].size);
    }
    g.comm_name = "split";
    expect_int("split-even-odd-rank", cs[1].rank, me / 2);
    expect_int("split-even-odd-size", cs[1].size, (g.wsize + 1 - me % 2) / 2);
    expect_int("split-reversed-rank", cs[2].rank, g.wsize - 1 - me);
    return 3;
}

/* Collectives outside rmp_init..rmp_finalize: RMP_ERR_NOT_INITIALIZED, nothing else. */
static int check_uninit(const char *when)
{
    int32_t x = 0, y[16];
    rmp_comm_t c = RMP_COMM_WORLD;
    int rcs[] = {rmp_barrier(c),
                 rmp_bcast(&x, 1, RMP_INT32, 0, c),
                 rmp_reduce(&x, y, 1, RMP_INT32, RMP_SUM, 0, c),
                 rmp_allreduce(&x, y, 1, RMP_INT32, RMP_SUM, c),
                 rmp_gather(&x, 1, RMP_INT32, y, 1, RMP_INT32, 0, c),
                 rmp_scatter(y, 1, RMP_INT32, &x, 1, RMP_INT32, 0, c),
                 rmp_allgather(&x, 1, RMP_INT32, y, 1, RMP_INT32, c),
                 rmp_alltoall(y, 1, RMP_INT32, y + 8, 1, RMP_INT32, c),
                 rmp_comm_dup(c, &c),
                 rmp_comm_split(c, 0, 0, &c),
                 rmp_comm_free(&c)};
    for (size_t i = 0; i < sizeof(rcs) / sizeof(rcs[0]); i++)
        if (rcs[i] != RMP_ERR_NOT_INITIALIZED) {
            printf("coll: FAIL uninitialized - - count=0 root=-1 rank=%d index=%zu got=%d "
                   "want=%d (%s)\n",
                   g.wrank, i, rcs[i], RMP_ERR_NOT_INITIALIZED, when);
            return 1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    g.wrank = -1;
    if (check_uninit("before rmp_init"))
        return 1;
    int rc = rmp_init(&argc, &argv);
    if (rc != RMP_SUCCESS) {
        printf("coll: FAIL rmp_init: %s\n", rmp_strerror(rc));
        return 1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    rmp_comm_rank(RMP_COMM_WORLD, &g.wrank);
    rmp_comm_size(RMP_COMM_WORLD, &g.wsize);
    tcomm_t cs[3];
    int ncomms = make_comms(cs);
    for (int i = 0; i < ncomms; i++)
        run_on(&cs[i], argc, argv, i);
    g.comm_name = "world";
    g.salt = (uint64_t)ncomms << 32;
    if (selected(argc, argv, "comm"))
        run_comm();
    if (selected(argc, argv, "separation"))
        run_separation();
    if (selected(argc, argv, "nonblocking"))
        run_nonblocking(cs, ncomms);
    for (int i = 1; i < ncomms; i++)
        rmp_comm_free(&cs[i].comm);

    /* everyone's verdict, so rank 0 says OK only when every rank passed */
    int64_t mine[2] = {g.failed, g.checks}, all[2] = {1, 0};
    rmp_allreduce(&mine[0], &all[0], 1, RMP_INT64, RMP_MAX, RMP_COMM_WORLD);
    rmp_allreduce(&mine[1], &all[1], 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD);
    if (g.wrank == 0 && all[0] == 0)
        printf("coll: OK %" PRId64 " checks\n", all[1]);
    rmp_finalize();
    if (check_uninit("after rmp_finalize"))
        return 1;
    return all[0] == 0 ? 0 : 1;
}
