/* info.c — MPI's info objects over rmp's (runtime/info.c). Info objects belong to no
 * communicator: their errors are raised on MPI_COMM_WORLD's handler (MPI-3.1 8.3). */
#include "rmpi.h"

int rmpi_info_check(MPI_Info info)
{
    int n;
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    return rmp_info_get_nkeys(info, &n) == RMP_SUCCESS ? MPI_SUCCESS : MPI_ERR_INFO;
}

int MPI_Info_create(MPI_Info *info)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_create(info), __func__);
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_set(info, key, value), __func__);
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_get(info, key, valuelen, value, flag), __func__);
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_get_valuelen(info, key, valuelen, flag),
                      __func__);
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_get_nkeys(info, nkeys), __func__);
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_get_nthkey(info, n, key), __func__);
}

int MPI_Info_delete(MPI_Info info, const char *key)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_delete(info, key), __func__);
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_dup(info, newinfo), __func__);
}

int MPI_Info_free(MPI_Info *info)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_free(info), __func__);
}
