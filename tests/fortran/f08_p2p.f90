! f08_p2p.f90 — mpi_f08's basics at any rank count: TYPE handles and their ==/=, a ring of
! Send/Recv and Isend/Irecv with exact values and status fields, collectives, ierror absent and
! present (an invalid communicator gives MPI_ERR_COMM in ierror under MPI_ERRORS_RETURN), the
! status conversions to mpif.h's integers and back, Waitany/Waitsome's indices from 1.
PROGRAM f08_p2p
  USE mpi_f08
  IMPLICIT NONE
  INTEGER :: myrank = 0, nfail = 0
  INTEGER :: size, ierr, to, from, cnt, i, cls
  INTEGER :: out(4), in(4), sum, fstat(MPI_STATUS_SIZE), idx(2)
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
  CALL check_ok('Comm_size', ierr)
  CALL MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  CALL check_true('dup is a new comm', dup /= MPI_COMM_WORLD .AND. .NOT. (dup == MPI_COMM_NULL))
  CALL check_true('MPI_COMM_WORLD == itself', MPI_COMM_WORLD == MPI_COMM_WORLD)
  CALL check_true('MPI_INTEGER /= MPI_REAL', MPI_INTEGER /= MPI_REAL)
  ! a ring: blocking, exact values and status
  to = MOD(myrank + 1, size)
  from = MOD(myrank + size - 1, size)
  out = [(100 * myrank + i, i = 1, 4)]
  in = -1
  CALL MPI_Sendrecv(out, 4, MPI_INTEGER, to, 7, in, 4, MPI_INTEGER, from, 7, dup, st, ierr)
  CALL check_ok('Sendrecv', ierr)
  DO i = 1, 4
    CALL check_int('Sendrecv value', in(i), 100 * from + i)
  END DO
  CALL check_int('status%MPI_SOURCE', st%MPI_SOURCE, from)
  CALL check_int('status%MPI_TAG', st%MPI_TAG, 7)
  CALL check_int('status%MPI_ERROR', st%MPI_ERROR, MPI_SUCCESS)
  CALL MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  CALL check_int('Get_count', cnt, 4)
  ! nonblocking, statuses of Waitall
  in = -1
  CALL MPI_Irecv(in, 3, MPI_INTEGER, from, 9, dup, reqs(1))
  CALL MPI_Isend(out, 3, MPI_INTEGER, to, 9, dup, reqs(2))
  CALL check_true('Irecv gave a request', reqs(1) /= MPI_REQUEST_NULL)
  CALL MPI_Waitall(2, reqs, sts, ierr)
  CALL check_ok('Waitall', ierr)
  CALL check_true('requests nulled', reqs(1) == MPI_REQUEST_NULL .AND. reqs(2) == MPI_REQUEST_NULL)
  CALL check_int('Waitall status source', sts(1)%MPI_SOURCE, from)
  CALL check_int('Waitall status tag', sts(1)%MPI_TAG, 9)
  CALL MPI_Get_count(sts(1), MPI_INTEGER, cnt)
  CALL check_int('Waitall Get_count', cnt, 3)
  DO i = 1, 3
    CALL check_int('Irecv value', in(i), 100 * from + i)
  END DO
  CALL check_int('Irecv left the 4th element', in(4), -1)
  ! Waitany and Waitsome count requests from 1, as Fortran does; all null: MPI_UNDEFINED
  reqs(1) = MPI_REQUEST_NULL
  CALL MPI_Irecv(in, 1, MPI_INTEGER, from, 12, dup, reqs(2))
  CALL MPI_Send(out, 1, MPI_INTEGER, to, 12, dup)
  CALL MPI_Waitany(2, reqs, i, st2, ierr)
  CALL check_int('Waitany index', i, 2)
  CALL MPI_Waitany(2, reqs, i, st2, ierr)
  CALL check_int('Waitany index of null requests', i, MPI_UNDEFINED)
  CALL MPI_Irecv(in, 1, MPI_INTEGER, from, 13, dup, reqs(2))
  CALL MPI_Send(out, 1, MPI_INTEGER, to, 13, dup)
  CALL MPI_Waitsome(2, reqs, cnt, idx, sts, ierr)
  CALL check_int('Waitsome outcount', cnt, 1)
  CALL check_int('Waitsome index', idx(1), 2)

  ! MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE
  CALL MPI_Irecv(in, 1, MPI_INTEGER, from, 10, dup, reqs(1))
  CALL MPI_Send(out, 1, MPI_INTEGER, to, 10, dup)
  CALL MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  CALL check_ok('Wait(STATUS_IGNORE)', ierr)
  CALL MPI_Irecv(in, 1, MPI_INTEGER, from, 11, dup, reqs(1))
  CALL MPI_Isend(out, 1, MPI_INTEGER, to, 11, dup, reqs(2))
  CALL MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  CALL check_ok('Waitall(STATUSES_IGNORE)', ierr)
  ! collectives
  CALL MPI_Allreduce(myrank + 1, sum, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
  CALL check_ok('Allreduce', ierr)
  CALL check_int('Allreduce sum', sum, size * (size + 1) / 2)
  CALL MPI_Allreduce(MPI_IN_PLACE, sum, 1, MPI_INTEGER, MPI_MAX, dup, ierr)
  CALL check_int('Allreduce in place', sum, size * (size + 1) / 2)
  dsum = 0
  IF (myrank == 0) dsum = 2.5D0
  CALL MPI_Bcast(dsum, 1, MPI_DOUBLE_PRECISION, 0, dup)
  CALL check_true('Bcast double', dsum == 2.5D0)
  CALL MPI_Barrier(dup)

  ! ierror present with a bad handle: the class, no crash; absent: the handler alone
  bad%MPI_VAL = 12345
  CALL MPI_Comm_size(bad, i, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL check_int('Comm_size(bad comm) class', cls, MPI_ERR_COMM)
  CALL MPI_Send(out, 1, MPI_INTEGER, to, 1, MPI_COMM_NULL, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL check_int('Send(MPI_COMM_NULL) class', cls, MPI_ERR_COMM)
  CALL MPI_Send(out, -1, MPI_INTEGER, to, 1, dup, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL check_int('Send(count -1) class', cls, MPI_ERR_COUNT)
  CALL MPI_Comm_size(bad, i)

  ! status conversions: f08 -> mpif.h integers -> f08, then Get_count still right
  CALL MPI_Status_f082f(st, fstat, ierr)
  CALL check_ok('Status_f082f', ierr)
  CALL check_int('f status MPI_SOURCE', fstat(1), from)
  CALL check_int('f status MPI_TAG', fstat(2), 7)
  CALL MPI_Status_f2f08(fstat, st2)
  CALL check_int('f2f08 source', st2%MPI_SOURCE, from)
  CALL MPI_Get_count(st2, MPI_INTEGER, cnt)
  CALL check_int('f2f08 Get_count', cnt, 4)
  CALL MPI_Status_f082f(MPI_STATUS_IGNORE, fstat, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL check_int('Status_f082f(MPI_STATUS_IGNORE) class', cls, MPI_ERR_ARG)
  ! a derived type through TYPE(MPI_Datatype)
  CALL MPI_Type_contiguous(2, MPI_INTEGER, t, ierr)
  CALL MPI_Type_commit(t)
  CALL MPI_Type_size(t, i)
  CALL check_int('Type_size of 2 INTEGERs', i, 8)
  CALL MPI_Type_free(t)
  CALL check_true('Type_free nulls the handle', t == MPI_DATATYPE_NULL)
  CALL MPI_Comm_free(dup)
  CALL check_true('Comm_free nulls the handle', dup == MPI_COMM_NULL)
  CALL finish('f08_p2p')
CONTAINS
  INCLUDE 'fcheck.inc'
END PROGRAM f08_p2p
