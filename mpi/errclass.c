/* errclass.c — the MPI calls on user error classes, codes and strings (MPI-3.1 8.5, MPI-4.1
 * 9.5): MPI_Add_error_class, _code, _string and MPI_Remove_error_class, _code, _string; their
 * checks and raising. The table itself (MPI numbers rmp never raises) is errcode.c's. */
#include <stdlib.h>
#include <string.h>

#include "rmpi.h"

int MPI_Add_error_class(int *errorclass)
{
    int rc = errorclass ? rmpi_ec_add(-1, errorclass) : MPI_ERR_ARG;
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

/* errorclass: a predefined class or one MPI_Add_error_class made (not a mere code). */
int MPI_Add_error_code(int errorclass, int *errorcode)
{
    int cls = -1;
    bool ok = (errorclass >= MPI_SUCCESS && errorclass <= MPI_ERR_LASTCLASS) ||
              (rmpi_user_code(errorclass, &cls, NULL) && cls == errorclass);
    int rc = !errorcode || !ok || errorclass == MPI_SUCCESS ? MPI_ERR_ARG
                                                            : rmpi_ec_add(errorclass, errorcode);
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Add_error_string(int errorcode, const char *string)
{
    int rc = MPI_SUCCESS;
    size_t n = string ? strnlen(string, MPI_MAX_ERROR_STRING) : 0;
    char *copy = NULL;
    if (!string || n >= MPI_MAX_ERROR_STRING)
        rc = MPI_ERR_ARG;
    else if (!(copy = malloc(n + 1)))
        rc = MPI_ERR_NO_MEM;
    else
        memcpy(copy, string, n + 1);
    if (!rc) {
        rc = rmpi_ec_set_string(errorcode, copy);
    }
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Remove_error_class(int errorclass)
{
    return rmpi_raise_code(MPI_COMM_WORLD, rmpi_ec_remove(errorclass, true), __func__);
}

int MPI_Remove_error_code(int errorcode)
{
    return rmpi_raise_code(MPI_COMM_WORLD, rmpi_ec_remove(errorcode, false), __func__);
}

/* The string MPI_Add_error_string gave a code or class (none: MPI_ERR_ARG). */
int MPI_Remove_error_string(int errorcode)
{
    return rmpi_raise_code(MPI_COMM_WORLD, rmpi_ec_drop_string(errorcode), __func__);
}
