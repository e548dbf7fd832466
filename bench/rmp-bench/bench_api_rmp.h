/* bench_api_rmp.h — the b_* shim over rmp (see bench_api.h). Kept to thin static inline
 * wrappers so that the timed loops pay nothing for the indirection. */
#ifndef BENCH_API_RMP_H
#define BENCH_API_RMP_H

#include "rmp.h"

#define B_BACKEND "rmp"

typedef rmp_request_t b_req_t;
typedef rmp_datatype_t b_type_t;
typedef rmp_op_t b_op_t;

#define B_BYTE     RMP_BYTE
#define B_INT      RMP_INT
#define B_FLOAT    RMP_FLOAT
#define B_DOUBLE   RMP_DOUBLE
#define B_SUM      RMP_SUM
#define B_MIN      RMP_MIN
#define B_MAX      RMP_MAX
#define B_REQ_NULL RMP_REQUEST_NULL

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

#endif
