! f_io.f90 — `use mpi`'s MPI-IO and spawn_multiple: a view (a displacement, INTEGER etype and
! filetype: offsets count integers), then each positioning mode once — explicit offsets
! (write_at, read_at_all), the individual pointer (iwrite + wait, split collective
! read_all_begin/end), the shared pointer (write_shared, get_position_shared, read_shared);
! exact values, get_view's datarep; then MPI_Comm_spawn_multiple of this program twice (the
! commands' array read to count, array_of_argv(count, *)).
program f_io
  use mpi
  implicit none
  integer :: nfail = 0, myrank, nprocs, ierr, fh, i, nxt, req, ic, etype, ftype
  integer :: st(MPI_STATUS_SIZE), buf(4), got(4), codes(2)
  integer(kind=MPI_OFFSET_KIND) :: off, disp
  character(len=256) :: fname, prog, cmds(2)
  character(len=16) :: argvs(2, 3)
  character(len=MPI_MAX_DATAREP_STRING) :: rep

  call begin('rmp-fio-', fname, fh, nprocs)
  disp = 8
  call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'native  ', MPI_INFO_NULL, ierr)
  call check_ok('MPI_File_set_view', ierr)
  call MPI_File_get_view(fh, disp, etype, ftype, rep, ierr)
  call check_true('get_view disp', disp == 8)
  call check_true('get_view etype', etype == MPI_INTEGER)
  call check_true('get_view datarep "native", blank-padded', rep == 'native')
  buf = [(1000 * myrank + i, i = 1, 4)]
  off = 4 * myrank
  call MPI_File_write_at(fh, off, buf, 4, MPI_INTEGER, st, ierr)
  call check_ok('MPI_File_write_at', ierr)
  off = 4 * (nprocs + myrank)
  call MPI_File_seek(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_iwrite(fh, buf + 100, 4, MPI_INTEGER, req, ierr)
  call MPI_Wait(req, st, ierr)
  call check_ok('MPI_File_iwrite + wait', ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  ! the shared pointer: each rank's block somewhere in part 2, found by its position
  off = 8 * nprocs
  call MPI_File_seek_shared(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_write_shared(fh, buf + 200, 4, MPI_INTEGER, st, ierr)
  call check_ok('MPI_File_write_shared', ierr)
  call MPI_File_sync(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_File_sync(fh, ierr)
  call MPI_File_get_position_shared(fh, off, ierr)
  call check_true('shared position after every write', off == 12 * nprocs)

  nxt = mod(myrank + 1, nprocs)
  off = 4 * nxt
  call MPI_File_read_at_all(fh, off, got, 4, MPI_INTEGER, st, ierr)
  call check_true('read_at_all: the next rank''s part 0', all(got == [(1000 * nxt + i, i = 1, 4)]))
  off = 4 * (nprocs + nxt)
  call MPI_File_seek(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_read_all_begin(fh, got, 4, MPI_INTEGER, ierr)
  call MPI_File_read_all_end(fh, got, st, ierr)
  call check_ok('MPI_File_read_all_end', ierr)
  call check_true('read_all_begin/end: the next rank''s part 1', &
                  all(got == [(1000 * nxt + 100 + i, i = 1, 4)]))
  ! rank 0 reads part 2 block by block from the shared pointer (seek_shared is collective)
  off = 8 * nprocs
  call MPI_File_seek_shared(fh, off, MPI_SEEK_SET, ierr)
  nxt = 0
  do i = 1, merge(nprocs, 0, myrank == 0)
    call MPI_File_read_shared(fh, got, 4, MPI_INTEGER, st, ierr)
    if (mod(got(1), 1000) == 201 .and. all(got == got(1) + [0, 1, 2, 3])) nxt = nxt + 1
  end do
  if (myrank == 0) call check_int('read_shared: the blocks of part 2', nxt, nprocs)
  call MPI_File_close(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (myrank == 0) call MPI_File_delete(fname, MPI_INFO_NULL, ierr)

  call get_command_argument(0, prog)
  cmds = prog
  argvs = ' '
  argvs(:, 1) = 'child'
  argvs(:, 2) = 'two words'
  codes = -1
  call MPI_Comm_spawn_multiple(2, cmds, argvs, [1, 1], [MPI_INFO_NULL, MPI_INFO_NULL], 0, &
                               MPI_COMM_WORLD, ic, codes, ierr)
  call check_ok('MPI_Comm_spawn_multiple', ierr)
  call check_true('spawn_multiple errcodes', all(codes == MPI_SUCCESS))
  call talk_to_children(ic, 2)
  call MPI_Comm_disconnect(ic, ierr)
  call finish('f_io')
contains
  include 'fcheck.inc'
  include 'fchild.inc'
end program f_io
