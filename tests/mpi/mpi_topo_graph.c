/* mpi_topo_graph.c — graph topologies (MPI_Graph_create and its queries, Graph_map) as
 * MPICH's test/mpi/topo graphcr, graphcr2 and graphmap1 test them, and the neighbourhood
 * collectives on a graph communicator and its duplicate (MPI-3.1 7.6: the neighbours in
 * MPI_Graph_neighbors' order, for sending and receiving alike), with self-loops and repeated
 * edges; every value against a serial reference, and the error classes of bad graphs. */
#include "mpicheck.h"

#define MAXE 64

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* The graph over nn nodes: node i's neighbours are i-1, i+1 (mod nn) and i itself; symmetric,
 * with repeated edges when nn <= 2. */
static int make_graph(int nn, int *index, int *edges)
{
    int k = 0;
    for (int i = 0; i < nn; i++) {
        edges[k++] = (i - 1 + nn) % nn;
        edges[k++] = (i + 1) % nn;
        edges[k++] = i;
        index[i] = k;
    }
    return k;
}

/* The block that neighbour list position i of node me receives in an alltoall: from
 * nb = nbrs(me)[i], the k-th edge of nb towards me, k being how many times nb appeared in
 * me's list before i. */
static int expect_from(const int *index, const int *edges, int me, int i)
{
    int lo = me ? index[me - 1] : 0, nb = edges[lo + i], occ = 0;
    for (int j = 0; j < i; j++)
        occ += edges[lo + j] == nb;
    int nlo = nb ? index[nb - 1] : 0;
    for (int j = nlo; j < index[nb]; j++)
        if (edges[j] == me && occ-- == 0)
            return nb * 1000 + (j - nlo);
    return -1;
}

static void check_collectives(MPI_Comm g, const int *index, const int *edges, int me)
{
    int deg = -1, nbrs[MAXE];
    CHECK(MPI_Graph_neighbors_count(g, me, &deg));
    CHECK(MPI_Graph_neighbors(g, me, MAXE, nbrs));
    int mine = me * 7 + 3, got[MAXE], send[MAXE];
    for (int i = 0; i < MAXE; i++)
        got[i] = -5;
    CHECK(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, g));
    for (int i = 0; i < deg; i++)
        if (got[i] != nbrs[i] * 7 + 3)
            FAIL("graph allgather block %d: %d, expected %d", i, got[i], nbrs[i] * 7 + 3);
    for (int j = 0; j < deg; j++)
        send[j] = me * 1000 + j;
    for (int i = 0; i < MAXE; i++)
        got[i] = -5;
    CHECK(MPI_Neighbor_alltoall(send, 1, MPI_INT, got, 1, MPI_INT, g));
    for (int i = 0; i < deg; i++)
        if (got[i] != expect_from(index, edges, me, i))
            FAIL("graph alltoall block %d: %d, expected %d", i, got[i],
                 expect_from(index, edges, me, i));
    MPI_Request r;
    for (int i = 0; i < MAXE; i++)
        got[i] = -5;
    CHECK(MPI_Ineighbor_alltoall(send, 1, MPI_INT, got, 1, MPI_INT, g, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < deg; i++)
        if (got[i] != expect_from(index, edges, me, i))
            FAIL("graph ialltoall block %d: %d", i, got[i]);
    if (got[deg] != -5)
        FAIL("graph alltoall wrote past its %d blocks", deg);
    /* the v form, blocks placed in reverse order, and the w form with byte displacements */
    int cnt[MAXE], dsp[MAXE];
    MPI_Aint bd[MAXE];
    MPI_Datatype ty[MAXE];
    for (int i = 0; i < deg; i++) {
        cnt[i] = 1, dsp[i] = deg - 1 - i, bd[i] = (MPI_Aint)(sizeof(int) * (size_t)i);
        ty[i] = MPI_INT;
    }
    for (int i = 0; i < MAXE; i++)
        got[i] = -5;
    CHECK(MPI_Neighbor_alltoallv(send, cnt, dsp, MPI_INT, got, cnt, dsp, MPI_INT, g));
    for (int i = 0; i < deg; i++) { /* block i (sent as my block deg-1-i) lands at deg-1-i */
        int nb = nbrs[i], occ = 0, want = -1;
        for (int j = 0; j < i; j++)
            occ += nbrs[j] == nb;
        int nlo = nb ? index[nb - 1] : 0;
        for (int j = nlo; j < index[nb]; j++)
            if (edges[j] == me && occ-- == 0)
                want = nb * 1000 + (index[nb] - nlo - 1 - (j - nlo));
        if (got[deg - 1 - i] != want)
            FAIL("graph alltoallv block %d: %d, expected %d", i, got[deg - 1 - i], want);
    }
    for (int i = 0; i < MAXE; i++)
        got[i] = -5;
    CHECK(MPI_Neighbor_alltoallw(send, cnt, bd, ty, got, cnt, bd, ty, g));
    for (int i = 0; i < deg; i++)
        if (got[i] != expect_from(index, edges, me, i))
            FAIL("graph alltoallw block %d: %d", i, got[i]);
}

static void t_graph(int rank, int size)
{
    for (int nn = size; nn >= size - 1 && nn >= 1; nn--) {
        int index[MAXE], edges[3 * MAXE], ne = make_graph(nn, index, edges);
        MPI_Comm g = MPI_COMM_NULL;
        int newrank = -9;
        CHECK(MPI_Graph_map(MPI_COMM_WORLD, nn, index, edges, &newrank));
        EXPECT_INT(newrank, rank < nn ? rank : MPI_UNDEFINED);
        CHECK(MPI_Graph_create(MPI_COMM_WORLD, nn, index, edges, 1, &g));
        if (rank >= nn) {
            if (g != MPI_COMM_NULL)
                FAIL("rank %d outside a %d-node graph got a communicator", rank, nn);
            continue;
        }
        if (g == MPI_COMM_NULL) {
            FAIL("no graph communicator for a %d-node graph", nn);
            continue;
        }
        int x = -1, y = -1, gi[MAXE], ge[3 * MAXE];
        CHECK(MPI_Comm_size(g, &x));
        EXPECT_INT(x, nn);
        CHECK(MPI_Comm_rank(g, &x));
        EXPECT_INT(x, rank);
        CHECK(MPI_Topo_test(g, &x));
        EXPECT_INT(x, MPI_GRAPH);
        CHECK(MPI_Graphdims_get(g, &x, &y));
        EXPECT_INT(x, nn);
        EXPECT_INT(y, ne);
        CHECK(MPI_Graph_get(g, MAXE, 3 * MAXE, gi, ge));
        for (int i = 0; i < nn; i++)
            EXPECT_INT(gi[i], index[i]);
        for (int i = 0; i < ne; i++)
            EXPECT_INT(ge[i], edges[i]);
        /* truncated: only what fits is written */
        gi[1] = ge[1] = -7;
        CHECK(MPI_Graph_get(g, 1, 1, gi, ge));
        EXPECT_INT(gi[0], index[0]);
        EXPECT_INT(ge[0], edges[0]);
        EXPECT_INT(gi[1], -7);
        EXPECT_INT(ge[1], -7);
        for (int node = 0; node < nn; node++) {
            int nb[MAXE], lo = node ? index[node - 1] : 0;
            CHECK(MPI_Graph_neighbors_count(g, node, &x));
            EXPECT_INT(x, index[node] - lo);
            CHECK(MPI_Graph_neighbors(g, node, MAXE, nb));
            for (int j = 0; j < x; j++)
                EXPECT_INT(nb[j], edges[lo + j]);
        }
        check_collectives(g, index, edges, rank);
        /* MPI_Comm_dup keeps the graph, and the collectives still run on it */
        MPI_Comm d;
        CHECK(MPI_Comm_dup(g, &d));
        CHECK(MPI_Topo_test(d, &x));
        EXPECT_INT(x, MPI_GRAPH);
        CHECK(MPI_Graphdims_get(d, &x, &y));
        EXPECT_INT(x, nn);
        EXPECT_INT(y, ne);
        check_collectives(d, index, edges, rank);
        /* errors on the graph communicator (MPI_ERRORS_RETURN inherited) */
        int nb[MAXE];
        expect_class("neighbors of a non-node", MPI_Graph_neighbors(g, nn, MAXE, nb),
                     MPI_ERR_RANK);
        expect_class("count of rank -1", MPI_Graph_neighbors_count(g, -1, &x), MPI_ERR_RANK);
        expect_class("cartdim of a graph", MPI_Cartdim_get(g, &x), MPI_ERR_TOPOLOGY);
        expect_class("dist neighbors of a graph", MPI_Dist_graph_neighbors_count(g, &x, &y, &x),
                     MPI_ERR_TOPOLOGY);
        CHECK(MPI_Comm_free(&d));
        CHECK(MPI_Comm_free(&g));
    }
    /* no node: MPI_COMM_NULL everywhere */
    MPI_Comm g = MPI_COMM_WORLD;
    int index[MAXE], edges[3 * MAXE], x, y;
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, 0, index, edges, 0, &g));
    if (g != MPI_COMM_NULL)
        FAIL("a 0-node graph gave a communicator");
    /* bad graphs: the same error at every rank, nothing made */
    int ne = make_graph(size, index, edges);
    (void)ne;
    expect_class("more nodes than ranks",
                 MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &g), MPI_ERR_ARG);
    expect_class("negative nnodes", MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &g),
                 MPI_ERR_ARG);
    edges[0] = size;
    expect_class("edge to a non-node",
                 MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g), MPI_ERR_RANK);
    expect_class("map: edge to a non-node",
                 MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &x), MPI_ERR_RANK);
    edges[0] = 0;
    int dec[2] = {3, 1};
    if (size >= 2)
        expect_class("decreasing index", MPI_Graph_create(MPI_COMM_WORLD, 2, dec, edges, 0, &g),
                     MPI_ERR_ARG);
    expect_class("no newcomm", MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, NULL),
                 MPI_ERR_ARG);
    expect_class("graphdims of world", MPI_Graphdims_get(MPI_COMM_WORLD, &x, &y),
                 MPI_ERR_TOPOLOGY);
    expect_class("graph_get of world", MPI_Graph_get(MPI_COMM_WORLD, 1, 1, &x, &y),
                 MPI_ERR_TOPOLOGY);
    expect_class("graphdims of null", MPI_Graphdims_get(MPI_COMM_NULL, &x, &y), MPI_ERR_COMM);
    if (g != MPI_COMM_NULL)
        FAIL("a failed Graph_create set its communicator");
    CHECK(MPI_Topo_test(MPI_COMM_WORLD, &x));
    EXPECT_INT(x, MPI_UNDEFINED);
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60), rank = mc_rank;
    if (size > MAXE)
        FAIL("size %d above %d", size, MAXE);
    else
        t_graph(rank, size);
    MPI_Finalize();
    return mc_done("mpi_topo_graph");
}
