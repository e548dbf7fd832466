/* sizes.c — mpi_predef's types by size: MPI_Type_match_size (sizedtypes) and
 * MPI_Type_create_f90_integer/real/complex. */
#include "mpi_predef.h"

/* sizedtypes: MPI_Type_match_size's answer has the size asked. */
void t_match_size(void)
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
void t_f90(void)
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
