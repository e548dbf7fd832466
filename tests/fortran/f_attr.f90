! f_attr.f90 — attributes from Fortran: a keyval whose copy and delete callbacks are Fortran
! subroutines (called at Comm_dup and Comm_free with INTEGER(KIND=MPI_ADDRESS_KIND) values
! and the extra state), MPI_COMM_NULL_COPY_FN / MPI_COMM_DUP_FN, a copy callback's error
! code reaching the caller, and MPI_TAG_UB read as an integer value; between C and Fortran
! (MPI-4.0 19.3.7, as MPICH's f77/f90 attr tests check): what Fortran sets C reads as a
! pointer to the integer (MPI_COMM_SET_ATTR's, MPI_ATTR_PUT's, a copy by MPI_COMM_DUP_FN), what
! C sets (a pointer) Fortran reads as the address.
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

  call c_interop()
  call finish('f_attr')
contains
  include 'fcheck.inc'

  subroutine c_interop()
    use, intrinsic :: iso_c_binding, only: c_int, c_ptr, c_loc, c_f_pointer, c_associated
    interface
      function c_get_attr(comm, key, val, flag) bind(c, name='MPI_Comm_get_attr')
        import :: c_int, c_ptr
        integer(c_int), value :: comm, key
        type(c_ptr) :: val
        integer(c_int) :: flag, c_get_attr
      end function c_get_attr
      function c_set_attr(comm, key, val) bind(c, name='MPI_Comm_set_attr')
        import :: c_int, c_ptr
        integer(c_int), value :: comm, key
        type(c_ptr), value :: val
        integer(c_int) :: c_set_attr
      end function c_set_attr
    end interface
    integer(c_int), target, save :: cval = 7
    integer(kind=MPI_ADDRESS_KIND), pointer :: pa
    integer(c_int), pointer :: pi
    integer(kind=MPI_ADDRESS_KIND) :: v, a
    integer :: k, d, cflag, a1
    type(c_ptr) :: p
    logical :: f

    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND, ierr)
    v = 2_MPI_ADDRESS_KIND**40 + 5 + myrank  ! more than an INTEGER holds
    call MPI_Comm_set_attr(MPI_COMM_SELF, k, v, ierr)
    cflag = 0
    ierr = c_get_attr(MPI_COMM_SELF, k, p, cflag)
    call check_true('C reads the Fortran attribute', cflag /= 0 .and. c_associated(p))
    if (cflag == 0) return
    call c_f_pointer(p, pa)
    call check_true('C reads a pointer to the Fortran value', pa == v)
    call MPI_Comm_dup(MPI_COMM_SELF, d, ierr)
    ierr = c_get_attr(d, k, p, cflag)
    call c_f_pointer(p, pa)
    call check_true('C reads the value MPI_COMM_DUP_FN copied', cflag /= 0 .and. pa == v)
    call MPI_Comm_get_attr(d, k, a, f, ierr)
    call check_true('Fortran reads the copied value', f .and. a == v)
    call MPI_Comm_free(d, ierr)

    ierr = c_set_attr(MPI_COMM_SELF, k, c_loc(cval))
    call MPI_Comm_get_attr(MPI_COMM_SELF, k, a, f, ierr)
    call check_true('Fortran reads a C pointer as its address', f .and. a == transfer(c_loc(cval), a))

    call MPI_Attr_put(MPI_COMM_SELF, k, -3 - myrank, ierr)
    ierr = c_get_attr(MPI_COMM_SELF, k, p, cflag)
    call c_f_pointer(p, pi)
    call check_true('C reads a pointer to MPI_ATTR_PUT''s INTEGER', cflag /= 0 .and. pi == -3 - myrank)
    call MPI_Attr_get(MPI_COMM_SELF, k, a1, f, ierr)
    call check_int('MPI_ATTR_GET of MPI_ATTR_PUT''s value', a1, -3 - myrank)
    call MPI_Comm_get_attr(MPI_COMM_SELF, k, a, f, ierr)
    call check_true('MPI_COMM_GET_ATTR of MPI_ATTR_PUT''s value (sign kept)', a == -3 - myrank)
    call MPI_Comm_delete_attr(MPI_COMM_SELF, k, ierr)
    call MPI_Comm_free_keyval(k, ierr)
  end subroutine c_interop
end program f_attr
