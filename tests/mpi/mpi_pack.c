/* mpi_pack.c — MPI_Pack, MPI_Unpack, MPI_Pack_size and MPI_PACKED messages; the external32
 * forms (exact big-endian bytes, written by hand); MPI_BOTTOM with absolute addresses from
 * MPI_Get_address in struct and hindexed types, sent, received (blocking and not) and packed;
 * in the manner of MPICH's simple-pack, simple-pack-external, struct-pack, slice-pack and
 * pairtype-pack: exact bytes against a serial reference, gaps left untouched, and the error
 * class of every invalid argument. */
#include "mpi_pack/mpi_pack.h"

void expect_bytes(const char *what, const unsigned char *got, const unsigned char *want, int n)
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

/* MPICH struct-pack and pairtype-pack (rec_t: mpi_pack.h) */
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

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
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
