/* fsentinel.c — the storage of mpif.h's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE COMMON
 * blocks (fortran/mpif-sentinels.h), in the C library because C's MPI_F_STATUS_IGNORE and
 * MPI_F_STATUSES_IGNORE are their addresses (MPI-4.0 19.3.5); a Fortran program's COMMON of
 * the same name binds to these. Aligned as gfortran aligns a COMMON block. */
#include "rmpi.h"

__attribute__((aligned(16))) MPI_Fint rmpi_status_ignore_[MPI_STATUS_SIZE];
__attribute__((aligned(16))) MPI_Fint rmpi_statuses_ignore_[MPI_STATUS_SIZE];
