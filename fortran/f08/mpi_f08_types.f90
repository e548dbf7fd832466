! mpi_f08_types.f90 — what mpi_f08 declares besides its generated procedures: TYPE(MPI_Status)
! (BIND(C), C's MPI_Status byte for byte), the sentinel objects the C wrappers recognise by
! address, the callback interfaces (MPI-4.0 19.3 and A.4; the attribute ones, one per object
! kind, are generated: mpi_f08_callbacks), and the hand-written procedures (attributes, status
! conversions, MPI_F_sync_reg) in f08cb.c.
MODULE mpi_f08_types
  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_INT, C_SIZE_T, C_PTR, C_CHAR
  USE mpi_f08_handles
  USE mpi_f08_consts
  USE mpi_f08_callbacks
  IMPLICIT NONE
  PRIVATE :: C_INT, C_SIZE_T, C_PTR, C_CHAR

  ! MPI_SOURCE, MPI_TAG, MPI_ERROR, then rmp_status_t's cancelled flag and byte count.
  TYPE, BIND(C) :: MPI_Status
    INTEGER(C_INT) :: MPI_SOURCE, MPI_TAG, MPI_ERROR
    INTEGER(C_INT), PRIVATE :: rmp_cancelled = 0
    INTEGER(C_SIZE_T), PRIVATE :: rmp_count = 0
  END TYPE

  ! A section is passed by its descriptor and sent in place (cdesc.c); the buffer of a
  ! nonblocking call is ASYNCHRONOUS in every interface, so the compiler keeps it where it is.
  LOGICAL, PARAMETER :: MPI_SUBARRAYS_SUPPORTED = .TRUE.
  LOGICAL, PARAMETER :: MPI_ASYNC_PROTECTS_NONBLOCKING = .TRUE.

  ! Objects compared by address in C (C defines them: f08rt.c, cdesc.c, mpi/f08status.c).
  TYPE(MPI_Status), BIND(C, NAME="rmp_mpi_f08_status_ignore_"), TARGET :: MPI_STATUS_IGNORE
  TYPE(MPI_Status), BIND(C, NAME="rmp_mpi_f08_statuses_ignore_"), TARGET :: MPI_STATUSES_IGNORE(1)
  INTEGER(C_INT), BIND(C, NAME="rmp_f08_bottom_"), TARGET :: MPI_BOTTOM
  INTEGER(C_INT), BIND(C, NAME="rmp_f08_in_place_"), TARGET :: MPI_IN_PLACE
  INTEGER(C_INT), BIND(C, NAME="rmp_f08_unweighted_"), TARGET :: MPI_UNWEIGHTED(1)
  INTEGER(C_INT), BIND(C, NAME="rmp_f08_weights_empty_"), TARGET :: MPI_WEIGHTS_EMPTY(1)
  ! The same objects as mpif.h's (fortran/sentinels.c): one C side for both bindings.
  INTEGER(C_INT), BIND(C, NAME="rmpi_errcodes_ignore_"), TARGET :: MPI_ERRCODES_IGNORE(1)
  CHARACTER(KIND=C_CHAR), BIND(C, NAME="rmpi_argv_null_"), TARGET :: MPI_ARGV_NULL(1)
  CHARACTER(KIND=C_CHAR), BIND(C, NAME="rmpi_argvs_null_"), TARGET :: MPI_ARGVS_NULL(1, 1)

  ABSTRACT INTERFACE
    SUBROUTINE MPI_User_function(invec, inoutvec, len, datatype) BIND(C)
      IMPORT :: C_PTR, MPI_Datatype
      TYPE(C_PTR), VALUE :: invec, inoutvec
      INTEGER :: len
      TYPE(MPI_Datatype) :: datatype
    END SUBROUTINE
    SUBROUTINE MPI_Comm_errhandler_function(comm, error_code) BIND(C)
      IMPORT :: MPI_Comm
      TYPE(MPI_Comm) :: comm
      INTEGER :: error_code
    END SUBROUTINE
    SUBROUTINE MPI_Win_errhandler_function(win, error_code) BIND(C)
      IMPORT :: MPI_Win
      TYPE(MPI_Win) :: win
      INTEGER :: error_code
    END SUBROUTINE
    SUBROUTINE MPI_File_errhandler_function(file, error_code) BIND(C)
      IMPORT :: MPI_File
      TYPE(MPI_File) :: file
      INTEGER :: error_code
    END SUBROUTINE
    SUBROUTINE MPI_Session_errhandler_function(session, error_code) BIND(C)
      IMPORT :: MPI_Session
      TYPE(MPI_Session) :: session
      INTEGER :: error_code
    END SUBROUTINE
    SUBROUTINE MPI_Grequest_query_function(extra_state, status, ierror) BIND(C)
      IMPORT :: MPI_Status, MPI_ADDRESS_KIND
      INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
      TYPE(MPI_Status) :: status
      INTEGER :: ierror
    END SUBROUTINE
    SUBROUTINE MPI_Grequest_free_function(extra_state, ierror) BIND(C)
      IMPORT :: MPI_ADDRESS_KIND
      INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
      INTEGER :: ierror
    END SUBROUTINE
    SUBROUTINE MPI_Grequest_cancel_function(extra_state, complete, ierror) BIND(C)
      IMPORT :: MPI_ADDRESS_KIND
      INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
      LOGICAL :: complete
      INTEGER :: ierror
    END SUBROUTINE
    SUBROUTINE MPI_Datarep_conversion_function(userbuf, datatype, count, filebuf, position, &
        extra_state, ierror) BIND(C)
      IMPORT :: C_PTR, MPI_Datatype, MPI_OFFSET_KIND, MPI_ADDRESS_KIND
      TYPE(C_PTR), VALUE :: userbuf, filebuf
      TYPE(MPI_Datatype) :: datatype
      INTEGER :: count, ierror
      INTEGER(KIND=MPI_OFFSET_KIND) :: position
      INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state
    END SUBROUTINE
    SUBROUTINE MPI_Datarep_extent_function(datatype, extent, extra_state, ierror) BIND(C)
      IMPORT :: MPI_Datatype, MPI_ADDRESS_KIND
      TYPE(MPI_Datatype) :: datatype
      INTEGER(KIND=MPI_ADDRESS_KIND) :: extent, extra_state
      INTEGER :: ierror
    END SUBROUTINE
  END INTERFACE
  ! mpif.h's MPI_CONVERSION_FN_NULL (fortran/datarep.c): MPI_Register_datarep knows it.
  PROCEDURE(MPI_Datarep_conversion_function), BIND(C, NAME="mpi_conversion_fn_null_") :: &
      MPI_CONVERSION_FN_NULL

  ! The procedures of f08cb.c outside the API description: the status conversions between
  ! mpi_f08 and mpif.h, MPI_F_sync_reg.
  INTERFACE MPI_Status_f082f
    SUBROUTINE MPI_Status_f082f_f08(f08_status, f_status, ierror) &
        BIND(C, NAME="MPI_Status_f082f_f08")
      IMPORT
      TYPE(MPI_Status), INTENT(IN) :: f08_status
      INTEGER, INTENT(OUT) :: f_status(MPI_STATUS_SIZE)
      INTEGER, OPTIONAL, INTENT(OUT) :: ierror
    END SUBROUTINE
  END INTERFACE
  INTERFACE MPI_Status_f2f08
    SUBROUTINE MPI_Status_f2f08_f08(f_status, f08_status, ierror) &
        BIND(C, NAME="MPI_Status_f2f08_f08")
      IMPORT
      INTEGER, INTENT(IN) :: f_status(MPI_STATUS_SIZE)
      TYPE(MPI_Status), INTENT(OUT) :: f08_status
      INTEGER, OPTIONAL, INTENT(OUT) :: ierror
    END SUBROUTINE
  END INTERFACE
  ! MPI-4.0 19.1.17: an external procedure the compiler cannot see into, so that a register
  ! copy of buf is written back before and read again after (it does nothing in C).
  INTERFACE MPI_F_sync_reg
    SUBROUTINE MPI_F_sync_reg_f08(buf) BIND(C, NAME="MPI_F_sync_reg_f08")
      TYPE(*), DIMENSION(..), ASYNCHRONOUS :: buf
    END SUBROUTINE
  END INTERFACE
END MODULE mpi_f08_types
