! f_io77.f90 — mpif.h's MPI-IO and spawn (no interfaces: the calls as a Fortran 77 program makes
! them): a file written and read back once in each positioning mode — explicit offsets
! (write_at_all, read_at, iread_at), the individual pointer (seek, write, read), the shared
! pointer (seek_shared, write_ordered, read_ordered) — with exact values and its size; then
! MPI_Comm_spawn of this program as 2 children with an argv, values both ways.
program f_io77
  implicit none
  include 'mpif.h'
  integer :: nfail = 0, myrank, nprocs, ierr, fh, i, nxt, cnt, req, ic
  integer :: st(MPI_STATUS_SIZE), buf(4), got(4), codes(2)
  integer(kind=MPI_OFFSET_KIND) :: off, fsize
  character(len=256) :: fname, prog
  character(len=16) :: cargv(3)

  call begin('rmp-fio77-', fname, fh, nprocs)
  ! part 0 by explicit offsets, part 1 by the individual pointer, part 2 by the shared one
  buf = [(1000 * myrank + i, i = 1, 4)]
  off = 16 * myrank
  call MPI_File_write_at_all(fh, off, buf, 4, MPI_INTEGER, st, ierr)
  call check_ok('MPI_File_write_at_all', ierr)
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  call check_int('write_at_all status count', cnt, 4)
  off = 16 * (nprocs + myrank)
  call MPI_File_seek(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_write(fh, buf + 100, 4, MPI_INTEGER, st, ierr)
  call check_ok('MPI_File_write', ierr)
  call MPI_File_get_position(fh, off, ierr)
  call check_true('position after write', off == 16 * (nprocs + myrank) + 16)
  off = 32 * nprocs
  call MPI_File_seek_shared(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_write_ordered(fh, buf + 200, 4, MPI_INTEGER, st, ierr)
  call check_ok('MPI_File_write_ordered', ierr)
  call MPI_File_sync(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_File_sync(fh, ierr)
  call MPI_File_get_size(fh, fsize, ierr)
  call check_true('file size is 48 bytes a rank', fsize == 48 * nprocs)
  ! read back the next rank's blocks, and my own from the shared pointer
  nxt = mod(myrank + 1, nprocs)
  off = 16 * nxt
  call MPI_File_read_at(fh, off, got, 4, MPI_INTEGER, st, ierr)
  call check_true('read_at: the next rank''s part 0', all(got == [(1000 * nxt + i, i = 1, 4)]))
  off = 16 * (nprocs + nxt)
  call MPI_File_seek(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_read(fh, got, 4, MPI_INTEGER, st, ierr)
  call check_true('read: the next rank''s part 1', all(got == [(1000 * nxt + 100 + i, i = 1, 4)]))
  off = 32 * nprocs
  call MPI_File_seek_shared(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_read_ordered(fh, got, 4, MPI_INTEGER, st, ierr)
  call check_true('read_ordered: my part 2', all(got == buf + 200))
  off = 16 * myrank
  got = 0
  call MPI_File_iread_at(fh, off, got, 4, MPI_INTEGER, req, ierr)
  call MPI_Wait(req, st, ierr)
  call check_true('iread_at: my part 0', all(got == buf))
  call MPI_File_close(fh, ierr)
  call check_true('closed file is MPI_FILE_NULL', fh == MPI_FILE_NULL)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (myrank == 0) call MPI_File_delete(fname, MPI_INFO_NULL, ierr)

  call get_command_argument(0, prog)
  cargv(1) = 'child'
  cargv(2) = 'two words'
  cargv(3) = ' '
  codes = -1
  call MPI_Comm_spawn(prog, cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, ic, codes, ierr)
  call check_ok('MPI_Comm_spawn', ierr)
  call check_true('spawn errcodes', all(codes == MPI_SUCCESS))
  call talk_to_children(ic, 2)
  call MPI_Comm_disconnect(ic, ierr)
  call finish('f_io77')
contains
  include 'fcheck.inc'
  include 'fchild.inc'
end program f_io77
