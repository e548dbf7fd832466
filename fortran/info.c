/* info.c — MPI_Info_get_string from Fortran, whose buflen counts characters without C's NUL
 * (MPI-4.0 10.1): buflen 0 only asks the length and leaves value alone; otherwise the first
 * buflen characters of the value, blank-padded; buflen comes back as the value's length. */
#include "rmpif.h"

RMPIF_API void pmpi_info_get_string_(MPI_Fint *info, char *key, MPI_Fint *buflen, char *value,
                                     MPI_Fint *flag, MPI_Fint *ierr, size_t key_len,
                                    size_t value_len)
{
    char *c_key = rmpif_str_in_info(key, key_len);
    size_t want = *buflen > 0 ? (size_t)*buflen : 0;
    if (want > value_len)
        want = value_len;
    char *c_value = calloc(want + 1, 1);
    if (!c_key || !c_value) {
        free(c_key);
        free(c_value);
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    int c_buflen = want ? (int)want + 1 : 0, c_flag = 0;
    *ierr = MPI_Info_get_string((MPI_Info)*info, c_key, &c_buflen, c_value, &c_flag);
    if (*ierr == MPI_SUCCESS && c_flag) {
        if (want)
            rmpif_str_out(c_value, value, value_len);
        *buflen = c_buflen - 1;
    }
    *flag = c_flag ? RMPIF_TRUE : RMPIF_FALSE;
    free(c_key);
    free(c_value);
}

/* The MPI_ names, weak: a Fortran profiling tool defines its own and calls the PMPI_ ones. */
RMPIF_MPI_ALIAS(mpi_info_get_string_);
