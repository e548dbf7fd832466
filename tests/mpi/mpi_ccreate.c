/* mpi_ccreate.c — MPI_Comm_create_group, MPI_Comm_idup and MPI_Comm_dup_with_info the way
 * MPICH's test/mpi/comm tests them (comm_create_group, comm_group_half, comm_group_rand,
 * comm_idup, comm_idup_mul, comm_idup_overlap, comm_idup_iallreduce, comm_create_group_idup,
 * dup_with_info, cmfree): every new communicator's size and ranks against the group it was made
 * of, a collective on it with an exact result, non-members that never call (and are not
 * waited for), idups overlapped with point-to-point, collectives and other creations on the
 * parent, creation/free cycles, inherited error handlers, and the MPI_ERRORS_RETURN class of
 * every invalid argument. Argument "inter": only MPI_Comm_idup of intercommunicators (MPICH's
 * comm_idup second half), over even/odd, half/half and one-against-the-rest groups. */
#include "mpi_ccreate/mpi_ccreate.h"

void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d of class %d, expected class %d", what, rc, got, cls);
}

/* comm has the world ranks members[0..n-1] in that order, I am world rank `rank` among them:
 * its size, my rank, an allgather of world ranks and an allreduce agree. */
void expect_comm(const char *what, MPI_Comm comm, const int *members, int n, int rank)
{
    int x = -1, me = -1, got[64], sum = -1, want_sum = 0;
    for (int i = 0; i < n; i++) {
        want_sum += members[i];
        if (members[i] == rank)
            me = i;
    }
    CHECK(MPI_Comm_size(comm, &x));
    if (x != n)
        FAIL("%s: size %d, expected %d", what, x, n);
    CHECK(MPI_Comm_rank(comm, &x));
    if (x != me)
        FAIL("%s: rank %d, expected %d", what, x, me);
    CHECK(MPI_Allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, comm));
    for (int i = 0; i < n; i++)
        if (got[i] != members[i])
            FAIL("%s: member %d is world rank %d, expected %d", what, i, got[i], members[i]);
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    if (sum != want_sum)
        FAIL("%s: sum %d, expected %d", what, sum, want_sum);
    MPI_Errhandler eh;
    CHECK(MPI_Comm_get_errhandler(comm, &eh));
    if (eh != MPI_ERRORS_RETURN)
        FAIL("%s: error handler not inherited", what);
}

static MPI_Group world_group(void)
{
    MPI_Group g;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &g));
    return g;
}

/* comm_create_group: the even ranks (tag 0) and, at the same time, the odd ranks (tag 0 too:
 * disjoint groups) each make their communicator; the other half never calls. */
static void t_create_group_halves(int rank, int size)
{
    MPI_Group wg = world_group(), g;
    int members[64], n = 0;
    for (int r = rank % 2; r < size; r += 2)
        members[n++] = r;
    CHECK(MPI_Group_incl(wg, n, members, &g));
    MPI_Comm c = MPI_COMM_NULL;
    CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, g, 0, &c));
    if (c == MPI_COMM_NULL)
        FAIL("create_group halves: MPI_COMM_NULL for a member");
    else {
        expect_comm("create_group halves", c, members, n, rank);
        CHECK(MPI_Comm_free(&c));
    }
    CHECK(MPI_Group_free(&g));

    /* comm_group_half: the first half only, while the second half waits in a receive from
     * the first member, which sends only after its creation: members never wait for the
     * others */
    int half = (size + 1) / 2;
    n = 0;
    for (int r = 0; r < half; r++)
        members[n++] = r;
    CHECK(MPI_Group_incl(wg, n, members, &g));
    if (rank < half) {
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, g, 5, &c));
        expect_comm("create_group first half", c, members, n, rank);
        CHECK(MPI_Comm_free(&c));
        if (rank == 0)
            for (int r = half; r < size; r++)
                CHECK(MPI_Send(&r, 1, MPI_INT, r, 99, MPI_COMM_WORLD));
    } else {
        int x = -1;
        CHECK(MPI_Recv(&x, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        EXPECT_INT(x, rank);
        /* a non-member that calls anyway gets MPI_COMM_NULL at once */
        c = MPI_COMM_WORLD;
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, g, 5, &c));
        EXPECT_INT(c, MPI_COMM_NULL);
    }
    CHECK(MPI_Group_free(&g));
    CHECK(MPI_Group_free(&wg));
}

/* comm_group_rand: random subsets in random order (the same on every rank: one seed), made
 * over a dup of the world, many times. */
static void t_create_group_rand(int rank, int size)
{
    MPI_Comm parent;
    MPI_Group pg;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
    CHECK(MPI_Comm_group(parent, &pg));
    unsigned seed = 12345;
    for (int it = 0; it < 20; it++) {
        int perm[64], n = 0;
        for (int r = 0; r < size; r++)
            perm[r] = r;
        for (int r = size - 1; r > 0; r--) {
            seed = seed * 1103515245u + 12345u;
            int j = (int)((seed >> 16) % (unsigned)(r + 1)), t = perm[r];
            perm[r] = perm[j];
            perm[j] = t;
        }
        seed = seed * 1103515245u + 12345u;
        n = 1 + (int)((seed >> 16) % (unsigned)size);
        int member = 0;
        for (int i = 0; i < n; i++)
            member |= perm[i] == rank;
        MPI_Group g;
        CHECK(MPI_Group_incl(pg, n, perm, &g));
        if (member) {
            MPI_Comm c = MPI_COMM_NULL;
            CHECK(MPI_Comm_create_group(parent, g, it, &c));
            char what[64];
            snprintf(what, sizeof what, "create_group random %d", it);
            if (c != MPI_COMM_NULL) {
                expect_comm(what, c, perm, n, rank);
                CHECK(MPI_Comm_free(&c));
            } else {
                FAIL("%s: MPI_COMM_NULL for a member", what);
            }
        }
        CHECK(MPI_Group_free(&g));
    }
    CHECK(MPI_Group_free(&pg));
    CHECK(MPI_Barrier(parent));
    CHECK(MPI_Comm_free(&parent));
}

static void t_create_group_errors(int rank, int size)
{
    MPI_Group wg = world_group(), selfg, freed;
    MPI_Comm c;
    CHECK(MPI_Comm_group(MPI_COMM_SELF, &selfg));
    CHECK(MPI_Comm_create_group(MPI_COMM_SELF, selfg, 0, &c)); /* a group of one */
    expect_comm("create_group self", c, &rank, 1, rank);
    CHECK(MPI_Comm_free(&c));
    c = MPI_COMM_WORLD;
    CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 0, &c));
    EXPECT_INT(c, MPI_COMM_NULL);
    expect_class("create_group tag -1", MPI_Comm_create_group(MPI_COMM_WORLD, wg, -1, &c),
                 MPI_ERR_TAG);
    expect_class("create_group bad comm", MPI_Comm_create_group(MPI_COMM_NULL, wg, 0, &c),
                 MPI_ERR_COMM);
    expect_class("create_group bad group",
                 MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &c), MPI_ERR_GROUP);
    expect_class("create_group NULL newcomm",
                 MPI_Comm_create_group(MPI_COMM_WORLD, wg, 0, NULL), MPI_ERR_ARG);
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &freed));
    MPI_Group f2 = freed;
    CHECK(MPI_Group_free(&f2));
    expect_class("create_group freed group", MPI_Comm_create_group(MPI_COMM_WORLD, freed, 0, &c),
                 MPI_ERR_GROUP);
    if (size > 1) { /* the world's group over a communicator of myself alone */
        expect_class("create_group group not in comm",
                     MPI_Comm_create_group(MPI_COMM_SELF, wg, 0, &c), MPI_ERR_GROUP);
    }
    CHECK(MPI_Group_free(&selfg));
    CHECK(MPI_Group_free(&wg));
}

static int *all_ranks(int size)
{
    static int r[64];
    for (int i = 0; i < size; i++)
        r[i] = i;
    return r;
}

/* comm_idup, comm_idup_mul, comm_idup_iallreduce */
static void t_idup_basic(int rank, int size)
{
    enum { N = 10 };
    MPI_Comm c, cs[N];
    MPI_Request req, reqs[N + 1];
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    EXPECT_INT(req, MPI_REQUEST_NULL);
    expect_comm("idup", c, all_ranks(size), size, rank);
    int res = -1;
    CHECK(MPI_Comm_compare(c, MPI_COMM_WORLD, &res));
    EXPECT_INT(res, MPI_CONGRUENT);
    CHECK(MPI_Comm_free(&c));

    for (int i = 0; i < N; i++)
        CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &cs[i], &reqs[i]));
    CHECK(MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++)
            if (cs[i] == cs[j])
                FAIL("idup_mul: comms %d and %d are one handle", i, j);
        expect_comm("idup_mul", cs[i], all_ranks(size), size, rank);
    }
    /* their traffic is kept apart: each carries its own index */
    for (int i = 0; i < N; i++) {
        int v = rank * 100 + i, sum = -1;
        CHECK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, cs[N - 1 - i]));
        EXPECT_INT(sum, 100 * size * (size - 1) / 2 + size * i);
    }
    for (int i = 0; i < N; i++)
        CHECK(MPI_Comm_free(&cs[i]));

    /* overlapped with nonblocking collectives on the parent */
    int in = rank + 1, out = -1, bin = rank, bout = -1;
    CHECK(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]));
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &reqs[1]));
    CHECK(MPI_Iallreduce(&bin, &bout, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &reqs[2]));
    CHECK(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
    EXPECT_INT(out, size * (size + 1) / 2);
    EXPECT_INT(bout, size - 1);
    expect_comm("idup between iallreduces", c, all_ranks(size), size, rank);
    CHECK(MPI_Comm_free(&c));

    /* blocking creations and collectives on the parent while an idup is in flight */
    MPI_Comm d, s;
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &s));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    expect_comm("idup then dup: the idup", c, all_ranks(size), size, rank);
    expect_comm("idup then dup: the dup", d, all_ranks(size), size, rank);
    int sm[64], sn = 0;
    for (int r = size - 1; r >= 0; r--)
        if (r % 2 == rank % 2)
            sm[sn++] = r;
    expect_comm("idup then split: the split", s, sm, sn, rank);
    CHECK(MPI_Comm_free(&c));
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_free(&s));

    /* idup of a dup with a topology: the copy has it too */
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm cart;
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    CHECK(MPI_Comm_idup(cart, &c, &req));
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    int st = -1;
    CHECK(MPI_Topo_test(c, &st));
    EXPECT_INT(st, MPI_CART);
    CHECK(MPI_Comm_free(&c));
    CHECK(MPI_Comm_free(&cart));
}

/* An idup must not block: rank r+1 receives from rank r before calling idup, rank r sends
 * only after its idup (a blocking implementation deadlocks here); and the create_group / idup
 * order that differs between even and odd ranks (MPICH's comm_create_group_idup). */
static void t_idup_nonblocking(int rank, int size)
{
    MPI_Comm c, g;
    MPI_Request req;
    int token = -1;
    if (rank > 0)
        CHECK(MPI_Recv(&token, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    if (rank < size - 1)
        CHECK(MPI_Send(&rank, 1, MPI_INT, rank + 1, 7, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    EXPECT_INT(token, rank > 0 ? rank - 1 : -1);
    expect_comm("idup chained by p2p", c, all_ranks(size), size, rank);
    CHECK(MPI_Comm_free(&c));

    MPI_Group wg = world_group();
    if (rank % 2 == 0) {
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, wg, 0, &g));
        CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    } else {
        CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, wg, 0, &g));
    }
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    expect_comm("create_group_idup: the idup", c, all_ranks(size), size, rank);
    expect_comm("create_group_idup: the group's", g, all_ranks(size), size, rank);
    CHECK(MPI_Comm_free(&c));
    CHECK(MPI_Comm_free(&g));
    CHECK(MPI_Group_free(&wg));

    /* comm_idup_overlap: each rank idups the pair communicators it belongs to, in an order
     * that differs from its partners' */
    if (size >= 2) {
        MPI_Comm lo = MPI_COMM_NULL, hi = MPI_COMM_NULL, dlo = MPI_COMM_NULL,
                 dhi = MPI_COMM_NULL;
        /* lo: {2k, 2k+1}; hi: {2k+1, 2k+2} */
        CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &lo));
        CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : (rank - 1) / 2, rank,
                             &hi));
        MPI_Request rr[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        if (rank % 2 == 0) {
            if (hi != MPI_COMM_NULL)
                CHECK(MPI_Comm_idup(hi, &dhi, &rr[1]));
            CHECK(MPI_Comm_idup(lo, &dlo, &rr[0]));
        } else {
            CHECK(MPI_Comm_idup(lo, &dlo, &rr[0]));
            if (hi != MPI_COMM_NULL)
                CHECK(MPI_Comm_idup(hi, &dhi, &rr[1]));
        }
        CHECK(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE));
        int lm[2] = {rank - rank % 2, rank - rank % 2 + 1}, ln = lm[1] < size ? 2 : 1;
        expect_comm("idup_overlap lo", dlo, lm, ln, rank);
        if (hi != MPI_COMM_NULL) {
            int hm[2] = {rank - (rank + 1) % 2, rank - (rank + 1) % 2 + 1};
            int hn = hm[1] < size ? 2 : 1;
            expect_comm("idup_overlap hi", dhi, hm, hn, rank);
            CHECK(MPI_Comm_free(&dhi));
            CHECK(MPI_Comm_free(&hi));
        }
        CHECK(MPI_Comm_free(&dlo));
        CHECK(MPI_Comm_free(&lo));
    }
}

/* cmfree: free the parent while its idup is in flight, and right after creating children;
 * the children keep working. Then many creation/free cycles (context ids come back). */
static void t_free_and_cycles(int rank, int size)
{
    MPI_Comm p, c, c2;
    MPI_Request req;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &p));
    CHECK(MPI_Comm_idup(p, &c, &req));
    CHECK(MPI_Comm_free(&p));
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    expect_comm("idup of a freed parent", c, all_ranks(size), size, rank);
    CHECK(MPI_Comm_dup_with_info(c, MPI_INFO_NULL, &c2));
    CHECK(MPI_Comm_free(&c));
    expect_comm("dup_with_info of a freed parent", c2, all_ranks(size), size, rank);
    CHECK(MPI_Comm_free(&c2));

    MPI_Group wg = world_group();
    for (int it = 0; it < 200; it++) {
        CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, wg, it, &c2));
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        int v = it, s1 = -1, s2 = -1;
        CHECK(MPI_Allreduce(&v, &s1, 1, MPI_INT, MPI_SUM, c));
        CHECK(MPI_Allreduce(&v, &s2, 1, MPI_INT, MPI_SUM, c2));
        if (s1 != it * size || s2 != it * size)
            FAIL("cycle %d: sums %d and %d, expected %d", it, s1, s2, it * size);
        CHECK(MPI_Comm_free(&c));
        CHECK(MPI_Comm_free(&c2));
    }
    CHECK(MPI_Group_free(&wg));
}

static void t_idup_errors(void)
{
    MPI_Comm c;
    MPI_Request req;
    expect_class("idup bad comm", MPI_Comm_idup(MPI_COMM_NULL, &c, &req), MPI_ERR_COMM);
    expect_class("idup NULL newcomm", MPI_Comm_idup(MPI_COMM_WORLD, NULL, &req), MPI_ERR_ARG);
    expect_class("idup NULL request", MPI_Comm_idup(MPI_COMM_WORLD, &c, NULL), MPI_ERR_ARG);
    expect_class("dup_with_info NULL newcomm",
                 MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    int rank, size;
    mc_watchdog(80);
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mc_rank = rank;
    if (argc > 1 && strcmp(argv[1], "inter") == 0) { /* only the intercommunicator idups */
        t_idup_inter(rank, size);
        MPI_Finalize();
        return mc_done("mpi_ccreate");
    }
    t_create_group_halves(rank, size);
    t_create_group_rand(rank, size);
    t_create_group_errors(rank, size);
    t_idup_basic(rank, size);
    t_idup_nonblocking(rank, size);
    t_free_and_cycles(rank, size);
    t_idup_errors();
    MPI_Finalize();
    return mc_done("mpi_ccreate");
}
