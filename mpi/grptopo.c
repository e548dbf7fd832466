/* grptopo.c — MPI's group constructors by ranges and set operations, graph topologies, the
 * mapping queries, MPI_Cart_sub and the general MPI_Dist_graph_create, over rmp's (issue 20).
 * Group calls raise on MPI_COMM_WORLD's handler (groups have none); a new topology
 * communicator inherits its parent's handler, as in topo.c. */
#include "rmpi.h"

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_group_range_incl(group, n, (const int(*)[3])ranges, newgroup),
                      __func__);
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return rmpi_raise(MPI_COMM_WORLD,
                      rmp_group_range_excl(group, n, (const int(*)[3])ranges, newgroup),
                      __func__);
}

int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_union(group1, group2, newgroup), __func__);
}

int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_intersection(group1, group2, newgroup),
                      __func__);
}

int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_group_difference(group1, group2, newgroup),
                      __func__);
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *comm_graph)
{
    int rc = rmp_graph_create(comm_old, nnodes, index, edges, reorder, comm_graph);
    if (rc == RMP_SUCCESS && *comm_graph != MPI_COMM_NULL)
        rmpi_errh_inherit(comm_old, *comm_graph);
    return rmpi_raise(comm_old, rc, __func__);
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    return rmpi_raise(comm, rmp_graphdims_get(comm, nnodes, nedges), __func__);
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    return rmpi_raise(comm, rmp_graph_get(comm, maxindex, maxedges, index, edges), __func__);
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    return rmpi_raise(comm, rmp_graph_neighbors_count(comm, rank, nneighbors), __func__);
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    return rmpi_raise(comm, rmp_graph_neighbors(comm, rank, maxneighbors, neighbors),
                      __func__);
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                  int *newrank)
{
    return rmpi_raise(comm, rmp_graph_map(comm, nnodes, index, edges, newrank), __func__);
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    return rmpi_raise(comm, rmp_cart_map(comm, ndims, dims, periods, newrank), __func__);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    int rc = rmp_cart_sub(comm, remain_dims, newcomm);
    if (rc == RMP_SUCCESS && *newcomm != MPI_COMM_NULL)
        rmpi_errh_inherit(comm, *newcomm);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info,
                          int reorder, MPI_Comm *comm_dist_graph)
{
    (void)info;
    int rc = rmp_dist_graph_create(comm_old, n, sources, degrees, destinations, weights,
                                   reorder, comm_dist_graph);
    if (rc == RMP_SUCCESS)
        rmpi_errh_inherit(comm_old, *comm_dist_graph);
    return rmpi_raise(comm_old, rc, __func__);
}
