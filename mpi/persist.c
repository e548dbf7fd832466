/* persist.c — MPI-4's persistent collectives (MPI_<Coll>_init, MPI_Neighbor_<coll>_init) and
 * MPI_Isendrecv, MPI_Isendrecv_replace over rmp's. The only MPI-layer logic is the info
 * argument, which rmp's calls do not take: rmpi_pcoll_info decides which values are accepted. */
#include "rmpi.h"

/* The info argument of a persistent collective's init: any valid info (or MPI_INFO_NULL) is
 * accepted and its hints ignored; an invalid or freed handle is MPI_ERR_INFO. */
static int rmpi_pcoll_info(MPI_Info info)
{
    return rmpi_info_check(info);
}

/* The body of every init: the info first (its error raised as such), then rmp's call (CALL is
 * evaluated only when the info is valid), its status raised on comm. */
#define PCOLL_INIT(CALL)                                                                           \
    do {                                                                                           \
        int code_ = rmpi_pcoll_info(info);                                                         \
        return code_ != MPI_SUCCESS ? rmpi_raise_code(comm, code_, __func__)                       \
                                    : rmpi_raise(comm, (CALL), __func__);                          \
    } while (0)

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_barrier_init(comm, request));
}

int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_bcast_init(buffer, count, datatype, root, comm, request));
}

int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, request));
}

int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, request));
}

int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    PCOLL_INIT(rmp_gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm, request));
}

int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                root, comm, request));
}

int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    PCOLL_INIT(rmp_scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                comm, request));
}

int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root, comm, request));
}

int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    PCOLL_INIT(rmp_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                  request));
}

int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, comm, request));
}

int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    PCOLL_INIT(rmp_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 request));
}

int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    PCOLL_INIT(rmp_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype, comm, request));
}

int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                       MPI_Info info, MPI_Request *request)
{
    int code = rmpi_pcoll_info(info);
    if (code != MPI_SUCCESS)
        return rmpi_raise_code(comm, code, __func__);
    int rc = rmpi_w_alias(sendbuf, recvbuf);
    if (!rc)
        rc = rmp_alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                rdispls, recvtypes, comm, request);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    PCOLL_INIT(rmp_reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, request));
}

int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    PCOLL_INIT(
        rmp_reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, request));
}

int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_scan_init(sendbuf, recvbuf, count, datatype, op, comm, request));
}

int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_exscan_init(sendbuf, recvbuf, count, datatype, op, comm, request));
}

int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_neighbor_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                           recvtype, comm, request));
}

int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    PCOLL_INIT(rmp_neighbor_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                            displs, recvtype, comm, request));
}

int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_neighbor_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm, request));
}

int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request)
{
    PCOLL_INIT(rmp_neighbor_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                           recvcounts, rdispls, recvtype, comm, request));
}

int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    PCOLL_INIT(rmp_neighbor_alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                           recvcounts, rdispls, recvtypes, comm, request));
}

int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                                    recvtype, source, recvtag, comm, request),
                      __func__);
}

int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(
        comm,
        rmp_isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, request),
        __func__);
}
