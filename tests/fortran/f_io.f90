! f_io.f90 — `use mpi`'s MPI-IO and spawn_multiple: a view (a displacement, INTEGER etype and
! filetype: offsets count integers), then each positioning mode once — explicit offsets
! (write_at, read_at_all), the individual pointer (iwrite + wait, split collective
! read_all_begin/end), the shared pointer (write_shared, get_position_shared, read_shared);
! exact values, get_view's datarep; then MPI_Comm_spawn_multiple of this program twice (the
! commands' array read to count, array_of_argv(count, *)). Datareps registered from Fortran:
! conversion functions that add extra_state to each INTEGER (position 0, the datatype and
! count given), MPI_CONVERSION_FN_NULL, a conversion's error as MPI_ERR_CONVERSION.
module f_io_rep
  use mpi
  implicit none
  integer :: nwrite = 0, nbad = 0
contains
  subroutine add_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*), datatype, count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    if (datatype /= MPI_INTEGER .or. count /= 4 .or. position /= 0) nbad = nbad + 1
    filebuf(1:count) = userbuf(1:count) + int(extra_state)
    nwrite = nwrite + 1
    ierror = MPI_SUCCESS
  end subroutine add_write

  subroutine add_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*), datatype, count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    if (datatype /= MPI_INTEGER .or. position /= 0) nbad = nbad + 1
    userbuf(1:count) = filebuf(1:count) - int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine add_read

  subroutine fail_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*), datatype, count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    ierror = MPI_ERR_OTHER
  end subroutine fail_write

  subroutine int_extent(datatype, extent, extra_state, ierror)
    integer :: datatype, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    extent = 4
    ierror = MPI_SUCCESS
  end subroutine int_extent
end module f_io_rep

program f_io
  use mpi
  use f_io_rep
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
  call datareps()
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

  ! Part 3 (after every part above) through datareps with Fortran conversion functions.
  subroutine datareps()
    integer(kind=MPI_ADDRESS_KIND) :: seven = 7
    integer :: cls, e
    call MPI_Register_datarep('plusf  ', add_read, add_write, int_extent, seven, ierr)
    call check_ok('MPI_Register_datarep', ierr)
    call MPI_Register_datarep('plusf', add_read, add_write, int_extent, seven, ierr)
    call MPI_Error_class(ierr, cls, e)
    call check_int('a datarep registered twice: class', cls, MPI_ERR_DUP_DATAREP)
    call MPI_Register_datarep('nullf', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, &
                              int_extent, seven, ierr)
    call check_ok('MPI_Register_datarep with MPI_CONVERSION_FN_NULL', ierr)
    call MPI_Register_datarep('failf', add_read, fail_write, int_extent, seven, ierr)
    buf = [(10 * myrank + i, i = 1, 4)]
    off = 16 * nprocs + 4 * myrank
    call rep_write('plusf', MPI_SUCCESS)
    call rep_read('plusf', buf)
    call rep_read('native', buf + 7)
    call check_int('Fortran write conversions called', nwrite, 1)
    call check_int('conversions given another datatype, count or position', nbad, 0)
    off = 20 * nprocs + 4 * myrank
    call rep_write('nullf', MPI_SUCCESS)
    call rep_read('native', buf)
    call rep_write('failf', MPI_ERR_CONVERSION)
  end subroutine datareps

  subroutine rep_write(rep, want)
    character(len=*), intent(in) :: rep
    integer, intent(in) :: want
    integer(kind=MPI_OFFSET_KIND) :: zero = 0
    integer :: cls, e
    call MPI_File_set_view(fh, zero, MPI_INTEGER, MPI_INTEGER, rep, MPI_INFO_NULL, ierr)
    call check_ok('set_view ' // rep, ierr)
    call MPI_File_write_at(fh, off, buf, 4, MPI_INTEGER, st, ierr)
    call MPI_Error_class(ierr, cls, e)
    call check_int('write_at through ' // rep // ': class', cls, want)
    call MPI_File_sync(fh, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_File_sync(fh, ierr)
  end subroutine rep_write

  subroutine rep_read(rep, want)
    character(len=*), intent(in) :: rep
    integer, intent(in) :: want(4)
    integer(kind=MPI_OFFSET_KIND) :: zero = 0
    call MPI_File_set_view(fh, zero, MPI_INTEGER, MPI_INTEGER, rep, MPI_INFO_NULL, ierr)
    got = -1
    call MPI_File_read_at(fh, off, got, 4, MPI_INTEGER, st, ierr)
    call check_ok('read_at through ' // rep, ierr)
    call check_true('values read through ' // rep, all(got == want))
  end subroutine rep_read
end program f_io
