/* topo_block.c — the block a topology is kept in (topo.h): its layout for Cartesian grids and
 * distributed graphs (topo_alloc) and for graphs (graph_alloc), and its copy for a duplicate
 * (topo_dup). Plain memory, nothing collective: comm_ops.c (dup), topo.c and graph.c (the
 * creations) all use it, and it calls none of them back. */
#include <stdlib.h>
#include <string.h>

#include "topo.h"

/* The ints of data[]: ndims Cartesian entries thrice, the neighbour lists and weights. */
static size_t topo_ints(int ndims, int indeg, int outdeg, bool weighted)
{
    return 3 * (size_t)ndims + (size_t)(indeg + outdeg) * (weighted ? 2 : 1);
}

/* A block with room for ndims Cartesian entries and the neighbour lists. */
topo_t *topo_alloc(int kind, int ndims, int indeg, int outdeg, bool weighted)
{
    size_t n = topo_ints(ndims, indeg, outdeg, weighted);
    topo_t *t = calloc(1, sizeof(*t) + sizeof(int) * (n ? n : 1));
    if (!t)
        return NULL;
    int *p = t->data;
    *t = (topo_t){
        .kind = kind, .ndims = ndims, .indeg = indeg, .outdeg = outdeg, .weighted = weighted};
    t->dims = p, p += ndims;
    t->periods = p, p += ndims;
    t->coords = p, p += ndims;
    t->in = p, p += indeg;
    t->out = p, p += outdeg;
    if (weighted) {
        t->in_w = p, p += indeg;
        t->out_w = p;
    }
    return t;
}

/* One block: index[nnodes], edges[nedges], then my neighbour list. */
topo_t *graph_alloc(int nnodes, int nedges, int deg)
{
    size_t n = (size_t)nnodes + (size_t)nedges + (size_t)deg;
    topo_t *t = calloc(1, sizeof(*t) + sizeof(int) * (n ? n : 1));
    if (!t)
        return NULL;
    *t = (topo_t){.kind = RMP_GRAPH, .nnodes = nnodes, .nedges = nedges, .indeg = deg,
                  .outdeg = deg};
    t->index = t->data;
    t->edges = t->index + nnodes;
    t->in = t->out = t->edges + nedges;
    return t;
}

/* A graph's copy: its own layout. */
static topo_t *graph_topo_copy(const topo_t *t)
{
    topo_t *c = graph_alloc(t->nnodes, t->nedges, t->indeg);
    if (!c)
        return NULL;
    memcpy(c->data, t->data, sizeof(int) * ((size_t)t->nnodes + (size_t)t->nedges + t->indeg));
    c->rank = t->rank;
    return c;
}

int topo_dup(const comm_t *from, comm_t *to)
{
    const topo_t *t = topo_of(from);
    if (!t)
        return RMP_SUCCESS;
    if (t->kind == RMP_GRAPH) { /* its own layout (graph_alloc) */
        topo_t *g = graph_topo_copy(t);
        if (!g)
            return RMP_ERR_NO_MEM;
        ctx_lock(&rmp_ctx);
        to->topo = g;
        ctx_unlock(&rmp_ctx);
        return RMP_SUCCESS;
    }
    topo_t *c = topo_alloc(t->kind, t->ndims, t->indeg, t->outdeg, t->weighted);
    if (!c)
        return RMP_ERR_NO_MEM;
    /* the same shape: topo_alloc laid the arrays out alike, only their content is copied */
    memcpy(c->data, t->data, sizeof(int) * topo_ints(t->ndims, t->indeg, t->outdeg, t->weighted));
    c->rank = t->rank;
    ctx_lock(&rmp_ctx);
    to->topo = c;
    ctx_unlock(&rmp_ctx);
    return RMP_SUCCESS;
}
