/* bigcount.c — MPI-4's large-count "_c" forms (MPI_Count counts, MPI_Aint displacements).
 * rmp's calls take int counts, so this is MPI-layer logic: a count the int path takes (every
 * count up to INT_MAX) costs one compare and goes straight to it; a larger one is described as
 * ONE element of a derived type (rmpi_bc_make, bigcount_core.c), which the int path carries:
 * - count = a * b with a, b <= the limit: contiguous(a, contiguous(b, type)), a plain vector
 *   that rmp sees as contiguous when type is (no pack buffer for 2 GiB of bytes);
 * - else (count prime, say): a struct of q chunks of `limit` elements and the r left over,
 *   resized to count extents.
 * Reductions (reduce, allreduce, scan, exscan, reduce_scatter_block) go instead in pieces of at
 * most `limit` elements, one int-count call each: elementwise results do not care, and a user
 * op keeps being called with the program's own datatype. The v-forms with a count or a
 * displacement past int go through rmp_alltoallw with a derived type per peer; since that choice
 * depends on arrays only some ranks see (gatherv's counts live at the root), the ranks first
 * agree on it with one small allreduce, the one extra cost of a v-form _c call.
 *
 * Test knob: RMPI_BIGCOUNT_LIMIT=<n> (2 <= n < INT_MAX; an MPI-layer variable, not an RMP_*
 * knob) lowers the limit so that tests exercise these paths with small buffers. The other _c
 * forms: bigcount_{type,misc,v,w,vcoll}.c, and the forwarding ones generated from api/mpi.api. */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bigcount.h"
#include "rmpi.h"

/* ---- point-to-point ------------------------------------------------------------------------ */

typedef int (*send_fn)(const void *, int, rmp_datatype_t, int, int, rmp_comm_t);

static int bc_send(send_fn fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm)
{
    rmpi_bc_t v;
    int rc = rmpi_bc_make(count, type, true, &v);
    if (!rc)
        rc = fn(buf, v.count, v.type, dest, tag, comm);
    rmpi_bc_free(&v);
    return rc;
}

int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    return rmpi_raise(comm, bc_send(rmp_send, buf, count, datatype, dest, tag, comm), __func__);
}

int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
    return rmpi_raise(comm, bc_send(rmp_ssend, buf, count, datatype, dest, tag, comm), __func__);
}

int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
    return rmpi_raise(comm, bc_send(rmp_bsend, buf, count, datatype, dest, tag, comm), __func__);
}

int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
    return rmpi_raise(comm, bc_send(rmp_rsend, buf, count, datatype, dest, tag, comm), __func__);
}

typedef int (*isend_fn)(const void *, int, rmp_datatype_t, int, int, rmp_comm_t, rmp_request_t *);

/* A nonblocking call may free its big type at once: rmp keeps a freed type's layout for the
 * requests that use it. */
static int bc_isend(isend_fn fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest,
                    int tag, MPI_Comm comm, MPI_Request *req)
{
    rmpi_bc_t v;
    int rc = rmpi_bc_make(count, type, true, &v);
    if (!rc)
        rc = fn(buf, v.count, v.type, dest, tag, comm, req);
    rmpi_bc_free(&v);
    return rc;
}

int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, bc_isend(rmp_isend, buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, bc_isend(rmp_issend, buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, MPI_Status *status)
{
    rmpi_bc_t v;
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmpi_bc_make(count, datatype, true, &v);
    if (!rc)
        rc = rmp_recv(buf, v.count, v.type, source, tag, comm, rmpi_st(status));
    rmpi_bc_free(&v);
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    rmpi_bc_t v;
    int rc = rmpi_bc_make(count, datatype, true, &v);
    if (!rc)
        rc = rmp_irecv(buf, v.count, v.type, source, tag, comm, request);
    rmpi_bc_free(&v);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    rmpi_bc_t s, r = {0};
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmpi_bc_make(sendcount, sendtype, true, &s);
    if (!rc && !(rc = rmpi_bc_make(recvcount, recvtype, true, &r)))
        rc = rmp_sendrecv(sendbuf, s.count, s.type, dest, sendtag, recvbuf, r.count, r.type, source,
                          recvtag, comm, rmpi_st(status));
    rmpi_bc_free(&s);
    rmpi_bc_free(&r);
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    rmpi_bc_t v;
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmpi_bc_make(count, datatype, true, &v);
    if (!rc)
        rc = rmp_sendrecv_replace(buf, v.count, v.type, dest, sendtag, source, recvtag, comm,
                                  rmpi_st(status));
    rmpi_bc_free(&v);
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

/* Whole elements of datatype in a status: bytes / size (MPI_UNDEFINED if not whole). */
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    size_t size = 0;
    int rc = !status || !count ? RMP_ERR_ARG : rmp_type_size(datatype, &size);
    if (!rc) {
        size_t bytes = status->rmp_status_.count;
        if (size == 0)
            *count = 0;
        else
            *count = bytes % size ? MPI_UNDEFINED : (MPI_Count)(bytes / size);
    }
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

/* Basic elements: whole elements times the basic elements of one, plus those of the part of
 * an element that ends the message (rmp_get_elements on each piece). */
int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    size_t size = 0;
    int rc = !status || !count ? RMP_ERR_ARG : rmp_type_size(datatype, &size);
    if (!rc) {
        size_t bytes = status->rmp_status_.count;
        if (bytes <= INT_MAX || size == 0 || size > INT_MAX) {
            int n = 0;
            rc = rmp_get_elements(&status->rmp_status_, datatype, &n);
            if (!rc)
                *count = n;
        } else {
            rmp_status_t one = status->rmp_status_, part = status->rmp_status_;
            one.count = size;
            part.count = bytes % size;
            int per = 0, rest = 0;
            if (!(rc = rmp_get_elements(&one, datatype, &per)) &&
                !(rc = rmp_get_elements(&part, datatype, &rest)))
                *count = per == MPI_UNDEFINED || rest == MPI_UNDEFINED
                             ? MPI_UNDEFINED
                             : (MPI_Count)(bytes / size) * per + rest;
        }
    }
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

/* ---- datatypes ------------------------------------------------------------------------------ */

int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    size_t s = 0;
    int rc = size ? rmp_type_size(datatype, &s) : RMP_ERR_ARG;
    if (!rc)
        *size = (MPI_Count)s;
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    ptrdiff_t l = 0, e = 0;
    int rc = lb && extent ? rmp_type_get_extent(datatype, &l, &e) : RMP_ERR_ARG;
    if (!rc)
        *lb = l, *extent = e;
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc;
    if (!newtype)
        rc = RMP_ERR_ARG;
    else if (count <= rmpi_bc_limit())
        rc = rmp_type_contiguous(count < INT_MIN ? -1 : (int)count, oldtype, newtype);
    else
        rc = rmpi_big_type(count, oldtype, newtype); /* committed already: a commit is harmless */
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

/* ---- collectives with one count per side ----------------------------------------------------- */

int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    rmpi_bc_t v;
    int rc = rmpi_bc_make(count, datatype, true, &v);
    if (!rc)
        rc = rmp_bcast(buffer, v.count, v.type, root, comm);
    rmpi_bc_free(&v);
    return rmpi_raise(comm, rc, __func__);
}

typedef int (*two_side_fn)(const void *, int, rmp_datatype_t, void *, int, rmp_datatype_t,
                           rmp_comm_t);

static int bc_two(two_side_fn fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    rmpi_bc_t s = {0}, r = {0};
    int rc = RMP_SUCCESS;
    if (sendbuf == MPI_IN_PLACE)
        s = (rmpi_bc_t){.count = 0, .type = sendtype};
    else
        rc = rmpi_bc_make(sendcount, sendtype, true, &s);
    if (!rc && !(rc = rmpi_bc_make(recvcount, recvtype, true, &r)))
        rc = fn(sendbuf, s.count, s.type, recvbuf, r.count, r.type, comm);
    rmpi_bc_free(&s);
    rmpi_bc_free(&r);
    return rc;
}

int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(
        comm,
        bc_two(rmp_allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
        __func__);
}

int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(
        comm,
        bc_two(rmp_alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
        __func__);
}

/* gather and scatter: a side that does not matter at a rank (the root's receive side at the
 * others) may carry any count: it is turned into a big type only where it is used. */
static int bc_side(MPI_Count count, MPI_Datatype type, bool used, rmpi_bc_t *v)
{
    if (!used) {
        *v = (rmpi_bc_t){.count = 0, .type = type};
        return RMP_SUCCESS;
    }
    return rmpi_bc_make(count, type, true, v);
}

int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    bool am_root = rmpi_rank_of(comm) == root;
    rmpi_bc_t s = {0}, r = {0};
    int rc = bc_side(sendcount, sendtype, sendbuf != MPI_IN_PLACE, &s);
    if (!rc && !(rc = bc_side(recvcount, recvtype, am_root, &r)))
        rc = rmp_gather(sendbuf, s.count, s.type, recvbuf, r.count, r.type, root, comm);
    rmpi_bc_free(&s);
    rmpi_bc_free(&r);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    bool am_root = rmpi_rank_of(comm) == root;
    rmpi_bc_t s = {0}, r = {0};
    int rc = bc_side(sendcount, sendtype, am_root, &s);
    if (!rc && !(rc = bc_side(recvcount, recvtype, recvbuf != MPI_IN_PLACE, &r)))
        rc = rmp_scatter(sendbuf, s.count, s.type, recvbuf, r.count, r.type, root, comm);
    rmpi_bc_free(&s);
    rmpi_bc_free(&r);
    return rmpi_raise(comm, rc, __func__);
}

/* ---- reductions: in pieces of at most the limit ------------------------------------------- */

typedef enum { RD_REDUCE, RD_ALLREDUCE, RD_SCAN, RD_EXSCAN } rd_kind_t;

static int rd_piece(rd_kind_t k, const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root,
                    MPI_Comm comm)
{
    switch (k) {
    case RD_REDUCE:
        return rmp_reduce(s, r, n, t, op, root, comm);
    case RD_ALLREDUCE:
        return rmp_allreduce(s, r, n, t, op, comm);
    case RD_SCAN:
        return rmp_scan(s, r, n, t, op, comm);
    default:
        return rmp_exscan(s, r, n, t, op, comm);
    }
}

/* A buffer `at` elements further (NULL and MPI_IN_PLACE stay as they are). */
static const void *ahead(const void *buf, MPI_Count at, ptrdiff_t ext)
{
    if (!buf || buf == MPI_IN_PLACE)
        return buf;
    return (const char *)buf + at * ext;
}

static int bc_reduce(rd_kind_t k, const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    MPI_Count lim = rmpi_bc_limit();
    if (count <= lim)
        return rd_piece(k, sendbuf, recvbuf, count < INT_MIN ? -1 : (int)count, type, op, root,
                        comm);
    ptrdiff_t lb, ext;
    int rc = rmp_type_get_extent(type, &lb, &ext);
    for (MPI_Count at = 0; !rc && at < count; at += lim) {
        int n = (int)(count - at < lim ? count - at : lim);
        rc = rd_piece(k, ahead(sendbuf, at, ext), (void *)ahead(recvbuf, at, ext), n, type, op,
                      root, comm);
    }
    return rc;
}

int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm)
{
    return rmpi_raise(comm, bc_reduce(RD_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm),
                      __func__);
}

int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm)
{
    return rmpi_raise(comm, bc_reduce(RD_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, 0, comm),
                      __func__);
}

int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
               MPI_Op op, MPI_Comm comm)
{
    return rmpi_raise(comm, bc_reduce(RD_SCAN, sendbuf, recvbuf, count, datatype, op, 0, comm),
                      __func__);
}

int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm)
{
    return rmpi_raise(comm, bc_reduce(RD_EXSCAN, sendbuf, recvbuf, count, datatype, op, 0, comm),
                      __func__);
}

/* Block r of everyone's sendbuf reduced to rank r (a reduce per block, in pieces); in place,
 * the input is recvbuf and my block then moves to its start. */
int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (recvcount <= rmpi_bc_limit())
        return rmpi_raise(comm,
                          rmp_reduce_scatter_block(sendbuf, recvbuf,
                                                   recvcount < INT_MIN ? -1 : (int)recvcount,
                                                   datatype, op, comm),
                          __func__);
    int n = 0, me = rmpi_rank_of(comm), rc = rmp_comm_size(comm, &n);
    ptrdiff_t lb, ext;
    if (!rc)
        rc = rmp_type_get_extent(datatype, &lb, &ext);
    bool in_place = sendbuf == MPI_IN_PLACE;
    const char *in = in_place ? recvbuf : sendbuf;
    if (!rc && (!in || !recvbuf))
        rc = RMP_ERR_BUFFER;
    for (int r = 0; !rc && r < n; r++) {
        const void *blk = in + (ptrdiff_t)r * recvcount * ext;
        void *out = in_place ? (void *)blk : recvbuf;
        const void *src = r == me && in_place ? MPI_IN_PLACE : blk;
        rc = bc_reduce(RD_REDUCE, src, r == me ? out : NULL, recvcount, datatype, op, r, comm);
    }
    if (!rc && in_place && me > 0)
        memmove(recvbuf, in + (ptrdiff_t)me * recvcount * ext, (size_t)(recvcount * ext));
    return rmpi_raise(comm, rc, __func__);
}
