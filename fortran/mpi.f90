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
  ! MPI_Sizeof (Fortran only): the size in bytes of one element of x, any rank.
  interface MPI_Sizeof
    module procedure rmpi_sizeof_i1, rmpi_sizeof_i2, rmpi_sizeof_i4, rmpi_sizeof_i8
    module procedure rmpi_sizeof_r4, rmpi_sizeof_r8, rmpi_sizeof_c4, rmpi_sizeof_c8
    module procedure rmpi_sizeof_l1, rmpi_sizeof_l2, rmpi_sizeof_l4, rmpi_sizeof_l8
    module procedure rmpi_sizeof_ch
  end interface MPI_Sizeof
  private :: rmpi_sizeof_i1, rmpi_sizeof_i2, rmpi_sizeof_i4, rmpi_sizeof_i8
  private :: rmpi_sizeof_r4, rmpi_sizeof_r8, rmpi_sizeof_c4, rmpi_sizeof_c8
  private :: rmpi_sizeof_l1, rmpi_sizeof_l2, rmpi_sizeof_l4, rmpi_sizeof_l8, rmpi_sizeof_ch
contains
  subroutine rmpi_sizeof_i1(x, size, ierror)
    integer(1), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_i1
  subroutine rmpi_sizeof_i2(x, size, ierror)
    integer(2), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_i2
  subroutine rmpi_sizeof_i4(x, size, ierror)
    integer(4), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_i4
  subroutine rmpi_sizeof_i8(x, size, ierror)
    integer(8), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_i8
  subroutine rmpi_sizeof_r4(x, size, ierror)
    real(4), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_r4
  subroutine rmpi_sizeof_r8(x, size, ierror)
    real(8), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_r8
  subroutine rmpi_sizeof_c4(x, size, ierror)
    complex(4), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_c4
  subroutine rmpi_sizeof_c8(x, size, ierror)
    complex(8), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_c8
  subroutine rmpi_sizeof_l1(x, size, ierror)
    logical(1), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_l1
  subroutine rmpi_sizeof_l2(x, size, ierror)
    logical(2), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_l2
  subroutine rmpi_sizeof_l4(x, size, ierror)
    logical(4), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_l4
  subroutine rmpi_sizeof_l8(x, size, ierror)
    logical(8), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_l8
  subroutine rmpi_sizeof_ch(x, size, ierror)
    character(len=*), intent(in) :: x(..)
    integer, intent(out) :: size, ierror
    size = int(storage_size(x) / 8)
    ierror = MPI_SUCCESS
  end subroutine rmpi_sizeof_ch
end module mpi
