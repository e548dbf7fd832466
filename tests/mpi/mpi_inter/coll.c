/* coll.c — mpi_inter's collectives over an intercommunicator: every rooted one for every
 * root of either group, and the all-to-all ones, against serially computed data of the OTHER
 * group. */
#include "mpi_inter.h"

/* The rooted collectives, root (root_color, root_index) in turn. */
void t_rooted(const ic_t *ic, int rcol, int ri)
{
    MPI_Comm c = ic->comm;
    int am_root = ic->color == rcol && ic->me == ri, in_root_group = ic->color == rcol;
    int root = in_root_group ? (am_root ? MPI_ROOT : MPI_PROC_NULL) : ri;
    int rootw = in_root_group ? ic->lw[ri] : ic->rw[ri];
    int buf[4 * MAXN * MAXN], cnt[MAXN], dsp[MAXN], myw = ic->lw[ic->me];

    /* bcast */
    for (int i = 0; i < 4; i++)
        buf[i] = am_root ? rootw * 100 + i : -1;
    COLL(Bcast, Ibcast, buf, 4, MPI_INT, root, c);
    for (int i = 0; i < 4; i++)
        EXPECT_INT(buf[i], in_root_group && !am_root ? -1 : rootw * 100 + i);

    /* gather: 2 ints from each member of the other group */
    int mine[MAXN + 1];
    for (int i = 0; i < MAXN + 1; i++)
        mine[i] = myw * 10 + i;
    for (int i = 0; i < 2 * MAXN; i++)
        buf[i] = -1;
    COLL(Gather, Igather, mine, 2, MPI_INT, buf, 2, MPI_INT, root, c);
    if (am_root)
        for (int j = 0; j < ic->rn; j++)
            for (int i = 0; i < 2; i++)
                EXPECT_INT(buf[2 * j + i], ic->rw[j] * 10 + i);

    /* gatherv: remote j sends j+1 ints, placed from the end backwards */
    int total = 0;
    for (int j = 0; j < ic->rn; j++)
        total += j + 1;
    for (int j = 0, at = total; j < ic->rn; j++) {
        cnt[j] = j + 1;
        at -= j + 1;
        dsp[j] = at;
    }
    for (int i = 0; i < total; i++)
        buf[i] = -1;
    COLL(Gatherv, Igatherv, mine, ic->me + 1, MPI_INT, buf, cnt, dsp, MPI_INT, root, c);
    if (am_root)
        for (int j = 0; j < ic->rn; j++)
            for (int i = 0; i <= j; i++)
                EXPECT_INT(buf[dsp[j] + i], ic->rw[j] * 10 + i);

    /* scatter: block j (3 ints) to remote j */
    int got[MAXN + 1];
    for (int i = 0; i < 3 * MAXN; i++)
        buf[i] = am_root ? rootw * 1000 + i : -1;
    for (int i = 0; i < MAXN + 1; i++)
        got[i] = -1;
    COLL(Scatter, Iscatter, buf, 3, MPI_INT, got, 3, MPI_INT, root, c);
    for (int i = 0; i < 3; i++)
        EXPECT_INT(got[i], in_root_group ? -1 : rootw * 1000 + 3 * ic->me + i);

    /* scatterv: remote j gets j+1 ints from dsp[j] (as built above for the remote group) */
    for (int i = 0; i < MAXN + 1; i++)
        got[i] = -1;
    for (int i = 0; i < total; i++)
        buf[i] = am_root ? rootw * 1000 + i : -1;
    COLL(Scatterv, Iscatterv, buf, cnt, dsp, MPI_INT, got, ic->me + 1, MPI_INT, root, c);
    if (!in_root_group) {
        int ltot = 0, d = 0;
        for (int j = 0; j < ic->ln; j++)
            ltot += j + 1;
        d = ltot;
        for (int j = 0; j <= ic->me; j++)
            d -= j + 1;
        for (int i = 0; i <= ic->me; i++)
            EXPECT_INT(got[i], rootw * 1000 + d + i);
    }

    /* reduce: sum and max of the other group's values */
    int v[2] = {(myw + 1) * (ic->me + 2), myw}, r[2] = {-1, -1}, sum = 0, max = -1;
    COLL(Reduce, Ireduce, v, r, 2, MPI_INT, MPI_SUM, root, c);
    for (int j = 0; j < ic->rn; j++)
        sum += (ic->rw[j] + 1) * (j + 2);
    if (am_root)
        EXPECT_INT(r[0], sum);
    COLL(Reduce, Ireduce, v + 1, r + 1, 1, MPI_INT, MPI_MAX, root, c);
    for (int j = 0; j < ic->rn; j++)
        max = ic->rw[j] > max ? ic->rw[j] : max;
    if (am_root)
        EXPECT_INT(r[1], max);
}

/* A non-commutative op: (a, b) -> a * 10 + b on small digits, as 2x2 "matrices" would. Here:
 * inout = in (+) inout where x (+) y keeps x's first digit... a simple order check: the
 * result of x0 op x1 op ... is the concatenation of the members' digits. */
static void concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    long long *a = in, *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) {
        long long p = 1;
        while (p <= b[i])
            p *= 10;
        b[i] = a[i] * p + b[i];
    }
}

void t_all(const ic_t *ic)
{
    MPI_Comm c = ic->comm;
    int myw = ic->lw[ic->me], buf[4 * MAXN * MAXN], send[4 * MAXN * MAXN];
    int scnt[MAXN], sdsp[MAXN], rcnt[MAXN], rdsp[MAXN];

    /* barrier */
    if (nb) {
        MPI_Request rq;
        CHECK(MPI_Ibarrier(c, &rq));
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        CHECK(MPI_Barrier(c));
    }

    /* allreduce */
    int v[2] = {myw + 1, ic->me}, r[2] = {-1, -1}, sum = 0, sumr = 0;
    COLL(Allreduce, Iallreduce, v, r, 2, MPI_INT, MPI_SUM, c);
    for (int j = 0; j < ic->rn; j++)
        sum += ic->rw[j] + 1, sumr += j;
    EXPECT_INT(r[0], sum);
    EXPECT_INT(r[1], sumr);

    /* allreduce with a non-commutative op: the other group's digits in rank order */
    MPI_Op op;
    CHECK(MPI_Op_create(concat, 0, &op));
    long long d = ic->me % 9 + 1, dr = -1, want = 0;
    COLL(Allreduce, Iallreduce, &d, &dr, 1, MPI_LONG_LONG, op, c);
    for (int j = 0; j < ic->rn; j++)
        want = want * 10 + j % 9 + 1;
    EXPECT_INT(dr, want);
    CHECK(MPI_Op_free(&op));

    /* allgather */
    int two[2] = {myw, ic->me};
    for (int i = 0; i < 2 * MAXN; i++)
        buf[i] = -1;
    COLL(Allgather, Iallgather, two, 2, MPI_INT, buf, 2, MPI_INT, c);
    for (int j = 0; j < ic->rn; j++) {
        EXPECT_INT(buf[2 * j], ic->rw[j]);
        EXPECT_INT(buf[2 * j + 1], j);
    }

    /* allgatherv: remote j sends j+1 ints, placed at 2*j*j spacing */
    for (int i = 0; i <= ic->me; i++)
        send[i] = myw * 10 + i;
    for (int j = 0; j < ic->rn; j++)
        rcnt[j] = j + 1, rdsp[j] = (ic->rn - 1 - j) * MAXN;
    for (int i = 0; i < MAXN * MAXN; i++)
        buf[i] = -1;
    COLL(Allgatherv, Iallgatherv, send, ic->me + 1, MPI_INT, buf, rcnt, rdsp, MPI_INT, c);
    for (int j = 0; j < ic->rn; j++)
        for (int i = 0; i <= j; i++)
            EXPECT_INT(buf[rdsp[j] + i], ic->rw[j] * 10 + i);

    /* alltoall: to remote j, 2 ints myw*1000 + j*10 + i */
    for (int j = 0; j < ic->rn; j++)
        for (int i = 0; i < 2; i++)
            send[2 * j + i] = myw * 1000 + j * 10 + i;
    for (int i = 0; i < 2 * MAXN; i++)
        buf[i] = -1;
    COLL(Alltoall, Ialltoall, send, 2, MPI_INT, buf, 2, MPI_INT, c);
    for (int j = 0; j < ic->rn; j++)
        for (int i = 0; i < 2; i++)
            EXPECT_INT(buf[2 * j + i], ic->rw[j] * 1000 + ic->me * 10 + i);

    /* alltoallv: local a sends (a + b) % 3 + 1 ints to remote b */
    int at = 0;
    for (int b = 0; b < ic->rn; b++) {
        scnt[b] = (ic->me + b) % 3 + 1;
        sdsp[b] = at;
        for (int i = 0; i < scnt[b]; i++)
            send[at + i] = myw * 1000 + b * 10 + i;
        at += scnt[b];
    }
    at = 0;
    for (int a = ic->rn - 1; a >= 0; a--) { /* placed backwards */
        rcnt[a] = (a + ic->me) % 3 + 1;
        rdsp[a] = at;
        at += rcnt[a];
    }
    for (int i = 0; i < at; i++)
        buf[i] = -1;
    COLL(Alltoallv, Ialltoallv, send, scnt, sdsp, MPI_INT, buf, rcnt, rdsp, MPI_INT, c);
    for (int a = 0; a < ic->rn; a++)
        for (int i = 0; i < rcnt[a]; i++)
            EXPECT_INT(buf[rdsp[a] + i], ic->rw[a] * 1000 + ic->me * 10 + i);

    /* alltoallw: the same with byte displacements and a type per block */
    MPI_Datatype st[MAXN], rt[MAXN];
    for (int b = 0; b < ic->rn; b++) {
        st[b] = rt[b] = MPI_INT;
        sdsp[b] *= (int)sizeof(int);
        rdsp[b] *= (int)sizeof(int);
    }
    for (int i = 0; i < at; i++)
        buf[i] = -1;
    COLL(Alltoallw, Ialltoallw, send, scnt, sdsp, st, buf, rcnt, rdsp, rt, c);
    for (int a = 0; a < ic->rn; a++)
        for (int i = 0; i < rcnt[a]; i++)
            EXPECT_INT(buf[rdsp[a] / (int)sizeof(int) + i], ic->rw[a] * 1000 + ic->me * 10 + i);

    /* reduce_scatter_block: both groups reduce ln*rn elements; I get rn of them */
    int T = ic->ln * ic->rn;
    for (int k = 0; k < T; k++)
        send[k] = (myw + 1) * (k + 1);
    for (int i = 0; i < T; i++)
        buf[i] = -1;
    COLL(Reduce_scatter_block, Ireduce_scatter_block, send, buf, ic->rn, MPI_INT, MPI_SUM, c);
    int wsum = 0;
    for (int j = 0; j < ic->rn; j++)
        wsum += ic->rw[j] + 1;
    for (int i = 0; i < ic->rn; i++)
        EXPECT_INT(buf[i], wsum * (ic->me * ic->rn + i + 1));

    /* reduce_scatter: uneven counts in my group, the same total */
    for (int i = 0; i < ic->ln; i++)
        rcnt[i] = ic->rn;
    if (ic->ln >= 2)
        rcnt[0]++, rcnt[1]--;
    int off = 0;
    for (int i = 0; i < ic->me; i++)
        off += rcnt[i];
    for (int i = 0; i < T; i++)
        buf[i] = -1;
    COLL(Reduce_scatter, Ireduce_scatter, send, buf, rcnt, MPI_INT, MPI_SUM, c);
    for (int i = 0; i < rcnt[ic->me]; i++)
        EXPECT_INT(buf[i], wsum * (off + i + 1));
}
