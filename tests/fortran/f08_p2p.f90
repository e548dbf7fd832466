! f08_p2p.f90 — mpi_f08's basics at any rank count: TYPE handles and their ==/=, a ring of
! Send/Recv and Isend/Irecv with exact values and status fields, collectives, ierror absent and
! present (an invalid communicator gives MPI_ERR_COMM in ierror under MPI_ERRORS_RETURN), the
! status conversions to mpif.h's integers and back, handle values equal C's (c2f).
PROGRAM f08_p2p
  USE mpi_f08
  IMPLICIT NONE
  INTEGER :: myrank = 0, nfail = 0
  INTEGER :: size, ierr, to, from, cnt, i, cls
  INTEGER :: out(4), in(4), sum, fstat(MPI_STATUS_SIZE)
  DOUBLE PRECISION :: dsum
  TYPE(MPI_Comm) :: dup, bad
  TYPE(MPI_Request) :: reqs(2)
  TYPE(MPI_Status) :: st, sts(2), st2
  TYPE(MPI_Datatype) :: t

  CALL watchdog(60)
  CALL MPI_Init()
  CALL MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  CALL MPI_Comm_rank(MPI_COMM_WORLD, myrank)
  CALL MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  CALL ok(ierr, 'Comm_size')
  CALL MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  CALL check(dup /= MPI_COMM_WORLD .AND. .NOT. (dup == MPI_COMM_NULL), 'dup is a new comm')
  CALL check(MPI_COMM_WORLD == MPI_COMM_WORLD, 'MPI_COMM_WORLD == itself')
  CALL check(MPI_INTEGER /= MPI_REAL, 'MPI_INTEGER /= MPI_REAL')

  ! a ring: blocking, exact values and status
  to = MOD(myrank + 1, size)
  from = MOD(myrank + size - 1, size)
  out = [(100 * myrank + i, i = 1, 4)]
  in = -1
  CALL MPI_Sendrecv(out, 4, MPI_INTEGER, to, 7, in, 4, MPI_INTEGER, from, 7, dup, st, ierr)
  CALL ok(ierr, 'Sendrecv')
  DO i = 1, 4
    CALL expect(in(i), 100 * from + i, 'Sendrecv value')
  END DO
  CALL expect(st%MPI_SOURCE, from, 'status%MPI_SOURCE')
  CALL expect(st%MPI_TAG, 7, 'status%MPI_TAG')
  CALL expect(st%MPI_ERROR, MPI_SUCCESS, 'status%MPI_ERROR')
  CALL MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  CALL expect(cnt, 4, 'Get_count')

  ! nonblocking, statuses of Waitall
  in = -1
  CALL MPI_Irecv(in, 3, MPI_INTEGER, from, 9, dup, reqs(1))
  CALL MPI_Isend(out, 3, MPI_INTEGER, to, 9, dup, reqs(2))
  CALL check(reqs(1) /= MPI_REQUEST_NULL, 'Irecv gave a request')
  CALL MPI_Waitall(2, reqs, sts, ierr)
  CALL ok(ierr, 'Waitall')
  CALL check(reqs(1) == MPI_REQUEST_NULL .AND. reqs(2) == MPI_REQUEST_NULL, 'requests nulled')
  CALL expect(sts(1)%MPI_SOURCE, from, 'Waitall status source')
  CALL expect(sts(1)%MPI_TAG, 9, 'Waitall status tag')
  CALL MPI_Get_count(sts(1), MPI_INTEGER, cnt)
  CALL expect(cnt, 3, 'Waitall Get_count')
  DO i = 1, 3
    CALL expect(in(i), 100 * from + i, 'Irecv value')
  END DO
  CALL expect(in(4), -1, 'Irecv left the 4th element')

  ! MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE
  CALL MPI_Irecv(in, 1, MPI_INTEGER, from, 10, dup, reqs(1))
  CALL MPI_Send(out, 1, MPI_INTEGER, to, 10, dup)
  CALL MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  CALL ok(ierr, 'Wait(STATUS_IGNORE)')
  CALL MPI_Irecv(in, 1, MPI_INTEGER, from, 11, dup, reqs(1))
  CALL MPI_Isend(out, 1, MPI_INTEGER, to, 11, dup, reqs(2))
  CALL MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  CALL ok(ierr, 'Waitall(STATUSES_IGNORE)')

  ! collectives
  CALL MPI_Allreduce(myrank + 1, sum, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
  CALL ok(ierr, 'Allreduce')
  CALL expect(sum, size * (size + 1) / 2, 'Allreduce sum')
  CALL MPI_Allreduce(MPI_IN_PLACE, sum, 1, MPI_INTEGER, MPI_MAX, dup, ierr)
  CALL expect(sum, size * (size + 1) / 2, 'Allreduce in place')
  dsum = 0
  IF (myrank == 0) dsum = 2.5D0
  CALL MPI_Bcast(dsum, 1, MPI_DOUBLE_PRECISION, 0, dup)
  CALL check(dsum == 2.5D0, 'Bcast double')
  CALL MPI_Barrier(dup)

  ! ierror present with a bad handle: the class, no crash; absent: the handler alone
  bad%MPI_VAL = 12345
  CALL MPI_Comm_size(bad, i, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL expect(cls, MPI_ERR_COMM, 'Comm_size(bad comm) class')
  CALL MPI_Send(out, 1, MPI_INTEGER, to, 1, MPI_COMM_NULL, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL expect(cls, MPI_ERR_COMM, 'Send(MPI_COMM_NULL) class')
  CALL MPI_Send(out, -1, MPI_INTEGER, to, 1, dup, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL expect(cls, MPI_ERR_COUNT, 'Send(count -1) class')
  CALL MPI_Comm_size(bad, i)

  ! status conversions: f08 -> mpif.h integers -> f08, then Get_count still right
  CALL MPI_Status_f082f(st, fstat, ierr)
  CALL ok(ierr, 'Status_f082f')
  CALL expect(fstat(1), from, 'f status MPI_SOURCE')
  CALL expect(fstat(2), 7, 'f status MPI_TAG')
  CALL MPI_Status_f2f08(fstat, st2)
  CALL expect(st2%MPI_SOURCE, from, 'f2f08 source')
  CALL MPI_Get_count(st2, MPI_INTEGER, cnt)
  CALL expect(cnt, 4, 'f2f08 Get_count')
  CALL MPI_Status_f082f(MPI_STATUS_IGNORE, fstat, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL expect(cls, MPI_ERR_ARG, 'Status_f082f(MPI_STATUS_IGNORE) class')

  ! a derived type through TYPE(MPI_Datatype)
  CALL MPI_Type_contiguous(2, MPI_INTEGER, t, ierr)
  CALL MPI_Type_commit(t)
  CALL MPI_Type_size(t, i)
  CALL expect(i, 8, 'Type_size of 2 INTEGERs')
  CALL MPI_Type_free(t)
  CALL check(t == MPI_DATATYPE_NULL, 'Type_free nulls the handle')

  CALL MPI_Comm_free(dup)
  CALL check(dup == MPI_COMM_NULL, 'Comm_free nulls the handle')
  CALL MPI_Finalize(ierr)
  CALL ok(ierr, 'Finalize')
  CALL done('f08_p2p')
CONTAINS
  INCLUDE 'f08check.inc'
END PROGRAM f08_p2p
