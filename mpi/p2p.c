/* p2p.c — MPI's point-to-point and completion calls over rmp's. Statuses are rmp's own
 * (MPI_Status is layout-identical), their error fields turned into MPI codes afterwards.
 * Completion calls know no communicator: their errors go to MPI_COMM_WORLD's handler. */
#include <stddef.h>

#include "rmpi.h"

_Static_assert(sizeof(MPI_Status) == sizeof(rmp_status_t), "MPI_Status must be rmp_status_t");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == offsetof(rmp_status_t, source), "source");
_Static_assert(offsetof(MPI_Status, MPI_TAG) == offsetof(rmp_status_t, tag), "tag");
_Static_assert(offsetof(MPI_Status, MPI_ERROR) == offsetof(rmp_status_t, error), "error");

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
             MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_send(buf, count, datatype, dest, tag, comm), __func__);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_recv(buf, count, datatype, source, tag, comm, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_isend(buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    return rmpi_raise(comm, rmp_irecv(buf, count, datatype, source, tag, comm, request),
                      __func__);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                 int recvtag, MPI_Comm comm, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                          recvtype, source, recvtag, comm, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_probe(source, tag, comm, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_iprobe(source, tag, comm, flag, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Cancel(MPI_Request *request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_cancel(request), __func__);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_wait(request, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_test(request, flag, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, array_of_statuses, count);
    int rc = rmp_waitall(count, array_of_requests, rmpi_st(array_of_statuses));
    rmpi_status_fix(&sv_, array_of_statuses, count, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[])
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, array_of_statuses, count);
    int rc = rmp_testall(count, array_of_requests, flag, rmpi_st(array_of_statuses));
    rmpi_status_fix(&sv_, array_of_statuses, count, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_waitany(count, array_of_requests, index, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, array_of_statuses, incount);
    int rc = rmp_waitsome(incount, array_of_requests, outcount, array_of_indices,
                          rmpi_st(array_of_statuses));
    rmpi_status_fix(&sv_, array_of_statuses, incount, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, array_of_statuses, incount);
    int rc = rmp_testsome(incount, array_of_requests, outcount, array_of_indices,
                          rmpi_st(array_of_statuses));
    rmpi_status_fix(&sv_, array_of_statuses, incount, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Request_free(MPI_Request *request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_request_free(request), __func__);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                  rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

/* ---- send modes ---- */

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_ssend(buf, count, datatype, dest, tag, comm), __func__);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_issend(buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_bsend(buf, count, datatype, dest, tag, comm), __func__);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_ibsend(buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_rsend(buf, count, datatype, dest, tag, comm), __func__);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_irsend(buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Buffer_attach(void *buffer, int size)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_buffer_attach(buffer, size), __func__);
}

int MPI_Buffer_detach(void *buffer_addr, int *size)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_buffer_detach((void **)buffer_addr, size), __func__);
}

/* ---- persistent requests ---- */

int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_send_init(buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_ssend_init(buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_bsend_init(buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_rsend_init(buf, count, datatype, dest, tag, comm, request),
                      __func__);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_recv_init(buf, count, datatype, source, tag, comm, request),
                      __func__);
}

int MPI_Start(MPI_Request *request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_start(request), __func__);
}

int MPI_Startall(int count, MPI_Request array_of_requests[])
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_startall(count, array_of_requests), __func__);
}

/* ---- matched probes ---- */

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_mprobe(source, tag, comm, message, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_improbe(source, tag, comm, flag, message, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
              MPI_Status *status)
{
    rmpi_stsave_t sv_;
    rmpi_status_prep(&sv_, status, 1);
    int rc = rmp_mrecv(buf, count, datatype, message, rmpi_st(status));
    rmpi_status_fix(&sv_, status, 1, rc);
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Request *request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_imrecv(buf, count, datatype, message, request),
                      __func__);
}
