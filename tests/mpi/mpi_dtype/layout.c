/* layout.c — mpi_dtype's distributed layouts: subarray in C and Fortran order and darray with
 * block, cyclic and none, each against a typemap enumerated by hand (a darray gathered
 * piecewise rebuilds the array). */
#include "mpi_dtype.h"

/* The subarray of an int array with sizes sz, subsizes sub at st, enumerated by hand. */
static int subarray_ref(int nd, const int *sz, const int *sub, const int *st, int order,
                        int *want)
{
    int n = 0, total = 1;
    for (int d = 0; d < nd; d++)
        total *= sz[d];
    for (int lin = 0; lin < total; lin++) {
        /* lin enumerates the whole array in memory order; keep the points inside */
        int rest = lin, inside = 1;
        for (int k = 0; k < nd; k++) {
            int d = order == MPI_ORDER_C ? nd - 1 - k : k;
            int i = rest % sz[d];
            rest /= sz[d];
            if (i < st[d] || i >= st[d] + sub[d])
                inside = 0;
        }
        if (inside)
            want[n++] = lin;
    }
    return n;
}

void t_subarray(int rank, int size)
{
    static int out[BIG], want[BIG];
    const int sz[3] = {4, 5, 6}, sub[3] = {2, 3, 2}, st[3] = {1, 1, 3};
    for (int o = 0; o < 2; o++) {
        int order = o ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        const char *what = o ? "subarray Fortran" : "subarray C";
        MPI_Datatype t;
        CHECK(MPI_Type_create_subarray(3, sz, sub, st, order, MPI_INT, &t));
        CHECK(MPI_Type_commit(&t));
        int n = subarray_ref(3, sz, sub, st, order, want);
        EXPECT_INT(n, 12);
        expect_ints(what, out, pack_idx(t, 1, idx, out, BIG), want, n);
        expect_bounds(what, t, 0, 120 * 4, want[0] * 4, (want[n - 1] - want[0] + 1) * 4, 48);
        /* two: the second over the next whole array */
        for (int i = 0; i < n; i++)
            want[n + i] = want[i] + 120;
        expect_ints(what, out, pack_idx(t, 2, idx, out, BIG), want, 2 * n);
        CHECK(MPI_Type_free(&t));
    }
    /* a 1-d subarray of doubles, all of it, and an empty one */
    MPI_Datatype t;
    int one = 10, zero = 0, s3 = 3;
    CHECK(MPI_Type_create_subarray(1, &one, &one, &zero, MPI_ORDER_C, MPI_DOUBLE, &t));
    CHECK(MPI_Type_commit(&t));
    expect_bounds("subarray whole", t, 0, 80, 0, 80, 80);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_create_subarray(1, &one, &zero, &s3, MPI_ORDER_C, MPI_DOUBLE, &t));
    CHECK(MPI_Type_commit(&t));
    expect_bounds("subarray empty", t, 0, 80, 0, 0, 0);
    CHECK(MPI_Type_free(&t));

    /* MPICH subarray-pack: a 2-d block of rank's array into another place of the next rank's:
     * what was not received keeps its value */
    enum { X = 9, Y = 11 };
    int a[X * Y], b[X * Y];
    for (int i = 0; i < X * Y; i++)
        a[i] = rank * 1000 + i, b[i] = -1;
    int gs[2] = {X, Y}, ss[2] = {3, 4}, s0[2] = {rank % 3, (rank + 1) % 5};
    int s1[2] = {(rank + 2) % 6, rank % 7};
    int prev = (rank + size - 1) % size, next = (rank + 1) % size;
    int p0[2] = {prev % 3, (prev + 1) % 5};
    MPI_Datatype ts, tr;
    CHECK(MPI_Type_create_subarray(2, gs, ss, s0, MPI_ORDER_C, MPI_INT, &ts));
    CHECK(MPI_Type_create_subarray(2, gs, ss, s1, MPI_ORDER_C, MPI_INT, &tr));
    CHECK(MPI_Type_commit(&ts));
    CHECK(MPI_Type_commit(&tr));
    MPI_Status stt;
    CHECK(MPI_Sendrecv(a, 1, ts, next, 5, b, 1, tr, prev, 5, MPI_COMM_WORLD, &stt));
    int cnt = -1;
    CHECK(MPI_Get_count(&stt, tr, &cnt));
    EXPECT_INT(cnt, 1);
    CHECK(MPI_Get_elements(&stt, tr, &cnt));
    EXPECT_INT(cnt, 12);
    for (int i = 0; i < X; i++)
        for (int j = 0; j < Y; j++) {
            int in = i >= s1[0] && i < s1[0] + 3 && j >= s1[1] && j < s1[1] + 4;
            int w = in ? prev * 1000 + (i - s1[0] + p0[0]) * Y + (j - s1[1] + p0[1]) : -1;
            if (b[i * Y + j] != w) {
                FAIL("subarray sendrecv: b[%d][%d] is %d, expected %d", i, j, b[i * Y + j], w);
                i = X;
                break;
            }
        }
    CHECK(MPI_Type_free(&ts));
    CHECK(MPI_Type_free(&tr));
}

/* Which process coordinate owns index i of a dimension of g over p (darray's rules). */
static int owner(int i, int g, int distrib, int darg, int p)
{
    if (distrib == MPI_DISTRIBUTE_NONE)
        return 0;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return i / b;
    }
    int k = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (i / k) % p;
}

/* The darray of rank, enumerated by hand: the points of the array the rank owns, in the
 * array's memory order (which is the order of its local array). */
static int darray_ref(int rank, int nd, const int *gs, const int *dist, const int *darg,
                      const int *ps, int order, int *want)
{
    int coord[4], total = 1, n = 0;
    for (int d = nd - 1, r = rank; d >= 0; d--) {
        coord[d] = r % ps[d];
        r /= ps[d];
    }
    for (int d = 0; d < nd; d++)
        total *= gs[d];
    for (int lin = 0; lin < total; lin++) {
        int rest = lin, mine = 1;
        for (int k = 0; k < nd; k++) {
            int d = order == MPI_ORDER_C ? nd - 1 - k : k;
            int i = rest % gs[d];
            rest /= gs[d];
            if (owner(i, gs[d], dist[d], darg[d], ps[d]) != coord[d])
                mine = 0;
        }
        if (mine)
            want[n++] = lin;
    }
    return n;
}

typedef struct darray_case {
    int nd, gs[3], dist[3], darg[3], ps[3], order;
} darray_case_t;

void t_darray(int rank, int size)
{
    static int out[BIG], want[BIG], seen[BIG];
    const int B = MPI_DISTRIBUTE_BLOCK, Cy = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE,
              D = MPI_DISTRIBUTE_DFLT_DARG, Cc = MPI_ORDER_C, F = MPI_ORDER_FORTRAN;
    int p0 = size % 2 == 0 ? 2 : 1, p1 = size / p0;
    darray_case_t cases[] = {
        {2, {7, 10}, {B, B}, {D, D}, {p0, p1}, Cc},
        {2, {7, 10}, {Cy, Cy}, {D, 2}, {p0, p1}, Cc},
        {2, {7, 10}, {B, Cy}, {p0 == 2 ? 4 : 7, 3}, {p0, p1}, F},
        {3, {5, 6, 4}, {N, Cy, B}, {D, 1, D}, {1, p1, p0}, Cc},
        {3, {5, 6, 4}, {Cy, N, B}, {2, D, D}, {p0, 1, p1}, F},
        {1, {13}, {Cy}, {3}, {size}, Cc},
        {1, {13}, {B}, {D}, {size}, F},
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        darray_case_t *k = &cases[c];
        char what[64];
        int total = 1;
        for (int d = 0; d < k->nd; d++)
            total *= k->gs[d];
        memset(seen, 0, sizeof seen);
        /* every rank's type (a local object): exact typemap, bounds, a partition */
        for (int r = 0; r < size; r++) {
            snprintf(what, sizeof what, "darray case %u rank %d of %d", c, r, size);
            MPI_Datatype t;
            CHECK(MPI_Type_create_darray(size, r, k->nd, k->gs, k->dist, k->darg, k->ps,
                                         k->order, MPI_INT, &t));
            CHECK(MPI_Type_commit(&t));
            int n = darray_ref(r, k->nd, k->gs, k->dist, k->darg, k->ps, k->order, want);
            expect_ints(what, out, pack_idx(t, 1, idx, out, BIG), want, n);
            MPI_Aint tl = n ? want[0] * 4 : 0, te = n ? (want[n - 1] - want[0] + 1) * 4 : 0;
            expect_bounds(what, t, 0, total * 4, tl, te, n * 4);
            for (int i = 0; i < n; i++)
                seen[want[i]]++;
            if (r == rank)
                expect_envelope(what, t, MPI_COMBINER_DARRAY, 4 * k->nd + 4, 0, 1);
            CHECK(MPI_Type_free(&t));
        }
        for (int i = 0; i < total; i++)
            if (seen[i] != 1) {
                FAIL("darray case %u: point %d is in %d ranks' parts", c, i, seen[i]);
                break;
            }
        /* MPICH darray-pack: each rank sends its part of the global array to rank 0, which
         * receives every part through that rank's darray type: the whole array again */
        double g[BIG], whole[BIG];
        for (int i = 0; i < total; i++)
            g[i] = 0.5 * i + 7, whole[i] = -1;
        MPI_Datatype mine;
        CHECK(MPI_Type_create_darray(size, rank, k->nd, k->gs, k->dist, k->darg, k->ps,
                                     k->order, MPI_DOUBLE, &mine));
        CHECK(MPI_Type_commit(&mine));
        MPI_Request rq;
        CHECK(MPI_Isend(g, 1, mine, 0, 40 + (int)c, MPI_COMM_WORLD, &rq));
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                MPI_Datatype tr;
                CHECK(MPI_Type_create_darray(size, r, k->nd, k->gs, k->dist, k->darg, k->ps,
                                             k->order, MPI_DOUBLE, &tr));
                CHECK(MPI_Type_commit(&tr));
                CHECK(MPI_Recv(whole, 1, tr, r, 40 + (int)c, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK(MPI_Type_free(&tr));
            }
            for (int i = 0; i < total; i++)
                if (whole[i] != g[i]) {
                    FAIL("darray case %u gathered: [%d] is %g, expected %g", c, i, whole[i],
                         g[i]);
                    break;
                }
        }
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(MPI_Type_free(&mine));
    }
}
