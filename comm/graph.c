/* graph.c — graph topologies (MPI-3.1 7.5.3, MPI_Graph_create and its queries), the mapping
 * queries (graph_map, cart_map) and the general distributed graph (MPI_Dist_graph_create,
 * 7.5.4: every rank may give any edges, which are exchanged so that each endpoint learns
 * them). A graph lives in a communicator as topo.c's topologies do (topo.h), with the whole
 * graph kept, as MPI_Graph_get must return it; ranks are never reordered. */
#include <stdlib.h>
#include <string.h>

#include "comm_coll.h"
#include "topo.h"

/* The graph's checks (before anything is sent): RMP_ERR_ARG for nnodes < 0 or > size,
 * missing arrays, an index that is negative or decreasing; RMP_ERR_RANK for an edge that is no
 * node. */
static int graph_check(int size, int nnodes, const int index[], const int edges[])
{
    if (nnodes < 0 || nnodes > size || (nnodes > 0 && !index))
        return RMP_ERR_ARG;
    for (int i = 0; i < nnodes; i++)
        if (index[i] < 0 || (i > 0 && index[i] < index[i - 1]))
            return RMP_ERR_ARG;
    int nedges = nnodes ? index[nnodes - 1] : 0;
    if (nedges > 0 && !edges)
        return RMP_ERR_ARG;
    for (int i = 0; i < nedges; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return RMP_ERR_RANK;
    return RMP_SUCCESS;
}

int rmp_graph_create(rmp_comm_t comm, int nnodes, const int index[], const int edges[],
                     int reorder, rmp_comm_t *newcomm)
{
    intra_t cl;
    int err = comm_intra(comm, &cl);
    (void)reorder; /* ranks keep the parent's order, which MPI allows */
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err)
        err = graph_check(cl.size, nnodes, index, edges);
    if (err)
        return err;
    bool in = cl.rank < nnodes;
    topo_t *t = NULL;
    if (in) {
        int nedges = index[nnodes - 1], lo = cl.rank ? index[cl.rank - 1] : 0;
        int deg = index[cl.rank] - lo;
        if (!(t = graph_alloc(nnodes, nedges, deg)))
            return RMP_ERR_NO_MEM; /* before the split: the others fail there or hang, as with
                                    * any collective whose arguments differ */
        memcpy(t->index, index, sizeof(int) * (size_t)nnodes);
        if (nedges)
            memcpy(t->edges, edges, sizeof(int) * (size_t)nedges);
        if (deg)
            memcpy(t->in, edges + lo, sizeof(int) * (size_t)deg);
        t->rank = cl.rank;
    }
    err = rmp_comm_split(comm, in ? 0 : RMP_UNDEFINED, cl.rank, newcomm);
    if (err || !in) {
        free(t);
        return err;
    }
    ctx_lock(&rmp_ctx);
    comm_get(*newcomm)->topo = t;
    ctx_unlock(&rmp_ctx);
    return RMP_SUCCESS;
}

/* The graph topology of comm: RMP_ERR_COMM, RMP_ERR_TOPOLOGY if it has none. */
static int graph_of(rmp_comm_t comm, const topo_t **t)
{
    int err = ctx_check();
    if (err)
        return err;
    comm_t *c = comm_get(comm);
    if (!c)
        return RMP_ERR_COMM;
    *t = topo_of(c);
    return *t && (*t)->kind == RMP_GRAPH ? RMP_SUCCESS : RMP_ERR_TOPOLOGY;
}

int rmp_graphdims_get(rmp_comm_t comm, int *nnodes, int *nedges)
{
    const topo_t *t;
    int err = graph_of(comm, &t);
    if (!err && (!nnodes || !nedges))
        err = RMP_ERR_ARG;
    if (err)
        return err;
    *nnodes = t->nnodes;
    *nedges = t->nedges;
    return RMP_SUCCESS;
}

int rmp_graph_get(rmp_comm_t comm, int maxindex, int maxedges, int index[], int edges[])
{
    const topo_t *t;
    int err = graph_of(comm, &t);
    if (err)
        return err;
    if (maxindex < 0 || maxedges < 0)
        return RMP_ERR_ARG;
    int ni = maxindex < t->nnodes ? maxindex : t->nnodes;
    int ne = maxedges < t->nedges ? maxedges : t->nedges;
    if ((ni > 0 && !index) || (ne > 0 && !edges))
        return RMP_ERR_ARG;
    if (ni)
        memcpy(index, t->index, sizeof(int) * (size_t)ni);
    if (ne)
        memcpy(edges, t->edges, sizeof(int) * (size_t)ne);
    return RMP_SUCCESS;
}

/* Node rank's slice of edges: [*lo, *lo + *n). RMP_ERR_RANK for a rank that is no node. */
static int graph_slice(const topo_t *t, int rank, int *lo, int *n)
{
    if (rank < 0 || rank >= t->nnodes)
        return RMP_ERR_RANK;
    *lo = rank ? t->index[rank - 1] : 0;
    *n = t->index[rank] - *lo;
    return RMP_SUCCESS;
}

int rmp_graph_neighbors_count(rmp_comm_t comm, int rank, int *nneighbors)
{
    const topo_t *t;
    int lo, n, err = graph_of(comm, &t);
    if (!err)
        err = graph_slice(t, rank, &lo, &n);
    if (!err && !nneighbors)
        err = RMP_ERR_ARG;
    if (!err)
        *nneighbors = n;
    return err;
}

int rmp_graph_neighbors(rmp_comm_t comm, int rank, int maxneighbors, int neighbors[])
{
    const topo_t *t;
    int lo, n, err = graph_of(comm, &t);
    if (!err)
        err = graph_slice(t, rank, &lo, &n);
    if (err)
        return err;
    if (maxneighbors < 0)
        return RMP_ERR_ARG;
    if (maxneighbors < n)
        n = maxneighbors;
    if (n > 0 && !neighbors)
        return RMP_ERR_ARG;
    if (n)
        memcpy(neighbors, t->edges + lo, sizeof(int) * (size_t)n);
    return RMP_SUCCESS;
}

int rmp_graph_map(rmp_comm_t comm, int nnodes, const int index[], const int edges[],
                  int *newrank)
{
    intra_t cl;
    int err = comm_intra(comm, &cl);
    if (!err && !newrank)
        err = RMP_ERR_ARG;
    if (!err)
        err = graph_check(cl.size, nnodes, index, edges);
    if (!err)
        *newrank = cl.rank < nnodes ? cl.rank : RMP_UNDEFINED;
    return err;
}

int rmp_cart_map(rmp_comm_t comm, int ndims, const int dims[], const int periods[],
                 int *newrank)
{
    intra_t cl;
    int err = comm_intra(comm, &cl);
    if (!err && (!newrank || (ndims > 0 && (!dims || !periods))))
        err = RMP_ERR_ARG;
    if (!err && ndims < 0)
        err = RMP_ERR_DIMS;
    long long prod = 1;
    for (int i = 0; !err && i < ndims; i++)
        if (dims[i] <= 0 || (prod *= dims[i]) > cl.size)
            err = RMP_ERR_DIMS;
    if (!err)
        *newrank = cl.rank < prod ? cl.rank : RMP_UNDEFINED;
    return err;
}

/* ---- the general distributed graph ---------------------------------------------------------- */

/* What a rank tells another about one edge: the other end, its weight, and whether it is the
 * receiver's in-edge (1) or out-edge (0). */
enum { EDGE_INTS = 3 };

int rmp_dist_graph_create(rmp_comm_t comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], int reorder,
                          rmp_comm_t *newcomm)
{
    intra_t cl;
    int err = comm_intra(comm, &cl);
    bool unweighted = weights == RMP_UNWEIGHTED; /* what I said; the graph's is voted below */
    long long nedges = 0;
    if (!err && (!newcomm || n < 0 || (n > 0 && (!sources || !degrees))))
        err = RMP_ERR_ARG;
    for (int i = 0; !err && i < n; i++) {
        if (degrees[i] < 0)
            err = RMP_ERR_ARG;
        else if (sources[i] < 0 || sources[i] >= cl.size)
            err = RMP_ERR_RANK;
        nedges += degrees[i];
    }
    if (!err && nedges > 0 &&
        (!destinations || !weights || weights == RMP_WEIGHTS_EMPTY || nedges > INT32_MAX / 8))
        err = RMP_ERR_ARG;
    for (long long k = 0; !err && k < nedges; k++) {
        if (destinations[k] < 0 || destinations[k] >= cl.size)
            err = RMP_ERR_RANK;
        else if (!unweighted && weights[k] < 0)
            err = RMP_ERR_ARG;
    }
    if (err)
        return err;
    /* Weighted or not is the whole graph's, decided together: weighted when any rank gave
     * weights. MPI wants every rank to agree, but a rank that gives no edges may pass NULL
     * (MPICH's distgraph1: rank 0 gives the whole weighted graph, the others n = 0 and NULL
     * arrays), which is not MPI_UNWEIGHTED: RMP_UNWEIGHTED votes 1, anything else (weights,
     * RMP_WEIGHTS_EMPTY, NULL with no edges) 2. A rank that said RMP_UNWEIGHTED in a weighted
     * graph (erroneous) gives its edges weight 1. */
    int vote = unweighted ? 1 : 2;
    int all = 0;
    err = comm_coll.allreduce(&vote, &all, 1, RMP_INT, RMP_MAX, comm);
    if (err)
        return err;
    bool weighted = all == 2;
    /* Two records per edge: its out-edge to the source, its in-edge to the destination. */
    int p = cl.size;
    int *scount = calloc((size_t)p, sizeof(int)), *rcount = calloc((size_t)p, sizeof(int));
    int *sdispl = calloc((size_t)p, sizeof(int)), *rdispl = calloc((size_t)p, sizeof(int));
    int *sbuf = malloc(sizeof(int) * EDGE_INTS * (size_t)(2 * nedges + 1));
    int *fill = calloc((size_t)p, sizeof(int)), *rbuf = NULL;
    if (!scount || !rcount || !sdispl || !rdispl || !sbuf || !fill)
        err = RMP_ERR_NO_MEM; /* the others hang in the exchange, as with any collective
                               * one rank leaves */
    long long k = 0;
    for (int i = 0; !err && i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            scount[sources[i]] += EDGE_INTS;
            scount[destinations[k]] += EDGE_INTS;
        }
    for (int r = 1; !err && r < p; r++)
        sdispl[r] = sdispl[r - 1] + scount[r - 1];
    k = 0;
    for (int i = 0; !err && i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            int s = sources[i], d = destinations[k], w = !weighted ? 0 : unweighted ? 1 : weights[k];
            int *o = sbuf + sdispl[s] + fill[s];
            o[0] = d, o[1] = w, o[2] = 0;
            fill[s] += EDGE_INTS;
            int *q = sbuf + sdispl[d] + fill[d];
            q[0] = s, q[1] = w, q[2] = 1;
            fill[d] += EDGE_INTS;
        }
    if (!err)
        err = comm_coll.alltoall(scount, 1, RMP_INT, rcount, 1, RMP_INT, comm);
    long long total = 0;
    for (int r = 0; !err && r < p; r++) {
        rdispl[r] = (int)total;
        total += rcount[r];
        if (total > INT32_MAX)
            err = RMP_ERR_COUNT;
    }
    if (!err && !(rbuf = malloc(sizeof(int) * (size_t)(total + 1))))
        err = RMP_ERR_NO_MEM;
    if (!err)
        err = comm_coll.alltoallv(sbuf, scount, sdispl, RMP_INT, rbuf, rcount, rdispl, RMP_INT,
                                  comm);
    int nin = 0, nout = 0;
    int *in = NULL, *inw = NULL, *out = NULL, *outw = NULL;
    if (!err) {
        size_t m = (size_t)(total / EDGE_INTS) + 1;
        in = malloc(sizeof(int) * m), inw = malloc(sizeof(int) * m);
        out = malloc(sizeof(int) * m), outw = malloc(sizeof(int) * m);
        if (!in || !inw || !out || !outw)
            err = RMP_ERR_NO_MEM;
    }
    for (long long e = 0; !err && e < total; e += EDGE_INTS) { /* by giver, then as given */
        const int *q = rbuf + e;
        if (q[2]) {
            in[nin] = q[0];
            inw[nin++] = q[1];
        } else {
            out[nout] = q[0];
            outw[nout++] = q[1];
        }
    }
    if (!err)
        err = rmp_dist_graph_create_adjacent(comm, nin, in, weighted ? inw : RMP_UNWEIGHTED,
                                             nout, out, weighted ? outw : RMP_UNWEIGHTED,
                                             reorder, newcomm);
    free(scount), free(rcount), free(sdispl), free(rdispl), free(sbuf), free(fill), free(rbuf);
    free(in), free(inw), free(out), free(outw);
    return err;
}
