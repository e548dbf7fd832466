/* bench_api_rmp.h — the b_* shim over rmp (see bench_api.h). Kept to thin static inline
 * wrappers so that the timed loops pay nothing for the indirection. */
#ifndef BENCH_API_RMP_H
#define BENCH_API_RMP_H

#include "rmp.h"

#define B_BACKEND "rmp"

typedef rmp_request_t b_req_t;
typedef rmp_datatype_t b_type_t;
typedef rmp_op_t b_op_t;
typedef rmp_win_t b_win_t;
typedef rmp_group_t b_group_t;

#define B_BYTE     RMP_BYTE
#define B_INT      RMP_INT
#define B_FLOAT    RMP_FLOAT
#define B_DOUBLE   RMP_DOUBLE
#define B_SUM      RMP_SUM
#define B_MIN      RMP_MIN
#define B_MAX      RMP_MAX
#define B_REQ_NULL RMP_REQUEST_NULL
#define B_INT64    RMP_INT64_T
#define B_WIN_NULL RMP_WIN_NULL
#define B_LOCK_SHARED     RMP_LOCK_SHARED
#define B_MODE_NOSUCCEED  RMP_MODE_NOSUCCEED

static inline int b_init(int *argc, char ***argv)
{
    return rmp_init(argc, argv);
}

static inline int b_finalize(void)
{
    return rmp_finalize();
}

static inline void b_abort(int code)
{
    rmp_abort(RMP_COMM_WORLD, code);
}

static inline const char *b_strerror(int err)
{
    return rmp_strerror(err);
}

static inline double b_wtime(void)
{
    return rmp_wtime();
}

static inline int b_rank(int *rank)
{
    return rmp_comm_rank(RMP_COMM_WORLD, rank);
}

static inline int b_size(int *size)
{
    return rmp_comm_size(RMP_COMM_WORLD, size);
}

static inline int b_send(const void *buf, int count, b_type_t type, int dest, int tag)
{
    return rmp_send(buf, count, type, dest, tag, RMP_COMM_WORLD);
}

static inline int b_recv(void *buf, int count, b_type_t type, int src, int tag)
{
    return rmp_recv(buf, count, type, src, tag, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
}

static inline int b_isend(const void *buf, int count, b_type_t type, int dest, int tag,
                          b_req_t *req)
{
    return rmp_isend(buf, count, type, dest, tag, RMP_COMM_WORLD, req);
}

static inline int b_irecv(void *buf, int count, b_type_t type, int src, int tag, b_req_t *req)
{
    return rmp_irecv(buf, count, type, src, tag, RMP_COMM_WORLD, req);
}

static inline int b_waitall(int count, b_req_t *reqs)
{
    return rmp_waitall(count, reqs, RMP_STATUSES_IGNORE);
}

static inline int b_barrier(void)
{
    return rmp_barrier(RMP_COMM_WORLD);
}

static inline int b_bcast(void *buf, int count, b_type_t type, int root)
{
    return rmp_bcast(buf, count, type, root, RMP_COMM_WORLD);
}

static inline int b_reduce(const void *sbuf, void *rbuf, int count, b_type_t type, b_op_t op,
                           int root)
{
    return rmp_reduce(sbuf, rbuf, count, type, op, root, RMP_COMM_WORLD);
}

static inline int b_allreduce(const void *sbuf, void *rbuf, int count, b_type_t type, b_op_t op)
{
    return rmp_allreduce(sbuf, rbuf, count, type, op, RMP_COMM_WORLD);
}

static inline int b_iallreduce(const void *sbuf, void *rbuf, int count, b_type_t type,
                               b_op_t op, b_req_t *req)
{
    return rmp_iallreduce(sbuf, rbuf, count, type, op, RMP_COMM_WORLD, req);
}

static inline int b_allgather(const void *sbuf, void *rbuf, int count, b_type_t type)
{
    return rmp_allgather(sbuf, count, type, rbuf, count, type, RMP_COMM_WORLD);
}

static inline int b_alltoall(const void *sbuf, void *rbuf, int count, b_type_t type)
{
    return rmp_alltoall(sbuf, count, type, rbuf, count, type, RMP_COMM_WORLD);
}

/* ---- one-sided: windows on the world communicator, displacement unit 1 (bytes) ---- */

static inline int b_win_allocate(size_t bytes, void **base, b_win_t *win)
{
    return rmp_win_allocate((ptrdiff_t)bytes, 1, RMP_COMM_WORLD, base, win);
}

static inline int b_win_create(void *base, size_t bytes, b_win_t *win)
{
    return rmp_win_create(base, (ptrdiff_t)bytes, 1, RMP_COMM_WORLD, win);
}

static inline int b_win_free(b_win_t *win)
{
    return rmp_win_free(win);
}

static inline int b_put(const void *buf, int count, b_type_t type, int target, size_t disp,
                        b_win_t win)
{
    return rmp_put(buf, count, type, target, (ptrdiff_t)disp, count, type, win);
}

static inline int b_get(void *buf, int count, b_type_t type, int target, size_t disp, b_win_t win)
{
    return rmp_get(buf, count, type, target, (ptrdiff_t)disp, count, type, win);
}

static inline int b_accumulate(const void *buf, int count, b_type_t type, int target,
                               size_t disp, b_op_t op, b_win_t win)
{
    return rmp_accumulate(buf, count, type, target, (ptrdiff_t)disp, count, type, op, win);
}

static inline int b_get_accumulate(const void *buf, void *result, int count, b_type_t type,
                                   int target, size_t disp, b_op_t op, b_win_t win)
{
    return rmp_get_accumulate(buf, count, type, result, count, type, target, (ptrdiff_t)disp,
                              count, type, op, win);
}

static inline int b_fetch_and_op(const void *buf, void *result, b_type_t type, int target,
                                 size_t disp, b_op_t op, b_win_t win)
{
    return rmp_fetch_and_op(buf, result, type, target, (ptrdiff_t)disp, op, win);
}

static inline int b_compare_and_swap(const void *buf, const void *compare, void *result,
                                     b_type_t type, int target, size_t disp, b_win_t win)
{
    return rmp_compare_and_swap(buf, compare, result, type, target, (ptrdiff_t)disp, win);
}

static inline int b_win_fence(int assert_mode, b_win_t win)
{
    return rmp_win_fence(assert_mode, win);
}

static inline int b_win_lock(int type, int rank, b_win_t win)
{
    return rmp_win_lock(type, rank, 0, win);
}

static inline int b_win_unlock(int rank, b_win_t win)
{
    return rmp_win_unlock(rank, win);
}

static inline int b_win_flush(int rank, b_win_t win)
{
    return rmp_win_flush(rank, win);
}

static inline int b_win_post(b_group_t group, b_win_t win)
{
    return rmp_win_post(group, 0, win);
}

static inline int b_win_start(b_group_t group, b_win_t win)
{
    return rmp_win_start(group, 0, win);
}

static inline int b_win_complete(b_win_t win)
{
    return rmp_win_complete(win);
}

static inline int b_win_wait(b_win_t win)
{
    return rmp_win_wait(win);
}

/* The group of one rank of the world (PSCW's partner). */
static inline int b_group_of(int rank, b_group_t *group)
{
    rmp_group_t world;
    int rc = rmp_comm_group(RMP_COMM_WORLD, &world);
    if (rc != 0)
        return rc;
    rc = rmp_group_incl(world, 1, &rank, group);
    rmp_group_free(&world);
    return rc;
}

static inline int b_group_free(b_group_t *group)
{
    return rmp_group_free(group);
}

/* ---- MPI-IO: one file on the world communicator, views of bytes ---- */

typedef rmp_file_t b_file_t;
#define B_FILE_NULL RMP_FILE_NULL

/* Created if absent, read and write. */
static inline int b_file_open(const char *path, b_file_t *fh)
{
    return rmp_file_open(RMP_COMM_WORLD, path, RMP_FMODE_CREATE | RMP_FMODE_RDWR, RMP_INFO_NULL,
                         fh);
}

static inline int b_file_close(b_file_t *fh)
{
    return rmp_file_close(fh);
}

static inline int b_file_delete(const char *path)
{
    return rmp_file_delete(path, RMP_INFO_NULL);
}

/* etype bytes; filetype any (committed) type of bytes. */
static inline int b_file_set_view(b_file_t fh, int64_t disp, b_type_t filetype)
{
    return rmp_file_set_view(fh, disp, RMP_BYTE, filetype, "native", RMP_INFO_NULL);
}

/* count bytes at view offset off (bytes): independent, or collective (_all). */
static inline int b_file_at(b_file_t fh, int64_t off, void *buf, int count, int is_write,
                            int coll)
{
    return rmp_file_access(fh, RMP_IO_AT, off, buf, count, RMP_BYTE, is_write, coll,
                           RMP_STATUS_IGNORE);
}

/* The same started (nonblocking: iwrite_at_all, iread_at, ...), completed by b_waitall. */
static inline int b_file_iat(b_file_t fh, int64_t off, void *buf, int count, int is_write,
                             int coll, b_req_t *req)
{
    return rmp_file_iaccess(fh, RMP_IO_AT, off, buf, count, RMP_BYTE, is_write, coll, req);
}

/* write_ordered from the start of the file (the shared pointer set back to 0 first). */
static inline int b_file_write_ordered(b_file_t fh, void *buf, int count)
{
    int rc = rmp_file_seek_shared(fh, 0, RMP_SEEK_SET);
    return rc ? rc : rmp_file_access(fh, RMP_IO_ORDERED, 0, buf, count, RMP_BYTE, 1, 1,
                                     RMP_STATUS_IGNORE);
}

/* A committed row-major subarray of bytes. */
static inline int b_type_subarray(int ndims, const int *sizes, const int *subsizes,
                                  const int *starts, b_type_t *t)
{
    int rc = rmp_type_create_subarray(ndims, sizes, subsizes, starts, RMP_ORDER_C, RMP_BYTE, t);
    return rc ? rc : rmp_type_commit(t);
}

/* A committed block of blk bytes whose extent is every's (a strided view's filetype). */
static inline int b_type_strided(int blk, int every, b_type_t *t)
{
    rmp_datatype_t c;
    int rc = rmp_type_contiguous(blk, RMP_BYTE, &c);
    if (rc)
        return rc;
    rc = rmp_type_create_resized(c, 0, every, t);
    rmp_type_free(&c);
    return rc ? rc : rmp_type_commit(t);
}

static inline int b_type_free(b_type_t *t)
{
    return rmp_type_free(t);
}

#endif
