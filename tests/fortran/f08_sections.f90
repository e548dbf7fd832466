! f08_sections.f90 — non-contiguous array sections through mpi_f08 (MPI_SUBARRAYS_SUPPORTED):
! sent and received in place by a datatype made from the descriptor, never through a copy.
! A ring at any rank count: strided 1-D, 2-D a(1:n:2, :), reversed a(n:1:-1) sections through
! Send/Recv/Isend/Irecv with exact elements and untouched holes; an Isend's array changed
! after the Wait (and an Irecv's section written only at its elements); a count below the
! section's size (its first elements) and above it (MPI_ERR_COUNT); a large strided Isend
! (the rendezvous path); collectives: Allgather into a strided section, Allreduce of sections,
! v-forms (Allgatherv, Scatterv, Ialltoallv) between strided sections.
PROGRAM f08_sections
  USE mpi_f08
  IMPLICIT NONE
  INTEGER, PARAMETER :: n = 10, m = 4, big = 200000
  INTEGER :: myrank = 0, nfail = 0
  INTEGER :: size, to, from, i, j, ierr, cls, cnt
  INTEGER :: a(2 * n), b(2 * n), c(n), a2(n, m), b2(n, m)
  INTEGER, ALLOCATABLE :: la(:), lb(:), g(:)
  DOUBLE PRECISION :: d(3 * n), e(3 * n)
  TYPE(MPI_Request) :: r(2)
  TYPE(MPI_Status) :: st

  CALL watchdog(90)
  CALL MPI_Init()
  CALL MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  CALL MPI_Comm_rank(MPI_COMM_WORLD, myrank)
  CALL MPI_Comm_size(MPI_COMM_WORLD, size)
  CALL check_true('MPI_SUBARRAYS_SUPPORTED', MPI_SUBARRAYS_SUPPORTED)
  CALL check_true('MPI_ASYNC_PROTECTS_NONBLOCKING', MPI_ASYNC_PROTECTS_NONBLOCKING)
  to = MOD(myrank + 1, size)
  from = MOD(myrank + size - 1, size)

  ! 1-D strided send into a contiguous receive, then into a strided one (holes stay -1)
  a = [(1000 * myrank + i, i = 1, 2 * n)]
  c = -1
  CALL MPI_Irecv(c, n, MPI_INTEGER, from, 1, MPI_COMM_WORLD, r(1))
  CALL MPI_Send(a(1:2*n:2), n, MPI_INTEGER, to, 1, MPI_COMM_WORLD, ierr)
  CALL check_ok('Send a(1:2n:2)', ierr)
  CALL MPI_Wait(r(1), st)
  CALL MPI_Get_count(st, MPI_INTEGER, cnt)
  CALL check_int('count of a strided send', cnt, n)
  DO i = 1, n
    CALL check_int('strided -> contiguous', c(i), 1000 * from + 2 * i - 1)
  END DO
  b = -1
  CALL MPI_Irecv(b(2:2*n:2), n, MPI_INTEGER, from, 2, MPI_COMM_WORLD, r(1))
  CALL MPI_Send(a(1:2*n:2), n, MPI_INTEGER, to, 2, MPI_COMM_WORLD)
  CALL MPI_Wait(r(1), MPI_STATUS_IGNORE)
  DO i = 1, n
    CALL check_int('strided -> strided element', b(2 * i), 1000 * from + 2 * i - 1)
    CALL check_int('strided -> strided hole', b(2 * i - 1), -1)
  END DO

  ! 2-D: every other row of every column, received into every other column of b2
  DO j = 1, m
    DO i = 1, n
      a2(i, j) = 10000 * myrank + 100 * j + i
    END DO
  END DO
  b2 = -1
  CALL MPI_Irecv(b2(:, 1:m:2), (n / 2) * m, MPI_INTEGER, from, 3, MPI_COMM_WORLD, r(1))
  CALL MPI_Send(a2(1:n:2, :), (n / 2) * m, MPI_INTEGER, to, 3, MPI_COMM_WORLD)
  CALL MPI_Wait(r(1), MPI_STATUS_IGNORE)
  ! sent in column-major order: element k = (i, j) of the section, i fastest
  DO j = 1, m
    DO i = 1, n / 2
      cnt = (j - 1) * (n / 2) + i - 1            ! index in the message
      CALL check_int('2-D section element', b2(MOD(cnt, n) + 1, 2 * (cnt / n) + 1), 10000 * from + 100 * j + 2 * i - 1)
    END DO
  END DO
  DO j = 2, m, 2
    DO i = 1, n
      CALL check_int('2-D hole column', b2(i, j), -1)
    END DO
  END DO

  ! reversed section, and a count below the section's size: its first elements
  c = -1
  CALL MPI_Irecv(c, n, MPI_INTEGER, from, 4, MPI_COMM_WORLD, r(1))
  CALL MPI_Send(a(n:1:-1), 3, MPI_INTEGER, to, 4, MPI_COMM_WORLD)
  CALL MPI_Wait(r(1), st)
  CALL MPI_Get_count(st, MPI_INTEGER, cnt)
  CALL check_int('count of a 3-element prefix', cnt, 3)
  DO i = 1, 3
    CALL check_int('reversed section element', c(i), 1000 * from + n + 1 - i)
  END DO
  CALL check_int('past the prefix', c(4), -1)
  ! 2-D prefix crossing a column: 7 elements of a 5 x 4 section
  c = -1
  CALL MPI_Irecv(c, n, MPI_INTEGER, from, 5, MPI_COMM_WORLD, r(1))
  CALL MPI_Send(a2(1:n:2, :), 7, MPI_INTEGER, to, 5, MPI_COMM_WORLD)
  CALL MPI_Wait(r(1), MPI_STATUS_IGNORE)
  DO i = 1, 7
    cnt = 10000 * from + 100 * ((i - 1) / 5 + 1) + 2 * MOD(i - 1, 5) + 1
    CALL check_int('2-D prefix element', c(i), cnt)
  END DO
  CALL MPI_Send(a(1:2*n:2), n + 1, MPI_INTEGER, to, 6, MPI_COMM_WORLD, ierr)
  CALL MPI_Error_class(ierr, cls)
  CALL check_int('count above the section''s size', cls, MPI_ERR_COUNT)
  ! nonblocking: the sender's array changes after the Wait, the receiver sees the old values
  a = [(1000 * myrank + i, i = 1, 2 * n)]
  b = -1
  CALL MPI_Irecv(b(1:2*n:3), 7, MPI_INTEGER, from, 7, MPI_COMM_WORLD, r(1))
  CALL MPI_Isend(a(2:2*n:3), 7, MPI_INTEGER, to, 7, MPI_COMM_WORLD, r(2))
  CALL MPI_Waitall(2, r, MPI_STATUSES_IGNORE, ierr)
  CALL check_ok('Waitall of sections', ierr)
  a = -7
  CALL MPI_Barrier(MPI_COMM_WORLD)
  DO i = 1, 2 * n
    IF (MOD(i - 1, 3) == 0) THEN
      CALL check_int('Irecv section element', b(i), 1000 * from + i + 1)
    ELSE
      CALL check_int('Irecv section hole', b(i), -1)
    END IF
  END DO

  ! large: every other element of a big array (rendezvous), Isend then Wait
  ALLOCATE (la(2 * big), lb(big))
  la = [(i + myrank, i = 1, 2 * big)]
  lb = -1
  CALL MPI_Irecv(lb, big, MPI_INTEGER, from, 8, MPI_COMM_WORLD, r(1))
  CALL MPI_Isend(la(2:2*big:2), big, MPI_INTEGER, to, 8, MPI_COMM_WORLD, r(2))
  CALL MPI_Waitall(2, r, MPI_STATUSES_IGNORE)
  cnt = 0
  DO i = 1, big
    IF (lb(i) /= 2 * i + from) cnt = cnt + 1
  END DO
  CALL check_int('large strided Isend: wrong elements', cnt, 0)
  ! collectives: Allgather into every other element, Allreduce of two same-shape sections
  ALLOCATE (g(2 * size))
  g = -1
  CALL MPI_Allgather(myrank + 1, 1, MPI_INTEGER, g(1:2*size:2), 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  CALL check_ok('Allgather into a section', ierr)
  DO i = 1, size
    CALL check_int('Allgather block', g(2 * i - 1), i)
    CALL check_int('Allgather hole', g(2 * i), -1)
  END DO
  d = [(DBLE(i + myrank), i = 1, 3 * n)]
  e = -1
  CALL MPI_Allreduce(d(1:3*n:3), e(2:3*n:3), n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  CALL check_ok('Allreduce of sections', ierr)
  DO i = 1, n
    CALL check_true('Allreduce section element', e(3 * i - 1) == DBLE(size * (3 * i - 2) + size * (size - 1) / 2))
    CALL check_true('Allreduce section holes', e(3 * i - 2) == -1 .AND. e(3 * i) == -1)
  END DO

  DEALLOCATE (la, lb, g)
  CALL vforms(size)
  CALL finish('f08_sections')
CONTAINS
  INCLUDE 'fcheck.inc'

  ! v-forms with strided sections: counts and displacements count the section's elements.
  ! Rank r gives r + 1 elements (100 r + k, from every other element of its array); an
  ! Allgatherv into every other element of g2, a Scatterv back from it, an Ialltoallv between
  ! sections (its send array changed after the Wait: what arrived stays); holes stay -1; a
  ! section with two strides is MPI_ERR_BUFFER.
  SUBROUTINE vforms(np)
    INTEGER, INTENT(IN) :: np
    INTEGER :: cnts(np), dsp(np), ones(np), seq(np), tot, i, k, ierr, cls
    INTEGER :: sv(2 * np), rv(np), sa(2 * np), ra(2 * np), t2(4, 4)
    INTEGER, ALLOCATABLE :: g2(:)
    TYPE(MPI_Request) :: q
    cnts = [(i, i = 1, np)]
    dsp = [(i * (i - 1) / 2, i = 1, np)]
    tot = np * (np + 1) / 2
    ALLOCATE (g2(2 * tot))
    sv = -5
    sv(1:2*(myrank+1):2) = [(100 * myrank + k, k = 1, myrank + 1)]
    g2 = -1
    CALL MPI_Allgatherv(sv(1:2*(myrank+1):2), myrank + 1, MPI_INTEGER, g2(1:2*tot:2), cnts, &
                        dsp, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    CALL check_ok('Allgatherv into a section', ierr)
    DO i = 1, np
      DO k = 1, i
        CALL check_int('Allgatherv element', g2(2 * (dsp(i) + k) - 1), 100 * (i - 1) + k)
        CALL check_int('Allgatherv hole', g2(2 * (dsp(i) + k)), -1)
      END DO
    END DO
    rv = -1
    CALL MPI_Scatterv(g2(1:2*tot:2), cnts, dsp, MPI_INTEGER, rv, myrank + 1, MPI_INTEGER, 0, &
                      MPI_COMM_WORLD, ierr)
    CALL check_ok('Scatterv from a section', ierr)
    CALL check_true('Scatterv block', ALL(rv(1:myrank+1) == [(100 * myrank + k, k = 1, myrank + 1)]))
    ones = 1
    seq = [(i - 1, i = 1, np)]
    sa = [(100 * myrank + (i + 1) / 2, i = 1, 2 * np)]
    ra = -1
    CALL MPI_Ialltoallv(sa(1:2*np:2), ones, seq, MPI_INTEGER, ra(2:2*np:2), ones, seq, &
                        MPI_INTEGER, MPI_COMM_WORLD, q, ierr)
    CALL MPI_Wait(q, MPI_STATUS_IGNORE)
    sa = -7
    CALL MPI_Barrier(MPI_COMM_WORLD)
    DO i = 1, np
      CALL check_int('Ialltoallv element', ra(2 * i), 100 * (i - 1) + myrank + 1)
      CALL check_int('Ialltoallv hole', ra(2 * i - 1), -1)
    END DO
    CALL MPI_Allgatherv(1, 1, MPI_INTEGER, t2(1:2, 1:4:2), ones, seq, MPI_INTEGER, &
                        MPI_COMM_WORLD, ierr)
    CALL MPI_Error_class(ierr, cls)
    CALL check_int('Allgatherv into a two-stride section: class', cls, MPI_ERR_BUFFER)
    DEALLOCATE (g2)
  END SUBROUTINE vforms
END PROGRAM f08_sections
