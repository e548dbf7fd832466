/* comm.c — MPI's communicator and group calls over rmp's; a new communicator inherits its
 * parent's error handler (MPI-3.1 8.3). */
#include "rmpi.h"

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    return rmpi_raise(comm, rmp_comm_rank(comm, rank), __func__);
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    return rmpi_raise(comm, rmp_comm_size(comm, size), __func__);
}

/* The copy callbacks of comm's attributes run on the new communicator; one that fails makes
 * the dup fail with its error, and *newcomm is then MPI_COMM_NULL (as MPICH does). */
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int rc = rmp_comm_dup(comm, newcomm);
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    rmpi_errh_inherit(comm, *newcomm);
    int code = rmpi_attr_copy(RMPI_KIND_COMM, comm, *newcomm);
    if (code != MPI_SUCCESS) {
        rmpi_errh_forget(*newcomm);
        (void)rmp_comm_free(newcomm);
        *newcomm = MPI_COMM_NULL;
    }
    return rmpi_raise_code(comm, code, __func__);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = rmp_comm_split(comm, color, key, newcomm);
    if (rc == RMP_SUCCESS && *newcomm != MPI_COMM_NULL)
        rmpi_errh_inherit(comm, *newcomm);
    return rmpi_raise(comm, rc, __func__);
}

/* info carries hints only: any valid one is accepted (an invalid handle: MPI_ERR_INFO). */
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
    if (rmpi_info_check(info) != MPI_SUCCESS)
        return rmpi_raise_code(comm, MPI_ERR_INFO, __func__);
    int rc = rmp_comm_split_type_info(comm, split_type, key, info, newcomm);
    if (rc == RMP_SUCCESS && *newcomm != MPI_COMM_NULL)
        rmpi_errh_inherit(comm, *newcomm);
    return rmpi_raise(comm, rc, __func__);
}

/* The delete callbacks of comm's attributes run first (last set first); one that fails makes
 * the free fail with its error, comm still valid. */
int MPI_Comm_free(MPI_Comm *comm)
{
    MPI_Comm old = comm ? *comm : MPI_COMM_NULL;
    int size;
    if (old != MPI_COMM_WORLD && old != MPI_COMM_SELF && rmp_comm_size(old, &size) == RMP_SUCCESS) {
        int code = rmpi_attr_delete_all(RMPI_KIND_COMM, old);
        if (code != MPI_SUCCESS)
            return rmpi_raise_code(old, code, __func__);
    }
    int rc = rmp_comm_free(comm);
    if (rc == RMP_SUCCESS)
        rmpi_errh_forget(old); /* the handle may be reused: its next owner starts fatal */
    return rmpi_raise(old, rc, __func__);
}

/* MPI_Comm_free once every member got here (a barrier first: their communication on comm has
 * completed). Of MPI's dynamic processes only this is here, on communicators of one job, as
 * programs call it in place of MPI_Comm_free; the attributes go first, as with Comm_free. */
int MPI_Comm_disconnect(MPI_Comm *comm)
{
    MPI_Comm old = comm ? *comm : MPI_COMM_NULL;
    int size;
    if (!comm || old == MPI_COMM_WORLD || old == MPI_COMM_SELF ||
        rmp_comm_size(old, &size) != RMP_SUCCESS)
        return rmpi_raise(old, comm ? RMP_ERR_COMM : RMP_ERR_ARG, __func__);
    int rc = rmp_barrier(old);
    if (rc != RMP_SUCCESS)
        return rmpi_raise(old, rc, __func__);
    return MPI_Comm_free(comm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    int rc = rmp_comm_create(comm, group, newcomm);
    if (rc == RMP_SUCCESS && *newcomm != MPI_COMM_NULL)
        rmpi_errh_inherit(comm, *newcomm);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    return rmpi_raise(comm1, rmp_comm_compare(comm1, comm2, result), __func__);
}

/* Groups have no error handler of their own: MPI-3.1 8.3 raises errors that belong to no
 * communicator on MPI_COMM_WORLD's. */
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    return rmpi_raise(comm, rmp_comm_group(comm, group), __func__);
}

int MPI_Group_size(MPI_Group group, int *size)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_size(group, size), __func__);
}

int MPI_Group_rank(MPI_Group group, int *rank)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_rank(group, rank), __func__);
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_incl(group, n, ranks, newgroup), __func__);
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_excl(group, n, ranks, newgroup), __func__);
}

int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                              int ranks2[])
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_translate_ranks(group1, n, ranks1, group2, ranks2),
                      __func__);
}

int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_compare(group1, group2, result), __func__);
}

/* Open MPI and MPICH accept MPI_GROUP_EMPTY here (it is what Group_incl of no rank and
 * Group_excl of every rank return, and programs free what they got); rmp's builtin is never
 * freed, so the handle only becomes MPI_GROUP_NULL. */
int MPI_Group_free(MPI_Group *group)
{
    if (group && *group == MPI_GROUP_EMPTY) {
        *group = MPI_GROUP_NULL;
        return MPI_SUCCESS;
    }
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_free(group), __func__);
}
