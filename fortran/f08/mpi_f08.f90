! mpi_f08.f90 — `USE mpi_f08` (MPI-4.0 19.1.2): the handle types and constants, TYPE(MPI_Status)
! and the callback interfaces (mpi_f08_types), and every procedure (mpi_f08_procs, generated
! from api/mpi.api by tools/gen-f08).
MODULE mpi_f08
  USE mpi_f08_handles
  USE mpi_f08_consts
  USE mpi_f08_types
  USE mpi_f08_procs
END MODULE mpi_f08
