! f_types.f90 — datatypes from Fortran: a struct type of absolute addresses (MPI_Get_address)
! sent from MPI_BOTTOM, the Fortran types' sizes (LOGICAL 4, DOUBLE COMPLEX 16, 2REAL 8...),
! MPI_Type_create_f90_integer/real/complex, and MPI_Alloc_mem's memory through a C_PTR.
program f_types
  use mpi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer :: nfail = 0, myrank, nprocs, ierr, sz, stype, nxt, prv, t8, treal, tcplx
  integer :: ia, ib, blens(2), types(2), rtype
  double precision :: da, rdbl
  integer(kind=MPI_ADDRESS_KIND) :: disps(2), memsize
  type(c_ptr) :: mem
  integer, pointer :: arr(:)

  call MPI_Init(ierr)
  call watchdog(60)
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  nxt = mod(myrank + 1, nprocs)
  prv = mod(myrank + nprocs - 1, nprocs)

  call MPI_Type_size(MPI_INTEGER, sz, ierr)
  call check_int('size of MPI_INTEGER', sz, 4)
  call MPI_Type_size(MPI_LOGICAL, sz, ierr)
  call check_int('size of MPI_LOGICAL', sz, 4)
  call MPI_Type_size(MPI_DOUBLE_PRECISION, sz, ierr)
  call check_int('size of MPI_DOUBLE_PRECISION', sz, 8)
  call MPI_Type_size(MPI_COMPLEX, sz, ierr)
  call check_int('size of MPI_COMPLEX', sz, 8)
  call MPI_Type_size(MPI_DOUBLE_COMPLEX, sz, ierr)
  call check_int('size of MPI_DOUBLE_COMPLEX', sz, 16)
  call MPI_Type_size(MPI_2REAL, sz, ierr)
  call check_int('size of MPI_2REAL', sz, 8)
  call MPI_Type_size(MPI_CHARACTER, sz, ierr)
  call check_int('size of MPI_CHARACTER', sz, 1)

  ! A struct of two variables at their absolute addresses, sent from MPI_BOTTOM.
  ia = myrank * 3
  da = myrank + 0.5d0
  call MPI_Get_address(ia, disps(1), ierr)
  call MPI_Get_address(da, disps(2), ierr)
  blens = 1
  types = (/ MPI_INTEGER, MPI_DOUBLE_PRECISION /)
  call MPI_Type_create_struct(2, blens, disps, types, stype, ierr)
  call MPI_Type_commit(stype, ierr)
  call check_ok('struct type from addresses', ierr)
  ib = -1
  call MPI_Get_address(ib, disps(1), ierr)
  call MPI_Get_address(rdbl, disps(2), ierr)
  call MPI_Type_create_struct(2, blens, disps, types, rtype, ierr)
  call MPI_Type_commit(rtype, ierr)
  call MPI_Sendrecv(MPI_BOTTOM, 1, stype, nxt, 9, MPI_BOTTOM, 1, rtype, prv, 9, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check_ok('Sendrecv from and to MPI_BOTTOM', ierr)
  call check_int('struct from MPI_BOTTOM: the integer', ib, prv * 3)
  call check_true('struct from MPI_BOTTOM: the double', rdbl == prv + 0.5d0)
  call MPI_Type_free(stype, ierr)
  call MPI_Type_free(rtype, ierr)

  call MPI_Type_create_f90_integer(9, t8, ierr)
  call MPI_Type_size(t8, sz, ierr)
  call check_int('f90_integer(9) size', sz, 4)
  call MPI_Type_create_f90_integer(18, t8, ierr)
  call MPI_Type_size(t8, sz, ierr)
  call check_int('f90_integer(18) size', sz, 8)
  call MPI_Type_create_f90_real(15, MPI_UNDEFINED, treal, ierr)
  call MPI_Type_size(treal, sz, ierr)
  call check_int('f90_real(15) size', sz, 8)
  call MPI_Type_create_f90_complex(6, MPI_UNDEFINED, tcplx, ierr)
  call MPI_Type_size(tcplx, sz, ierr)
  call check_int('f90_complex(6) size', sz, 8)

  memsize = 10 * 4
  call MPI_Alloc_mem(memsize, MPI_INFO_NULL, mem, ierr)
  call check_ok('MPI_Alloc_mem', ierr)
  call c_f_pointer(mem, arr, (/ 10 /))
  arr = myrank
  call MPI_Allreduce(MPI_IN_PLACE, arr, 10, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check_int('Allreduce in Alloc_mem memory', arr(10), nprocs * (nprocs - 1) / 2)
  call MPI_Free_mem(arr, ierr)
  call check_ok('MPI_Free_mem', ierr)

  call finish('f_types')
contains
  include 'fcheck.inc'
end program f_types
