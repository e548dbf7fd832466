/* topo.h — the topology a communicator carries (comm_t.topo, set by topo.c and graph.c when
 * they create the communicator, in a block of topo_block.c's), as the neighbourhood
 * collectives (neighbor.c) read it. */
#ifndef RMP_TOPO_H
#define RMP_TOPO_H

#include "core.h"

/* One allocation: the arrays point into data[]. A Cartesian topology also fills the neighbour
 * lists (in = out = for each dimension the rank below, then the one above; RMP_PROC_NULL off a
 * non-periodic edge), so the collectives treat both kinds alike. */
typedef struct topo {
    int kind;  /* RMP_CART or RMP_DIST_GRAPH */
    int ndims; /* Cartesian: dims, periods and my coords have ndims entries */
    int rank;  /* mine in the communicator */
    int *dims, *periods, *coords;
    int indeg, outdeg;
    int *in, *in_w, *out, *out_w; /* neighbour ranks and weights (weights: graphs only) */
    bool weighted;
    /* RMP_GRAPH (graph.c): the whole graph as given (index[nnodes], edges[nedges]); in and out
     * both point to my node's neighbour list (indeg = outdeg entries) */
    int nnodes, nedges;
    int *index, *edges;
    int data[];
} topo_t;

/* The topology of a communicator, NULL if it has none. */
static inline const topo_t *topo_of(const comm_t *c)
{
    return c->topo;
}

/* MPI_Comm_dup keeps the topology: a copy of from's (if any) for the duplicate `to`.
 * RMP_ERR_NO_MEM. */
int topo_dup(const comm_t *from, comm_t *to);
/* A block with room for ndims Cartesian entries and the neighbour lists (topo.c's kinds), and
 * one for a graph: index[nnodes], edges[nedges], then my neighbour list (graph.c). NULL when
 * out of memory. */
topo_t *topo_alloc(int kind, int ndims, int indeg, int outdeg, bool weighted);
topo_t *graph_alloc(int nnodes, int nedges, int deg);

#endif
