/* mpi_topo_cart.c — MPI_Cart_sub over every choice of kept dimensions (as MPICH's
 * test/mpi/topo/cartsuball does: sizes, dims, periods, coordinates, ranks and members of each
 * sub-grid against the serial row-major answer), on a grid filling the communicator and on one
 * that leaves ranks out (keeping none: only rank 0 gets a 0-dimensional grid, the others
 * MPI_COMM_NULL, as MPICH); MPI_Cart_map (cartmap1); the neighbourhood collectives on a sub-grid;
 * and the error classes. */
#include "mpicheck.h"

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

static void coords_of(const int *dims, int nd, int r, int *c)
{
    for (int i = nd - 1; i >= 0; i--) {
        c[i] = r % dims[i];
        r /= dims[i];
    }
}

static void check_sub(MPI_Comm cart, const int *dims, const int *periods, int nd, int me,
                      int mask)
{
    int remain[3], c[3];
    coords_of(dims, nd, me, c);
    for (int i = 0; i < nd; i++)
        remain[i] = (mask >> i) & 1;
    MPI_Comm sub = MPI_COMM_NULL;
    CHECK(MPI_Cart_sub(cart, remain, &sub));
    if (mask == 0) {
        /* none kept (MPICH's cartsuball): only the grid's rank 0 gets a communicator, of
         * itself, 0-dimensional; every other rank MPI_COMM_NULL */
        if (me != 0) {
            if (sub != MPI_COMM_NULL) {
                FAIL("Cart_sub keeping nothing gave rank %d a communicator", me);
                CHECK(MPI_Comm_free(&sub));
            }
            return;
        }
        if (sub == MPI_COMM_NULL) {
            FAIL("Cart_sub keeping nothing gave rank 0 MPI_COMM_NULL");
            return;
        }
    }
    if (sub == MPI_COMM_NULL) {
        FAIL("Cart_sub mask %d gave MPI_COMM_NULL", mask);
        return;
    }
    /* serial reference: kept dims in order; my rank is the row-major index of my kept coords */
    int kd = 0, kdims[3], kper[3], kc[3], want_size = 1, want_rank = 0;
    for (int i = 0; i < nd; i++)
        if (remain[i]) {
            kdims[kd] = dims[i], kper[kd] = periods[i], kc[kd] = c[i];
            want_size *= dims[i];
            want_rank = want_rank * dims[i] + c[i];
            kd++;
        }
    int x = -1, gd[3], gp[3], gc[3];
    CHECK(MPI_Comm_size(sub, &x));
    EXPECT_INT(x, want_size);
    CHECK(MPI_Comm_rank(sub, &x));
    EXPECT_INT(x, want_rank);
    CHECK(MPI_Topo_test(sub, &x));
    EXPECT_INT(x, MPI_CART);
    CHECK(MPI_Cartdim_get(sub, &x));
    EXPECT_INT(x, kd);
    CHECK(MPI_Cart_get(sub, 3, gd, gp, gc));
    for (int i = 0; i < kd; i++) {
        EXPECT_INT(gd[i], kdims[i]);
        EXPECT_INT(gp[i], kper[i]);
        EXPECT_INT(gc[i], kc[i]);
    }
    /* members: the ranks of cart that share my dropped coordinates, in row-major order */
    MPI_Group gs, gcart;
    CHECK(MPI_Comm_group(sub, &gs));
    CHECK(MPI_Comm_group(cart, &gcart));
    int idx[64], tr[64], k = 0;
    for (int i = 0; i < want_size; i++)
        idx[i] = i;
    CHECK(MPI_Group_translate_ranks(gs, want_size, idx, gcart, tr));
    int csize = 1;
    for (int i = 0; i < nd; i++)
        csize *= dims[i];
    for (int r = 0; r < csize; r++) {
        int rc[3], same = 1;
        coords_of(dims, nd, r, rc);
        for (int i = 0; i < nd; i++)
            if (!remain[i] && rc[i] != c[i])
                same = 0;
        if (same) {
            if (k >= want_size || tr[k] != r)
                FAIL("Cart_sub mask %d: member %d is %d, expected %d", mask, k,
                     k < want_size ? tr[k] : -1, r);
            k++;
        }
    }
    EXPECT_INT(k, want_size);
    CHECK(MPI_Group_free(&gs));
    CHECK(MPI_Group_free(&gcart));
    /* a neighbourhood allgather on the sub-grid: the neighbours' sub ranks */
    if (kd > 0) {
        int mine = want_rank, got[6], src, dst;
        for (int i = 0; i < 6; i++)
            got[i] = -5;
        CHECK(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, sub));
        for (int d = 0; d < kd; d++) {
            CHECK(MPI_Cart_shift(sub, d, 1, &src, &dst));
            EXPECT_INT(got[2 * d], src == MPI_PROC_NULL ? -5 : src);
            EXPECT_INT(got[2 * d + 1], dst == MPI_PROC_NULL ? -5 : dst);
        }
    }
    CHECK(MPI_Comm_free(&sub));
}

static void t_cart(int rank, int size)
{
    /* two grids: all ranks in 3 dimensions, and size-1 ranks (one left out) */
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? size - 1 : size;
        if (n < 1)
            continue;
        int dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1}, x = -9;
        CHECK(MPI_Dims_create(n, 3, dims));
        CHECK(MPI_Cart_map(MPI_COMM_WORLD, 3, dims, periods, &x));
        EXPECT_INT(x, rank < n ? rank : MPI_UNDEFINED);
        MPI_Comm cart = MPI_COMM_NULL;
        CHECK(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart));
        if (rank >= n) {
            if (cart != MPI_COMM_NULL)
                FAIL("rank outside the grid got a communicator");
            continue;
        }
        for (int mask = 0; mask < 8; mask++)
            check_sub(cart, dims, periods, 3, rank, mask);
        /* a sub-grid of a duplicate, and of a sub-grid */
        MPI_Comm d, s1, s2;
        int keep01[3] = {1, 1, 0}, keep1[2] = {0, 1};
        CHECK(MPI_Comm_dup(cart, &d));
        CHECK(MPI_Cart_sub(d, keep01, &s1));
        CHECK(MPI_Cart_sub(s1, keep1, &s2));
        CHECK(MPI_Comm_size(s2, &x));
        EXPECT_INT(x, dims[1]);
        CHECK(MPI_Comm_rank(s2, &x));
        int c[3];
        coords_of(dims, 3, rank, c);
        EXPECT_INT(x, c[1]);
        CHECK(MPI_Comm_free(&s2));
        CHECK(MPI_Comm_free(&s1));
        CHECK(MPI_Comm_free(&d));
        MPI_Comm bad = MPI_COMM_NULL;
        expect_class("Cart_sub no remain_dims", MPI_Cart_sub(cart, NULL, &bad), MPI_ERR_ARG);
        expect_class("Cart_sub no newcomm", MPI_Cart_sub(cart, keep01, NULL), MPI_ERR_ARG);
        CHECK(MPI_Comm_free(&cart));
    }
    int remain[1] = {1}, x, dims[2] = {size, 2}, periods[2] = {0, 0};
    MPI_Comm bad = MPI_COMM_NULL;
    expect_class("Cart_sub of world", MPI_Cart_sub(MPI_COMM_WORLD, remain, &bad),
                 MPI_ERR_TOPOLOGY);
    expect_class("Cart_sub of null", MPI_Cart_sub(MPI_COMM_NULL, remain, &bad), MPI_ERR_COMM);
    expect_class("Cart_map larger than comm",
                 MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &x), MPI_ERR_DIMS);
    dims[1] = -1;
    expect_class("Cart_map negative dim", MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &x),
                 MPI_ERR_DIMS);
    expect_class("Cart_map negative ndims",
                 MPI_Cart_map(MPI_COMM_WORLD, -1, dims, periods, &x), MPI_ERR_DIMS);
    expect_class("Cart_map no newrank", MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, NULL),
                 MPI_ERR_ARG);
    if (bad != MPI_COMM_NULL)
        FAIL("a failed Cart_sub set its communicator");
    /* Cart_map of a 0-dimensional grid: one process */
    CHECK(MPI_Cart_map(MPI_COMM_WORLD, 0, dims, periods, &x));
    EXPECT_INT(x, rank == 0 ? 0 : MPI_UNDEFINED);
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60), rank = mc_rank;
    if (size > 64)
        FAIL("size %d above 64", size);
    else
        t_cart(rank, size);
    MPI_Finalize();
    return mc_done("mpi_topo_cart");
}
