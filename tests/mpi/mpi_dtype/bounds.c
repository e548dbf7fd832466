/* bounds.c — mpi_dtype's queries and refusals: true extents, MPI-1 bounds and addresses,
 * Get_elements on partial messages, every invalid argument's error class, and a negative
 * extent. */
#include "mpi_dtype.h"

/* True extent, MPI-1 bounds and addresses. */
void t_bounds(void)
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
void t_elements(void)
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
void t_errors(void)
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
void t_negative_extent(void)
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
