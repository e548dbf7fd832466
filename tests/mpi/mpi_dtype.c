/* mpi_dtype.c — the type constructors of MPI-2/3 (hvector, indexed_block, hindexed_block,
 * subarray in C and Fortran order, darray with block, cyclic and none, dup), decoding
 * (Type_get_envelope / Type_get_contents for every combiner, old types freed before the
 * decoding), true extents, the _x queries, the deprecated MPI-1 names, and Get_elements on
 * partial messages, in the manner of MPICH's test/mpi/datatype: the exact order of the data
 * (MPI_Pack of an int array whose values are their indices, against a typemap enumerated by
 * hand), bounds, sends between ranks (a darray gathered piecewise rebuilds the array), and the
 * error class of every invalid argument. */
#include <stddef.h>
#include <stdint.h>

#include "mpicheck.h"

enum { BIG = 4096 };
static int idx[BIG]; /* idx[i] = i: packing it lists the typemap's int offsets */

/* The ints count elements of t select from idx, in typemap order (MPI_Pack). */
static int pack_idx(MPI_Datatype t, int count, const int *base, int *out, int max)
{
    int pos = 0, size = 0;
    CHECK(MPI_Pack_size(count, t, MPI_COMM_WORLD, &size));
    if (size > max * (int)sizeof(int)) {
        FAIL("pack_idx: %d bytes do not fit", size);
        return 0;
    }
    CHECK(MPI_Pack(base, count, t, out, max * (int)sizeof(int), &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, size);
    return pos / (int)sizeof(int);
}

static void expect_ints(const char *what, const int *got, int n, const int *want, int nwant)
{
    if (n != nwant) {
        FAIL("%s: %d ints, expected %d", what, n, nwant);
        return;
    }
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            FAIL("%s: int %d is %d, expected %d", what, i, got[i], want[i]);
            return;
        }
}

static void expect_bounds(const char *what, MPI_Datatype t, MPI_Aint lb, MPI_Aint ext,
                          MPI_Aint tlb, MPI_Aint text, int size)
{
    MPI_Aint a = -7, b = -7;
    int sz = -7;
    CHECK(MPI_Type_get_extent(t, &a, &b));
    if (a != lb || b != ext)
        FAIL("%s: lb, extent %ld, %ld; expected %ld, %ld", what, (long)a, (long)b, (long)lb,
             (long)ext);
    CHECK(MPI_Type_get_true_extent(t, &a, &b));
    if (a != tlb || b != text)
        FAIL("%s: true lb, extent %ld, %ld; expected %ld, %ld", what, (long)a, (long)b,
             (long)tlb, (long)text);
    CHECK(MPI_Type_size(t, &sz));
    if (sz != size)
        FAIL("%s: size %d, expected %d", what, sz, size);
    MPI_Count c1 = -7, c2 = -7;
    CHECK(MPI_Type_size_x(t, &c1));
    EXPECT_INT(c1, size);
    CHECK(MPI_Type_get_extent_x(t, &c1, &c2));
    if (c1 != lb || c2 != ext)
        FAIL("%s: extent_x %lld, %lld", what, c1, c2);
    CHECK(MPI_Type_get_true_extent_x(t, &c1, &c2));
    if (c1 != tlb || c2 != text)
        FAIL("%s: true_extent_x %lld, %lld", what, c1, c2);
}

/* The envelope of t: combiner and counts. */
static void expect_envelope(const char *what, MPI_Datatype t, int comb, int ni, int na, int nd)
{
    int i = -1, a = -1, d = -1, c = -1;
    CHECK(MPI_Type_get_envelope(t, &i, &a, &d, &c));
    if (c != comb || i != ni || a != na || d != nd)
        FAIL("%s: envelope (%d; %d, %d, %d), expected (%d; %d, %d, %d)", what, c, i, a, d, comb,
             ni, na, nd);
}

/* ---- constructors: typemaps and bounds ---------------------------------------------------- */

static void t_hvector(void)
{
    int out[BIG], want[64], n = 0;
    MPI_Datatype t;
    /* stride a multiple of the extent: 3 blocks of 2 ints, 5 ints apart */
    CHECK(MPI_Type_create_hvector(3, 2, 5 * sizeof(int), MPI_INT, &t));
    CHECK(MPI_Type_commit(&t));
    for (int b = 0; b < 3; b++)
        for (int j = 0; j < 2; j++)
            want[n++] = 5 * b + j;
    expect_ints("hvector(3,2,20B)", out, pack_idx(t, 1, idx, out, BIG), want, n);
    expect_bounds("hvector(3,2,20B)", t, 0, 12 * 4, 0, 12 * 4, 24);
    /* two elements: the second starts one extent (48 bytes) on */
    n = 0;
    for (int e = 0; e < 2; e++)
        for (int b = 0; b < 3; b++)
            for (int j = 0; j < 2; j++)
                want[n++] = 12 * e + 5 * b + j;
    expect_ints("hvector x2", out, pack_idx(t, 2, idx, out, BIG), want, n);
    CHECK(MPI_Type_free(&t));

    /* a stride that is no multiple: shorts 7 bytes apart, in a byte buffer */
    unsigned char raw[64], packed[64];
    for (int i = 0; i < 64; i++)
        raw[i] = (unsigned char)i;
    CHECK(MPI_Type_create_hvector(3, 2, 7, MPI_SHORT, &t));
    CHECK(MPI_Type_commit(&t));
    int pos = 0;
    CHECK(MPI_Pack(raw, 1, t, packed, sizeof packed, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, 12);
    for (int b = 0, k = 0; b < 3; b++)
        for (int j = 0; j < 4; j++, k++)
            if (packed[k] != 7 * b + j)
                FAIL("hvector(3,2,7B) of shorts: packed byte %d is %d, expected %d", k,
                     packed[k], 7 * b + j);
    expect_bounds("hvector(3,2,7B)", t, 0, 18, 0, 18, 12);
    CHECK(MPI_Type_free(&t));

    /* a negative stride: the blocks go down from the origin, in block order */
    double d[8] = {0, 1, 2, 3, 4, 5, 6, 7}, got[3];
    CHECK(MPI_Type_create_hvector(3, 1, -2 * (MPI_Aint)sizeof(double), MPI_DOUBLE, &t));
    CHECK(MPI_Type_commit(&t));
    pos = 0;
    CHECK(MPI_Pack(&d[6], 1, t, got, sizeof got, &pos, MPI_COMM_WORLD));
    if (got[0] != 6 || got[1] != 4 || got[2] != 2)
        FAIL("hvector with stride -16: packed %g %g %g, expected 6 4 2", got[0], got[1], got[2]);
    expect_bounds("hvector(3,1,-16B)", t, -32, 40, -32, 40, 24);
    CHECK(MPI_Type_free(&t));

    /* transpose (MPICH transpose-pack): columns of a rows x cols matrix, one after the other */
    enum { R = 5, C = 7 };
    int m[R * C], tr[R * C];
    for (int i = 0; i < R * C; i++)
        m[i] = 1000 + i;
    MPI_Datatype col, trans;
    CHECK(MPI_Type_vector(R, 1, C, MPI_INT, &col));
    CHECK(MPI_Type_create_hvector(C, 1, sizeof(int), col, &trans));
    CHECK(MPI_Type_commit(&trans));
    pos = 0;
    CHECK(MPI_Pack(m, 1, trans, tr, sizeof tr, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, (int)sizeof tr);
    for (int j = 0; j < C; j++)
        for (int i = 0; i < R; i++)
            if (tr[j * R + i] != m[i * C + j]) {
                FAIL("transpose: [%d][%d] is %d, expected %d", j, i, tr[j * R + i], m[i * C + j]);
                j = C;
                break;
            }
    /* and back: unpacking the transpose into zeros gives the matrix */
    int back[R * C];
    memset(back, 0, sizeof back);
    pos = 0;
    CHECK(MPI_Unpack(tr, sizeof tr, &pos, back, 1, trans, MPI_COMM_WORLD));
    if (memcmp(back, m, sizeof m))
        FAIL("transpose: unpacking the transpose does not give the matrix back");
    CHECK(MPI_Type_free(&col));
    CHECK(MPI_Type_free(&trans));
}

static void t_indexed_block(void)
{
    int out[BIG];
    MPI_Datatype t;
    int displs[3] = {4, 0, 9};
    CHECK(MPI_Type_create_indexed_block(3, 2, displs, MPI_INT, &t));
    CHECK(MPI_Type_commit(&t));
    int want[] = {4, 5, 0, 1, 9, 10};
    expect_ints("indexed_block", out, pack_idx(t, 1, idx, out, BIG), want, 6);
    expect_bounds("indexed_block", t, 0, 44, 0, 44, 24);
    /* two elements: the second one extent (44 bytes, 11 ints) on */
    int want2[] = {4, 5, 0, 1, 9, 10, 15, 16, 11, 12, 20, 21};
    expect_ints("indexed_block x2", out, pack_idx(t, 2, idx, out, BIG), want2, 12);
    CHECK(MPI_Type_free(&t));

    MPI_Aint hd[3] = {16, 0, 40};
    CHECK(MPI_Type_create_hindexed_block(3, 3, hd, MPI_INT, &t));
    CHECK(MPI_Type_commit(&t));
    int want3[] = {4, 5, 6, 0, 1, 2, 10, 11, 12};
    expect_ints("hindexed_block", out, pack_idx(t, 1, idx, out, BIG), want3, 9);
    expect_bounds("hindexed_block", t, 0, 52, 0, 52, 36);
    CHECK(MPI_Type_free(&t));

    /* hindexed_block over a vector: blocks of 2 vectors (each 2 ints 3 apart) */
    MPI_Datatype v;
    CHECK(MPI_Type_vector(2, 1, 3, MPI_INT, &v)); /* ints 0, 3; extent 16 */
    MPI_Aint hd2[2] = {40, 0};
    CHECK(MPI_Type_create_hindexed_block(2, 2, hd2, v, &t));
    CHECK(MPI_Type_commit(&t));
    int want4[] = {10, 13, 14, 17, 0, 3, 4, 7};
    expect_ints("hindexed_block of vectors", out, pack_idx(t, 1, idx, out, BIG), want4, 8);
    CHECK(MPI_Type_free(&v));
    CHECK(MPI_Type_free(&t));

    /* zero blocks: an empty type */
    CHECK(MPI_Type_create_indexed_block(0, 2, NULL, MPI_INT, &t));
    CHECK(MPI_Type_commit(&t));
    expect_bounds("indexed_block(0)", t, 0, 0, 0, 0, 0);
    expect_envelope("indexed_block(0)", t, MPI_COMBINER_INDEXED_BLOCK, 2, 0, 1);
    CHECK(MPI_Type_free(&t));
}

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

static void t_subarray(int rank, int size)
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

static void t_darray(int rank, int size)
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

static void t_dup(void)
{
    MPI_Datatype v, d, dd;
    CHECK(MPI_Type_vector(3, 2, 4, MPI_INT, &v));
    CHECK(MPI_Type_commit(&v));
    CHECK(MPI_Type_dup(v, &d)); /* committed, as v is */
    int out[64], want[] = {0, 1, 4, 5, 8, 9};
    expect_ints("dup", out, pack_idx(d, 1, idx, out, 64), want, 6);
    expect_bounds("dup", d, 0, 40, 0, 40, 24);
    expect_envelope("dup", d, MPI_COMBINER_DUP, 0, 0, 1);
    MPI_Datatype got = MPI_DATATYPE_NULL;
    CHECK(MPI_Type_get_contents(d, 0, 0, 1, NULL, NULL, &got));
    expect_envelope("dup's old type", got, MPI_COMBINER_VECTOR, 3, 0, 1);
    int ints[3] = {0};
    MPI_Datatype inner = MPI_DATATYPE_NULL;
    CHECK(MPI_Type_get_contents(got, 3, 0, 1, ints, NULL, &inner));
    if (ints[0] != 3 || ints[1] != 2 || ints[2] != 4 || inner != MPI_INT)
        FAIL("dup's vector: contents (%d, %d, %d; %d)", ints[0], ints[1], ints[2], (int)inner);
    if (got != v && got != MPI_DATATYPE_NULL)
        CHECK(MPI_Type_free(&got));
    /* a dup of an uncommitted type is uncommitted; of a builtin, a derived type */
    MPI_Datatype u;
    CHECK(MPI_Type_contiguous(2, MPI_INT, &u));
    CHECK(MPI_Type_dup(u, &dd));
    int pos = 0, rc = MPI_Pack(idx, 1, dd, out, sizeof out, &pos, MPI_COMM_WORLD);
    EXPECT_INT(rc, MPI_ERR_TYPE);
    CHECK(MPI_Type_free(&dd));
    CHECK(MPI_Type_free(&u));
    CHECK(MPI_Type_dup(MPI_DOUBLE, &dd));
    expect_envelope("dup of MPI_DOUBLE", dd, MPI_COMBINER_DUP, 0, 0, 1);
    expect_bounds("dup of MPI_DOUBLE", dd, 0, 8, 0, 8, 8);
    CHECK(MPI_Type_get_contents(dd, 0, 0, 1, NULL, NULL, &got));
    EXPECT_INT(got, MPI_DOUBLE); /* builtins come back as they are */
    CHECK(MPI_Type_free(&dd));
    CHECK(MPI_Type_free(&v));
    /* the dup works after its old type was freed */
    int vals[40];
    memset(vals, 0, sizeof vals);
    pos = 0;
    int src[6] = {10, 11, 12, 13, 14, 15};
    CHECK(MPI_Unpack(src, sizeof src, &pos, vals, 1, d, MPI_COMM_WORLD));
    if (vals[0] != 10 || vals[1] != 11 || vals[2] != 0 || vals[4] != 12 || vals[9] != 15)
        FAIL("dup after its old type was freed: unpacked %d %d %d %d %d", vals[0], vals[1],
             vals[2], vals[4], vals[9]);
    CHECK(MPI_Type_free(&d));
}

/* ---- decoding ------------------------------------------------------------------------------ */

/* The contents of t must be exactly these; derived types returned are checked for their
 * combiner (wantcomb[i], or NAMED with the handle wantt[i]) and freed. */
static void expect_contents(const char *what, MPI_Datatype t, int comb, int ni, const int *wi,
                            int na, const MPI_Aint *wa, int nd, const MPI_Datatype *wt,
                            const int *wantcomb)
{
    int gi[64];
    MPI_Aint ga[64];
    MPI_Datatype gt[16];
    expect_envelope(what, t, comb, ni, na, nd);
    CHECK(MPI_Type_get_contents(t, 64, 64, 16, gi, ga, gt));
    for (int i = 0; i < ni; i++)
        if (gi[i] != wi[i]) {
            FAIL("%s: integer %d is %d, expected %d", what, i, gi[i], wi[i]);
            break;
        }
    for (int i = 0; i < na; i++)
        if (ga[i] != wa[i]) {
            FAIL("%s: address %d is %ld, expected %ld", what, i, (long)ga[i], (long)wa[i]);
            break;
        }
    for (int i = 0; i < nd; i++) {
        if (wantcomb && wantcomb[i] != MPI_COMBINER_NAMED) {
            int a, b, c, k;
            CHECK(MPI_Type_get_envelope(gt[i], &a, &b, &c, &k));
            if (k != wantcomb[i])
                FAIL("%s: datatype %d has combiner %d, expected %d", what, i, k, wantcomb[i]);
            CHECK(MPI_Type_free(&gt[i]));
        } else if (gt[i] != wt[i]) {
            FAIL("%s: datatype %d is %d, expected %d", what, i, (int)gt[i], (int)wt[i]);
        }
    }
}

static void t_contents(void)
{
    /* every combiner constant distinct */
    int combs[] = {MPI_COMBINER_NAMED,         MPI_COMBINER_DUP,
                   MPI_COMBINER_CONTIGUOUS,    MPI_COMBINER_VECTOR,
                   MPI_COMBINER_HVECTOR,       MPI_COMBINER_INDEXED,
                   MPI_COMBINER_HINDEXED,      MPI_COMBINER_INDEXED_BLOCK,
                   MPI_COMBINER_HINDEXED_BLOCK, MPI_COMBINER_STRUCT,
                   MPI_COMBINER_SUBARRAY,      MPI_COMBINER_DARRAY,
                   MPI_COMBINER_RESIZED,       MPI_COMBINER_F90_REAL,
                   MPI_COMBINER_F90_COMPLEX,   MPI_COMBINER_F90_INTEGER,
                   MPI_COMBINER_HVECTOR_INTEGER, MPI_COMBINER_HINDEXED_INTEGER,
                   MPI_COMBINER_STRUCT_INTEGER};
    int nc = (int)(sizeof combs / sizeof combs[0]);
    for (int i = 0; i < nc; i++)
        for (int j = i + 1; j < nc; j++)
            if (combs[i] == combs[j])
                FAIL("combiners %d and %d have the same value %d", i, j, combs[i]);

    MPI_Datatype t, inner;
    expect_envelope("MPI_INT", MPI_INT, MPI_COMBINER_NAMED, 0, 0, 0);
    expect_envelope("MPI_DOUBLE_INT", MPI_DOUBLE_INT, MPI_COMBINER_NAMED, 0, 0, 0);
    expect_envelope("MPI_PACKED", MPI_PACKED, MPI_COMBINER_NAMED, 0, 0, 0);
    int gi[4];
    MPI_Aint ga[4];
    MPI_Datatype gt[4];
    EXPECT_INT(MPI_Type_get_contents(MPI_INT, 4, 4, 4, gi, ga, gt), MPI_ERR_TYPE);

    CHECK(MPI_Type_contiguous(7, MPI_SHORT, &t));
    expect_contents("contiguous", t, MPI_COMBINER_CONTIGUOUS, 1, (int[]){7}, 0, NULL, 1,
                    (MPI_Datatype[]){MPI_SHORT}, NULL);
    CHECK(MPI_Type_free(&t));

    CHECK(MPI_Type_vector(3, 2, 5, MPI_FLOAT, &t));
    expect_contents("vector", t, MPI_COMBINER_VECTOR, 3, (int[]){3, 2, 5}, 0, NULL, 1,
                    (MPI_Datatype[]){MPI_FLOAT}, NULL);
    CHECK(MPI_Type_free(&t));

    CHECK(MPI_Type_create_hvector(4, 1, -24, MPI_DOUBLE, &t));
    expect_contents("hvector", t, MPI_COMBINER_HVECTOR, 2, (int[]){4, 1}, 1, (MPI_Aint[]){-24}, 1,
                    (MPI_Datatype[]){MPI_DOUBLE}, NULL);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_create_hvector(4, 2, 16, MPI_INT, &t)); /* built as a vector: still HVECTOR */
    expect_contents("hvector (multiple)", t, MPI_COMBINER_HVECTOR, 2, (int[]){4, 2}, 1,
                    (MPI_Aint[]){16}, 1, (MPI_Datatype[]){MPI_INT}, NULL);
    CHECK(MPI_Type_free(&t));

    int bl[3] = {1, 3, 2}, di[3] = {9, 2, 5};
    CHECK(MPI_Type_indexed(3, bl, di, MPI_INT, &t));
    expect_contents("indexed", t, MPI_COMBINER_INDEXED, 7, (int[]){3, 1, 3, 2, 9, 2, 5}, 0, NULL,
                    1, (MPI_Datatype[]){MPI_INT}, NULL);
    CHECK(MPI_Type_free(&t));

    MPI_Aint ha[3] = {100, -8, 0};
    CHECK(MPI_Type_create_hindexed(3, bl, ha, MPI_CHAR, &t));
    expect_contents("hindexed", t, MPI_COMBINER_HINDEXED, 4, (int[]){3, 1, 3, 2}, 3, ha, 1,
                    (MPI_Datatype[]){MPI_CHAR}, NULL);
    CHECK(MPI_Type_free(&t));

    CHECK(MPI_Type_create_indexed_block(3, 4, di, MPI_BYTE, &t));
    expect_contents("indexed_block", t, MPI_COMBINER_INDEXED_BLOCK, 5, (int[]){3, 4, 9, 2, 5}, 0,
                    NULL, 1, (MPI_Datatype[]){MPI_BYTE}, NULL);
    CHECK(MPI_Type_free(&t));

    CHECK(MPI_Type_create_hindexed_block(3, 4, ha, MPI_BYTE, &t));
    expect_contents("hindexed_block", t, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){3, 4}, 3, ha, 1,
                    (MPI_Datatype[]){MPI_BYTE}, NULL);
    CHECK(MPI_Type_free(&t));

    int sz[2] = {6, 8}, sub[2] = {2, 3}, st[2] = {4, 5};
    CHECK(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
    expect_contents("subarray", t, MPI_COMBINER_SUBARRAY, 8,
                    (int[]){2, 6, 8, 2, 3, 4, 5, MPI_ORDER_FORTRAN}, 0, NULL, 1,
                    (MPI_Datatype[]){MPI_DOUBLE}, NULL);
    CHECK(MPI_Type_free(&t));

    int gs[2] = {10, 12}, dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
    int darg[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {2, 3};
    CHECK(MPI_Type_create_darray(6, 4, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t));
    expect_contents("darray", t, MPI_COMBINER_DARRAY, 12,
                    (int[]){6, 4, 2, 10, 12, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK, 2,
                            MPI_DISTRIBUTE_DFLT_DARG, 2, 3, MPI_ORDER_C},
                    0, NULL, 1, (MPI_Datatype[]){MPI_INT}, NULL);
    CHECK(MPI_Type_free(&t));

    CHECK(MPI_Type_create_resized(MPI_INT, -4, 32, &t));
    expect_contents("resized", t, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){-4, 32}, 1,
                    (MPI_Datatype[]){MPI_INT}, NULL);
    CHECK(MPI_Type_free(&t));

    /* a struct over a builtin and a derived type, the derived one freed first (MPICH tfree,
     * contents): the struct still decodes, packs and sends */
    CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &inner)); /* ints 0, 2: extent 12 */
    int sl[2] = {1, 2};
    MPI_Aint sd[2] = {0, 16};
    MPI_Datatype sts[2] = {MPI_DOUBLE, inner};
    CHECK(MPI_Type_create_struct(2, sl, sd, sts, &t));
    CHECK(MPI_Type_free(&inner));
    CHECK(MPI_Type_commit(&t));
    expect_contents("struct", t, MPI_COMBINER_STRUCT, 3, (int[]){2, 1, 2}, 2, sd, 2,
                    (MPI_Datatype[]){MPI_DOUBLE, 0}, (int[]){MPI_COMBINER_NAMED,
                                                          MPI_COMBINER_VECTOR});
    /* the returned vector decodes further, and is a usable type */
    CHECK(MPI_Type_get_contents(t, 4, 4, 4, gi, ga, gt));
    expect_contents("struct's vector", gt[1], MPI_COMBINER_VECTOR, 3, (int[]){2, 1, 2}, 0, NULL,
                    1, (MPI_Datatype[]){MPI_INT}, NULL);
    CHECK(MPI_Type_commit(&gt[1]));
    int out[16];
    int want[] = {0, 2};
    expect_ints("struct's vector packs", out, pack_idx(gt[1], 1, idx, out, 16), want, 2);
    CHECK(MPI_Type_free(&gt[1]));
    struct {
        double d;
        int pad[2];
        int v[6];
    } s = {1.25, {0, 0}, {7, 8, 9, 10, 11, 12}};
    unsigned char packed[64];
    int pos = 0;
    CHECK(MPI_Pack(&s, 1, t, packed, sizeof packed, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, 8 + 4 * 4);
    int vi[4];
    double dv;
    memcpy(&dv, packed, 8);
    memcpy(vi, packed + 8, 16);
    /* the second vector element starts one extent (12 bytes, 3 ints) after the first */
    if (dv != 1.25 || vi[0] != 7 || vi[1] != 9 || vi[2] != 10 || vi[3] != 12)
        FAIL("struct after its member was freed: packed %g %d %d %d %d", dv, vi[0], vi[1],
             vi[2], vi[3]);
    CHECK(MPI_Type_free(&t));

    /* nested: a resized of a dup of a contiguous, decoded level by level */
    MPI_Datatype c, d, r;
    CHECK(MPI_Type_contiguous(3, MPI_INT, &c));
    CHECK(MPI_Type_dup(c, &d));
    CHECK(MPI_Type_create_resized(d, 0, 16, &r));
    CHECK(MPI_Type_free(&c));
    CHECK(MPI_Type_free(&d));
    MPI_Datatype l1, l2, l3;
    CHECK(MPI_Type_get_contents(r, 0, 2, 1, NULL, ga, &l1));
    expect_envelope("resized's old", l1, MPI_COMBINER_DUP, 0, 0, 1);
    CHECK(MPI_Type_get_contents(l1, 0, 0, 1, NULL, NULL, &l2));
    expect_envelope("dup's old", l2, MPI_COMBINER_CONTIGUOUS, 1, 0, 1);
    CHECK(MPI_Type_get_contents(l2, 1, 0, 1, gi, NULL, &l3));
    EXPECT_INT(gi[0], 3);
    EXPECT_INT(l3, MPI_INT);
    CHECK(MPI_Type_free(&l2));
    CHECK(MPI_Type_free(&l1));
    CHECK(MPI_Type_free(&r));

    /* MPI-1 names: their MPI-2 combiners */
    CHECK(MPI_Type_hvector(2, 3, 40, MPI_INT, &t));
    expect_envelope("MPI_Type_hvector", t, MPI_COMBINER_HVECTOR, 2, 1, 1);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_hindexed(3, bl, ha, MPI_INT, &t));
    expect_envelope("MPI_Type_hindexed", t, MPI_COMBINER_HINDEXED, 4, 3, 1);
    CHECK(MPI_Type_free(&t));
    MPI_Datatype two[2] = {MPI_INT, MPI_CHAR};
    CHECK(MPI_Type_struct(2, sl, sd, two, &t));
    expect_envelope("MPI_Type_struct", t, MPI_COMBINER_STRUCT, 3, 2, 2);
    CHECK(MPI_Type_free(&t));

    /* too short arrays */
    CHECK(MPI_Type_indexed(3, bl, di, MPI_INT, &t));
    EXPECT_INT(MPI_Type_get_contents(t, 6, 0, 1, gi, ga, gt), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_get_contents(t, 7, 0, 0, gi, ga, gt), MPI_ERR_ARG);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_create_hindexed(3, bl, ha, MPI_CHAR, &t));
    EXPECT_INT(MPI_Type_get_contents(t, 4, 2, 1, gi, ga, gt), MPI_ERR_ARG);
    CHECK(MPI_Type_free(&t));
}

/* True extent, MPI-1 bounds and addresses. */
static void t_bounds(void)
{
    MPI_Datatype t;
    CHECK(MPI_Type_create_resized(MPI_INT, -4, 16, &t));
    expect_bounds("resized(int,-4,16)", t, -4, 16, 0, 4, 4);
    MPI_Aint a = 0;
    CHECK(MPI_Type_extent(t, &a));
    EXPECT_INT(a, 16);
    CHECK(MPI_Type_lb(t, &a));
    EXPECT_INT(a, -4);
    CHECK(MPI_Type_ub(t, &a));
    EXPECT_INT(a, 12);
    CHECK(MPI_Type_free(&t));
    /* a vector of resized doubles: data reaching past the extent */
    MPI_Datatype r;
    CHECK(MPI_Type_create_resized(MPI_DOUBLE, 0, 4, &r));
    CHECK(MPI_Type_contiguous(3, r, &t));
    expect_bounds("contiguous(3, resized(double,0,4))", t, 0, 12, 0, 16, 24);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_free(&r));
    expect_bounds("MPI_SHORT_INT", MPI_SHORT_INT, 0, sizeof(struct { short s; int i; }), 0,
                  sizeof(struct { short s; int i; }), 6);
    /* MPICH lbub: bounds through types built on a type with a negative lower bound */
    CHECK(MPI_Type_create_resized(MPI_INT, -3, 9, &r));
    CHECK(MPI_Type_contiguous(4, r, &t));
    expect_bounds("contiguous(4, resized(int,-3,9))", t, -3, 36, 0, 31, 16);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_vector(2, 1, 3, r, &t));
    expect_bounds("vector(2,1,3, resized(int,-3,9))", t, -3, 36, 0, 31, 8);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_create_hvector(2, 1, -20, r, &t));
    expect_bounds("hvector(2,1,-20B, resized(int,-3,9))", t, -23, 29, -20, 24, 8);
    CHECK(MPI_Type_free(&t));
    MPI_Aint hd[2] = {40, 4};
    CHECK(MPI_Type_create_hindexed_block(2, 2, hd, r, &t));
    expect_bounds("hindexed_block(2,2,{40,4}, resized(int,-3,9))", t, 1, 54, 4, 49, 16);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_free(&r));
    /* large counts: a type of 2^34 bytes (no memory needed to ask) */
    MPI_Datatype k16, big;
    CHECK(MPI_Type_contiguous(1 << 12, MPI_INT, &k16));
    CHECK(MPI_Type_contiguous(1 << 20, k16, &big));
    int isz = 0;
    CHECK(MPI_Type_size(big, &isz));
    EXPECT_INT(isz, MPI_UNDEFINED);
    MPI_Count csz = 0, clb = -1, cext = 0;
    CHECK(MPI_Type_size_x(big, &csz));
    EXPECT_INT(csz, 1LL << 34);
    CHECK(MPI_Type_get_extent_x(big, &clb, &cext));
    EXPECT_INT(clb, 0);
    EXPECT_INT(cext, 1LL << 34);
    CHECK(MPI_Type_get_true_extent_x(big, &clb, &cext));
    EXPECT_INT(cext, 1LL << 34);
    CHECK(MPI_Type_free(&big));
    CHECK(MPI_Type_free(&k16));
    int x;
    MPI_Aint a1, a2;
    CHECK(MPI_Address(&x, &a1));
    CHECK(MPI_Get_address(&x, &a2));
    EXPECT_INT(a1, a2);
    EXPECT_INT(a1, (MPI_Aint)(intptr_t)&x);
    EXPECT_INT(MPI_Aint_add(a1, 8), a1 + 8);
    EXPECT_INT(MPI_Aint_diff(a1 + 24, a1), 24);
    /* MPI_LB and MPI_UB are gone in MPI-3: nothing else to check */
}

/* MPICH getpartelm, get-elements-pairtype: basic elements of a partial message. */
static void t_elements(void)
{
    /* T = {2 ints at 0, 1 double at 8}: 3 basic elements, 16 bytes */
    MPI_Datatype t;
    int bl[2] = {2, 1};
    MPI_Aint d[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    CHECK(MPI_Type_create_struct(2, bl, d, ty, &t));
    CHECK(MPI_Type_commit(&t));
    unsigned char bytes[64], in[64];
    memset(bytes, 1, sizeof bytes);
    struct {
        int n;
        int want_elems;
        int want_count;
    } cases[] = {{32, 6, 2}, {20, 4, MPI_UNDEFINED}, {24, 5, MPI_UNDEFINED},
                 {18, MPI_UNDEFINED, MPI_UNDEFINED}, {4, 1, MPI_UNDEFINED}, {0, 0, 0},
                 {16, 3, 1}, {2, MPI_UNDEFINED, MPI_UNDEFINED}};
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        MPI_Status st;
        CHECK(MPI_Sendrecv(bytes, cases[c].n, MPI_BYTE, 0, 3, in, 2, t, 0, 3, MPI_COMM_SELF,
                           &st));
        int n = -2;
        MPI_Count nx = -2;
        CHECK(MPI_Get_elements(&st, t, &n));
        CHECK(MPI_Get_elements_x(&st, t, &nx));
        if (n != cases[c].want_elems || nx != cases[c].want_elems)
            FAIL("get_elements of %d bytes: %d (x: %lld), expected %d", cases[c].n, n, nx,
                 cases[c].want_elems);
        int cnt = -2;
        CHECK(MPI_Get_count(&st, t, &cnt));
        EXPECT_INT(cnt, cases[c].want_count);
    }
    CHECK(MPI_Type_free(&t));

    /* a pair type inside a contiguous: 2 MPI_DOUBLE_INT are 4 elements; 1.5 of them 3 */
    MPI_Datatype c2;
    CHECK(MPI_Type_contiguous(2, MPI_DOUBLE_INT, &c2));
    CHECK(MPI_Type_commit(&c2));
    MPI_Status st;
    CHECK(MPI_Sendrecv(bytes, 20, MPI_BYTE, 0, 4, in, 1, c2, 0, 4, MPI_COMM_SELF, &st));
    int n = -2;
    CHECK(MPI_Get_elements(&st, c2, &n));
    EXPECT_INT(n, 3); /* 12 bytes: a double and an int; then 8: a double */
    CHECK(MPI_Type_free(&c2));

    /* a subarray, partially filled */
    int sz[2] = {4, 4}, sub[2] = {2, 3}, s0[2] = {1, 1};
    MPI_Datatype sa;
    CHECK(MPI_Type_create_subarray(2, sz, sub, s0, MPI_ORDER_C, MPI_INT, &sa));
    CHECK(MPI_Type_commit(&sa));
    int src[8] = {1, 2, 3, 4, 5}, dst[16];
    memset(dst, 0, sizeof dst);
    CHECK(MPI_Sendrecv(src, 5, MPI_INT, 0, 5, dst, 1, sa, 0, 5, MPI_COMM_SELF, &st));
    CHECK(MPI_Get_elements(&st, sa, &n));
    EXPECT_INT(n, 5);
    int want[16] = {0, 0, 0, 0, 0, 1, 2, 3, 0, 4, 5, 0, 0, 0, 0, 0};
    if (memcmp(dst, want, sizeof want))
        FAIL("partial subarray receive: wrong data");
    CHECK(MPI_Type_free(&sa));
}

/* Every invalid argument's class (MPI_ERRORS_RETURN). */
static void t_errors(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, bad = (MPI_Datatype)9999;
    int d3[3] = {0, 1, 2}, one = 1, zero = 0;
    MPI_Aint h3[3] = {0, 8, 16};
    EXPECT_INT(MPI_Type_create_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Type_create_hvector(1, -1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Type_create_hvector(2, 1, 8, bad, &t), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_create_hvector(2, 1, 8, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_create_hvector(2, 1, 8, MPI_INT, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_indexed_block(-1, 1, d3, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Type_create_indexed_block(3, -1, d3, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Type_create_indexed_block(3, 1, NULL, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_indexed_block(3, 1, d3, bad, &t), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_create_indexed_block(3, 1, d3, MPI_INT, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_hindexed_block(-1, 1, h3, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Type_create_hindexed_block(3, -2, h3, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Type_create_hindexed_block(3, 1, NULL, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_hindexed_block(3, 1, h3, bad, &t), MPI_ERR_TYPE);
    EXPECT_INT(t, MPI_DATATYPE_NULL); /* nothing was made */

    int sz[2] = {4, 5}, sub[2] = {2, 2}, st[2] = {1, 1};
    EXPECT_INT(MPI_Type_create_subarray(0, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_subarray(2, (int[]){0, 5}, sub, st, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_subarray(2, sz, (int[]){5, 2}, st, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_subarray(2, sz, (int[]){2, -1}, st, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_subarray(2, sz, sub, (int[]){3, 1}, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_subarray(2, sz, sub, (int[]){-1, 1}, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_subarray(2, sz, sub, st, 99, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_subarray(2, NULL, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, bad, &t), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, NULL), MPI_ERR_ARG);

    int gs[2] = {8, 8}, B = MPI_DISTRIBUTE_BLOCK, Cy = MPI_DISTRIBUTE_CYCLIC,
        D = MPI_DISTRIBUTE_DFLT_DARG;
    int ds[2] = {B, Cy}, dg[2] = {D, D}, ps[2] = {2, 2};
    EXPECT_INT(MPI_Type_create_darray(0, 0, 2, gs, ds, dg, ps, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(4, 4, 2, gs, ds, dg, ps, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(4, -1, 2, gs, ds, dg, ps, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(6, 0, 2, gs, ds, dg, ps, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG); /* 2 x 2 is not 6 */
    EXPECT_INT(MPI_Type_create_darray(4, 0, 0, gs, ds, dg, ps, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, gs, (int[]){B, 77}, dg, ps, MPI_ORDER_C, MPI_INT,
                                      &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, gs, (int[]){MPI_DISTRIBUTE_NONE, B}, dg, ps,
                                      MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG); /* NONE over 2 processes */
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, gs, ds, (int[]){3, D}, ps, MPI_ORDER_C, MPI_INT,
                                      &t),
               MPI_ERR_ARG); /* blocks of 3 on 2 processes do not cover 8 */
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, gs, ds, (int[]){D, 0}, ps, MPI_ORDER_C, MPI_INT,
                                      &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, (int[]){8, 0}, ds, dg, ps, MPI_ORDER_C, MPI_INT,
                                      &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, gs, ds, dg, (int[]){4, 0}, MPI_ORDER_C, MPI_INT,
                                      &t),
               MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, gs, ds, dg, ps, 3, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, gs, ds, dg, ps, MPI_ORDER_C, bad, &t),
               MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_create_darray(4, 0, 2, gs, ds, dg, ps, MPI_ORDER_C, MPI_INT, NULL),
               MPI_ERR_ARG);

    EXPECT_INT(MPI_Type_dup(bad, &t), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_dup(MPI_INT, NULL), MPI_ERR_ARG);
    int a, b, c, k;
    EXPECT_INT(MPI_Type_get_envelope(bad, &a, &b, &c, &k), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_get_envelope(MPI_INT, &a, NULL, &c, &k), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_get_contents(bad, 1, 1, 1, &a, h3, &t), MPI_ERR_TYPE);
    MPI_Aint lb, ext;
    EXPECT_INT(MPI_Type_get_true_extent(bad, &lb, &ext), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_get_true_extent(MPI_INT, NULL, &ext), MPI_ERR_ARG);
    MPI_Count cx;
    EXPECT_INT(MPI_Type_size_x(bad, &cx), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_size_x(MPI_INT, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_get_extent_x(bad, &cx, &cx), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_get_true_extent_x(MPI_INT, &cx, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Get_elements_x(NULL, MPI_INT, &cx), MPI_ERR_ARG);
    MPI_Status s;
    memset(&s, 0, sizeof s);
    EXPECT_INT(MPI_Get_elements_x(&s, bad, &cx), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_extent(bad, &lb), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_lb(MPI_INT, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_ub(bad, &lb), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Address(&a, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Type_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Type_hindexed(1, &one, h3, bad, &t), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_struct(1, &one, h3, &bad, &t), MPI_ERR_TYPE);
    (void)zero;
    /* a freed type is no type */
    CHECK(MPI_Type_contiguous(2, MPI_INT, &t));
    MPI_Datatype keep = t;
    CHECK(MPI_Type_free(&t));
    EXPECT_INT(MPI_Type_get_envelope(keep, &a, &b, &c, &k), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_dup(keep, &t), MPI_ERR_TYPE);
}

/* A negative extent (resized(MPI_INT, 0, -1024), as MPICH's large-count test makes): its
 * bounds as given, one element sent, received and packed; more than one element, and types
 * built upon it, are refused cleanly (rmp steps by extent only forward). */
static void t_negative_extent(void)
{
    MPI_Datatype t, r, c;
    CHECK(MPI_Type_create_resized(MPI_INT, 0, -1024, &t));
    CHECK(MPI_Type_commit(&t));
    MPI_Aint lb = -1, ext = 0, tlb = -1, text = -1;
    CHECK(MPI_Type_get_extent(t, &lb, &ext));
    if (lb != 0 || ext != -1024)
        FAIL("resized(int,0,-1024): lb %ld extent %ld", (long)lb, (long)ext);
    MPI_Count lbx = -1, extx = 0;
    CHECK(MPI_Type_get_extent_x(t, &lbx, &extx));
    if (lbx != 0 || extx != -1024)
        FAIL("resized(int,0,-1024): extent_x %lld", (long long)extx);
    CHECK(MPI_Type_get_true_extent(t, &tlb, &text));
    if (tlb != 0 || text != (MPI_Aint)sizeof(int))
        FAIL("resized(int,0,-1024): true extent %ld", (long)text);
    int sz = 0;
    CHECK(MPI_Type_size(t, &sz));
    EXPECT_INT(sz, (int)sizeof(int));
    int out = 1234 + mc_rank, in[3] = {-1, -1, -1};
    MPI_Status st;
    CHECK(MPI_Sendrecv(&out, 1, t, mc_rank, 5, &in[1], 1, t, mc_rank, 5, MPI_COMM_WORLD, &st));
    if (in[0] != -1 || in[1] != 1234 + mc_rank || in[2] != -1)
        FAIL("negative extent: received %d %d %d", in[0], in[1], in[2]);
    int n = -1;
    CHECK(MPI_Get_count(&st, t, &n));
    EXPECT_INT(n, 1);
    char pk[16];
    int pos = 0;
    CHECK(MPI_Pack(&out, 1, t, pk, sizeof pk, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, (int)sizeof(int));
    int back = 0;
    pos = 0;
    CHECK(MPI_Unpack(pk, sizeof pk, &pos, &back, 1, t, MPI_COMM_WORLD));
    EXPECT_INT(back, out);
    int two[2] = {0, 0};
    EXPECT_INT(MPI_Send(two, 2, t, mc_rank, 6, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Pack(two, 2, t, pk, sizeof pk, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    /* collectives: one element is exact; blocks placed by extents are refused everywhere */
    int size = 0, b = mc_rank == 0 ? 77 : -1;
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(MPI_Bcast(&b, 1, t, 0, MPI_COMM_WORLD));
    EXPECT_INT(b, 77);
    int *all = calloc((size_t)size, sizeof(int));
    if (size > 1)
        EXPECT_INT(MPI_Allgather(&out, 1, t, all, 1, t, MPI_COMM_WORLD), MPI_ERR_COUNT);
    free(all);
    /* built upon: elements at 0 and -1024, lb the least lb, ub the greatest ub (both -1024);
     * more in mpi_dtype_edge.c */
    CHECK(MPI_Type_contiguous(2, t, &c));
    CHECK(MPI_Type_get_extent(c, &lb, &ext));
    if (lb != -1024 || ext != 0)
        FAIL("contiguous(2, resized(int,0,-1024)): lb %ld extent %ld", (long)lb, (long)ext);
    CHECK(MPI_Type_free(&c));
    /* resized again to a positive extent: an ordinary type */
    CHECK(MPI_Type_create_resized(t, 0, 8, &r));
    CHECK(MPI_Type_get_extent(r, &lb, &ext));
    if (lb != 0 || ext != 8)
        FAIL("resized(resized(int,0,-1024),0,8): lb %ld extent %ld", (long)lb, (long)ext);
    CHECK(MPI_Type_free(&r));
    CHECK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    int size = 0;
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    for (int i = 0; i < BIG; i++)
        idx[i] = i;
    t_hvector();
    t_indexed_block();
    t_subarray(mc_rank, size);
    t_darray(mc_rank, size);
    t_dup();
    t_contents();
    t_bounds();
    t_elements();
    t_errors();
    t_negative_extent();
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Finalize());
    return mc_done("mpi_dtype");
}
