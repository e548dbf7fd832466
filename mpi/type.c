/* type.c — MPI's datatype calls over rmp's (builtins and pairs, contiguous, vector, indexed,
 * hindexed, struct, resized) and its user-defined reduction ops. */
#include <limits.h>

#include "rmpi.h"

int MPI_Type_size(MPI_Datatype datatype, int *size)
{
    size_t sz = 0;
    int rc = rmp_type_size(datatype, &sz);
    if (rc == RMP_SUCCESS && !size)
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
    *size = sz > INT_MAX ? MPI_UNDEFINED : (int)sz; /* MPI's answer for a size an int cannot hold */
    return MPI_SUCCESS;
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_get_extent(datatype, lb, extent), __func__);
}

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_contiguous(count, oldtype, newtype), __func__);
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype *newtype)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_type_vector(count, blocklength, stride, oldtype, newtype), __func__);
}

int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                     const int array_of_displacements[], MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return rmpi_raise(
        MPI_COMM_WORLD,
        rmp_type_indexed(count, array_of_blocklengths, array_of_displacements, oldtype, newtype),
        __func__);
}

int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                             const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_type_create_hindexed(count, array_of_blocklengths, array_of_displacements,
                                               oldtype, newtype),
                      __func__);
}

int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[],
                           const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_type_create_struct(count, array_of_blocklengths, array_of_displacements,
                                             array_of_types, newtype),
                      __func__);
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newtype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_create_resized(oldtype, lb, extent, newtype),
                      __func__);
}

int MPI_Type_commit(MPI_Datatype *datatype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_commit(datatype), __func__);
}

/* The delete callbacks of the type's attributes run first (not for a builtin, which cannot
 * be freed); one that fails makes the free fail with its error. */
int MPI_Type_free(MPI_Datatype *datatype)
{
    int ni, na, nt, comb;
    /* a valid type, and one rmp_type_free frees: derived (a name set on it says nothing) */
    if (datatype && rmp_type_get_envelope(*datatype, &ni, &na, &nt, &comb) == RMP_SUCCESS &&
        comb != RMP_COMBINER_NAMED && comb != RMP_COMBINER_F90_REAL &&
        comb != RMP_COMBINER_F90_COMPLEX && comb != RMP_COMBINER_F90_INTEGER) {
        int code = rmpi_attr_delete_all(RMPI_KIND_TYPE, *datatype);
        if (code != MPI_SUCCESS)
            return rmpi_raise_code(MPI_COMM_WORLD, code, __func__);
    }
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_free(datatype), __func__);
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_get_count(status ? &status->rmp_status_ : NULL, datatype, count),
                      __func__);
}

int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_get_elements(status ? &status->rmp_status_ : NULL, datatype, count),
                      __func__);
}

int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_op_create(user_fn, commute, op), __func__);
}

int MPI_Op_free(MPI_Op *op)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_op_free(op), __func__);
}
