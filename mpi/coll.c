/* coll.c — MPI's collectives, blocking and nonblocking, v-forms and scans, over rmp's (same
 * arguments, same MPI_IN_PLACE rules; the algorithms are rmp's). */
#include "rmpi.h"

int MPI_Barrier(MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_barrier(comm), __func__);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_bcast(buffer, count, datatype, root, comm), __func__);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_reduce(sendbuf, recvbuf, count, datatype, op, root, comm),
                      __func__);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_allreduce(sendbuf, recvbuf, count, datatype, op, comm),
                      __func__);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                       recvtype, root, comm), __func__);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                        recvtype, root, comm), __func__);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm), __func__);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype, comm), __func__);
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op,
                                               comm), __func__);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op,
                                                     comm), __func__);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_ibarrier(comm, request), __func__);
}

int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request)
{
    return rmpi_raise(comm, rmp_ibcast(buffer, count, datatype, root, comm, request), __func__);
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm,
                                        request), __func__);
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_iallreduce(sendbuf, recvbuf, count, datatype, op, comm,
                                           request), __func__);
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return rmpi_raise(comm, rmp_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                        recvtype, root, comm, request), __func__);
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return rmpi_raise(comm, rmp_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype, root, comm, request), __func__);
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                           recvtype, comm, request), __func__);
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm, request), __func__);
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op,
                                                comm, request), __func__);
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request)
{
    return rmpi_raise(comm, rmp_ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype,
                                                      op, comm, request), __func__);
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    return rmpi_raise(comm,
                      rmp_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, root, comm),
                      __func__);
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    return rmpi_raise(comm,
                      rmp_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                   recvtype, root, comm),
                      __func__);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(
        comm,
        rmp_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
        __func__);
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(comm,
                      rmp_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                    rdispls, recvtype, comm),
                      __func__);
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    int rc = rmpi_w_alias(sendbuf, recvbuf);
    if (!rc)
        rc = rmp_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                           rdispls, recvtypes, comm);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_scan(sendbuf, recvbuf, count, datatype, op, comm), __func__);
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm)
{
    return rmpi_raise(comm, rmp_exscan(sendbuf, recvbuf, count, datatype, op, comm), __func__);
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, root, comm, request),
                      __func__);
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                    recvtype, root, comm, request),
                      __func__);
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, comm, request),
                      __func__);
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                     rdispls, recvtype, comm, request),
                      __func__);
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request)
{
    int rc = rmpi_w_alias(sendbuf, recvbuf);
    if (!rc)
        rc = rmp_ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                            rdispls, recvtypes, comm, request);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_iscan(sendbuf, recvbuf, count, datatype, op, comm, request),
                      __func__);
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm, rmp_iexscan(sendbuf, recvbuf, count, datatype, op, comm, request),
                      __func__);
}
