! f_coll.f90 — collectives through mpif.h (no interfaces): Bcast, Allreduce and Reduce with
! MPI_IN_PLACE, Gather, Alltoall, Scan, with DOUBLE PRECISION and INTEGER data.
program f_coll
  implicit none
  include 'mpif.h'
  integer :: nfail = 0, myrank, nprocs, ierr, i
  integer :: ival(3), all(3, 16), a2a(16), r2a(16)
  double precision :: d(4), dsum

  call MPI_Init(ierr)
  call watchdog(60)
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ival = -1
  if (myrank == 0) ival = (/ 11, 22, 33 /)
  call MPI_Bcast(ival, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check_ok('MPI_Bcast', ierr)
  call check_int('Bcast ival(3)', ival(3), 33)

  ! In place: every rank's d becomes the sum over ranks.
  d = (/ (dble(myrank + i), i = 1, 4) /)
  call MPI_Allreduce(MPI_IN_PLACE, d, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check_ok('MPI_Allreduce (in place)', ierr)
  dsum = dble(nprocs * (nprocs - 1) / 2 + 2 * nprocs)
  call check_true('Allreduce in place d(2)', d(2) == dsum)

  ! Reduce with MPI_IN_PLACE at the root only.
  ival = myrank + 1
  if (myrank == 0) then
    call MPI_Reduce(MPI_IN_PLACE, ival, 3, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
    call check_int('Reduce in place at the root', ival(1), nprocs)
  else
    call MPI_Reduce(ival, i, 3, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  end if
  call check_ok('MPI_Reduce', ierr)

  ival = (/ myrank, myrank * 2, myrank * 3 /)
  all = -1
  call MPI_Gather(ival, 3, MPI_INTEGER, all, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (myrank == 0) then
    do i = 1, nprocs
      call check_int('Gather all(3, i)', all(3, i), (i - 1) * 3)
    end do
  end if

  do i = 1, nprocs
    a2a(i) = myrank * 100 + i - 1
  end do
  call MPI_Alltoall(a2a, 1, MPI_INTEGER, r2a, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, nprocs
    call check_int('Alltoall r2a(i)', r2a(i), (i - 1) * 100 + myrank)
  end do

  call MPI_Scan(myrank + 1, i, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check_int('Scan', i, (myrank + 1) * (myrank + 2) / 2)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call check_ok('MPI_Barrier', ierr)
  call finish('f_coll')
contains
  include 'fcheck.inc'
end program f_coll
