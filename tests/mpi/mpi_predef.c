/* mpi_predef.c — mpi.h's predefined datatypes, as MPICH's datatype tests (typename,
 * sizedtypes, typefree) check them: every handle's size, extent and MPI_Type_get_name (each
 * named type its own handle and name), that builtins cannot be freed, what a named type is
 * to the other calls (envelope, contents, dup, attributes, Fortran handles, matching in
 * point-to-point against the C type of its size); then
 * MPI_Type_match_size, MPI_Type_create_f90_integer/real/complex, MPI_Op_commutative,
 * MPI_Reduce_local on derived types and with user ops (reduce_local, op_commutative), the
 * element counts of the new pair types, and every invalid argument's error class under
 * MPI_ERRORS_RETURN. The reductions themselves, op by op at every size: mpi_predef_ops.c. */
#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "mpicheck.h"

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d of class %d, expected class %d", what, rc, got, cls);
}

struct ldi { long double v; int i; };
struct li { long v; int i; };
struct fi { float v; int i; };
struct di { double v; int i; };
struct si { short v; int i; };

typedef struct {
    const char *expr; /* the handle's spelling in the program */
    MPI_Datatype t;
    const char *name; /* what MPI_Type_get_name answers */
    int size;
    MPI_Aint extent;
} tinfo;

#define T(H, NAME, SIZE, EXTENT) {#H, H, NAME, (int)(SIZE), (MPI_Aint)(EXTENT)}
#define TS(H, NAME, CT) T(H, NAME, sizeof(CT), sizeof(CT))

/* Every named type is its own handle and answers with its own name (MPICH's typename). */
#define N(H, CT) T(H, #H, sizeof(CT), sizeof(CT))
#define NF(H, SIZE) T(H, #H, SIZE, SIZE)

static const tinfo types[] = {
    /* C */
    N(MPI_CHAR, char),
    N(MPI_SIGNED_CHAR, signed char),
    N(MPI_UNSIGNED_CHAR, unsigned char),
    N(MPI_BYTE, unsigned char),
    N(MPI_SHORT, short),
    N(MPI_UNSIGNED_SHORT, unsigned short),
    N(MPI_INT, int),
    N(MPI_UNSIGNED, unsigned),
    N(MPI_LONG, long),
    N(MPI_UNSIGNED_LONG, unsigned long),
    N(MPI_LONG_LONG_INT, long long),
    N(MPI_LONG_LONG, long long),
    N(MPI_UNSIGNED_LONG_LONG, unsigned long long),
    N(MPI_FLOAT, float),
    N(MPI_DOUBLE, double),
    N(MPI_LONG_DOUBLE, long double),
    N(MPI_WCHAR, wchar_t),
    N(MPI_C_BOOL, _Bool),
    N(MPI_C_COMPLEX, float _Complex),
    N(MPI_C_FLOAT_COMPLEX, float _Complex),
    N(MPI_C_DOUBLE_COMPLEX, double _Complex),
    N(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
    N(MPI_INT8_T, int8_t),
    N(MPI_INT16_T, int16_t),
    N(MPI_INT32_T, int32_t),
    N(MPI_INT64_T, int64_t),
    N(MPI_UINT8_T, uint8_t),
    N(MPI_UINT16_T, uint16_t),
    N(MPI_UINT32_T, uint32_t),
    N(MPI_UINT64_T, uint64_t),
    N(MPI_AINT, MPI_Aint),
    N(MPI_OFFSET, MPI_Offset),
    N(MPI_COUNT, MPI_Count),
    N(MPI_PACKED, char),
    /* C++ (same layouts as C's) */
    N(MPI_CXX_BOOL, _Bool),
    N(MPI_CXX_FLOAT_COMPLEX, float _Complex),
    N(MPI_CXX_DOUBLE_COMPLEX, double _Complex),
    N(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex),
    /* Fortran (gfortran's sizes) */
    NF(MPI_INTEGER, 4),
    NF(MPI_REAL, 4),
    NF(MPI_DOUBLE_PRECISION, 8),
    NF(MPI_COMPLEX, 8),
    NF(MPI_DOUBLE_COMPLEX, 16),
    NF(MPI_LOGICAL, 4),
    NF(MPI_CHARACTER, 1),
    NF(MPI_INTEGER1, 1),
    NF(MPI_INTEGER2, 2),
    NF(MPI_INTEGER4, 4),
    NF(MPI_INTEGER8, 8),
    NF(MPI_REAL4, 4),
    NF(MPI_REAL8, 8),
    NF(MPI_COMPLEX8, 8),
    NF(MPI_COMPLEX16, 16),
    /* pairs: size = value + index, extent = the C struct's (Fortran's: two of the value) */
    T(MPI_2INT, "MPI_2INT", 8, 8),
    T(MPI_FLOAT_INT, "MPI_FLOAT_INT", 8, sizeof(struct fi)),
    T(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 12, sizeof(struct di)),
    T(MPI_LONG_INT, "MPI_LONG_INT", sizeof(long) + 4, sizeof(struct li)),
    T(MPI_SHORT_INT, "MPI_SHORT_INT", 6, sizeof(struct si)),
    T(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", sizeof(long double) + 4, sizeof(struct ldi)),
    T(MPI_2INTEGER, "MPI_2INTEGER", 8, 8),
    T(MPI_2REAL, "MPI_2REAL", 8, 8),
    T(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 16),
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static void t_types(void)
{
    for (int k = 0; k < NTYPES; k++) {
        const tinfo *d = &types[k];
        int size = -1, len = -1;
        MPI_Aint lb = -1, ext = -1;
        char name[MPI_MAX_OBJECT_NAME];
        if (d->t == MPI_DATATYPE_NULL) {
            FAIL("%s is MPI_DATATYPE_NULL", d->expr);
            continue;
        }
        CHECK(MPI_Type_size(d->t, &size));
        if (size != d->size)
            FAIL("MPI_Type_size(%s) = %d, expected %d", d->expr, size, d->size);
        CHECK(MPI_Type_get_extent(d->t, &lb, &ext));
        if (lb != 0 || ext != d->extent)
            FAIL("MPI_Type_get_extent(%s) = lb %ld extent %ld, expected 0 and %ld", d->expr,
                 (long)lb, (long)ext, (long)d->extent);
        CHECK(MPI_Type_get_name(d->t, name, &len));
        if (strcmp(name, d->name) != 0 || len != (int)strlen(d->name))
            FAIL("MPI_Type_get_name(%s) = '%s' (%d), expected '%s'", d->expr, name, len, d->name);
        /* builtins are committed already, and cannot be freed (typefree) */
        MPI_Datatype t = d->t;
        CHECK(MPI_Type_commit(&t));
        expect_class(d->expr, MPI_Type_free(&t), MPI_ERR_TYPE);
        if (t != d->t)
            FAIL("MPI_Type_free(%s) changed the handle", d->expr);
    }
    /* every named type is a datatype of its own */
    for (int i = 0; i < NTYPES; i++)
        for (int j = i + 1; j < NTYPES; j++)
            if (types[i].t == types[j].t)
                FAIL("%s and %s share handle %d", types[i].expr, types[j].expr, (int)types[i].t);
    if (MPI_REAL16 != MPI_DATATYPE_NULL || MPI_COMPLEX32 != MPI_DATATYPE_NULL ||
        MPI_INTEGER16 != MPI_DATATYPE_NULL)
        FAIL("MPI_REAL16 / MPI_COMPLEX32 / MPI_INTEGER16 should be MPI_DATATYPE_NULL");
    /* the ops are distinct handles too */
    const MPI_Op ops[] = {MPI_SUM,  MPI_PROD, MPI_MIN,    MPI_MAX,    MPI_BAND,
                          MPI_BOR,  MPI_BXOR, MPI_LAND,   MPI_LOR,    MPI_LXOR,
                          MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP, MPI_OP_NULL};
    int no = (int)(sizeof ops / sizeof ops[0]);
    for (int i = 0; i < no; i++)
        for (int j = i + 1; j < no; j++)
            if (ops[i] == ops[j])
                FAIL("ops %d and %d share handle %d", i, j, (int)ops[i]);
}

/* What a named type is to the other calls: MPI_COMBINER_NAMED, no contents, a dup of its
 * size and extent (envelope DUP, contents the named type itself), attributes of its own
 * (not its C twin's), a name of its own to set, the same handle back from Fortran. */
static void t_named(void)
{
    int kv = MPI_KEYVAL_INVALID, flag = -1;
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kv, NULL));
    for (int k = 0; k < NTYPES; k++) {
        const tinfo *d = &types[k];
        int ni = -1, na = -1, nt = -1, c = -1, ints[1];
        MPI_Aint addrs[1];
        MPI_Datatype dts[1] = {MPI_DATATYPE_NULL}, dup = MPI_DATATYPE_NULL;
        CHECK(MPI_Type_get_envelope(d->t, &ni, &na, &nt, &c));
        if (c != MPI_COMBINER_NAMED || ni || na || nt)
            FAIL("MPI_Type_get_envelope(%s) = combiner %d (%d, %d, %d), expected NAMED", d->expr,
                 c, ni, na, nt);
        expect_class(d->expr, MPI_Type_get_contents(d->t, 1, 1, 1, ints, addrs, dts),
                     MPI_ERR_TYPE);
        if ((MPI_Datatype)MPI_Type_f2c(MPI_Type_c2f(d->t)) != d->t)
            FAIL("MPI_Type_f2c(MPI_Type_c2f(%s)) is another handle", d->expr);
        CHECK(MPI_Type_dup(d->t, &dup));
        int size = -1;
        MPI_Aint lb = -1, ext = -1, tlb = -1, text = -1;
        CHECK(MPI_Type_size(dup, &size));
        CHECK(MPI_Type_get_extent(dup, &lb, &ext));
        CHECK(MPI_Type_get_true_extent(d->t, &tlb, &text));
        if (size != d->size || lb != 0 || ext != d->extent || tlb != 0 || text != d->extent)
            FAIL("MPI_Type_dup(%s): size %d extent %ld, true extent %ld; expected %d and %ld",
                 d->expr, size, (long)ext, (long)text, d->size, (long)d->extent);
        CHECK(MPI_Type_get_envelope(dup, &ni, &na, &nt, &c));
        if (c != MPI_COMBINER_DUP || ni != 0 || na != 0 || nt != 1)
            FAIL("MPI_Type_dup(%s): envelope combiner %d (%d, %d, %d)", d->expr, c, ni, na, nt);
        CHECK(MPI_Type_get_contents(dup, 0, 0, 1, ints, addrs, dts));
        if (dts[0] != d->t)
            FAIL("MPI_Type_dup(%s): contents name handle %d, expected %d", d->expr, (int)dts[0],
                 (int)d->t);
        CHECK(MPI_Type_free(&dup));
        /* an attribute on each: every one reads back its own */
        CHECK(MPI_Type_set_attr(d->t, kv, (void *)&types[k]));
    }
    for (int k = 0; k < NTYPES; k++) {
        void *v = NULL;
        CHECK(MPI_Type_get_attr(types[k].t, kv, &v, &flag));
        if (!flag || v != (void *)&types[k])
            FAIL("MPI_Type_get_attr(%s): flag %d, another type's value", types[k].expr, flag);
        CHECK(MPI_Type_delete_attr(types[k].t, kv));
    }
    CHECK(MPI_Type_free_keyval(&kv));
    /* renaming one renames only it */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK(MPI_Type_set_name(MPI_INT16_T, "sixteen"));
    CHECK(MPI_Type_get_name(MPI_SHORT, name, &len));
    if (strcmp(name, "MPI_SHORT") != 0)
        FAIL("renaming MPI_INT16_T renamed MPI_SHORT to '%s'", name);
    CHECK(MPI_Type_get_name(MPI_INT16_T, name, &len));
    if (strcmp(name, "sixteen") != 0)
        FAIL("MPI_INT16_T renamed: '%s'", name);
    CHECK(MPI_Type_set_name(MPI_INT16_T, "MPI_INT16_T"));
}

/* Types of one size and representation match in point-to-point and collectives (as in MPICH
 * and Open MPI): a ring where each sends as one and receives as the other, and a broadcast
 * whose root describes the data by the other name. */
static void t_named_match(int rank, int size)
{
    static const struct {
        MPI_Datatype a, b;
        const char *what;
    } pairs[] = {
        {MPI_INT, MPI_INT32_T, "MPI_INT / MPI_INT32_T"},
        {MPI_INTEGER, MPI_INT, "MPI_INTEGER / MPI_INT"},
        {MPI_LONG, sizeof(long) == 8 ? MPI_INT64_T : MPI_INT32_T, "MPI_LONG / MPI_INTn_T"},
        {MPI_LONG_LONG, MPI_LONG_LONG_INT, "MPI_LONG_LONG / MPI_LONG_LONG_INT"},
        {MPI_UINT64_T, MPI_UNSIGNED_LONG_LONG, "MPI_UINT64_T / MPI_UNSIGNED_LONG_LONG"},
        {MPI_REAL, MPI_FLOAT, "MPI_REAL / MPI_FLOAT"},
        {MPI_DOUBLE_PRECISION, MPI_REAL8, "MPI_DOUBLE_PRECISION / MPI_REAL8"},
        {MPI_CXX_BOOL, MPI_C_BOOL, "MPI_CXX_BOOL / MPI_C_BOOL"},
        {MPI_SIGNED_CHAR, MPI_INT8_T, "MPI_SIGNED_CHAR / MPI_INT8_T"},
        {MPI_DOUBLE_COMPLEX, MPI_C_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX / MPI_C_DOUBLE_COMPLEX"},
        {MPI_2INTEGER, MPI_2INT, "MPI_2INTEGER / MPI_2INT"},
    };
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int sz = -1, n = -1;
        CHECK(MPI_Type_size(pairs[i].a, &sz));
        unsigned char out[5 * 16], in[5 * 16], want[5 * 16];
        for (int j = 0; j < 5 * sz; j++) {
            out[j] = (unsigned char)(rank * 31 + j * 7 + 1);
            want[j] = (unsigned char)(from * 31 + j * 7 + 1);
        }
        if (pairs[i].a == MPI_CXX_BOOL) /* a bool holds 0 or 1 */
            for (int j = 0; j < 5; j++)
                out[j] &= 1, want[j] &= 1;
        memset(in, 0, sizeof in);
        MPI_Status st;
        CHECK(MPI_Sendrecv(out, 5, pairs[i].a, to, 11, in, 5, pairs[i].b, from, 11,
                           MPI_COMM_WORLD, &st));
        CHECK(MPI_Get_count(&st, pairs[i].b, &n));
        if (n != 5 || memcmp(in, want, (size_t)(5 * sz)) != 0)
            FAIL("%s: sent as one, received as the other: count %d, data %s", pairs[i].what, n,
                 memcmp(in, want, (size_t)(5 * sz)) ? "differs" : "right");
        /* a broadcast: the root says a, the others b */
        unsigned char bb[5 * 16];
        memcpy(bb, rank == 0 ? out : in, (size_t)(5 * sz));
        CHECK(MPI_Bcast(bb, 5, rank == 0 ? pairs[i].a : pairs[i].b, 0, MPI_COMM_WORLD));
        unsigned char root[5 * 16];
        for (int j = 0; j < 5 * sz; j++)
            root[j] = (unsigned char)(0 * 31 + j * 7 + 1);
        if (pairs[i].a == MPI_CXX_BOOL)
            for (int j = 0; j < 5; j++)
                root[j] &= 1;
        if (memcmp(bb, root, (size_t)(5 * sz)) != 0)
            FAIL("%s: broadcast by the other name differs", pairs[i].what);
    }
    /* a reduction through the synonym equals the C type's */
    int32_t v = rank + 1, s32 = 0;
    int si = 0;
    CHECK(MPI_Allreduce(&v, &s32, 1, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD));
    CHECK(MPI_Allreduce(&v, &si, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (s32 != si || si != size * (size + 1) / 2)
        FAIL("sum as MPI_INT32_T %d, as MPI_INT %d, expected %d", (int)s32, si,
             size * (size + 1) / 2);
}

/* sizedtypes: MPI_Type_match_size's answer has the size asked. */
static void t_match_size(void)
{
    static const struct {
        int cls, size;
        MPI_Datatype want;
    } ok[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},
        {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},
        {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},
        {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, (int)sizeof(long double), MPI_LONG_DOUBLE},
        {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
        {MPI_TYPECLASS_COMPLEX, (int)sizeof(long double _Complex), MPI_C_LONG_DOUBLE_COMPLEX},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        int size = -1;
        CHECK(MPI_Type_match_size(ok[i].cls, ok[i].size, &t));
        if (t != ok[i].want)
            FAIL("MPI_Type_match_size(%d, %d) = %d, expected %d", ok[i].cls, ok[i].size, (int)t,
                 (int)ok[i].want);
        CHECK(MPI_Type_size(t, &size));
        EXPECT_INT(size, ok[i].size);
    }
    static const int bad[][2] = {
        {MPI_TYPECLASS_INTEGER, 3}, {MPI_TYPECLASS_INTEGER, 16}, {MPI_TYPECLASS_INTEGER, 0},
        {MPI_TYPECLASS_INTEGER, -4}, {MPI_TYPECLASS_REAL, 2},     {MPI_TYPECLASS_REAL, 64},
        {MPI_TYPECLASS_COMPLEX, 4},  {MPI_TYPECLASS_COMPLEX, 64}, {0, 4},
        {4, 4},                      {-1, 8},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MPI_Datatype t = MPI_INT;
        char what[64];
        snprintf(what, sizeof what, "MPI_Type_match_size(%d, %d)", bad[i][0], bad[i][1]);
        expect_class(what, MPI_Type_match_size(bad[i][0], bad[i][1], &t), MPI_ERR_ARG);
    }
    expect_class("MPI_Type_match_size(.., NULL)",
                 MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, NULL), MPI_ERR_ARG);
}

/* An F90 type: the matching predefined type's size and extent, its envelope
 * MPI_COMBINER_F90_* with contents (r) or (p, r) (MPI-3.1 17.2.5; MPICH's createf90types
 * checks it), the same handle on a repeated call, a sum through it as through the predefined
 * one, and freeing it refused (predefined-like). */
static void check_f90(const char *what, MPI_Datatype got, MPI_Datatype want, int comb, int p,
                      int r)
{
    int sz = -1, wsz = -2, ni = -1, na = -1, nt = -1, c = -1, ints[2] = {-7, -7};
    MPI_Aint lb, ext, wlb, wext;
    CHECK(MPI_Type_size(got, &sz));
    CHECK(MPI_Type_size(want, &wsz));
    CHECK(MPI_Type_get_extent(got, &lb, &ext));
    CHECK(MPI_Type_get_extent(want, &wlb, &wext));
    if (sz != wsz || lb != wlb || ext != wext)
        FAIL("%s: size %d extent %ld, expected %d and %ld", what, sz, (long)ext, wsz, (long)wext);
    CHECK(MPI_Type_get_envelope(got, &ni, &na, &nt, &c));
    int wni = comb == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    if (c != comb || ni != wni || na != 0 || nt != 0)
        FAIL("%s: envelope combiner %d (%d, %d, %d), expected %d (%d, 0, 0)", what, c, ni, na,
             nt, comb, wni);
    MPI_Aint a[1];
    MPI_Datatype d[1];
    CHECK(MPI_Type_get_contents(got, 2, 0, 0, ints, a, d));
    if (wni == 1 ? ints[0] != r : ints[0] != p || ints[1] != r)
        FAIL("%s: contents %d %d, expected p %d r %d", what, ints[0], ints[1], p, r);
    MPI_Datatype again = MPI_DATATYPE_NULL;
    if (comb == MPI_COMBINER_F90_INTEGER)
        CHECK(MPI_Type_create_f90_integer(r, &again));
    else if (comb == MPI_COMBINER_F90_REAL)
        CHECK(MPI_Type_create_f90_real(p, r, &again));
    else
        CHECK(MPI_Type_create_f90_complex(p, r, &again));
    if (again != got)
        FAIL("%s: a repeated call gave handle %d, first %d", what, (int)again, (int)got);
    MPI_Datatype f = got;
    expect_class("MPI_Type_free(f90 type)", MPI_Type_free(&f), MPI_ERR_TYPE);
    if (comb != MPI_COMBINER_F90_COMPLEX && sz <= 8) { /* a reduction sees its base type */
        unsigned char in[16] = {0}, out[16] = {0};
        in[0] = 1;
        CHECK(MPI_Allreduce(in, out, 1, got, MPI_MAX, MPI_COMM_WORLD));
        if (memcmp(in, out, sizeof in))
            FAIL("%s: allreduce MAX through it changed the value", what);
    }
}

/* Fortran's selected_int_kind / selected_real_kind over the C types. */
static void t_f90(void)
{
    static const struct {
        int r;
        MPI_Datatype want;
    } ints[] = {{-5, MPI_INT8_T}, {0, MPI_INT8_T},   {1, MPI_INT8_T},   {2, MPI_INT8_T},
                {3, MPI_INT16_T}, {4, MPI_INT16_T},  {5, MPI_INT32_T},  {9, MPI_INT32_T},
                {10, MPI_INT64_T}, {18, MPI_INT64_T}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        CHECK(MPI_Type_create_f90_integer(ints[i].r, &t));
        check_f90("MPI_Type_create_f90_integer", t, ints[i].want, MPI_COMBINER_F90_INTEGER,
                  MPI_UNDEFINED, ints[i].r);
    }
    MPI_Datatype t = MPI_INT;
    expect_class("MPI_Type_create_f90_integer(19)", MPI_Type_create_f90_integer(19, &t),
                 MPI_ERR_ARG);
    expect_class("MPI_Type_create_f90_integer(1000)", MPI_Type_create_f90_integer(1000, &t),
                 MPI_ERR_ARG);
    expect_class("MPI_Type_create_f90_integer(NULL)", MPI_Type_create_f90_integer(4, NULL),
                 MPI_ERR_ARG);

    const int U = MPI_UNDEFINED;
    int fr = FLT_MAX_10_EXP < -FLT_MIN_10_EXP ? FLT_MAX_10_EXP : -FLT_MIN_10_EXP;
    int dr = DBL_MAX_10_EXP < -DBL_MIN_10_EXP ? DBL_MAX_10_EXP : -DBL_MIN_10_EXP;
    int lr = LDBL_MAX_10_EXP < -LDBL_MIN_10_EXP ? LDBL_MAX_10_EXP : -LDBL_MIN_10_EXP;
    EXPECT_INT(fr, 37);
    EXPECT_INT(dr, 307);
    const struct {
        int p, r, k; /* k: 0 float, 1 double, 2 long double, -1 none */
    } reals[] = {
        {1, U, 0},         {FLT_DIG, U, 0},     {FLT_DIG + 1, U, 1}, {DBL_DIG, U, 1},
        {DBL_DIG + 1, U, LDBL_DIG > DBL_DIG ? 2 : -1}, {LDBL_DIG, U, 2},
        {LDBL_DIG + 1, U, -1}, {U, 1, 0},       {U, fr, 0},          {U, fr + 1, 1},
        {U, dr, 1},        {U, dr + 1, lr > dr ? 2 : -1}, {U, lr, lr > dr ? 2 : 1},
        {U, lr + 1, -1},   {6, 300, 1},         {15, 38, 1},         {3, 3, 0},
        {-1, -1, 0},       {U, U, -1},          {100, U, -1},        {U, 10000, -1},
    };
    const MPI_Datatype rt[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE};
    const MPI_Datatype ct[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
                               MPI_C_LONG_DOUBLE_COMPLEX};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        char what[80];
        MPI_Datatype got = MPI_DATATYPE_NULL;
        snprintf(what, sizeof what, "MPI_Type_create_f90_real(%d, %d)", reals[i].p, reals[i].r);
        int rc = MPI_Type_create_f90_real(reals[i].p, reals[i].r, &got);
        if (reals[i].k < 0) {
            expect_class(what, rc, MPI_ERR_ARG);
        } else if (rc != MPI_SUCCESS) {
            FAIL("%s = rc %d", what, rc);
        } else {
            check_f90(what, got, rt[reals[i].k], MPI_COMBINER_F90_REAL, reals[i].p, reals[i].r);
        }
        got = MPI_DATATYPE_NULL;
        snprintf(what, sizeof what, "MPI_Type_create_f90_complex(%d, %d)", reals[i].p,
                 reals[i].r);
        rc = MPI_Type_create_f90_complex(reals[i].p, reals[i].r, &got);
        if (reals[i].k < 0) {
            expect_class(what, rc, MPI_ERR_ARG);
        } else if (rc != MPI_SUCCESS) {
            FAIL("%s = rc %d", what, rc);
        } else {
            check_f90(what, got, ct[reals[i].k], MPI_COMBINER_F90_COMPLEX, reals[i].p,
                      reals[i].r);
        }
    }
    expect_class("MPI_Type_create_f90_real(NULL)", MPI_Type_create_f90_real(6, 10, NULL),
                 MPI_ERR_ARG);
    expect_class("MPI_Type_create_f90_complex(NULL)", MPI_Type_create_f90_complex(6, 10, NULL),
                 MPI_ERR_ARG);
}

/* User ops: an elementwise "a + 2b" (not commutative) over pairs of doubles, and a
 * commutative one. The non-commutative one shows which argument is which. */
static int user_calls;
static MPI_Datatype pair_of_doubles, vec3_of_complex; /* the ops must not call MPI */
static void op_a2b(void *in, void *inout, int *len, MPI_Datatype *type)
{
    double *a = in, *b = inout;
    int n = *len * (*type == pair_of_doubles ? 2 : 1);
    for (int i = 0; i < n; i++)
        b[i] = a[i] + 2 * b[i];
    user_calls++;
}
/* the larger real part wins; on the vector type, elements are 3 complex 2 apart, 5 per span */
static void op_cmax(void *in, void *inout, int *len, MPI_Datatype *type)
{
    double _Complex *a = in, *b = inout;
    bool vec = *type == vec3_of_complex;
    for (int e = 0; e < *len; e++)
        for (int k = 0; k < (vec ? 3 : 1); k++) {
            int i = vec ? e * 5 + 2 * k : e;
            if (__real__ a[i] > __real__ b[i])
                b[i] = a[i];
        }
}

static void t_op_commutative(void)
{
    const MPI_Op builtin[] = {MPI_SUM,  MPI_PROD, MPI_MIN,  MPI_MAX,    MPI_BAND,  MPI_BOR,
                              MPI_BXOR, MPI_LAND, MPI_LOR,  MPI_LXOR,   MPI_MINLOC, MPI_MAXLOC};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        int c = -1;
        CHECK(MPI_Op_commutative(builtin[i], &c));
        EXPECT_INT(c, 1);
    }
    int c = -1;
    CHECK(MPI_Op_commutative(MPI_REPLACE, &c));
    EXPECT_INT(c, 0);
    CHECK(MPI_Op_commutative(MPI_NO_OP, &c));
    EXPECT_INT(c, 0);
    MPI_Op nc, cm;
    CHECK(MPI_Op_create(op_a2b, 0, &nc));
    CHECK(MPI_Op_create(op_cmax, 1, &cm));
    CHECK(MPI_Op_commutative(nc, &c));
    EXPECT_INT(c, 0);
    CHECK(MPI_Op_commutative(cm, &c));
    EXPECT_INT(c, 1);
    MPI_Op stale = nc;
    CHECK(MPI_Op_free(&nc));
    CHECK(MPI_Op_free(&cm));
    expect_class("MPI_Op_commutative(freed op)", MPI_Op_commutative(stale, &c), MPI_ERR_OP);
    expect_class("MPI_Op_commutative(MPI_OP_NULL)", MPI_Op_commutative(MPI_OP_NULL, &c),
                 MPI_ERR_OP);
    expect_class("MPI_Op_commutative(999)", MPI_Op_commutative((MPI_Op)999, &c), MPI_ERR_OP);
    expect_class("MPI_Op_commutative(-3)", MPI_Op_commutative((MPI_Op)-3, &c), MPI_ERR_OP);
    expect_class("MPI_Op_commutative(NULL)", MPI_Op_commutative(MPI_SUM, NULL), MPI_ERR_ARG);
}

/* reduce_local: derived types of one builtin (non-contiguous: gaps stay as they were), the
 * non-contiguous builtin pair MPI_LONG_DOUBLE_INT, and user ops, contiguous or not. */
static void t_reduce_local(void)
{
    /* a vector of 3 double complex, stride 2: elements at 0, 2, 4 of each 5-slot span */
    MPI_Datatype vec, cont;
    CHECK(MPI_Type_vector(3, 1, 2, MPI_C_DOUBLE_COMPLEX, &vec));
    CHECK(MPI_Type_commit(&vec));
    vec3_of_complex = vec;
    double _Complex a[10], b[10], want[10];
    for (int i = 0; i < 10; i++) {
        a[i] = (double)(i + 1) + (double)(i % 3) * 1.0i;
        b[i] = (double)(2 - i) + 2.0i;
    }
    memcpy(want, b, sizeof b);
    MPI_Aint lb, ext;
    CHECK(MPI_Type_get_extent(vec, &lb, &ext));
    EXPECT_INT(ext, 5 * (MPI_Aint)sizeof(double _Complex));
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 3; k++) {
            int i = e * 5 + 2 * k;
            want[i] = a[i] * b[i];
        }
    CHECK(MPI_Reduce_local(a, b, 2, vec, MPI_PROD));
    for (int i = 0; i < 10; i++)
        if (b[i] != want[i])
            FAIL("Reduce_local(vector of double complex, PROD)[%d] = %g%+gi, expected %g%+gi", i,
                 __real__ b[i], __imag__ b[i], __real__ want[i], __imag__ want[i]);
    expect_class("Reduce_local(vector of complex, MAX)", MPI_Reduce_local(a, b, 2, vec, MPI_MAX),
                 MPI_ERR_OP);

    /* user op on the same non-contiguous type: called on the type's own layout */
    MPI_Op cm;
    CHECK(MPI_Op_create(op_cmax, 1, &cm));
    memcpy(b, want, sizeof b);
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 3; k++) {
            int i = e * 5 + 2 * k;
            if (__real__ a[i] > __real__ b[i])
                want[i] = a[i];
        }
    CHECK(MPI_Reduce_local(a, b, 2, vec, cm));
    for (int i = 0; i < 10; i++)
        if (b[i] != want[i])
            FAIL("Reduce_local(vector, user max)[%d] = %g%+gi, expected %g%+gi", i, __real__ b[i],
                 __imag__ b[i], __real__ want[i], __imag__ want[i]);
    CHECK(MPI_Op_free(&cm));
    CHECK(MPI_Type_free(&vec));

    /* non-commutative user op, contiguous: inout = in + 2 inout, on the caller's buffers */
    MPI_Op nc;
    CHECK(MPI_Op_create(op_a2b, 0, &nc));
    CHECK(MPI_Type_contiguous(2, MPI_DOUBLE, &cont));
    CHECK(MPI_Type_commit(&cont));
    pair_of_doubles = cont;
    double x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {10, 20, 30, 40, 50, 60};
    user_calls = 0;
    CHECK(MPI_Reduce_local(x, y, 3, cont, nc));
    for (int i = 0; i < 6; i++)
        if (y[i] != x[i] + 20.0 * (i + 1))
            FAIL("Reduce_local(user a+2b)[%d] = %g, expected %g", i, y[i], x[i] + 20.0 * (i + 1));
    if (user_calls < 1)
        FAIL("the user op was not called");
    CHECK(MPI_Reduce_local(x, y, 0, cont, nc)); /* nothing to do */
    CHECK(MPI_Op_free(&nc));

    /* MPI_LONG_DOUBLE_INT is itself not contiguous (padding after the int) */
    struct ldi p[3] = {{1.5L, 4}, {-2.0L, 1}, {7.0L, 3}}, q[3] = {{1.5L, 2}, {-1.0L, 0}, {8.0L, 9}};
    CHECK(MPI_Reduce_local(p, q, 3, MPI_LONG_DOUBLE_INT, MPI_MINLOC));
    if (q[0].v != 1.5L || q[0].i != 2 || q[1].v != -2.0L || q[1].i != 1 || q[2].v != 7.0L ||
        q[2].i != 3)
        FAIL("Reduce_local(LONG_DOUBLE_INT, MINLOC) = {%Lg %d} {%Lg %d} {%Lg %d}", q[0].v, q[0].i,
             q[1].v, q[1].i, q[2].v, q[2].i);

    /* a contiguous type of one builtin reduces as that builtin */
    int iv[4] = {1, 2, 3, 4}, ov[4] = {10, 20, 30, 40};
    CHECK(MPI_Type_free(&cont));
    CHECK(MPI_Type_contiguous(2, MPI_INT, &cont));
    CHECK(MPI_Type_commit(&cont));
    CHECK(MPI_Reduce_local(iv, ov, 2, cont, MPI_SUM));
    for (int i = 0; i < 4; i++)
        EXPECT_INT(ov[i], (i + 1) * 11);

    /* errors */
    MPI_Datatype unc, mixed;
    CHECK(MPI_Type_contiguous(2, MPI_INT, &unc));
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype mt[2] = {MPI_INT, MPI_DOUBLE};
    CHECK(MPI_Type_create_struct(2, bl, disp, mt, &mixed));
    CHECK(MPI_Type_commit(&mixed));
    char mbuf_in[64] = {0}, mbuf_io[64] = {0};
    expect_class("Reduce_local(count -1)", MPI_Reduce_local(iv, ov, -1, MPI_INT, MPI_SUM),
                 MPI_ERR_COUNT);
    expect_class("Reduce_local(MPI_DATATYPE_NULL)",
                 MPI_Reduce_local(iv, ov, 1, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
    expect_class("Reduce_local(type 9999)", MPI_Reduce_local(iv, ov, 1, (MPI_Datatype)9999, MPI_SUM),
                 MPI_ERR_TYPE);
    expect_class("Reduce_local(uncommitted)", MPI_Reduce_local(iv, ov, 1, unc, MPI_SUM),
                 MPI_ERR_TYPE);
    expect_class("Reduce_local(MPI_OP_NULL)", MPI_Reduce_local(iv, ov, 1, MPI_INT, MPI_OP_NULL),
                 MPI_ERR_OP);
    expect_class("Reduce_local(op 999)", MPI_Reduce_local(iv, ov, 1, MPI_INT, (MPI_Op)999),
                 MPI_ERR_OP);
    expect_class("Reduce_local(MPI_REPLACE)", MPI_Reduce_local(iv, ov, 1, MPI_INT, MPI_REPLACE),
                 MPI_ERR_OP);
    expect_class("Reduce_local(MPI_NO_OP)", MPI_Reduce_local(iv, ov, 1, MPI_INT, MPI_NO_OP),
                 MPI_ERR_OP);
    expect_class("Reduce_local(mixed struct, SUM)",
                 MPI_Reduce_local(mbuf_in, mbuf_io, 1, mixed, MPI_SUM), MPI_ERR_OP);
    expect_class("Reduce_local(NULL inbuf)", MPI_Reduce_local(NULL, ov, 1, MPI_INT, MPI_SUM),
                 MPI_ERR_BUFFER);
    expect_class("Reduce_local(NULL inoutbuf)", MPI_Reduce_local(iv, NULL, 1, MPI_INT, MPI_SUM),
                 MPI_ERR_BUFFER);
    expect_class("Reduce_local(same buffer)", MPI_Reduce_local(ov, ov, 1, MPI_INT, MPI_SUM),
                 MPI_ERR_BUFFER);
    expect_class("Reduce_local(MPI_IN_PLACE)",
                 MPI_Reduce_local(MPI_IN_PLACE, ov, 1, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    CHECK(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM)); /* count 0: no buffers needed */
    CHECK(MPI_Type_free(&unc));
    CHECK(MPI_Type_free(&mixed));
    CHECK(MPI_Type_free(&cont));
}

/* MPI_Get_elements counts two basic elements per pair, whatever the index's type. */
static void t_elements(void)
{
    static const struct {
        MPI_Datatype t;
        int count, bytes_per, elems;
    } c[] = {
        {MPI_LONG_DOUBLE_INT, 3, (int)sizeof(long double) + 4, 6},
        {MPI_2REAL, 2, 8, 4},
        {MPI_2DOUBLE_PRECISION, 2, 16, 4},
        {MPI_C_DOUBLE_COMPLEX, 3, 16, 3},
        {MPI_C_LONG_DOUBLE_COMPLEX, 2, (int)sizeof(long double _Complex), 2},
        {MPI_LONG_DOUBLE, 4, (int)sizeof(long double), 4},
        {MPI_C_BOOL, 5, 1, 5},
        {MPI_WCHAR, 5, (int)sizeof(wchar_t), 5},
        {MPI_LOGICAL, 5, 4, 5},
    };
    static char sbuf[256], rbuf[256];
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        MPI_Status st;
        int n = -1, e = -1;
        CHECK(MPI_Sendrecv(sbuf, c[i].count, c[i].t, 0, 7, rbuf, c[i].count, c[i].t, 0, 7,
                           MPI_COMM_SELF, &st));
        CHECK(MPI_Get_count(&st, c[i].t, &n));
        CHECK(MPI_Get_elements(&st, c[i].t, &e));
        if (n != c[i].count || e != c[i].elems)
            FAIL("type %d: count %d elements %d, expected %d and %d", (int)c[i].t, n, e,
                 c[i].count, c[i].elems);
        /* a message ending after the value of a pair: one more basic element */
        if (c[i].t == MPI_2DOUBLE_PRECISION) {
            CHECK(MPI_Sendrecv(sbuf, 24, MPI_BYTE, 0, 8, rbuf, 2, c[i].t, 0, 8, MPI_COMM_SELF,
                               &st));
            CHECK(MPI_Get_elements(&st, c[i].t, &e));
            EXPECT_INT(e, 3);
        }
    }
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    int size = 0;
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    t_types();
    t_named();
    t_named_match(mc_rank, size);
    t_match_size();
    t_f90();
    t_op_commutative();
    t_reduce_local();
    t_elements();
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Finalize());
    return mc_done("mpi_predef");
}
