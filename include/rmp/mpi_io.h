/* rmp/mpi_io.h — MPI-IO's types and constants (MPI-3.1 chapter 13; over rmp's io/ layer,
 * include/rmp/rmp_io.h): included by mpi.h before the calls' prototypes (api/mpi.api). Files' errors go to the file's handler, MPI_ERRORS_RETURN by default (the
 * handler of MPI_FILE_NULL, which MPI_File_open's own errors use too). */
#ifndef RMP_MPI_IO_H
#define RMP_MPI_IO_H

typedef rmp_file_t MPI_File;
#define MPI_FILE_NULL ((MPI_File)RMP_FILE_NULL)

#define MPI_MODE_RDONLY RMP_FMODE_RDONLY
#define MPI_MODE_RDWR RMP_FMODE_RDWR
#define MPI_MODE_WRONLY RMP_FMODE_WRONLY
#define MPI_MODE_CREATE RMP_FMODE_CREATE
#define MPI_MODE_EXCL RMP_FMODE_EXCL
#define MPI_MODE_DELETE_ON_CLOSE RMP_FMODE_DELETE_ON_CLOSE
#define MPI_MODE_UNIQUE_OPEN RMP_FMODE_UNIQUE_OPEN
#define MPI_MODE_SEQUENTIAL RMP_FMODE_SEQUENTIAL
#define MPI_MODE_APPEND RMP_FMODE_APPEND
#define MPI_SEEK_SET RMP_SEEK_SET
#define MPI_SEEK_CUR RMP_SEEK_CUR
#define MPI_SEEK_END RMP_SEEK_END
#define MPI_DISPLACEMENT_CURRENT RMP_DISPLACEMENT_CURRENT
#define MPI_MAX_DATAREP_STRING RMP_MAX_DATAREP_STRING
/* ROMIO's names for the requests of nonblocking I/O, which programs written for MPICH use:
 * rmp's are MPI requests. */
#define MPIO_USES_MPI_REQUEST
#define MPIO_Request MPI_Request
#define MPIO_REQUEST_NULL MPI_REQUEST_NULL
#define MPIO_Wait MPI_Wait
#define MPIO_Test MPI_Test

typedef void MPI_File_errhandler_function(MPI_File *file, int *error_code, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef int MPI_Datarep_conversion_function(void *userbuf, MPI_Datatype datatype, int count,
                                            void *filebuf, MPI_Offset position,
                                            void *extra_state);
typedef int MPI_Datarep_conversion_function_c(void *userbuf, MPI_Datatype datatype,
                                              MPI_Count count, void *filebuf,
                                              MPI_Offset position, void *extra_state);
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *file_extent,
                                        void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)

#endif
