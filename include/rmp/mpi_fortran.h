/* mpi_fortran.h — the C side of MPI-4.0 19.3.5 for mpi_f08: the MPI_F08_status type (the C view
 * of Fortran's TYPE(MPI_Status)) and its IGNORE sentinels, which the status conversions
 * (MPI_Status_c2f08 ..., prototypes generated from api/mpi.api) use. Included by mpi.h before
 * the prototypes; not meant to be included on its own. */
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

#endif
