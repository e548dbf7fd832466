! f_attr.f90 — attributes from Fortran: a keyval whose copy and delete callbacks are Fortran
! subroutines (called at Comm_dup and Comm_free with INTEGER(KIND=MPI_ADDRESS_KIND) values
! and the extra state), MPI_COMM_NULL_COPY_FN / MPI_COMM_DUP_FN, a copy callback's error
! code reaching the caller, and MPI_TAG_UB read as an integer value.
module f_attr_cb
  use mpi
  implicit none
  integer :: ncopy = 0, ndelete = 0
  integer(kind=MPI_ADDRESS_KIND) :: last_deleted = -1
contains
  subroutine copy_fn(oldcomm, keyval, extra, valin, valout, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
    logical :: flag
    ncopy = ncopy + 1
    valout = valin + extra
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine copy_fn

  subroutine delete_fn(comm, keyval, val, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    ndelete = ndelete + 1
    last_deleted = val
    ierr = MPI_SUCCESS
  end subroutine delete_fn

  subroutine failing_copy(oldcomm, keyval, extra, valin, valout, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
    logical :: flag
    flag = .false.
    ierr = MPI_ERR_OTHER
  end subroutine failing_copy
end module f_attr_cb

program f_attr
  use mpi
  use f_attr_cb
  implicit none
  integer :: nfail = 0, myrank, ierr, key, key2, key3, dup, dup2, errclass
  integer(kind=MPI_ADDRESS_KIND) :: extra, val, got
  logical :: flag

  call MPI_Init(ierr)
  call watchdog(60)
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank, ierr)

  extra = 1000
  call MPI_Comm_create_keyval(copy_fn, delete_fn, key, extra, ierr)
  call check_ok('MPI_Comm_create_keyval', ierr)
  val = 42 + myrank
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val, ierr)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, key, got, flag, ierr)
  call check_true('get_attr flag', flag)
  call check_int('get_attr value', int(got), 42 + myrank)

  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call check_int('copy callback calls', ncopy, 1)
  call MPI_Comm_get_attr(dup, key, got, flag, ierr)
  call check_true('the dup has the attribute', flag)
  call check_int('copied value (valin + extra)', int(got), 1042 + myrank)
  call MPI_Comm_free(dup, ierr)
  call check_int('delete callback calls', ndelete, 1)
  call check_int('deleted value', int(last_deleted), 1042 + myrank)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  call check_int('delete at delete_attr', ndelete, 2)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, key, got, flag, ierr)
  call check_true('no attribute after delete_attr', .not. flag)
  call MPI_Comm_free_keyval(key, ierr)
  call check_int('keyval after free', key, MPI_KEYVAL_INVALID)

  ! The predefined callbacks: NULL_COPY copies nothing, DUP_FN copies the value.
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key2, extra, ierr)
  val = 7
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key2, val, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_get_attr(dup, key, got, flag, ierr)
  call check_true('MPI_COMM_NULL_COPY_FN: not copied', .not. flag)
  call MPI_Comm_get_attr(dup, key2, got, flag, ierr)
  call check_true('MPI_COMM_DUP_FN: copied', flag)
  call check_int('MPI_COMM_DUP_FN value', int(got), 7)
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key2, ierr)
  call MPI_Comm_free_keyval(key, ierr)
  call MPI_Comm_free_keyval(key2, ierr)

  ! A copy callback's error fails the dup with its code.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, key3, extra, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key3, val, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup2, ierr)
  call MPI_Error_class(ierr, errclass, ierr)
  call check_int('dup with a failing copy callback: class', errclass, MPI_ERR_OTHER)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key3, ierr)
  call MPI_Comm_free_keyval(key3, ierr)

  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, got, flag, ierr)
  call check_true('MPI_TAG_UB present', flag)
  call check_true('MPI_TAG_UB >= 32767 (a value, not an address)', got >= 32767 .and. got < 2_8**31)

  call finish('f_attr')
contains
  include 'fcheck.inc'
end program f_attr
