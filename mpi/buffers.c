/* buffers.c — MPI-4.1's buffered-send buffers over rmp's (runtime/bsend.c): flushing the
 * process's buffer, and the buffers of communicators and sessions (attach, detach, flush,
 * iflush), which the bsends on them use before the process's. Process-wide calls raise their
 * errors on MPI_COMM_WORLD's handler, a communicator's or session's on its own. */
#include "rmpi.h"

int MPI_Buffer_flush(void)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_buffer_flush(), __func__);
}

int MPI_Buffer_iflush(MPI_Request *request)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_buffer_iflush(request), __func__);
}

int MPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return rmpi_raise(comm, rmp_comm_attach_buffer(comm, buffer, size), __func__);
}

int MPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    return rmpi_raise(comm, rmp_comm_detach_buffer(comm, (void **)buffer_addr, size), __func__);
}

int MPI_Comm_flush_buffer(MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_comm_flush_buffer(comm), __func__);
}

int MPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_comm_iflush_buffer(comm, request), __func__);
}

int MPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return rmpi_raise_session(session, rmp_session_attach_buffer(session, buffer, size), __func__);
}

int MPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    return rmpi_raise_session(session, rmp_session_detach_buffer(session, (void **)buffer_addr, size),
                         __func__);
}

int MPI_Session_flush_buffer(MPI_Session session)
{
    return rmpi_raise_session(session, rmp_session_flush_buffer(session), __func__);
}

int MPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    return rmpi_raise_session(session, rmp_session_iflush_buffer(session, request), __func__);
}
