/* bigcount_type.c — the large-count (_c) datatype constructors and queries. Values the int
 * constructors take go straight to them. Larger ones WORK, built from rmp's constructors:
 * - vector/hvector: a block of blocklength elements (one big element past the limit) resized
 *   to the stride, count of those (again one big element past it), resized to the vector's
 *   extent;
 * - indexed, hindexed, (h)indexed_block, struct: a struct of the blocks, a block past the
 *   limit carried as one element of a big type, element displacements turned into bytes, and
 *   (but for struct, which pads as C does) resized to the blocks' own bounds.
 * Fail with MPI_ERR_COUNT: more than INT_MAX blocks (the arrays alone would be 16 GiB), and
 * subarray and darray dimensions past int (rmp's constructors hold them in ints; no
 * composition of ours is written for them). Decoding: get_envelope_c and get_contents_c
 * report no large counts (a type is described by rmp's int constructors). */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bigcount.h"
#include "rmpi.h"

#define RAISE(rc) rmpi_raise(MPI_COMM_WORLD, (rc), __func__)

/* A count the int path takes, else one element of a big type (a new type either way). */
static int bc_contig(MPI_Count count, MPI_Datatype old, MPI_Datatype *t)
{
    if (count > rmpi_bc_limit())
        return rmpi_big_type(count, old, t);
    return rmp_type_contiguous((int)count, old, t);
}

static void free_all(MPI_Datatype *t[], int n)
{
    for (int i = 0; i < n; i++)
        if (*t[i] != MPI_DATATYPE_NULL)
            rmp_type_free(t[i]);
}

/* count blocks of blocklength elements, sbytes apart (>= 0), any of them past the limit. */
static int big_hvector(MPI_Count count, MPI_Count blocklength, ptrdiff_t sbytes,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    ptrdiff_t lb, ext, vext = 0, bext;
    MPI_Datatype blk = MPI_DATATYPE_NULL, step = MPI_DATATYPE_NULL, all = MPI_DATATYPE_NULL;
    int rc = rmp_type_get_extent(oldtype, &lb, &ext);
    if (!rc && (__builtin_mul_overflow((ptrdiff_t)blocklength, ext, &bext) ||
                (count > 0 && (__builtin_mul_overflow((ptrdiff_t)(count - 1), sbytes, &vext) ||
                               __builtin_add_overflow(vext, bext, &vext)))))
        rc = RMP_ERR_COUNT;
    if (!rc && !(rc = bc_contig(blocklength, oldtype, &blk)) &&
        !(rc = rmp_type_create_resized(blk, lb, sbytes, &step)) &&
        !(rc = bc_contig(count, step, &all)))
        rc = rmp_type_create_resized(all, lb, vext, newtype);
    free_all((MPI_Datatype *[]){&blk, &step, &all}, 3);
    return rc;
}

static bool small(MPI_Count v)
{
    return v >= INT_MIN && v <= rmpi_bc_limit();
}

int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    ptrdiff_t lb, ext, sbytes;
    int rc;
    if (!newtype)
        rc = RMP_ERR_ARG;
    else if (count < 0 || blocklength < 0)
        rc = RMP_ERR_COUNT;
    else if (small(count) && small(blocklength) && stride <= INT_MAX && stride >= INT_MIN)
        rc = rmp_type_vector((int)count, (int)blocklength, (int)stride, oldtype, newtype);
    else if (stride < 0)
        rc = RMP_ERR_ARG; /* as rmp_type_vector: negative strides are not supported */
    else if (!(rc = rmp_type_get_extent(oldtype, &lb, &ext)))
        rc = __builtin_mul_overflow((ptrdiff_t)stride, ext, &sbytes)
                 ? RMP_ERR_COUNT
                 : big_hvector(count, blocklength, sbytes, oldtype, newtype);
    return RAISE(rc);
}

int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc;
    if (!newtype)
        rc = RMP_ERR_ARG;
    else if (count < 0 || blocklength < 0)
        rc = RMP_ERR_COUNT;
    else if (small(count) && small(blocklength))
        rc = rmp_type_create_hvector((int)count, (int)blocklength, (ptrdiff_t)stride, oldtype,
                                     newtype);
    else if (stride < 0)
        rc = RMP_ERR_ARG; /* as rmp_type_create_hvector */
    else
        rc = big_hvector(count, blocklength, (ptrdiff_t)stride, oldtype, newtype);
    return RAISE(rc);
}

/* ---- block lists: indexed, hindexed, indexed_block, hindexed_block, struct ---- */

typedef struct blocks {
    MPI_Count count;
    const MPI_Count *lens; /* NULL: every block is len1 long */
    MPI_Count len1;
    const MPI_Count *displs;
    bool bytes;                 /* displs in bytes, else in extents of the block's type */
    const MPI_Datatype *types; /* NULL: every block of type1 */
    MPI_Datatype type1;
} blocks_t;

static MPI_Count b_len(const blocks_t *b, MPI_Count i)
{
    return b->lens ? b->lens[i] : b->len1;
}

static MPI_Datatype b_type(const blocks_t *b, MPI_Count i)
{
    return b->types ? b->types[i] : b->type1;
}

/* Every value within what rmp's int constructors take (RMP_ERR_COUNT: a negative length). */
static int b_check(const blocks_t *b, bool *fits)
{
    *fits = b->count <= rmpi_bc_limit();
    if (b->count < 0 || b->count > INT_MAX || (!b->lens && b->len1 < 0))
        return RMP_ERR_COUNT;
    if (b->count && !b->displs)
        return RMP_ERR_ARG;
    for (MPI_Count i = 0; i < b->count; i++) {
        if (b_len(b, i) < 0)
            return RMP_ERR_COUNT;
        *fits = *fits && b_len(b, i) <= rmpi_bc_limit() &&
                (b->bytes || (b->displs[i] >= INT_MIN && b->displs[i] <= INT_MAX));
    }
    return RMP_SUCCESS;
}

/* The struct of the blocks, each past the limit as one element of a big type; *lo and *hi
 * get the blocks' own bounds. */
static int b_struct(const blocks_t *b, MPI_Datatype *st, ptrdiff_t *lo, ptrdiff_t *hi)
{
    int n = (int)b->count, rc = RMP_SUCCESS;
    int *lens = malloc(sizeof(int) * (size_t)(n ? n : 1));
    ptrdiff_t *d = malloc(sizeof(ptrdiff_t) * (size_t)(n ? n : 1));
    MPI_Datatype *t = calloc((size_t)(n ? n : 1), sizeof(MPI_Datatype));
    bool *own = calloc((size_t)(n ? n : 1), sizeof(bool));
    *lo = PTRDIFF_MAX, *hi = PTRDIFF_MIN;
    if (!lens || !d || !t || !own)
        rc = RMP_ERR_NO_MEM;
    for (int i = 0; i < n && !rc; i++) {
        ptrdiff_t lb, ext, span;
        MPI_Count len = b_len(b, i);
        t[i] = b_type(b, i);
        if ((rc = rmp_type_get_extent(t[i], &lb, &ext)))
            break;
        d[i] = (ptrdiff_t)b->displs[i];
        if ((!b->bytes && __builtin_mul_overflow(d[i], ext, &d[i])) ||
            __builtin_mul_overflow((ptrdiff_t)len, ext, &span)) {
            rc = RMP_ERR_COUNT;
            break;
        }
        if (len > 0) {
            *lo = d[i] + lb < *lo ? d[i] + lb : *lo;
            *hi = d[i] + lb + span > *hi ? d[i] + lb + span : *hi;
        }
        lens[i] = len > rmpi_bc_limit() ? 1 : (int)len;
        if (len > rmpi_bc_limit() && !(rc = rmpi_big_type(len, b_type(b, i), &t[i])))
            own[i] = true;
    }
    if (!rc)
        rc = rmp_type_create_struct(n, lens, d, t, st);
    for (int i = 0; t && own && i < n; i++)
        if (own[i])
            rmp_type_free(&t[i]);
    free(lens), free(d), free(t), free(own);
    return rc;
}

/* Values that fit: int (or ptrdiff_t) copies of the arrays to rmp's constructor. */
typedef enum { B_INDEXED, B_HINDEXED, B_INDEXED_BLOCK, B_HINDEXED_BLOCK, B_STRUCT } bkind_t;

static int b_small(bkind_t k, const blocks_t *b, MPI_Datatype *newtype)
{
    int n = (int)b->count, rc;
    int *lens = malloc(sizeof(int) * (size_t)(n ? n : 1));
    int *di = malloc(sizeof(int) * (size_t)(n ? n : 1));
    ptrdiff_t *dp = malloc(sizeof(ptrdiff_t) * (size_t)(n ? n : 1));
    if (!lens || !di || !dp) {
        free(lens), free(di), free(dp);
        return RMP_ERR_NO_MEM;
    }
    for (int i = 0; i < n; i++) {
        lens[i] = (int)b_len(b, i);
        di[i] = b->bytes ? 0 : (int)b->displs[i];
        dp[i] = (ptrdiff_t)b->displs[i];
    }
    switch (k) {
    case B_INDEXED:
        rc = rmp_type_indexed(n, lens, di, b->type1, newtype);
        break;
    case B_HINDEXED:
        rc = rmp_type_create_hindexed(n, lens, dp, b->type1, newtype);
        break;
    case B_INDEXED_BLOCK:
        rc = rmp_type_create_indexed_block(n, (int)b->len1, di, b->type1, newtype);
        break;
    case B_HINDEXED_BLOCK:
        rc = rmp_type_create_hindexed_block(n, (int)b->len1, dp, b->type1, newtype);
        break;
    default:
        rc = rmp_type_create_struct(n, lens, dp, b->types, newtype);
    }
    free(lens), free(di), free(dp);
    return rc;
}

static int b_make(bkind_t k, const blocks_t *b, MPI_Datatype *newtype)
{
    bool fits;
    int rc = newtype ? b_check(b, &fits) : RMP_ERR_ARG;
    if (rc || fits)
        return rc ? rc : b_small(k, b, newtype);
    MPI_Datatype st = MPI_DATATYPE_NULL;
    ptrdiff_t lo, hi;
    if ((rc = b_struct(b, &st, &lo, &hi)) || k == B_STRUCT) {
        if (!rc)
            *newtype = st;
        return rc;
    }
    rc = rmp_type_create_resized(st, lo, hi - lo, newtype); /* no struct padding */
    rmp_type_free(&st);
    return rc;
}

int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                       const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    blocks_t b = {count, array_of_blocklengths, 0, array_of_displacements, false, NULL, oldtype};
    return RAISE(b.lens || !count ? b_make(B_INDEXED, &b, newtype) : RMP_ERR_ARG);
}

int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                               const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    blocks_t b = {count, array_of_blocklengths, 0, array_of_displacements, true, NULL, oldtype};
    return RAISE(b.lens || !count ? b_make(B_HINDEXED, &b, newtype) : RMP_ERR_ARG);
}

int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                    const MPI_Count array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    blocks_t b = {count, NULL, blocklength, array_of_displacements, false, NULL, oldtype};
    return RAISE(b_make(B_INDEXED_BLOCK, &b, newtype));
}

int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    blocks_t b = {count, NULL, blocklength, array_of_displacements, true, NULL, oldtype};
    return RAISE(b_make(B_HINDEXED_BLOCK, &b, newtype));
}

int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                             const MPI_Count array_of_displacements[],
                             const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    blocks_t b = {count, array_of_blocklengths, 0, array_of_displacements, true, array_of_types,
                  MPI_DATATYPE_NULL};
    return RAISE((b.lens && b.types) || !count ? b_make(B_STRUCT, &b, newtype) : RMP_ERR_ARG);
}

/* ---- subarray, darray: past int, no representation here ---- */

/* n values of a into int copies (NULL: none); RMP_ERR_COUNT when one is past int. */
static int ints(const MPI_Count *a, int n, int **out)
{
    *out = NULL;
    if (n < 0 || (n && !a))
        return RMP_ERR_ARG;
    if (!(*out = malloc(sizeof(int) * (size_t)(n ? n : 1))))
        return RMP_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        if (a[i] > INT_MAX || a[i] < INT_MIN)
            return RMP_ERR_COUNT;
        (*out)[i] = (int)a[i];
    }
    return RMP_SUCCESS;
}

int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                               const MPI_Count array_of_subsizes[],
                               const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    int *sz = NULL, *sub = NULL, *st = NULL;
    int rc = ints(array_of_sizes, ndims, &sz);
    if (!rc && !(rc = ints(array_of_subsizes, ndims, &sub)) &&
        !(rc = ints(array_of_starts, ndims, &st)))
        rc = MPI_Type_create_subarray(ndims, sz, sub, st, order, oldtype, newtype);
    else
        rc = RAISE(rc);
    free(sz), free(sub), free(st);
    return rc;
}

int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                             const int array_of_distribs[], const int array_of_dargs[],
                             const int array_of_psizes[], int order, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    int *gs = NULL;
    int rc = ints(array_of_gsizes, ndims, &gs);
    rc = rc ? RAISE(rc)
            : MPI_Type_create_darray(size, rank, ndims, gs, array_of_distribs, array_of_dargs,
                                     array_of_psizes, order, oldtype, newtype);
    free(gs);
    return rc;
}

/* ---- bounds and decoding: MPI_Count is as wide as rmp's ptrdiff_t ---- */

int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                              MPI_Datatype *newtype)
{
    return MPI_Type_create_resized(oldtype, (MPI_Aint)lb, (MPI_Aint)extent, newtype);
}

int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    ptrdiff_t l = 0, e = 0;
    int rc = true_lb && true_extent ? rmp_type_get_true_extent(datatype, &l, &e) : RMP_ERR_ARG;
    if (!rc)
        *true_lb = l, *true_extent = e;
    return RAISE(rc);
}

int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                            MPI_Count *num_addresses, MPI_Count *num_large_counts,
                            MPI_Count *num_datatypes, int *combiner)
{
    int ni = 0, na = 0, nd = 0;
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes)
        return RAISE(RMP_ERR_ARG);
    int rc = MPI_Type_get_envelope(datatype, &ni, &na, &nd, combiner);
    if (rc == MPI_SUCCESS)
        *num_integers = ni, *num_addresses = na, *num_large_counts = 0, *num_datatypes = nd;
    return rc;
}

static int clamp(MPI_Count v)
{
    return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
}

int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                            MPI_Count max_addresses, MPI_Count max_large_counts,
                            MPI_Count max_datatypes, int array_of_integers[],
                            MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                            MPI_Datatype array_of_datatypes[])
{
    (void)max_large_counts, (void)array_of_large_counts; /* none: get_envelope_c says 0 */
    return MPI_Type_get_contents(datatype, clamp(max_integers), clamp(max_addresses),
                                 clamp(max_datatypes), array_of_integers, array_of_addresses,
                                 array_of_datatypes);
}
