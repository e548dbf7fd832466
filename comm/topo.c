/* topo.c — process topologies (MPI-3.1 ch. 7): Cartesian grids and distributed graphs given
 * by adjacency. Each lives in a new communicator (split or dup of the parent, ranks in the
 * parent's order: reorder is ignored), as one block at comm_t.topo (topo.h) that is freed with
 * the communicator. The queries are index arithmetic on that block. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "comm_coll.h"
#include "topo.h"

/* The topology of a valid communicator: RMP_ERR_COMM, or RMP_ERR_TOPOLOGY when it has none of
 * kind (0: any). */
static int topo_get(rmp_comm_t h, int kind, const topo_t **t)
{
    int err = ctx_check();
    if (err)
        return err;
    comm_t *c = comm_get(h);
    if (!c)
        return RMP_ERR_COMM;
    *t = topo_of(c);
    if (!*t || (kind && (*t)->kind != kind))
        return RMP_ERR_TOPOLOGY;
    return RMP_SUCCESS;
}

static void topo_attach(rmp_comm_t h, topo_t *t)
{
    ctx_lock(&rmp_ctx);
    comm_get(h)->topo = t;
    ctx_unlock(&rmp_ctx);
}

/* ---- Cartesian ---------------------------------------------------------------------------- */

/* Rank at coords (wrapping periodic dimensions), -1 off a non-periodic edge. */
static int cart_rank_of(const topo_t *t, const int *coords)
{
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        int c = coords[i], d = t->dims[i];
        if (t->periods[i])
            c = ((c % d) + d) % d;
        else if (c < 0 || c >= d)
            return -1;
        r = r * d + c;
    }
    return r;
}

static void cart_coords_of(const topo_t *t, int rank, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

/* The rank disp steps along dimension dir from me, RMP_PROC_NULL off the edge (row-major:
 * one step in dir moves the rank by the product of the later dimensions). */
static int cart_step(const topo_t *t, int dir, int disp)
{
    long long d = t->dims[dir], c = (long long)t->coords[dir] + disp, stride = 1;
    if (t->periods[dir])
        c = ((c % d) + d) % d;
    else if (c < 0 || c >= d)
        return RMP_PROC_NULL;
    for (int i = dir + 1; i < t->ndims; i++)
        stride *= t->dims[i];
    return (int)(t->rank + (c - t->coords[dir]) * stride);
}

/* RMP_ERR_DIMS unless every dims[i] > 0 and their product fits in `limit`. */
static int cart_check_dims(int ndims, const int dims[], int limit, int *prod)
{
    long long p = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return RMP_ERR_DIMS;
        p *= dims[i];
        if (p > limit)
            return RMP_ERR_DIMS;
    }
    *prod = (int)p;
    return RMP_SUCCESS;
}

static topo_t *cart_topo(int ndims, const int dims[], const int periods[], int rank)
{
    topo_t *t = topo_alloc(RMP_CART, ndims, 2 * ndims, 2 * ndims, false);
    if (!t)
        return NULL;
    for (int i = 0; i < ndims; i++) {
        t->dims[i] = dims[i];
        t->periods[i] = periods[i] != 0;
    }
    t->rank = rank;
    cart_coords_of(t, rank, t->coords);
    for (int i = 0; i < ndims; i++) {
        t->in[2 * i] = t->out[2 * i] = cart_step(t, i, -1);
        t->in[2 * i + 1] = t->out[2 * i + 1] = cart_step(t, i, 1);
    }
    return t;
}

int rmp_cart_create(rmp_comm_t comm, int ndims, const int dims[], const int periods[], int reorder,
                    rmp_comm_t *newcomm)
{
    intra_t cl;
    int prod = 1, err = comm_intra(comm, &cl);
    (void)reorder; /* ranks keep the parent's order, which MPI allows */
    if (newcomm) /* what an error leaves there: no communicator */
        *newcomm = RMP_COMM_NULL;
    if (!err && (!newcomm || (ndims > 0 && (!dims || !periods))))
        err = RMP_ERR_ARG;
    if (!err && ndims < 0)
        err = RMP_ERR_DIMS;
    if (!err)
        err = cart_check_dims(ndims, dims, cl.size, &prod);
    if (err)
        return err;
    bool in = cl.rank < prod;
    err = rmp_comm_split(comm, in ? 0 : RMP_UNDEFINED, cl.rank, newcomm);
    if (err || !in)
        return err;
    topo_t *t = cart_topo(ndims, dims, periods, cl.rank);
    if (!t) {
        rmp_comm_free(newcomm);
        return RMP_ERR_NO_MEM;
    }
    topo_attach(*newcomm, t);
    return RMP_SUCCESS;
}

/* x^m >= r, without overflow (x >= 1, r >= 1). */
static bool pow_reaches(long long x, int m, long long r)
{
    long long p = 1;
    for (int i = 0; i < m && p < r; i++)
        p *= x; /* p < r <= INT_MAX and x <= INT_MAX: no overflow */
    return p >= r;
}

/* The largest x with x^m <= r (r >= 1, m >= 1). */
static long long iroot(long long r, int m)
{
    long long x = (long long)pow((double)r, 1.0 / m);
    while (x > 1 && pow_reaches(x, m, r + 1))
        x--; /* x^m > r: too big */
    while (!pow_reaches(x + 1, m, r + 1))
        x++; /* (x+1)^m <= r: too small */
    return x;
}

/* The search of rmp_dims_create: r still to split into m factors, none above `cap`; the
 * factors chosen so far are cur[0..depth-1] (non-increasing). Keeps in best[] the split with
 * the smallest spread (largest minus smallest); see dims_better for ties. */
typedef struct dims_search {
    const int *div; /* the divisors of the number split, increasing */
    int ndiv, nfree;
    int *cur, *best;
    long long spread; /* best's; LLONG_MAX before any */
} dims_search_t;

/* Whether the complete split in cur beats best. Splits of equal spread are told apart as
 * MPICH's table of balanced decompositions does (every one of its 75,000 entries agrees): the
 * larger smallest factor wins, then the larger next-smallest, and so on (5040 in 3-D is
 * 21 x 16 x 15, not 20 x 18 x 14; 5616 in 4-D is 13 x 9 x 8 x 6, not 13 x 12 x 6 x 6). */
static bool dims_better(const dims_search_t *s, long long spread)
{
    if (spread != s->spread)
        return spread < s->spread;
    for (int i = s->nfree - 1; i >= 0; i--)
        if (s->cur[i] != s->best[i])
            return s->cur[i] > s->best[i];
    return false;
}

static void dims_dfs(dims_search_t *s, long long r, int m, long long cap, int depth)
{
    if (m == 1) {
        if (r > cap)
            return;
        s->cur[depth] = (int)r;
        long long spread = s->cur[0] - r;
        if (dims_better(s, spread)) {
            s->spread = spread;
            memcpy(s->best, s->cur, sizeof(int) * (size_t)s->nfree);
        }
        return;
    }
    /* whatever follows, the smallest factor is at most r^(1/m): the spread is at least the
     * largest one minus that */
    long long root = iroot(r, m);
    for (int i = 0; i < s->ndiv; i++) {
        long long d = s->div[i];
        if (d > cap || d > r)
            break;
        if (r % d || !pow_reaches(d, m, r)) /* the other m-1 factors are at most d */
            continue;
        long long top = depth ? s->cur[0] : d;
        if (top - root > s->spread)
            break; /* d only grows, and so does the bound at depth 0; equal may still tie */
        s->cur[depth] = (int)d;
        dims_dfs(s, r / d, m - 1, d, depth + 1);
    }
}

/* MPI asks for dimensions "as close to each other as possible": among the splits of the free
 * dimensions' product into non-increasing factors, the one whose largest and smallest factors
 * differ least (72 in 2-D: 9 x 8, not the 12 x 6 that handing out prime factors greedily
 * gives), found by a bounded search over the divisors. */
int rmp_dims_create(int nnodes, int ndims, int dims[])
{
    if (ndims < 0 || (ndims > 0 && !dims))
        return RMP_ERR_ARG;
    if (nnodes <= 0)
        return RMP_ERR_DIMS;
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return RMP_ERR_DIMS;
        if (dims[i] == 0)
            nfree++;
        else if ((fixed *= dims[i]) > nnodes)
            return RMP_ERR_DIMS;
    }
    if (nnodes % fixed)
        return RMP_ERR_DIMS;
    int rest = (int)(nnodes / fixed);
    if (nfree == 0)
        return rest == 1 ? RMP_SUCCESS : RMP_ERR_DIMS;
    enum { MAXDIV = 1600 }; /* the most divisors an int has (2095133040 has that many) */
    int ndiv = 0, nhigh = 0, *div = malloc(sizeof(int) * MAXDIV),
        *high = malloc(sizeof(int) * MAXDIV), /* the divisors above the root, decreasing */
        *cur = malloc(sizeof(int) * (size_t)nfree), *best = malloc(sizeof(int) * (size_t)nfree);
    if (!div || !high || !cur || !best) {
        free(div), free(high), free(cur), free(best);
        return RMP_ERR_NO_MEM;
    }
    for (long long d = 1; d * d <= rest; d++)
        if (rest % d == 0) {
            div[ndiv++] = (int)d;
            if (d * d != rest)
                high[nhigh++] = (int)(rest / d);
        }
    for (int i = nhigh - 1; i >= 0; i--)
        div[ndiv++] = high[i];
    dims_search_t s = {.div = div, .ndiv = ndiv, .nfree = nfree, .cur = cur, .best = best,
                       .spread = LLONG_MAX};
    dims_dfs(&s, rest, nfree, rest, 0);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = best[j++];
    free(div), free(high), free(cur), free(best);
    return RMP_SUCCESS;
}

int rmp_cart_coords(rmp_comm_t comm, int rank, int maxdims, int coords[])
{
    const topo_t *t;
    int err = topo_get(comm, RMP_CART, &t);
    if (err)
        return err;
    if (maxdims < t->ndims || (t->ndims > 0 && !coords))
        return RMP_ERR_ARG;
    if (rank < 0 || rank >= comm_get(comm)->size)
        return RMP_ERR_RANK;
    cart_coords_of(t, rank, coords);
    return RMP_SUCCESS;
}

int rmp_cart_rank(rmp_comm_t comm, const int coords[], int *rank)
{
    const topo_t *t;
    int err = topo_get(comm, RMP_CART, &t);
    if (err)
        return err;
    if (!rank || (t->ndims > 0 && !coords))
        return RMP_ERR_ARG;
    int r = cart_rank_of(t, coords);
    if (r < 0)
        return RMP_ERR_RANK;
    *rank = r;
    return RMP_SUCCESS;
}

int rmp_cart_shift(rmp_comm_t comm, int direction, int disp, int *source, int *dest)
{
    const topo_t *t;
    int err = topo_get(comm, RMP_CART, &t);
    if (err)
        return err;
    if (!source || !dest)
        return RMP_ERR_ARG;
    if (direction < 0 || direction >= t->ndims)
        return RMP_ERR_DIMS;
    if (disp == INT_MIN)
        return RMP_ERR_ARG; /* -disp must exist */
    *source = cart_step(t, direction, -disp);
    *dest = cart_step(t, direction, disp);
    return RMP_SUCCESS;
}

int rmp_cart_get(rmp_comm_t comm, int maxdims, int dims[], int periods[], int coords[])
{
    const topo_t *t;
    int err = topo_get(comm, RMP_CART, &t);
    if (err)
        return err;
    if (maxdims < t->ndims || (t->ndims > 0 && (!dims || !periods || !coords)))
        return RMP_ERR_ARG;
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
        coords[i] = t->coords[i];
    }
    return RMP_SUCCESS;
}

int rmp_cartdim_get(rmp_comm_t comm, int *ndims)
{
    const topo_t *t;
    int err = topo_get(comm, RMP_CART, &t);
    if (!err && !ndims)
        err = RMP_ERR_ARG;
    if (!err)
        *ndims = t->ndims;
    return err;
}

int rmp_topo_test(rmp_comm_t comm, int *status)
{
    const topo_t *t;
    int err = topo_get(comm, 0, &t);
    if (err == RMP_ERR_TOPOLOGY)
        t = NULL;
    else if (err)
        return err;
    if (!status)
        return RMP_ERR_ARG;
    *status = t ? t->kind : RMP_UNDEFINED;
    return RMP_SUCCESS;
}

/* ---- distributed graphs ------------------------------------------------------------------- */

int *rmp_weights_empty(void)
{
    static int empty[1]; /* only its address matters (rmp.h) */
    return empty;
}

int *rmp_unweighted(void)
{
    static int unweighted[1]; /* only its address matters, distinct from the one above */
    return unweighted;
}

/* What one side's weights say: VOTE_UNWEIGHTED (RMP_UNWEIGHTED), else VOTE_WEIGHTED (an
 * array, RMP_WEIGHTS_EMPTY, or NULL with no edges: MPI_UNWEIGHTED is not NULL, so NULL is
 * "weights, none of them", as MPICH's distgraph1 reads it). */
enum { VOTE_UNWEIGHTED = 1, VOTE_WEIGHTED = 2 };

static int weights_vote(const int *w)
{
    return w == RMP_UNWEIGHTED ? VOTE_UNWEIGHTED : VOTE_WEIGHTED; /* NULL with edges: refused */
}

static bool no_weights(const int *w)
{
    return !w || w == RMP_UNWEIGHTED || w == RMP_WEIGHTS_EMPTY;
}

/* One side of the adjacency: degree >= 0, ranks in comm, weights for each edge unless the
 * rank said RMP_UNWEIGHTED (RMP_WEIGHTS_EMPTY or NULL stand for none when the degree is 0). */
static int graph_side(int deg, const int *ranks, const int *w, int size)
{
    if (deg < 0 || (deg > 0 && !ranks))
        return RMP_ERR_ARG;
    if (deg > 0 && (!w || w == RMP_WEIGHTS_EMPTY))
        return RMP_ERR_ARG;
    for (int i = 0; i < deg; i++) {
        if (ranks[i] < 0 || ranks[i] >= size)
            return RMP_ERR_RANK;
        if (w != RMP_UNWEIGHTED && w[i] < 0)
            return RMP_ERR_ARG;
    }
    return RMP_SUCCESS;
}

static void copy_ints(int *dst, const int *src, int n)
{
    if (n > 0)
        memcpy(dst, src, sizeof(int) * (size_t)n);
}

int rmp_dist_graph_create_adjacent(rmp_comm_t comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], int reorder,
                                   rmp_comm_t *newcomm)
{
    intra_t cl;
    int err = comm_intra(comm, &cl);
    (void)reorder;
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err)
        err = graph_side(indegree, sources, sourceweights, cl.size);
    if (!err)
        err = graph_side(outdegree, destinations, destweights, cl.size);
    if (err)
        return err;
    /* MPI: the graph is weighted unless MPI_UNWEIGHTED is given, and every rank must agree; a
     * rank with no edges may give NULL weights (MPICH's distgraph1), which is not
     * MPI_UNWEIGHTED, so the graph's weightedness is decided together: weighted when any rank
     * did not say MPI_UNWEIGHTED. A rank that said RMP_UNWEIGHTED in a weighted graph (erroneous) gets weight 1
     * on its edges. The creation is collective anyway (the dup below). */
    int vote = weights_vote(sourceweights), v2 = weights_vote(destweights), all = 0;
    vote = v2 > vote ? v2 : vote;
    err = comm_coll.allreduce(&vote, &all, 1, RMP_INT, RMP_MAX, comm);
    if (err)
        return err;
    bool weighted = all == VOTE_WEIGHTED;
    topo_t *t = topo_alloc(RMP_DIST_GRAPH, 0, indegree, outdegree, weighted);
    if (!t)
        return RMP_ERR_NO_MEM; /* before the dup: the others fail or hang there, as with any
                                * collective whose arguments differ */
    t->rank = cl.rank;
    copy_ints(t->in, sources, indegree);
    copy_ints(t->out, destinations, outdegree);
    if (weighted) {
        if (sourceweights == RMP_UNWEIGHTED)
            for (int i = 0; i < indegree; i++)
                t->in_w[i] = 1;
        else
            copy_ints(t->in_w, sourceweights, indegree);
        if (destweights == RMP_UNWEIGHTED)
            for (int i = 0; i < outdegree; i++)
                t->out_w[i] = 1;
        else
            copy_ints(t->out_w, destweights, outdegree);
    }
    err = rmp_comm_dup(comm, newcomm);
    if (err) {
        free(t);
        return err;
    }
    topo_attach(*newcomm, t);
    return RMP_SUCCESS;
}

int rmp_dist_graph_neighbors_count(rmp_comm_t comm, int *indegree, int *outdegree, int *weighted)
{
    const topo_t *t;
    int err = topo_get(comm, RMP_DIST_GRAPH, &t);
    if (!err && (!indegree || !outdegree || !weighted))
        err = RMP_ERR_ARG;
    if (err)
        return err;
    *indegree = t->indeg;
    *outdegree = t->outdeg;
    *weighted = t->weighted;
    return RMP_SUCCESS;
}

int rmp_dist_graph_neighbors(rmp_comm_t comm, int maxindegree, int sources[], int sourceweights[],
                             int maxoutdegree, int destinations[], int destweights[])
{
    const topo_t *t;
    int err = topo_get(comm, RMP_DIST_GRAPH, &t);
    if (err)
        return err;
    int nin = maxindegree < t->indeg ? maxindegree : t->indeg;
    int nout = maxoutdegree < t->outdeg ? maxoutdegree : t->outdeg;
    if (nin < 0 || nout < 0 || (nin > 0 && !sources) || (nout > 0 && !destinations))
        return RMP_ERR_ARG;
    copy_ints(sources, t->in, nin);
    copy_ints(destinations, t->out, nout);
    if (t->weighted && !no_weights(sourceweights))
        copy_ints(sourceweights, t->in_w, nin);
    if (t->weighted && !no_weights(destweights))
        copy_ints(destweights, t->out_w, nout);
    return RMP_SUCCESS;
}
