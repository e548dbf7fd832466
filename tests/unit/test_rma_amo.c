/* test_rma_amo.c — rma/amo.c on memory this process maps (the DIRECT domain), without a job:
 * a window of one rank made by hand (its memory and control block here) is enough for
 * rma_amo. Every (op, builtin type) pair op_reduce knows, plus REPLACE and NO_OP, must give
 * what op_reduce gives and return the elements before; 8-byte elements take the atomics
 * (FADD, CAS loops), the others and misaligned ones the accumulate lock; threads hammering
 * one location lose no update on either mechanism. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../rma/rma.h"

#define MEM 4096

typedef struct fake {
    win_t w;
    rma_target_t t;
    _Alignas(64) _Atomic uint64_t ctrl[RMA_CTRL_BYTES / 8];
    _Alignas(64) char mem[MEM];
} fake_t;

static fake_t *fake_new(void)
{
    fake_t *f = aligned_alloc(64, sizeof(fake_t));
    cr_assert_not_null(f);
    memset(f, 0, sizeof(*f));
    f->t = (rma_target_t){.world = 0, .size = MEM, .disp_unit = 1,
                          .base = (uint64_t)(uintptr_t)f->mem, .data_path = RMA_DIRECT,
                          .mapped = f->mem, .ctrl = f->ctrl};
    f->w = (win_t){.rank = 0, .size = 1, .flavor = RMP_WIN_FLAVOR_ALLOCATE, .base = f->mem,
                   .bytes = MEM, .disp_unit = 1, .t = &f->t, .amo_path = RMA_DIRECT,
                   .ctrl = f->ctrl};
    return f;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
}

/* Whether byte k of an element of b holds value: x87's long double is 10 bytes in 16, and
 * what an arithmetic result leaves in the other 6 is unspecified. */
static bool significant(dt_base_t b, size_t k)
{
    bool ld = b == DT_LONG_DOUBLE || b == DT_C_LONG_DOUBLE_COMPLEX || b == DT_LONG_DOUBLE_INT;
    return !ld || sizeof(long double) != 16 || k % 16 < 10 ||
           (b == DT_LONG_DOUBLE_INT && k >= 16);
}

/* One accumulate of n elements at offset off, checked against op_reduce on a copy. */
static void check_one(dt_base_t b, rmp_op_t op, size_t off, int n, unsigned seed)
{
    fake_t *f = fake_new();
    size_t es = dtype_base_size(b), bytes = es * (size_t)n;
    unsigned char *in = malloc(bytes), *want = malloc(bytes), *before = malloc(bytes),
                  *res = malloc(bytes);
    cr_assert(in && want && before && res);
    fill(in, bytes, seed);
    fill((unsigned char *)f->mem + off, bytes, seed * 7 + 1);
    memcpy(before, f->mem + off, bytes);
    memcpy(want, before, bytes);
    if (op == RMP_REPLACE)
        memcpy(want, in, bytes);
    else if (op != RMP_NO_OP)
        op_reduce(op, b, in, want, (size_t)n);
    rma_piece_t pc = {0, bytes};
    int rc = rma_amo(&f->w, 0, off, &pc, 1, b, op, in, bytes, res, NULL);
    cr_assert_eq(rc, RMP_SUCCESS, "type %d op %d: %d", b, op, rc);
    for (size_t k = 0; k < bytes; k++)
        if (significant(b, k % es))
            cr_assert_eq((unsigned char)f->mem[off + k], want[k], "type %d op %d: byte %zu", b,
                         op, k);
    cr_assert_eq(memcmp(res, before, bytes), 0, "type %d op %d: result", b, op);
    cr_assert_eq(f->t.issued, 1);
    cr_assert_eq(f->t.completed, 1);
    cr_assert_eq(f->ctrl[RMA_CTRL_ACC / 8], 0, "accumulate lock released");
    free(in), free(want), free(before), free(res), free(f);
}

static void every_op(size_t off)
{
    int pairs = 0;
    for (int b = DT_NONE + 1; b < DT_NBUILTIN; b++) {
        if (b == DT_PACKED)
            continue;
        for (rmp_op_t op = RMP_SUM; op <= RMP_NO_OP; op++) {
            if (op != RMP_REPLACE && op != RMP_NO_OP && op_builtin_check(op, (dt_base_t)b))
                continue;
            check_one((dt_base_t)b, op, off, 5, (unsigned)(b * 31 + op));
            pairs++;
        }
    }
    cr_assert_gt(pairs, 100);
}

Test(rma_amo, every_op_and_type_as_op_reduce_aligned, .timeout = 60)
{
    every_op(64);
}

/* At offset 4, 8-byte elements are misaligned: the accumulate lock takes them. */
Test(rma_amo, every_op_and_type_as_op_reduce_misaligned, .timeout = 60)
{
    every_op(68);
}

Test(rma_amo, pieces_and_holes, .timeout = 30)
{
    fake_t *f = fake_new();
    int64_t in[4] = {1, 2, 3, 4}, res[4];
    int64_t *m = (int64_t *)(void *)f->mem;
    for (int i = 0; i < 16; i++)
        m[i] = 100 * i;
    rma_piece_t pcs[2] = {{8, 16}, {64, 16}}; /* elements 1, 2 and 8, 9 */
    cr_assert_eq(rma_amo(&f->w, 0, 0, pcs, 2, DT_INT64, RMP_SUM, in, 32, res, NULL),
                 RMP_SUCCESS);
    cr_assert(m[1] == 101 && m[2] == 202 && m[8] == 803 && m[9] == 904 && m[3] == 300);
    cr_assert(res[0] == 100 && res[1] == 200 && res[2] == 800 && res[3] == 900);
    rma_piece_t bad = {0, 12}; /* not whole elements */
    cr_assert_eq(rma_amo(&f->w, 0, 0, &bad, 1, DT_INT64, RMP_SUM, in, 12, NULL, NULL),
                 RMP_ERR_TYPE);
    cr_assert_eq(rma_amo(&f->w, 0, 0, pcs, 2, DT_INT64, RMP_SUM, in, 24, NULL, NULL),
                 RMP_ERR_ARG, "pieces and bytes disagree");
    cr_assert_eq(rma_amo(&f->w, 0, 0, pcs, 1, DT_DOUBLE, RMP_BAND, in, 16, NULL, NULL),
                 RMP_ERR_OP);
    free(f);
}

Test(rma_amo, compare_and_swap, .timeout = 30)
{
    fake_t *f = fake_new();
    rma_piece_t p8 = {0, 8}, p4 = {0, 4};
    uint64_t v = 5, cmp = 7, old;
    memcpy(f->mem + 16, &(uint64_t){7}, 8);
    cr_assert_eq(rma_amo(&f->w, 0, 16, &p8, 1, DT_UINT64, RMP_OP_NULL, &v, 8, &old, &cmp),
                 RMP_SUCCESS);
    cr_assert_eq(old, 7);
    memcpy(&old, f->mem + 16, 8);
    cr_assert_eq(old, 5, "swapped");
    cr_assert_eq(rma_amo(&f->w, 0, 16, &p8, 1, DT_UINT64, RMP_OP_NULL, &cmp, 8, &old, &cmp),
                 RMP_SUCCESS);
    cr_assert_eq(old, 5);
    memcpy(&old, f->mem + 16, 8);
    cr_assert_eq(old, 5, "comparand differed: unchanged");
    int32_t v4 = 9, c4 = 3, o4;
    memcpy(f->mem + 40, &(int32_t){3}, 4);
    cr_assert_eq(rma_amo(&f->w, 0, 40, &p4, 1, DT_INT32, RMP_OP_NULL, &v4, 4, &o4, &c4),
                 RMP_SUCCESS);
    cr_assert_eq(o4, 3);
    memcpy(&o4, f->mem + 40, 4);
    cr_assert_eq(o4, 9);
    free(f);
}

/* ---- concurrency: no update lost ---- */

/* Each thread is an origin of its own (its own window record and counters, as another process
 * would have), all reaching one target's memory and control block: what it takes is that the
 * mechanism is atomic, not that a lock serializes the callers. */
#define THREADS 4
#define ITERS 20000

typedef struct job {
    fake_t *shared;
    dt_base_t base;
    size_t off;
    const void *one;
    int origin;
} job_t;

static void *hammer(void *arg)
{
    job_t *j = arg;
    fake_t *f = fake_new();
    f->t.mapped = j->shared->mem;
    f->t.base = (uint64_t)(uintptr_t)j->shared->mem;
    f->t.ctrl = j->shared->ctrl;
    /* its accumulate lock value is 1 + origin; origins above the window's one rank, so that
     * no holder is looked up among the (absent) job's peers */
    f->w.rank = 1 + j->origin;
    rma_piece_t pc = {0, dtype_base_size(j->base)};
    void *bad = NULL;
    for (int i = 0; i < ITERS && !bad; i++)
        if (rma_amo(&f->w, 0, j->off, &pc, 1, j->base, RMP_SUM, j->one, pc.len, NULL, NULL))
            bad = (void *)1;
    free(f);
    return bad;
}

static void run(fake_t *shared, dt_base_t base, size_t off, const void *one)
{
    pthread_t th[THREADS];
    job_t jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (job_t){shared, base, off, one, i};
        cr_assert_eq(pthread_create(&th[i], NULL, hammer, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(th[i], &r);
        cr_assert_null(r);
    }
}

Test(rma_amo, threads_lose_no_update, .timeout = 120)
{
    fake_t *f = fake_new();
    int64_t one64 = 1;
    double oned = 1.0;
    int32_t one32 = 1;
    run(f, DT_INT64, 0, &one64); /* FADD */
    run(f, DT_DOUBLE, 8, &oned); /* CAS loop */
    run(f, DT_INT32, 16, &one32); /* accumulate lock */
    run(f, DT_INT64, 20, &one64); /* misaligned: the lock too */
    int64_t a, d4;
    double b;
    int32_t c;
    memcpy(&a, f->mem, 8);
    memcpy(&b, f->mem + 8, 8);
    memcpy(&c, f->mem + 16, 4);
    memcpy(&d4, f->mem + 20, 8);
    cr_assert_eq(a, THREADS * ITERS);
    cr_assert_eq(b, (double)(THREADS * ITERS));
    cr_assert_eq(c, THREADS * ITERS);
    cr_assert_eq(d4, THREADS * ITERS);
    cr_assert_eq(f->ctrl[RMA_CTRL_ACC / 8], 0);
    free(f);
}

Test(rma_amo, combine8_is_op_reduce, .timeout = 30)
{
    for (int b = DT_NONE + 1; b < DT_NBUILTIN; b++) {
        if (dtype_base_size((dt_base_t)b) != 8)
            continue;
        for (rmp_op_t op = RMP_SUM; op <= RMP_LXOR; op++) {
            if (op_builtin_check(op, (dt_base_t)b))
                continue;
            uint64_t old, in, want;
            fill((unsigned char *)&old, 8, (unsigned)op);
            fill((unsigned char *)&in, 8, (unsigned)b);
            want = old;
            op_reduce(op, (dt_base_t)b, &in, &want, 1);
            cr_assert_eq(rma_amo_combine8(op, (dt_base_t)b, old, &in), want);
        }
        uint64_t in = 42;
        cr_assert_eq(rma_amo_combine8(RMP_REPLACE, (dt_base_t)b, 7, &in), 42);
        cr_assert_eq(rma_amo_combine8(RMP_NO_OP, (dt_base_t)b, 7, &in), 7);
    }
}
