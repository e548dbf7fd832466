/* external.c — mpi_pack's external32 forms: exact big-endian bytes written by hand, and
 * the standard's sizes for every named type, alone and in derived types, and back. */
#include "mpi_pack.h"

/* external32: big-endian bytes, by hand (MPI-3.1 13.5.2), and back. */
void t_external(void)
{
    const char *x32 = "external32";
    MPI_Aint sz = -1;
    CHECK(MPI_Pack_external_size(x32, 3, MPI_INT, &sz));
    EXPECT_INT(sz, 12);
    CHECK(MPI_Pack_external_size(x32, 2, MPI_DOUBLE_INT, &sz));
    EXPECT_INT(sz, 24);
    CHECK(MPI_Pack_external_size(x32, 5, MPI_CHAR, &sz));
    EXPECT_INT(sz, 5);

    int ints[3] = {1, 0x01020304, -2};
    double dbl = 1.0;
    float flt = 1.5f;
    short sh = 0x0102;
    int64_t i64 = 0x0102030405060708LL;
    unsigned char ch = 0xC3;
    struct {
        double v;
        int i;
    } di = {-2.0, 0x0A0B0C0D};
    unsigned char buf[128], back[128];
    MPI_Aint pos = 0;
    CHECK(MPI_Pack_external(x32, ints, 3, MPI_INT, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, &dbl, 1, MPI_DOUBLE, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, &flt, 1, MPI_FLOAT, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, &sh, 1, MPI_SHORT, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, &i64, 1, MPI_INT64_T, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, &ch, 1, MPI_UNSIGNED_CHAR, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, &di, 1, MPI_DOUBLE_INT, buf, sizeof buf, &pos));
    static const unsigned char want[] = {
        0, 0, 0, 1, 1, 2, 3, 4, 0xFF, 0xFF, 0xFF, 0xFE,  /* ints */
        0x3F, 0xF0, 0, 0, 0, 0, 0, 0,                   /* 1.0 */
        0x3F, 0xC0, 0, 0,                               /* 1.5f */
        1, 2,                                           /* short */
        1, 2, 3, 4, 5, 6, 7, 8,                         /* int64 */
        0xC3,                                           /* char */
        0xC0, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0x0B, 0x0C, 0x0D, /* {-2.0, int} */
    };
    EXPECT_INT(pos, (MPI_Aint)sizeof want);
    expect_bytes("external32", buf, want, (int)sizeof want);

    int ri[3];
    double rd;
    float rf;
    short rs;
    int64_t r64;
    unsigned char rch;
    struct {
        double v;
        int i;
    } rdi;
    MPI_Aint ip = 0;
    memcpy(back, buf, sizeof want);
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, ri, 3, MPI_INT));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, &rd, 1, MPI_DOUBLE));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, &rf, 1, MPI_FLOAT));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, &rs, 1, MPI_SHORT));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, &r64, 1, MPI_INT64_T));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, &rch, 1, MPI_UNSIGNED_CHAR));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, &rdi, 1, MPI_DOUBLE_INT));
    EXPECT_INT(ip, pos);
    if (memcmp(ri, ints, sizeof ri) || rd != dbl || rf != flt || rs != sh || r64 != i64 ||
        rch != ch || rdi.v != di.v || rdi.i != di.i)
        FAIL("external32 unpack: values differ");
    if (memcmp(back, buf, sizeof want))
        FAIL("external32 unpack wrote into its input");

    /* a struct of mixed types, and a vector of shorts, in one call each */
    int bl[2] = {1, 2};
    MPI_Aint dsp[2] = {0, 8};
    MPI_Datatype tys[2] = {MPI_INT, MPI_SHORT}, st0, st, vs;
    CHECK(MPI_Type_create_struct(2, bl, dsp, tys, &st0));
    CHECK(MPI_Type_create_resized(st0, 0, 16, &st));
    CHECK(MPI_Type_free(&st0));
    CHECK(MPI_Type_commit(&st));
    struct {
        int a;
        int pad;
        short s[2];
        int pad2;
    } sv[2] = {{0x11223344, 0, {0x5566, 0x7788}, 0}, {-1, 0, {1, 2}, 0}}, sr[2];
    pos = 0;
    CHECK(MPI_Pack_external(x32, sv, 2, st, buf, sizeof buf, &pos));
    static const unsigned char wst[] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                        0xFF, 0xFF, 0xFF, 0xFF, 0, 1, 0, 2};
    EXPECT_INT(pos, 16);
    expect_bytes("external32 struct", buf, wst, 16);
    memset(sr, 0, sizeof sr);
    ip = 0;
    CHECK(MPI_Unpack_external(x32, buf, pos, &ip, sr, 2, st));
    if (sr[0].a != sv[0].a || sr[0].s[1] != sv[0].s[1] || sr[1].a != -1 || sr[1].s[1] != 2)
        FAIL("external32 struct unpack differs");
    short shv[6] = {0x0102, 9, 0x0304, 9, 0x0506, 9};
    CHECK(MPI_Type_vector(3, 1, 2, MPI_SHORT, &vs));
    CHECK(MPI_Type_commit(&vs));
    pos = 0;
    CHECK(MPI_Pack_external(x32, shv, 1, vs, buf, sizeof buf, &pos));
    static const unsigned char wv[] = {1, 2, 3, 4, 5, 6};
    EXPECT_INT(pos, 6);
    expect_bytes("external32 vector", buf, wv, 6);
    CHECK(MPI_Type_free(&st));
    CHECK(MPI_Type_free(&vs));

    /* errors */
    pos = 0;
    EXPECT_INT(MPI_Pack_external("native", ints, 1, MPI_INT, buf, sizeof buf, &pos), MPI_ERR_ARG);
    EXPECT_INT(MPI_Pack_external(NULL, ints, 1, MPI_INT, buf, sizeof buf, &pos), MPI_ERR_ARG);
    EXPECT_INT(MPI_Unpack_external("internal", buf, 4, &pos, ints, 1, MPI_INT), MPI_ERR_ARG);
    EXPECT_INT(MPI_Pack_external_size("external64", 1, MPI_INT, &sz), MPI_ERR_ARG);
    EXPECT_INT(MPI_Pack_external(x32, ints, 3, MPI_INT, buf, 8, &pos), MPI_ERR_TRUNCATE);
    EXPECT_INT(pos, 0);
    EXPECT_INT(MPI_Unpack_external(x32, buf, 8, &pos, ri, 3, MPI_INT), MPI_ERR_TRUNCATE);
    EXPECT_INT(MPI_Pack_external(x32, ints, -1, MPI_INT, buf, sizeof buf, &pos), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Pack_external(x32, ints, 1, (MPI_Datatype)9999, buf, sizeof buf, &pos),
               MPI_ERR_TYPE);
    EXPECT_INT(MPI_Pack_external(x32, ints, 1, MPI_INT, buf, sizeof buf, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Pack_external_size(x32, 1, MPI_INT, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Pack_external_size(x32, -1, MPI_INT, &sz), MPI_ERR_COUNT);
}

/* external32's sizes are the standard's for each named type (MPI-3.1 table 13.2), not the
 * native ones: MPI_LONG and MPI_UNSIGNED_LONG 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE 16 (IEEE
 * binary128), MPI_INT64_T, MPI_LONG_LONG, MPI_AINT, MPI_OFFSET, MPI_COUNT 8; alone, in the
 * pairs, in a struct and a vector; and back. */
void t_external_sizes(void)
{
    const char *x32 = "external32";
    static const struct {
        MPI_Datatype t;
        const char *name;
        int size;
    } sizes[] = {
        {MPI_CHAR, "MPI_CHAR", 1}, {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1},
        {MPI_WCHAR, "MPI_WCHAR", 2}, {MPI_SHORT, "MPI_SHORT", 2}, {MPI_INT, "MPI_INT", 4},
        {MPI_LONG, "MPI_LONG", 4}, {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", 4},
        {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", 8}, {MPI_LONG_LONG, "MPI_LONG_LONG", 8},
        {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", 8}, {MPI_FLOAT, "MPI_FLOAT", 4},
        {MPI_DOUBLE, "MPI_DOUBLE", 8}, {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", 16},
        {MPI_C_BOOL, "MPI_C_BOOL", 1}, {MPI_INT8_T, "MPI_INT8_T", 1},
        {MPI_INT64_T, "MPI_INT64_T", 8}, {MPI_UINT64_T, "MPI_UINT64_T", 8},
        {MPI_AINT, "MPI_AINT", 8}, {MPI_OFFSET, "MPI_OFFSET", 8}, {MPI_COUNT, "MPI_COUNT", 8},
        {MPI_C_COMPLEX, "MPI_C_COMPLEX", 8}, {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16},
        {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 32},
        {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", 32},
        {MPI_CXX_BOOL, "MPI_CXX_BOOL", 1}, {MPI_CHARACTER, "MPI_CHARACTER", 1},
        {MPI_LOGICAL, "MPI_LOGICAL", 4}, {MPI_INTEGER, "MPI_INTEGER", 4},
        {MPI_REAL, "MPI_REAL", 4}, {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8},
        {MPI_COMPLEX, "MPI_COMPLEX", 8}, {MPI_INTEGER8, "MPI_INTEGER8", 8},
        {MPI_LONG_INT, "MPI_LONG_INT", 8}, {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", 20},
        {MPI_2INT, "MPI_2INT", 8}, {MPI_SHORT_INT, "MPI_SHORT_INT", 6},
        {MPI_PACKED, "MPI_PACKED", 1}, {MPI_BYTE, "MPI_BYTE", 1},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        MPI_Aint sz = -1;
        CHECK(MPI_Pack_external_size(x32, 3, sizes[i].t, &sz));
        if (sz != 3 * sizes[i].size)
            FAIL("MPI_Pack_external_size(3 x %s) = %ld, expected %d", sizes[i].name, (long)sz,
                 3 * sizes[i].size);
    }

    /* values, by hand */
    long l[3] = {1, -2, 0x01020304};
    unsigned long ul = 0xA1B2C3D4UL;
    wchar_t w[2] = {L'A', (wchar_t)0x263A};
    long double ld[2] = {1.5L, -0.0L};
    struct {
        long v;
        int i;
    } li = {-3, 7};
    unsigned char buf[256], back[256];
    MPI_Aint pos = 0;
    CHECK(MPI_Pack_external(x32, l, 3, MPI_LONG, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, &ul, 1, MPI_UNSIGNED_LONG, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, w, 2, MPI_WCHAR, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, ld, 2, MPI_LONG_DOUBLE, buf, sizeof buf, &pos));
    CHECK(MPI_Pack_external(x32, &li, 1, MPI_LONG_INT, buf, sizeof buf, &pos));
    static const unsigned char want[] = {
        0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFE, 1, 2, 3, 4, /* longs */
        0xA1, 0xB2, 0xC3, 0xD4,                         /* unsigned long */
        0, 'A', 0x26, 0x3A,                             /* wchar_t */
        0x3F, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 1.5 in binary128 */
        0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,       /* -0.0 */
        0xFF, 0xFF, 0xFF, 0xFD, 0, 0, 0, 7,             /* {-3L, 7} */
    };
    EXPECT_INT(pos, (MPI_Aint)sizeof want);
    expect_bytes("external32 named sizes", buf, want, (int)sizeof want);
    long rl[3] = {0};
    unsigned long rul = 0;
    wchar_t rw[2] = {0};
    long double rld[2] = {9, 9};
    struct {
        long v;
        int i;
    } rli = {0, 0};
    MPI_Aint ip = 0;
    memcpy(back, buf, sizeof want);
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, rl, 3, MPI_LONG));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, &rul, 1, MPI_UNSIGNED_LONG));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, rw, 2, MPI_WCHAR));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, rld, 2, MPI_LONG_DOUBLE));
    CHECK(MPI_Unpack_external(x32, back, pos, &ip, &rli, 1, MPI_LONG_INT));
    EXPECT_INT(ip, pos);
    if (memcmp(rl, l, sizeof l) || rul != ul || memcmp(rw, w, sizeof w) || rld[0] != 1.5L ||
        rld[1] != 0 || !signbit(rld[1]) || rli.v != -3 || rli.i != 7)
        FAIL("external32 named sizes: unpacked values differ");
    if (memcmp(back, buf, sizeof want))
        FAIL("external32 unpack wrote into its input");

    /* long doubles of every kind through binary128 and back */
    long double lds[6] = {LDBL_MAX, LDBL_MIN, LDBL_MIN / 1024, -(long double)INFINITY, 1.0L / 3,
                          (long double)NAN};
    long double rlds[6];
    pos = ip = 0;
    CHECK(MPI_Pack_external(x32, lds, 6, MPI_LONG_DOUBLE, buf, sizeof buf, &pos));
    EXPECT_INT(pos, 96);
    CHECK(MPI_Unpack_external(x32, buf, pos, &ip, rlds, 6, MPI_LONG_DOUBLE));
    for (int i = 0; i < 5; i++)
        if (rlds[i] != lds[i])
            FAIL("external32 long double %d: %Lg came back as %Lg", i, lds[i], rlds[i]);
    if (rlds[5] == rlds[5])
        FAIL("external32 long double NaN came back as %Lg", rlds[5]);

    /* a struct {char; long; long double; wchar_t} x2, and a vector of longs */
    struct rec {
        char c;
        long l;
        long double x;
        wchar_t w;
    } rs[2] = {{'a', -5, 2.0L, L'z'}, {'b', 6, -0.5L, L'y'}}, rr[2];
    int bl[4] = {1, 1, 1, 1};
    MPI_Aint dp[4] = {offsetof(struct rec, c), offsetof(struct rec, l), offsetof(struct rec, x),
                      offsetof(struct rec, w)};
    MPI_Datatype ty[4] = {MPI_CHAR, MPI_LONG, MPI_LONG_DOUBLE, MPI_WCHAR}, st, st2, vl;
    CHECK(MPI_Type_create_struct(4, bl, dp, ty, &st));
    CHECK(MPI_Type_create_resized(st, 0, sizeof(struct rec), &st2));
    CHECK(MPI_Type_commit(&st2));
    MPI_Aint sz = -1;
    CHECK(MPI_Pack_external_size(x32, 2, st2, &sz));
    EXPECT_INT(sz, 2 * (1 + 4 + 16 + 2));
    pos = ip = 0;
    CHECK(MPI_Pack_external(x32, rs, 2, st2, buf, sizeof buf, &pos));
    EXPECT_INT(pos, sz);
    static const unsigned char wst[] = {'a', 0xFF, 0xFF, 0xFF, 0xFB, 0x40, 0x00, 0, 0, 0, 0, 0,
                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'z'};
    expect_bytes("external32 struct of named sizes", buf, wst, (int)sizeof wst);
    memset(rr, 0, sizeof rr);
    CHECK(MPI_Unpack_external(x32, buf, pos, &ip, rr, 2, st2));
    for (int i = 0; i < 2; i++)
        if (rr[i].c != rs[i].c || rr[i].l != rs[i].l || rr[i].x != rs[i].x || rr[i].w != rs[i].w)
            FAIL("external32 struct of named sizes: element %d differs", i);
    EXPECT_INT(MPI_Pack_external(x32, rs, 2, st2, buf, (MPI_Aint)sz - 1, &(MPI_Aint){0}),
               MPI_ERR_TRUNCATE);
    long lv[6] = {10, -11, 12, -13, 14, -15}, rv[6] = {0};
    CHECK(MPI_Type_vector(3, 1, 2, MPI_LONG, &vl));
    CHECK(MPI_Type_commit(&vl));
    pos = ip = 0;
    CHECK(MPI_Pack_external(x32, lv, 1, vl, buf, sizeof buf, &pos));
    static const unsigned char wv[] = {0, 0, 0, 10, 0, 0, 0, 12, 0, 0, 0, 14};
    EXPECT_INT(pos, 12);
    expect_bytes("external32 vector of longs", buf, wv, (int)sizeof wv);
    CHECK(MPI_Unpack_external(x32, buf, pos, &ip, rv, 1, vl));
    if (rv[0] != 10 || rv[2] != 12 || rv[4] != 14 || rv[1] || rv[3] || rv[5])
        FAIL("external32 vector of longs: unpacked %ld %ld %ld %ld %ld %ld", rv[0], rv[1], rv[2],
             rv[3], rv[4], rv[5]);
    CHECK(MPI_Type_free(&vl));
    CHECK(MPI_Type_free(&st2));
    CHECK(MPI_Type_free(&st));
}
