/* mpi_dtype.c — the type constructors of MPI-2/3 (hvector, indexed_block, hindexed_block,
 * subarray in C and Fortran order, darray with block, cyclic and none, dup), decoding
 * (Type_get_envelope / Type_get_contents for every combiner, old types freed before the
 * decoding), true extents, the _x queries, the deprecated MPI-1 names, and Get_elements on
 * partial messages, in the manner of MPICH's test/mpi/datatype: the exact order of the data
 * (MPI_Pack of an int array whose values are their indices, against a typemap enumerated by
 * hand), bounds, sends between ranks (a darray gathered piecewise rebuilds the array), and the
 * error class of every invalid argument. */
#include "mpi_dtype/mpi_dtype.h"

int idx[BIG]; /* idx[i] = i: packing it lists the typemap's int offsets */

/* The ints count elements of t select from idx, in typemap order (MPI_Pack). */
int pack_idx(MPI_Datatype t, int count, const int *base, int *out, int max)
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

void expect_ints(const char *what, const int *got, int n, const int *want, int nwant)
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

void expect_bounds(const char *what, MPI_Datatype t, MPI_Aint lb, MPI_Aint ext,
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
void expect_envelope(const char *what, MPI_Datatype t, int comb, int ni, int na, int nd)
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

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
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
