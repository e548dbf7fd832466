/* mpi_grp_ops.c — MPI_Group_range_incl/excl and the set operations (union, intersection,
 * difference: MPI-3.1 6.3.2's orders) against serially computed member lists, as MPICH's
 * test/mpi/group tests (grouptest, grouptest2, groupnullincl, gtranks) do; results that are
 * empty are MPI_GROUP_EMPTY; and the MPI_ERRORS_RETURN classes of bad ranges and groups. */
#include "mpicheck.h"

#define MAXP 64

/* The members of g as world ranks (n of them). */
static int members(MPI_Group g, int *w)
{
    MPI_Group world;
    int n = -1, idx[MAXP];
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK(MPI_Group_size(g, &n));
    for (int i = 0; i < n; i++)
        idx[i] = i;
    CHECK(MPI_Group_translate_ranks(g, n, idx, world, w));
    CHECK(MPI_Group_free(&world));
    return n;
}

static void expect_members(const char *what, MPI_Group g, const int *want, int n)
{
    int got[MAXP], k = members(g, got);
    if (k != n) {
        FAIL("%s: %d members, expected %d", what, k, n);
        return;
    }
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            FAIL("%s: member %d is world rank %d, expected %d", what, i, got[i], want[i]);
    if (n == 0 && g != MPI_GROUP_EMPTY)
        FAIL("%s: an empty result is not MPI_GROUP_EMPTY", what);
    int me = -2, mine = MPI_UNDEFINED, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < n; i++)
        if (want[i] == rank)
            mine = i;
    CHECK(MPI_Group_rank(g, &me));
    if (me != mine)
        FAIL("%s: my rank %d, expected %d", what, me, mine);
}

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* Serial expansion of triplets over base (a member list): the included ranks' members. */
static int expand(const int (*ranges)[3], int n, int *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int f = ranges[i][0], l = ranges[i][1], s = ranges[i][2];
        for (int r = f; s > 0 ? r <= l : r >= l; r += s)
            out[k++] = r;
    }
    return k;
}

static void t_ranges(int size)
{
    MPI_Group world, g, h;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    /* several triplet sets, each checked against the serial expansion (ranks of world are
     * world ranks) and the exclusion as its complement in world order */
    int sets[6][3][3] = {
        {{0, size - 1, 1}},                       /* everyone */
        {{size - 1, 0, -1}},                      /* reversed */
        {{0, size - 1, 2}},                       /* evens */
        {{size - 1, 0, -2}},                      /* from the top, every other */
        {{size / 2, size - 1, 3}, {0, size / 2 - 1 < 0 ? 0 : size / 2 - 1, 5}},
        {{size - 1, size - 1, 1}, {0, 0, -4}},    /* single ranks; duplicate when size 1 */
    };
    int nsets[6] = {1, 1, 1, 1, size >= 2 ? 2 : 1, size >= 2 ? 2 : 1};
    for (int t = 0; t < 6; t++) {
        int want[MAXP], k = expand((const int(*)[3])sets[t], nsets[t], want);
        char what[64];
        snprintf(what, sizeof what, "range_incl set %d", t);
        CHECK(MPI_Group_range_incl(world, nsets[t], sets[t], &g));
        expect_members(what, g, want, k);
        /* the same through MPI_Group_incl: identical groups */
        int cmp = -1;
        CHECK(MPI_Group_incl(world, k, want, &h));
        CHECK(MPI_Group_compare(g, h, &cmp));
        EXPECT_INT(cmp, MPI_IDENT);
        CHECK(MPI_Group_free(&h));
        CHECK(MPI_Group_free(&g));
        int in[MAXP] = {0}, rest[MAXP], nr = 0;
        for (int i = 0; i < k; i++)
            in[want[i]] = 1;
        for (int r = 0; r < size; r++)
            if (!in[r])
                rest[nr++] = r;
        snprintf(what, sizeof what, "range_excl set %d", t);
        CHECK(MPI_Group_range_excl(world, nsets[t], sets[t], &g));
        expect_members(what, g, rest, nr);
        CHECK(MPI_Group_free(&g));
    }
    /* ranges over a group that is not world: ranks are that group's */
    MPI_Group rev;
    int rv[MAXP], want[MAXP], k = 0;
    int rr[1][3] = {{size - 1, 0, -1}};
    CHECK(MPI_Group_range_incl(world, 1, rr, &rev));
    for (int i = 0; i < size; i++)
        rv[i] = size - 1 - i;
    int r2[1][3] = {{0, size - 1, 2}};
    for (int i = 0; i < size; i += 2)
        want[k++] = rv[i];
    CHECK(MPI_Group_range_incl(rev, 1, r2, &g));
    expect_members("range_incl of reversed", g, want, k);
    CHECK(MPI_Group_free(&g));
    /* no triplet: incl gives MPI_GROUP_EMPTY, excl the whole group */
    CHECK(MPI_Group_range_incl(world, 0, r2, &g));
    expect_members("range_incl of none", g, want, 0);
    CHECK(MPI_Group_free(&g));
    CHECK(MPI_Group_range_excl(rev, 0, r2, &g));
    expect_members("range_excl of none", g, rv, size);
    CHECK(MPI_Group_free(&g));
    /* every rank excluded: MPI_GROUP_EMPTY */
    CHECK(MPI_Group_range_excl(world, 1, rr, &g));
    expect_members("range_excl of all", g, want, 0);
    CHECK(MPI_Group_free(&g));
    /* of the empty group: nothing to name */
    CHECK(MPI_Group_range_incl(MPI_GROUP_EMPTY, 0, rr, &g));
    expect_members("range_incl of empty", g, want, 0);

    /* errors: nothing is made, the class says why */
    g = MPI_GROUP_NULL;
    int zero[1][3] = {{0, size - 1, 0}};
    expect_class("zero stride", MPI_Group_range_incl(world, 1, zero, &g), MPI_ERR_ARG);
    expect_class("zero stride excl", MPI_Group_range_excl(world, 1, zero, &g), MPI_ERR_ARG);
    int hi[1][3] = {{0, size, 1}};
    expect_class("last out of range", MPI_Group_range_incl(world, 1, hi, &g), MPI_ERR_RANK);
    int lo[1][3] = {{-1, 0, 1}};
    expect_class("first negative", MPI_Group_range_excl(world, 1, lo, &g), MPI_ERR_RANK);
    int dup[2][3] = {{0, size - 1, 1}, {0, 0, 1}};
    expect_class("rank twice", MPI_Group_range_incl(world, 2, dup, &g), MPI_ERR_RANK);
    expect_class("rank twice excl", MPI_Group_range_excl(world, 2, dup, &g), MPI_ERR_RANK);
    if (size > 1) {
        int away[1][3] = {{0, size - 1, -1}};
        expect_class("stride away from last", MPI_Group_range_incl(world, 1, away, &g),
                     MPI_ERR_ARG);
    }
    expect_class("negative n", MPI_Group_range_incl(world, -1, rr, &g), MPI_ERR_ARG);
    expect_class("no newgroup", MPI_Group_range_incl(world, 1, rr, NULL), MPI_ERR_ARG);
    expect_class("null group", MPI_Group_range_incl(MPI_GROUP_NULL, 1, rr, &g), MPI_ERR_GROUP);
    if (g != MPI_GROUP_NULL)
        FAIL("a failed range call set newgroup");
    CHECK(MPI_Group_free(&rev));
    CHECK(MPI_Group_free(&world));
}

/* Serial set operations on member lists (MPI-3.1 6.3.2). */
static int has(const int *a, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return 1;
    return 0;
}

static int ref_op(int op, const int *a, int na, const int *b, int nb, int *out)
{
    int k = 0;
    for (int i = 0; i < na; i++)
        if (op == 0 || (op == 1) == has(b, nb, a[i]))
            out[k++] = a[i];
    if (op == 0)
        for (int i = 0; i < nb; i++)
            if (!has(a, na, b[i]))
                out[k++] = b[i];
    return k;
}

static void t_sets(int size)
{
    MPI_Group world, gs[6];
    int lists[6][MAXP], ns[6] = {0};
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    for (int r = 0; r < size; r++)
        lists[0][ns[0]++] = r; /* world */
    for (int r = size - 1; r >= 0; r--)
        if (r % 2 == 0)
            lists[1][ns[1]++] = r; /* evens, descending */
    for (int r = 0; r < size; r++)
        if (r % 2)
            lists[2][ns[2]++] = r; /* odds */
    for (int r = size - 1; r >= 0; r--)
        lists[3][ns[3]++] = r; /* reversed */
    for (int r = 0; r < (size + 1) / 2; r++)
        lists[4][ns[4]++] = (r * 3 + 1) % size; /* scattered (distinct: gcd(3, size) may
                                                   repeat, so filter) */
    int k4 = 0;
    for (int i = 0; i < ns[4]; i++)
        if (!has(lists[4], k4, lists[4][i]))
            lists[4][k4++] = lists[4][i];
    ns[4] = k4;
    ns[5] = 0; /* empty */
    for (int i = 0; i < 6; i++) {
        if (i == 5)
            gs[i] = MPI_GROUP_EMPTY;
        else
            CHECK(MPI_Group_incl(world, ns[i], lists[i], &gs[i]));
    }
    const char *opname[3] = {"union", "intersection", "difference"};
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++)
            for (int op = 0; op < 3; op++) {
                int want[2 * MAXP], k = ref_op(op, lists[a], ns[a], lists[b], ns[b], want);
                MPI_Group g = MPI_GROUP_NULL;
                int rc = op == 0   ? MPI_Group_union(gs[a], gs[b], &g)
                         : op == 1 ? MPI_Group_intersection(gs[a], gs[b], &g)
                                   : MPI_Group_difference(gs[a], gs[b], &g);
                char what[64];
                snprintf(what, sizeof what, "%s of groups %d and %d", opname[op], a, b);
                if (rc != MPI_SUCCESS) {
                    FAIL("%s returned %d", what, rc);
                    continue;
                }
                expect_members(what, g, want, k);
                CHECK(MPI_Group_free(&g));
            }
    MPI_Group g = MPI_GROUP_NULL;
    expect_class("union null", MPI_Group_union(MPI_GROUP_NULL, world, &g), MPI_ERR_GROUP);
    expect_class("intersection null", MPI_Group_intersection(world, MPI_GROUP_NULL, &g),
                 MPI_ERR_GROUP);
    expect_class("difference no out", MPI_Group_difference(world, world, NULL), MPI_ERR_ARG);
    MPI_Group freed;
    CHECK(MPI_Group_incl(world, 1, lists[0], &freed));
    MPI_Group keep = freed;
    CHECK(MPI_Group_free(&freed));
    expect_class("union freed", MPI_Group_union(keep, world, &g), MPI_ERR_GROUP);
    if (g != MPI_GROUP_NULL)
        FAIL("a failed set call set newgroup");
    for (int i = 0; i < 5; i++)
        CHECK(MPI_Group_free(&gs[i]));
    CHECK(MPI_Group_free(&world));
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60);
    if (size > MAXP) {
        FAIL("size %d above %d", size, MAXP);
    } else {
        t_ranges(size);
        t_sets(size);
    }
    MPI_Finalize();
    return mc_done("mpi_grp_ops");
}
