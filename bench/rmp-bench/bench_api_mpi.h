/* bench_api_mpi.h — the b_* shim over MPI (see bench_api.h), for building the same
 * benchmark with mpicc from Open MPI, MPICH or any other MPI-3 library. */
#ifndef BENCH_API_MPI_H
#define BENCH_API_MPI_H

#include <mpi.h>

#if defined(RMP_MPI_H)
#define B_BACKEND "rmp-mpi" /* rmp's own MPI layer (include/rmp/mpi.h, librmp-mpi) */
#elif defined(OPEN_MPI)
#define B_BACKEND "openmpi"
#elif defined(MPICH_VERSION)
#define B_BACKEND "mpich"
#else
#define B_BACKEND "mpi"
#endif

typedef MPI_Request b_req_t;
typedef MPI_Datatype b_type_t;
typedef MPI_Op b_op_t;
typedef MPI_Win b_win_t;
typedef MPI_Group b_group_t;

#define B_BYTE     MPI_BYTE
#define B_INT      MPI_INT
#define B_FLOAT    MPI_FLOAT
#define B_DOUBLE   MPI_DOUBLE
#define B_SUM      MPI_SUM
#define B_MIN      MPI_MIN
#define B_MAX      MPI_MAX
#define B_REQ_NULL MPI_REQUEST_NULL
#define B_INT64    MPI_INT64_T
#define B_WIN_NULL MPI_WIN_NULL
#define B_LOCK_SHARED     MPI_LOCK_SHARED
#define B_MODE_NOSUCCEED  MPI_MODE_NOSUCCEED

static inline int b_init(int *argc, char ***argv)
{
    int rc = MPI_Init(argc, argv);
    /* Errors come back as codes (checked by the caller), as with rmp, not as an abort. */
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    return rc;
}

static inline int b_finalize(void)
{
    return MPI_Finalize();
}

static inline void b_abort(int code)
{
    MPI_Abort(MPI_COMM_WORLD, code);
}

static inline const char *b_strerror(int err)
{
    static char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(err, text, &len) != MPI_SUCCESS)
        return "unknown MPI error";
    return text;
}

static inline double b_wtime(void)
{
    return MPI_Wtime();
}

static inline int b_rank(int *rank)
{
    return MPI_Comm_rank(MPI_COMM_WORLD, rank);
}

static inline int b_size(int *size)
{
    return MPI_Comm_size(MPI_COMM_WORLD, size);
}

static inline int b_send(const void *buf, int count, b_type_t type, int dest, int tag)
{
    return MPI_Send(buf, count, type, dest, tag, MPI_COMM_WORLD);
}

static inline int b_recv(void *buf, int count, b_type_t type, int src, int tag)
{
    return MPI_Recv(buf, count, type, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static inline int b_isend(const void *buf, int count, b_type_t type, int dest, int tag,
                          b_req_t *req)
{
    return MPI_Isend(buf, count, type, dest, tag, MPI_COMM_WORLD, req);
}

static inline int b_irecv(void *buf, int count, b_type_t type, int src, int tag, b_req_t *req)
{
    return MPI_Irecv(buf, count, type, src, tag, MPI_COMM_WORLD, req);
}

/* MPICH's MPI_STATUSES_IGNORE is the address 1; gcc 12 takes it for a zero-sized array and
 * warns (stringop-overflow) wherever this call is inlined. MPI never writes through it. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
static inline int b_waitall(int count, b_req_t *reqs)
{
    return MPI_Waitall(count, reqs, MPI_STATUSES_IGNORE);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static inline int b_barrier(void)
{
    return MPI_Barrier(MPI_COMM_WORLD);
}

static inline int b_bcast(void *buf, int count, b_type_t type, int root)
{
    return MPI_Bcast(buf, count, type, root, MPI_COMM_WORLD);
}

static inline int b_reduce(const void *sbuf, void *rbuf, int count, b_type_t type, b_op_t op,
                           int root)
{
    return MPI_Reduce(sbuf, rbuf, count, type, op, root, MPI_COMM_WORLD);
}

static inline int b_allreduce(const void *sbuf, void *rbuf, int count, b_type_t type, b_op_t op)
{
    return MPI_Allreduce(sbuf, rbuf, count, type, op, MPI_COMM_WORLD);
}

static inline int b_iallreduce(const void *sbuf, void *rbuf, int count, b_type_t type,
                               b_op_t op, b_req_t *req)
{
    return MPI_Iallreduce(sbuf, rbuf, count, type, op, MPI_COMM_WORLD, req);
}

static inline int b_allgather(const void *sbuf, void *rbuf, int count, b_type_t type)
{
    return MPI_Allgather(sbuf, count, type, rbuf, count, type, MPI_COMM_WORLD);
}

static inline int b_alltoall(const void *sbuf, void *rbuf, int count, b_type_t type)
{
    return MPI_Alltoall(sbuf, count, type, rbuf, count, type, MPI_COMM_WORLD);
}

/* ---- one-sided: windows on the world communicator, displacement unit 1 (bytes) ---- */

/* A window's errors go to the window's handler (MPI_ERRORS_ARE_FATAL by default, whatever the
 * communicator's): make them come back as codes too. */
static inline int b_win_allocate(size_t bytes, void **base, b_win_t *win)
{
    int rc = MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, win);
    return rc == MPI_SUCCESS ? MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN) : rc;
}

static inline int b_win_create(void *base, size_t bytes, b_win_t *win)
{
    int rc = MPI_Win_create(base, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, win);
    return rc == MPI_SUCCESS ? MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN) : rc;
}

static inline int b_win_free(b_win_t *win)
{
    return MPI_Win_free(win);
}

static inline int b_put(const void *buf, int count, b_type_t type, int target, size_t disp,
                        b_win_t win)
{
    return MPI_Put(buf, count, type, target, (MPI_Aint)disp, count, type, win);
}

static inline int b_get(void *buf, int count, b_type_t type, int target, size_t disp, b_win_t win)
{
    return MPI_Get(buf, count, type, target, (MPI_Aint)disp, count, type, win);
}

static inline int b_accumulate(const void *buf, int count, b_type_t type, int target,
                               size_t disp, b_op_t op, b_win_t win)
{
    return MPI_Accumulate(buf, count, type, target, (MPI_Aint)disp, count, type, op, win);
}

static inline int b_get_accumulate(const void *buf, void *result, int count, b_type_t type,
                                   int target, size_t disp, b_op_t op, b_win_t win)
{
    return MPI_Get_accumulate(buf, count, type, result, count, type, target, (MPI_Aint)disp,
                              count, type, op, win);
}

static inline int b_fetch_and_op(const void *buf, void *result, b_type_t type, int target,
                                 size_t disp, b_op_t op, b_win_t win)
{
    return MPI_Fetch_and_op(buf, result, type, target, (MPI_Aint)disp, op, win);
}

static inline int b_compare_and_swap(const void *buf, const void *compare, void *result,
                                     b_type_t type, int target, size_t disp, b_win_t win)
{
    return MPI_Compare_and_swap(buf, compare, result, type, target, (MPI_Aint)disp, win);
}

static inline int b_win_fence(int assert_mode, b_win_t win)
{
    return MPI_Win_fence(assert_mode, win);
}

static inline int b_win_lock(int type, int rank, b_win_t win)
{
    return MPI_Win_lock(type, rank, 0, win);
}

static inline int b_win_unlock(int rank, b_win_t win)
{
    return MPI_Win_unlock(rank, win);
}

static inline int b_win_flush(int rank, b_win_t win)
{
    return MPI_Win_flush(rank, win);
}

static inline int b_win_post(b_group_t group, b_win_t win)
{
    return MPI_Win_post(group, 0, win);
}

static inline int b_win_start(b_group_t group, b_win_t win)
{
    return MPI_Win_start(group, 0, win);
}

static inline int b_win_complete(b_win_t win)
{
    return MPI_Win_complete(win);
}

static inline int b_win_wait(b_win_t win)
{
    return MPI_Win_wait(win);
}

/* The group of one rank of the world (PSCW's partner). */
static inline int b_group_of(int rank, b_group_t *group)
{
    MPI_Group world;
    int rc = MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Group_incl(world, 1, &rank, group);
    MPI_Group_free(&world);
    return rc;
}

static inline int b_group_free(b_group_t *group)
{
    return MPI_Group_free(group);
}

/* ---- MPI-IO: one file on the world communicator, views of bytes ---- */

typedef MPI_File b_file_t;
#define B_FILE_NULL MPI_FILE_NULL

/* Created if absent, read and write. */
static inline int b_file_open(const char *path, b_file_t *fh)
{
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                           fh);
    /* (files' default handler is already MPI_ERRORS_RETURN) */
    return rc;
}

static inline int b_file_close(b_file_t *fh)
{
    return MPI_File_close(fh);
}

static inline int b_file_delete(const char *path)
{
    return MPI_File_delete(path, MPI_INFO_NULL);
}

/* etype bytes; filetype any (committed) type of bytes. */
static inline int b_file_set_view(b_file_t fh, int64_t disp, b_type_t filetype)
{
    return MPI_File_set_view(fh, disp, MPI_BYTE, filetype, "native", MPI_INFO_NULL);
}

/* count bytes at view offset off (bytes): independent, or collective (_all). */
static inline int b_file_at(b_file_t fh, int64_t off, void *buf, int count, int is_write,
                            int coll)
{
    MPI_Status *st = MPI_STATUS_IGNORE;
    if (is_write)
        return coll ? MPI_File_write_at_all(fh, off, buf, count, MPI_BYTE, st)
                    : MPI_File_write_at(fh, off, buf, count, MPI_BYTE, st);
    return coll ? MPI_File_read_at_all(fh, off, buf, count, MPI_BYTE, st)
                : MPI_File_read_at(fh, off, buf, count, MPI_BYTE, st);
}

/* The same started (nonblocking: iwrite_at_all, iread_at, ...), completed by b_waitall. */
static inline int b_file_iat(b_file_t fh, int64_t off, void *buf, int count, int is_write,
                             int coll, b_req_t *req)
{
    if (is_write)
        return coll ? MPI_File_iwrite_at_all(fh, off, buf, count, MPI_BYTE, req)
                    : MPI_File_iwrite_at(fh, off, buf, count, MPI_BYTE, req);
    return coll ? MPI_File_iread_at_all(fh, off, buf, count, MPI_BYTE, req)
                : MPI_File_iread_at(fh, off, buf, count, MPI_BYTE, req);
}

/* write_ordered from the start of the file (the shared pointer set back to 0 first). */
static inline int b_file_write_ordered(b_file_t fh, void *buf, int count)
{
    int rc = MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    return rc ? rc : MPI_File_write_ordered(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE);
}

/* A committed row-major subarray of bytes. */
static inline int b_type_subarray(int ndims, const int *sizes, const int *subsizes,
                                  const int *starts, b_type_t *t)
{
    int rc = MPI_Type_create_subarray(ndims, sizes, subsizes, starts, MPI_ORDER_C, MPI_BYTE, t);
    return rc ? rc : MPI_Type_commit(t);
}

/* A committed block of blk bytes whose extent is every's (a strided view's filetype). */
static inline int b_type_strided(int blk, int every, b_type_t *t)
{
    MPI_Datatype c;
    int rc = MPI_Type_contiguous(blk, MPI_BYTE, &c);
    if (rc)
        return rc;
    rc = MPI_Type_create_resized(c, 0, every, t);
    MPI_Type_free(&c);
    return rc ? rc : MPI_Type_commit(t);
}

static inline int b_type_free(b_type_t *t)
{
    return MPI_Type_free(t);
}

#endif
