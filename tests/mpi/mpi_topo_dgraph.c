/* mpi_topo_dgraph.c — the general MPI_Dist_graph_create (each rank gives any edges, also
 * edges it is no end of, as MPICH's test/mpi/topo/distgraph1 and dgraph_unwgt do), weighted
 * and unweighted: every rank's in- and out-neighbours and weights against the serial answer
 * (listed by the rank that gave the edge, then in the order it gave them), the neighbourhood
 * collectives over them (repeated edges and self-loops included), MPI_Comm_dup, and the error
 * classes of bad edges. */
#include "mpicheck.h"

#define MAXE 256

typedef struct edge {
    int giver, src, dst, w;
} edge_t;

static unsigned lcg(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

/* The global edge list, the same at every rank: edges in the order each giver gives them
 * (givers in rank order). Each giver gives runs of edges sharing a source. */
static int make_edges(int size, int seed, edge_t *e)
{
    unsigned s = (unsigned)seed;
    int k = 0;
    for (int g = 0; g < size; g++) {
        int runs = (int)(lcg(&s) % 3); /* 0..2 sources */
        for (int r = 0; r < runs; r++) {
            int src = (int)(lcg(&s) % (unsigned)size), deg = (int)(lcg(&s) % 4);
            for (int j = 0; j < deg; j++)
                e[k++] = (edge_t){g, src, (int)(lcg(&s) % (unsigned)size),
                                  (int)(lcg(&s) % 100)};
        }
    }
    /* and the same giver names an edge twice, plus a self-loop */
    e[k++] = (edge_t){0, size - 1, 0, 7};
    e[k++] = (edge_t){0, size - 1, 0, 8};
    e[k++] = (edge_t){size - 1, 0, 0, 9};
    /* back into giver order (stable), the order the neighbour lists follow */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && e[j - 1].giver > e[j].giver; j--) {
            edge_t t = e[j];
            e[j] = e[j - 1];
            e[j - 1] = t;
        }
    return k;
}

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* My arguments: the runs I give (a new run at every change of source). */
static int my_args(const edge_t *e, int ne, int me, int *srcs, int *degs, int *dsts, int *ws)
{
    int n = 0, k = 0;
    for (int i = 0; i < ne; i++) {
        if (e[i].giver != me)
            continue;
        if (n == 0 || srcs[n - 1] != e[i].src || (i > 0 && e[i - 1].giver != me)) {
            srcs[n] = e[i].src;
            degs[n++] = 0;
        }
        degs[n - 1]++;
        dsts[k] = e[i].dst;
        ws[k++] = e[i].w;
    }
    return n;
}

static void check_graph(MPI_Comm g, const edge_t *e, int ne, int me, int weighted)
{
    int win[MAXE], wout[MAXE], nin = 0, nout = 0, in[MAXE], out[MAXE];
    for (int i = 0; i < ne; i++) {
        if (e[i].dst == me)
            in[nin] = e[i].src, win[nin++] = e[i].w;
        if (e[i].src == me)
            out[nout] = e[i].dst, wout[nout++] = e[i].w;
    }
    int x = -1, y = -1, w = -1, gin[MAXE], gout[MAXE], gwin[MAXE], gwout[MAXE];
    CHECK(MPI_Topo_test(g, &x));
    EXPECT_INT(x, MPI_DIST_GRAPH);
    CHECK(MPI_Dist_graph_neighbors_count(g, &x, &y, &w));
    EXPECT_INT(x, nin);
    EXPECT_INT(y, nout);
    EXPECT_INT(w, weighted);
    CHECK(MPI_Dist_graph_neighbors(g, MAXE, gin, weighted ? gwin : MPI_UNWEIGHTED, MAXE, gout,
                                   weighted ? gwout : MPI_UNWEIGHTED));
    for (int i = 0; i < nin; i++) {
        if (gin[i] != in[i] || (weighted && gwin[i] != win[i]))
            FAIL("in-edge %d: %d (w %d), expected %d (w %d)", i, gin[i],
                 weighted ? gwin[i] : 0, in[i], win[i]);
    }
    for (int i = 0; i < nout; i++) {
        if (gout[i] != out[i] || (weighted && gwout[i] != wout[i]))
            FAIL("out-edge %d: %d (w %d), expected %d (w %d)", i, gout[i],
                 weighted ? gwout[i] : 0, out[i], wout[i]);
    }
    /* alltoall: block j of me goes to out[j]; in-block i, from s = in[i], is the k-th edge
     * s -> me in s's out-list where k counts the earlier in-edges from s */
    int send[MAXE], got[MAXE + 1];
    for (int j = 0; j < nout; j++)
        send[j] = me * 1000 + j;
    for (int i = 0; i <= MAXE; i++)
        got[i] = -5;
    CHECK(MPI_Neighbor_alltoall(send, 1, MPI_INT, got, 1, MPI_INT, g));
    for (int i = 0; i < nin; i++) {
        int s = in[i], occ = 0, want = -1, j = 0;
        for (int q = 0; q < i; q++)
            occ += in[q] == s;
        for (int q = 0; q < ne; q++) {
            if (e[q].src != s)
                continue;
            if (e[q].dst == me && occ-- == 0) {
                want = s * 1000 + j;
                break;
            }
            j++;
        }
        if (got[i] != want)
            FAIL("alltoall in-block %d (from %d): %d, expected %d", i, s, got[i], want);
    }
    if (got[nin] != -5)
        FAIL("alltoall wrote past its %d blocks", nin);
    int mine = me + 100;
    CHECK(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, g));
    for (int i = 0; i < nin; i++)
        EXPECT_INT(got[i], in[i] + 100);
}

static void t_dgraph(int rank, int size)
{
    edge_t e[MAXE];
    for (int seed = 1; seed <= 4; seed++)
        for (int weighted = 0; weighted < 2; weighted++) {
            int ne = make_edges(size, seed, e);
            int srcs[MAXE], degs[MAXE], dsts[MAXE], ws[MAXE];
            int n = my_args(e, ne, rank, srcs, degs, dsts, ws);
            MPI_Comm g = MPI_COMM_NULL;
            CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts,
                                        weighted ? (n ? ws : MPI_WEIGHTS_EMPTY)
                                                 : MPI_UNWEIGHTED,
                                        MPI_INFO_NULL, seed & 1, &g));
            if (g == MPI_COMM_NULL) {
                FAIL("Dist_graph_create gave MPI_COMM_NULL");
                continue;
            }
            int x;
            CHECK(MPI_Comm_size(g, &x));
            EXPECT_INT(x, size);
            CHECK(MPI_Comm_rank(g, &x));
            EXPECT_INT(x, rank);
            check_graph(g, e, ne, rank, weighted);
            MPI_Comm d;
            CHECK(MPI_Comm_dup(g, &d));
            check_graph(d, e, ne, rank, weighted);
            CHECK(MPI_Comm_free(&d));
            CHECK(MPI_Comm_free(&g));
        }
    /* no edge anywhere */
    MPI_Comm g = MPI_COMM_NULL;
    int none = 0, x = -1, y = -1, w = -1;
    CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, &none, &none, &none, MPI_UNWEIGHTED,
                                MPI_INFO_NULL, 0, &g));
    CHECK(MPI_Dist_graph_neighbors_count(g, &x, &y, &w));
    EXPECT_INT(x, 0);
    EXPECT_INT(y, 0);
    EXPECT_INT(w, 0);
    CHECK(MPI_Comm_free(&g));
    /* bad edges: the same error everywhere, nothing made */
    int src = 0, deg = 1, dst = size, wt = 1, neg = -1;
    expect_class("destination out of range",
                 MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &g),
                 MPI_ERR_RANK);
    dst = 0;
    src = -3;
    expect_class("source out of range",
                 MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &g),
                 MPI_ERR_RANK);
    src = 0;
    expect_class("negative degree",
                 MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &neg, &dst, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &g),
                 MPI_ERR_ARG);
    expect_class("negative n", MPI_Dist_graph_create(MPI_COMM_WORLD, -1, &src, &deg, &dst,
                                                     MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g),
                 MPI_ERR_ARG);
    expect_class("negative weight", MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst,
                                                          &neg, MPI_INFO_NULL, 0, &g),
                 MPI_ERR_ARG);
    expect_class("no newcomm", MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, &wt,
                                                     MPI_INFO_NULL, 0, NULL),
                 MPI_ERR_ARG);
    expect_class("null comm", MPI_Dist_graph_create(MPI_COMM_NULL, 1, &src, &deg, &dst, &wt,
                                                    MPI_INFO_NULL, 0, &g),
                 MPI_ERR_COMM);
    if (g != MPI_COMM_NULL)
        FAIL("a failed Dist_graph_create set its communicator");
}

/* MPICH's distgraph1: rank 0 gives the whole weighted graph, the others n = 0 with NULL
 * arrays; every rank must still see a weighted graph with its edges' weights (NULL where a
 * rank gives no edges is "no weights of its own", not MPI_UNWEIGHTED, which is not NULL). */
static void t_one_giver(int rank, int size)
{
    if (MPI_UNWEIGHTED == NULL)
        FAIL("MPI_UNWEIGHTED is NULL");
    if (MPI_UNWEIGHTED == MPI_WEIGHTS_EMPTY)
        FAIL("MPI_UNWEIGHTED is MPI_WEIGHTS_EMPTY");
    edge_t e[MAXE];
    int ne = 0, srcs[MAXE], degs[MAXE], dsts[MAXE], ws[MAXE];
    for (int r = 0; r < size; r++) { /* r -> r+1, r -> r+2 (mod size), distinct weights */
        e[ne++] = (edge_t){0, r, (r + 1) % size, 10 * r + 1};
        e[ne++] = (edge_t){0, r, (r + 2) % size, 10 * r + 2};
    }
    int n = my_args(e, ne, rank, srcs, degs, dsts, ws);
    for (int mode = 0; mode < 3; mode++) {
        /* 0: weighted, the others NULL; 1: unweighted, the others MPI_UNWEIGHTED; 2: every
         * rank NULL with no edge at all (MPICH's "no graph -- NULLs": NULL is not
         * MPI_UNWEIGHTED, so the empty graph is weighted) */
        MPI_Comm g = MPI_COMM_NULL;
        if (mode == 2) {
            CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, NULL, MPI_INFO_NULL,
                                        0, &g));
            int x = -1, y = -1, w = -1;
            if (g != MPI_COMM_NULL) {
                CHECK(MPI_Dist_graph_neighbors_count(g, &x, &y, &w));
                EXPECT_INT(x, 0);
                EXPECT_INT(y, 0);
                EXPECT_INT(w, 1);
                CHECK(MPI_Comm_free(&g));
            } else {
                FAIL("no graph, NULLs: MPI_COMM_NULL");
            }
            continue;
        }
        if (rank == 0)
            CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts,
                                        mode == 0 ? ws : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
        else
            CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL,
                                        mode == 1 ? MPI_UNWEIGHTED : NULL, MPI_INFO_NULL, 0,
                                        &g));
        if (g == MPI_COMM_NULL) {
            FAIL("one giver, mode %d: MPI_COMM_NULL", mode);
            continue;
        }
        check_graph(g, e, ne, rank, mode == 0);
        CHECK(MPI_Comm_free(&g));
    }
    /* the adjacent form, a weighted star into rank 0: the others give indegree 0 with NULL
     * source weights, rank 0 outdegree 0 with NULL destination weights */
    int in[MAXE], win[MAXE], nin = 0, out = 0, wout = 5, gin[MAXE], gw[MAXE], gout, gwo;
    if (rank == 0)
        for (int r = 1; r < size; r++)
            in[nin] = r, win[nin++] = 5 * r;
    else
        wout = 5 * rank;
    MPI_Comm g = MPI_COMM_NULL;
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, rank ? NULL : in,
                                         rank ? NULL : win, rank ? 1 : 0, rank ? &out : NULL,
                                         rank ? &wout : NULL, MPI_INFO_NULL, 0, &g));
    if (g == MPI_COMM_NULL) {
        FAIL("adjacent star: MPI_COMM_NULL");
        return;
    }
    int x = -1, y = -1, w = -1;
    CHECK(MPI_Dist_graph_neighbors_count(g, &x, &y, &w));
    EXPECT_INT(x, nin);
    EXPECT_INT(y, rank ? 1 : 0);
    EXPECT_INT(w, 1); /* rank 0 gave an array, even with no edges */
    for (int i = 0; i < MAXE; i++)
        gin[i] = gw[i] = -1;
    gout = gwo = -1;
    CHECK(MPI_Dist_graph_neighbors(g, MAXE, gin, gw, 1, &gout, &gwo));
    for (int i = 0; i < nin; i++) {
        EXPECT_INT(gin[i], in[i]);
        EXPECT_INT(gw[i], win[i]);
    }
    if (rank) {
        EXPECT_INT(gout, 0);
        EXPECT_INT(gwo, 5 * rank);
    }
    CHECK(MPI_Comm_free(&g));
    /* NULL weights with edges are an error, not "unweighted" (the same on every rank) */
    int src = 0, deg = 1, dst = 0;
    expect_class("NULL weights with edges",
                 MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, NULL, MPI_INFO_NULL,
                                       0, &g),
                 MPI_ERR_ARG);
    expect_class("adjacent NULL weights with edges",
                 MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, NULL, 0, NULL, NULL,
                                                MPI_INFO_NULL, 0, &g),
                 MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60), rank = mc_rank;
    if (size > 16)
        FAIL("size %d above 16", size);
    else {
        t_dgraph(rank, size);
        t_one_giver(rank, size);
    }
    MPI_Finalize();
    return mc_done("mpi_topo_dgraph");
}
