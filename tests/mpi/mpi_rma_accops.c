/* mpi_rma_accops.c — accumulate, get_accumulate, fetch_and_op and compare_and_swap on every
 * predefined type with every op that applies to it, on allocated and created windows, 1 to
 * 4096 elements (the bulk path: one op over the whole block), and on dynamic windows (active
 * messages), pair types also through a strided derived type, each checked element by element
 * against a serial reference computed here. Each rank accumulates into its right neighbour
 * only (one origin per target: REPLACE and float sums have one right answer). */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#include "mpicheck.h"

typedef enum { K_SINT, K_UINT, K_FLT, K_BOOL, K_BYTE, K_CPLX, K_PAIR } kind_t;

typedef struct {
    MPI_Datatype t;
    const char *name;
    kind_t kind;
    int id; /* which C type within the kind (see the macros below) */
} tdesc_t;

#define PAIR(V) struct { V v; int i; }
typedef PAIR(int) p2int_t;
typedef PAIR(float) pfi_t;
typedef PAIR(double) pdi_t;
typedef PAIR(long) pli_t;
typedef PAIR(short) psi_t;
typedef PAIR(long double) pldi_t;

static const tdesc_t types[] = {
    {MPI_SIGNED_CHAR, "signed_char", K_SINT, 1}, {MPI_SHORT, "short", K_SINT, 2},
    {MPI_INT, "int", K_SINT, 4}, {MPI_LONG, "long", K_SINT, 8},
    {MPI_LONG_LONG, "long_long", K_SINT, 8}, {MPI_INT8_T, "int8", K_SINT, 1},
    {MPI_INT16_T, "int16", K_SINT, 2}, {MPI_INT32_T, "int32", K_SINT, 4},
    {MPI_INT64_T, "int64", K_SINT, 8}, {MPI_UNSIGNED_CHAR, "unsigned_char", K_UINT, 1},
    {MPI_UNSIGNED_SHORT, "unsigned_short", K_UINT, 2}, {MPI_UNSIGNED, "unsigned", K_UINT, 4},
    {MPI_UNSIGNED_LONG, "unsigned_long", K_UINT, 8},
    {MPI_UNSIGNED_LONG_LONG, "unsigned_long_long", K_UINT, 8},
    {MPI_UINT8_T, "uint8", K_UINT, 1}, {MPI_UINT16_T, "uint16", K_UINT, 2},
    {MPI_UINT32_T, "uint32", K_UINT, 4}, {MPI_UINT64_T, "uint64", K_UINT, 8},
    {MPI_FLOAT, "float", K_FLT, 4}, {MPI_DOUBLE, "double", K_FLT, 8},
    {MPI_LONG_DOUBLE, "long_double", K_FLT, 16}, {MPI_C_BOOL, "c_bool", K_BOOL, 1},
    {MPI_BYTE, "byte", K_BYTE, 1}, {MPI_C_FLOAT_COMPLEX, "c_float_complex", K_CPLX, 8},
    {MPI_C_DOUBLE_COMPLEX, "c_double_complex", K_CPLX, 16}, {MPI_2INT, "2int", K_PAIR, 0},
    {MPI_FLOAT_INT, "float_int", K_PAIR, 1}, {MPI_DOUBLE_INT, "double_int", K_PAIR, 2},
    {MPI_LONG_INT, "long_int", K_PAIR, 3}, {MPI_SHORT_INT, "short_int", K_PAIR, 4},
    {MPI_LONG_DOUBLE_INT, "long_double_int", K_PAIR, 5},
};
#define NTYPES (int)(sizeof types / sizeof types[0])

static const MPI_Op all_ops[] = {MPI_SUM, MPI_PROD, MPI_MIN,  MPI_MAX,    MPI_LAND, MPI_LOR,
                                 MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC,
                                 MPI_REPLACE};
static const char *op_names[] = {"sum", "prod", "min", "max", "land", "lor", "lxor", "band",
                                 "bor", "bxor", "minloc", "maxloc", "replace"};

static bool op_applies(const tdesc_t *d, MPI_Op op)
{
    if (op == MPI_REPLACE)
        return true;
    bool arith = op == MPI_SUM || op == MPI_PROD, order = op == MPI_MIN || op == MPI_MAX;
    bool logic = op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR;
    bool bits = op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR;
    switch (d->kind) {
    case K_SINT: case K_UINT: return arith || order || logic || bits;
    case K_FLT: return arith || order;
    case K_BOOL: return logic;
    case K_BYTE: return bits;
    case K_CPLX: return arith;
    default: return op == MPI_MINLOC || op == MPI_MAXLOC;
    }
}

/* Element i of a buffer from a small integer k: exact in every type, no overflow in a product. */
#define SET_NUM(T) ((T *)buf)[i] = (T)k
#define SET_PAIR(P) ((P *)buf)[i].v = k % 7 + 1, ((P *)buf)[i].i = i
static void set_elem(const tdesc_t *d, void *buf, int i, int k)
{
    switch (d->kind * 100 + d->id) {
    case K_SINT * 100 + 1: SET_NUM(int8_t); break;
    case K_SINT * 100 + 2: SET_NUM(int16_t); break;
    case K_SINT * 100 + 4: SET_NUM(int32_t); break;
    case K_SINT * 100 + 8: SET_NUM(int64_t); break;
    case K_UINT * 100 + 1: case K_BYTE * 100 + 1: SET_NUM(uint8_t); break;
    case K_UINT * 100 + 2: SET_NUM(uint16_t); break;
    case K_UINT * 100 + 4: SET_NUM(uint32_t); break;
    case K_UINT * 100 + 8: SET_NUM(uint64_t); break;
    case K_FLT * 100 + 4: SET_NUM(float); break;
    case K_FLT * 100 + 8: SET_NUM(double); break;
    case K_FLT * 100 + 16: SET_NUM(long double); break;
    case K_BOOL * 100 + 1: ((bool *)buf)[i] = k & 1; break;
    case K_CPLX * 100 + 8: ((float complex *)buf)[i] = k + (k % 3) * I; break;
    case K_CPLX * 100 + 16: ((double complex *)buf)[i] = k + (k % 3) * I; break;
    case K_PAIR * 100 + 0: SET_PAIR(p2int_t); break;
    case K_PAIR * 100 + 1: SET_PAIR(pfi_t); break;
    case K_PAIR * 100 + 2: SET_PAIR(pdi_t); break;
    case K_PAIR * 100 + 3: SET_PAIR(pli_t); break;
    case K_PAIR * 100 + 4: SET_PAIR(psi_t); break;
    case K_PAIR * 100 + 5: SET_PAIR(pldi_t); break;
    }
}

/* x = y op x over n elements, serially (the reference). */
#define RED_ORDER(T)                                                                           \
    for (int j = 0; j < n; j++) {                                                              \
        T *x = (T *)t + j, y = ((const T *)o)[j];                                              \
        *x = op == MPI_SUM ? *x + y : op == MPI_PROD ? *x * y : op == MPI_MIN ? (y < *x ? y : *x) \
           : op == MPI_MAX ? (y > *x ? y : *x) : op == MPI_LAND ? (T)(*x && y)                 \
           : op == MPI_LOR ? (T)(*x || y) : op == MPI_LXOR ? (T)(!*x != !y) : y;               \
    }
#define RED_INT(T)                                                                             \
    for (int j = 0; j < n; j++) {                                                              \
        T *x = (T *)t + j, y = ((const T *)o)[j];                                              \
        if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)                                 \
            *x = op == MPI_BAND ? *x & y : op == MPI_BOR ? *x | y : *x ^ y;                    \
        else if (op != MPI_REPLACE && op != MPI_LAND && op != MPI_LOR && op != MPI_LXOR)      \
            *x = op == MPI_SUM ? *x + y : op == MPI_PROD ? *x * y : op == MPI_MIN ? (y < *x ? y : *x) \
                                                                  : (y > *x ? y : *x);          \
        else                                                                                   \
            *x = op == MPI_LAND ? (T)(*x && y) : op == MPI_LOR ? (T)(*x || y)                  \
               : op == MPI_LXOR ? (T)(!*x != !y) : y;                                          \
    }
#define RED_CPLX(T)                                                                            \
    for (int j = 0; j < n; j++) {                                                              \
        T *x = (T *)t + j, y = ((const T *)o)[j];                                              \
        *x = op == MPI_SUM ? *x + y : op == MPI_PROD ? *x * y : y;                             \
    }
#define RED_PAIR(P)                                                                            \
    for (int j = 0; j < n; j++) {                                                              \
        P *x = (P *)t + j, y = ((const P *)o)[j];                                              \
        bool take = op == MPI_REPLACE || (op == MPI_MINLOC ? y.v < x->v : y.v > x->v) ||        \
                    (y.v == x->v && y.i < x->i);                                               \
        if (take)                                                                              \
            x->v = y.v, x->i = y.i;                                                            \
    }
static void reference(const tdesc_t *d, MPI_Op op, const void *o, void *t, int n)
{
    switch (d->kind * 100 + d->id) {
    case K_SINT * 100 + 1: RED_INT(int8_t); break;
    case K_SINT * 100 + 2: RED_INT(int16_t); break;
    case K_SINT * 100 + 4: RED_INT(int32_t); break;
    case K_SINT * 100 + 8: RED_INT(int64_t); break;
    case K_UINT * 100 + 1: case K_BYTE * 100 + 1: RED_INT(uint8_t); break;
    case K_UINT * 100 + 2: RED_INT(uint16_t); break;
    case K_UINT * 100 + 4: RED_INT(uint32_t); break;
    case K_UINT * 100 + 8: RED_INT(uint64_t); break;
    case K_FLT * 100 + 4: RED_ORDER(float); break;
    case K_FLT * 100 + 8: RED_ORDER(double); break;
    case K_FLT * 100 + 16: RED_ORDER(long double); break;
    case K_BOOL * 100 + 1: RED_ORDER(bool); break;
    case K_CPLX * 100 + 8: RED_CPLX(float complex); break;
    case K_CPLX * 100 + 16: RED_CPLX(double complex); break;
    case K_PAIR * 100 + 0: RED_PAIR(p2int_t); break;
    case K_PAIR * 100 + 1: RED_PAIR(pfi_t); break;
    case K_PAIR * 100 + 2: RED_PAIR(pdi_t); break;
    case K_PAIR * 100 + 3: RED_PAIR(pli_t); break;
    case K_PAIR * 100 + 4: RED_PAIR(psi_t); break;
    case K_PAIR * 100 + 5: RED_PAIR(pldi_t); break;
    }
}

/* Elements equal by value (long double and the pairs have padding bytes nobody defines). */
#define SAME_NUM(T) return ((const T *)a)[i] == ((const T *)b)[i]
#define SAME_PAIR(P) return ((const P *)a)[i].v == ((const P *)b)[i].v && ((const P *)a)[i].i == ((const P *)b)[i].i
static bool same(const tdesc_t *d, const void *a, const void *b, int i)
{
    switch (d->kind * 100 + d->id) {
    case K_FLT * 100 + 16: SAME_NUM(long double);
    case K_PAIR * 100 + 0: SAME_PAIR(p2int_t);
    case K_PAIR * 100 + 1: SAME_PAIR(pfi_t);
    case K_PAIR * 100 + 2: SAME_PAIR(pdi_t);
    case K_PAIR * 100 + 3: SAME_PAIR(pli_t);
    case K_PAIR * 100 + 4: SAME_PAIR(psi_t);
    case K_PAIR * 100 + 5: SAME_PAIR(pldi_t);
    }
    int ts;
    MPI_Type_size(d->t, &ts);
    return !memcmp((const char *)a + (size_t)i * ts, (const char *)b + (size_t)i * ts, ts);
}

#define MAXN 4096
#define MAXE 32 /* the largest element's extent (long double) */
static int rank, size, right, left;
static char *mem, *want, *orig, *res, *before;
static MPI_Aint tdisp; /* the right neighbour's window memory: 0, or its address (dynamic) */

static void fill(const tdesc_t *d, void *buf, int n, int who, bool origin)
{
    memset(buf, 0, (size_t)MAXN * MAXE);
    for (int i = 0; i < n; i++)
        set_elem(d, buf, i, origin ? (i * 3 + who) % 4 + 1 : (i * 7) % 5 + 1);
}

static void expect(const tdesc_t *d, const void *got, const void *ref, int n, const char *what,
                   const char *op, const char *flavor)
{
    for (int i = 0; i < n; i++)
        if (!same(d, got, ref, i)) {
            FAIL("%s %s %s n=%d (%s window): element %d differs from the reference", what,
                 d->name, op, n, flavor, i);
            return;
        }
}

/* Before a case: my window's nt elements as the reference starts them, my origin's no
 * elements, the result cleared; everyone ready. */
static void setup(MPI_Win win, const tdesc_t *d, int nt, int no)
{
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    fill(d, mem, nt, rank, false);
    MPI_Win_unlock(rank, win);
    fill(d, orig, no, rank, true);
    memset(res, 0, (size_t)MAXN * MAXE);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* One (type, op, n): accumulate, then get_accumulate (fetch_and_op at n = 1), into the right
 * neighbour's window, each checked there against the reference. */
static void one_case(MPI_Win win, const tdesc_t *d, int k, int n, const char *flavor)
{
    MPI_Op op = all_ops[k];
    for (int pass = 0; pass < 2; pass++) {
        setup(win, d, n, n);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
        if (pass == 0)
            CHECK(MPI_Accumulate(orig, n, d->t, right, tdisp, n, d->t, op, win));
        else if (n == 1)
            CHECK(MPI_Fetch_and_op(orig, res, d->t, right, tdisp, op, win));
        else
            CHECK(MPI_Get_accumulate(orig, n, d->t, res, n, d->t, right, tdisp, n, d->t, op, win));
        MPI_Win_unlock(right, win);
        MPI_Barrier(MPI_COMM_WORLD);
        fill(d, want, n, left, false); /* what my window held, then left's contribution */
        fill(d, before, n, left, false);
        fill(d, orig, n, left, true);
        reference(d, op, orig, want, n);
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
        expect(d, mem, want, n, pass ? (n == 1 ? "fetch_and_op" : "get_accumulate") : "accumulate",
               op_names[k], flavor);
        MPI_Win_unlock(rank, win);
        fill(d, before, n, right, false); /* the right neighbour's window before mine came */
        if (pass)
            expect(d, res, before, n, "result of", op_names[k], flavor);
    }
}

/* A type derived from a pair type on the target (a vector of every other element), whose
 * values and indices lie in pieces apart from each other: accumulate MAXLOC, then
 * get_accumulate MINLOC with the same layout for the result, checked element by element. */
static void strided_case(MPI_Win win, const tdesc_t *d, const char *flavor)
{
    enum { N = 100 };
    MPI_Aint lb, ext;
    MPI_Datatype vt;
    if (d->kind != K_PAIR)
        return;
    MPI_Type_get_extent(d->t, &lb, &ext);
    CHECK(MPI_Type_vector(N, 1, 2, d->t, &vt));
    CHECK(MPI_Type_commit(&vt));
    for (int pass = 0; pass < 2; pass++) {
        MPI_Op op = pass ? MPI_MINLOC : MPI_MAXLOC;
        setup(win, d, 2 * N, N);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
        if (pass == 0)
            CHECK(MPI_Accumulate(orig, N, d->t, right, tdisp, 1, vt, op, win));
        else
            CHECK(MPI_Get_accumulate(orig, N, d->t, res, 1, vt, right, tdisp, 1, vt, op, win));
        MPI_Win_unlock(right, win);
        MPI_Barrier(MPI_COMM_WORLD);
        fill(d, want, 2 * N, left, false);
        fill(d, orig, N, left, true);
        for (int j = 0; j < N; j++)
            reference(d, op, orig + j * ext, want + 2 * j * ext, 1);
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
        expect(d, mem, want, 2 * N, pass ? "strided get_accumulate" : "strided accumulate",
               pass ? "minloc" : "maxloc", flavor);
        MPI_Win_unlock(rank, win);
        fill(d, before, 2 * N, right, false);
        for (int j = 0; j < N && pass; j++)
            if (!same(d, res, before, 2 * j)) {
                FAIL("strided get_accumulate %s (%s window): result %d wrong", d->name, flavor, j);
                break;
            }
    }
    MPI_Type_free(&vt);
}

/* compare_and_swap on the integer, logical and byte types: a matching compare swaps, a
 * different one does not, and the result is the old value both times. */
static void cas_case(MPI_Win win, const tdesc_t *d, const char *flavor)
{
    if (d->kind != K_SINT && d->kind != K_UINT && d->kind != K_BOOL && d->kind != K_BYTE)
        return;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    fill(d, mem, 1, rank, false); /* k = 1 */
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    char cmp[MAXE] = {0}, wrong[MAXE] = {0}, val[MAXE] = {0}, old[MAXE];
    set_elem(d, cmp, 0, 1);
    set_elem(d, wrong, 0, 2);
    set_elem(d, val, 0, d->kind == K_BOOL ? 0 : 3);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    CHECK(MPI_Compare_and_swap(val, wrong, old, d->t, right, tdisp, win));
    CHECK(MPI_Win_flush(right, win)); /* the result is defined once the operation completed */
    if (!same(d, old, cmp, 0))
        FAIL("cas %s (%s window): old value wrong (no swap)", d->name, flavor);
    CHECK(MPI_Compare_and_swap(val, cmp, old, d->t, right, tdisp, win));
    MPI_Win_unlock(right, win);
    if (!same(d, old, cmp, 0))
        FAIL("cas %s (%s window): old value wrong (swap)", d->name, flavor);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    if (!same(d, mem, val, 0))
        FAIL("cas %s (%s window): the target did not get the new value", d->name, flavor);
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 240);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    size_t bytes = (size_t)MAXN * MAXE;
    want = malloc(bytes), orig = malloc(bytes), res = malloc(bytes), before = malloc(bytes);
    char *created = malloc(bytes);
    static const int counts[] = {1, 3, 100, MAXN};
    /* dynamic windows: accumulates go as active messages even on the default path */
    static const char *flavors[] = {"allocated", "created", "dynamic"};
    for (int f = 0; f < 3; f++) {
        MPI_Win win;
        mem = created;
        tdisp = 0;
        if (f == 0)
            CHECK(MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
        else if (f == 1)
            CHECK(MPI_Win_create(mem, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        else {
            CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
            CHECK(MPI_Win_attach(win, mem, (MPI_Aint)bytes));
            MPI_Aint mine;
            MPI_Get_address(mem, &mine);
            CHECK(MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &tdisp, 1, MPI_AINT, right, 0,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        for (int t = 0; t < NTYPES; t++) {
            for (int k = 0; k < (int)(sizeof all_ops / sizeof all_ops[0]); k++)
                for (int c = 0; c < 4 && op_applies(&types[t], all_ops[k]); c++)
                    one_case(win, &types[t], k, counts[c], flavors[f]);
            cas_case(win, &types[t], flavors[f]);
            strided_case(win, &types[t], flavors[f]);
        }
        if (f == 2)
            CHECK(MPI_Win_detach(win, mem));
        CHECK(MPI_Win_free(&win));
    }
    free(want), free(orig), free(res), free(before), free(created);
    MPI_Finalize();
    return mc_done("mpi_rma_accops");
}
