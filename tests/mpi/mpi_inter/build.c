/* build.c — mpi_inter's constructors and the rest: dup, split, create, merge and compare,
 * MPI_ERRORS_RETURN codes, one-way traffic, and Comm_idup with a disconnect. */
#include "mpi_inter.h"

/* dup, split, create, merge */
void t_build(const ic_t *ic, int rank, int size)
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
void t_more(const ic_t *ic)
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

void t_errors(const ic_t *ic)
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
void t_oneway(const ic_t *ic)
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
void t_idup_disconnect(const ic_t *ic)
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
