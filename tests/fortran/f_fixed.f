C     f_fixed.f -- mpif.h in a fixed-form (FORTRAN 77) program: the
C     constants, MPI_WTIME's type, and a send to the next rank.
      PROGRAM FFIXED
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NPROCS, IBUF, STATUS(MPI_STATUS_SIZE), NF
      DOUBLE PRECISION T
      NF = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      T = MPI_WTIME()
      IF (T .LE. 0D0) THEN
         PRINT *, 'FAIL rank ', RANK, ': MPI_WTIME is ', T
         NF = NF + 1
      END IF
      IBUF = RANK
      CALL MPI_SENDRECV_REPLACE(IBUF, 1, MPI_INTEGER,
     &     MOD(RANK + 1, NPROCS), 5, MOD(RANK + NPROCS - 1, NPROCS), 5,
     &     MPI_COMM_WORLD, STATUS, IERR)
      IF (IBUF .NE. MOD(RANK + NPROCS - 1, NPROCS) .OR.
     &    STATUS(MPI_SOURCE) .NE. IBUF .OR. IERR .NE. MPI_SUCCESS) THEN
         PRINT *, 'FAIL rank ', RANK, ': got ', IBUF, ' from ',
     &        STATUS(MPI_SOURCE)
         NF = NF + 1
      END IF
      IF (NF .EQ. 0) WRITE (*, '(A,I0,A)') 'f_fixed: rank ', RANK, ' OK'
      CALL MPI_FINALIZE(IERR)
      END
