/* type_query.c — what a program asks of a type: its size and extent (also of uncommitted
 * types, as in MPI), the count of whole elements or basic elements a status holds. */

#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype.h"
#include "type_env.h"

/* The checks of the queries: initialized, outputs given (args_ok), a type that exists
 * (committed or not: size and extent may be asked of uncommitted types, as in MPI). */
static int dt_lookup(rmp_datatype_t type, bool args_ok, const dtype_t **t)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!args_ok)
        return RMP_ERR_ARG;
    *t = dtype_get(type, false);
    return *t ? RMP_SUCCESS : RMP_ERR_TYPE;
}

static int dt_query(rmp_datatype_t type, size_t *out, bool extent)
{
    const dtype_t *t;
    int err = dt_lookup(type, out != NULL, &t);
    if (err)
        return err;
    *out = extent ? t->extent : t->size;
    return RMP_SUCCESS;
}

int rmp_type_size(rmp_datatype_t type, size_t *size)
{
    return dt_query(type, size, false);
}

int rmp_type_extent(rmp_datatype_t type, size_t *extent)
{
    return dt_query(type, extent, true);
}

int rmp_get_count(const rmp_status_t *status, rmp_datatype_t type, int *count)
{
    const dtype_t *t;
    int err = dt_lookup(type, status && count, &t);
    if (err)
        return err;
    if (t->size == 0)
        *count = 0;
    else if (status->count % t->size || status->count / t->size > INT_MAX)
        *count = RMP_UNDEFINED;
    else
        *count = (int)(status->count / t->size);
    return RMP_SUCCESS;
}

int rmp_type_get_extent(rmp_datatype_t type, ptrdiff_t *lb, ptrdiff_t *extent)
{
    const dtype_t *t;
    int err = dt_lookup(type, lb && extent, &t);
    if (err)
        return err;
    *lb = t->lb;
    *extent = t->neg_extent ? t->neg_extent : (ptrdiff_t)t->extent;
    return RMP_SUCCESS;
}

/* Basic elements in one whole element of t: O(blocks) per level, never a walk over every
 * repetition (a vector of 2^29 ints must count at once). */
static size_t dt_per(const dtype_t *t)
{
    if (t->builtin && t->nblocks == 0)
        return dtype_pair_value_size(t->base) ? 2 : 1; /* pairs: value and index */
    if (t->nblocks == 0)
        return (size_t)t->count * (size_t)t->blocklen * dt_per(&rmp_ctx.dtypes[t->old]);
    size_t n = 0;
    for (int b = 0; b < t->nblocks; b++)
        n += (size_t)t->blocks[b].count * dt_per(&rmp_ctx.dtypes[t->blocks[b].old]);
    return n;
}

/* Basic elements in the first `budget` packed bytes of count elements of t: adds them to
 * *elems and returns the bytes they cover (less than budget when it ends inside one). The
 * whole elements the budget covers are counted by one product (dt_per); only the one partial
 * element is entered, and in it the whole blocks are again one product. */
static size_t dt_elems(const dtype_t *t, size_t count, size_t budget, size_t *elems)
{
    if (t->size == 0 || count == 0)
        return 0;
    size_t whole = budget / t->size < count ? budget / t->size : count;
    if (t->builtin && t->nblocks == 0) {
        size_t sz = t->size, vs = dtype_pair_value_size(t->base);
        bool pair = vs != 0;
        *elems += whole * (pair ? 2 : 1);
        if (pair && whole < count && budget - whole * sz >= vs) { /* ends after a value */
            *elems += 1;
            return whole * sz + vs;
        }
        return whole * sz;
    }
    *elems += whole * dt_per(t);
    size_t done = whole * t->size;
    if (whole == count || done == budget)
        return done;
    /* one partial element */
    size_t rest = budget - done;
    if (t->nblocks == 0) {
        const dtype_t *o = &rmp_ctx.dtypes[t->old];
        size_t bsz = (size_t)t->blocklen * o->size;
        if (bsz == 0)
            return done;
        size_t nb = rest / bsz; /* < t->count: the element is not whole */
        *elems += nb * (size_t)t->blocklen * dt_per(o);
        return done + nb * bsz + dt_elems(o, (size_t)t->blocklen, rest - nb * bsz, elems);
    }
    for (int b = 0; b < t->nblocks && rest > 0; b++) {
        const dt_block_t *k = &t->blocks[b];
        const dtype_t *o = &rmp_ctx.dtypes[k->old];
        size_t got = dt_elems(o, (size_t)k->count, rest, elems);
        done += got;
        rest -= got;
        if (got < (size_t)k->count * o->size)
            return done;
    }
    return done;
}

int rmp_get_elements_x(const rmp_status_t *status, rmp_datatype_t type, long long *count)
{
    const dtype_t *t;
    int err = dt_lookup(type, status && count, &t);
    if (err)
        return err;
    size_t per = t->size ? dt_per(t) : 0, whole = t->size ? status->count / t->size : 0;
    size_t rest = t->size ? status->count % t->size : 0, part = 0;
    size_t covered = dt_elems(t, 1, rest, &part);
    if (covered != rest || (per && whole > (LLONG_MAX - part) / per))
        *count = RMP_UNDEFINED; /* ends inside a basic element, or too many */
    else
        *count = (long long)(whole * per + part);
    return RMP_SUCCESS;
}

int rmp_get_elements(const rmp_status_t *status, rmp_datatype_t type, int *count)
{
    long long n = 0;
    int err = rmp_get_elements_x(status, type, count ? &n : NULL);
    if (!err)
        *count = n > INT_MAX ? RMP_UNDEFINED : (int)n;
    return err;
}
