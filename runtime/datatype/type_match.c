/* type_match.c — builtin types chosen by size or by Fortran-style precision and range:
 * rmp_type_match_size (MPI_Type_match_size) and rmp_type_create_f90_integer, _real and
 * _complex. The F90 calls return, as MPI-3.1 17.2.5 says, a type whose envelope is
 * MPI_COMBINER_F90_INTEGER/_REAL/_COMPLEX with contents (r) or (p, r): a copy of the matching
 * builtin (dtype_named_copy: same size, base and packing; predefined-like, so type_free
 * refuses it), one per (combiner, p, r), cached so repeated calls return the same handle. */
#include <float.h>

#include "core.h"
#include "type_env.h"

typedef struct {
    rmp_datatype_t type;
    int precision, range; /* Fortran's PRECISION and RANGE of the type (decimal digits) */
} kind_t;

/* Smallest first. Integers: |x| < 10^range. Reals: <float.h> digits, and the smaller of the
 * largest and the smallest normal decimal exponents, as Fortran's RANGE. The Fortran named
 * types of each size (the calls are Fortran's: MPICH answers with them too), then C's long
 * double ones, which have no Fortran name here (no REAL*16). */
static const kind_t int_kinds[] = {
    {RMP_INTEGER1, 0, 2}, {RMP_INTEGER2, 0, 4}, {RMP_INTEGER4, 0, 9}, {RMP_INTEGER8, 0, 18}};
#define REAL_RANGE(P) ((P##_MAX_10_EXP) < -(P##_MIN_10_EXP) ? (P##_MAX_10_EXP) : -(P##_MIN_10_EXP))
static const kind_t real_kinds[] = {{RMP_REAL4, FLT_DIG, REAL_RANGE(FLT)},
                                    {RMP_REAL8, DBL_DIG, REAL_RANGE(DBL)},
                                    {RMP_LONG_DOUBLE, LDBL_DIG, REAL_RANGE(LDBL)}};
static const kind_t complex_kinds[] = {{RMP_COMPLEX8, FLT_DIG, REAL_RANGE(FLT)},
                                       {RMP_COMPLEX16, DBL_DIG, REAL_RANGE(DBL)},
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
        if (size > 0 && rmp_ctx.dtypes[k[i].type].size == (size_t)size) {
            *type = k[i].type;
            return RMP_SUCCESS;
        }
    return RMP_ERR_ARG;
}

/* The F90 types made so far. A cached handle is checked before reuse (a new runtime after
 * finalize has another table), under the runtime lock. */
#define F90_CACHE 64
typedef struct {
    int combiner, p, r;
    rmp_datatype_t type;
} f90_entry_t;
static f90_entry_t f90_cache[F90_CACHE];
static int f90_n;

static bool f90_is(rmp_datatype_t h, int combiner, int p, int r)
{
    const dtype_t *t = dtype_get(h, false);
    if (!t || !t->builtin || !t->env || t->env->combiner != combiner)
        return false;
    const int *v = t->env->ints;
    return combiner == RMP_COMBINER_F90_INTEGER ? t->env->ni == 1 && v[0] == r
                                                : t->env->ni == 2 && v[0] == p && v[1] == r;
}

static int f90_type(int combiner, int p, int r, rmp_datatype_t base, rmp_datatype_t *type)
{
    int err = RMP_SUCCESS;
    ctx_lock(&rmp_ctx);
    for (int i = 0; i < f90_n; i++)
        if (f90_cache[i].combiner == combiner && f90_cache[i].p == p && f90_cache[i].r == r) {
            if (f90_is(f90_cache[i].type, combiner, p, r)) {
                *type = f90_cache[i].type;
                ctx_unlock(&rmp_ctx);
                return RMP_SUCCESS;
            }
            f90_cache[i] = f90_cache[--f90_n]; /* stale: an earlier runtime's */
            break;
        }
    bool integer = combiner == RMP_COMBINER_F90_INTEGER;
    dt_env_t *env = dtype_env_alloc(combiner, integer ? 1 : 2, 0, 0);
    rmp_datatype_t h = RMP_DATATYPE_NULL;
    if (!env) {
        err = RMP_ERR_NO_MEM;
    } else {
        if (integer) {
            env->ints[0] = r;
        } else {
            env->ints[0] = p;
            env->ints[1] = r;
        }
        err = dtype_named_copy(base, env, &h);
        if (err)
            dtype_env_free(env);
    }
    if (!err) {
        if (f90_n < F90_CACHE) /* beyond: still right, only not the same handle */
            f90_cache[f90_n++] = (f90_entry_t){combiner, p, r, h};
        *type = h;
    }
    ctx_unlock(&rmp_ctx);
    return err;
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
    rmp_datatype_t b;
    if (!type)
        return ctx_check() ? ctx_check() : RMP_ERR_ARG;
    int err = select_kind(int_kinds, NKINDS(int_kinds), RMP_UNDEFINED, r, &b);
    return err ? err : f90_type(RMP_COMBINER_F90_INTEGER, RMP_UNDEFINED, r, b, type);
}

int rmp_type_create_f90_real(int p, int r, rmp_datatype_t *type)
{
    rmp_datatype_t b;
    if (!type)
        return ctx_check() ? ctx_check() : RMP_ERR_ARG;
    int err = select_kind(real_kinds, NKINDS(real_kinds), p, r, &b);
    return err ? err : f90_type(RMP_COMBINER_F90_REAL, p, r, b, type);
}

int rmp_type_create_f90_complex(int p, int r, rmp_datatype_t *type)
{
    rmp_datatype_t b;
    if (!type)
        return ctx_check() ? ctx_check() : RMP_ERR_ARG;
    int err = select_kind(complex_kinds, NKINDS(complex_kinds), p, r, &b);
    return err ? err : f90_type(RMP_COMBINER_F90_COMPLEX, p, r, b, type);
}
