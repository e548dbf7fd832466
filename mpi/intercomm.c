/* intercomm.c — MPI's intercommunicator calls over rmp's (comm/inter.c). A new
 * communicator inherits the error handler of the one it is made from (MPI-3.1 8.3): local_comm
 * for MPI_Intercomm_create, the intercommunicator for MPI_Intercomm_merge. */
#include "rmpi.h"

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                         int remote_leader, int tag, MPI_Comm *newintercomm)
{
    int rc = rmp_intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag,
                                  newintercomm);
    if (rc == RMP_SUCCESS)
        rmpi_errh_inherit(local_comm, *newintercomm);
    return rmpi_raise(local_comm, rc, __func__);
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    int rc = rmp_intercomm_merge(intercomm, high, newintracomm);
    if (rc == RMP_SUCCESS)
        rmpi_errh_inherit(intercomm, *newintracomm);
    return rmpi_raise(intercomm, rc, __func__);
}

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    return rmpi_raise(comm, rmp_comm_test_inter(comm, flag), __func__);
}

int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    return rmpi_raise(comm, rmp_comm_remote_size(comm, size), __func__);
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    return rmpi_raise(comm, rmp_comm_remote_group(comm, group), __func__);
}
