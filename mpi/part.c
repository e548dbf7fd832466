/* part.c — MPI-4.0's partitioned communication (MPI_Psend_init, Precv_init, Pready,
 * Pready_range, Pready_list, Parrived) over rmp's. The MPI layer's part is the info argument
 * (checked, its hints ignored) and where errors are raised: the inits on the communicator's
 * handler, the calls that take only a request on MPI_COMM_WORLD's (as Start and Wait). */
#include "rmpi.h"

int MPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int code = rmpi_info_check(info);
    if (code != MPI_SUCCESS)
        return rmpi_raise_code(comm, code, __func__);
    return rmpi_raise(
        comm, rmp_psend_init(buf, partitions, count, datatype, dest, tag, comm, request),
        __func__);
}

int MPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                   int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int code = rmpi_info_check(info);
    if (code != MPI_SUCCESS)
        return rmpi_raise_code(comm, code, __func__);
    return rmpi_raise(
        comm, rmp_precv_init(buf, partitions, count, datatype, source, tag, comm, request),
        __func__);
}

int MPI_Pready(int partition, MPI_Request request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_pready(partition, request), __func__);
}

int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_pready_range(partition_low, partition_high, request),
                      __func__);
}

int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_pready_list(length, array_of_partitions, request),
                      __func__);
}

int MPI_Parrived(MPI_Request request, int partition, int *flag)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_parrived(request, partition, flag), __func__);
}
