/* bigcount_core.c — what every large-count (_c) form shares (mpi/bigcount.h): the limit of
 * the int path (RMPI_BIGCOUNT_LIMIT lowers it for tests) and the one derived type that carries
 * a count past it as ONE element. bigcount.c (the blocking forms), bigcount_*.c and the
 * forwarding forms tools/gen-api generates from api/mpi.api use them. */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bigcount.h"

/* The largest count passed to an int-count call (INT_MAX unless RMPI_BIGCOUNT_LIMIT). */
MPI_Count rmpi_bc_limit(void)
{
    static _Atomic long long cached; /* 0: not read yet; every thread reads the same value */
    long long lim = cached;
    if (!lim) {
        const char *e = getenv("RMPI_BIGCOUNT_LIMIT");
        char *end = NULL;
        long long v = e ? strtoll(e, &end, 10) : 0;
        lim = e && end != e && !*end && v >= 2 && v < INT_MAX ? v : INT_MAX;
        cached = lim;
    }
    return lim;
}

/* One committed element of a new type that holds `count` (> 0) elements of type laid out as
 * count consecutive elements (extent: count extents of type). rmp error code. */
int rmpi_big_type(MPI_Count count, MPI_Datatype type, MPI_Datatype *big)
{
    MPI_Count lim = rmpi_bc_limit();
    ptrdiff_t lb, ext;
    int rc = rmp_type_get_extent(type, &lb, &ext);
    if (rc)
        return rc;
    MPI_Datatype in = MPI_DATATYPE_NULL, out = MPI_DATATYPE_NULL;
    /* a factorization count = a * b, both within the limit: a vector of one block */
    MPI_Count first = (count + lim - 1) / lim;
    for (MPI_Count a = first; a <= lim && a < first + 65536; a++) {
        if (count % a || count / a > lim)
            continue;
        if ((rc = rmp_type_contiguous((int)(count / a), type, &in)))
            return rc;
        rc = rmp_type_contiguous((int)a, in, &out);
        rmp_type_free(&in);
        if (!rc && (rc = rmp_type_commit(&out)))
            rmp_type_free(&out);
        if (!rc)
            *big = out;
        return rc;
    }
    /* q chunks of lim elements, then r more */
    MPI_Count q = count / lim, r = count % lim;
    ptrdiff_t span;
    if (q > lim || __builtin_mul_overflow((ptrdiff_t)count, ext, &span))
        return RMP_ERR_COUNT;
    MPI_Datatype chunk = MPI_DATATYPE_NULL, body = MPI_DATATYPE_NULL, rest = MPI_DATATYPE_NULL;
    MPI_Datatype st = MPI_DATATYPE_NULL;
    if (!(rc = rmp_type_contiguous((int)lim, type, &chunk)) &&
        !(rc = rmp_type_contiguous((int)q, chunk, &body)) &&
        !(rc = rmp_type_contiguous((int)r, type, &rest))) {
        int lens[2] = {1, 1};
        ptrdiff_t displs[2] = {0, (ptrdiff_t)(q * lim) * ext};
        rmp_datatype_t types[2] = {body, rest};
        if (!(rc = rmp_type_create_struct(2, lens, displs, types, &st)) &&
            !(rc = rmp_type_create_resized(st, lb, span, &out)) && (rc = rmp_type_commit(&out)))
            rmp_type_free(&out);
    }
    MPI_Datatype *tmp[] = {&chunk, &body, &rest, &st};
    for (int i = 0; i < 4; i++)
        if (*tmp[i] != MPI_DATATYPE_NULL)
            rmp_type_free(tmp[i]);
    if (!rc)
        *big = out;
    return rc;
}

int rmpi_bc_make(MPI_Count count, MPI_Datatype type, bool big_ok, rmpi_bc_t *v)
{
    v->own = false;
    v->type = type;
    if (count <= rmpi_bc_limit()) {                        /* the common case: one compare */
        v->count = count < INT_MIN ? -1 : (int)count; /* negative: the int path refuses it */
        return RMP_SUCCESS;
    }
    if (!big_ok)
        return RMP_ERR_COUNT;
    v->count = 1;
    int rc = rmpi_big_type(count, type, &v->type);
    v->own = rc == RMP_SUCCESS;
    return rc;
}

void rmpi_bc_free(rmpi_bc_t *v)
{
    if (v->own)
        rmp_type_free(&v->type);
    v->own = false;
}
