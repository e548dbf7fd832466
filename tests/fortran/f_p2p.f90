! f_p2p.f90 — point-to-point through `use mpi`: a ring of blocking sends with the status
! fields read as Fortran indices, Iprobe and Test's LOGICAL flags, Isend/Irecv/Waitall with
! an array of statuses, Get_count, and MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE.
program f_p2p
  use mpi
  implicit none
  integer :: nfail = 0, myrank, nprocs, ierr, nxt, prv, i, cnt
  integer :: sbuf(5), rbuf(5), status(MPI_STATUS_SIZE), reqs(2), stats(MPI_STATUS_SIZE, 2)
  logical :: flag

  call MPI_Init(ierr)
  call watchdog(60)
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  nxt = mod(myrank + 1, nprocs)
  prv = mod(myrank + nprocs - 1, nprocs)

  ! Ring: each rank sends its rank * 10 + i to the next, tag = 100 + rank.
  sbuf = (/ (myrank * 10 + i, i = 1, 5) /)
  rbuf = -1
  call MPI_Sendrecv(sbuf, 5, MPI_INTEGER, nxt, 100 + myrank, rbuf, 5, MPI_INTEGER, prv, &
                    MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
  call check_ok('MPI_Sendrecv', ierr)
  do i = 1, 5
    call check_int('ring rbuf(i)', rbuf(i), prv * 10 + i)
  end do
  call check_int('status(MPI_SOURCE)', status(MPI_SOURCE), prv)
  call check_int('status(MPI_TAG)', status(MPI_TAG), 100 + prv)
  call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
  call check_int('MPI_Get_count', cnt, 5)

  ! Iprobe: a message sent to self is found (flag .TRUE.), then none is (.FALSE.).
  call MPI_Send(sbuf, 3, MPI_INTEGER, MPI_PROC_NULL, 1, MPI_COMM_WORLD, ierr)
  call MPI_Isend(sbuf, 3, MPI_INTEGER, myrank, 7, MPI_COMM_WORLD, reqs(1), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(myrank, 7, MPI_COMM_WORLD, flag, status, ierr)
  end do
  call check_int('Iprobe status(MPI_TAG)', status(MPI_TAG), 7)
  call MPI_Recv(rbuf, 5, MPI_INTEGER, myrank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check_ok('MPI_Recv (MPI_STATUS_IGNORE)', ierr)
  call check_int('self rbuf(3)', rbuf(3), sbuf(3))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call check_int('request after Wait', reqs(1), MPI_REQUEST_NULL)
  flag = .true.
  call MPI_Iprobe(myrank, 7, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
  call check_true('Iprobe with nothing pending gives .FALSE.', .not. flag)

  ! Nonblocking ring with Waitall and an array of statuses.
  rbuf = -1
  call MPI_Irecv(rbuf, 5, MPI_INTEGER, prv, 200, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sbuf, 4, MPI_INTEGER, nxt, 200, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, stats, ierr)
  call check_ok('MPI_Waitall', ierr)
  call check_int('Waitall stats(MPI_SOURCE, 1)', stats(MPI_SOURCE, 1), prv)
  call MPI_Get_count(stats(1, 1), MPI_INTEGER, cnt, ierr)
  call check_int('Waitall count', cnt, 4)
  call check_int('Waitall rbuf(4)', rbuf(4), prv * 10 + 4)
  call check_int('Waitall rbuf(5) untouched', rbuf(5), -1)
  call check_int('requests after Waitall', reqs(1) + reqs(2), 2 * MPI_REQUEST_NULL)

  ! Test's flag: .FALSE. while nothing arrived, .TRUE. once it has.
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, myrank, 300, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Test(reqs(1), flag, status, ierr)
  call check_true('Test before the send gives .FALSE.', .not. flag)
  call MPI_Send(sbuf, 1, MPI_INTEGER, myrank, 300, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(1), flag, status, ierr)
  end do
  call check_int('Test status(MPI_TAG)', status(MPI_TAG), 300)
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, myrank, 301, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sbuf, 1, MPI_INTEGER, myrank, 301, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call check_ok('MPI_Waitall (MPI_STATUSES_IGNORE)', ierr)

  call finish('f_p2p')
contains
  include 'fcheck.inc'
end program f_p2p
