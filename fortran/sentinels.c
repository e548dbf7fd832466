/* sentinels.c — the storage of mpif.h's sentinel COMMON blocks (fortran/mpif-sentinels.h):
 * MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE... are Fortran variables whose addresses the
 * wrappers recognise (rmpif.h). Defined here, so that every program and module shares one copy
 * (a program's COMMON of the same name binds to it). MPI_STATUS_IGNORE's and
 * MPI_STATUSES_IGNORE's are librmp-mpi's (mpi/fsentinel.c): C's MPI_F_STATUS_IGNORE. */
#include "rmpif.h"

/* As gfortran aligns a COMMON block (16 bytes): the definitions must not ask for less. */
#define RMPIF_COMMON __attribute__((aligned(16)))

RMPIF_API RMPIF_COMMON MPI_Fint rmpi_bottom_, rmpi_in_place_;
RMPIF_API RMPIF_COMMON MPI_Fint rmpi_errcodes_ignore_[1];
RMPIF_API RMPIF_COMMON MPI_Fint rmpi_unweighted_[1], rmpi_weights_empty_[1];
RMPIF_API RMPIF_COMMON char rmpi_argv_null_[1], rmpi_argvs_null_[1];
