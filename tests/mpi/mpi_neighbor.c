/* mpi_neighbor.c — mpi.h's topologies and neighbourhood collectives, blocking or nonblocking
 * (argv[1] "blocking" or "nonblocking"), against values computed serially: a ring and an
 * irregular distributed graph (zero-degree ranks, repeated edges at n <= 2), and 2-D Cartesian
 * grids from MPI_Dims_create, periodic and not. Each rank knows every rank's neighbour lists,
 * so it computes what each block must hold; blocks with no neighbour (grid edges) and the gaps
 * between blocks must stay untouched. */
#include <stdbool.h>

#include "mpicheck.h"

enum { UNTOUCHED = -7, MAXN = 8, MAXDEG = 2 * MAXN, STRIDE = 4 };

static int nb; /* 1: the MPI_Ineighbor_* forms, completed with MPI_Wait */
static int size;

#define COLL(Name, ...) MC_COLL(nb, MPI_Neighbor_##Name, MPI_Ineighbor_##Name, __VA_ARGS__)

/* ---- the topologies, serially ---- */
typedef enum { RING, IRREGULAR, CART_PERIODIC, CART_OPEN } kind_t;
static const char *const kind_name[] = {"ring", "irregular graph", "periodic grid", "open grid"};

typedef struct lists {
    int nin, nout, in[MAXDEG], out[MAXDEG];
} lists_t;

static int dims[2]; /* the grids' shape, from MPI_Dims_create */

/* Rank r's neighbour in dimension d, direction dir (-1/+1) of the grid; MPI_PROC_NULL off an
 * open edge. Row-major: coords (r / dims[1], r % dims[1]). */
static int grid_nbr(kind_t k, int r, int d, int dir)
{
    int c[2] = {r / dims[1], r % dims[1]};
    c[d] += dir;
    if (c[d] < 0 || c[d] >= dims[d]) {
        if (k == CART_OPEN)
            return MPI_PROC_NULL;
        c[d] = (c[d] + dims[d]) % dims[d];
    }
    return c[0] * dims[1] + c[1];
}

/* Irregular: r sends to q when (q + 2r) % 3 == 1, except the last rank, which sends nothing. */
static bool irr_edge(int p, int q)
{
    return p != size - 1 && (q + 2 * p) % 3 == 1;
}

static void lists_of(kind_t k, int r, lists_t *l)
{
    l->nin = l->nout = 0;
    if (k == RING) {
        l->out[l->nout++] = (r + 1) % size;
        l->out[l->nout++] = (r - 1 + size) % size;
        l->in[l->nin++] = (r - 1 + size) % size;
        l->in[l->nin++] = (r + 1) % size;
    } else if (k == IRREGULAR) {
        for (int q = 0; q < size; q++) {
            if (irr_edge(r, q))
                l->out[l->nout++] = q;
            if (irr_edge(q, r))
                l->in[l->nin++] = q;
        }
    } else {
        for (int d = 0; d < 2; d++)
            for (int dir = -1; dir <= 1; dir += 2) {
                l->in[l->nin++] = grid_nbr(k, r, d, dir);
                l->out[l->nout++] = grid_nbr(k, r, d, dir);
            }
    }
}

/* Receive block i of rank r: sent by *p (MPI_PROC_NULL: none) as its send block *j. A graph
 * matches repeated edges in list order; a grid's block 2d holds what the neighbour below sent
 * upwards (its block 2d+1), block 2d+1 what the one above sent downwards. */
static void source_of(kind_t k, int r, int i, int *p, int *j)
{
    lists_t me, them;
    lists_of(k, r, &me);
    *p = me.in[i];
    *j = -1;
    if (*p == MPI_PROC_NULL)
        return;
    if (k == CART_PERIODIC || k == CART_OPEN) {
        *j = i ^ 1;
        return;
    }
    int nth = 0;
    for (int x = 0; x < i; x++)
        nth += me.in[x] == *p;
    lists_of(k, *p, &them);
    for (int x = 0; x < them.nout; x++)
        if (them.out[x] == r && nth-- == 0) {
            *j = x;
            return;
        }
}

/* What rank p puts in element e of its send block j, and the v-forms' block lengths. */
static int val(int p, int j, int e)
{
    return p * 1000 + j * 10 + e;
}

static int vcnt(int p, int j)
{
    return 1 + (p + j) % 3; /* at most 3 < STRIDE */
}

/* ---- the communicators ---- */
static MPI_Comm make(kind_t k)
{
    MPI_Comm c = MPI_COMM_NULL;
    lists_t l;
    lists_of(k, mc_rank, &l);
    if (k == RING || k == IRREGULAR) {
        int w_in[MAXDEG], w_out[MAXDEG];
        for (int i = 0; i < l.nin; i++)
            w_in[i] = 10 * l.in[i] + mc_rank;
        for (int i = 0; i < l.nout; i++)
            w_out[i] = 10 * mc_rank + l.out[i];
        bool weighted = k == IRREGULAR;
        CHECK(MPI_Dist_graph_create_adjacent(
            MPI_COMM_WORLD, l.nin, l.in, weighted ? (l.nin ? w_in : MPI_WEIGHTS_EMPTY) : MPI_UNWEIGHTED,
            l.nout, l.out, weighted ? (l.nout ? w_out : MPI_WEIGHTS_EMPTY) : MPI_UNWEIGHTED,
            MPI_INFO_NULL, 0, &c));
        int indeg = -1, outdeg = -1, wt = -1, topo = -1;
        CHECK(MPI_Dist_graph_neighbors_count(c, &indeg, &outdeg, &wt));
        EXPECT_INT(indeg, l.nin);
        EXPECT_INT(outdeg, l.nout);
        EXPECT_INT(wt, weighted);
        CHECK(MPI_Topo_test(c, &topo));
        EXPECT_INT(topo, MPI_DIST_GRAPH);
        int src[MAXDEG], dst[MAXDEG], sw[MAXDEG], dw[MAXDEG];
        CHECK(MPI_Dist_graph_neighbors(c, MAXDEG, src, sw, MAXDEG, dst, dw));
        for (int i = 0; i < l.nin; i++) {
            EXPECT_INT(src[i], l.in[i]);
            if (weighted)
                EXPECT_INT(sw[i], w_in[i]);
        }
        for (int i = 0; i < l.nout; i++) {
            EXPECT_INT(dst[i], l.out[i]);
            if (weighted)
                EXPECT_INT(dw[i], w_out[i]);
        }
        return c;
    }
    int periods[2] = {k == CART_PERIODIC, k == CART_PERIODIC};
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c));
    return c;
}

/* ---- the collectives ---- */
static void expect_block(kind_t k, const char *what, int i, const int *got, int n, int p, int j,
                         int gap_after)
{
    for (int e = 0; e < n + gap_after; e++) {
        int want = p == MPI_PROC_NULL || e >= n ? UNTOUCHED : val(p, j, e);
        if (got[e] != want) {
            FAIL("%s on the %s (%s): block %d element %d is %d, expected %d", what,
                 kind_name[k], nb ? "nonblocking" : "blocking", i, e, got[e], want);
            return;
        }
    }
}

static void t_allgather(kind_t k, MPI_Comm c, const lists_t *l)
{
    int send[2] = {val(mc_rank, 0, 0), val(mc_rank, 0, 1)}, recv[2 * MAXDEG];
    for (int i = 0; i < 2 * MAXDEG; i++)
        recv[i] = UNTOUCHED;
    COLL(allgather, send, 2, MPI_INT, recv, 2, MPI_INT, c);
    for (int i = 0; i < l->nin; i++) {
        int p, j;
        source_of(k, mc_rank, i, &p, &j);
        expect_block(k, "Neighbor_allgather", i, recv + 2 * i, 2, p, 0, 0);
    }
    /* allgatherv: sender p sends vcnt(p, 0) elements; block i at STRIDE * i + 1 */
    int vs[3], counts[MAXDEG], displs[MAXDEG], vr[STRIDE * MAXDEG + 1];
    for (int e = 0; e < vcnt(mc_rank, 0); e++)
        vs[e] = val(mc_rank, 0, e);
    for (int i = 0; i < STRIDE * MAXDEG + 1; i++)
        vr[i] = UNTOUCHED;
    for (int i = 0; i < l->nin; i++) {
        int p, j;
        source_of(k, mc_rank, i, &p, &j);
        counts[i] = p == MPI_PROC_NULL ? 0 : vcnt(p, 0);
        displs[i] = STRIDE * i + 1;
    }
    COLL(allgatherv, vs, vcnt(mc_rank, 0), MPI_INT, vr, counts, displs, MPI_INT, c);
    for (int i = 0; i < l->nin; i++) {
        int p, j;
        source_of(k, mc_rank, i, &p, &j);
        expect_block(k, "Neighbor_allgatherv", i, vr + displs[i], counts[i], p, 0,
                     STRIDE - counts[i]);
    }
    EXPECT_INT(vr[0], UNTOUCHED);
}

static void t_alltoall(kind_t k, MPI_Comm c, const lists_t *l)
{
    int send[2 * MAXDEG], recv[2 * MAXDEG];
    for (int j = 0; j < l->nout; j++)
        for (int e = 0; e < 2; e++)
            send[2 * j + e] = val(mc_rank, j, e);
    for (int i = 0; i < 2 * MAXDEG; i++)
        recv[i] = UNTOUCHED;
    COLL(alltoall, send, 2, MPI_INT, recv, 2, MPI_INT, c);
    for (int i = 0; i < l->nin; i++) {
        int p, j;
        source_of(k, mc_rank, i, &p, &j);
        expect_block(k, "Neighbor_alltoall", i, recv + 2 * i, 2, p, j, 0);
    }
}

/* alltoallv and alltoallw: block j to the j-th out-neighbour holds vcnt(me, j) elements, at
 * STRIDE * j (v) or at STRIDE * j ints from the end backwards (w, displacements in bytes). */
static void t_alltoallvw(kind_t k, MPI_Comm c, const lists_t *l, bool w)
{
    int send[STRIDE * MAXDEG], recv[STRIDE * MAXDEG + 1];
    int sc[MAXDEG], sd[MAXDEG], rc[MAXDEG], rd[MAXDEG];
    MPI_Aint sb[MAXDEG], rb[MAXDEG];
    MPI_Datatype st[MAXDEG], rt[MAXDEG];
    for (int j = 0; j < l->nout; j++) {
        sc[j] = vcnt(mc_rank, j);
        sd[j] = w ? STRIDE * (l->nout - 1 - j) : STRIDE * j;
        sb[j] = (MPI_Aint)sizeof(int) * sd[j];
        st[j] = MPI_INT;
        for (int e = 0; e < sc[j]; e++)
            send[sd[j] + e] = val(mc_rank, j, e);
    }
    for (int i = 0; i < STRIDE * MAXDEG + 1; i++)
        recv[i] = UNTOUCHED;
    for (int i = 0; i < l->nin; i++) {
        int p, j;
        source_of(k, mc_rank, i, &p, &j);
        rc[i] = p == MPI_PROC_NULL ? 0 : vcnt(p, j);
        rd[i] = STRIDE * i + 1;
        rb[i] = (MPI_Aint)sizeof(int) * rd[i];
        rt[i] = MPI_INT;
    }
    if (w)
        COLL(alltoallw, send, sc, sb, st, recv, rc, rb, rt, c);
    else
        COLL(alltoallv, send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, c);
    for (int i = 0; i < l->nin; i++) {
        int p, j;
        source_of(k, mc_rank, i, &p, &j);
        expect_block(k, w ? "Neighbor_alltoallw" : "Neighbor_alltoallv", i, recv + rd[i], rc[i],
                     p, j, STRIDE - rc[i]);
    }
    EXPECT_INT(recv[0], UNTOUCHED);
}

/* A non-contiguous receive type: each block is one vector(2, 1, 2) of ints (extent 3 ints),
 * so the data lands in elements 3i and 3i+2 and element 3i+1 stays untouched. */
static void t_alltoall_vector(kind_t k, MPI_Comm c, const lists_t *l)
{
    MPI_Datatype vec;
    CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
    CHECK(MPI_Type_commit(&vec));
    int send[2 * MAXDEG], recv[3 * MAXDEG];
    for (int j = 0; j < l->nout; j++)
        for (int e = 0; e < 2; e++)
            send[2 * j + e] = val(mc_rank, j, e);
    for (int i = 0; i < 3 * MAXDEG; i++)
        recv[i] = UNTOUCHED;
    COLL(alltoall, send, 2, MPI_INT, recv, 1, vec, c);
    for (int i = 0; i < l->nin; i++) {
        int p, j;
        source_of(k, mc_rank, i, &p, &j);
        int want[3] = {UNTOUCHED, UNTOUCHED, UNTOUCHED};
        if (p != MPI_PROC_NULL) {
            want[0] = val(p, j, 0);
            want[2] = val(p, j, 1);
        }
        for (int e = 0; e < 3; e++)
            if (recv[3 * i + e] != want[e])
                FAIL("Neighbor_alltoall into a vector type on the %s: block %d element %d is %d, "
                     "expected %d", kind_name[k], i, e, recv[3 * i + e], want[e]);
    }
    CHECK(MPI_Type_free(&vec));
}

static void t_topology(kind_t k)
{
    MPI_Comm c = make(k);
    if (c == MPI_COMM_NULL) {
        FAIL("no communicator for the %s", kind_name[k]);
        return;
    }
    lists_t l;
    lists_of(k, mc_rank, &l);
    /* a duplicate carries the topology: the collectives run on it */
    MPI_Comm d = MPI_COMM_NULL;
    int topo = -1;
    CHECK(MPI_Comm_dup(c, &d));
    CHECK(MPI_Comm_free(&c));
    c = d;
    CHECK(MPI_Topo_test(c, &topo));
    EXPECT_INT(topo, k >= CART_PERIODIC ? MPI_CART : MPI_DIST_GRAPH);
    t_allgather(k, c, &l);
    t_alltoall(k, c, &l);
    t_alltoallvw(k, c, &l, false);
    t_alltoallvw(k, c, &l, true);
    t_alltoall_vector(k, c, &l);
    CHECK(MPI_Comm_free(&c));
}

/* ---- Cartesian queries ---- */
static void t_dims(void)
{
    int d[3] = {0, 0, 0};
    CHECK(MPI_Dims_create(12, 2, d));
    EXPECT_INT(d[0], 4);
    EXPECT_INT(d[1], 3);
    int e[3] = {0, 0, 0};
    CHECK(MPI_Dims_create(16, 3, e));
    EXPECT_INT(e[0] * 100 + e[1] * 10 + e[2], 422);
    int f[2] = {0, 0};
    CHECK(MPI_Dims_create(7, 2, f));
    EXPECT_INT(f[0] * 10 + f[1], 71);
    int g[3] = {0, 3, 0};
    CHECK(MPI_Dims_create(6, 3, g));
    EXPECT_INT(g[0] * 100 + g[1] * 10 + g[2], 231);
    int h[3] = {0, 0, 0};
    CHECK(MPI_Dims_create(36, 3, h));
    EXPECT_INT(h[0] * 100 + h[1] * 10 + h[2], 433);
    int bad[2] = {4, 0};
    EXPECT_INT(MPI_Dims_create(6, 2, bad), MPI_ERR_DIMS);
    int neg[2] = {-1, 0};
    EXPECT_INT(MPI_Dims_create(6, 2, neg), MPI_ERR_DIMS);
}

static void t_cart_queries(void)
{
    for (int k = CART_PERIODIC; k <= CART_OPEN; k++) {
        MPI_Comm c = make((kind_t)k);
        int nd = -1, dd[2], pp[2], cc[2], topo = -1;
        CHECK(MPI_Cartdim_get(c, &nd));
        EXPECT_INT(nd, 2);
        CHECK(MPI_Topo_test(c, &topo));
        EXPECT_INT(topo, MPI_CART);
        CHECK(MPI_Cart_get(c, 2, dd, pp, cc));
        EXPECT_INT(dd[0] * 10 + dd[1], dims[0] * 10 + dims[1]);
        EXPECT_INT(pp[0] + pp[1], k == CART_PERIODIC ? 2 : 0);
        EXPECT_INT(cc[0] * dims[1] + cc[1], mc_rank);
        for (int r = 0; r < size; r++) {
            int co[2] = {-1, -1}, back = -1;
            CHECK(MPI_Cart_coords(c, r, 2, co));
            EXPECT_INT(co[0] * 10 + co[1], (r / dims[1]) * 10 + r % dims[1]);
            CHECK(MPI_Cart_rank(c, co, &back));
            EXPECT_INT(back, r);
        }
        for (int d = 0; d < 2; d++) {
            int src = -5, dst = -5;
            CHECK(MPI_Cart_shift(c, d, 1, &src, &dst));
            EXPECT_INT(src, grid_nbr((kind_t)k, mc_rank, d, -1));
            EXPECT_INT(dst, grid_nbr((kind_t)k, mc_rank, d, 1));
        }
        CHECK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
        int out[2] = {dims[0], 0}, r = -5; /* one past the first dimension's end */
        if (k == CART_PERIODIC) {
            CHECK(MPI_Cart_rank(c, out, &r));
            EXPECT_INT(r, 0);
            int wrap[2] = {-1, -1}; /* (dims0 - 1, dims1 - 1): the last rank */
            CHECK(MPI_Cart_rank(c, wrap, &r));
            EXPECT_INT(r, size - 1);
        } else {
            EXPECT_INT(MPI_Cart_rank(c, out, &r), MPI_ERR_RANK);
        }
        int co[2], s1, s2;
        EXPECT_INT(MPI_Cart_coords(c, size, 2, co), MPI_ERR_RANK);
        EXPECT_INT(MPI_Cart_shift(c, 2, 1, &s1, &s2), MPI_ERR_DIMS); /* no third dimension */
        CHECK(MPI_Comm_free(&c));
    }
    /* a grid smaller than the communicator: the ranks past it get MPI_COMM_NULL */
    int one[1] = {size > 1 ? size - 1 : 1}, per[1] = {1};
    MPI_Comm c = MPI_COMM_WORLD;
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, one, per, 1, &c));
    if (mc_rank < one[0]) {
        int n = 0;
        CHECK(MPI_Comm_size(c, &n));
        EXPECT_INT(n, one[0]);
        CHECK(MPI_Comm_free(&c));
    } else if (c != MPI_COMM_NULL) {
        FAIL("rank %d past a grid of %d got a communicator", mc_rank, one[0]);
    }
}

static void t_errors(void)
{
    int big[2] = {size + 1, 1}, per[2] = {0, 0}, co[2], x;
    MPI_Comm c = MPI_COMM_NULL;
    EXPECT_INT(MPI_Cart_create(MPI_COMM_WORLD, 2, big, per, 0, &c), MPI_ERR_DIMS);
    int zero[2] = {0, 1};
    EXPECT_INT(MPI_Cart_create(MPI_COMM_WORLD, 2, zero, per, 0, &c), MPI_ERR_DIMS);
    EXPECT_INT(MPI_Cart_coords(MPI_COMM_WORLD, 0, 2, co), MPI_ERR_TOPOLOGY);
    EXPECT_INT(MPI_Cartdim_get(MPI_COMM_WORLD, &x), MPI_ERR_TOPOLOGY);
    CHECK(MPI_Topo_test(MPI_COMM_WORLD, &x));
    EXPECT_INT(x, MPI_UNDEFINED);
    EXPECT_INT(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &x, &x, &x), MPI_ERR_TOPOLOGY);
    int buf[2] = {0, 0};
    EXPECT_INT(MPI_Neighbor_allgather(buf, 1, MPI_INT, buf + 1, 1, MPI_INT, MPI_COMM_WORLD),
               MPI_ERR_TOPOLOGY);
    int src[1] = {size}; /* out of range, on every rank alike */
    EXPECT_INT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, MPI_UNWEIGHTED, 0, NULL,
                                              MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
               MPI_ERR_RANK);
    EXPECT_INT(c, MPI_COMM_NULL);
    /* MPI_IN_PLACE has no meaning for a neighbourhood collective */
    MPI_Comm ring = make(RING);
    CHECK(MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN));
    int r2[4];
    EXPECT_INT(MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, r2, 1, MPI_INT, ring),
               MPI_ERR_BUFFER);
    CHECK(MPI_Comm_free(&ring));
}

int main(int argc, char **argv)
{
    mc_watchdog(100);
    nb = argc > 1 && strcmp(argv[1], "nonblocking") == 0;
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size > MAXN) {
        FAIL("mpi_neighbor runs at n = 1..%d, not %d", MAXN, size);
        return 1;
    }
    CHECK(MPI_Dims_create(size, 2, dims));
    if (dims[0] * dims[1] != size || dims[0] < dims[1])
        FAIL("MPI_Dims_create(%d, 2) gave %d x %d", size, dims[0], dims[1]);
    t_dims();
    for (int k = RING; k <= CART_OPEN; k++)
        t_topology((kind_t)k);
    t_cart_queries();
    t_errors();
    CHECK(MPI_Finalize());
    return mc_done(nb ? "mpi_neighbor nonblocking" : "mpi_neighbor blocking");
}
