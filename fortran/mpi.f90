! mpi.f90 — `use mpi`: the constants and sentinels of mpif.h (module mpi_constants, which
! mpi_f08 shares) and an explicit interface for every procedure (generated from the API
! description by tools/gen-fortran), so that a wrong argument list is a compile error.
module mpi_constants
  implicit none
  include 'mpif-consts.h'
  include 'mpif-sentinels.h'
end module mpi_constants

module mpi
  use mpi_constants
  implicit none
  include 'mpif-callbacks.h'
  include 'mpi-interfaces.h'
end module mpi
