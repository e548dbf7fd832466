/* mpi_predef.c — mpi.h's predefined datatypes, as MPICH's datatype tests (typename,
 * sizedtypes, typefree) check them: every handle's size, extent and MPI_Type_get_name (each
 * named type its own handle and name), that builtins cannot be freed, what a named type is
 * to the other calls (envelope, contents, dup, attributes, Fortran handles, matching in
 * point-to-point against the C type of its size); then
 * MPI_Type_match_size, MPI_Type_create_f90_integer/real/complex, MPI_Op_commutative,
 * MPI_Reduce_local on derived types and with user ops (reduce_local, op_commutative), the
 * element counts of the new pair types, and every invalid argument's error class under
 * MPI_ERRORS_RETURN. The reductions themselves, op by op at every size: mpi_predef_ops.c. */
#include "mpi_predef/mpi_predef.h"

void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d of class %d, expected class %d", what, rc, got, cls);
}

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

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
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
