/* type_ctor.c — the datatype constructors MPI adds to the basic ones of datatype.c (hvector,
 * indexed_block, hindexed_block, subarray, darray, dup), built from those basic ones, and the
 * decoding calls (envelope, contents) over the record every constructor keeps (type_env.h).
 *
 * A subarray or darray is a nest of types, one per dimension, built fastest dimension first:
 * the selected indices of a dimension as blocks over the type of the inner dimensions,
 * resized to the extent of one whole row of the array, so that index i lies at i times it.
 * The intermediate types are freed at once: the result holds them (a freed type keeps its
 * slot while another one is built on it, see type_slot.c). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype.h"
#include "type_env.h"

int rmp_get_address(const void *location, ptrdiff_t *address)
{
    if (!address)
        return RMP_ERR_ARG;
    *address = (ptrdiff_t)(intptr_t)location;
    return RMP_SUCCESS;
}

/* The extent of a type that exists (committed or not), for building on it. */
static int old_extent(rmp_datatype_t old, ptrdiff_t *ext)
{
    int err = ctx_check();
    if (err)
        return err;
    const dtype_t *o = dtype_get(old, false);
    if (!o)
        return RMP_ERR_TYPE;
    *ext = o->neg_extent ? o->neg_extent : (ptrdiff_t)o->extent;
    return RMP_SUCCESS;
}

static dt_env_t *env_of(int combiner, int ni, const int *ints, int na, const ptrdiff_t *addrs,
                        rmp_datatype_t old)
{
    dt_env_t *e = dtype_env_alloc(combiner, ni, na, 1);
    if (!e)
        return NULL;
    if (ni)
        memcpy(e->ints, ints, sizeof(int) * (size_t)ni);
    if (na)
        memcpy(e->addrs, addrs, sizeof(ptrdiff_t) * (size_t)na);
    e->types[0] = old;
    return e;
}

int rmp_type_create_hvector(int count, int blocklen, ptrdiff_t stride, rmp_datatype_t old,
                            rmp_datatype_t *newtype)
{
    ptrdiff_t ext;
    int err = old_extent(old, &ext);
    if (err)
        return err;
    if (!newtype)
        return RMP_ERR_ARG;
    if (count < 0 || blocklen < 0)
        return RMP_ERR_COUNT;
    if (stride >= 0 && ext > 0 && stride % ext == 0 && stride / ext <= INT_MAX) {
        /* a vector in extents: one descriptor, and pack copies runs */
        err = rmp_type_vector(count, blocklen, (int)(stride / ext), old, newtype);
    } else { /* one block per vector block, at its byte offset */
        int *lens = malloc(sizeof(int) * (size_t)(count ? count : 1));
        ptrdiff_t *disps = malloc(sizeof(ptrdiff_t) * (size_t)(count ? count : 1));
        if (!lens || !disps)
            err = RMP_ERR_NO_MEM;
        for (int i = 0; !err && i < count; i++) {
            lens[i] = blocklen;
            if (__builtin_mul_overflow((ptrdiff_t)i, stride, &disps[i]))
                err = RMP_ERR_COUNT;
        }
        if (!err)
            err = rmp_type_create_hindexed(count, lens, disps, old, newtype);
        free(lens);
        free(disps);
    }
    int a[] = {count, blocklen};
    return dtype_env_attach(err, newtype, err ? NULL : env_of(RMP_COMBINER_HVECTOR, 2, a, 1,
                                                             &stride, old));
}

/* indexed_block (displs in extents of old) and hindexed_block (hdispls in bytes): the block
 * lengths spelled out for indexed and hindexed. */
static int block_create(int count, int blocklen, bool bytes, const int displs[],
                        const ptrdiff_t hdispls[], rmp_datatype_t old, rmp_datatype_t *newtype)
{
    int err = ctx_check();
    if (err)
        return err;
    if (count < 0 || blocklen < 0)
        return RMP_ERR_COUNT;
    if (!newtype || (count > 0 && (bytes ? !hdispls : !displs)))
        return RMP_ERR_ARG;
    int *lens = malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (!lens)
        return RMP_ERR_NO_MEM;
    for (int i = 0; i < count; i++)
        lens[i] = blocklen;
    if (bytes)
        err = rmp_type_create_hindexed(count, lens, hdispls, old, newtype);
    else
        err = rmp_type_indexed(count, lens, displs, old, newtype);
    free(lens);
    if (err)
        return err;
    dt_env_t *e = dtype_env_alloc(bytes ? RMP_COMBINER_HINDEXED_BLOCK : RMP_COMBINER_INDEXED_BLOCK,
                                  bytes ? 2 : count + 2, bytes ? count : 0, 1);
    if (e) {
        e->ints[0] = count;
        e->ints[1] = blocklen;
        if (!bytes && count)
            memcpy(e->ints + 2, displs, sizeof(int) * (size_t)count);
        if (bytes && count)
            memcpy(e->addrs, hdispls, sizeof(ptrdiff_t) * (size_t)count);
        e->types[0] = old;
    }
    return dtype_env_attach(err, newtype, e);
}

int rmp_type_create_indexed_block(int count, int blocklen, const int displs[],
                                  rmp_datatype_t old, rmp_datatype_t *newtype)
{
    return block_create(count, blocklen, false, displs, NULL, old, newtype);
}

int rmp_type_create_hindexed_block(int count, int blocklen, const ptrdiff_t displs[],
                                   rmp_datatype_t old, rmp_datatype_t *newtype)
{
    return block_create(count, blocklen, true, NULL, displs, old, newtype);
}

int rmp_type_dup(rmp_datatype_t old, rmp_datatype_t *newtype)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!newtype)
        return RMP_ERR_ARG;
    const dtype_t *o = dtype_get(old, false);
    if (!o)
        return RMP_ERR_TYPE;
    bool committed = o->committed;
    static const int one = 1;
    static const ptrdiff_t zero = 0;
    /* one element of old at offset 0: the same bounds, size and data */
    err = rmp_type_create_hindexed(1, &one, &zero, old, newtype);
    if (!err && committed)
        err = rmp_type_commit(newtype);
    return dtype_env_attach(err, newtype, err ? NULL : env_of(RMP_COMBINER_DUP, 0, NULL, 0, NULL,
                                                             old));
}

/* ---- subarray and darray ------------------------------------------------------------------ */

/* One dimension's selected indices: runs of consecutive ones. */
typedef struct dim_runs {
    int n;
    int *start, *len;
} dim_runs_t;

/* The nest (see the top): dims in memory order (dim k's index at k-th fastest), each its runs
 * and full size. Frees the runs. */
static int nest_build(int ndims, const int *gsz, dim_runs_t *runs, rmp_datatype_t old,
                      rmp_datatype_t *newtype)
{
    ptrdiff_t ext;
    int err = old_extent(old, &ext);
    rmp_datatype_t inner = old;
    ptrdiff_t row = ext; /* the extent of inner: one index of dimension k */
    for (int k = 0; !err && k < ndims; k++) {
        ptrdiff_t *disps = malloc(sizeof(ptrdiff_t) * (size_t)(runs[k].n ? runs[k].n : 1));
        rmp_datatype_t sel = RMP_DATATYPE_NULL, rs = RMP_DATATYPE_NULL;
        if (!disps)
            err = RMP_ERR_NO_MEM;
        for (int i = 0; !err && i < runs[k].n; i++)
            if (__builtin_mul_overflow((ptrdiff_t)runs[k].start[i], row, &disps[i]))
                err = RMP_ERR_COUNT;
        if (!err && __builtin_mul_overflow(row, (ptrdiff_t)gsz[k], &row))
            err = RMP_ERR_COUNT;
        if (!err)
            err = rmp_type_create_hindexed(runs[k].n, runs[k].len, disps, inner, &sel);
        if (!err)
            err = rmp_type_create_resized(sel, 0, row, &rs);
        free(disps);
        if (sel != RMP_DATATYPE_NULL)
            rmp_type_free(&sel);
        if (inner != old)
            rmp_type_free(&inner);
        inner = rs;
    }
    for (int k = 0; k < ndims; k++) {
        free(runs[k].start);
        free(runs[k].len);
    }
    if (err) {
        if (inner != old && inner != RMP_DATATYPE_NULL)
            rmp_type_free(&inner);
        return err;
    }
    *newtype = inner;
    return RMP_SUCCESS;
}

static int runs_alloc(dim_runs_t *r, int n)
{
    r->n = 0;
    r->start = malloc(sizeof(int) * (size_t)(n ? n : 1));
    r->len = malloc(sizeof(int) * (size_t)(n ? n : 1));
    return r->start && r->len ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

static void runs_free(dim_runs_t *runs, int n)
{
    for (int k = 0; k < n; k++) {
        free(runs[k].start);
        free(runs[k].len);
    }
}

int rmp_type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                             const int starts[], int order, rmp_datatype_t old,
                             rmp_datatype_t *newtype)
{
    ptrdiff_t ext;
    int err = old_extent(old, &ext);
    if (err)
        return err;
    if (!newtype || ndims < 1 || !sizes || !subsizes || !starts ||
        (order != RMP_ORDER_C && order != RMP_ORDER_FORTRAN))
        return RMP_ERR_ARG;
    for (int d = 0; d < ndims; d++)
        if (sizes[d] < 1 || subsizes[d] < 0 || subsizes[d] > sizes[d] || starts[d] < 0 ||
            starts[d] > sizes[d] - subsizes[d])
            return RMP_ERR_ARG;
    dim_runs_t *runs = calloc((size_t)ndims, sizeof(*runs));
    int *gsz = malloc(sizeof(int) * (size_t)ndims);
    if (!runs || !gsz)
        err = RMP_ERR_NO_MEM;
    for (int k = 0; !err && k < ndims; k++) {
        int d = order == RMP_ORDER_C ? ndims - 1 - k : k; /* k-th fastest */
        gsz[k] = sizes[d];
        if (!(err = runs_alloc(&runs[k], 1)) && subsizes[d] > 0) {
            runs[k].n = 1;
            runs[k].start[0] = starts[d];
            runs[k].len[0] = subsizes[d];
        }
    }
    if (!err)
        err = nest_build(ndims, gsz, runs, old, newtype);
    else if (runs)
        runs_free(runs, ndims);
    free(runs);
    free(gsz);
    if (err)
        return err;
    dt_env_t *e = dtype_env_alloc(RMP_COMBINER_SUBARRAY, 3 * ndims + 2, 0, 1);
    if (e) {
        e->ints[0] = ndims;
        memcpy(e->ints + 1, sizes, sizeof(int) * (size_t)ndims);
        memcpy(e->ints + 1 + ndims, subsizes, sizeof(int) * (size_t)ndims);
        memcpy(e->ints + 1 + 2 * ndims, starts, sizeof(int) * (size_t)ndims);
        e->ints[1 + 3 * ndims] = order;
        e->types[0] = old;
    }
    return dtype_env_attach(err, newtype, e);
}

/* The indices of [0, g) that process coordinate c of p owns under (distrib, darg). */
static int darray_runs(dim_runs_t *r, int g, int distrib, int darg, int p, int c)
{
    if (distrib == RMP_DISTRIBUTE_NONE) {
        if (p != 1)
            return RMP_ERR_ARG;
        int err = runs_alloc(r, 1);
        if (!err) {
            r->n = 1;
            r->start[0] = 0;
            r->len[0] = g;
        }
        return err;
    }
    if (distrib == RMP_DISTRIBUTE_BLOCK) {
        long long b = darg == RMP_DISTRIBUTE_DFLT_DARG ? ((long long)g + p - 1) / p : darg;
        if (b < 1 || b * p < g)
            return RMP_ERR_ARG;
        int err = runs_alloc(r, 1);
        long long s = b * c;
        if (!err && s < g) {
            r->n = 1;
            r->start[0] = (int)s;
            r->len[0] = (int)(s + b < g ? b : g - s);
        }
        return err;
    }
    if (distrib == RMP_DISTRIBUTE_CYCLIC) {
        long long k = darg == RMP_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        if (k < 1)
            return RMP_ERR_ARG;
        long long cyc = k * p, nb = 0;
        for (long long s = k * c; s < g; s += cyc)
            nb++;
        int err = runs_alloc(r, (int)nb);
        for (long long s = k * c; !err && s < g; s += cyc) {
            r->start[r->n] = (int)s;
            r->len[r->n++] = (int)(s + k < g ? k : g - s);
        }
        return err;
    }
    return RMP_ERR_ARG;
}

int rmp_type_create_darray(int size, int rank, int ndims, const int gsizes[],
                           const int distribs[], const int dargs[], const int psizes[],
                           int order, rmp_datatype_t old, rmp_datatype_t *newtype)
{
    ptrdiff_t ext;
    int err = old_extent(old, &ext);
    if (err)
        return err;
    if (!newtype || size < 1 || rank < 0 || rank >= size || ndims < 1 || !gsizes ||
        !distribs || !dargs || !psizes || (order != RMP_ORDER_C && order != RMP_ORDER_FORTRAN))
        return RMP_ERR_ARG;
    long long procs = 1;
    for (int d = 0; d < ndims; d++) {
        if (gsizes[d] < 1 || psizes[d] < 1)
            return RMP_ERR_ARG;
        procs *= psizes[d];
        if (procs > size)
            return RMP_ERR_ARG;
    }
    if (procs != size)
        return RMP_ERR_ARG;
    dim_runs_t *runs = calloc((size_t)ndims, sizeof(*runs));
    int *gsz = malloc(sizeof(int) * (size_t)ndims);
    int *coord = malloc(sizeof(int) * (size_t)ndims);
    if (!runs || !gsz || !coord)
        err = RMP_ERR_NO_MEM;
    /* the process grid is row-major whatever the array's order */
    for (int d = ndims - 1, r = rank; !err && d >= 0; d--) {
        coord[d] = r % psizes[d];
        r /= psizes[d];
    }
    for (int k = 0; !err && k < ndims; k++) {
        int d = order == RMP_ORDER_C ? ndims - 1 - k : k;
        gsz[k] = gsizes[d];
        err = darray_runs(&runs[k], gsizes[d], distribs[d], dargs[d], psizes[d], coord[d]);
    }
    if (!err)
        err = nest_build(ndims, gsz, runs, old, newtype);
    else if (runs)
        runs_free(runs, ndims);
    free(runs);
    free(gsz);
    free(coord);
    if (err)
        return err;
    dt_env_t *e = dtype_env_alloc(RMP_COMBINER_DARRAY, 4 * ndims + 4, 0, 1);
    if (e) {
        int *p = e->ints;
        *p++ = size;
        *p++ = rank;
        *p++ = ndims;
        const int *arrs[] = {gsizes, distribs, dargs, psizes};
        for (int a = 0; a < 4; a++, p += ndims)
            memcpy(p, arrs[a], sizeof(int) * (size_t)ndims);
        *p = order;
        e->types[0] = old;
    }
    return dtype_env_attach(err, newtype, e);
}

/* ---- queries and decoding ------------------------------------------------------------------ */

int rmp_type_get_true_extent(rmp_datatype_t type, ptrdiff_t *true_lb, ptrdiff_t *true_extent)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!true_lb || !true_extent)
        return RMP_ERR_ARG;
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    *true_lb = t->true_lb;
    *true_extent = t->true_ub - t->true_lb;
    return RMP_SUCCESS;
}

int rmp_type_get_envelope(rmp_datatype_t type, int *num_integers, int *num_addresses,
                          int *num_datatypes, int *combiner)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        return RMP_ERR_ARG;
    ctx_lock(&rmp_ctx);
    const dtype_t *t = dtype_get(type, false);
    if (!t) {
        err = RMP_ERR_TYPE;
    } else if (!t->env) { /* builtins (an F90 type is builtin with a record) */
        *num_integers = *num_addresses = *num_datatypes = 0;
        *combiner = RMP_COMBINER_NAMED;
    } else {
        *num_integers = t->env->ni;
        *num_addresses = t->env->na;
        *num_datatypes = t->env->nt;
        *combiner = t->env->combiner;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_type_get_contents(rmp_datatype_t type, int max_integers, int max_addresses,
                          int max_datatypes, int integers[], ptrdiff_t addresses[],
                          rmp_datatype_t datatypes[])
{
    int err = ctx_check();
    if (err)
        return err;
    ctx_lock(&rmp_ctx);
    const dtype_t *t = dtype_get(type, false);
    dt_env_t *e = NULL;
    if (!t || !t->env)
        err = RMP_ERR_TYPE; /* a named type has no contents */
    else if (max_integers < t->env->ni || max_addresses < t->env->na ||
             max_datatypes < t->env->nt || (t->env->ni && !integers) ||
             (t->env->na && !addresses) || (t->env->nt && !datatypes))
        err = RMP_ERR_ARG;
    else if (!(e = dtype_env_copy(t->env))) /* the lock is not held across the clones */
        err = RMP_ERR_NO_MEM;
    ctx_unlock(&rmp_ctx);
    if (err)
        return err;
    /* the derived types named get handles of their own, which the caller frees */
    int made = 0;
    for (; made < e->nt; made++) {
        rmp_datatype_t o = e->types[made];
        if (o >= DT_FIRST_DERIVED && (err = dtype_clone(o, &datatypes[made])))
            break;
        if (o < DT_FIRST_DERIVED)
            datatypes[made] = o;
    }
    if (err) {
        for (int i = 0; i < made; i++)
            if (datatypes[i] >= DT_FIRST_DERIVED)
                rmp_type_free(&datatypes[i]);
    } else {
        if (e->ni)
            memcpy(integers, e->ints, sizeof(int) * (size_t)e->ni);
        if (e->na)
            memcpy(addresses, e->addrs, sizeof(ptrdiff_t) * (size_t)e->na);
    }
    dtype_env_free(e);
    return err;
}
