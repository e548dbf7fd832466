! f08_cb.f90 — Fortran callbacks through mpi_f08 (BIND(C) procedures with TYPE(MPI_Comm)
! arguments): a user op in Allreduce; attribute copy/delete on Comm_dup/Comm_free with their
! extra_state, the predefined MPI_COMM_DUP_FN and MPI_COMM_NULL_COPY_FN, a copy callback's
! error propagating out of Comm_dup; MPI_TAG_UB read as an integer; an error handler written
! in Fortran called with the error's code; a generalized request's query/free callbacks.
MODULE f08_cb_procs
  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR, C_F_POINTER
  USE mpi_f08
  IMPLICIT NONE
  INTEGER :: ncopy = 0, ndelete = 0, nerrh = 0, lastcode = 0, nfree = 0
  LOGICAL :: copy_fails = .FALSE.
CONTAINS
  SUBROUTINE max_abs(invec, inoutvec, len, datatype) BIND(C)
    TYPE(C_PTR), VALUE :: invec, inoutvec
    INTEGER :: len
    TYPE(MPI_Datatype) :: datatype
    INTEGER, POINTER :: a(:), b(:)
    INTEGER :: i
    CALL C_F_POINTER(invec, a, [len])
    CALL C_F_POINTER(inoutvec, b, [len])
    IF (datatype /= MPI_INTEGER) RETURN
    DO i = 1, len
      IF (ABS(a(i)) > ABS(b(i))) b(i) = a(i)
    END DO
  END SUBROUTINE

  SUBROUTINE copy_fn(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror) BIND(C)
    TYPE(MPI_Comm) :: oldcomm
    INTEGER :: keyval, ierror
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    LOGICAL :: flag
    ncopy = ncopy + 1
    val_out = val_in + extra_state
    flag = .TRUE.
    ierror = MPI_SUCCESS
    IF (copy_fails) ierror = MPI_ERR_OTHER
  END SUBROUTINE

  SUBROUTINE delete_fn(comm, keyval, val, extra_state, ierror) BIND(C)
    TYPE(MPI_Comm) :: comm
    INTEGER :: keyval, ierror
    INTEGER(KIND=MPI_ADDRESS_KIND) :: val, extra_state
    ndelete = ndelete + 1
    ierror = MPI_SUCCESS
  END SUBROUTINE

  SUBROUTINE errh(comm, code) BIND(C)
    TYPE(MPI_Comm) :: comm
    INTEGER :: code
    nerrh = nerrh + 1
    lastcode = code
  END SUBROUTINE

  SUBROUTINE query_fn(extra_state, status, ierror) BIND(C)
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
    TYPE(MPI_Status) :: status
    INTEGER :: ierror
    CALL MPI_Status_set_elements(status, MPI_INTEGER, INT(extra_state), ierror)
    CALL MPI_Status_set_cancelled(status, .FALSE.)
  END SUBROUTINE

  SUBROUTINE free_fn(extra_state, ierror) BIND(C)
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
    INTEGER :: ierror
    nfree = nfree + 1
    ierror = MPI_SUCCESS
  END SUBROUTINE

  SUBROUTINE cancel_fn(extra_state, complete, ierror) BIND(C)
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
    LOGICAL :: complete
    INTEGER :: ierror
    ierror = MPI_SUCCESS
  END SUBROUTINE
END MODULE f08_cb_procs

PROGRAM f08_cb
  USE mpi_f08
  USE f08_cb_procs
  IMPLICIT NONE
  INTEGER :: myrank = 0, nfail = 0
  INTEGER :: size, ierr, cls, key, key2, v(3), r(3), i, cnt
  INTEGER(KIND=MPI_ADDRESS_KIND) :: val
  LOGICAL :: flag
  TYPE(MPI_Op) :: op
  TYPE(MPI_Comm) :: dup, dup2
  TYPE(MPI_Errhandler) :: eh
  TYPE(MPI_Request) :: greq
  TYPE(MPI_Status) :: st

  CALL watchdog(60)
  CALL MPI_Init()
  CALL MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  CALL MPI_Comm_rank(MPI_COMM_WORLD, myrank)
  CALL MPI_Comm_size(MPI_COMM_WORLD, size)

  ! a user op: the element of largest magnitude, one rank's negative
  CALL MPI_Op_create(max_abs, .TRUE., op, ierr)
  CALL check_ok('Op_create', ierr)
  v = [myrank, -myrank, 1]
  CALL MPI_Allreduce(v, r, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  CALL check_ok('Allreduce(user op)', ierr)
  CALL check_int('user op 1', r(1), size - 1)
  CALL check_int('user op 2', r(2), -(size - 1))
  CALL check_int('user op 3', r(3), 1)
  CALL MPI_Op_free(op)
  CALL check_true('Op_free nulls', op == MPI_OP_NULL)

  ! attributes: copied by the Fortran callback with its extra_state, deleted on free
  CALL MPI_Comm_create_keyval(copy_fn, delete_fn, key, 100_MPI_ADDRESS_KIND, ierr)
  CALL check_ok('Comm_create_keyval', ierr)
  CALL MPI_Comm_dup(MPI_COMM_WORLD, dup)
  CALL MPI_Comm_set_attr(dup, key, 7_MPI_ADDRESS_KIND, ierr)
  CALL check_ok('Comm_set_attr', ierr)
  CALL MPI_Comm_dup(dup, dup2, ierr)
  CALL check_ok('Comm_dup with a Fortran copy callback', ierr)
  CALL check_int('copy callbacks', ncopy, 1)
  CALL MPI_Comm_get_attr(dup2, key, val, flag, ierr)
  CALL check_true('copied attribute present', flag)
  CALL check_int('copied attribute value', INT(val), 107)
  CALL MPI_Comm_free(dup2)
  CALL check_int('delete callbacks after free', ndelete, 1)
  ! a copy callback's error comes out of Comm_dup
  copy_fails = .TRUE.
  CALL MPI_Comm_dup(dup, dup2, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL check_int('Comm_dup after a failing copy callback', cls, MPI_ERR_OTHER)
  copy_fails = .FALSE.
  ! predefined callbacks: MPI_COMM_DUP_FN copies, MPI_COMM_NULL_COPY_FN does not
  CALL MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key2, 0_MPI_ADDRESS_KIND)
  CALL MPI_Comm_set_attr(dup, key2, 55_MPI_ADDRESS_KIND)
  CALL MPI_Comm_dup(dup, dup2)
  CALL MPI_Comm_get_attr(dup2, key2, val, flag)
  CALL check_true('MPI_COMM_DUP_FN copied', flag .AND. val == 55)
  CALL MPI_Comm_free(dup2)
  CALL MPI_Comm_free_keyval(key2)
  CALL MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key2, &
                              0_MPI_ADDRESS_KIND)
  CALL MPI_Comm_set_attr(dup, key2, 56_MPI_ADDRESS_KIND)
  CALL MPI_Comm_dup(dup, dup2)
  CALL MPI_Comm_get_attr(dup2, key2, val, flag)
  CALL check_true('MPI_COMM_NULL_COPY_FN did not copy', .NOT. flag)
  CALL MPI_Comm_free(dup2)
  ! a predefined attribute is its integer value in Fortran
  CALL MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  CALL check_true('MPI_TAG_UB >= 32767', flag .AND. val >= 32767)

  ! an error handler written in Fortran, called with the error's code
  CALL MPI_Comm_create_errhandler(errh, eh, ierr)
  CALL check_ok('Comm_create_errhandler', ierr)
  CALL MPI_Comm_set_errhandler(dup, eh)
  CALL MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER)
  CALL check_int('handler calls', nerrh, 1)
  CALL check_int('handler code', lastcode, MPI_ERR_OTHER)
  CALL MPI_Send(v, -1, MPI_INTEGER, 0, 0, dup, ierr)
  CALL check_int('handler calls after a bad count', nerrh, 2)
  CALL MPI_Error_class(lastcode, cls)
  CALL check_int('handler code class after a bad count', cls, MPI_ERR_COUNT)
  CALL MPI_Errhandler_free(eh)

  ! a generalized request: query gives the count, free runs once
  CALL MPI_Grequest_start(query_fn, free_fn, cancel_fn, 5_MPI_ADDRESS_KIND, greq, ierr)
  CALL check_ok('Grequest_start', ierr)
  CALL MPI_Grequest_complete(greq)
  CALL MPI_Wait(greq, st, ierr)
  CALL check_ok('Wait(grequest)', ierr)
  CALL MPI_Get_count(st, MPI_INTEGER, cnt)
  CALL check_int('grequest count from query_fn', cnt, 5)
  CALL check_int('grequest free_fn calls', nfree, 1)

  i = ndelete
  CALL MPI_Comm_free(dup)
  CALL check_int('delete callback on the last free', ndelete, i + 1)
  CALL MPI_Comm_free_keyval(key)
  CALL finish('f08_cb')
CONTAINS
  INCLUDE 'fcheck.inc'
END PROGRAM f08_cb
