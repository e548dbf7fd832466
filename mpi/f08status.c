/* f08status.c — MPI-4.0 19.3.5's status conversions among C's MPI_Status, mpi_f08's
 * TYPE(MPI_Status) (MPI_F08_status) and mpif.h's INTEGER array, and the mpi_f08 IGNORE
 * sentinels. The three are the same bytes here (mpi_fortran.h), so a conversion checks its
 * arguments and copies. */
#include <string.h>

#include "rmpi.h"

MPI_F08_status rmp_mpi_f08_status_ignore_[1];
MPI_F08_status rmp_mpi_f08_statuses_ignore_[1];
MPI_F08_status *MPI_F08_STATUS_IGNORE = rmp_mpi_f08_status_ignore_;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = rmp_mpi_f08_statuses_ignore_;

/* A status argument these calls accept: neither NULL (C's IGNORE) nor one of mpif.h's or
 * mpi_f08's IGNORE objects. */
static int status_ok(const void *s)
{
    return s && s != (const void *)MPI_F08_STATUS_IGNORE &&
           s != (const void *)MPI_F08_STATUSES_IGNORE && s != (const void *)MPI_F_STATUS_IGNORE &&
           s != (const void *)MPI_F_STATUSES_IGNORE;
}

static int status_copy(const void *from, void *to, const char *call)
{
    if (!status_ok(from) || !status_ok(to))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, call);
    memmove(to, from, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

int MPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    return status_copy(c_status, f08_status, __func__);
}

int MPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    return status_copy(f08_status, c_status, __func__);
}

int MPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    return status_copy(f08_status, f_status, __func__);
}

int MPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    return status_copy(f_status, f08_status, __func__);
}

MPI_Fint MPI_Session_c2f(MPI_Session session)
{
    return (MPI_Fint)session;
}
MPI_Session MPI_Session_f2c(MPI_Fint session)
{
    return (MPI_Session)session;
}
