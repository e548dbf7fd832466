/* mpi41.c — calls of MPI-4.0, 4.1 and 5.0 with no better home in the layer: MPI_Info_create_env
 * and MPI_Info_get_string, the status field accessors, MPI_Request_get_status over arrays,
 * MPI_Type_get_value_index, MPI_Get_hw_resource_info and the MPI-5.0 ABI queries (which say
 * that rmp's ABI is its own). Errors go to MPI_COMM_WORLD's handler: none has a communicator. */
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "rmpi.h"

/* ---- info ---- */

int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_info_create_env(argc, argv, info), __func__);
}

int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    int len = 0;
    int rc = !buflen || !flag ? RMP_ERR_ARG : rmp_info_get_valuelen(info, key, &len, flag);
    if (rc == RMP_SUCCESS && (*buflen < 0 || (*buflen > 0 && !value)))
        rc = RMP_ERR_ARG;
    if (rc == RMP_SUCCESS && *flag && *buflen > 0) /* at most *buflen - 1 characters + NUL */
        rc = rmp_info_get(info, key, *buflen - 1, value, flag);
    if (rc == RMP_SUCCESS && *flag)
        *buflen = len + 1;
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

/* A new info holding the n (key, value) pairs (freed again on failure). */
static int info_of(const char *const kv[][2], int n, MPI_Info *info)
{
    if (!info)
        return RMP_ERR_ARG;
    int rc = rmp_info_create(info);
    for (int i = 0; rc == RMP_SUCCESS && i < n; i++)
        rc = rmp_info_set(*info, kv[i][0], kv[i][1]);
    if (rc != RMP_SUCCESS && *info != MPI_INFO_NULL)
        (void)rmp_info_free(info);
    return rc;
}

int MPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    char host[256] = "unknown", ncpus[32];
    struct utsname u;
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    snprintf(ncpus, sizeof ncpus, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    const char *const kv[][2] = {
        {"mpi_hw_resource_type", "mpi_shared_memory"},
        {"rmp_host", host},
        {"rmp_ncpus", ncpus},
        {"rmp_arch", uname(&u) == 0 ? u.machine : "unknown"},
    };
    return rmpi_raise(MPI_COMM_WORLD, info_of(kv, 4, hw_info), __func__);
}

/* ---- the ABI (MPI-5.0 20.1): rmp's own, not the standard one ---- */

int MPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    if (!abi_major || !abi_minor)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    *abi_major = -1; /* MPI-5.0: -1 and -1 when the standard ABI is not the one in use */
    *abi_minor = -1;
    return MPI_SUCCESS;
}

int MPI_Abi_get_info(MPI_Info *info)
{
    char aint[8], count[8], offset[8];
    snprintf(aint, sizeof aint, "%zu", sizeof(MPI_Aint));
    snprintf(count, sizeof count, "%zu", sizeof(MPI_Count));
    snprintf(offset, sizeof offset, "%zu", sizeof(MPI_Offset));
    const char *const kv[][2] = {
        {"mpi_abi", "rmp"},        {"mpi_abi_standard", "false"}, {"mpi_aint_size", aint},
        {"mpi_count_size", count}, {"mpi_offset_size", offset},
    };
    return rmpi_raise(MPI_COMM_WORLD, info_of(kv, 5, info), __func__);
}

int MPI_Abi_get_fortran_info(MPI_Info *info)
{
    char fint[8];
    snprintf(fint, sizeof fint, "%zu", sizeof(MPI_Fint));
    const char *const kv[][2] = {{"mpi_fortran_bindings", "none"}, {"mpi_fint_size", fint}};
    return rmpi_raise(MPI_COMM_WORLD, info_of(kv, 2, info), __func__);
}

/* ---- statuses ---- */

/* A status field's accessor: MPI_ERR_ARG for a NULL status or (get) a NULL result. */
static int status_check(const MPI_Status *status, const void *out, const char *call)
{
    return status && out ? MPI_SUCCESS : rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, call);
}

int MPI_Status_get_source(MPI_Status *status, int *source)
{
    int rc = status_check(status, source, __func__);
    if (rc == MPI_SUCCESS)
        *source = status->MPI_SOURCE;
    return rc;
}

int MPI_Status_set_source(MPI_Status *status, int source)
{
    int rc = status_check(status, status, __func__);
    if (rc == MPI_SUCCESS)
        status->MPI_SOURCE = source;
    return rc;
}

int MPI_Status_get_tag(MPI_Status *status, int *tag)
{
    int rc = status_check(status, tag, __func__);
    if (rc == MPI_SUCCESS)
        *tag = status->MPI_TAG;
    return rc;
}

int MPI_Status_set_tag(MPI_Status *status, int tag)
{
    int rc = status_check(status, status, __func__);
    if (rc == MPI_SUCCESS)
        status->MPI_TAG = tag;
    return rc;
}

int MPI_Status_get_error(MPI_Status *status, int *error)
{
    int rc = status_check(status, error, __func__);
    if (rc == MPI_SUCCESS)
        *error = status->MPI_ERROR;
    return rc;
}

int MPI_Status_set_error(MPI_Status *status, int error)
{
    int rc = status_check(status, status, __func__);
    if (rc == MPI_SUCCESS)
        status->MPI_ERROR = error;
    return rc;
}

/* ---- requests ---- */

int MPI_Request_get_status_all(int count, MPI_Request array_of_requests[], int *flag,
                               MPI_Status array_of_statuses[])
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, array_of_statuses, count);
    int rc = rmp_request_get_status_all(count, array_of_requests, flag, rmpi_st(array_of_statuses));
    rmpi_status_fix(&sv_, array_of_statuses, count, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Request_get_status_any(int count, MPI_Request array_of_requests[], int *index, int *flag,
                               MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_request_get_status_any(count, array_of_requests, index, flag, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Request_get_status_some(int incount, MPI_Request array_of_requests[], int *outcount,
                                int array_of_indices[], MPI_Status array_of_statuses[])
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, array_of_statuses, incount);
    int rc = rmp_request_get_status_some(incount, array_of_requests, outcount, array_of_indices,
                                         rmpi_st(array_of_statuses));
    rmpi_status_fix(&sv_, array_of_statuses, incount, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

/* ---- datatypes ---- */

/* MPI-4.1 5.9.4's table of the predefined pair types. */
static const MPI_Datatype value_index[][3] = {
    {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
    {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
    {MPI_LONG, MPI_INT, MPI_LONG_INT},
    {MPI_INT, MPI_INT, MPI_2INT},
    {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
    {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
    {MPI_REAL, MPI_REAL, MPI_2REAL},
    {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
};

int MPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                             MPI_Datatype *pair_type)
{
    size_t sz;
    int rc = rmp_type_size(value_type, &sz);
    if (rc == RMP_SUCCESS)
        rc = rmp_type_size(index_type, &sz);
    if (rc == RMP_SUCCESS && !pair_type)
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof value_index / sizeof value_index[0]; i++)
        if (value_index[i][0] == value_type && value_index[i][1] == index_type)
            *pair_type = value_index[i][2];
    return MPI_SUCCESS;
}
