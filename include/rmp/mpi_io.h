/* rmp/mpi_io.h — MPI-IO (MPI-3.1 chapter 13) over rmp's io/ layer (include/rmp/io.h):
 * included by mpi.h. Files' errors go to the file's handler, MPI_ERRORS_RETURN by default (the
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

/* Files (collective over the file's group where MPI says so). */
int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh);
int MPI_File_close(MPI_File *fh);
int MPI_File_delete(const char *filename, MPI_Info info);
int MPI_File_set_size(MPI_File fh, MPI_Offset size);
int MPI_File_preallocate(MPI_File fh, MPI_Offset size);
int MPI_File_get_size(MPI_File fh, MPI_Offset *size);
int MPI_File_get_group(MPI_File fh, MPI_Group *group);
int MPI_File_get_amode(MPI_File fh, int *amode);
int MPI_File_set_info(MPI_File fh, MPI_Info info);
int MPI_File_get_info(MPI_File fh, MPI_Info *info_used);
int MPI_File_sync(MPI_File fh);
int MPI_File_set_atomicity(MPI_File fh, int flag);
int MPI_File_get_atomicity(MPI_File fh, int *flag);
MPI_Fint MPI_File_c2f(MPI_File file);
MPI_File MPI_File_f2c(MPI_Fint file);
int MPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                               MPI_Errhandler *errhandler);
int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
int MPI_File_call_errhandler(MPI_File fh, int errorcode);

/* Views and data representations. */
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                      const char *datarep, MPI_Info info);
int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                      MPI_Datatype *filetype, char *datarep);
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent);
int MPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent);
int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp);
int MPI_Register_datarep(const char *datarep,
                         MPI_Datarep_conversion_function *read_conversion_fn,
                         MPI_Datarep_conversion_function *write_conversion_fn,
                         MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state);
int MPI_Register_datarep_c(const char *datarep,
                           MPI_Datarep_conversion_function_c *read_conversion_fn,
                           MPI_Datarep_conversion_function_c *write_conversion_fn,
                           MPI_Datarep_extent_function *dtype_file_extent_fn,
                           void *extra_state);

/* Pointers. */
int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position(MPI_File fh, MPI_Offset *offset);
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);

/* Data access: explicit offsets, individual and shared pointers; blocking, nonblocking,
 * collective, split collective; each with its _c (MPI_Count) twin. */
#define RMP_MPI_IO_RW_(name, ...)                                                               \
    int MPI_File_##name(MPI_File fh, __VA_ARGS__ int count, MPI_Datatype datatype,               \
                        MPI_Status *status);                                                     \
    int MPI_File_##name##_c(MPI_File fh, __VA_ARGS__ MPI_Count count, MPI_Datatype datatype,     \
                            MPI_Status *status);
#define RMP_MPI_IO_I_(name, ...)                                                                \
    int MPI_File_##name(MPI_File fh, __VA_ARGS__ int count, MPI_Datatype datatype,               \
                        MPI_Request *request);                                                   \
    int MPI_File_##name##_c(MPI_File fh, __VA_ARGS__ MPI_Count count, MPI_Datatype datatype,     \
                            MPI_Request *request);
#define RMP_MPI_IO_B_(name, ...)                                                                \
    int MPI_File_##name(MPI_File fh, __VA_ARGS__ int count, MPI_Datatype datatype);              \
    int MPI_File_##name##_c(MPI_File fh, __VA_ARGS__ MPI_Count count, MPI_Datatype datatype);
RMP_MPI_IO_RW_(read_at, MPI_Offset offset, void *buf,)
RMP_MPI_IO_RW_(read_at_all, MPI_Offset offset, void *buf,)
RMP_MPI_IO_RW_(write_at, MPI_Offset offset, const void *buf,)
RMP_MPI_IO_RW_(write_at_all, MPI_Offset offset, const void *buf,)
RMP_MPI_IO_RW_(read, void *buf,)
RMP_MPI_IO_RW_(read_all, void *buf,)
RMP_MPI_IO_RW_(write, const void *buf,)
RMP_MPI_IO_RW_(write_all, const void *buf,)
RMP_MPI_IO_RW_(read_shared, void *buf,)
RMP_MPI_IO_RW_(write_shared, const void *buf,)
RMP_MPI_IO_RW_(read_ordered, void *buf,)
RMP_MPI_IO_RW_(write_ordered, const void *buf,)
RMP_MPI_IO_I_(iread_at, MPI_Offset offset, void *buf,)
RMP_MPI_IO_I_(iread_at_all, MPI_Offset offset, void *buf,)
RMP_MPI_IO_I_(iwrite_at, MPI_Offset offset, const void *buf,)
RMP_MPI_IO_I_(iwrite_at_all, MPI_Offset offset, const void *buf,)
RMP_MPI_IO_I_(iread, void *buf,)
RMP_MPI_IO_I_(iread_all, void *buf,)
RMP_MPI_IO_I_(iwrite, const void *buf,)
RMP_MPI_IO_I_(iwrite_all, const void *buf,)
RMP_MPI_IO_I_(iread_shared, void *buf,)
RMP_MPI_IO_I_(iwrite_shared, const void *buf,)
RMP_MPI_IO_B_(read_at_all_begin, MPI_Offset offset, void *buf,)
RMP_MPI_IO_B_(write_at_all_begin, MPI_Offset offset, const void *buf,)
RMP_MPI_IO_B_(read_all_begin, void *buf,)
RMP_MPI_IO_B_(write_all_begin, const void *buf,)
RMP_MPI_IO_B_(read_ordered_begin, void *buf,)
RMP_MPI_IO_B_(write_ordered_begin, const void *buf,)
#undef RMP_MPI_IO_RW_
#undef RMP_MPI_IO_I_
#undef RMP_MPI_IO_B_
int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status);
int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status);
int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status);

#endif
