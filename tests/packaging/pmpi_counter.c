/* pmpi_counter.c — a profiling tool the way MPI-3.1 14.2 has them written: it defines its own
 * MPI_X for a few calls, counts each call and forwards it to PMPI_X. Linked ahead of
 * librmp-mpi (-lpmpi_counter before -lrmp-mpi, LD_PRELOAD, or as an object with
 * librmp-mpi.a), its MPI_X replace rmp's. At MPI_Finalize each rank prints one line:
 *   pmpi_counter rank R: Init=1 Finalize=1 Send=... (every counter, in the order below)
 * The counts are of the program's own calls only: a call rmp's MPI layer makes to itself goes
 * to the PMPI_ name and is not seen here (14.2.2), which tests/mpi/mpi_pmpi.c checks. */
#include <mpi.h>
#include <stdio.h>

enum {
    C_INIT, C_INIT_THREAD, C_FINALIZE, C_COMM_RANK, C_COMM_SIZE, C_SEND, C_RECV, C_ISEND,
    C_IRECV, C_WAIT, C_WAITALL, C_SENDRECV, C_SENDRECV_REPLACE, C_BCAST, C_REDUCE, C_ALLREDUCE,
    C_BARRIER, C_COMM_DUP, C_COMM_FREE, C_ERROR_STRING, C_ERROR_CLASS, C_PCONTROL, C_N
};
static const char *const names[C_N] = {
    "Init", "Init_thread", "Finalize", "Comm_rank", "Comm_size", "Send", "Recv", "Isend",
    "Irecv", "Wait", "Waitall", "Sendrecv", "Sendrecv_replace", "Bcast", "Reduce", "Allreduce",
    "Barrier", "Comm_dup", "Comm_free", "Error_string", "Error_class", "Pcontrol"};
/* Counted with atomics: a program may call MPI from several threads (MPI_THREAD_MULTIPLE). */
static _Atomic int counts[C_N];

int MPI_Init(int *argc, char ***argv)
{
    counts[C_INIT]++;
    return PMPI_Init(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    counts[C_INIT_THREAD]++;
    return PMPI_Init_thread(argc, argv, required, provided);
}

int MPI_Finalize(void)
{
    counts[C_FINALIZE]++;
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char line[1024];
    int len = snprintf(line, sizeof line, "pmpi_counter rank %d:", rank);
    for (int i = 0; i < C_N && len < (int)sizeof line; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %s=%d", names[i], counts[i]);
    printf("%s\n", line);
    fflush(stdout);
    return PMPI_Finalize();
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    counts[C_COMM_RANK]++;
    return PMPI_Comm_rank(comm, rank);
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    counts[C_COMM_SIZE]++;
    return PMPI_Comm_size(comm, size);
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
             MPI_Comm comm)
{
    counts[C_SEND]++;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    counts[C_RECV]++;
    return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, MPI_Request *request)
{
    counts[C_ISEND]++;
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    counts[C_IRECV]++;
    return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    counts[C_WAIT]++;
    return PMPI_Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    counts[C_WAITALL]++;
    return PMPI_Waitall(count, requests, statuses);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                 int recvtag, MPI_Comm comm, MPI_Status *status)
{
    counts[C_SENDRECV]++;
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, status);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    counts[C_SENDRECV_REPLACE]++;
    return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                 status);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    counts[C_BCAST]++;
    return PMPI_Bcast(buffer, count, datatype, root, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    counts[C_REDUCE]++;
    return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    counts[C_ALLREDUCE]++;
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    counts[C_BARRIER]++;
    return PMPI_Barrier(comm);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    counts[C_COMM_DUP]++;
    return PMPI_Comm_dup(comm, newcomm);
}

int MPI_Comm_free(MPI_Comm *comm)
{
    counts[C_COMM_FREE]++;
    return PMPI_Comm_free(comm);
}

int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    counts[C_ERROR_STRING]++;
    return PMPI_Error_string(errorcode, string, resultlen);
}

int MPI_Error_class(int errorcode, int *errorclass)
{
    counts[C_ERROR_CLASS]++;
    return PMPI_Error_class(errorcode, errorclass);
}

/* What a real tool would read to start or stop profiling (14.2.4); counted here. */
int MPI_Pcontrol(const int level, ...)
{
    counts[C_PCONTROL]++;
    return PMPI_Pcontrol(level);
}
