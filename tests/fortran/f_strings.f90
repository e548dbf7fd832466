! f_strings.f90 — CHARACTER arguments: names set with trailing blanks (dropped) and read back
! blank-padded, a name cut to a short Fortran string, Get_processor_name, Error_string, and
! Info keys and values (Info_get_nthkey, Info_get with a value length).
program f_strings
  use mpi
  implicit none
  integer :: nfail = 0, myrank, ierr, rl, info, nkeys, vlen
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=4) :: short
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=MPI_MAX_ERROR_STRING) :: estr
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=20) :: val
  logical :: flag

  call MPI_Init(ierr)
  call watchdog(60)
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank, ierr)

  call MPI_Comm_set_name(MPI_COMM_SELF, 'my self   ', ierr)
  call check_ok('MPI_Comm_set_name', ierr)
  name = repeat('x', len(name))
  call MPI_Comm_get_name(MPI_COMM_SELF, name, rl, ierr)
  call check_int('get_name resultlen (trailing blanks dropped)', rl, 7)
  call check_true('get_name is "my self"', name(1:7) == 'my self')
  call check_true('get_name blank-padded', name(8:) == ' ')
  call MPI_Comm_get_name(MPI_COMM_SELF, short, rl, ierr)
  call check_true('get_name into CHARACTER(4) cut to "my s"', short == 'my s')

  call MPI_Get_processor_name(host, rl, ierr)
  call check_ok('MPI_Get_processor_name', ierr)
  call check_true('processor name length > 0', rl > 0)
  call check_true('processor name has no NUL', index(host(1:rl), achar(0)) == 0)
  call check_true('processor name padded', host(rl + 1:) == ' ')

  call MPI_Error_string(MPI_ERR_COMM, estr, rl, ierr)
  call check_true('Error_string(MPI_ERR_COMM) length', rl > 0 .and. rl < MPI_MAX_ERROR_STRING)
  call check_true('Error_string padded', estr(rl + 1:) == ' ')

  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'colour  ', 'blue   ', ierr)
  call check_ok('MPI_Info_set', ierr)
  call MPI_Info_get_nkeys(info, nkeys, ierr)
  call check_int('Info nkeys', nkeys, 1)
  call MPI_Info_get_nthkey(info, 0, key, ierr)
  call check_true('nthkey is "colour"', key == 'colour')
  call MPI_Info_get_valuelen(info, 'colour', vlen, flag, ierr)
  call check_true('valuelen flag', flag)
  call check_int('valuelen of "blue"', vlen, 4)
  val = '?'
  call MPI_Info_get(info, 'colour', len(val), val, flag, ierr)
  call check_true('Info_get flag', flag)
  call check_true('Info_get value "blue"', val == 'blue')
  val = 'untouched'
  call MPI_Info_get(info, 'nokey', len(val), val, flag, ierr)
  call check_true('Info_get of a missing key: .FALSE.', .not. flag)
  call check_true('Info_get of a missing key leaves value alone', val == 'untouched')
  ! Leading blanks of an Info key and value go too; Info_get_string's buflen has no NUL.
  call MPI_Info_set(info, '  lead', '  x y ', ierr)
  call MPI_Info_get(info, 'lead', len(val), val, flag, ierr)
  call check_true('key "  lead" found as "lead"', flag)
  call check_true('value "  x y " is "x y"', val == 'x y')
  vlen = 0
  val = 'keep'
  call MPI_Info_get_string(info, 'colour', vlen, val, flag, ierr)
  call check_int('Info_get_string buflen 0: the length', vlen, 4)
  call check_true('Info_get_string buflen 0: value untouched', val == 'keep')
  vlen = 2
  call MPI_Info_get_string(info, 'colour', vlen, val, flag, ierr)
  call check_true('Info_get_string buflen 2: "bl", blank-padded', val == 'bl')
  call check_int('Info_get_string: the length', vlen, 4)
  call MPI_Info_free(info, ierr)
  call check_int('info after free', info, MPI_INFO_NULL)

  call finish('f_strings')
contains
  include 'fcheck.inc'
end program f_strings
