/* mpi_bigcount.c — MPI-4's large-count _c forms, as MPICH's test/mpi/pt2pt and coll large
 * count tests do, in two parts:
 * - "small" (n = 1..8): every _c call with counts 50, 1000 and 1009, exact results against
 *   serial references. Run with RMPI_BIGCOUNT_LIMIT=100, 1000 (= 10 * 100) takes the factored
 *   derived type and 1009 (prime) the chunk struct, reductions go in pieces, and the v-forms
 *   (one rank's count past the limit, others below: the agreement) the alltoallw path; run
 *   without it, all take the int path. Also the error classes.
 * - "huge" (n = 2): one message of 2^31 + 16 bytes (MPI_BYTE) by Send_c/Recv_c, then Bcast_c
 *   of it back, every byte checked; only when /proc/meminfo's MemAvailable > 12 GiB (else a
 *   "SKIP" line says why), the buffers freed at once. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "mpicheck.h"

static int rank, size;
static bool limited; /* RMPI_BIGCOUNT_LIMIT is set: the big paths run */

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

static void p2p(MPI_Count c, int k)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int *sb = malloc(sizeof(int) * (size_t)c), *rb = malloc(sizeof(int) * (size_t)(c + 4));
    MPI_Status st;
    MPI_Count got = -1;
    for (long i = 0; i < c; i++)
        sb[i] = v(rank, i, k);
    /* Isend_c / Recv_c: count and elements */
    MPI_Request r;
    for (long i = 0; i < c + 4; i++)
        rb[i] = -1;
    CHECK(MPI_Isend_c(sb, c, MPI_INT, right, 1, MPI_COMM_WORLD, &r));
    CHECK(MPI_Recv_c(rb, c + 4, MPI_INT, left, 1, MPI_COMM_WORLD, &st));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Get_count_c(&st, MPI_INT, &got));
    EXPECT_INT(got, c);
    CHECK(MPI_Get_elements_c(&st, MPI_INT, &got));
    EXPECT_INT(got, c);
    long bad = 0;
    for (long i = 0; i < c + 4; i++)
        bad += rb[i] != (i < c ? v(left, i, k) : -1);
    EXPECT_INT(bad, 0);
    /* a non-contiguous type: c elements of 2 ints out of every 3 */
    MPI_Datatype two;
    CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &two)); /* ints 0 and 2 of 3 */
    CHECK(MPI_Type_commit(&two));
    int *ns = malloc(sizeof(int) * (size_t)(3 * c)), *nr = malloc(sizeof(int) * (size_t)(3 * c));
    for (long i = 0; i < 3 * c; i++)
        ns[i] = v(rank, i, k), nr[i] = -1;
    CHECK(MPI_Irecv_c(nr, c, two, left, 2, MPI_COMM_WORLD, &r));
    CHECK(MPI_Send_c(ns, c, two, right, 2, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&r, &st));
    CHECK(MPI_Get_elements_c(&st, two, &got));
    EXPECT_INT(got, 2 * c);
    CHECK(MPI_Get_count_c(&st, two, &got));
    EXPECT_INT(got, c);
    bad = 0;
    /* element j of `two` (extent 3 ints... then 2 ints at 0 and 2, extent 3): ints 3j, 3j+2 */
    for (long i = 0; i < 3 * c; i++) {
        long e = i % 3;
        bad += nr[i] != (e == 1 ? -1 : v(left, i, k));
    }
    EXPECT_INT(bad, 0);
    /* Sendrecv_c and Sendrecv_replace_c */
    for (long i = 0; i < c; i++)
        rb[i] = -1;
    CHECK(MPI_Sendrecv_c(sb, c, MPI_INT, right, 3, rb, c, MPI_INT, left, 3, MPI_COMM_WORLD, &st));
    CHECK(MPI_Get_count_c(&st, MPI_INT, &got));
    EXPECT_INT(got, c);
    bad = 0;
    for (long i = 0; i < c; i++)
        bad += rb[i] != v(left, i, k);
    EXPECT_INT(bad, 0);
    for (long i = 0; i < c; i++)
        rb[i] = v(rank, i, k + 1);
    CHECK(MPI_Sendrecv_replace_c(rb, c, MPI_INT, right, 4, left, 4, MPI_COMM_WORLD, &st));
    bad = 0;
    for (long i = 0; i < c; i++)
        bad += rb[i] != v(left, i, k + 1);
    EXPECT_INT(bad, 0);
    /* Ssend_c, Rsend_c (receive posted before a barrier), Bsend_c */
    CHECK(MPI_Irecv_c(rb, c, MPI_INT, left, 5, MPI_COMM_WORLD, &r));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Rsend_c(sb, c, MPI_INT, right, 5, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    EXPECT_INT(rb[c - 1], v(left, c - 1, k));
    CHECK(MPI_Irecv_c(rb, c, MPI_INT, left, 6, MPI_COMM_WORLD, &r));
    CHECK(MPI_Ssend_c(sb, c, MPI_INT, right, 6, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    EXPECT_INT(rb[0], v(left, 0, k));
    int bsz = (int)(c * (MPI_Count)sizeof(int)) + MPI_BSEND_OVERHEAD;
    char *bbuf = malloc((size_t)bsz);
    CHECK(MPI_Buffer_attach(bbuf, bsz));
    CHECK(MPI_Bsend_c(sb, c, MPI_INT, right, 7, MPI_COMM_WORLD));
    CHECK(MPI_Recv_c(rb, c, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    void *back;
    int bl;
    CHECK(MPI_Buffer_detach(&back, &bl));
    free(bbuf);
    EXPECT_INT(rb[c / 2], v(left, c / 2, k));
    CHECK(MPI_Type_free(&two));
    free(sb), free(rb), free(ns), free(nr);
}

static void coll(MPI_Count c, int k)
{
    size_t n = (size_t)size, cc = (size_t)c;
    int *sb = malloc(sizeof(int) * cc * n), *rb = malloc(sizeof(int) * cc * n);
    int *all = malloc(sizeof(int) * cc * n);
    long bad = 0;
    int root = size - 1;
    /* Bcast_c */
    for (size_t i = 0; i < cc; i++)
        rb[i] = rank == root ? v(root, (long)i, k) : -1;
    CHECK(MPI_Bcast_c(rb, c, MPI_INT, root, MPI_COMM_WORLD));
    for (size_t i = 0; i < cc; i++)
        bad += rb[i] != v(root, (long)i, k);
    EXPECT_INT(bad, 0);
    /* reductions */
    for (size_t i = 0; i < cc * n; i++)
        sb[i] = v(rank, (long)i, k);
    CHECK(MPI_Reduce_c(sb, rb, c, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    bad = 0;
    if (rank == 0)
        for (size_t i = 0; i < cc; i++) {
            int s = 0;
            for (int r = 0; r < size; r++)
                s += v(r, (long)i, k);
            bad += rb[i] != s;
        }
    EXPECT_INT(bad, 0);
    CHECK(MPI_Allreduce_c(sb, rb, c, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < cc; i++)
        bad += rb[i] != v(size - 1, (long)i, k);
    EXPECT_INT(bad, 0);
    memcpy(rb, sb, sizeof(int) * cc);
    CHECK(MPI_Allreduce_c(MPI_IN_PLACE, rb, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < cc; i++) {
        int s = 0;
        for (int r = 0; r < size; r++)
            s += v(r, (long)i, k);
        bad += rb[i] != s;
    }
    EXPECT_INT(bad, 0);
    CHECK(MPI_Scan_c(sb, rb, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (size_t i = 0; i < cc; i++)
        all[i] = -1;
    CHECK(MPI_Exscan_c(sb, all, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < cc; i++) {
        int s = 0;
        for (int r = 0; r <= rank; r++)
            s += v(r, (long)i, k);
        bad += rb[i] != s;
        bad += all[i] != (rank ? s - v(rank, (long)i, k) : -1);
    }
    EXPECT_INT(bad, 0);
    /* Reduce_scatter_block_c, then in place */
    CHECK(MPI_Reduce_scatter_block_c(sb, rb, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    memcpy(all, sb, sizeof(int) * cc * n);
    CHECK(MPI_Reduce_scatter_block_c(MPI_IN_PLACE, all, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < cc; i++) {
        int s = 0;
        for (int r = 0; r < size; r++)
            s += v(r, (long)(rank * cc + i), k);
        bad += rb[i] != s;
        bad += all[i] != s;
    }
    EXPECT_INT(bad, 0);
    /* Gather_c, Allgather_c, Scatter_c, Alltoall_c */
    for (size_t i = 0; i < cc * n; i++)
        rb[i] = all[i] = -1;
    CHECK(MPI_Gather_c(sb, c, MPI_INT, rb, c, MPI_INT, root, MPI_COMM_WORLD));
    CHECK(MPI_Allgather_c(sb, c, MPI_INT, all, c, MPI_INT, MPI_COMM_WORLD));
    bad = 0;
    for (int r = 0; r < size; r++)
        for (size_t i = 0; i < cc; i++) {
            if (rank == root)
                bad += rb[r * cc + i] != v(r, (long)i, k);
            bad += all[r * cc + i] != v(r, (long)i, k);
        }
    EXPECT_INT(bad, 0);
    for (size_t i = 0; i < cc; i++)
        rb[i] = -1;
    CHECK(MPI_Scatter_c(all, c, MPI_INT, rb, c, MPI_INT, root, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < cc; i++)
        bad += rb[i] != v(rank, (long)i, k);
    EXPECT_INT(bad, 0);
    CHECK(MPI_Alltoall_c(sb, c, MPI_INT, rb, c, MPI_INT, MPI_COMM_WORLD));
    bad = 0;
    for (int r = 0; r < size; r++)
        for (size_t i = 0; i < cc; i++)
            bad += rb[r * cc + i] != v(r, (long)(rank * cc + i), k);
    EXPECT_INT(bad, 0);
    free(sb), free(rb), free(all);
}

/* The v-forms: rank 1's block is c elements (past the limit when c is), the others 7 + r;
 * blocks in reverse rank order with gaps of 3 between them. */
static void vcoll(MPI_Count c, int k)
{
    size_t n = (size_t)size;
    MPI_Count *cnt = malloc(sizeof(MPI_Count) * n);
    MPI_Aint *dsp = malloc(sizeof(MPI_Aint) * n);
    MPI_Count tot = 0;
    for (int r = size - 1; r >= 0; r--) {
        cnt[r] = r == 1 ? c : 7 + r;
        dsp[r] = tot;
        tot += cnt[r] + 3;
    }
    MPI_Count mine = cnt[rank];
    int *sb = malloc(sizeof(int) * (size_t)c + 64), *rb = malloc(sizeof(int) * (size_t)tot);
    int *ab = malloc(sizeof(int) * (size_t)tot);
    for (MPI_Count i = 0; i < mine; i++)
        sb[i] = v(rank, (long)i, k);
    int root = 0;
    long bad = 0;
    /* Gatherv_c, Allgatherv_c */
    for (MPI_Count i = 0; i < tot; i++)
        rb[i] = ab[i] = -1;
    CHECK(MPI_Gatherv_c(sb, mine, MPI_INT, rb, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD));
    CHECK(MPI_Allgatherv_c(sb, mine, MPI_INT, ab, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        for (MPI_Count i = 0; i < cnt[r] + 3; i++) {
            int want = i < cnt[r] ? v(r, (long)i, k) : -1;
            if (rank == root)
                bad += rb[dsp[r] + i] != want;
            bad += ab[dsp[r] + i] != want;
        }
    EXPECT_INT(bad, 0);
    /* in place: allgatherv with my block already in ab; gatherv at the root */
    for (MPI_Count i = 0; i < tot; i++)
        ab[i] = -1;
    for (MPI_Count i = 0; i < mine; i++)
        ab[dsp[rank] + i] = v(rank, (long)i, k + 1);
    CHECK(MPI_Allgatherv_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ab, cnt, dsp, MPI_INT,
                           MPI_COMM_WORLD));
    bad = 0;
    for (int r = 0; r < size; r++)
        for (MPI_Count i = 0; i < cnt[r]; i++)
            bad += ab[dsp[r] + i] != v(r, (long)i, k + 1);
    EXPECT_INT(bad, 0);
    /* Scatterv_c: the root sends each rank its block of ab (which holds round k + 1) */
    for (MPI_Count i = 0; i < mine + 8 && i < c + 16; i++)
        sb[i] = -1;
    CHECK(MPI_Scatterv_c(ab, cnt, dsp, MPI_INT, sb, mine, MPI_INT, root, MPI_COMM_WORLD));
    bad = 0;
    for (MPI_Count i = 0; i < mine; i++)
        bad += sb[i] != v(rank, (long)i, k + 1);
    EXPECT_INT(bad, 0);
    /* Alltoallv_c: to rank d I send cnt[rank] ints taken at 0 (the same block to all); I get
     * cnt[s] ints from s at dsp[s] */
    MPI_Count *sc = malloc(sizeof(MPI_Count) * n);
    MPI_Aint *sd = malloc(sizeof(MPI_Aint) * n);
    for (int d = 0; d < size; d++)
        sc[d] = mine, sd[d] = 0;
    for (MPI_Count i = 0; i < mine; i++)
        sb[i] = v(rank, (long)i, k + 2);
    /* but what I receive from s is cnt[s]... and s sends cnt[s] = its mine: consistent */
    for (MPI_Count i = 0; i < tot; i++)
        rb[i] = -1;
    CHECK(MPI_Alltoallv_c(sb, sc, sd, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
    bad = 0;
    for (int r = 0; r < size; r++)
        for (MPI_Count i = 0; i < cnt[r] + 3; i++)
            bad += rb[dsp[r] + i] != (i < cnt[r] ? v(r, (long)i, k + 2) : -1);
    EXPECT_INT(bad, 0);
    free(cnt), free(dsp), free(sb), free(rb), free(ab), free(sc), free(sd);
}

/* Gatherv_c and Scatterv_c in place at a root whose own block (rank 1's, past the limit when
 * c is) stays where it is: gathered around it, scattered from the rest of the buffer. */
static void vcoll_in_place(MPI_Count c, int k)
{
    int root = size > 1 ? 1 : 0;
    MPI_Count *cnt = malloc(sizeof(MPI_Count) * (size_t)size), tot = 0;
    MPI_Aint *dsp = malloc(sizeof(MPI_Aint) * (size_t)size);
    for (int r = 0; r < size; r++) {
        cnt[r] = r == 1 ? c : 5 + r;
        dsp[r] = tot;
        tot += cnt[r] + 2;
    }
    int *b = malloc(sizeof(int) * (size_t)tot), *mine = malloc(sizeof(int) * (size_t)cnt[rank]);
    for (MPI_Count i = 0; i < tot; i++)
        b[i] = -1;
    for (MPI_Count i = 0; i < cnt[rank]; i++)
        mine[i] = b[dsp[rank] + i] = v(rank, (long)i, k);
    CHECK(MPI_Gatherv_c(rank == root ? MPI_IN_PLACE : mine, cnt[rank], MPI_INT, b, cnt, dsp,
                        MPI_INT, root, MPI_COMM_WORLD));
    long bad = 0;
    for (int r = 0; r < size && rank == root; r++)
        for (MPI_Count i = 0; i < cnt[r] + 2; i++)
            bad += b[dsp[r] + i] != (i < cnt[r] ? v(r, (long)i, k) : -1);
    EXPECT_INT(bad, 0);
    for (MPI_Count i = 0; i < cnt[rank]; i++)
        mine[i] = -1;
    CHECK(MPI_Scatterv_c(b, cnt, dsp, MPI_INT, rank == root ? MPI_IN_PLACE : mine, cnt[rank],
                         MPI_INT, root, MPI_COMM_WORLD));
    bad = 0;
    const int *got = rank == root ? b + dsp[rank] : mine;
    for (MPI_Count i = 0; i < cnt[rank]; i++)
        bad += got[i] != v(rank, (long)i, k);
    EXPECT_INT(bad, 0);
    free(cnt), free(dsp), free(b), free(mine);
}

static void types(MPI_Count c)
{
    MPI_Datatype t, w;
    MPI_Count sz = -1, lb = -1, ext = -1;
    CHECK(MPI_Type_contiguous_c(c, MPI_INT, &t));
    CHECK(MPI_Type_commit(&t));
    CHECK(MPI_Type_size_c(t, &sz));
    EXPECT_INT(sz, 4 * c);
    CHECK(MPI_Type_get_extent_c(t, &lb, &ext));
    EXPECT_INT(lb, 0);
    EXPECT_INT(ext, 4 * c);
    /* vector: c blocks of 2 ints, 3 apart */
    CHECK(MPI_Type_vector_c(c, 2, 3, MPI_INT, &w));
    CHECK(MPI_Type_commit(&w));
    CHECK(MPI_Type_size_c(w, &sz));
    EXPECT_INT(sz, 8 * c);
    CHECK(MPI_Type_get_extent_c(w, &lb, &ext));
    EXPECT_INT(ext, 4 * ((c - 1) * 3 + 2));
    /* its layout, through a message to myself packed as plain ints */
    int *src = malloc(sizeof(int) * (size_t)(3 * c)), *dst = malloc(sizeof(int) * (size_t)(2 * c));
    for (long i = 0; i < 3 * c; i++)
        src[i] = (int)i;
    CHECK(MPI_Sendrecv_c(src, 1, w, MPI_PROC_NULL, 0, dst, 0, MPI_INT, MPI_PROC_NULL, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Request r;
    CHECK(MPI_Irecv_c(dst, 2 * c, MPI_INT, rank, 9, MPI_COMM_WORLD, &r));
    CHECK(MPI_Send_c(src, 1, w, rank, 9, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    long bad = 0;
    for (long j = 0; j < c; j++)
        bad += dst[2 * j] != 3 * j || dst[2 * j + 1] != 3 * j + 1;
    EXPECT_INT(bad, 0);
    free(src), free(dst);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_free(&w));
}

static void errors(void)
{
    int x[4] = {0};
    expect_class("Send_c count -1", MPI_Send_c(x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD),
                 MPI_ERR_COUNT);
    expect_class("Bcast_c bad type", MPI_Bcast_c(x, 1, 9999, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    expect_class("Bcast_c big, bad type",
                 MPI_Bcast_c(x, (MPI_Count)INT_MAX + 5, 9999, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    expect_class("Recv_c bad rank",
                 MPI_Recv_c(x, 1, MPI_INT, size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                 MPI_ERR_RANK);
    expect_class("Get_count_c NULL status", MPI_Get_count_c(NULL, MPI_INT, NULL), MPI_ERR_ARG);
    MPI_Datatype t;
    expect_class("Type_vector_c negative stride, big",
                 MPI_Type_vector_c((MPI_Count)INT_MAX + 2, 1, -1, MPI_INT, &t), MPI_ERR_ARG);
    expect_class("Type_contiguous_c -3", MPI_Type_contiguous_c(-3, MPI_INT, &t), MPI_ERR_COUNT);
    if (limited) { /* in place with a count past the limit */
        MPI_Count *c = malloc(sizeof(MPI_Count) * (size_t)size);
        MPI_Aint *d = malloc(sizeof(MPI_Aint) * (size_t)size);
        int *b = malloc(sizeof(int) * 200 * (size_t)size);
        for (int r = 0; r < size; r++)
            c[r] = 150, d[r] = 150 * r;
        expect_class(
            "Alltoallv_c in place, big",
            MPI_Alltoallv_c(MPI_IN_PLACE, NULL, NULL, MPI_INT, b, c, d, MPI_INT, MPI_COMM_WORLD),
            MPI_ERR_COUNT);
        free(c), free(d), free(b);
    }
}

static void small(void)
{
    MPI_Count counts[] = {50, 1000, 1009};
    for (int k = 0; k < 3; k++) {
        p2p(counts[k], k);
        coll(counts[k], k);
        vcoll(counts[k], k);
        vcoll_in_place(counts[k], k);
        types(counts[k]);
    }
    errors();
}

/* MemAvailable in KiB, -1 if unknown. */
static long long mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static unsigned char pat(size_t i, int k)
{
    return (unsigned char)((i * 2654435761u) >> 13) ^ (unsigned char)(i >> 31) ^ (unsigned char)k;
}

static void huge(void)
{
    if (size != 2) {
        FAIL("the huge part runs at n = 2");
        return;
    }
    long long kb = 0;
    if (rank == 0)
        kb = mem_available();
    CHECK(MPI_Bcast(&kb, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
    if (kb <= 12LL << 20) {
        if (rank == 0)
            printf("mpi_bigcount: SKIP huge: MemAvailable %lld MiB is not above 12 GiB\n",
                   kb / 1024);
        return;
    }
    const MPI_Count n = ((MPI_Count)1 << 31) + 16;
    unsigned char *buf = malloc((size_t)n);
    if (!buf) {
        FAIL("no memory for %lld bytes", (long long)n);
        return;
    }
    MPI_Status st;
    MPI_Count got = -1;
    size_t bad = 0;
    if (rank == 0) {
        for (size_t i = 0; i < (size_t)n; i++)
            buf[i] = pat(i, 1);
        CHECK(MPI_Send_c(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD));
    } else {
        memset(buf, 0, (size_t)n);
        CHECK(MPI_Recv_c(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st));
        CHECK(MPI_Get_count_c(&st, MPI_BYTE, &got));
        EXPECT_INT(got, n);
        for (size_t i = 0; i < (size_t)n; i++)
            bad += buf[i] != pat(i, 1);
        EXPECT_INT(bad, 0);
        for (size_t i = 0; i < (size_t)n; i++)
            buf[i] = pat(i, 2);
    }
    CHECK(MPI_Bcast_c(buf, n, MPI_BYTE, 1, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < (size_t)n; i++)
        bad += buf[i] != pat(i, 2);
    EXPECT_INT(bad, 0);
    free(buf);
    if (rank == 0)
        printf("mpi_bigcount: huge: %lld bytes sent and broadcast\n", (long long)n);
}

int main(int argc, char **argv)
{
    mc_watchdog(150);
    const char *what = argc > 1 ? argv[1] : "small";
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    mc_rank = rank;
    limited = getenv("RMPI_BIGCOUNT_LIMIT") != NULL;
    if (!strcmp(what, "huge"))
        huge();
    else
        small();
    CHECK(MPI_Finalize());
    return mc_done("mpi_bigcount");
}
