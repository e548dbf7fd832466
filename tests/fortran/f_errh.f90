! f_errh.f90 — errors in Fortran: under MPI_ERRORS_RETURN an invalid communicator, a negative
! count and an invalid datatype come back in ierror with C's classes; a Fortran error
! handler (MPI_Comm_create_errhandler) is called with the communicator and the code, and
! MPI_Type_create_f90_real with a precision no type has fails with MPI_ERR_ARG.
module f_errh_cb
  implicit none
  integer :: ncalls = 0, lastcode = 0, lastcomm = -1
contains
  subroutine handler(comm, code)
    integer :: comm, code
    ncalls = ncalls + 1
    lastcode = code
    lastcomm = comm
  end subroutine handler
end module f_errh_cb

program f_errh
  use mpi
  use f_errh_cb
  implicit none
  integer :: nfail = 0, myrank, ierr, cls, buf(1), eh, dup, newtype

  call MPI_Init(ierr)
  call watchdog(60)
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  call MPI_Send(buf, 1, MPI_INTEGER, 0, 0, 12345, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  call check_int('invalid comm: class', cls, MPI_ERR_COMM)
  call MPI_Send(buf, -1, MPI_INTEGER, myrank, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  call check_int('negative count: class', cls, MPI_ERR_COUNT)
  call MPI_Send(buf, 1, 98765, myrank, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  call check_int('invalid datatype: class', cls, MPI_ERR_TYPE)

  call MPI_Type_create_f90_real(40, MPI_UNDEFINED, newtype, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  call check_true('f90_real(40): an error', cls /= MPI_SUCCESS)

  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_create_errhandler(handler, eh, ierr)
  call check_ok('MPI_Comm_create_errhandler', ierr)
  call MPI_Comm_set_errhandler(dup, eh, ierr)
  call MPI_Send(buf, 1, MPI_INTEGER, -5, 0, dup, ierr)
  call check_int('handler calls', ncalls, 1)
  call check_int('handler comm', lastcomm, dup)
  call MPI_Error_class(lastcode, cls, ierr)
  call check_int('handler code class', cls, MPI_ERR_RANK)
  call MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER, ierr)
  call check_int('call_errhandler: handler calls', ncalls, 2)
  call check_int('call_errhandler: code', lastcode, MPI_ERR_OTHER)
  call MPI_Errhandler_free(eh, ierr)
  call MPI_Comm_free(dup, ierr)

  call finish('f_errh')
contains
  include 'fcheck.inc'
end program f_errh
