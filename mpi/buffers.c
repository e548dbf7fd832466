/* buffers.c — MPI-4.1's buffered-send buffers over rmp's (runtime/bsend.c): flushing the
 * process's buffer, and the buffers of communicators (attach, detach, flush, iflush), which
 * the bsends on them use before the process's. Process-wide calls raise their errors on
 * MPI_COMM_WORLD's handler, a communicator's on its own. */
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
