/* rmp/rmp_topo.h — process topologies: Cartesian, graph and distributed graph communicators.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_TOPO_H
#define RMP_API_TOPO_H

/* Graph topologies (MPI-3.1 7.5.3): node i's neighbours are edges[index[i-1] .. index[i]-1]
 * (index[-1] = 0), nodes 0..nnodes-1 being the first nnodes ranks of comm, whose other ranks
 * get RMP_COMM_NULL (all of them when nnodes is 0). Self-loops and repeated edges are allowed.
 * RMP_ERR_ARG: nnodes < 0 or > size of comm, index decreasing or negative; RMP_ERR_RANK: an
 * edge outside 0..nnodes-1. Collective; reorder is ignored. rmp_topo_test gives RMP_GRAPH.
 * The neighbourhood collectives on it exchange with the node's neighbours in this order,
 * sending and receiving alike. */
#define RMP_GRAPH 1
int rmp_graph_create(rmp_comm_t comm, int nnodes, const int index[], const int edges[],
                     int reorder, rmp_comm_t *newcomm);
int rmp_graphdims_get(rmp_comm_t comm, int *nnodes, int *nedges);
/* The first maxindex entries of index and maxedges of edges. */
int rmp_graph_get(rmp_comm_t comm, int maxindex, int maxedges, int index[], int edges[]);
int rmp_graph_neighbors_count(rmp_comm_t comm, int rank, int *nneighbors);
/* The first maxneighbors neighbours of rank. */
int rmp_graph_neighbors(rmp_comm_t comm, int rank, int maxneighbors, int neighbors[]);
/* What rank I would have in rmp_graph_create / rmp_cart_create over comm (ranks are not
 * reordered): my rank if it is below nnodes (the grid's size), else RMP_UNDEFINED. */
int rmp_graph_map(rmp_comm_t comm, int nnodes, const int index[], const int edges[],
                  int *newrank);
int rmp_cart_map(rmp_comm_t comm, int ndims, const int dims[], const int periods[],
                 int *newrank);
/* The sub-grids keeping the dimensions i with remain_dims[i] != 0 (in their order, with their
 * periodicity): each a new Cartesian communicator of the ranks that share the coordinates of
 * the dropped dimensions, ranked as in comm. None kept (as MPICH does): rank 0 of the grid
 * gets a 0-dimensional Cartesian communicator of itself (size 1, rmp_cartdim_get 0), every
 * other rank RMP_COMM_NULL. */
int rmp_cart_sub(rmp_comm_t comm, const int remain_dims[], rmp_comm_t *newcomm);
/* A distributed graph whose edges any rank may give: rank r gives, for i < n, the edges
 * sources[i] -> destinations[k] for the degrees[i] next entries of destinations (weights
 * alike, unless RMP_UNWEIGHTED). The edges are exchanged so that every rank learns its in-
 * and out-neighbours, listed by the rank that gave the edge, then in the order it gave them.
 * RMP_ERR_ARG: n < 0, a negative degree or weight; RMP_ERR_RANK: a rank outside comm.
 * Collective; reorder is ignored. */
int rmp_dist_graph_create(rmp_comm_t comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], int reorder,
                          rmp_comm_t *newcomm);

#endif
