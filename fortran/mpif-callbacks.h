! mpif-callbacks.h: the predefined callbacks, procedures of the Fortran glue
! (fortran/attr.c, fortran/datarep.c) with Fortran's argument conventions.
      EXTERNAL MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN
      EXTERNAL MPI_COMM_DUP_FN, MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN
      EXTERNAL MPI_DUP_FN, MPI_TYPE_NULL_COPY_FN
      EXTERNAL MPI_TYPE_NULL_DELETE_FN, MPI_TYPE_DUP_FN
      EXTERNAL MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN
      EXTERNAL MPI_WIN_DUP_FN
      EXTERNAL MPI_CONVERSION_FN_NULL
