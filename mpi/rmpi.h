/* rmpi.h — what the files of the MPI layer (the sources in mpi/, librmp-mpi) share: turning an rmp
 * result into an MPI error code and raising it on a communicator's error handler, and the
 * statuses, which are rmp's own seen through MPI's field names. */
#ifndef RMPI_H
#define RMPI_H

#include "rmp/mpi.h"

/* The MPI error code for an rmp result (RMP_SUCCESS -> MPI_SUCCESS). */
int rmpi_code(int rmp_err);

/* Returns MPI_SUCCESS for RMP_SUCCESS. Otherwise raises the error on comm's handler: under
 * MPI_ERRORS_RETURN returns the MPI code; under MPI_ERRORS_ARE_FATAL prints one line naming
 * `call`, the rank and the error, and ends the job. An invalid comm uses MPI_COMM_WORLD's. */
int rmpi_raise(MPI_Comm comm, int rmp_err, const char *call);
/* The same for an error detected by the layer itself, already an MPI code. */
int rmpi_raise_code(MPI_Comm comm, int code, const char *call);

/* Error handlers follow communicators: a new one inherits its parent's, a freed one forgets. */
void rmpi_errh_inherit(MPI_Comm parent, MPI_Comm child);
void rmpi_errh_forget(MPI_Comm comm);

/* An MPI_Info argument of a call that takes hints: MPI_SUCCESS for MPI_INFO_NULL and any valid
 * info (hints never change what rmp does), MPI_ERR_INFO for an invalid or freed handle. */
int rmpi_info_check(MPI_Info info);

/* After a successful MPI_Init/MPI_Init_thread: an exit with status 0 that did not finalize
 * finalizes then (exit.c). */
void rmpi_exit_register(void);

/* The rmp view of a status (NULL stays NULL: MPI_STATUS_IGNORE). */
static inline rmp_status_t *rmpi_st(MPI_Status *s)
{
    return s ? &s->rmp_status_ : RMP_STATUS_IGNORE;
}

/* Before rmp may fill n statuses: their error fields become RMP_SUCCESS, so that the fix
 * below reads a defined value whatever rmp wrote (an argument error writes nothing). */
void rmpi_status_prep(MPI_Status *s, int n);
/* After rmp filled n statuses: their error fields become MPI codes. */
void rmpi_status_fix(MPI_Status *s, int n);

#endif
