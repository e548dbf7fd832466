/* mpi_inter.c — intercommunicators, the way MPICH's test/mpi/comm (ic1, icgroup, icm,
 * iccreate, icsplit) and test/mpi/coll (icbcast, icgather(v), icscatter(v), icreduce,
 * icallreduce, icallgather(v), icalltoall(v,w), icbarrier, icredscat) test them: several
 * intercommunicators over MPI_COMM_WORLD (even/odd ranks, low/high halves, the last rank
 * against the rest with a leader that is not local rank 0), and on each: the local and remote
 * groups, point-to-point with remote ranks (ANY_SOURCE, probe, sendrecv, persistent), every
 * collective for every root against serially computed data of the OTHER group, blocking and
 * nonblocking, dup/split/create/merge/compare, and the MPI_ERRORS_RETURN codes. n = 1: only
 * what needs no second rank. Argument: "blocking" or "nonblocking" (the collectives' form). */
#include <stdbool.h>

#include "mpicheck.h"

#define MAXN 8

static int nb; /* the collectives' nonblocking forms */

#define COLL(B, I, ...)                                                                        \
    do {                                                                                       \
        if (nb) {                                                                              \
            MPI_Request rq_ = MPI_REQUEST_NULL;                                                \
            CHECK(MPI_##I(__VA_ARGS__, &rq_));                                                 \
            CHECK(MPI_Wait(&rq_, MPI_STATUS_IGNORE));                                          \
        } else {                                                                               \
            CHECK(MPI_##B(__VA_ARGS__));                                                       \
        }                                                                                      \
    } while (0)

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* One intercommunicator over world and what the test knows about it. */
typedef struct ic {
    MPI_Comm comm, local;
    int color;            /* my group: 0 or 1 */
    int lw[MAXN], ln;     /* world ranks of my group, by local rank */
    int rw[MAXN], rn;     /* of the other group */
    int me;               /* my local rank */
} ic_t;

/* kind 0: even/odd world ranks; 1: low half/high half; 2: the last rank alone against the
 * rest, whose leader is its last member. */
static int color_of(int kind, int r, int size)
{
    return kind == 0 ? r % 2 : kind == 1 ? r >= size / 2 : r == size - 1;
}

static void make_ic(int kind, int rank, int size, ic_t *ic)
{
    memset(ic, 0, sizeof(*ic));
    ic->color = color_of(kind, rank, size);
    for (int r = 0; r < size; r++) {
        if (color_of(kind, r, size) == ic->color) {
            if (r == rank)
                ic->me = ic->ln;
            ic->lw[ic->ln++] = r;
        } else {
            ic->rw[ic->rn++] = r;
        }
    }
    int lleader = kind == 2 ? ic->ln - 1 : 0, rleader = kind == 2 ? ic->rn - 1 : 0;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, ic->color, rank, &ic->local));
    CHECK(MPI_Intercomm_create(ic->local, lleader, MPI_COMM_WORLD, ic->rw[rleader], 100 + kind,
                               &ic->comm));
}

static void free_ic(ic_t *ic)
{
    CHECK(MPI_Comm_free(&ic->comm));
    CHECK(MPI_Comm_free(&ic->local));
    if (ic->comm != MPI_COMM_NULL)
        FAIL("MPI_Comm_free left the handle set");
}

/* The groups and queries. */
static void t_shape(const ic_t *ic)
{
    int x = -1, flag = -1;
    CHECK(MPI_Comm_test_inter(ic->comm, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Comm_size(ic->comm, &x));
    EXPECT_INT(x, ic->ln);
    CHECK(MPI_Comm_rank(ic->comm, &x));
    EXPECT_INT(x, ic->me);
    CHECK(MPI_Comm_remote_size(ic->comm, &x));
    EXPECT_INT(x, ic->rn);
    MPI_Group wg, lg, rg;
    int idx[MAXN], got[MAXN];
    for (int i = 0; i < MAXN; i++)
        idx[i] = i;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK(MPI_Comm_group(ic->comm, &lg));
    CHECK(MPI_Comm_remote_group(ic->comm, &rg));
    CHECK(MPI_Group_size(lg, &x));
    EXPECT_INT(x, ic->ln);
    CHECK(MPI_Group_size(rg, &x));
    EXPECT_INT(x, ic->rn);
    CHECK(MPI_Group_rank(rg, &x));
    EXPECT_INT(x, MPI_UNDEFINED);
    CHECK(MPI_Group_translate_ranks(lg, ic->ln, idx, wg, got));
    for (int i = 0; i < ic->ln; i++)
        EXPECT_INT(got[i], ic->lw[i]);
    CHECK(MPI_Group_translate_ranks(rg, ic->rn, idx, wg, got));
    for (int i = 0; i < ic->rn; i++)
        EXPECT_INT(got[i], ic->rw[i]);
    CHECK(MPI_Group_free(&wg));
    CHECK(MPI_Group_free(&lg));
    CHECK(MPI_Group_free(&rg));
    CHECK(MPI_Comm_compare(ic->comm, MPI_COMM_WORLD, &x));
    EXPECT_INT(x, MPI_UNEQUAL);
    CHECK(MPI_Comm_compare(ic->comm, ic->comm, &x));
    EXPECT_INT(x, MPI_IDENT);
}

/* Point-to-point: ranks are remote ranks. Local rank a sends to remote rank a % rn; I get one
 * message from each remote j with j % ln == me. */
static void t_p2p(const ic_t *ic)
{
    MPI_Comm c = ic->comm;
    int out = ic->lw[ic->me] * 1000 + ic->me, in = -1, expect = 0, flag = 0;
    MPI_Request rq;
    MPI_Status st;
    CHECK(MPI_Isend(&out, 1, MPI_INT, ic->me % ic->rn, 5, c, &rq));
    for (int j = 0; j < ic->rn; j++)
        expect += j % ic->ln == ic->me;
    for (int k = 0; k < expect; k++) {
        CHECK(MPI_Probe(MPI_ANY_SOURCE, 5, c, &st));
        int src = st.MPI_SOURCE;
        if (src < 0 || src >= ic->rn || src % ic->ln != ic->me) {
            FAIL("probe: source %d", src);
            continue;
        }
        CHECK(MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, c, &st));
        EXPECT_INT(st.MPI_SOURCE, src);
        EXPECT_INT(in, ic->rw[src] * 1000 + src);
    }
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Iprobe(MPI_ANY_SOURCE, 5, c, &flag, &st));
    EXPECT_INT(flag, 0);
    /* sendrecv between local rank i and remote rank i, both sides */
    if (ic->me < ic->rn) {
        CHECK(MPI_Sendrecv(&out, 1, MPI_INT, ic->me, 6, &in, 1, MPI_INT, ic->me, 6, c, &st));
        EXPECT_INT(in, ic->rw[ic->me] * 1000 + ic->me);
        EXPECT_INT(st.MPI_SOURCE, ic->me);
    }
    /* persistent send and receive, and mprobe */
    if (ic->me < ic->rn) {
        MPI_Request pr[2];
        MPI_Message msg;
        CHECK(MPI_Send_init(&out, 1, MPI_INT, ic->me, 7, c, &pr[0]));
        CHECK(MPI_Recv_init(&in, 1, MPI_INT, ic->me, 8, c, &pr[1]));
        for (int rep = 0; rep < 2; rep++) {
            in = -1;
            CHECK(MPI_Startall(2, pr));
            CHECK(MPI_Send(&out, 1, MPI_INT, ic->me, 8, c));
            CHECK(MPI_Mprobe(ic->me, 7, c, &msg, &st));
            EXPECT_INT(st.MPI_SOURCE, ic->me);
            int m = -1;
            CHECK(MPI_Mrecv(&m, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
            EXPECT_INT(m, ic->rw[ic->me] * 1000 + ic->me);
            CHECK(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
            EXPECT_INT(in, ic->rw[ic->me] * 1000 + ic->me);
        }
        CHECK(MPI_Request_free(&pr[0]));
        CHECK(MPI_Request_free(&pr[1]));
    }
    /* a rank out of the remote group */
    expect_class("send to remote size", MPI_Send(&out, 1, MPI_INT, ic->rn, 0, c), MPI_ERR_RANK);
}

/* The rooted collectives, root (root_color, root_index) in turn. */
static void t_rooted(const ic_t *ic, int rcol, int ri)
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

static void t_all(const ic_t *ic)
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

/* dup, split, create, merge */
static void t_build(const ic_t *ic, int rank, int size)
{
    MPI_Comm d, s, m;
    int x = -1, flag = 0;
    CHECK(MPI_Comm_dup(ic->comm, &d));
    CHECK(MPI_Comm_test_inter(d, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Comm_compare(ic->comm, d, &x));
    EXPECT_INT(x, MPI_CONGRUENT);
    CHECK(MPI_Comm_remote_size(d, &x));
    EXPECT_INT(x, ic->rn);
    int v = ic->lw[ic->me], sum = 0, r = -1;
    CHECK(MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_SUM, d));
    for (int j = 0; j < ic->rn; j++)
        sum += ic->rw[j];
    EXPECT_INT(r, sum);
    /* traffic on the dup does not meet traffic on the original */
    if (ic->me == 0) {
        int a = 1, b = 2;
        CHECK(MPI_Send(&a, 1, MPI_INT, 0, 9, ic->comm));
        CHECK(MPI_Send(&b, 1, MPI_INT, 0, 9, d));
        CHECK(MPI_Recv(&a, 1, MPI_INT, 0, 9, d, MPI_STATUS_IGNORE));
        EXPECT_INT(a, 2);
        CHECK(MPI_Recv(&b, 1, MPI_INT, 0, 9, ic->comm, MPI_STATUS_IGNORE));
        EXPECT_INT(b, 1);
    }
    CHECK(MPI_Comm_free(&d));

    /* split by local parity, key reversing the order */
    int par = ic->me % 2, ln = 0, rn = 0, newme = 0;
    for (int i = 0; i < ic->ln; i++)
        if (i % 2 == par) {
            ln++;
            newme += i > ic->me;
        }
    for (int j = 0; j < ic->rn; j++)
        rn += j % 2 == par;
    CHECK(MPI_Comm_split(ic->comm, par, -ic->me, &s));
    if (rn == 0) {
        if (s != MPI_COMM_NULL)
            FAIL("split: a colour with no remote member gave a communicator");
    } else if (s == MPI_COMM_NULL) {
        FAIL("split: no communicator");
    } else {
        CHECK(MPI_Comm_test_inter(s, &flag));
        EXPECT_INT(flag, 1);
        CHECK(MPI_Comm_size(s, &x));
        EXPECT_INT(x, ln);
        CHECK(MPI_Comm_rank(s, &x));
        EXPECT_INT(x, newme);
        CHECK(MPI_Comm_remote_size(s, &x));
        EXPECT_INT(x, rn);
        /* remote rank k of s: the remote member with parity par, k-th from the top */
        int got[MAXN];
        CHECK(MPI_Allgather(&v, 1, MPI_INT, got, 1, MPI_INT, s));
        for (int j = ic->rn - 1, k = 0; j >= 0; j--)
            if (j % 2 == par)
                EXPECT_INT(got[k++], ic->rw[j]);
        CHECK(MPI_Comm_free(&s));
    }

    /* create: each group without its local rank 0 (when it has more than one member) */
    MPI_Group lg, sub;
    int zero = 0;
    CHECK(MPI_Comm_group(ic->comm, &lg));
    if (ic->ln > 1)
        CHECK(MPI_Group_excl(lg, 1, &zero, &sub));
    else
        sub = lg;
    CHECK(MPI_Comm_create(ic->comm, sub, &s));
    if (ic->ln > 1 && ic->me == 0) {
        if (s != MPI_COMM_NULL)
            FAIL("create: a rank outside its group got a communicator");
    } else if (s == MPI_COMM_NULL) {
        FAIL("create: no communicator");
    } else {
        CHECK(MPI_Comm_size(s, &x));
        EXPECT_INT(x, ic->ln > 1 ? ic->ln - 1 : 1);
        CHECK(MPI_Comm_remote_size(s, &x));
        EXPECT_INT(x, ic->rn > 1 ? ic->rn - 1 : 1);
        CHECK(MPI_Comm_rank(s, &x));
        EXPECT_INT(x, ic->ln > 1 ? ic->me - 1 : 0);
        CHECK(MPI_Barrier(s));
        CHECK(MPI_Comm_free(&s));
    }
    if (ic->ln > 1)
        CHECK(MPI_Group_free(&sub));
    CHECK(MPI_Group_free(&lg));

    /* merge: group 1 high, so group 0 first; then both low (some order, both groups whole) */
    int all[MAXN];
    CHECK(MPI_Intercomm_merge(ic->comm, ic->color, &m));
    CHECK(MPI_Comm_test_inter(m, &flag));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Comm_size(m, &x));
    EXPECT_INT(x, size);
    CHECK(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, m));
    const int *g0 = ic->color == 0 ? ic->lw : ic->rw, *g1 = ic->color == 0 ? ic->rw : ic->lw;
    int n0 = ic->color == 0 ? ic->ln : ic->rn;
    for (int i = 0; i < size; i++)
        EXPECT_INT(all[i], i < n0 ? g0[i] : g1[i - n0]);
    CHECK(MPI_Comm_rank(m, &x));
    EXPECT_INT(x, ic->color == 0 ? ic->me : n0 + ic->me);
    CHECK(MPI_Comm_free(&m));
    CHECK(MPI_Intercomm_merge(ic->comm, 0, &m));
    CHECK(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, m));
    int first = all[0] == ic->lw[0] ? 0 : 1; /* my group first? */
    const int *a = first == 0 ? ic->lw : ic->rw, *b = first == 0 ? ic->rw : ic->lw;
    int na = first == 0 ? ic->ln : ic->rn;
    for (int i = 0; i < size; i++)
        EXPECT_INT(all[i], i < na ? a[i] : b[i - na]);
    CHECK(MPI_Comm_free(&m));
}

/* Typed and empty buffers, operations in flight on two intercommunicators at once, a free
 * with one pending, and an intercommunicator made over another one as peer_comm. */
static void t_more(const ic_t *ic)
{
    MPI_Comm c = ic->comm, d, e;
    int myw = ic->lw[ic->me], x = -1;
    /* a strided type: bcast from remote rank 0's group, every root of group 0 in turn */
    MPI_Datatype vec;
    CHECK(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK(MPI_Type_commit(&vec));
    int b[6];
    for (int i = 0; i < 6; i++)
        b[i] = ic->color == 0 && ic->me == 0 ? 50 + i : -1;
    int root = ic->color == 0 ? (ic->me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    COLL(Bcast, Ibcast, b, 1, vec, root, c);
    for (int i = 0; i < 6; i++)
        EXPECT_INT(b[i], ic->color == 0 ? (ic->me == 0 ? 50 + i : -1) : i % 2 ? -1 : 50 + i);
    /* gather into a strided type at group 1's rank 0 */
    int g[6 * MAXN], three[3] = {myw, myw + 1, myw + 2};
    for (int i = 0; i < 6 * MAXN; i++)
        g[i] = -1;
    root = ic->color == 1 ? (ic->me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    COLL(Gather, Igather, three, 3, MPI_INT, g, 1, vec, root, c);
    if (ic->color == 1 && ic->me == 0)
        for (int j = 0; j < ic->rn; j++) /* extent of vec: 5 ints */
            for (int i = 0; i < 3; i++)
                EXPECT_INT(g[5 * j + 2 * i], ic->rw[j] + i);
    CHECK(MPI_Type_free(&vec));
    /* empty: count 0 with NULL buffers */
    root = ic->color == 0 ? (ic->me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    COLL(Bcast, Ibcast, NULL, 0, MPI_INT, root, c);
    COLL(Allreduce, Iallreduce, NULL, NULL, 0, MPI_INT, MPI_SUM, c);
    COLL(Allgather, Iallgather, NULL, 0, MPI_INT, NULL, 0, MPI_INT, c);
    COLL(Alltoall, Ialltoall, NULL, 0, MPI_INT, NULL, 0, MPI_INT, c);

    /* two intercommunicators with collectives in flight together, then one freed pending */
    CHECK(MPI_Comm_dup(c, &d));
    MPI_Request rq[3];
    int s1 = myw, r1 = -1, s2 = 2 * myw, r2 = -1, sum = 0;
    CHECK(MPI_Iallreduce(&s1, &r1, 1, MPI_INT, MPI_SUM, c, &rq[0]));
    CHECK(MPI_Iallreduce(&s2, &r2, 1, MPI_INT, MPI_SUM, d, &rq[1]));
    CHECK(MPI_Ibarrier(d, &rq[2]));
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
    for (int j = 0; j < ic->rn; j++)
        sum += ic->rw[j];
    EXPECT_INT(r1, sum);
    EXPECT_INT(r2, 2 * sum);

    /* peer_comm an intercommunicator: the leaders (local rank 0) meet as remote rank 0 */
    CHECK(MPI_Intercomm_create(ic->local, 0, c, 0, 33, &e));
    CHECK(MPI_Comm_remote_size(e, &x));
    EXPECT_INT(x, ic->rn);
    CHECK(MPI_Allreduce(&s1, &r1, 1, MPI_INT, MPI_SUM, e));
    EXPECT_INT(r1, sum);
    CHECK(MPI_Comm_free(&e));

    /* ctxsplit: more intercommunicators made and freed than there are context pairs and
     * table slots; a leak of either runs out */
    for (int i = 0; i < 2100; i++) {
        CHECK(MPI_Comm_dup(c, &d));
        CHECK(MPI_Comm_free(&d));
    }
    for (int i = 0; i < 300; i++) {
        CHECK(MPI_Intercomm_create(ic->local, 0, c, 0, 34, &e));
        CHECK(MPI_Comm_free(&e));
    }

    /* errors only the leader sees reach its whole group */
    expect_class("peer_comm null", MPI_Intercomm_create(ic->local, 0, MPI_COMM_NULL, 0, 1, &e),
                 MPI_ERR_COMM);
    expect_class("bad tag", MPI_Intercomm_create(ic->local, 0, c, 0, -4, &e), MPI_ERR_TAG);
}

static void t_errors(const ic_t *ic)
{
    MPI_Comm c = ic->comm, bad = MPI_COMM_NULL;
    int x = 0, y = 0;
    expect_class("bcast root out of range", MPI_Bcast(&x, 1, MPI_INT, -7, c), MPI_ERR_ROOT);
    expect_class("reduce root = remote size",
                 MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, ic->rn + 5, c), MPI_ERR_ROOT);
    expect_class("allreduce in place", MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, c),
                 MPI_ERR_BUFFER);
    expect_class("scan", MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, c), MPI_ERR_COMM);
    expect_class("exscan", MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, c), MPI_ERR_COMM);
    int dims[1] = {ic->ln}, per[1] = {0};
    expect_class("cart_create", MPI_Cart_create(c, 1, dims, per, 0, &bad), MPI_ERR_COMM);
    expect_class("intercomm_create over an intercommunicator",
                 MPI_Intercomm_create(c, 0, MPI_COMM_WORLD, 0, 1, &bad), MPI_ERR_COMM);
    expect_class("remote_size on an intracommunicator",
                 MPI_Comm_remote_size(ic->local, &x), MPI_ERR_COMM);
    expect_class("remote_group on an intracommunicator",
                 MPI_Comm_remote_group(ic->local, &(MPI_Group){0}), MPI_ERR_COMM);
    expect_class("merge on an intracommunicator", MPI_Intercomm_merge(ic->local, 0, &bad),
                 MPI_ERR_COMM);
    MPI_Group wg;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    if (ic->rn > 0) /* the world group is no subgroup of the local group */
        expect_class("comm_create with a group outside the local group",
                     MPI_Comm_create(c, wg, &bad), MPI_ERR_GROUP);
    CHECK(MPI_Group_free(&wg));
}

/* One way only (MPICH's icalltoall): group 0 sends and passes a NULL receive buffer of count
 * 0, group 1 receives and passes a NULL send buffer of count 0; alltoall, then allgather. */
static void t_oneway(const ic_t *ic)
{
    int sbuf[MAXN], rbuf[MAXN];
    bool sender = ic->color == 0;
    for (int i = 0; i < MAXN; i++)
        sbuf[i] = 1000 * ic->lw[ic->me] + i, rbuf[i] = -1;
    if (sender)
        COLL(Alltoall, Ialltoall, sbuf, 1, MPI_INT, NULL, 0, MPI_INT, ic->comm);
    else
        COLL(Alltoall, Ialltoall, NULL, 0, MPI_INT, rbuf, 1, MPI_INT, ic->comm);
    for (int i = 0; !sender && i < ic->rn; i++)
        EXPECT_INT(rbuf[i], 1000 * ic->rw[i] + ic->me);
    for (int i = 0; i < MAXN; i++)
        rbuf[i] = -1;
    if (sender)
        COLL(Allgather, Iallgather, sbuf, 1, MPI_INT, NULL, 0, MPI_INT, ic->comm);
    else
        COLL(Allgather, Iallgather, NULL, 0, MPI_INT, rbuf, 1, MPI_INT, ic->comm);
    for (int i = 0; !sender && i < ic->rn; i++)
        EXPECT_INT(rbuf[i], 1000 * ic->rw[i]);
}

/* MPI_Comm_idup of an intercommunicator (MPICH's comm_idup loops over MTest's intercomms):
 * the copy has the same groups, and a message crosses it from every rank of the other group;
 * then MPI_Comm_disconnect frees it, and an intracommunicator, and refuses the world. */
static void t_idup_disconnect(const ic_t *ic)
{
    MPI_Comm d = MPI_COMM_NULL;
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK(MPI_Comm_idup(ic->comm, &d, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    int flag = 0, x = -1;
    CHECK(MPI_Comm_test_inter(d, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Comm_remote_size(d, &x));
    EXPECT_INT(x, ic->rn);
    CHECK(MPI_Comm_rank(d, &x));
    EXPECT_INT(x, ic->me);
    /* each rank sends its world rank to every remote rank and receives one from each */
    int got[MAXN], mine = ic->lw[ic->me];
    MPI_Request rr[2 * MAXN];
    for (int i = 0; i < ic->rn; i++) {
        CHECK(MPI_Irecv(&got[i], 1, MPI_INT, i, 9, d, &rr[i]));
        CHECK(MPI_Isend(&mine, 1, MPI_INT, i, 9, d, &rr[ic->rn + i]));
    }
    CHECK(MPI_Waitall(2 * ic->rn, rr, MPI_STATUSES_IGNORE));
    for (int i = 0; i < ic->rn; i++)
        EXPECT_INT(got[i], ic->rw[i]);
    CHECK(MPI_Comm_disconnect(&d));
    if (d != MPI_COMM_NULL)
        FAIL("MPI_Comm_disconnect left the handle set");
    MPI_Comm l = MPI_COMM_NULL;
    CHECK(MPI_Comm_dup(ic->local, &l));
    CHECK(MPI_Comm_disconnect(&l));
    EXPECT_INT(l, MPI_COMM_NULL);
    MPI_Comm w = MPI_COMM_WORLD;
    expect_class("disconnect of the world", MPI_Comm_disconnect(&w), MPI_ERR_COMM);
}

int main(int argc, char **argv)
{
    int rank, size;
    nb = argc > 1 && strcmp(argv[1], "nonblocking") == 0;
    mc_watchdog(80);
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    mc_rank = rank;

    /* what needs no second rank */
    MPI_Comm bad = MPI_COMM_NULL;
    int flag = -1, x;
    CHECK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    EXPECT_INT(flag, 0);
    expect_class("remote_size of world", MPI_Comm_remote_size(MPI_COMM_WORLD, &x), MPI_ERR_COMM);
    expect_class("local leader out of range",
                 MPI_Intercomm_create(MPI_COMM_WORLD, size, MPI_COMM_WORLD, 0, 0, &bad),
                 MPI_ERR_RANK);
    expect_class("remote leader in the local group",
                 MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 0, &bad),
                 MPI_ERR_RANK);
    expect_class("remote leader out of peer_comm",
                 MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, size, 0, &bad),
                 MPI_ERR_RANK);
    expect_class("null comm", MPI_Comm_test_inter(MPI_COMM_NULL, &flag), MPI_ERR_COMM);

    if (size >= 2) {
        for (int kind = 0; kind < 3; kind++) {
            ic_t ic;
            make_ic(kind, rank, size, &ic);
            if (ic.comm == MPI_COMM_NULL) {
                FAIL("kind %d: no intercommunicator", kind);
                break;
            }
            CHECK(MPI_Comm_set_errhandler(ic.comm, MPI_ERRORS_RETURN));
            t_shape(&ic);
            t_p2p(&ic);
            for (int rcol = 0; rcol < 2; rcol++) {
                int n = rcol == ic.color ? ic.ln : ic.rn;
                for (int ri = 0; ri < n; ri++)
                    t_rooted(&ic, rcol, ri);
            }
            t_all(&ic);
            t_build(&ic, rank, size);
            t_more(&ic);
            t_errors(&ic);
            t_idup_disconnect(&ic);
            t_oneway(&ic);
            free_ic(&ic);
        }
    }
    CHECK(MPI_Finalize());
    return mc_done("mpi_inter");
}
