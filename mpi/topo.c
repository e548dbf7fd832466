/* topo.c — MPI's process topologies (Cartesian, distributed graph) and neighbourhood
 * collectives over rmp's; a new topology communicator inherits its parent's error handler. */
#include "rmpi.h"

int MPI_Dims_create(int nnodes, int ndims, int dims[])
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_dims_create(nnodes, ndims, dims), __func__);
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *comm_cart)
{
    int rc = rmp_cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
    if (rc == RMP_SUCCESS && *comm_cart != MPI_COMM_NULL)
        rmpi_errh_inherit(comm_old, *comm_cart);
    return rmpi_raise(comm_old, rc, __func__);
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    return rmpi_raise(comm, rmp_cart_coords(comm, rank, maxdims, coords), __func__);
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    return rmpi_raise(comm, rmp_cart_rank(comm, coords, rank), __func__);
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    return rmpi_raise(comm, rmp_cart_shift(comm, direction, disp, rank_source, rank_dest),
                      __func__);
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    return rmpi_raise(comm, rmp_cart_get(comm, maxdims, dims, periods, coords), __func__);
}

int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    return rmpi_raise(comm, rmp_cartdim_get(comm, ndims), __func__);
}

int MPI_Topo_test(MPI_Comm comm, int *status)
{
    return rmpi_raise(comm, rmp_topo_test(comm, status), __func__);
}

/* info carries hints only: any valid one is accepted, and none changes anything. */
int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *comm_dist_graph)
{
    if (rmpi_info_check(info) != MPI_SUCCESS)
        return rmpi_raise_code(comm_old, MPI_ERR_INFO, __func__);
    int rc = rmp_dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree,
                                            destinations, destweights, reorder, comm_dist_graph);
    if (rc == RMP_SUCCESS)
        rmpi_errh_inherit(comm_old, *comm_dist_graph);
    return rmpi_raise(comm_old, rc, __func__);
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    return rmpi_raise(comm, rmp_dist_graph_neighbors_count(comm, indegree, outdegree, weighted),
                      __func__);
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                             int maxoutdegree, int destinations[], int destweights[])
{
    return rmpi_raise(comm,
                      rmp_dist_graph_neighbors(comm, maxindegree, sources, sourceweights,
                                               maxoutdegree, destinations, destweights),
                      __func__);
}

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(
        comm,
        rmp_neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
        __func__);
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(comm,
                      rmp_neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                              displs, recvtype, comm),
                      __func__);
}

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(
        comm,
        rmp_neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
        __func__);
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return rmpi_raise(comm,
                      rmp_neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                             recvcounts, rdispls, recvtype, comm),
                      __func__);
}

int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return rmpi_raise(comm,
                      rmp_neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                             recvcounts, rdispls, recvtypes, comm),
                      __func__);
}

int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, comm, request),
                      __func__);
}

int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                               displs, recvtype, comm, request),
                      __func__);
}

int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, comm, request),
                      __func__);
}

int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                              recvcounts, rdispls, recvtype, comm, request),
                      __func__);
}

int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request *request)
{
    return rmpi_raise(comm,
                      rmp_ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                              recvcounts, rdispls, recvtypes, comm, request),
                      __func__);
}
