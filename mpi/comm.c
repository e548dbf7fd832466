/* comm.c — MPI's communicator calls over rmp's; a new communicator inherits its parent's
 * error handler (MPI-3.1 8.3). */
#include "rmpi.h"

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    return rmpi_raise(comm, rmp_comm_rank(comm, rank), __func__);
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    return rmpi_raise(comm, rmp_comm_size(comm, size), __func__);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int rc = rmp_comm_dup(comm, newcomm);
    if (rc == RMP_SUCCESS)
        rmpi_errh_inherit(comm, *newcomm);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = rmp_comm_split(comm, color, key, newcomm);
    if (rc == RMP_SUCCESS && *newcomm != MPI_COMM_NULL)
        rmpi_errh_inherit(comm, *newcomm);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Comm_free(MPI_Comm *comm)
{
    MPI_Comm old = comm ? *comm : MPI_COMM_NULL;
    int rc = rmp_comm_free(comm);
    if (rc == RMP_SUCCESS)
        rmpi_errh_forget(old); /* the handle may be reused: its next owner starts fatal */
    return rmpi_raise(old, rc, __func__);
}
