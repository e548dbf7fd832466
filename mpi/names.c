/* names.c — MPI_Type_get_name: MPI's names for the builtin handles (rmp's native call checks
 * the handle and names derived types). Several MPI names share one rmp handle (MPI_CHAR,
 * MPI_SIGNED_CHAR and MPI_INT8_T are RMP_INT8, for instance): each handle answers with the
 * C type's name a program most likely used, listed below. */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "rmpi.h"

/* Indexed by handle; a constant table, so concurrent calls need no lock. */
static const char *const rmpi_type_names[] = {
    [RMP_INT8] = "MPI_CHAR",   /* also MPI_SIGNED_CHAR, MPI_INT8_T */
    [RMP_INT16] = "MPI_SHORT", /* also MPI_INT16_T */
    [RMP_INT32] = "MPI_INT",   /* also MPI_INT32_T (and MPI_LONG on ILP32) */
#if defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ == 4
    [RMP_INT64] = "MPI_LONG_LONG", /* also MPI_INT64_T, MPI_OFFSET, MPI_COUNT */
    [RMP_UINT64] = "MPI_UNSIGNED_LONG_LONG",
    [RMP_UINT32] = "MPI_UNSIGNED", /* also MPI_UNSIGNED_LONG, MPI_UINT32_T */
#else
    [RMP_INT64] = "MPI_LONG",           /* also MPI_LONG_LONG, MPI_INT64_T, MPI_AINT... */
    [RMP_UINT64] = "MPI_UNSIGNED_LONG", /* also MPI_UNSIGNED_LONG_LONG, MPI_UINT64_T */
    [RMP_UINT32] = "MPI_UNSIGNED",      /* also MPI_UINT32_T */
#endif
    [RMP_UINT8] = "MPI_UNSIGNED_CHAR",   /* also MPI_UINT8_T */
    [RMP_UINT16] = "MPI_UNSIGNED_SHORT", /* also MPI_UINT16_T */
    [RMP_FLOAT] = "MPI_FLOAT",
    [RMP_DOUBLE] = "MPI_DOUBLE",
    [RMP_BYTE] = "MPI_BYTE",
    [RMP_2INT] = "MPI_2INT",
    [RMP_FLOAT_INT] = "MPI_FLOAT_INT",
    [RMP_DOUBLE_INT] = "MPI_DOUBLE_INT",
    [RMP_LONG_INT] = "MPI_LONG_INT",
    [RMP_PACKED] = "MPI_PACKED",
    [RMP_SHORT_INT] = "MPI_SHORT_INT",
    /* issue 20, predefined types (the aliases are in mpi.h's section) */
    [RMP_LONG_DOUBLE] = "MPI_LONG_DOUBLE",
    [RMP_WCHAR] = "MPI_WCHAR",
    [RMP_C_BOOL] = "MPI_C_BOOL",                   /* also MPI_CXX_BOOL */
    [RMP_C_FLOAT_COMPLEX] = "MPI_C_FLOAT_COMPLEX", /* also MPI_C_COMPLEX, MPI_COMPLEX... */
    [RMP_C_DOUBLE_COMPLEX] = "MPI_C_DOUBLE_COMPLEX", /* also MPI_DOUBLE_COMPLEX... */
    [RMP_C_LONG_DOUBLE_COMPLEX] = "MPI_C_LONG_DOUBLE_COMPLEX",
    [RMP_LONG_DOUBLE_INT] = "MPI_LONG_DOUBLE_INT",
    [RMP_LOGICAL] = "MPI_LOGICAL",
    [RMP_2REAL] = "MPI_2REAL",
    [RMP_2DOUBLE_PRECISION] = "MPI_2DOUBLE_PRECISION",
};

/* Builtins renamed by MPI_Type_set_name answer with their new name (rmp's) from then on. */
#define RMPI_NBUILTIN_NAMES ((int)(sizeof rmpi_type_names / sizeof rmpi_type_names[0]))
static atomic_bool rmpi_type_renamed[RMPI_NBUILTIN_NAMES];

int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    int rc = rmp_type_set_name(datatype, type_name);
    if (rc == RMP_SUCCESS && datatype > 0 && datatype < RMPI_NBUILTIN_NAMES)
        atomic_store(&rmpi_type_renamed[datatype], true);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    if (!resultlen)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    int rc = rmp_type_get_name(datatype, type_name, resultlen);
    if (rc != RMP_SUCCESS)
        return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
    int n = (int)(sizeof rmpi_type_names / sizeof rmpi_type_names[0]);
    if (datatype > 0 && datatype < n && rmpi_type_names[datatype] &&
        !atomic_load(&rmpi_type_renamed[datatype])) {
        size_t len = strlen(rmpi_type_names[datatype]);
        memcpy(type_name, rmpi_type_names[datatype], len + 1);
        *resultlen = (int)len;
    }
    return MPI_SUCCESS;
}
