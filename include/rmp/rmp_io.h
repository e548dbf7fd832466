/* rmp/rmp_io.h — parallel I/O (io/): a file is a communicator's POSIX file seen through a view
 * (displacement, etype, filetype, data representation). Included by rmp.h; every call returns
 * RMP_SUCCESS or an RMP_ERR_* code, and the file system's failures come back with their own
 * codes (RMP_ERR_NO_SUCH_FILE, RMP_ERR_NO_SPACE...), the path and errno in
 * rmp_file_error_detail(). Collective calls return the same code on every rank. */
#ifndef RMP_IO_H
#define RMP_IO_H

typedef int rmp_file_t;
#define RMP_FILE_NULL ((rmp_file_t)0)
typedef long long rmp_offset_t; /* MPI_Offset */

/* Access modes (MPI's values, combined with |): exactly one of RDONLY, RDWR, WRONLY;
 * CREATE and EXCL not with RDONLY, SEQUENTIAL not with RDWR. */
enum { RMP_FMODE_CREATE = 1, RMP_FMODE_RDONLY = 2, RMP_FMODE_WRONLY = 4, RMP_FMODE_RDWR = 8,
       RMP_FMODE_DELETE_ON_CLOSE = 16, RMP_FMODE_UNIQUE_OPEN = 32, RMP_FMODE_EXCL = 64,
       RMP_FMODE_APPEND = 128, RMP_FMODE_SEQUENTIAL = 256 };
enum { RMP_SEEK_SET = 600, RMP_SEEK_CUR = 602, RMP_SEEK_END = 604 };
/* set_view's disp for a sequential file: the shared pointer's place. */
#define RMP_DISPLACEMENT_CURRENT ((rmp_offset_t)-54278278)
#define RMP_MAX_DATAREP_STRING 128

/* Collective over comm (every rank the same amode and name). Hints read from info:
 * cb_nodes, cb_buffer_size, romio_cb_write, romio_cb_read, striping_unit, romio_ds_read,
 * romio_ds_write, ind_rd_buffer_size, ind_wr_buffer_size; get_info reports them all. */
int rmp_file_open(rmp_comm_t comm, const char *path, int amode, rmp_info_t info,
                  rmp_file_t *fh);
int rmp_file_close(rmp_file_t *fh); /* collective; *fh becomes RMP_FILE_NULL */
int rmp_file_delete(const char *path, rmp_info_t info);
int rmp_file_set_size(rmp_file_t fh, rmp_offset_t size);      /* collective */
int rmp_file_preallocate(rmp_file_t fh, rmp_offset_t size);   /* collective */
int rmp_file_get_size(rmp_file_t fh, rmp_offset_t *size);
int rmp_file_get_group(rmp_file_t fh, rmp_group_t *group);     /* a new group: free it */
int rmp_file_get_amode(rmp_file_t fh, int *amode);
int rmp_file_set_info(rmp_file_t fh, rmp_info_t info);         /* collective */
int rmp_file_get_info(rmp_file_t fh, rmp_info_t *info);        /* a new info: free it */
int rmp_file_sync(rmp_file_t fh);                              /* collective: fsync */
int rmp_file_set_atomicity(rmp_file_t fh, int flag);           /* collective */
int rmp_file_get_atomicity(rmp_file_t fh, int *flag);
/* The communicator the file was opened on (rmp's own duplicate: do not free). */
int rmp_file_comm(rmp_file_t fh, rmp_comm_t *comm);
/* The path and errno of the last file-system failure of this thread ("" if none). */
const char *rmp_file_error_detail(void);

/* Views: collective; resets both file pointers to 0. datarep "native", "internal",
 * "external32" or a registered one. */
int rmp_file_set_view(rmp_file_t fh, rmp_offset_t disp, rmp_datatype_t etype,
                      rmp_datatype_t filetype, const char *datarep, rmp_info_t info);
/* datarep holds RMP_MAX_DATAREP_STRING bytes; etype and filetype are the view's own handles
 * (rmp keeps them until the next set_view or close: do not free). */
int rmp_file_get_view(rmp_file_t fh, rmp_offset_t *disp, rmp_datatype_t *etype,
                      rmp_datatype_t *filetype, char *datarep);
int rmp_file_get_type_extent(rmp_file_t fh, rmp_datatype_t type, ptrdiff_t *extent);
/* The absolute byte position of view offset `offset` (in etypes). */
int rmp_file_get_byte_offset(rmp_file_t fh, rmp_offset_t offset, rmp_offset_t *disp);

/* Data access. count elements of type at buf; status->count: bytes moved (a read stops at
 * the end of the file). Explicit offsets (in etypes of the view), the individual pointer
 * (advanced), the shared pointer (one counter in a side file beside the file, updated under
 * an fcntl lock). */
typedef enum { RMP_IO_AT, RMP_IO_INDIV, RMP_IO_SHARED, RMP_IO_ORDERED } rmp_io_pos_t;
/* One call for every blocking access: pos says the positioning (offset used by RMP_IO_AT
 * only), coll whether it is the collective (_all / ordered) form. */
int rmp_file_access(rmp_file_t fh, rmp_io_pos_t pos, rmp_offset_t offset, void *buf,
                    int64_t count, rmp_datatype_t type, int is_write, int coll,
                    rmp_status_t *status);
/* The nonblocking form: completes on a worker thread, *req waited on as any request. */
int rmp_file_iaccess(rmp_file_t fh, rmp_io_pos_t pos, rmp_offset_t offset, void *buf,
                     int64_t count, rmp_datatype_t type, int is_write, int coll,
                     rmp_request_t *req);
/* Split collectives: begin starts one (one at a time per file, else RMP_ERR_REQUEST), end
 * (with the same buf) finishes it. */
int rmp_file_split_begin(rmp_file_t fh, rmp_io_pos_t pos, rmp_offset_t offset, void *buf,
                         int64_t count, rmp_datatype_t type, int is_write);
int rmp_file_split_end(rmp_file_t fh, void *buf, int is_write, rmp_status_t *status);
int rmp_file_seek(rmp_file_t fh, rmp_offset_t offset, int whence);
int rmp_file_get_position(rmp_file_t fh, rmp_offset_t *offset);
int rmp_file_seek_shared(rmp_file_t fh, rmp_offset_t offset, int whence); /* collective */
int rmp_file_get_position_shared(rmp_file_t fh, rmp_offset_t *offset);

/* User data representations (MPI-3.1 13.5.3): conversion functions return RMP_SUCCESS or an
 * error (reported as RMP_ERR_CONVERSION). A NULL read/write function: the bytes as they are. */
typedef int rmp_datarep_conv_fn(void *userbuf, rmp_datatype_t type, int count, void *filebuf,
                                rmp_offset_t position, void *extra_state);
typedef int rmp_datarep_extent_fn(rmp_datatype_t type, ptrdiff_t *extent, void *extra_state);
int rmp_register_datarep(const char *name, rmp_datarep_conv_fn *read_fn,
                         rmp_datarep_conv_fn *write_fn, rmp_datarep_extent_fn *extent_fn,
                         void *extra_state);

#endif
