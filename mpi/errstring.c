/* errstring.c — what an error code says: MPI_Error_class and MPI_Error_string, over both
 * MPI's and rmp's codes (errors.c) and the program's own classes and codes (errclass.c), so
 * that neither of those two has to call the other back. */
#include <stdio.h>
#include <string.h>

#include "rmpi.h"

int MPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass)
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    if (errorcode >= MPI_SUCCESS && errorcode <= MPI_ERR_LASTCLASS)
        *errorclass = errorcode;
    else if (rmpi_extra_err(errorcode))
        *errorclass = MPI_ERR_OTHER;
    else if (!rmpi_user_code(errorcode, errorclass, NULL))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    return MPI_SUCCESS;
}

/* "MPI_ERR_RANK: invalid rank": the class name, then rmp's description of the error. */
int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    int cls, e = rmpi_extra_err(errorcode);
    if (!string || !resultlen)
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    if (!e && rmpi_user_code(errorcode, &cls, string)) { /* the string added, else "" */
        *resultlen = (int)strlen(string);
        return MPI_SUCCESS;
    }
    if (e)
        cls = MPI_ERR_OTHER;
    else if (errorcode >= MPI_SUCCESS && errorcode <= MPI_ERR_LASTCLASS)
        cls = errorcode, e = rmpi_err_of_class(cls);
    else
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    const char *text = cls == MPI_SUCCESS     ? "no error"
                       : e                    ? rmp_strerror(e)
                       : cls == MPI_ERR_OTHER ? "other error"
                                              : "an error class rmp never raises";
    /* a file system's failure: the path and errno of this thread's last one (io/) */
    const char *io = e <= RMP_ERR_NO_SUCH_FILE && e >= RMP_ERR_IO ? rmp_file_error_detail() : "";
    int n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s%s%s%s", rmpi_class_name[cls], text,
                     *io ? " (" : "", io, *io ? ")" : "");
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}
