/* names.c — MPI_Type_get_name: MPI's names for the named types (rmp's native call checks the
 * handle and names derived types). Every named type is its own handle (mpi.h): rmp's builtin
 * of its C type, or one of rmp's named synonyms of it, so each handle has one name. */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "rmpi.h"

/* Indexed by handle; a constant table, so concurrent calls need no lock. */
static const char *const rmpi_type_names[] = {
    [RMP_INT8] = "MPI_CHAR",
    [RMP_INT16] = "MPI_SHORT",
    [RMP_INT32] = "MPI_INT",
    [RMP_INT64] = "MPI_LONG_LONG_INT",
    [RMP_UINT8] = "MPI_UNSIGNED_CHAR",
    [RMP_UINT16] = "MPI_UNSIGNED_SHORT",
    [RMP_UINT32] = "MPI_UNSIGNED",
    [RMP_UINT64] = "MPI_UNSIGNED_LONG_LONG",
    [RMP_FLOAT] = "MPI_FLOAT",
    [RMP_DOUBLE] = "MPI_DOUBLE",
    [RMP_BYTE] = "MPI_BYTE",
    [RMP_2INT] = "MPI_2INT",
    [RMP_FLOAT_INT] = "MPI_FLOAT_INT",
    [RMP_DOUBLE_INT] = "MPI_DOUBLE_INT",
    [RMP_LONG_INT] = "MPI_LONG_INT",
    [RMP_SHORT_INT] = "MPI_SHORT_INT",
    [RMP_PACKED] = "MPI_PACKED",
    [RMP_LONG_DOUBLE] = "MPI_LONG_DOUBLE",
    [RMP_WCHAR] = "MPI_WCHAR",
    [RMP_C_BOOL] = "MPI_C_BOOL",
    [RMP_C_FLOAT_COMPLEX] = "MPI_C_FLOAT_COMPLEX",
    [RMP_C_DOUBLE_COMPLEX] = "MPI_C_DOUBLE_COMPLEX",
    [RMP_C_LONG_DOUBLE_COMPLEX] = "MPI_C_LONG_DOUBLE_COMPLEX",
    [RMP_LONG_DOUBLE_INT] = "MPI_LONG_DOUBLE_INT",
    [RMP_LOGICAL] = "MPI_LOGICAL",
    [RMP_2REAL] = "MPI_2REAL",
    [RMP_2DOUBLE_PRECISION] = "MPI_2DOUBLE_PRECISION",
    /* rmp's named synonyms (rmp.h) */
    [RMP_SIGNED_CHAR] = "MPI_SIGNED_CHAR",
    [RMP_INT8_T] = "MPI_INT8_T",
    [RMP_INT16_T] = "MPI_INT16_T",
    [RMP_INT32_T] = "MPI_INT32_T",
    [RMP_INT64_T] = "MPI_INT64_T",
    [RMP_UINT8_T] = "MPI_UINT8_T",
    [RMP_UINT16_T] = "MPI_UINT16_T",
    [RMP_UINT32_T] = "MPI_UINT32_T",
    [RMP_UINT64_T] = "MPI_UINT64_T",
    [RMP_LONG] = "MPI_LONG",
    [RMP_UNSIGNED_LONG] = "MPI_UNSIGNED_LONG",
    [RMP_LONG_LONG] = "MPI_LONG_LONG",
    [RMP_AINT] = "MPI_AINT",
    [RMP_OFFSET] = "MPI_OFFSET",
    [RMP_COUNT] = "MPI_COUNT",
    [RMP_C_COMPLEX] = "MPI_C_COMPLEX",
    [RMP_CXX_BOOL] = "MPI_CXX_BOOL",
    [RMP_CXX_FLOAT_COMPLEX] = "MPI_CXX_FLOAT_COMPLEX",
    [RMP_CXX_DOUBLE_COMPLEX] = "MPI_CXX_DOUBLE_COMPLEX",
    [RMP_CXX_LONG_DOUBLE_COMPLEX] = "MPI_CXX_LONG_DOUBLE_COMPLEX",
    [RMP_INTEGER] = "MPI_INTEGER",
    [RMP_REAL] = "MPI_REAL",
    [RMP_DOUBLE_PRECISION] = "MPI_DOUBLE_PRECISION",
    [RMP_COMPLEX] = "MPI_COMPLEX",
    [RMP_DOUBLE_COMPLEX] = "MPI_DOUBLE_COMPLEX",
    [RMP_CHARACTER] = "MPI_CHARACTER",
    [RMP_INTEGER1] = "MPI_INTEGER1",
    [RMP_INTEGER2] = "MPI_INTEGER2",
    [RMP_INTEGER4] = "MPI_INTEGER4",
    [RMP_INTEGER8] = "MPI_INTEGER8",
    [RMP_REAL4] = "MPI_REAL4",
    [RMP_REAL8] = "MPI_REAL8",
    [RMP_COMPLEX8] = "MPI_COMPLEX8",
    [RMP_COMPLEX16] = "MPI_COMPLEX16",
    [RMP_2INTEGER] = "MPI_2INTEGER",
    [RMP_LOGICAL1] = "MPI_LOGICAL1",
    [RMP_LOGICAL2] = "MPI_LOGICAL2",
    [RMP_LOGICAL4] = "MPI_LOGICAL4",
    [RMP_LOGICAL8] = "MPI_LOGICAL8",
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
