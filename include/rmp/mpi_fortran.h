/* mpi_fortran.h — the C side of MPI-4.0 19.3.5 for mpi_f08: the MPI_F08_status type (the C view
 * of Fortran's TYPE(MPI_Status)), its IGNORE sentinels and the status conversions between C,
 * mpif.h/`use mpi` (MPI_Fint[MPI_STATUS_SIZE]) and mpi_f08; and the session handle's c2f/f2c.
 * Included by mpi.h; not meant to be included on its own. */
#ifndef RMP_MPI_FORTRAN_H
#define RMP_MPI_FORTRAN_H

/* mpi_f08's TYPE(MPI_Status) is BIND(C) with MPI_Status's exact layout (MPI_SOURCE, MPI_TAG,
 * MPI_ERROR, then rmp's private fields), so the three views of a status are the same bytes
 * and every conversion is a copy. */
typedef MPI_Status MPI_F08_status;

/* The objects mpi_f08's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are (Fortran binds its
 * module variables to these names): a C wrapper of the Fortran binding that receives one of
 * these addresses ignores the status. Not for programs: use the MPI_F08_ names below. */
extern MPI_F08_status rmp_mpi_f08_status_ignore_[1];
extern MPI_F08_status rmp_mpi_f08_statuses_ignore_[1];
extern MPI_F08_status *MPI_F08_STATUS_IGNORE;
extern MPI_F08_status *MPI_F08_STATUSES_IGNORE;

/* MPI_ERR_ARG for a NULL or IGNORE argument (MPI-4.0 19.3.5: not allowed here). */
int MPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status);
int MPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status);
int MPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status);
int MPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status);

/* A session is an int, as a communicator: the identity, as for the other integer handles. */
MPI_Fint MPI_Session_c2f(MPI_Session session);
MPI_Session MPI_Session_f2c(MPI_Fint session);

#endif
