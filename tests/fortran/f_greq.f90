! f_greq.f90 — a generalized request with Fortran query, free and cancel procedures: the
! query fills the status Wait returns, free is called once with the program's extra state,
! cancel gets a LOGICAL complete, and a query's error code is what Wait returns.
module f_greq_cb
  use mpi
  implicit none
  integer :: nquery = 0, nfree = 0, ncancel = 0
  logical :: cancel_complete = .false.
contains
  subroutine query_fn(extra, status, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: status(MPI_STATUS_SIZE), ierr
    nquery = nquery + 1
    status(MPI_SOURCE) = int(extra)
    status(MPI_TAG) = 77
    call MPI_Status_set_elements(status, MPI_INTEGER, 3, ierr)
    call MPI_Status_set_cancelled(status, .false., ierr)
    ierr = MPI_SUCCESS
    if (extra == 999) ierr = MPI_ERR_OTHER
  end subroutine query_fn

  subroutine free_fn(extra, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: ierr
    nfree = nfree + 1
    extra = extra + 1000
    ierr = MPI_SUCCESS
  end subroutine free_fn

  subroutine cancel_fn(extra, complete, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: complete
    integer :: ierr
    ncancel = ncancel + 1
    cancel_complete = complete
    ierr = MPI_SUCCESS
  end subroutine cancel_fn
end module f_greq_cb

program f_greq
  use mpi
  use f_greq_cb
  implicit none
  integer :: nfail = 0, myrank, ierr, req, status(MPI_STATUS_SIZE), cnt, cls
  integer(kind=MPI_ADDRESS_KIND) :: extra
  logical :: flag

  call MPI_Init(ierr)
  call watchdog(60)
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank, ierr)

  extra = 5
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
  call check_ok('MPI_Grequest_start', ierr)
  call MPI_Test(req, flag, status, ierr)
  call check_true('Test before Grequest_complete: .FALSE.', .not. flag)
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, status, ierr)
  call check_ok('MPI_Wait', ierr)
  call check_int('query calls', nquery, 1)
  call check_int('status(MPI_SOURCE) from query', status(MPI_SOURCE), 5)
  call check_int('status(MPI_TAG) from query', status(MPI_TAG), 77)
  call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
  call check_int('count from query', cnt, 3)
  call check_int('free calls', nfree, 1)
  call check_int('free updated the extra state', int(extra), 1005)
  call check_int('request after Wait', req, MPI_REQUEST_NULL)

  extra = 6
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
  call MPI_Cancel(req, ierr)
  call check_int('cancel calls', ncancel, 1)
  call check_true('cancel: complete is .FALSE. before Grequest_complete', .not. cancel_complete)
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call check_int('free calls after the second', nfree, 2)

  ! A query that fails: Wait returns its code.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  extra = 999
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, status, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  call check_int('Wait with a failing query: class', cls, MPI_ERR_OTHER)

  call finish('f_greq')
contains
  include 'fcheck.inc'
end program f_greq
