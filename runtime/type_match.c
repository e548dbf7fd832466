/* type_match.c — builtin types chosen by size or by Fortran-style precision and range:
 * rmp_type_match_size (MPI_Type_match_size) and rmp_type_create_f90_integer, _real and
 * _complex, which, as MPICH does, return predefined handles (nothing to free, and nothing that
 * needs the runtime lock: the answers come from constant tables). */
#include <float.h>

#include "core.h"

typedef struct {
    rmp_datatype_t type;
    int precision, range; /* Fortran's PRECISION and RANGE of the type (decimal digits) */
} kind_t;

/* Smallest first. Integers: |x| < 10^range. Reals: <float.h> digits, and the smaller of the
 * largest and the smallest normal decimal exponents, as Fortran's RANGE. */
static const kind_t int_kinds[] = {
    {RMP_INT8, 0, 2}, {RMP_INT16, 0, 4}, {RMP_INT32, 0, 9}, {RMP_INT64, 0, 18}};
#define REAL_RANGE(P) ((P##_MAX_10_EXP) < -(P##_MIN_10_EXP) ? (P##_MAX_10_EXP) : -(P##_MIN_10_EXP))
static const kind_t real_kinds[] = {{RMP_FLOAT, FLT_DIG, REAL_RANGE(FLT)},
                                    {RMP_DOUBLE, DBL_DIG, REAL_RANGE(DBL)},
                                    {RMP_LONG_DOUBLE, LDBL_DIG, REAL_RANGE(LDBL)}};
static const kind_t complex_kinds[] = {{RMP_C_FLOAT_COMPLEX, FLT_DIG, REAL_RANGE(FLT)},
                                       {RMP_C_DOUBLE_COMPLEX, DBL_DIG, REAL_RANGE(DBL)},
                                       {RMP_C_LONG_DOUBLE_COMPLEX, LDBL_DIG, REAL_RANGE(LDBL)}};
#define NKINDS(a) (sizeof(a) / sizeof((a)[0]))

int rmp_type_match_size(int typeclass, int size, rmp_datatype_t *type)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!type)
        return RMP_ERR_ARG;
    const kind_t *k;
    size_t n;
    switch (typeclass) {
    case RMP_TYPECLASS_INTEGER:
        k = int_kinds, n = NKINDS(int_kinds);
        break;
    case RMP_TYPECLASS_REAL:
        k = real_kinds, n = NKINDS(real_kinds);
        break;
    case RMP_TYPECLASS_COMPLEX:
        k = complex_kinds, n = NKINDS(complex_kinds);
        break;
    default:
        return RMP_ERR_ARG;
    }
    for (size_t i = 0; i < n; i++)
        if (size > 0 && dtype_base_size((dt_base_t)k[i].type) == (size_t)size) {
            *type = k[i].type;
            return RMP_SUCCESS;
        }
    return RMP_ERR_ARG;
}

/* The first kind with at least precision p and range r; RMP_UNDEFINED leaves one free. */
static int select_kind(const kind_t *k, size_t n, int p, int r, rmp_datatype_t *type)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!type || (p == RMP_UNDEFINED && r == RMP_UNDEFINED))
        return RMP_ERR_ARG;
    for (size_t i = 0; i < n; i++)
        if ((p == RMP_UNDEFINED || k[i].precision >= p) && (r == RMP_UNDEFINED || k[i].range >= r)) {
            *type = k[i].type;
            return RMP_SUCCESS;
        }
    return RMP_ERR_ARG;
}

int rmp_type_create_f90_integer(int r, rmp_datatype_t *type)
{
    return select_kind(int_kinds, NKINDS(int_kinds), RMP_UNDEFINED, r, type);
}

int rmp_type_create_f90_real(int p, int r, rmp_datatype_t *type)
{
    return select_kind(real_kinds, NKINDS(real_kinds), p, r, type);
}

int rmp_type_create_f90_complex(int p, int r, rmp_datatype_t *type)
{
    return select_kind(complex_kinds, NKINDS(complex_kinds), p, r, type);
}
