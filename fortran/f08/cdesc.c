/* cdesc.c — mpi_f08's choice buffers (MPI-4.0 19.1.12, MPI_SUBARRAYS_SUPPORTED = .TRUE.): a
 * buffer comes as a Fortran descriptor; a non-contiguous section (a(1:n:2, :)) becomes a
 * derived datatype over the section's own elements, so nothing is copied: an Isend reads and an
 * Irecv writes the section in place, the holes are never touched, and what the program does to
 * the array after the Wait does not matter. count elements of datatype cover the section's
 * first count elements (each one datatype, as the standard's "virtual contiguous" buffer). */
#include <limits.h>
#include <stdint.h>

#include "f08rt.h"

int rmp_f08_bottom_;
int rmp_f08_in_place_;

/* Elements in the section's dims [0, r). */
static MPI_Aint dims_elems(const CFI_cdesc_t *d, int r)
{
    MPI_Aint n = 1;
    for (int i = 0; i < r; i++)
        n *= (MPI_Aint)d->dim[i].extent;
    return n;
}

/* Two pieces, b at displacement disp after a, as one type (a and b freed). */
static int join(MPI_Datatype a, MPI_Datatype b, MPI_Aint disp, MPI_Datatype *t)
{
    int len[2] = {1, 1};
    MPI_Aint at[2] = {0, disp};
    MPI_Datatype ty[2] = {a, b};
    int rc = MPI_Type_create_struct(2, len, at, ty, t);
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    return rc;
}

/* The first k (0 < k <= dims_elems(d, r)) elements of dims [0, r) in column-major order, each
 * an el: whole slabs of dim r-1 as an hvector of the inner dims' type, the rest of a slab as
 * the inner dims' own first elements, after them. */
static int prefix_type(const CFI_cdesc_t *d, int r, MPI_Aint k, MPI_Datatype el, MPI_Datatype *t)
{
    if (k > INT_MAX)
        return MPI_ERR_COUNT;
    if (r == 1)
        return MPI_Type_create_hvector((int)k, 1, d->dim[0].sm, el, t);
    MPI_Aint inner = dims_elems(d, r - 1), q = k / inner, rem = k % inner;
    MPI_Aint sm = d->dim[r - 1].sm;
    MPI_Datatype slab = MPI_DATATYPE_NULL, slabs = MPI_DATATYPE_NULL, part = MPI_DATATYPE_NULL;
    int rc = MPI_SUCCESS;
    if (q) {
        rc = prefix_type(d, r - 1, inner, el, &slab);
        if (rc == MPI_SUCCESS) {
            rc = MPI_Type_create_hvector((int)q, 1, sm, slab, &slabs);
            MPI_Type_free(&slab);
        }
    }
    if (rc == MPI_SUCCESS && rem)
        rc = prefix_type(d, r - 1, rem, el, &part);
    if (rc != MPI_SUCCESS) {
        if (slabs != MPI_DATATYPE_NULL)
            MPI_Type_free(&slabs);
        return rc;
    }
    if (!rem)
        *t = slabs;
    else if (!q)
        *t = part;
    else
        rc = join(slabs, part, q * sm, t);
    return rc;
}

/* The section's elements must each be one datatype: its size or its extent is the element's
 * length (a Fortran derived type may carry padding the datatype skips). */
static int element_fits(const CFI_cdesc_t *d, MPI_Datatype type)
{
    int size;
    MPI_Aint lb, extent;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS ||
        MPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    return (size_t)size == d->elem_len || (size_t)extent == d->elem_len ? MPI_SUCCESS
                                                                        : MPI_ERR_BUFFER;
}

void *f08_buf_addr(CFI_cdesc_t *d)
{
    if (d->base_addr == &rmp_f08_bottom_)
        return MPI_BOTTOM;
    if (d->base_addr == &rmp_f08_in_place_)
        return MPI_IN_PLACE;
    return d->base_addr;
}

/* The step from one block of count elements to the next, where every block is the first
 * one moved (a collective's per-process blocks, MULTI in tools/gen-f08): once dims that are
 * one run of memory are merged, count must be whole slabs of the last dim. */
static int block_step(const CFI_cdesc_t *d, MPI_Aint count, MPI_Aint *step)
{
    MPI_Aint inner = 1, sm = d->dim[0].sm, e = d->dim[0].extent;
    for (int i = 1; i < d->rank; i++) {
        if (d->dim[i].sm == e * sm) {
            e *= d->dim[i].extent; /* contiguous with the dims before: one longer dim */
            continue;
        }
        inner *= e;
        sm = d->dim[i].sm;
        e = d->dim[i].extent;
    }
    if (count % inner)
        return MPI_ERR_BUFFER;
    *step = count / inner * sm;
    return MPI_SUCCESS;
}

int f08_buf_get(CFI_cdesc_t *d, MPI_Aint count, MPI_Datatype type, int multi, f08_buf_t *b)
{
    *b = (f08_buf_t){
        .addr = f08_buf_addr(d), .count = count, .type = type, .tmp = MPI_DATATYPE_NULL, .d = d};
    if (b->addr != d->base_addr || d->rank == 0 || count <= 0 || CFI_is_contiguous(d))
        return MPI_SUCCESS;
    int rc = element_fits(d, type);
    MPI_Aint step = 0;
    if (rc == MPI_SUCCESS && !multi && count > dims_elems(d, d->rank))
        rc = MPI_ERR_COUNT; /* more than the section holds */
    if (rc == MPI_SUCCESS && multi)
        rc = block_step(d, count, &step);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (rc == MPI_SUCCESS)
        rc = prefix_type(d, d->rank, count, type, &t);
    if (rc == MPI_SUCCESS && multi) {
        rc = MPI_Type_create_resized(t, 0, step, &b->tmp);
        MPI_Type_free(&t);
    } else if (rc == MPI_SUCCESS) {
        b->tmp = t;
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&b->tmp);
    if (rc != MPI_SUCCESS) {
        f08_buf_done(b);
        return rc;
    }
    b->count = 1;
    b->type = b->tmp;
    return MPI_SUCCESS;
}

/* The one stride of a section whose dims merge into one run of equal steps, else 0. */
static MPI_Aint one_stride(const CFI_cdesc_t *d)
{
    MPI_Aint sm = d->dim[0].sm, e = d->dim[0].extent;
    for (int i = 1; i < d->rank; i++) {
        if (d->dim[i].extent > 1 && d->dim[i].sm != e * sm)
            return 0;
        e *= d->dim[i].extent;
    }
    return sm;
}

int f08_buf_vget(CFI_cdesc_t *d, MPI_Datatype type, f08_buf_t *b)
{
    *b = (f08_buf_t){
        .addr = f08_buf_addr(d), .count = 0, .type = type, .tmp = MPI_DATATYPE_NULL, .d = d};
    if (b->addr != d->base_addr || d->rank == 0 || CFI_is_contiguous(d))
        return MPI_SUCCESS;
    MPI_Aint lb, extent, stride = one_stride(d);
    int rc = element_fits(d, type);
    if (rc == MPI_SUCCESS && MPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS)
        rc = MPI_ERR_TYPE;
    if (rc == MPI_SUCCESS && (stride <= 0 || stride < extent))
        rc = MPI_ERR_BUFFER; /* reversed, or no one stride: no (count, displacement) fits */
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_resized(type, lb, stride, &b->tmp);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&b->tmp);
    if (rc != MPI_SUCCESS) {
        f08_buf_done(b);
        return rc;
    }
    b->type = b->tmp;
    return MPI_SUCCESS;
}

/* Two buffers of one call sharing its count and datatype (Reduce's sendbuf and recvbuf): one
 * (count, type) must describe both, so a section type is taken by the other buffer only when
 * that one is a sentinel or a section of the same shape. */
int f08_buf_share(f08_buf_t *a, f08_buf_t *b)
{
    if (a->tmp == MPI_DATATYPE_NULL && b->tmp == MPI_DATATYPE_NULL)
        return MPI_SUCCESS;
    f08_buf_t *s = a->tmp != MPI_DATATYPE_NULL ? a : b, *o = s == a ? b : a;
    int same = o->addr != o->d->base_addr || o->tmp == MPI_DATATYPE_NULL ? 0 : 1;
    for (int i = 0; same && i < s->d->rank; i++)
        same = o->d->rank == s->d->rank && o->d->dim[i].extent == s->d->dim[i].extent &&
               o->d->dim[i].sm == s->d->dim[i].sm;
    if (!same && o->addr == o->d->base_addr)
        return MPI_ERR_BUFFER;
    o->count = s->count;
    o->type = s->type;
    return MPI_SUCCESS;
}

int f08_buf_raw(CFI_cdesc_t *d, void **addr)
{
    *addr = f08_buf_addr(d);
    if (*addr == d->base_addr && d->rank > 0 && !CFI_is_contiguous(d))
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

/* The section's type is the user's no longer once the call has it: a pending operation
 * keeps what it needs (the datatype table holds a type while a request uses it). */
void f08_buf_done(f08_buf_t *b)
{
    if (b->tmp != MPI_DATATYPE_NULL)
        MPI_Type_free(&b->tmp);
    b->tmp = MPI_DATATYPE_NULL;
}
