! f_op.f90 — a user-defined reduction written in Fortran (MPI_Op_create): called with the
! Fortran argument conventions (len and datatype by reference), commutative and not: the
! non-commutative one (a matrix-like "keep the left" op) must see operands in rank order.
module f_op_fns
  implicit none
contains
  subroutine addsq(invec, inoutvec, n, dtype)
    integer :: n, dtype, i
    double precision :: invec(n), inoutvec(n)
    do i = 1, n
      inoutvec(i) = inoutvec(i) + invec(i) * invec(i)
    end do
  end subroutine addsq

  ! Keeps the left operand: the result is rank 0's value when applied in rank order.
  subroutine leftmost(invec, inoutvec, n, dtype)
    integer :: n, dtype
    integer :: invec(n), inoutvec(n)
    inoutvec = invec
  end subroutine leftmost
end module f_op_fns

program f_op
  use mpi
  use f_op_fns
  implicit none
  integer :: nfail = 0, myrank, nprocs, ierr, op, op2, iv(2), ir(2)
  double precision :: dv(3), dr(3)

  call MPI_Init(ierr)
  call watchdog(60)
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  call MPI_Op_create(addsq, .true., op, ierr)
  call check_ok('MPI_Op_create', ierr)
  ! Each rank gives 1, 2, 3: every combination adds the incoming squared... with one rank the
  ! op is never called, so compare with what the op's definition gives for this many ranks.
  dv = (/ 1d0, 2d0, 3d0 /)
  call MPI_Reduce(dv, dr, 3, MPI_DOUBLE_PRECISION, op, 0, MPI_COMM_WORLD, ierr)
  call check_ok('MPI_Reduce with a Fortran op', ierr)
  if (myrank == 0 .and. nprocs == 1) call check_true('n=1: the input', dr(3) == 3d0)
  if (myrank == 0 .and. nprocs == 2) call check_true('n=2: 3 + 9', dr(3) == 12d0)
  call MPI_Op_free(op, ierr)
  call check_int('op after free', op, MPI_OP_NULL)

  call MPI_Op_create(leftmost, .false., op2, ierr)
  iv = (/ myrank + 10, myrank + 20 /)
  call MPI_Allreduce(iv, ir, 2, MPI_INTEGER, op2, MPI_COMM_WORLD, ierr)
  call check_ok('MPI_Allreduce with a non-commutative Fortran op', ierr)
  call check_int('leftmost(1) is rank 0''s', ir(1), 10)
  call check_int('leftmost(2) is rank 0''s', ir(2), 20)
  call MPI_Scan(iv, ir, 2, MPI_INTEGER, op2, MPI_COMM_WORLD, ierr)
  call check_int('Scan leftmost', ir(2), 20)
  call MPI_Op_free(op2, ierr)
  call finish('f_op')
contains
  include 'fcheck.inc'
end program f_op
