/* decode.c — mpi_dtype's decoding: Type_get_envelope and Type_get_contents for every combiner,
 * the old types freed before the decoding. */
#include "mpi_dtype.h"

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

void t_contents(void)
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
