/* mpi_sbuf.h — MPI-4.1's session-attached buffers for buffered sends (3.6), included by
 * mpi.h: a bsend on a communicator that derives from a session (MPI_Comm_create_from_group
 * with a group of its psets, or a communicator made from such a one) uses the communicator's
 * own buffer, else the session's, else the process's (MPI_Buffer_attach). Finalizing the
 * session detaches its buffer (its messages still go). Errors go to the session's handler. */
#ifndef RMP_MPI_SBUF_H
#define RMP_MPI_SBUF_H

int MPI_Session_attach_buffer(MPI_Session session, void *buffer, int size);
/* buffer_addr is a void ** (as MPI_Buffer_detach's). */
int MPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size);
int MPI_Session_flush_buffer(MPI_Session session);
int MPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request);

#endif
