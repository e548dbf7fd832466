/* type_ctor.c — MPI's type constructors beyond the basic ones (hvector, indexed_block,
 * hindexed_block, subarray, darray, dup), decoding (envelope, contents), the true extent, the
 * _x queries, the deprecated MPI-1 names, and packing (MPI_Pack and the external32 forms),
 * over rmp's calls. Errors are raised on MPI_COMM_WORLD's handler, packing's on comm's. */
#include <limits.h>

#include "rmpi.h"

#define RAISE(rc) rmpi_raise(MPI_COMM_WORLD, (rc), __func__)

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    return RAISE(rmp_type_create_hvector(count, blocklength, stride, oldtype, newtype));
}

int MPI_Type_create_indexed_block(int count, int blocklength,
                                  const int array_of_displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype *newtype)
{
    return RAISE(rmp_type_create_indexed_block(count, blocklength, array_of_displacements,
                                               oldtype, newtype));
}

int MPI_Type_create_hindexed_block(int count, int blocklength,
                                   const MPI_Aint array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return RAISE(rmp_type_create_hindexed_block(count, blocklength, array_of_displacements,
                                                oldtype, newtype));
}

int MPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                             const int array_of_subsizes[], const int array_of_starts[],
                             int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return RAISE(rmp_type_create_subarray(ndims, array_of_sizes, array_of_subsizes,
                                          array_of_starts, order, oldtype, newtype));
}

int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                           const int array_of_distribs[], const int array_of_dargs[],
                           const int array_of_psizes[], int order, MPI_Datatype oldtype,
                           MPI_Datatype *newtype)
{
    return RAISE(rmp_type_create_darray(size, rank, ndims, array_of_gsizes, array_of_distribs,
                                        array_of_dargs, array_of_psizes, order, oldtype,
                                        newtype));
}

/* The attributes come along through their copy callbacks (MPI-3.1 6.7.4); a callback's error
 * undoes the dup. */
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc = rmp_type_dup(oldtype, newtype);
    if (rc != RMP_SUCCESS)
        return RAISE(rc);
    int code = rmpi_attr_copy(RMPI_KIND_TYPE, oldtype, *newtype);
    if (code != MPI_SUCCESS) {
        (void)rmp_type_free(newtype);
        *newtype = MPI_DATATYPE_NULL;
    }
    return rmpi_raise_code(MPI_COMM_WORLD, code, __func__);
}

int MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                          int *num_datatypes, int *combiner)
{
    return RAISE(rmp_type_get_envelope(datatype, num_integers, num_addresses, num_datatypes,
                                       combiner));
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                          int max_datatypes, int array_of_integers[],
                          MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    return RAISE(rmp_type_get_contents(datatype, max_integers, max_addresses, max_datatypes,
                                       array_of_integers, array_of_addresses,
                                       array_of_datatypes));
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    return RAISE(rmp_type_get_true_extent(datatype, true_lb, true_extent));
}

int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    size_t sz = 0;
    int rc = rmp_type_size(datatype, &sz);
    if (rc == RMP_SUCCESS && !size)
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return RAISE(rc);
    *size = (MPI_Count)sz;
    return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    MPI_Aint l = 0, e = 0;
    int rc = rmp_type_get_extent(datatype, &l, &e);
    if (rc == RMP_SUCCESS && (!lb || !extent))
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return RAISE(rc);
    *lb = l;
    *extent = e;
    return MPI_SUCCESS;
}

int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                               MPI_Count *true_extent)
{
    MPI_Aint l = 0, e = 0;
    int rc = rmp_type_get_true_extent(datatype, &l, &e);
    if (rc == RMP_SUCCESS && (!true_lb || !true_extent))
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return RAISE(rc);
    *true_lb = l;
    *true_extent = e;
    return MPI_SUCCESS;
}

int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    long long n = 0;
    int rc = rmp_get_elements_x(status ? &status->rmp_status_ : NULL, datatype,
                                count ? &n : NULL);
    if (rc != RMP_SUCCESS)
        return RAISE(rc);
    *count = (MPI_Count)n;
    return MPI_SUCCESS;
}

MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((size_t)base + (size_t)disp); /* address arithmetic: wraps as addresses */
}

MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((size_t)addr1 - (size_t)addr2);
}

/* ---- deprecated MPI-1 names ---- */

int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return RAISE(rmp_type_create_hvector(count, blocklength, stride, oldtype, newtype));
}

int MPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return RAISE(rmp_type_create_hindexed(count, array_of_blocklengths, array_of_displacements,
                                          oldtype, newtype));
}

int MPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                    MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return RAISE(rmp_type_create_struct(count, array_of_blocklengths, array_of_displacements,
                                        array_of_types, newtype));
}

int MPI_Address(void *location, MPI_Aint *address)
{
    return RAISE(rmp_get_address(location, address));
}

/* which: 0 extent, 1 lower bound, 2 upper bound */
static int bound(MPI_Datatype datatype, MPI_Aint *out, int which, const char *call)
{
    MPI_Aint lb = 0, ext = 0;
    int rc = rmp_type_get_extent(datatype, &lb, &ext);
    if (rc == RMP_SUCCESS && !out)
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rmpi_raise(MPI_COMM_WORLD, rc, call);
    *out = which == 0 ? ext : which == 1 ? lb : lb + ext;
    return MPI_SUCCESS;
}

int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    return bound(datatype, extent, 0, __func__);
}

int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    return bound(datatype, displacement, 1, __func__);
}

int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    return bound(datatype, displacement, 2, __func__);
}

/* ---- packing ---- */

/* comm must be a communicator (packing does not use it otherwise). */
static int comm_ok(MPI_Comm comm)
{
    int n;
    return rmp_comm_size(comm, &n);
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
             int *position, MPI_Comm comm)
{
    int rc = comm_ok(comm);
    if (!rc && (!position || outsize < 0 || *position < 0))
        rc = RMP_ERR_ARG;
    size_t pos = position && *position > 0 ? (size_t)*position : 0;
    if (!rc)
        rc = rmp_pack(inbuf, incount, datatype, outbuf, (size_t)outsize, &pos);
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    *position = (int)pos; /* at most outsize */
    return MPI_SUCCESS;
}

int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
               MPI_Datatype datatype, MPI_Comm comm)
{
    int rc = comm_ok(comm);
    if (!rc && (!position || insize < 0 || *position < 0))
        rc = RMP_ERR_ARG;
    size_t pos = position && *position > 0 ? (size_t)*position : 0;
    if (!rc)
        rc = rmp_unpack(inbuf, (size_t)insize, &pos, outbuf, outcount, datatype);
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    *position = (int)pos;
    return MPI_SUCCESS;
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    size_t sz = 0;
    int rc = comm_ok(comm);
    if (!rc)
        rc = rmp_pack_size(incount, datatype, size ? &sz : NULL);
    if (!rc && sz > INT_MAX)
        rc = RMP_ERR_VALUE_TOO_LARGE; /* an int cannot say it (MPI_Pack_size_c can) */
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    *size = (int)sz;
    return MPI_SUCCESS;
}

int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                      MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    if (!position || outsize < 0 || *position < 0)
        return RAISE(RMP_ERR_ARG);
    size_t pos = (size_t)*position;
    int rc = rmp_pack_external(datarep, inbuf, incount, datatype, outbuf, (size_t)outsize, &pos);
    if (rc != RMP_SUCCESS)
        return RAISE(rc);
    *position = (MPI_Aint)pos;
    return MPI_SUCCESS;
}

int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                        MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    if (!position || insize < 0 || *position < 0)
        return RAISE(RMP_ERR_ARG);
    size_t pos = (size_t)*position;
    int rc = rmp_unpack_external(datarep, inbuf, (size_t)insize, &pos, outbuf, outcount,
                                 datatype);
    if (rc != RMP_SUCCESS)
        return RAISE(rc);
    *position = (MPI_Aint)pos;
    return MPI_SUCCESS;
}

int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                           MPI_Aint *size)
{
    size_t sz = 0;
    int rc = rmp_pack_external_size(datarep, incount, datatype, size ? &sz : NULL);
    if (rc != RMP_SUCCESS)
        return RAISE(rc);
    *size = (MPI_Aint)sz;
    return MPI_SUCCESS;
}
