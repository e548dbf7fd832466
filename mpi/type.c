/* type.c — MPI's datatype calls over rmp's (builtins, contiguous, vector). */
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

/* rmp's types have no negative displacements and no resizing: the lower bound is 0. */
int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    size_t ext = 0;
    int rc = rmp_type_extent(datatype, &ext);
    if (rc == RMP_SUCCESS && (!lb || !extent))
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
    *lb = 0;
    *extent = (MPI_Aint)ext;
    return MPI_SUCCESS;
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

int MPI_Type_commit(MPI_Datatype *datatype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_commit(datatype), __func__);
}

int MPI_Type_free(MPI_Datatype *datatype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_free(datatype), __func__);
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_get_count(status ? &status->rmp_status_ : NULL, datatype, count),
                      __func__);
}
