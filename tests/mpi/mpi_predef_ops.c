/* mpi_predef_ops.c — every builtin op on every predefined type it is defined for, the way
 * MPICH's coll tests (opsum, opprod, opmin, opmax, opland, oplor, oplxor, opband, opbor,
 * opbxor, opminloc, opmaxloc, reduce_local) do: MPI_Reduce (root moving with the op),
 * MPI_Allreduce and MPI_Iallreduce, and a fold of everyone's data with MPI_Reduce_local,
 * at counts 1, 7 and 700, against a serial reference computed here (complex products with
 * C99 complex arithmetic; data chosen so every result is exact in any order); and
 * MPI_ERR_OP, from the collective and from MPI_Reduce_local, for every pair the op is not
 * defined for (MPI-3.1 5.9.2; rmp also allows the logical ops on the floating types, long
 * double too, as MPICH does: MPICH's oplxor reduces MPI_LONG_DOUBLE). Every named type is its
 * own handle, so each one's reductions run here, the synonyms' (MPI_INT32_T, MPI_INTEGER,
 * MPI_CXX_BOOL...) exactly as their C types'. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "mpicheck.h"

typedef enum { C_SINT, C_UINT, C_BYTE, C_REAL, C_CPLX, C_BOOL, C_LOGICAL, C_WCHAR, C_PAIR } cls_t;

typedef struct {
    const char *name;
    MPI_Datatype t;
    cls_t c;
    int size;             /* of the value (pairs: of the value alone) */
    int ext;              /* of one element */
    bool ireal;           /* pairs: the index has the value's (real) type */
    bool vreal;           /* pairs: the value is a real */
    int ioff, isize;      /* pairs: where the index is, its size */
} tdesc;

struct p_fi { float v; int i; };
struct p_di { double v; int i; };
struct p_li { long v; int i; };
struct p_si { short v; int i; };
struct p_ldi { long double v; int i; };

#define S(H, C, CT) {#H, H, C, (int)sizeof(CT), (int)sizeof(CT), false, false, 0, 0}
#define P(H, ST, VREAL) {#H, H, C_PAIR, (int)sizeof(((ST *)0)->v), (int)sizeof(ST), false, VREAL, \
                         (int)offsetof(ST, i), (int)sizeof(int)}
#define PF(H, VT) {#H, H, C_PAIR, (int)sizeof(VT), 2 * (int)sizeof(VT), true, true, \
                   (int)sizeof(VT), (int)sizeof(VT)}

static const tdesc types[] = {
    S(MPI_SIGNED_CHAR, C_SINT, signed char),
    S(MPI_SHORT, C_SINT, short),
    S(MPI_INT, C_SINT, int),
    S(MPI_LONG, C_SINT, long),
    S(MPI_LONG_LONG, C_SINT, long long),
    S(MPI_LONG_LONG_INT, C_SINT, long long),
    S(MPI_INT8_T, C_SINT, int8_t),
    S(MPI_INT16_T, C_SINT, int16_t),
    S(MPI_INT32_T, C_SINT, int32_t),
    S(MPI_INT64_T, C_SINT, int64_t),
    S(MPI_AINT, C_SINT, MPI_Aint),
    S(MPI_OFFSET, C_SINT, MPI_Offset),
    S(MPI_COUNT, C_SINT, MPI_Count),
    S(MPI_INTEGER, C_SINT, int32_t),
    S(MPI_INTEGER1, C_SINT, int8_t),
    S(MPI_INTEGER2, C_SINT, int16_t),
    S(MPI_INTEGER4, C_SINT, int32_t),
    S(MPI_INTEGER8, C_SINT, int64_t),
    S(MPI_UNSIGNED_CHAR, C_UINT, unsigned char),
    S(MPI_UNSIGNED_SHORT, C_UINT, unsigned short),
    S(MPI_UNSIGNED, C_UINT, unsigned),
    S(MPI_UNSIGNED_LONG, C_UINT, unsigned long),
    S(MPI_UNSIGNED_LONG_LONG, C_UINT, unsigned long long),
    S(MPI_UINT8_T, C_UINT, uint8_t),
    S(MPI_UINT16_T, C_UINT, uint16_t),
    S(MPI_UINT32_T, C_UINT, uint32_t),
    S(MPI_UINT64_T, C_UINT, uint64_t),
    S(MPI_BYTE, C_BYTE, unsigned char),
    S(MPI_FLOAT, C_REAL, float),
    S(MPI_DOUBLE, C_REAL, double),
    S(MPI_LONG_DOUBLE, C_REAL, long double),
    S(MPI_REAL, C_REAL, float),
    S(MPI_DOUBLE_PRECISION, C_REAL, double),
    S(MPI_REAL4, C_REAL, float),
    S(MPI_REAL8, C_REAL, double),
    S(MPI_C_COMPLEX, C_CPLX, float _Complex),
    S(MPI_C_FLOAT_COMPLEX, C_CPLX, float _Complex),
    S(MPI_C_DOUBLE_COMPLEX, C_CPLX, double _Complex),
    S(MPI_C_LONG_DOUBLE_COMPLEX, C_CPLX, long double _Complex),
    S(MPI_CXX_FLOAT_COMPLEX, C_CPLX, float _Complex),
    S(MPI_CXX_DOUBLE_COMPLEX, C_CPLX, double _Complex),
    S(MPI_CXX_LONG_DOUBLE_COMPLEX, C_CPLX, long double _Complex),
    S(MPI_COMPLEX, C_CPLX, float _Complex),
    S(MPI_DOUBLE_COMPLEX, C_CPLX, double _Complex),
    S(MPI_COMPLEX8, C_CPLX, float _Complex),
    S(MPI_COMPLEX16, C_CPLX, double _Complex),
    S(MPI_C_BOOL, C_BOOL, _Bool),
    S(MPI_CXX_BOOL, C_BOOL, _Bool),
    S(MPI_LOGICAL, C_LOGICAL, int32_t),
    S(MPI_WCHAR, C_WCHAR, wchar_t),
    {"MPI_2INT", MPI_2INT, C_PAIR, 4, 8, false, false, 4, 4},
    {"MPI_2INTEGER", MPI_2INTEGER, C_PAIR, 4, 8, false, false, 4, 4},
    P(MPI_FLOAT_INT, struct p_fi, true),
    P(MPI_DOUBLE_INT, struct p_di, true),
    P(MPI_LONG_INT, struct p_li, false),
    P(MPI_SHORT_INT, struct p_si, false),
    P(MPI_LONG_DOUBLE_INT, struct p_ldi, true),
    PF(MPI_2REAL, float),
    PF(MPI_2DOUBLE_PRECISION, double),
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static const struct {
    const char *name;
    MPI_Op op;
} ops[] = {
    {"MPI_SUM", MPI_SUM},       {"MPI_PROD", MPI_PROD},     {"MPI_MIN", MPI_MIN},
    {"MPI_MAX", MPI_MAX},       {"MPI_BAND", MPI_BAND},     {"MPI_BOR", MPI_BOR},
    {"MPI_BXOR", MPI_BXOR},     {"MPI_LAND", MPI_LAND},     {"MPI_LOR", MPI_LOR},
    {"MPI_LXOR", MPI_LXOR},     {"MPI_MINLOC", MPI_MINLOC}, {"MPI_MAXLOC", MPI_MAXLOC},
    {"MPI_REPLACE", MPI_REPLACE}, {"MPI_NO_OP", MPI_NO_OP},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

static bool defined(MPI_Op op, const tdesc *d)
{
    bool integer = d->c == C_SINT || d->c == C_UINT;
    if (op == MPI_SUM || op == MPI_PROD)
        return integer || d->c == C_REAL || d->c == C_CPLX;
    if (op == MPI_MIN || op == MPI_MAX)
        return integer || d->c == C_REAL;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return integer || d->c == C_BYTE;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return integer || d->c == C_BOOL || d->c == C_LOGICAL || d->c == C_REAL;
    if (op == MPI_MINLOC || op == MPI_MAXLOC)
        return d->c == C_PAIR;
    return false; /* MPI_REPLACE, MPI_NO_OP */
}

/* ---- values of every size, through memcpy ---- */
static long long get_s(const void *p, int sz)
{
    int8_t a; int16_t b; int32_t c; int64_t d;
    switch (sz) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    default: memcpy(&d, p, 8); return d;
    }
}
static unsigned long long get_u(const void *p, int sz)
{
    uint8_t a; uint16_t b; uint32_t c; uint64_t d;
    switch (sz) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    default: memcpy(&d, p, 8); return d;
    }
}
static void put_u(void *p, int sz, unsigned long long v)
{
    uint8_t a = (uint8_t)v; uint16_t b = (uint16_t)v; uint32_t c = (uint32_t)v; uint64_t d = v;
    switch (sz) {
    case 1: memcpy(p, &a, 1); break;
    case 2: memcpy(p, &b, 2); break;
    case 4: memcpy(p, &c, 4); break;
    default: memcpy(p, &d, 8); break;
    }
}
static long double get_r(const void *p, int sz)
{
    float f; double d; long double l;
    if (sz == (int)sizeof(float)) { memcpy(&f, p, sizeof f); return f; }
    if (sz == (int)sizeof(double)) { memcpy(&d, p, sizeof d); return d; }
    memcpy(&l, p, sizeof l);
    return l;
}
static void put_r(void *p, int sz, long double v)
{
    float f = (float)v; double d = (double)v; long double l = v;
    if (sz == (int)sizeof(float)) memcpy(p, &f, sizeof f);
    else if (sz == (int)sizeof(double)) memcpy(p, &d, sizeof d);
    else memcpy(p, &l, sizeof l);
}
typedef long double _Complex cplx;
static cplx get_c(const void *p, int sz)
{
    float _Complex f; double _Complex d; cplx l;
    if (sz == (int)sizeof(float _Complex)) { memcpy(&f, p, sizeof f); return f; }
    if (sz == (int)sizeof(double _Complex)) { memcpy(&d, p, sizeof d); return d; }
    memcpy(&l, p, sizeof l);
    return l;
}
static void put_c(void *p, int sz, cplx v)
{
    float _Complex f = (float _Complex)v; double _Complex d = (double _Complex)v;
    if (sz == (int)sizeof(float _Complex)) memcpy(p, &f, sizeof f);
    else if (sz == (int)sizeof(double _Complex)) memcpy(p, &d, sizeof d);
    else memcpy(p, &v, sizeof v);
}
/* a pair's value and index as long doubles (exact for every value used here) */
static long double pv(const tdesc *d, const char *e)
{
    return d->vreal ? get_r(e, d->size) : (long double)get_s(e, d->size);
}
static long double pi(const tdesc *d, const char *e)
{
    return d->ireal ? get_r(e + d->ioff, d->isize) : (long double)get_s(e + d->ioff, d->isize);
}

/* rank r's element i; exact small values so that any order of combining gives one answer */
static void gen(const tdesc *d, int r, int i, char *e)
{
    static const int four[] = {-2, -1, 1, 2}, imag[] = {-1, 0, 1, 2};
    int v = (r * 5 + i * 3 + 1) % 7;
    switch (d->c) {
    case C_SINT: put_u(e, d->size, (unsigned long long)(long long)(v - 3)); break;
    case C_UINT: put_u(e, d->size, (unsigned long long)(v * 37 + r)); break;
    case C_BYTE: put_u(e, 1, (unsigned)(r * 29 + i * 13) & 0xff); break;
    case C_REAL: put_r(e, d->size, four[(r + i) % 4]); break;
    case C_CPLX: {
        cplx z = four[(r + i) % 4];
        __imag__ z = imag[(r * 3 + i) % 4];
        put_c(e, d->size, z);
        break;
    }
    case C_BOOL: {
        _Bool b = i % 5 == 0 || (r + i) % 3 != 0;
        memcpy(e, &b, 1);
        break;
    }
    case C_LOGICAL: put_u(e, 4, i % 5 == 0 || (r + i) % 3 != 0); break;
    case C_WCHAR: {
        wchar_t w = (wchar_t)(r + i);
        memcpy(e, &w, sizeof w);
        break;
    }
    case C_PAIR:
        memset(e, 0, (size_t)d->ext);
        if (d->vreal)
            put_r(e, d->size, (r * 3 + i) % 4 - 1);
        else
            put_u(e, d->size, (unsigned long long)(long long)((r * 3 + i) % 4 - 1));
        if (d->ireal)
            put_r(e + d->ioff, d->isize, r);
        else
            put_u(e + d->ioff, d->isize, (unsigned long long)r);
        break;
    }
}

/* out = a op b (out may be b) */
static void ref(MPI_Op op, const tdesc *d, const char *a, const char *b, char *out)
{
    int sz = d->size;
    if (d->c == C_SINT || d->c == C_UINT || d->c == C_BYTE) {
        bool s = d->c == C_SINT;
        long long x = get_s(a, sz), y = get_s(b, sz);
        unsigned long long ux = get_u(a, sz), uy = get_u(b, sz), r = 0;
        bool lt = s ? x < y : ux < uy;
        if (op == MPI_SUM) r = ux + uy;
        else if (op == MPI_PROD) r = ux * uy;
        else if (op == MPI_MIN) r = lt ? ux : uy;
        else if (op == MPI_MAX) r = lt ? uy : ux;
        else if (op == MPI_BAND) r = ux & uy;
        else if (op == MPI_BOR) r = ux | uy;
        else if (op == MPI_BXOR) r = ux ^ uy;
        else if (op == MPI_LAND) r = ux && uy;
        else if (op == MPI_LOR) r = ux || uy;
        else if (op == MPI_LXOR) r = !ux != !uy;
        put_u(out, sz, r);
    } else if (d->c == C_REAL) {
        long double x = get_r(a, sz), y = get_r(b, sz), r = 0;
        if (op == MPI_SUM) r = x + y;
        else if (op == MPI_PROD) r = x * y;
        else if (op == MPI_MIN) r = x < y ? x : y;
        else if (op == MPI_MAX) r = x > y ? x : y;
        else if (op == MPI_LAND) r = x != 0 && y != 0;
        else if (op == MPI_LOR) r = x != 0 || y != 0;
        else if (op == MPI_LXOR) r = (x != 0) != (y != 0);
        put_r(out, sz, r);
    } else if (d->c == C_CPLX) {
        cplx x = get_c(a, sz), y = get_c(b, sz);
        put_c(out, sz, op == MPI_SUM ? x + y : x * y);
    } else if (d->c == C_BOOL || d->c == C_LOGICAL) {
        bool x = d->c == C_BOOL ? *a != 0 : get_u(a, 4) != 0;
        bool y = d->c == C_BOOL ? *b != 0 : get_u(b, 4) != 0;
        bool r = op == MPI_LAND ? x && y : op == MPI_LOR ? x || y : x != y;
        if (d->c == C_BOOL) {
            _Bool rb = r;
            memcpy(out, &rb, 1);
        } else {
            put_u(out, 4, r);
        }
    } else if (d->c == C_PAIR) {
        long double xv = pv(d, a), yv = pv(d, b), xi = pi(d, a), yi = pi(d, b);
        bool take_a = op == MPI_MINLOC ? xv < yv : xv > yv;
        if (take_a || (xv == yv && xi < yi))
            memmove(out, a, (size_t)d->ext);
        else
            memmove(out, b, (size_t)d->ext);
    }
}

/* Equal as values (padding ignored). */
static bool same(const tdesc *d, const char *a, const char *b)
{
    switch (d->c) {
    case C_REAL: return get_r(a, d->size) == get_r(b, d->size);
    case C_CPLX: return get_c(a, d->size) == get_c(b, d->size);
    case C_BOOL: return (*a != 0) == (*b != 0) && (*a == 0 || *a == 1);
    case C_PAIR: return pv(d, a) == pv(d, b) && pi(d, a) == pi(d, b);
    default: return memcmp(a, b, (size_t)d->size) == 0;
    }
}

static void show(const tdesc *d, const char *e, char *s, size_t n)
{
    switch (d->c) {
    case C_REAL: snprintf(s, n, "%Lg", get_r(e, d->size)); break;
    case C_CPLX: {
        cplx z = get_c(e, d->size);
        snprintf(s, n, "%Lg%+Lgi", (long double)__real__ z, (long double)__imag__ z);
        break;
    }
    case C_PAIR: snprintf(s, n, "{%Lg, %Lg}", pv(d, e), pi(d, e)); break;
    case C_UINT: case C_BYTE: case C_LOGICAL:
        snprintf(s, n, "%llu", get_u(e, d->size)); break;
    default: snprintf(s, n, "%lld", get_s(e, d->size)); break;
    }
}

static int check_result(const char *call, const tdesc *d, const char *opn, int count,
                        const char *got, const char *want)
{
    for (int i = 0; i < count; i++) {
        const char *g = got + (size_t)i * (size_t)d->ext, *w = want + (size_t)i * (size_t)d->ext;
        if (!same(d, g, w)) {
            char gs[96], ws[96];
            show(d, g, gs, sizeof gs);
            show(d, w, ws, sizeof ws);
            FAIL("%s(%s, %s, count %d)[%d] = %s, expected %s", call, d->name, opn, count, i, gs,
                 ws);
            return 1;
        }
    }
    return 0;
}

static void expect_op_err(const char *what, int rc)
{
    int cls = -1;
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_OP)
        FAIL("%s: returned %d of class %d, expected MPI_ERR_OP", what, rc, cls);
}

static void t_ops(int rank, int size)
{
    static const int counts[] = {1, 7, 700};
    const int maxc = 700;
    size_t cap = (size_t)maxc * 64;
    char *in = malloc(cap), *out = malloc(cap), *want = malloc(cap), *acc = malloc(cap),
         *tmp = malloc(cap);
    MPI_Datatype seen[NTYPES];
    int nseen = 0;
    for (int k = 0; k < NTYPES; k++) {
        const tdesc *d = &types[k];
        /* every named type is its own handle (MPI_INT32_T is not MPI_INT) */
        for (int j = 0; j < nseen; j++)
            if (seen[j] == d->t)
                FAIL("%s shares its handle %d with an earlier type", d->name, (int)d->t);
        seen[nseen++] = d->t;
        for (int o = 0; o < NOPS; o++) {
            MPI_Op op = ops[o].op;
            char what[128];
            if (!defined(op, d)) {
                snprintf(what, sizeof what, "MPI_Allreduce(%s, %s)", d->name, ops[o].name);
                memset(in, 0, cap);
                expect_op_err(what, MPI_Allreduce(in, out, 3, d->t, op, MPI_COMM_WORLD));
                snprintf(what, sizeof what, "MPI_Reduce(%s, %s)", d->name, ops[o].name);
                expect_op_err(what, MPI_Reduce(in, out, 3, d->t, op, 0, MPI_COMM_WORLD));
                snprintf(what, sizeof what, "MPI_Reduce_local(%s, %s)", d->name, ops[o].name);
                expect_op_err(what, MPI_Reduce_local(in, out, 3, d->t, op));
                continue;
            }
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                int count = counts[ci];
                size_t ext = (size_t)d->ext;
                /* the reference: rank 0's data op (rank 1's op (... op rank n-1's)) */
                for (int i = 0; i < count; i++)
                    gen(d, size - 1, i, want + (size_t)i * ext);
                for (int r = size - 2; r >= 0; r--)
                    for (int i = 0; i < count; i++) {
                        gen(d, r, i, tmp);
                        ref(op, d, tmp, want + (size_t)i * ext, want + (size_t)i * ext);
                    }
                for (int i = 0; i < count; i++)
                    gen(d, rank, i, in + (size_t)i * ext);

                memset(out, 0x5a, cap);
                CHECK(MPI_Allreduce(in, out, count, d->t, op, MPI_COMM_WORLD));
                check_result("MPI_Allreduce", d, ops[o].name, count, out, want);

                int root = (o + (int)ci) % size;
                memset(out, 0x5a, cap);
                CHECK(MPI_Reduce(in, out, count, d->t, op, root, MPI_COMM_WORLD));
                if (rank == root)
                    check_result("MPI_Reduce", d, ops[o].name, count, out, want);

                if (count == 7) { /* nonblocking, in place */
                    MPI_Request req;
                    memcpy(out, in, (size_t)count * ext);
                    CHECK(MPI_Iallreduce(MPI_IN_PLACE, out, count, d->t, op, MPI_COMM_WORLD,
                                         &req));
                    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                    check_result("MPI_Iallreduce", d, ops[o].name, count, out, want);
                }

                /* every rank folds everyone's data itself, in MPI's order */
                for (int i = 0; i < count; i++)
                    gen(d, size - 1, i, acc + (size_t)i * ext);
                for (int r = size - 2; r >= 0; r--) {
                    for (int i = 0; i < count; i++)
                        gen(d, r, i, tmp + (size_t)i * ext);
                    CHECK(MPI_Reduce_local(tmp, acc, count, d->t, op));
                }
                check_result("MPI_Reduce_local", d, ops[o].name, count, acc, want);
            }
        }
    }
    free(in);
    free(out);
    free(want);
    free(acc);
    free(tmp);
}

/* Scan of a complex sum and of a long double product: prefixes, in rank order. */
static void t_scan(int rank, int size)
{
    double _Complex z = (double)(rank + 1) + (double)(rank % 3) * 1.0i, s = 0, want = 0;
    for (int r = 0; r <= rank; r++)
        want += (double)(r + 1) + (double)(r % 3) * 1.0i;
    CHECK(MPI_Scan(&z, &s, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
    if (s != want)
        FAIL("MPI_Scan(C_DOUBLE_COMPLEX, SUM) = %g%+gi, expected %g%+gi", __real__ s, __imag__ s,
             __real__ want, __imag__ want);
    long double x = rank + 1, p = 0, pw = 1;
    for (int r = 0; r <= rank; r++)
        pw *= r + 1;
    CHECK(MPI_Scan(&x, &p, 1, MPI_LONG_DOUBLE, MPI_PROD, MPI_COMM_WORLD));
    if (p != pw)
        FAIL("MPI_Scan(LONG_DOUBLE, PROD) = %Lg, expected %Lg", p, pw);
    (void)size;
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 80);
    t_ops(mc_rank, size);
    t_scan(mc_rank, size);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Finalize());
    return mc_done("mpi_predef_ops");
}
