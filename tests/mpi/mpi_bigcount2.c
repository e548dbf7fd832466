/* mpi_bigcount2.c — the large-count _c forms mpi_bigcount.c does not cover (issue 35's 94:
 * generated forwarding forms and mpi/bigcount_{type,misc,v,w}.c), one family per function,
 * counts 50, 1000 and 1009 with exact results. Run with RMPI_BIGCOUNT_LIMIT=100 the counts
 * past 100 take the big paths (a derived type per count; alltoallw per peer; reduce_scatter
 * through reduce + scatterv; user-op reductions, persistent requests and v-form arrays past
 * the limit give MPI_ERR_COUNT); without it everything takes the int path. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "mpicheck.h"

static int rank, size;
static MPI_Count limit = INT_MAX; /* RMPI_BIGCOUNT_LIMIT */

static int v(int r, long i, int k)
{
    return r * 100000 + (int)i * 3 + k;
}

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

static int *ints(MPI_Count n, int fill)
{
    int *b = malloc(sizeof(int) * (size_t)(n + 8));
    for (MPI_Count i = 0; i < n + 8; i++)
        b[i] = fill;
    return b;
}

/* b[0..n-1] = v(r, i, k); diff: and b[n] untouched (-1) */
static long diffn(const int *b, MPI_Count n, int r, int k)
{
    long bad = 0;
    for (MPI_Count i = 0; i < n; i++)
        bad += b[i] != v(r, (long)i, k);
    return bad;
}

static long diff(const int *b, MPI_Count n, int r, int k)
{
    return diffn(b, n, r, k) + (b[n] != -1);
}

/* Generated forwarding forms: nonblocking and persistent sends, matched receives, isendrecv. */
static void p2p(MPI_Count c, int k)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int *sb = ints(c, 0), *rb = ints(c, -1);
    for (MPI_Count i = 0; i < c; i++)
        sb[i] = v(rank, (long)i, k);
    MPI_Request rq[2];
    CHECK(MPI_Irecv_c(rb, c, MPI_INT, left, 1, MPI_COMM_WORLD, &rq[0]));
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* the ready send finds its receive posted */
    CHECK(MPI_Irsend_c(sb, c, MPI_INT, right, 1, MPI_COMM_WORLD, &rq[1]));
    CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    EXPECT_INT(diff(rb, c, left, k), 0);
    /* Mprobe + Mrecv_c, Improbe + Imrecv_c */
    MPI_Message m;
    MPI_Status st;
    MPI_Count got = 0;
    for (int round = 0; round < 2; round++) {
        rb[0] = -1, rb[c - 1] = -1;
        CHECK(MPI_Isendrecv_c(sb, c, MPI_INT, right, 2, rb, 0, MPI_INT, MPI_PROC_NULL, 2,
                              MPI_COMM_WORLD, &rq[0]));
        CHECK(MPI_Mprobe(left, 2, MPI_COMM_WORLD, &m, &st));
        if (round == 0) {
            CHECK(MPI_Mrecv_c(rb, c, MPI_INT, &m, &st));
        } else {
            CHECK(MPI_Imrecv_c(rb, c, MPI_INT, &m, &rq[1]));
            CHECK(MPI_Wait(&rq[1], &st));
        }
        CHECK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
        CHECK(MPI_Get_count_c(&st, MPI_INT, &got));
        EXPECT_INT(got, c);
        EXPECT_INT(diff(rb, c, left, k), 0);
    }
    /* Isendrecv_replace_c */
    for (MPI_Count i = 0; i < c; i++)
        rb[i] = v(rank, (long)i, k + 1);
    CHECK(MPI_Isendrecv_replace_c(rb, c, MPI_INT, right, 3, left, 3, MPI_COMM_WORLD, &rq[0]));
    CHECK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    EXPECT_INT(diff(rb, c, left, k + 1), 0);
    /* persistent: past the limit they refuse (MPI_ERR_COUNT), else work */
    int rc1 = MPI_Send_init_c(sb, c, MPI_INT, right, 4, MPI_COMM_WORLD, &rq[0]);
    int rc2 = MPI_Recv_init_c(rb, c, MPI_INT, left, 4, MPI_COMM_WORLD, &rq[1]);
    if (c > limit) {
        expect_class("Send_init_c past the limit", rc1, MPI_ERR_COUNT);
        expect_class("Recv_init_c past the limit", rc2, MPI_ERR_COUNT);
    } else {
        CHECK(rc1);
        CHECK(rc2);
        CHECK(MPI_Startall(2, rq));
        CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        EXPECT_INT(diff(rb, c, left, k), 0);
        CHECK(MPI_Request_free(&rq[0]));
        CHECK(MPI_Request_free(&rq[1]));
    }
    free(sb), free(rb);
}

static void sum_fn(void *in, void *inout, MPI_Count *len, MPI_Datatype *t)
{
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
    (void)t;
}

static long sum_bad(const int *b, MPI_Count c, int upto, int k)
{
    long bad = 0;
    for (MPI_Count i = 0; i < c; i++) {
        int s = 0;
        for (int r = 0; r <= upto; r++)
            s += v(r, (long)i, k);
        bad += b[i] != s;
    }
    return bad;
}

/* Nonblocking collectives (generated), a user op of MPI_Op_create_c, Reduce_local_c. */
static void icoll(MPI_Count c, int k)
{
    size_t n = (size_t)size, cc = (size_t)c;
    int *sb = ints(c * size, 0), *rb = ints(c * size, -1), *ab = ints(c * size, -1);
    MPI_Request rq;
    for (size_t i = 0; i < cc * n; i++)
        sb[i] = v(rank, (long)i, k);
    CHECK(MPI_Iallreduce_c(sb, rb, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    EXPECT_INT(sum_bad(rb, c, size - 1, k), 0);
    CHECK(MPI_Ireduce_c(sb, ab, c, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    EXPECT_INT(rank ? 0 : sum_bad(ab, c, size - 1, k), 0);
    CHECK(MPI_Iscan_c(sb, rb, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    EXPECT_INT(sum_bad(rb, c, rank, k), 0);
    for (size_t i = 0; i < cc; i++)
        rb[i] = -1;
    CHECK(MPI_Ibcast_c(rank == 0 ? sb : rb, c, MPI_INT, 0, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    EXPECT_INT(rank ? diff(rb, c, 0, k) : 0, 0);
    CHECK(MPI_Iallgather_c(sb, c, MPI_INT, ab, c, MPI_INT, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    long bad = 0;
    for (int r = 0; r < size; r++)
        for (size_t i = 0; i < cc; i++)
            bad += ab[r * cc + i] != v(r, (long)i, k);
    EXPECT_INT(bad, 0);
    CHECK(MPI_Ialltoall_c(sb, c, MPI_INT, rb, c, MPI_INT, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    bad = 0;
    for (int r = 0; r < size; r++)
        for (size_t i = 0; i < cc; i++)
            bad += rb[r * cc + i] != v(r, (long)(rank * cc + i), k);
    EXPECT_INT(bad, 0);
    /* a user op with an MPI_Count len: works within the limit, MPI_ERR_COUNT past it */
    MPI_Op op;
    CHECK(MPI_Op_create_c(sum_fn, 1, &op));
    int rc = MPI_Iallreduce_c(sb, rb, c, MPI_INT, op, MPI_COMM_WORLD, &rq);
    if (c > limit) {
        expect_class("Iallreduce_c user op past the limit", rc, MPI_ERR_COUNT);
    } else {
        CHECK(rc);
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        EXPECT_INT(sum_bad(rb, c, size - 1, k), 0);
    }
    CHECK(MPI_Allreduce(sb, rb, 7, MPI_INT, op, MPI_COMM_WORLD)); /* the int path calls it */
    EXPECT_INT(sum_bad(rb, 7, size - 1, k), 0);
    for (size_t i = 0; i < cc; i++)
        rb[i] = v(1, (long)i, k);
    CHECK(MPI_Reduce_local_c(sb, rb, c, MPI_INT, MPI_SUM));
    bad = 0;
    for (size_t i = 0; i < cc; i++)
        bad += rb[i] != v(rank, (long)i, k) + v(1, (long)i, k);
    EXPECT_INT(bad, 0);
    CHECK(MPI_Op_free(&op));
    free(sb), free(rb), free(ab);
}

/* The alltoallw forms past the limit (per peer) and reduce_scatter_c (reduce + scatterv). */
static void wcoll(MPI_Count c, int k)
{
    size_t n = (size_t)size;
    MPI_Count *cnt = malloc(sizeof(MPI_Count) * n), tot = 0;
    MPI_Aint *sd = malloc(sizeof(MPI_Aint) * n), *rd = malloc(sizeof(MPI_Aint) * n);
    MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * n);
    for (int r = 0; r < size; r++) { /* rank r's block: c ints to and from rank 1, else 5 */
        cnt[r] = (r == 1 || rank == 1) ? c : 5;
        ty[r] = MPI_INT;
    }
    for (int r = size - 1; r >= 0; r--)
        rd[r] = (MPI_Aint)(tot * 4), tot += cnt[r] + 2; /* reverse order, bytes, gaps */
    int *sb = ints(c, 0), *rb = ints(tot, -1);
    for (MPI_Count i = 0; i < c; i++)
        sb[i] = v(rank, (long)i, k);
    for (int r = 0; r < size; r++)
        sd[r] = 0;
    MPI_Request rq;
    for (int form = 0; form < 2; form++) {
        for (MPI_Count i = 0; i < tot; i++)
            rb[i] = -1;
        if (form == 0) {
            CHECK(MPI_Alltoallw_c(sb, cnt, sd, ty, rb, cnt, rd, ty, MPI_COMM_WORLD));
        } else {
            CHECK(MPI_Ialltoallw_c(sb, cnt, sd, ty, rb, cnt, rd, ty, MPI_COMM_WORLD, &rq));
            CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        }
        long bad = 0;
        for (int r = 0; r < size; r++)
            for (MPI_Count i = 0; i < cnt[r] + 2; i++)
                bad += rb[rd[r] / 4 + i] != (i < cnt[r] ? v(r, (long)i, k) : -1);
        EXPECT_INT(bad, 0);
    }
    /* reduce_scatter_c: block r is c + r ints */
    MPI_Count all = 0;
    for (int r = 0; r < size; r++)
        cnt[r] = c + r, all += c + r;
    int *in = ints(all, 0), *out = ints(c + size, -1);
    for (MPI_Count i = 0; i < all; i++)
        in[i] = v(rank, (long)i, k);
    CHECK(MPI_Reduce_scatter_c(in, out, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MPI_Count at = 0;
    for (int r = 0; r < rank; r++)
        at += cnt[r];
    long bad = 0;
    for (MPI_Count i = 0; i < cnt[rank]; i++) {
        int s = 0;
        for (int r = 0; r < size; r++)
            s += v(r, (long)(at + i), k);
        bad += out[i] != s;
    }
    EXPECT_INT(bad, 0);
    /* every rank sees the same recvcounts: all refuse together past the limit */
    int rc = MPI_Ireduce_scatter_c(in, out, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    if (c + size - 1 > limit) {
        expect_class("Ireduce_scatter_c past the limit", rc, MPI_ERR_COUNT);
    } else {
        CHECK(rc);
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    free(cnt), free(sd), free(rd), free(ty), free(sb), free(rb), free(in), free(out);
}

/* Neighbourhood forms on a periodic ring (left, right), the nonblocking v-forms and the
 * persistent collectives: scalar counts past the limit work (a big element), persistent ones
 * and v-form arrays past it refuse on every rank alike (MPI_ERR_COUNT). */
static void nbr(MPI_Count c, int k)
{
    MPI_Comm ring;
    int dims = size, per = 1;
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &per, 0, &ring));
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    int *sb = ints(2 * c, 0), *rb = ints(2 * c, -1);
    for (MPI_Count i = 0; i < 2 * c; i++)
        sb[i] = v(rank, (long)i, k);
    MPI_Request rq;
    CHECK(MPI_Ineighbor_allgather_c(sb, c, MPI_INT, rb, c, MPI_INT, ring, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    EXPECT_INT(diffn(rb, c, left, k) + diff(rb + c, c, right, k), 0);
    CHECK(MPI_Neighbor_alltoall_c(sb, c, MPI_INT, rb, c, MPI_INT, ring)); /* block 0 to left */
    long bad = 0;
    for (MPI_Count i = 0; i < c; i++)
        bad += rb[i] != v(left, (long)(c + i), k) || rb[c + i] != v(right, (long)i, k);
    EXPECT_INT(bad, 0);
    MPI_Count cn[2] = {c, c};
    MPI_Aint sd[2] = {0, 4 * c}, rd[2] = {4 * c, 0};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
    CHECK(MPI_Neighbor_alltoallw_c(sb, cn, sd, ty, rb, cn, rd, ty, ring)); /* blocks swapped */
    bad = 0;
    for (MPI_Count i = 0; i < c; i++)
        bad += rb[c + i] != v(left, (long)(c + i), k) || rb[i] != v(right, (long)i, k);
    EXPECT_INT(bad, 0);
    /* v-forms with arrays: within the limit they work, past it every rank refuses */
    MPI_Count *vc = malloc(sizeof(MPI_Count) * (size_t)size);
    MPI_Aint *vd = malloc(sizeof(MPI_Aint) * (size_t)size);
    int *all = ints(c * size, -1);
    for (int r = 0; r < size; r++)
        vc[r] = c, vd[r] = (MPI_Aint)(c * (size - 1 - r));
    int rc = MPI_Iallgatherv_c(sb, c, MPI_INT, all, vc, vd, MPI_INT, MPI_COMM_WORLD, &rq);
    if (c > limit) {
        expect_class("Iallgatherv_c arrays past the limit", rc, MPI_ERR_COUNT);
    } else {
        CHECK(rc);
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int r = 0; r < size; r++)
            EXPECT_INT(diffn(all + vd[r], c, r, k), 0);
        for (MPI_Count i = 0; i < c; i++)
            rb[i] = -1;
        CHECK(MPI_Iscatterv_c(all, vc, vd, MPI_INT, rb, c, MPI_INT, 0, MPI_COMM_WORLD, &rq));
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        EXPECT_INT(diffn(rb, c, rank, k), 0);
        MPI_Aint *zero = calloc((size_t)size, sizeof(MPI_Aint)); /* my first c to everyone */
        CHECK(MPI_Ialltoallv_c(sb, vc, zero, MPI_INT, all, vc, vd, MPI_INT, MPI_COMM_WORLD, &rq));
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        bad = 0;
        for (int r = 0; r < size; r++)
            bad += diffn(all + vd[r], c, r, k);
        EXPECT_INT(bad, 0);
        free(zero);
    }
    /* persistent: Bcast_init_c */
    for (MPI_Count i = 0; i < c; i++)
        rb[i] = rank ? -1 : sb[i];
    rc = MPI_Bcast_init_c(rb, c, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    if (c > limit) {
        expect_class("Bcast_init_c past the limit", rc, MPI_ERR_COUNT);
    } else {
        CHECK(rc);
        CHECK(MPI_Start(&rq));
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        EXPECT_INT(diffn(rb, c, 0, k), 0);
        CHECK(MPI_Request_free(&rq));
    }
    CHECK(MPI_Comm_free(&ring));
    free(sb), free(rb), free(vc), free(vd), free(all);
}

/* One-sided: the generated Put/Get/Accumulate forms and the _c window constructors. */
static void rma(MPI_Count c, int k)
{
    int *base = NULL, *mine = ints(c, 0), *res = ints(c, -1);
    MPI_Win win;
    CHECK(MPI_Win_allocate_c((MPI_Aint)(c * 4), 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MPI_Aint sz = -1, du = -1;
    int *q = NULL;
    CHECK(MPI_Win_shared_query_c(win, MPI_PROC_NULL, &sz, &du, &q));
    EXPECT_INT(du, 4);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (MPI_Count i = 0; i < c; i++)
        mine[i] = v(rank, (long)i, k), base[i] = -1;
    CHECK(MPI_Win_fence(0, win));
    CHECK(MPI_Put_c(mine, c, MPI_INT, right, 0, c, MPI_INT, win));
    CHECK(MPI_Win_fence(0, win));
    long bad = 0;
    for (MPI_Count i = 0; i < c; i++)
        bad += base[i] != v(left, (long)i, k);
    EXPECT_INT(bad, 0);
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* checked before the left rank accumulates */
    CHECK(MPI_Accumulate_c(mine, c, MPI_INT, right, 0, c, MPI_INT, MPI_SUM, win));
    CHECK(MPI_Win_fence(0, win));
    CHECK(MPI_Get_c(res, c, MPI_INT, rank, 0, c, MPI_INT, win));
    CHECK(MPI_Win_fence(0, win));
    bad = 0;
    for (MPI_Count i = 0; i < c; i++)
        bad += res[i] != 2 * v(left, (long)i, k);
    EXPECT_INT(bad, 0);
    CHECK(MPI_Win_lock_all(0, win));
    MPI_Request rq;
    CHECK(MPI_Rget_accumulate_c(mine, c, MPI_INT, res, c, MPI_INT, right, 0, c, MPI_INT,
                                MPI_REPLACE, win, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Win_unlock_all(win));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    bad = 0;
    for (MPI_Count i = 0; i < c; i++)
        bad += res[i] != 2 * v(rank, (long)i, k) || base[i] != v(left, (long)i, k);
    EXPECT_INT(bad, 0);
    CHECK(MPI_Win_free(&win));
    int dummy[4];
    expect_class("Win_create_c disp_unit past int",
                 MPI_Win_create_c(dummy, 16, (MPI_Aint)INT_MAX + 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                                  &win),
                 MPI_ERR_ARG);
    free(mine), free(res);
}

/* One element of t packed (MPI_Pack_c) from src[i] = i: the ints it holds, in order,
 * compared with want[0..n-1]. */
static void layout(const char *what, MPI_Datatype t, MPI_Count span, const int *want, MPI_Count n)
{
    int *src = ints(span, 0), *out = ints(n, -1);
    for (MPI_Count i = 0; i < span; i++)
        src[i] = (int)i;
    MPI_Count pos = 0, sz = -1;
    CHECK(MPI_Type_commit(&t));
    CHECK(MPI_Type_size_c(t, &sz));
    if (sz != 4 * n)
        FAIL("%s: size %lld, want %lld", what, (long long)sz, (long long)(4 * n));
    CHECK(MPI_Pack_c(src, 1, t, out, 4 * (n + 8), &pos, MPI_COMM_WORLD));
    long bad = pos != 4 * n;
    for (MPI_Count i = 0; i < n; i++)
        bad += out[i] != want[i];
    if (bad)
        FAIL("%s: %ld ints differ", what, bad);
    CHECK(MPI_Type_free(&t));
    free(src), free(out);
}

/* The _c constructors: blocks of c ints (past the limit when c is), exact layouts. */
static void types(MPI_Count c, int k)
{
    (void)k;
    MPI_Datatype t;
    int *want = ints(3 * c + 8, 0);
    /* hvector: 2 blocks of c ints, c + 3 ints apart; vector: c blocks of 2, 3 apart */
    for (MPI_Count i = 0; i < 2 * c; i++)
        want[i] = (int)(i < c ? i : i - c + c + 3);
    CHECK(MPI_Type_create_hvector_c(2, c, 4 * (c + 3), MPI_INT, &t));
    layout("hvector_c", t, 2 * c + 3, want, 2 * c);
    for (MPI_Count j = 0; j < c; j++)
        want[2 * j] = (int)(3 * j), want[2 * j + 1] = (int)(3 * j + 1);
    CHECK(MPI_Type_create_hvector_c(c, 2, 12, MPI_INT, &t));
    layout("hvector_c many", t, 3 * c, want, 2 * c);
    /* (h)indexed and struct: block 0 = ints c+2 .. c+4, block 1 = ints 0 .. c-1 */
    MPI_Count lens[2] = {3, c}, disp[2] = {c + 2, 0}, bytes[2] = {4 * (c + 2), 0};
    for (MPI_Count i = 0; i < c + 3; i++)
        want[i] = (int)(i < 3 ? c + 2 + i : i - 3);
    CHECK(MPI_Type_indexed_c(2, lens, disp, MPI_INT, &t));
    layout("indexed_c", t, c + 5, want, c + 3);
    CHECK(MPI_Type_create_hindexed_c(2, lens, bytes, MPI_INT, &t));
    layout("hindexed_c", t, c + 5, want, c + 3);
    MPI_Datatype tys[2] = {MPI_INT, MPI_INT};
    CHECK(MPI_Type_create_struct_c(2, lens, bytes, tys, &t));
    layout("struct_c", t, c + 5, want, c + 3);
    /* (h)indexed_block: blocks of c ints at c + 1 and 0 */
    MPI_Count bd[2] = {c + 1, 0}, bb[2] = {4 * (c + 1), 0};
    for (MPI_Count i = 0; i < 2 * c; i++)
        want[i] = (int)(i < c ? c + 1 + i : i - c);
    CHECK(MPI_Type_create_indexed_block_c(2, c, bd, MPI_INT, &t));
    layout("indexed_block_c", t, 2 * c + 1, want, 2 * c);
    CHECK(MPI_Type_create_hindexed_block_c(2, c, bb, MPI_INT, &t));
    layout("hindexed_block_c", t, 2 * c + 1, want, 2 * c);
    /* subarray: row 1 of a 2 x c array; darray of one process: all c */
    MPI_Count sizes[2] = {2, c}, sub[2] = {1, c}, st[2] = {1, 0};
    for (MPI_Count i = 0; i < c; i++)
        want[i] = (int)(c + i);
    CHECK(MPI_Type_create_subarray_c(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t));
    layout("subarray_c", t, 2 * c, want, c);
    int dist = MPI_DISTRIBUTE_BLOCK, darg = MPI_DISTRIBUTE_DFLT_DARG, ps = 1;
    for (MPI_Count i = 0; i < c; i++)
        want[i] = (int)i;
    CHECK(MPI_Type_create_darray_c(1, 0, 1, &c, &dist, &darg, &ps, MPI_ORDER_C, MPI_INT, &t));
    layout("darray_c", t, c, want, c);
    /* bounds and decoding */
    MPI_Count lb = 0, ext = 0;
    CHECK(MPI_Type_create_resized_c(MPI_INT, -4, 4 * c, &t));
    CHECK(MPI_Type_get_extent_c(t, &lb, &ext));
    EXPECT_INT(lb, -4);
    EXPECT_INT(ext, 4 * c);
    CHECK(MPI_Type_get_true_extent_c(t, &lb, &ext));
    EXPECT_INT(lb, 0);
    EXPECT_INT(ext, 4);
    MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
    int comb = -1, is[4];
    MPI_Aint as[4];
    MPI_Datatype ds[2];
    CHECK(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &comb));
    EXPECT_INT(comb, MPI_COMBINER_RESIZED);
    EXPECT_INT(nl, 0);
    CHECK(MPI_Type_get_contents_c(t, ni, na, nl, nd, is, as, NULL, ds));
    EXPECT_INT(as[0], -4);
    EXPECT_INT(as[1], 4 * c);
    CHECK(MPI_Type_free(&t));
    free(want);
}

/* Packing (Pack_c and friends past the limit: one big element), the attached buffer. */
static void packing(MPI_Count c, int k)
{
    int *src = ints(c, 0), *back = ints(c, -1);
    for (MPI_Count i = 0; i < c; i++)
        src[i] = v(rank, (long)i, k);
    MPI_Count sz = -1, pos = 0, got = 0;
    CHECK(MPI_Pack_size_c(c, MPI_INT, MPI_COMM_WORLD, &sz));
    if (sz < 4 * c)
        FAIL("Pack_size_c %lld < %lld", (long long)sz, (long long)(4 * c));
    char *buf = malloc((size_t)sz + 16);
    CHECK(MPI_Pack_c(src, c, MPI_INT, buf, sz, &pos, MPI_COMM_WORLD));
    CHECK(MPI_Unpack_c(buf, sz, &got, back, c, MPI_INT, MPI_COMM_WORLD));
    EXPECT_INT(got, pos);
    EXPECT_INT(diff(back, c, rank, k), 0);
    CHECK(MPI_Pack_external_size_c("external32", c, MPI_INT, &sz));
    EXPECT_INT(sz, 4 * c);
    pos = got = 0;
    CHECK(MPI_Pack_external_c("external32", src, c, MPI_INT, buf, sz, &pos));
    EXPECT_INT(pos, 4 * c);
    EXPECT_INT((unsigned char)buf[3], (unsigned)v(rank, 0, k) & 0xff); /* big-endian */
    for (MPI_Count i = 0; i < c; i++)
        back[i] = -1;
    CHECK(MPI_Unpack_external_c("external32", buf, sz, &got, back, c, MPI_INT));
    EXPECT_INT(diff(back, c, rank, k), 0);
    free(buf);
    /* a buffered send to myself through a buffer attached by Buffer_attach_c */
    MPI_Count bsz = 4 * c + MPI_BSEND_OVERHEAD, dsz = -1;
    void *att = malloc((size_t)bsz), *det = NULL;
    CHECK(MPI_Buffer_attach_c(att, bsz));
    MPI_Request rq;
    CHECK(MPI_Ibsend_c(src, c, MPI_INT, rank, 7, MPI_COMM_WORLD, &rq));
    for (MPI_Count i = 0; i < c; i++)
        back[i] = -1;
    CHECK(MPI_Recv_c(back, c, MPI_INT, rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    EXPECT_INT(diff(back, c, rank, k), 0);
    CHECK(MPI_Buffer_detach_c(&det, &dsz));
    EXPECT_INT(dsz, bsz);
    if (det != att)
        FAIL("Buffer_detach_c gave another address");
    expect_class("Buffer_attach_c past int", MPI_Buffer_attach_c(att, (MPI_Count)INT_MAX + 1),
                 MPI_ERR_COUNT);
    free(att), free(src), free(back);
}

int main(int argc, char **argv)
{
    mc_watchdog(150);
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    mc_rank = rank;
    const char *lim = getenv("RMPI_BIGCOUNT_LIMIT");
    if (lim)
        limit = atoll(lim);
    MPI_Count counts[] = {50, 1000, 1009};
    for (int k = 0; k < 3; k++) {
        p2p(counts[k], k);
        icoll(counts[k], k);
        wcoll(counts[k], k);
        nbr(counts[k], k);
        rma(counts[k], k);
        types(counts[k], k);
        packing(counts[k], k);
    }
    CHECK(MPI_Finalize());
    return mc_done("mpi_bigcount2");
}
