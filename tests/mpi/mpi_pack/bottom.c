/* bottom.c — mpi_pack's MPI_BOTTOM (struct and hindexed types over absolute addresses,
 * sent, received and packed) and the error class of every invalid argument. */
#include "mpi_pack.h"

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

void t_bottom(int rank, int size)
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
void t_errors(void)
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
