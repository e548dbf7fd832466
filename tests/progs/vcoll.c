/* vcoll.c — the v-collectives (gatherv, scatterv, allgatherv, alltoallv) and the prefix
 * reductions (scan, exscan), and alltoallw (a type per peer), blocking and nonblocking, against a serial reference: every root,
 * block sizes that differ per rank (zeros included), blocks in reversed order with gaps, a
 * strided derived type whose gaps must stay untouched, in place, on the world and on a split
 * communicator in reversed rank order; then truncation and bad arguments. Prints "vcoll: OK"
 * from rank 0 when every rank passed. */
#include "progs.h"

#define SENT (-7) /* what memory outside the blocks holds, before and after */

/* A type as the test sees it: ints per element, the element's span in ints, where they are. */
typedef struct ttype {
    rmp_datatype_t t;
    int per, ext;
    int off[2];
    const char *name;
} ttype_t;

static ttype_t types[2];
static int me, np;
static rmp_comm_t cm;
static const char *cname;

static int32_t val(int from, int to, int e, int k)
{
    return from * 100000 + to * 1000 + e * 2 + k + 1;
}

/* The block of `cnt` elements at element displacement d in buf: write or check values. */
static void put(const ttype_t *t, int32_t *buf, int d, int cnt, int from, int to)
{
    for (int e = 0; e < cnt; e++)
        for (int k = 0; k < t->per; k++)
            buf[(d + e) * t->ext + t->off[k]] = val(from, to, e, k);
}

/* Every int of buf (n ints) is either inside a block of the expected layout with its value or
 * SENT: counts/displs describe blocks i = 0..nb-1 from rank from(i). */
static void verify(const char *what, const ttype_t *t, const int32_t *buf, int n,
                   const int *counts, const int *displs, int nb, int (*from)(int i),
                   int (*to)(int i))
{
    int32_t *want = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        want[i] = SENT;
    for (int i = 0; i < nb; i++)
        put(t, want, displs[i], counts[i], from(i), to(i));
    for (int i = 0; i < n; i++)
        if (buf[i] != want[i]) {
            FAIL("%s on %s (n=%d, %s): int %d is %d, expected %d", what, cname, np, t->name, i,
                 buf[i], want[i]);
            break;
        }
    free(want);
}

static int root_g;
static int from_i(int i) { return i; }
static int from_root(int i) { (void)i; return root_g; }
static int to_me(int i) { (void)i; return me; }
static int to_root(int i) { (void)i; return root_g; }

static int count_of(int i, int salt) { return (i * 3 + salt) % 5; }

/* Reversed order with a one-element gap after each block; returns the elements spanned. */
static int layout(int *counts, int *displs, int salt)
{
    int d = 0;
    for (int i = np - 1; i >= 0; i--) {
        counts[i] = count_of(i, salt);
        displs[i] = d;
        d += counts[i] + 1;
    }
    return d;
}

static int32_t *sentinels(int ints)
{
    int32_t *b = malloc(sizeof(int32_t) * (size_t)(ints ? ints : 1));
    for (int i = 0; i < ints; i++)
        b[i] = SENT;
    return b;
}

static void wait_or(int nb, rmp_request_t *r, int rc)
{
    if (nb && rc == RMP_SUCCESS)
        CHECK(rmp_wait(r, RMP_STATUS_IGNORE));
}

static void t_gatherv(const ttype_t *t, int root, int nb, bool in_place)
{
    int counts[64], displs[64];
    int span = layout(counts, displs, root);
    int32_t *rb = sentinels(span * t->ext), *sb = sentinels(counts[me] * t->ext);
    put(t, sb, 0, counts[me], me, root);
    if (in_place && me == root)
        put(t, rb, displs[me], counts[me], me, root);
    const void *s = in_place && me == root ? RMP_IN_PLACE : sb;
    rmp_request_t r;
    root_g = root;
    int rc = nb ? rmp_igatherv(s, counts[me], t->t, rb, counts, displs, t->t, root, cm, &r)
                : rmp_gatherv(s, counts[me], t->t, rb, counts, displs, t->t, root, cm);
    CHECK(rc);
    wait_or(nb, &r, rc);
    if (me == root)
        verify("gatherv", t, rb, span * t->ext, counts, displs, np, from_i, to_root);
    free(rb);
    free(sb);
}

static void t_scatterv(const ttype_t *t, int root, int nb, bool in_place)
{
    int counts[64], displs[64];
    int span = layout(counts, displs, root + 1);
    int32_t *sb = sentinels(span * t->ext), *rb = sentinels(counts[me] * t->ext);
    for (int i = 0; i < np; i++)
        put(t, sb, displs[i], counts[i], root, i);
    void *rbuf = in_place && me == root ? RMP_IN_PLACE : rb;
    rmp_request_t r;
    root_g = root;
    int rc = nb ? rmp_iscatterv(sb, counts, displs, t->t, rbuf, counts[me], t->t, root, cm, &r)
                : rmp_scatterv(sb, counts, displs, t->t, rbuf, counts[me], t->t, root, cm);
    CHECK(rc);
    wait_or(nb, &r, rc);
    int zero = 0;
    if (rbuf != RMP_IN_PLACE)
        verify("scatterv", t, rb, counts[me] * t->ext, &counts[me], &zero, 1, from_root, to_me);
    free(rb);
    free(sb);
}

static void t_allgatherv(const ttype_t *t, int salt, int nb, bool in_place)
{
    int counts[64], displs[64];
    int span = layout(counts, displs, salt);
    int32_t *rb = sentinels(span * t->ext), *sb = sentinels(counts[me] * t->ext);
    put(t, sb, 0, counts[me], me, 0);
    if (in_place)
        put(t, rb, displs[me], counts[me], me, 0);
    rmp_request_t r;
    const void *s = in_place ? RMP_IN_PLACE : sb;
    int rc = nb ? rmp_iallgatherv(s, counts[me], t->t, rb, counts, displs, t->t, cm, &r)
                : rmp_allgatherv(s, counts[me], t->t, rb, counts, displs, t->t, cm);
    CHECK(rc);
    wait_or(nb, &r, rc);
    root_g = 0;
    verify("allgatherv", t, rb, span * t->ext, counts, displs, np, from_i, to_root);
    free(rb);
    free(sb);
}

static void t_alltoallv(const ttype_t *t, int salt, int nb, bool in_place)
{
    /* i sends (i + 2j + salt) % 4 elements to j; blocks in reversed order with gaps */
    int sc[64], sd[64], rcn[64], rd[64], sspan = 0, rspan = 0;
    for (int j = np - 1; j >= 0; j--) {
        sc[j] = (me + 2 * j + salt) % 4;
        sd[j] = sspan;
        sspan += sc[j] + 1;
        rcn[j] = (j + 2 * me + salt) % 4;
        rd[j] = rspan;
        rspan += rcn[j] + 1;
    }
    if (in_place) { /* MPI: sendcounts are the recvcounts then */
        for (int j = 0; j < np; j++)
            if (sc[j] != rcn[j])
                in_place = false;
    }
    int32_t *sb = sentinels(sspan * t->ext), *rb = sentinels(rspan * t->ext);
    for (int j = 0; j < np; j++)
        put(t, in_place ? rb : sb, in_place ? rd[j] : sd[j], sc[j], me, j);
    rmp_request_t r;
    const void *s = in_place ? RMP_IN_PLACE : sb;
    int rc = nb ? rmp_ialltoallv(s, sc, sd, t->t, rb, rcn, rd, t->t, cm, &r)
                : rmp_alltoallv(s, sc, sd, t->t, rb, rcn, rd, t->t, cm);
    CHECK(rc);
    wait_or(nb, &r, rc);
    verify("alltoallv", t, rb, rspan * t->ext, rcn, rd, np, from_i, to_me);
    free(sb);
    free(rb);
}

/* alltoallw: the block for peer j in the type (j + me) % 2 (int32 or the strided type), the
 * one from peer j in type (me + j) % 2 too, displacements in bytes, reversed with gaps */
static void t_alltoallw(int salt, int nb, bool in_place)
{
    int sc[64], sd[64], rcn[64], rd[64], sspan = 0, rspan = 0;
    rmp_datatype_t st[64], rt[64];
    for (int j = np - 1; j >= 0; j--) {
        const ttype_t *t = &types[(j + me) % 2];
        st[j] = rt[j] = t->t;
        sc[j] = (me + 2 * j + salt) % 4;
        rcn[j] = (j + 2 * me + salt) % 4;
        sd[j] = sspan * 4;
        sspan += (sc[j] + 1) * t->ext;
        rd[j] = rspan * 4;
        rspan += (rcn[j] + 1) * t->ext;
    }
    if (in_place)
        for (int j = 0; j < np; j++)
            if (sc[j] != rcn[j])
                in_place = false;
    int32_t *sb = sentinels(sspan), *rb = sentinels(rspan), *want = sentinels(rspan);
    for (int j = 0; j < np; j++) {
        const ttype_t *t = &types[(j + me) % 2];
        put(t, in_place ? rb + rd[j] / 4 : sb + sd[j] / 4, 0, sc[j], me, j);
        put(t, want + rd[j] / 4, 0, rcn[j], j, me);
    }
    rmp_request_t r;
    const void *s = in_place ? RMP_IN_PLACE : sb;
    int rc = nb ? rmp_ialltoallw(s, sc, sd, st, rb, rcn, rd, rt, cm, &r)
                : rmp_alltoallw(s, sc, sd, st, rb, rcn, rd, rt, cm);
    CHECK(rc);
    wait_or(nb, &r, rc);
    for (int i = 0; i < rspan; i++)
        if (rb[i] != want[i]) {
            FAIL("alltoallw%s on %s (n=%d): int %d is %d, expected %d", in_place ? " in place" : "",
                 cname, np, i, rb[i], want[i]);
            break;
        }
    free(sb);
    free(rb);
    free(want);
}

/* scan / exscan of 3 int64 per rank, SUM and MIN, against the serial prefix */
static void t_scan(bool exclusive, int nb, bool in_place, rmp_op_t op)
{
    int64_t in[3], out[3] = {-1, -1, -1}, want[3];
    for (int k = 0; k < 3; k++) {
        in[k] = (int64_t)(me + 1) * (k + 1) * (k == 1 ? -1 : 1) + (me % 3) * 7;
        want[k] = -1; /* exscan at rank 0: untouched */
    }
    int last = exclusive ? me - 1 : me;
    for (int q = 0; q <= last; q++)
        for (int k = 0; k < 3; k++) {
            int64_t v = (int64_t)(q + 1) * (k + 1) * (k == 1 ? -1 : 1) + (q % 3) * 7;
            want[k] = q == 0 ? v : op == RMP_SUM ? want[k] + v : (v < want[k] ? v : want[k]);
        }
    if (in_place)
        memcpy(out, in, sizeof(in));
    const void *s = in_place ? RMP_IN_PLACE : in;
    rmp_request_t r;
    int rc;
    if (exclusive)
        rc = nb ? rmp_iexscan(s, out, 3, RMP_INT64, op, cm, &r)
                : rmp_exscan(s, out, 3, RMP_INT64, op, cm);
    else
        rc = nb ? rmp_iscan(s, out, 3, RMP_INT64, op, cm, &r)
                : rmp_scan(s, out, 3, RMP_INT64, op, cm);
    CHECK(rc);
    wait_or(nb, &r, rc);
    bool keep = exclusive && me == 0; /* rank 0's exscan result is untouched */
    for (int k = 0; k < 3; k++) {
        int64_t w = keep ? (in_place ? in[k] : -1) : want[k];
        if (out[k] != w) {
            FAIL("%s%s%s on %s (n=%d): word %d is %lld, expected %lld", nb ? "i" : "",
                 exclusive ? "exscan" : "scan", in_place ? " in place" : "", cname, np, k,
                 (long long)out[k], (long long)w);
            break;
        }
    }
}

static void all_on(rmp_comm_t c, const char *name)
{
    cm = c;
    cname = name;
    rmp_comm_rank(c, &me);
    rmp_comm_size(c, &np);
    for (int ti = 0; ti < 2; ti++)
        for (int nb = 0; nb < 2; nb++) {
            const ttype_t *t = &types[ti];
            for (int root = 0; root < np; root++) {
                t_gatherv(t, root, nb, root % 2 == 1);
                t_scatterv(t, root, nb, root % 2 == 0);
            }
            for (int salt = 0; salt < 3; salt++) {
                t_allgatherv(t, salt, nb, salt == 1);
                t_alltoallv(t, salt, nb, salt == 2);
            }
        }
    for (int salt = 0; salt < 3; salt++)
        t_alltoallw(salt, salt == 1, salt == 2);
    for (int nb = 0; nb < 2; nb++)
        for (int ip = 0; ip < 2; ip++) {
            t_scan(false, nb, ip, RMP_SUM);
            t_scan(true, nb, ip, RMP_SUM);
            t_scan(false, nb, ip, RMP_MIN);
            t_scan(true, nb, ip, RMP_MIN);
        }
}

/* Rank 1's block one element longer than the root's slot: the root gets RMP_ERR_TRUNCATE, the
 * others RMP_SUCCESS, the other blocks are intact and the next collective runs in step. Then
 * arguments every rank gets wrong in the same way. */
static void t_errors(void)
{
    cm = RMP_COMM_WORLD;
    cname = "world";
    rmp_comm_rank(cm, &me);
    rmp_comm_size(cm, &np);
    if (np >= 2) {
        int counts[64], displs[64];
        for (int i = 0; i < np; i++) {
            counts[i] = 2;
            displs[i] = 2 * i;
        }
        int32_t sb[3] = {me, me, me}, rb[128];
        int rc = rmp_gatherv(sb, me == 1 ? 3 : 2, RMP_INT32, rb, counts, displs, RMP_INT32, 0, cm);
        EXPECT(rc == (me == 0 ? RMP_ERR_TRUNCATE : RMP_SUCCESS),
               "gatherv with rank 1's block too long returned %d on rank %d", rc, me);
        for (int i = 0; me == 0 && i < 2 * np; i++)
            EXPECT(rb[i] == i / 2, "gatherv truncated: int %d is %d, expected %d", i, rb[i], i / 2);
    }
    int c1[64] = {0}, d1[64] = {0}, x = 0;
    EXPECT_RC(RMP_ERR_ARG, rmp_allgatherv(&x, 1, RMP_INT32, &x, NULL, d1, RMP_INT32, cm));
    EXPECT_RC(RMP_ERR_ARG, rmp_allgatherv(&x, 1, RMP_INT32, &x, c1, NULL, RMP_INT32, cm));
    c1[0] = -1;
    EXPECT_RC(RMP_ERR_COUNT, rmp_alltoallv(&x, c1, d1, RMP_INT32, &x, c1, d1, RMP_INT32, cm));
    c1[0] = 0;
    EXPECT_RC(RMP_ERR_TYPE, rmp_alltoallv(&x, c1, d1, (rmp_datatype_t)9999, &x, c1, d1,
                                         RMP_INT32, cm));
    EXPECT_RC(RMP_ERR_OP, rmp_scan(&x, &x, 1, RMP_INT32, (rmp_op_t)999, cm));
    rmp_datatype_t tys[64];
    for (int i = 0; i < np; i++)
        tys[i] = RMP_INT32;
    tys[np - 1] = (rmp_datatype_t)9999;
    EXPECT_RC(RMP_ERR_TYPE, rmp_alltoallw(&x, c1, d1, tys, &x, c1, d1, tys, cm));
    EXPECT_RC(RMP_ERR_ARG, rmp_alltoallw(&x, c1, d1, NULL, &x, c1, d1, tys, cm));
    EXPECT_RC(RMP_ERR_ARG, rmp_iexscan(&x, &x, 1, RMP_INT32, RMP_SUM, cm, NULL));
    EXPECT_RC(RMP_ERR_ROOT, rmp_gatherv(&x, 1, RMP_INT32, &x, c1, d1, RMP_INT32, np, cm));
    CHECK(rmp_barrier(cm)); /* still in step */
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &prog_rank);
    phase("setup", 60);
    types[0] = (ttype_t){.t = RMP_INT32, .per = 1, .ext = 1, .off = {0}, .name = "int32"};
    rmp_datatype_t vec;
    MUST(rmp_type_vector(2, 1, 2, RMP_INT32, &vec));
    MUST(rmp_type_commit(&vec));
    types[1] = (ttype_t){.t = vec, .per = 2, .ext = 3, .off = {0, 2}, .name = "vector(2,1,2)"};
    size_t ext;
    MUST(rmp_type_extent(vec, &ext));
    if (ext != 12)
        FAIL("vector(2,1,2) of int32 has extent %zu, expected 12", ext);
    phase("world", 60);
    all_on(RMP_COMM_WORLD, "world");
    int wr, ws;
    rmp_comm_rank(RMP_COMM_WORLD, &wr);
    rmp_comm_size(RMP_COMM_WORLD, &ws);
    rmp_comm_t rev;
    MUST(rmp_comm_split(RMP_COMM_WORLD, wr % 2, ws - wr, &rev));
    phase("split", 60);
    all_on(rev, "split (reversed)");
    MUST(rmp_comm_free(&rev));
    phase("errors", 60);
    t_errors();
    MUST(rmp_type_free(&vec));
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (wr == 0 && !any)
        printf("vcoll: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
