/* groups.c — groups and the communicators built from them, against what they must be: comm
 * group, size and rank, incl (reversed), excl (the odd ranks), translate_ranks, group and comm
 * comparison (ident, congruent, similar, unequal), comm_create (members and order checked by an
 * allgather on the new communicator, others get RMP_COMM_NULL), and the errors: ranks out of
 * range or listed twice, freed groups, the builtin empty group, a group that is not a subset.
 * Prints "groups: OK" from rank 0 when every rank passed. */
#include "progs.h"

static int wr, ws;

static void t_basics(rmp_group_t *world_g, rmp_group_t *rev_g)
{
    int size, rank;
    MUST(rmp_comm_group(RMP_COMM_WORLD, world_g));
    CHECK(rmp_group_size(*world_g, &size));
    CHECK(rmp_group_rank(*world_g, &rank));
    EXPECT(size == ws && rank == wr, "world group: size %d rank %d", size, rank);
    int rev[64], tr[64];
    for (int i = 0; i < ws; i++)
        rev[i] = ws - 1 - i;
    MUST(rmp_group_incl(*world_g, ws, rev, rev_g));
    CHECK(rmp_group_rank(*rev_g, &rank));
    EXPECT(rank == ws - 1 - wr, "reversed group: my rank %d, expected %d", rank, ws - 1 - wr);
    int all[64];
    for (int i = 0; i < ws; i++)
        all[i] = i;
    CHECK(rmp_group_translate_ranks(*world_g, ws, all, *rev_g, tr));
    for (int i = 0; i < ws; i++)
        EXPECT(tr[i] == ws - 1 - i, "translate %d -> %d, expected %d", i, tr[i], ws - 1 - i);
    int cmp = -1;
    CHECK(rmp_group_compare(*world_g, *world_g, &cmp));
    EXPECT(cmp == RMP_IDENT, "group vs itself: %d", cmp);
    CHECK(rmp_group_compare(*world_g, *rev_g, &cmp));
    EXPECT(cmp == (ws > 1 ? RMP_SIMILAR : RMP_IDENT), "group vs reversed: %d", cmp);
    CHECK(rmp_group_compare(*world_g, RMP_GROUP_EMPTY, &cmp));
    EXPECT(cmp == RMP_UNEQUAL, "group vs empty: %d", cmp);
    CHECK(rmp_group_compare(RMP_GROUP_EMPTY, RMP_GROUP_EMPTY, &cmp));
    EXPECT(cmp == RMP_IDENT, "empty vs empty: %d", cmp);
}

/* The even world ranks in reversed order, as a communicator; odd ones get RMP_COMM_NULL. */
static void t_create(rmp_group_t world_g)
{
    int odd[64], nodd = 0;
    for (int i = 1; i < ws; i += 2)
        odd[nodd++] = i;
    rmp_group_t evens, rev_evens;
    MUST(rmp_group_excl(world_g, nodd, odd, &evens));
    int ne, pick[64];
    CHECK(rmp_group_size(evens, &ne));
    EXPECT(ne == (ws + 1) / 2, "excl odds: %d members", ne);
    for (int i = 0; i < ne; i++)
        pick[i] = ne - 1 - i;
    MUST(rmp_group_incl(evens, ne, pick, &rev_evens));
    int tr[64], all[64];
    for (int i = 0; i < ws; i++)
        all[i] = i;
    CHECK(rmp_group_translate_ranks(world_g, ws, all, rev_evens, tr));
    for (int i = 0; i < ws; i++) {
        int want = i % 2 ? RMP_UNDEFINED : ne - 1 - i / 2;
        EXPECT(tr[i] == want, "world %d in reversed evens: %d, expected %d", i, tr[i], want);
    }
    rmp_comm_t c;
    CHECK(rmp_comm_create(RMP_COMM_WORLD, rev_evens, &c));
    if (wr % 2) {
        EXPECT(c == RMP_COMM_NULL, "odd rank %d got a communicator", wr);
    } else {
        int r, n, members[64];
        CHECK(rmp_comm_rank(c, &r));
        CHECK(rmp_comm_size(c, &n));
        EXPECT(r == ne - 1 - wr / 2 && n == ne, "comm_create: rank %d of %d", r, n);
        CHECK(rmp_allgather(&wr, 1, RMP_INT32, members, 1, RMP_INT32, c));
        for (int i = 0; i < n; i++)
            EXPECT(members[i] == 2 * (ne - 1 - i), "comm_create: member %d is world %d", i,
                   members[i]);
        int cmp = -1;
        CHECK(rmp_comm_compare(c, c, &cmp));
        EXPECT(cmp == RMP_IDENT, "comm vs itself: %d", cmp);
        CHECK(rmp_comm_compare(c, RMP_COMM_WORLD, &cmp));
        EXPECT(cmp == (ws == 1 ? RMP_CONGRUENT : RMP_UNEQUAL), "created vs world: %d", cmp);
        rmp_group_t back;
        CHECK(rmp_comm_group(c, &back));
        CHECK(rmp_group_compare(back, rev_evens, &cmp));
        EXPECT(cmp == RMP_IDENT, "created comm's group vs the group: %d", cmp);
        CHECK(rmp_group_free(&back));
        CHECK(rmp_comm_free(&c));
    }
    CHECK(rmp_group_free(&evens));
    CHECK(rmp_group_free(&rev_evens));
}

static void t_comm_compare(void)
{
    rmp_comm_t dup, rev;
    MUST(rmp_comm_dup(RMP_COMM_WORLD, &dup));
    MUST(rmp_comm_split(RMP_COMM_WORLD, 0, ws - wr, &rev));
    int cmp = -1;
    CHECK(rmp_comm_compare(RMP_COMM_WORLD, dup, &cmp));
    EXPECT(cmp == RMP_CONGRUENT, "world vs dup: %d", cmp);
    CHECK(rmp_comm_compare(RMP_COMM_WORLD, rev, &cmp));
    EXPECT(cmp == (ws > 1 ? RMP_SIMILAR : RMP_CONGRUENT), "world vs reversed: %d", cmp);
    CHECK(rmp_comm_compare(RMP_COMM_WORLD, RMP_COMM_SELF, &cmp));
    EXPECT(cmp == (ws > 1 ? RMP_UNEQUAL : RMP_CONGRUENT), "world vs self: %d", cmp);
    EXPECT_RC(RMP_ERR_COMM, rmp_comm_compare(RMP_COMM_WORLD, RMP_COMM_NULL, &cmp));
    EXPECT_RC(RMP_ERR_ARG, rmp_comm_compare(RMP_COMM_WORLD, dup, NULL));
    CHECK(rmp_comm_free(&dup));
    CHECK(rmp_comm_free(&rev));
}

static void t_errors(rmp_group_t world_g)
{
    rmp_group_t g = RMP_GROUP_NULL, freed;
    int bad[2] = {0, ws}, dup2[2] = {0, 0}, x, tr;
    EXPECT_RC(RMP_ERR_RANK, rmp_group_incl(world_g, 2, bad, &g));
    EXPECT_RC(RMP_ERR_RANK, rmp_group_excl(world_g, 1, &bad[1], &g));
    EXPECT_RC(RMP_ERR_RANK, rmp_group_incl(world_g, 2, dup2, &g));
    EXPECT_RC(RMP_ERR_ARG, rmp_group_incl(world_g, -1, bad, &g));
    EXPECT_RC(RMP_ERR_ARG, rmp_group_incl(world_g, 1, NULL, &g));
    EXPECT(g == RMP_GROUP_NULL, "a refused incl wrote a group");
    CHECK(rmp_group_incl(world_g, 0, NULL, &g));
    EXPECT(g == RMP_GROUP_EMPTY, "incl of nothing: %d, expected RMP_GROUP_EMPTY", g);
    CHECK(rmp_group_size(g, &x));
    EXPECT(x == 0, "empty group has %d members", x);
    CHECK(rmp_group_rank(g, &x));
    EXPECT(x == RMP_UNDEFINED, "my rank in the empty group: %d", x);
    EXPECT_RC(RMP_ERR_GROUP, rmp_group_free(&g));
    MUST(rmp_comm_group(RMP_COMM_SELF, &freed));
    CHECK(rmp_group_free(&freed));
    EXPECT(freed == RMP_GROUP_NULL, "freed group handle is %d", freed);
    MUST(rmp_comm_group(RMP_COMM_SELF, &g));
    rmp_group_t stale = g + 1 + ws; /* never handed out */
    EXPECT_RC(RMP_ERR_GROUP, rmp_group_size(stale, &x));
    EXPECT_RC(RMP_ERR_GROUP, rmp_group_size(RMP_GROUP_NULL, &x));
    EXPECT_RC(RMP_ERR_GROUP, rmp_group_translate_ranks(world_g, 1, bad, RMP_GROUP_NULL, &tr));
    EXPECT_RC(RMP_ERR_RANK, rmp_group_translate_ranks(world_g, 1, &bad[1], world_g, &tr));
    /* a group that is not a subset of the communicator: every rank of SELF's view refuses */
    if (ws > 1) {
        rmp_group_t other;
        int someone = (wr + 1) % ws;
        MUST(rmp_group_incl(world_g, 1, &someone, &other));
        rmp_comm_t c = 123;
        EXPECT_RC(RMP_ERR_GROUP, rmp_comm_create(RMP_COMM_SELF, other, &c));
        EXPECT(c == 123, "a refused comm_create wrote a handle");
        CHECK(rmp_group_free(&other));
    }
    EXPECT_RC(RMP_ERR_GROUP, rmp_comm_create(RMP_COMM_WORLD, RMP_GROUP_NULL, &x));
    CHECK(rmp_group_free(&g));
    CHECK(rmp_barrier(RMP_COMM_WORLD)); /* still in step */
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &wr);
    rmp_comm_size(RMP_COMM_WORLD, &ws);
    prog_rank = wr;
    phase("groups", 60);
    rmp_group_t world_g, rev_g;
    t_basics(&world_g, &rev_g);
    t_create(world_g);
    t_comm_compare();
    t_errors(world_g);
    CHECK(rmp_group_free(&rev_g));
    CHECK(rmp_group_free(&world_g));
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (wr == 0 && !any)
        printf("groups: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
