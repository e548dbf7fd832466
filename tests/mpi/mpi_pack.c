/* mpi_pack.c — MPI_Pack, MPI_Unpack, MPI_Pack_size and MPI_PACKED messages; the external32
 * forms (exact big-endian bytes, written by hand); MPI_BOTTOM with absolute addresses from
 * MPI_Get_address in struct and hindexed types, sent, received (blocking and not) and packed;
 * in the manner of MPICH's simple-pack, simple-pack-external, struct-pack, slice-pack and
 * pairtype-pack: exact bytes against a serial reference, gaps left untouched, and the error
 * class of every invalid argument. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "mpicheck.h"

static void expect_bytes(const char *what, const unsigned char *got, const unsigned char *want,
                         int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            FAIL("%s: byte %d is 0x%02x, expected 0x%02x", what, i, got[i], want[i]);
            return;
        }
}

/* MPICH simple-pack: several items one after the other in one buffer, then back. */
static void t_simple(void)
{
    int ints[4] = {1, -2, 0x01020304, 40};
    double d[9];
    for (int i = 0; i < 9; i++)
        d[i] = i + 0.25;
    char c = 'q';
    MPI_Datatype v; /* doubles 0, 4, 8 */
    CHECK(MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &v));
    CHECK(MPI_Type_commit(&v));
    int size = -1, total = 0;
    CHECK(MPI_Pack_size(4, MPI_INT, MPI_COMM_WORLD, &size));
    EXPECT_INT(size, 16);
    total += size;
    CHECK(MPI_Pack_size(1, v, MPI_COMM_WORLD, &size));
    EXPECT_INT(size, 24);
    total += size;
    CHECK(MPI_Pack_size(1, MPI_CHAR, MPI_COMM_WORLD, &size));
    EXPECT_INT(size, 1);
    total += size;
    CHECK(MPI_Pack_size(0, v, MPI_COMM_WORLD, &size));
    EXPECT_INT(size, 0);

    unsigned char buf[64], want[64];
    memset(buf, 0xAB, sizeof buf);
    int pos = 0;
    CHECK(MPI_Pack(ints, 4, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, 16);
    CHECK(MPI_Pack(d, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, 40);
    CHECK(MPI_Pack(&c, 1, MPI_CHAR, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, total);
    CHECK(MPI_Pack(&c, 0, MPI_CHAR, buf, sizeof buf, &pos, MPI_COMM_WORLD)); /* nothing */
    EXPECT_INT(pos, total);
    memcpy(want, ints, 16);
    memcpy(want + 16, &d[0], 8);
    memcpy(want + 24, &d[4], 8);
    memcpy(want + 32, &d[8], 8);
    want[40] = 'q';
    expect_bytes("simple pack", buf, want, 41);
    EXPECT_INT(buf[41], 0xAB); /* nothing written past the end */

    int ri[4] = {0};
    double rd[9];
    for (int i = 0; i < 9; i++)
        rd[i] = -1;
    char rc = 0;
    pos = 0;
    CHECK(MPI_Unpack(buf, total, &pos, ri, 4, MPI_INT, MPI_COMM_WORLD));
    CHECK(MPI_Unpack(buf, total, &pos, rd, 1, v, MPI_COMM_WORLD));
    CHECK(MPI_Unpack(buf, total, &pos, &rc, 1, MPI_CHAR, MPI_COMM_WORLD));
    EXPECT_INT(pos, total);
    if (memcmp(ri, ints, sizeof ri) || rc != 'q')
        FAIL("simple unpack: ints or char differ");
    for (int i = 0; i < 9; i++) {
        double w = i % 4 == 0 ? d[i] : -1;
        if (rd[i] != w)
            FAIL("simple unpack: rd[%d] is %g, expected %g", i, rd[i], w);
    }
    CHECK(MPI_Type_free(&v));
}

/* MPICH struct-pack and pairtype-pack: a struct array (resized to sizeof) and MPI_FLOAT_INT */
typedef struct rec {
    char c;
    double x;
    short s[3];
} rec_t;

static void t_struct(void)
{
    int bl[3] = {1, 1, 3};
    MPI_Aint d[3] = {offsetof(rec_t, c), offsetof(rec_t, x), offsetof(rec_t, s)};
    MPI_Datatype ty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT}, st, rs;
    CHECK(MPI_Type_create_struct(3, bl, d, ty, &st));
    CHECK(MPI_Type_create_resized(st, 0, sizeof(rec_t), &rs));
    CHECK(MPI_Type_commit(&rs));
    rec_t in[4], out[4];
    memset(in, 0x55, sizeof in);
    memset(out, 0x77, sizeof out);
    for (int i = 0; i < 4; i++) {
        in[i].c = (char)('a' + i);
        in[i].x = i * 3.5;
        for (int k = 0; k < 3; k++)
            in[i].s[k] = (short)(100 * i + k);
    }
    unsigned char buf[256], want[256];
    int pos = 0, psz = 0;
    CHECK(MPI_Pack_size(4, rs, MPI_COMM_WORLD, &psz));
    EXPECT_INT(psz, 4 * 15);
    CHECK(MPI_Pack(in, 4, rs, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, 60);
    for (int i = 0; i < 4; i++) {
        want[15 * i] = (unsigned char)in[i].c;
        memcpy(want + 15 * i + 1, &in[i].x, 8);
        memcpy(want + 15 * i + 9, in[i].s, 6);
    }
    expect_bytes("struct pack", buf, want, 60);
    pos = 0;
    CHECK(MPI_Unpack(buf, 60, &pos, out, 4, rs, MPI_COMM_WORLD));
    for (int i = 0; i < 4; i++) {
        if (out[i].c != in[i].c || out[i].x != in[i].x || memcmp(out[i].s, in[i].s, 6))
            FAIL("struct unpack: record %d differs", i);
        const unsigned char *raw = (const unsigned char *)&out[i];
        for (size_t b = 1; b < offsetof(rec_t, x); b++) /* the padding: untouched */
            if (raw[b] != 0x77) {
                FAIL("struct unpack: padding byte %zu of record %d written", b, i);
                break;
            }
    }
    CHECK(MPI_Type_free(&st));
    CHECK(MPI_Type_free(&rs));

    struct {
        float v;
        int i;
    } fi[3] = {{1.5f, 7}, {-2.0f, 8}, {3.25f, 9}}, fo[3];
    pos = 0;
    CHECK(MPI_Pack(fi, 3, MPI_FLOAT_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, 24);
    memset(fo, 0, sizeof fo);
    pos = 0;
    CHECK(MPI_Unpack(buf, 24, &pos, fo, 3, MPI_FLOAT_INT, MPI_COMM_WORLD));
    if (memcmp(fi, fo, sizeof fi))
        FAIL("MPI_FLOAT_INT pack/unpack differs");
}

/* MPI_PACKED messages around the ring: packed, sent as MPI_PACKED, received as MPI_PACKED and
 * unpacked; a typed send received as MPI_PACKED; a packed send received with the type. */
static void t_packed_msgs(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0, sz = 0;
    CHECK(MPI_Type_get_name(MPI_PACKED, name, &len));
    if (strcmp(name, "MPI_PACKED") || len != 10)
        FAIL("MPI_PACKED's name is \"%s\" (%d)", name, len);
    CHECK(MPI_Type_size(MPI_PACKED, &sz));
    EXPECT_INT(sz, 1);
    MPI_Aint lb = -1, ext = -1;
    CHECK(MPI_Type_get_extent(MPI_PACKED, &lb, &ext));
    EXPECT_INT(lb, 0);
    EXPECT_INT(ext, 1);

    MPI_Datatype col;
    CHECK(MPI_Type_vector(4, 1, 3, MPI_INT, &col)); /* a column of a 4 x 3 matrix */
    CHECK(MPI_Type_commit(&col));
    int m[12], r = rank * 10 + 1;
    double dv = rank + 0.5;
    for (int i = 0; i < 12; i++)
        m[i] = rank * 100 + i;
    unsigned char out[128], in[128];
    int pos = 0;
    CHECK(MPI_Pack(&r, 1, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK(MPI_Pack(&dv, 1, MPI_DOUBLE, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK(MPI_Pack(&m[1], 1, col, out, sizeof out, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, 4 + 8 + 16);
    MPI_Status st;
    CHECK(MPI_Sendrecv(out, pos, MPI_PACKED, next, 1, in, sizeof in, MPI_PACKED, prev, 1,
                       MPI_COMM_WORLD, &st));
    int cnt = -1;
    CHECK(MPI_Get_count(&st, MPI_PACKED, &cnt));
    EXPECT_INT(cnt, 28);
    int gr = 0, gm[12];
    double gd = 0;
    for (int i = 0; i < 12; i++)
        gm[i] = -5;
    int ip = 0;
    CHECK(MPI_Unpack(in, cnt, &ip, &gr, 1, MPI_INT, MPI_COMM_WORLD));
    CHECK(MPI_Unpack(in, cnt, &ip, &gd, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK(MPI_Unpack(in, cnt, &ip, &gm[1], 1, col, MPI_COMM_WORLD));
    EXPECT_INT(ip, 28);
    EXPECT_INT(gr, prev * 10 + 1);
    if (gd != prev + 0.5)
        FAIL("packed message: double %g, expected %g", gd, prev + 0.5);
    for (int i = 0; i < 12; i++) {
        int w = i % 3 == 1 ? prev * 100 + i : -5;
        if (gm[i] != w)
            FAIL("packed message: column element %d is %d, expected %d", i, gm[i], w);
    }

    /* typed send, MPI_PACKED receive, unpack with the type; and the reverse */
    MPI_Request rq;
    CHECK(MPI_Isend(m, 1, col, next, 2, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Recv(in, sizeof in, MPI_PACKED, prev, 2, MPI_COMM_WORLD, &st));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Get_count(&st, MPI_PACKED, &cnt));
    EXPECT_INT(cnt, 16);
    for (int i = 0; i < 12; i++)
        gm[i] = -5;
    ip = 0;
    CHECK(MPI_Unpack(in, cnt, &ip, gm, 1, col, MPI_COMM_WORLD));
    for (int i = 0; i < 12; i++) {
        int w = i % 3 == 0 ? prev * 100 + i : -5;
        if (gm[i] != w)
            FAIL("typed send, packed receive: element %d is %d, expected %d", i, gm[i], w);
    }
    pos = 0;
    CHECK(MPI_Pack(&m[2], 1, col, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK(MPI_Isend(out, pos, MPI_PACKED, next, 3, MPI_COMM_WORLD, &rq));
    for (int i = 0; i < 12; i++)
        gm[i] = -5;
    CHECK(MPI_Recv(gm, 1, col, prev, 3, MPI_COMM_WORLD, &st));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < 12; i++) {
        int w = i % 3 == 0 ? prev * 100 + i + 2 : -5;
        if (gm[i] != w)
            FAIL("packed send, typed receive: element %d is %d, expected %d", i, gm[i], w);
    }
    /* a broadcast of a packed buffer */
    pos = 0;
    int root_val = 4242;
    if (rank == 0)
        CHECK(MPI_Pack(&root_val, 1, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK(MPI_Bcast(out, 4, MPI_PACKED, 0, MPI_COMM_WORLD));
    ip = 0;
    int got = 0;
    CHECK(MPI_Unpack(out, 4, &ip, &got, 1, MPI_INT, MPI_COMM_WORLD));
    EXPECT_INT(got, 4242);
    CHECK(MPI_Type_free(&col));
}

/* external32: big-endian bytes, by hand (MPI-3.1 13.5.2), and back. */
static void t_external(void)
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
static void t_external_sizes(void)
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

/* MPI_BOTTOM: types over the absolute addresses of separate variables. */
static int b_int;
static double b_dbl[2];
static char b_chr;

static MPI_Datatype bottom_type(int *ip, double *dp, char *cp)
{
    MPI_Aint a[3];
    CHECK(MPI_Get_address(ip, &a[0]));
    CHECK(MPI_Get_address(dp, &a[1]));
    CHECK(MPI_Get_address(cp, &a[2]));
    int bl[3] = {1, 2, 1};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t;
    CHECK(MPI_Type_create_struct(3, bl, a, ty, &t));
    CHECK(MPI_Type_commit(&t));
    return t;
}

static void t_bottom(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int r_int = 0;
    double r_dbl[2] = {0, 0};
    char r_chr = 0;
    b_int = 7 * rank + 1;
    b_dbl[0] = rank * 0.5;
    b_dbl[1] = -rank - 0.25;
    b_chr = (char)('A' + rank);
    MPI_Datatype ts = bottom_type(&b_int, b_dbl, &b_chr), tr = bottom_type(&r_int, r_dbl, &r_chr);
    MPI_Status st;
    CHECK(MPI_Sendrecv(MPI_BOTTOM, 1, ts, next, 11, MPI_BOTTOM, 1, tr, prev, 11, MPI_COMM_WORLD,
                       &st));
    int cnt = -1;
    CHECK(MPI_Get_count(&st, tr, &cnt));
    EXPECT_INT(cnt, 1);
    if (r_int != 7 * prev + 1 || r_dbl[0] != prev * 0.5 || r_dbl[1] != -prev - 0.25 ||
        r_chr != 'A' + prev)
        FAIL("MPI_BOTTOM sendrecv: got (%d, %g, %g, %c) from %d", r_int, r_dbl[0], r_dbl[1],
             r_chr, prev);

    /* nonblocking, both ways (the receive unpacks at completion) */
    r_int = 0, r_dbl[0] = r_dbl[1] = 0, r_chr = 0;
    MPI_Request rq[2];
    CHECK(MPI_Irecv(MPI_BOTTOM, 1, tr, prev, 12, MPI_COMM_WORLD, &rq[0]));
    CHECK(MPI_Isend(MPI_BOTTOM, 1, ts, next, 12, MPI_COMM_WORLD, &rq[1]));
    CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    if (r_int != 7 * prev + 1 || r_dbl[1] != -prev - 0.25 || r_chr != 'A' + prev)
        FAIL("MPI_BOTTOM isend/irecv: got (%d, %g, %c)", r_int, r_dbl[1], r_chr);

    /* persistent requests, twice; a matched probe and its receive; a buffered send; a
     * sendrecv_replace: every path of a receive unpacks to MPI_BOTTOM */
    MPI_Request pr[2];
    CHECK(MPI_Recv_init(MPI_BOTTOM, 1, tr, prev, 17, MPI_COMM_WORLD, &pr[0]));
    CHECK(MPI_Send_init(MPI_BOTTOM, 1, ts, next, 17, MPI_COMM_WORLD, &pr[1]));
    for (int round = 0; round < 2; round++) {
        b_int = 1000 * round + rank;
        r_int = -1, r_chr = 0;
        CHECK(MPI_Startall(2, pr));
        CHECK(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
        if (r_int != 1000 * round + prev || r_chr != 'A' + prev)
            FAIL("MPI_BOTTOM persistent round %d: got (%d, %c)", round, r_int, r_chr);
    }
    CHECK(MPI_Request_free(&pr[0]));
    CHECK(MPI_Request_free(&pr[1]));
    b_int = 7 * rank + 1;
    r_int = -1;
    CHECK(MPI_Isend(MPI_BOTTOM, 1, ts, next, 18, MPI_COMM_WORLD, &rq[1]));
    MPI_Message msg;
    CHECK(MPI_Mprobe(prev, 18, MPI_COMM_WORLD, &msg, &st));
    CHECK(MPI_Mrecv(MPI_BOTTOM, 1, tr, &msg, &st));
    CHECK(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
    if (r_int != 7 * prev + 1)
        FAIL("MPI_BOTTOM mrecv: got %d", r_int);
    static char bbuf[1024];
    CHECK(MPI_Buffer_attach(bbuf, sizeof bbuf));
    r_int = -1;
    CHECK(MPI_Irecv(MPI_BOTTOM, 1, tr, prev, 19, MPI_COMM_WORLD, &rq[0]));
    CHECK(MPI_Bsend(MPI_BOTTOM, 1, ts, next, 19, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    void *detached;
    int dsize;
    CHECK(MPI_Buffer_detach(&detached, &dsize));
    if (r_int != 7 * prev + 1)
        FAIL("MPI_BOTTOM bsend: got %d", r_int);
    r_int = rank + 500;
    r_dbl[0] = r_dbl[1] = rank;
    r_chr = (char)('a' + rank);
    CHECK(MPI_Sendrecv_replace(MPI_BOTTOM, 1, tr, next, 20, prev, 20, MPI_COMM_WORLD, &st));
    if (r_int != prev + 500 || r_dbl[1] != prev || r_chr != 'a' + prev)
        FAIL("MPI_BOTTOM sendrecv_replace: got (%d, %g, %c)", r_int, r_dbl[1], r_chr);

    /* a typed send from a plain buffer received at MPI_BOTTOM: the packed bytes are the same */
    struct {
        int i;
        double d[2];
        char c;
    } plain = {99, {1.5, 2.5}, 'z'};
    int bl[3] = {1, 2, 1};
    MPI_Aint pd[3] = {offsetof(__typeof__(plain), i), offsetof(__typeof__(plain), d),
                      offsetof(__typeof__(plain), c)};
    MPI_Datatype pty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, tp;
    CHECK(MPI_Type_create_struct(3, bl, pd, pty, &tp));
    CHECK(MPI_Type_commit(&tp));
    r_int = 0;
    CHECK(MPI_Sendrecv(&plain, 1, tp, rank, 13, MPI_BOTTOM, 1, tr, rank, 13, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    if (r_int != 99 || r_dbl[0] != 1.5 || r_dbl[1] != 2.5 || r_chr != 'z')
        FAIL("plain send to MPI_BOTTOM: got (%d, %g, %g, %c)", r_int, r_dbl[0], r_dbl[1], r_chr);
    CHECK(MPI_Type_free(&tp));

    /* packed from MPI_BOTTOM, unpacked to MPI_BOTTOM */
    unsigned char buf[64], want[64];
    int pos = 0;
    CHECK(MPI_Pack(MPI_BOTTOM, 1, ts, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    EXPECT_INT(pos, 4 + 16 + 1);
    memcpy(want, &b_int, 4);
    memcpy(want + 4, b_dbl, 16);
    want[20] = (unsigned char)b_chr;
    expect_bytes("pack from MPI_BOTTOM", buf, want, 21);
    r_int = 0, r_dbl[0] = r_dbl[1] = 0, r_chr = 0;
    int ip = 0;
    CHECK(MPI_Unpack(buf, pos, &ip, MPI_BOTTOM, 1, tr, MPI_COMM_WORLD));
    if (r_int != b_int || r_dbl[0] != b_dbl[0] || r_dbl[1] != b_dbl[1] || r_chr != b_chr)
        FAIL("unpack to MPI_BOTTOM: got (%d, %g, %g, %c)", r_int, r_dbl[0], r_dbl[1], r_chr);

    /* an hindexed of absolute addresses, in descending order */
    int xs[3] = {rank, rank + 10, rank + 20}, ys[3] = {0, 0, 0};
    MPI_Aint ax[3], ay[3];
    for (int i = 0; i < 3; i++) {
        CHECK(MPI_Get_address(&xs[2 - i], &ax[i]));
        CHECK(MPI_Get_address(&ys[i], &ay[i]));
    }
    int ones[3] = {1, 1, 1};
    MPI_Datatype hx, hy;
    CHECK(MPI_Type_create_hindexed(3, ones, ax, MPI_INT, &hx));
    CHECK(MPI_Type_create_hindexed_block(3, 1, ay, MPI_INT, &hy));
    CHECK(MPI_Type_commit(&hx));
    CHECK(MPI_Type_commit(&hy));
    CHECK(MPI_Sendrecv(MPI_BOTTOM, 1, hx, next, 14, MPI_BOTTOM, 1, hy, prev, 14, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    if (ys[0] != prev + 20 || ys[1] != prev + 10 || ys[2] != prev)
        FAIL("hindexed at MPI_BOTTOM: got %d %d %d", ys[0], ys[1], ys[2]);
    CHECK(MPI_Type_free(&hx));
    CHECK(MPI_Type_free(&hy));

    /* MPI_BOTTOM with a type that is not absolute: a buffer error, not a crash */
    EXPECT_INT(MPI_Send(MPI_BOTTOM, 1, MPI_INT, next, 15, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    pos = 0;
    EXPECT_INT(MPI_Pack(MPI_BOTTOM, 2, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD),
               MPI_ERR_BUFFER);
    ip = 0;
    EXPECT_INT(MPI_Unpack(buf, 8, &ip, MPI_BOTTOM, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK(MPI_Send(MPI_BOTTOM, 0, MPI_INT, rank, 16, MPI_COMM_WORLD)); /* nothing: fine */
    CHECK(MPI_Recv(MPI_BOTTOM, 0, MPI_INT, rank, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_Type_free(&ts));
    CHECK(MPI_Type_free(&tr));
}

/* Every invalid argument's class. */
static void t_errors(void)
{
    int v[4] = {1, 2, 3, 4}, pos = 0, sz = 0;
    unsigned char buf[16];
    MPI_Datatype bad = (MPI_Datatype)9999, unc;
    CHECK(MPI_Type_contiguous(2, MPI_INT, &unc)); /* never committed */
    EXPECT_INT(MPI_Pack(v, -1, MPI_INT, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Pack(v, 1, bad, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Pack(v, 1, MPI_DATATYPE_NULL, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Pack(v, 1, unc, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Pack(v, 1, MPI_INT, buf, 16, NULL, MPI_COMM_WORLD), MPI_ERR_ARG);
    EXPECT_INT(MPI_Pack(v, 1, MPI_INT, buf, -1, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    EXPECT_INT(MPI_Pack(v, 1, MPI_INT, buf, 16, &pos, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT_INT(MPI_Pack(v, 1, MPI_INT, NULL, 16, &pos, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_INT(MPI_Pack(v, 4, MPI_INT, buf, 12, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    pos = 14;
    EXPECT_INT(MPI_Pack(v, 1, MPI_INT, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    EXPECT_INT(pos, 14); /* unchanged on error */
    pos = 17;
    EXPECT_INT(MPI_Pack(v, 0, MPI_INT, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    pos = -1;
    EXPECT_INT(MPI_Pack(v, 1, MPI_INT, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    pos = 0;
    EXPECT_INT(MPI_Unpack(buf, 8, &pos, v, 3, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    EXPECT_INT(MPI_Unpack(buf, 8, &pos, v, -1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Unpack(buf, 8, &pos, v, 1, bad, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Unpack(buf, 8, NULL, v, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
    EXPECT_INT(MPI_Unpack(buf, -8, &pos, v, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
    EXPECT_INT(MPI_Unpack(NULL, 8, &pos, v, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_INT(MPI_Unpack(buf, 8, &pos, v, 1, MPI_INT, (MPI_Comm)12345), MPI_ERR_COMM);
    EXPECT_INT(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &sz), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Pack_size(1, bad, MPI_COMM_WORLD, &sz), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Pack_size(1, MPI_INT, MPI_COMM_NULL, &sz), MPI_ERR_COMM);
    CHECK(MPI_Pack_size(3, unc, MPI_COMM_WORLD, &sz)); /* a size: no commit needed */
    EXPECT_INT(sz, 24);
    CHECK(MPI_Type_free(&unc));
    /* sending MPI_PACKED with a bad count or buffer: the ordinary checks */
    EXPECT_INT(MPI_Send(NULL, 4, MPI_PACKED, 0, 0, MPI_COMM_SELF), MPI_ERR_BUFFER);
    EXPECT_INT(MPI_Send(buf, -4, MPI_PACKED, 0, 0, MPI_COMM_SELF), MPI_ERR_COUNT);
    /* MPI_PACKED has no reduction */
    int a = 1, b = 0;
    EXPECT_INT(MPI_Allreduce(&a, &b, 1, MPI_PACKED, MPI_SUM, MPI_COMM_SELF), MPI_ERR_OP);
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
    t_simple();
    t_struct();
    t_packed_msgs(mc_rank, size);
    t_external();
    t_external_sizes();
    t_bottom(mc_rank, size);
    t_errors();
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Finalize());
    return mc_done("mpi_pack");
}
