! f08_io.f90 — `use mpi_f08`'s MPI-IO and spawn: TYPE(MPI_File), offsets of
! INTEGER(MPI_OFFSET_KIND), optional ierror; each positioning mode once — explicit offsets
! (write_at from a strided array section, read_at_all), the individual pointer (seek, iread +
! wait), the shared pointer (split collective write_ordered_begin/end, read_ordered) — with
! exact values, get_amode, get_group; then MPI_Comm_spawn of this program as 2 children with
! an argv and MPI_ERRCODES_IGNORE, values both ways. A datarep whose conversion functions
! are mpi_f08's (TYPE(C_PTR) buffers, TYPE(MPI_Datatype)): each INTEGER plus extra_state.
MODULE f08_io_rep
  USE mpi_f08
  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR, C_F_POINTER
  IMPLICIT NONE
  INTEGER :: nbad = 0
CONTAINS
  SUBROUTINE add_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    TYPE(C_PTR), VALUE :: userbuf, filebuf
    TYPE(MPI_Datatype) :: datatype
    INTEGER :: count, ierror
    INTEGER(KIND=MPI_OFFSET_KIND) :: position
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
    INTEGER, POINTER :: u(:), f(:)
    CALL C_F_POINTER(userbuf, u, [count])
    CALL C_F_POINTER(filebuf, f, [count])
    IF (datatype /= MPI_INTEGER .OR. position /= 0) nbad = nbad + 1
    f = u + INT(extra_state)
    ierror = MPI_SUCCESS
  END SUBROUTINE add_write

  SUBROUTINE add_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    TYPE(C_PTR), VALUE :: userbuf, filebuf
    TYPE(MPI_Datatype) :: datatype
    INTEGER :: count, ierror
    INTEGER(KIND=MPI_OFFSET_KIND) :: position
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
    INTEGER, POINTER :: u(:), f(:)
    CALL C_F_POINTER(userbuf, u, [count])
    CALL C_F_POINTER(filebuf, f, [count])
    u = f - INT(extra_state)
    ierror = MPI_SUCCESS
  END SUBROUTINE add_read

  SUBROUTINE int_extent(datatype, extent, extra_state, ierror)
    TYPE(MPI_Datatype) :: datatype
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extent, extra_state
    INTEGER :: ierror
    extent = 4
    ierror = MPI_SUCCESS
  END SUBROUTINE int_extent
END MODULE f08_io_rep

PROGRAM f08_io
  USE mpi_f08
  USE f08_io_rep
  IMPLICIT NONE
  INTEGER :: myrank = 0, nfail = 0
  INTEGER :: nprocs, ierr, i, nxt, amode, gsize, big(8), got(4), v
  INTEGER(KIND=MPI_OFFSET_KIND) :: off
  TYPE(MPI_File) :: fh
  TYPE(MPI_Comm) :: parent, ic
  TYPE(MPI_Group) :: grp
  TYPE(MPI_Request) :: req
  TYPE(MPI_Status) :: st
  CHARACTER(LEN=256) :: fname, prog
  CHARACTER(LEN=16) :: cargv(3)

  CALL watchdog(90)
  CALL MPI_Init()
  CALL MPI_Comm_get_parent(parent)
  IF (parent /= MPI_COMM_NULL) THEN
    CALL child(parent)
    STOP
  END IF
  CALL MPI_Comm_rank(MPI_COMM_WORLD, myrank)
  CALL MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  CALL shared_name(fname)
  CALL MPI_File_open(MPI_COMM_WORLD, fname, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, &
                     fh, ierr)
  CALL check_ok('MPI_File_open', ierr)
  CALL check_true('an open file is not MPI_FILE_NULL', fh /= MPI_FILE_NULL)
  CALL MPI_File_get_amode(fh, amode)
  CALL check_int('get_amode', amode, MPI_MODE_CREATE + MPI_MODE_RDWR)
  CALL MPI_File_get_group(fh, grp)
  CALL MPI_Group_size(grp, gsize)
  CALL check_int('get_group size', gsize, nprocs)
  CALL MPI_Group_free(grp)
  ! part 0 from the odd elements of big (a section: its descriptor, no copy)
  big = [(1000 * myrank + (i + 1) / 2 + 50 * MOD(i + 1, 2), i = 1, 8)]
  off = 16 * myrank
  CALL MPI_File_write_at(fh, off, big(1:8:2), 4, MPI_INTEGER, st, ierr)
  CALL check_ok('MPI_File_write_at of a section', ierr)
  off = 16 * (nprocs + myrank)
  CALL MPI_File_seek(fh, off, MPI_SEEK_SET)
  CALL MPI_File_write(fh, big(1:8:2) + 100, 4, MPI_INTEGER, st)
  off = 32 * nprocs
  CALL MPI_File_seek_shared(fh, off, MPI_SEEK_SET)
  got = big(1:8:2) + 200
  CALL MPI_File_write_ordered_begin(fh, got, 4, MPI_INTEGER, ierr)
  CALL MPI_File_write_ordered_end(fh, got, st, ierr)
  CALL check_ok('MPI_File_write_ordered_end', ierr)
  CALL MPI_File_sync(fh)
  CALL MPI_Barrier(MPI_COMM_WORLD)
  CALL MPI_File_sync(fh)

  nxt = MOD(myrank + 1, nprocs)
  off = 16 * nxt
  CALL MPI_File_read_at_all(fh, off, got, 4, MPI_INTEGER, st)
  CALL check_true('read_at_all: the next rank''s part 0', ALL(got == [(1000 * nxt + i, i = 1, 4)]))
  off = 16 * (nprocs + nxt)
  CALL MPI_File_seek(fh, off, MPI_SEEK_SET)
  got = 0
  CALL MPI_File_iread(fh, got, 4, MPI_INTEGER, req)
  CALL MPI_Wait(req, st)
  CALL check_true('iread: the next rank''s part 1', ALL(got == [(1000 * nxt + 100 + i, i = 1, 4)]))
  off = 32 * nprocs
  CALL MPI_File_seek_shared(fh, off, MPI_SEEK_SET)
  CALL MPI_File_read_ordered(fh, got, 4, MPI_INTEGER, MPI_STATUS_IGNORE)
  CALL check_true('read_ordered: my part 2', ALL(got == [(1000 * myrank + 200 + i, i = 1, 4)]))
  CALL datarep()
  CALL MPI_File_close(fh)
  CALL check_true('closed file is MPI_FILE_NULL', fh == MPI_FILE_NULL)
  CALL MPI_Barrier(MPI_COMM_WORLD)
  IF (myrank == 0) CALL MPI_File_delete(fname, MPI_INFO_NULL)

  CALL get_command_argument(0, prog)
  cargv = [CHARACTER(LEN=16) :: 'child', 'two words', ' ']
  CALL MPI_Comm_spawn(prog, cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, ic, &
                      MPI_ERRCODES_IGNORE, ierr)
  CALL check_ok('MPI_Comm_spawn', ierr)
  DO i = 0, MERGE(1, -1, myrank == 0)
    CALL MPI_Send(100 + i, 1, MPI_INTEGER, i, 5, ic)
    CALL MPI_Recv(v, 1, MPI_INTEGER, i, 6, ic, st)
    CALL check_int('the value from a child', v, 200 + i)
  END DO
  CALL MPI_Comm_disconnect(ic)
  CALL finish('f08_io')
CONTAINS
  INCLUDE 'fcheck.inc'

  ! Part 3 written through "plus9" (extra_state 9), read back through it and as "native".
  SUBROUTINE datarep()
    INTEGER(KIND=MPI_ADDRESS_KIND) :: nine = 9
    INTEGER(KIND=MPI_OFFSET_KIND) :: zero = 0
    CALL MPI_Register_datarep('plus9', add_read, add_write, int_extent, nine, ierr)
    CALL check_ok('MPI_Register_datarep', ierr)
    CALL MPI_File_set_view(fh, zero, MPI_INTEGER, MPI_INTEGER, 'plus9', MPI_INFO_NULL)
    off = 12 * nprocs + 4 * myrank
    big(1:4) = [(10 * myrank + i, i = 1, 4)]
    CALL MPI_File_write_at(fh, off, big, 4, MPI_INTEGER, st, ierr)
    CALL check_ok('write_at through plus9', ierr)
    CALL MPI_File_sync(fh)
    CALL MPI_Barrier(MPI_COMM_WORLD)
    CALL MPI_File_sync(fh)
    CALL MPI_File_read_at(fh, off, got, 4, MPI_INTEGER, st)
    CALL check_true('read back through plus9', ALL(got == big(1:4)))
    CALL MPI_File_set_view(fh, zero, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL)
    CALL MPI_File_read_at(fh, off, got, 4, MPI_INTEGER, st)
    CALL check_true('stored by plus9: each plus 9', ALL(got == big(1:4) + 9))
    CALL check_int('conversions given another datatype or position', nbad, 0)
  END SUBROUTINE datarep

  SUBROUTINE child(p)
    TYPE(MPI_Comm), INTENT(INOUT) :: p
    CHARACTER(LEN=32) :: a1, a2
    INTEGER :: w
    CALL MPI_Comm_rank(MPI_COMM_WORLD, myrank)
    CALL get_command_argument(1, a1)
    CALL get_command_argument(2, a2)
    CALL check_true('child argv(1) is "child"', a1 == 'child')
    CALL check_true('child argv(2) is "two words"', a2 == 'two words')
    CALL MPI_Recv(w, 1, MPI_INTEGER, 0, 5, p, MPI_STATUS_IGNORE)
    CALL check_int('child: the value from the parent', w, 100 + myrank)
    CALL MPI_Send(200 + myrank, 1, MPI_INTEGER, 0, 6, p)
    CALL MPI_Comm_disconnect(p)
    CALL MPI_Finalize()
    IF (nfail == 0) PRINT '(a,i0,a)', 'child ', myrank, ' OK'
  END SUBROUTINE child

  SUBROUTINE shared_name(f)
    CHARACTER(LEN=*), INTENT(OUT) :: f
    CHARACTER(LEN=200) :: tmp
    INTEGER :: pid, l
    pid = getpid()
    CALL MPI_Bcast(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    CALL get_environment_variable('TMPDIR', tmp, l)
    IF (l == 0) tmp = '/tmp'
    WRITE (f, '(2a,i0)') TRIM(tmp), '/rmp-f08io-', pid
  END SUBROUTINE shared_name
END PROGRAM f08_io
