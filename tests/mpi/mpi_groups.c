/* mpi_groups.c — mpi.h's groups, MPI_Comm_create and MPI_Comm_compare against serially
 * computed answers (member lists, ranks, translations, comparisons), and the MPI_ERRORS_RETURN
 * codes of bad groups and of ranks out of range. */
#include "mpicheck.h"

static void expect_code(const char *what, int rc, int cls, const char *text)
{
    int got_cls = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING] = "";
    if (MPI_Error_class(rc, &got_cls) != MPI_SUCCESS || got_cls != cls)
        FAIL("%s: returned %d of class %d, expected class %d", what, rc, got_cls, cls);
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS || strcmp(s, text) != 0)
        FAIL("%s: error string '%s', expected '%s'", what, s, text);
}

/* The serial answer of MPI_Group_compare for two member lists (world ranks). */
static int compare_lists(const int *a, int na, const int *b, int nb)
{
    if (na != nb)
        return MPI_UNEQUAL;
    if (memcmp(a, b, sizeof(int) * (size_t)na) == 0)
        return MPI_IDENT;
    for (int i = 0; i < na; i++) {
        int found = 0;
        for (int j = 0; j < nb; j++)
            found |= a[i] == b[j];
        if (!found)
            return MPI_UNEQUAL;
    }
    return MPI_SIMILAR;
}

/* The even world ranks, highest first: a group out of world order. */
static int evens_desc(int size, int *list)
{
    int n = 0;
    for (int r = size - 1; r >= 0; r--)
        if (r % 2 == 0)
            list[n++] = r;
    return n;
}

static void t_groups(int rank, int size)
{
    MPI_Group world, again, evens, odds, rev;
    int x = -1, all[8], ev[8], od[8], rv[8], nod = 0;
    int nev = evens_desc(size, ev);
    for (int r = 0; r < size; r++) {
        all[r] = r, rv[r] = size - 1 - r;
        if (r % 2)
            od[nod++] = r;
    }
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &again));
    CHECK(MPI_Group_size(world, &x));
    EXPECT_INT(x, size);
    CHECK(MPI_Group_rank(world, &x));
    EXPECT_INT(x, rank);
    CHECK(MPI_Group_incl(world, nev, ev, &evens));
    CHECK(MPI_Group_excl(world, nev, ev, &odds));
    CHECK(MPI_Group_incl(world, size, rv, &rev));
    CHECK(MPI_Group_size(evens, &x));
    EXPECT_INT(x, nev);
    CHECK(MPI_Group_size(odds, &x));
    EXPECT_INT(x, nod);
    int want_rank = MPI_UNDEFINED;
    for (int i = 0; i < nev; i++)
        if (ev[i] == rank)
            want_rank = i;
    CHECK(MPI_Group_rank(evens, &x));
    EXPECT_INT(x, want_rank);
    CHECK(MPI_Group_rank(odds, &x));
    EXPECT_INT(x, rank % 2 ? rank / 2 : MPI_UNDEFINED); /* excl keeps world order */

    /* Every world rank translated into each group, and back. */
    int t[8];
    CHECK(MPI_Group_translate_ranks(world, size, all, evens, t));
    for (int r = 0; r < size; r++)
        EXPECT_INT(t[r], r % 2 ? MPI_UNDEFINED : (nev - 1) - r / 2);
    CHECK(MPI_Group_translate_ranks(rev, size, all, world, t));
    for (int r = 0; r < size; r++)
        EXPECT_INT(t[r], size - 1 - r);
    CHECK(MPI_Group_translate_ranks(odds, nod, all, evens, t));
    for (int i = 0; i < nod; i++)
        EXPECT_INT(t[i], MPI_UNDEFINED);
    /* MPI-2.2: MPI_PROC_NULL translates to MPI_PROC_NULL (MPICH's gtranks), among real ranks */
    int withnull[3] = {MPI_PROC_NULL, size - 1, MPI_PROC_NULL};
    CHECK(MPI_Group_translate_ranks(world, 3, withnull, rev, t));
    EXPECT_INT(t[0], MPI_PROC_NULL);
    EXPECT_INT(t[1], 0);
    EXPECT_INT(t[2], MPI_PROC_NULL);

    CHECK(MPI_Group_compare(world, again, &x));
    EXPECT_INT(x, MPI_IDENT);
    CHECK(MPI_Group_compare(world, rev, &x));
    EXPECT_INT(x, compare_lists(all, size, rv, size));
    CHECK(MPI_Group_compare(world, evens, &x));
    EXPECT_INT(x, compare_lists(all, size, ev, nev));
    CHECK(MPI_Group_compare(odds, evens, &x));
    EXPECT_INT(x, compare_lists(od, nod, ev, nev));

    /* MPI_GROUP_EMPTY: what incl of nothing gives, and what odds is alone. */
    MPI_Group none;
    CHECK(MPI_Group_incl(world, 0, all, &none));
    CHECK(MPI_Group_compare(none, MPI_GROUP_EMPTY, &x));
    EXPECT_INT(x, MPI_IDENT);
    CHECK(MPI_Group_size(MPI_GROUP_EMPTY, &x));
    EXPECT_INT(x, 0);
    CHECK(MPI_Group_rank(MPI_GROUP_EMPTY, &x));
    EXPECT_INT(x, MPI_UNDEFINED);
    CHECK(MPI_Group_free(&none)); /* MPI_GROUP_EMPTY may be freed, as in Open MPI and MPICH */
    EXPECT_INT(none, MPI_GROUP_NULL);

    /* Comm_create: the evens, highest first; the odds get MPI_COMM_NULL. */
    MPI_Comm ce, cr, dup;
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, evens, &ce));
    if (rank % 2) {
        EXPECT_INT(ce, MPI_COMM_NULL);
    } else {
        int sum = -1, want_sum = 0;
        for (int i = 0; i < nev; i++)
            want_sum += ev[i];
        CHECK(MPI_Comm_rank(ce, &x));
        EXPECT_INT(x, want_rank);
        CHECK(MPI_Comm_size(ce, &x));
        EXPECT_INT(x, nev);
        CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ce));
        EXPECT_INT(sum, want_sum);
        MPI_Errhandler eh;
        CHECK(MPI_Comm_get_errhandler(ce, &eh));
        EXPECT_INT(eh, MPI_ERRORS_RETURN); /* inherited from world */
        MPI_Group g;
        CHECK(MPI_Comm_group(ce, &g));
        CHECK(MPI_Group_compare(g, evens, &x));
        EXPECT_INT(x, MPI_IDENT);
        CHECK(MPI_Group_free(&g));
        CHECK(MPI_Comm_compare(ce, MPI_COMM_WORLD, &x));
        EXPECT_INT(x, size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT);
        CHECK(MPI_Comm_free(&ce));
    }
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &ce));
    EXPECT_INT(ce, MPI_COMM_NULL);

    /* Comm_compare: the same handle, a dup, a reordering, another set. */
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &x));
    EXPECT_INT(x, MPI_IDENT);
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, dup, &x));
    EXPECT_INT(x, MPI_CONGRUENT);
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, rev, &cr));
    CHECK(MPI_Comm_rank(cr, &x));
    EXPECT_INT(x, size - 1 - rank);
    CHECK(MPI_Comm_compare(dup, cr, &x));
    EXPECT_INT(x, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT);
    CHECK(MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &x));
    EXPECT_INT(x, size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT);
    CHECK(MPI_Comm_free(&cr));
    CHECK(MPI_Comm_free(&dup));

    CHECK(MPI_Group_free(&rev));
    CHECK(MPI_Group_free(&odds));
    CHECK(MPI_Group_free(&evens));
    CHECK(MPI_Group_free(&again));
    CHECK(MPI_Group_free(&world));
    EXPECT_INT(world, MPI_GROUP_NULL);
}

/* Under MPI_ERRORS_RETURN (set on world, where group errors are raised). */
static void t_errors(int rank, int size)
{
    MPI_Group world, g = MPI_GROUP_NULL, stale;
    int x, bad_hi[1] = {size}, bad_lo[1] = {-1}, twice[2] = {0, 0};
    const char *rank_text = "MPI_ERR_RANK: invalid rank";
    const char *group_text = "MPI_ERR_GROUP: invalid group";
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    expect_code("MPI_Group_incl of rank size", MPI_Group_incl(world, 1, bad_hi, &g), MPI_ERR_RANK,
                rank_text);
    expect_code("MPI_Group_incl of rank -1", MPI_Group_incl(world, 1, bad_lo, &g), MPI_ERR_RANK,
                rank_text);
    expect_code("MPI_Group_incl of rank 0 twice", MPI_Group_incl(world, 2, twice, &g), MPI_ERR_RANK,
                rank_text);
    expect_code("MPI_Group_excl of rank size", MPI_Group_excl(world, 1, bad_hi, &g), MPI_ERR_RANK,
                rank_text);
    expect_code("MPI_Group_translate_ranks of rank size",
                MPI_Group_translate_ranks(world, 1, bad_hi, world, &x), MPI_ERR_RANK, rank_text);
    expect_code("MPI_Group_size of MPI_GROUP_NULL", MPI_Group_size(MPI_GROUP_NULL, &x),
                MPI_ERR_GROUP, group_text);
    expect_code("MPI_Group_rank of group 12345", MPI_Group_rank((MPI_Group)12345, &x),
                MPI_ERR_GROUP, group_text);
    expect_code("MPI_Group_free of MPI_GROUP_NULL", MPI_Group_free(&(MPI_Group){MPI_GROUP_NULL}),
                MPI_ERR_GROUP, group_text);
    CHECK(MPI_Group_incl(world, 1, &rank, &stale));
    g = stale;
    CHECK(MPI_Group_free(&g));
    expect_code("MPI_Group_compare of a freed group", MPI_Group_compare(world, stale, &x),
                MPI_ERR_GROUP, group_text);
    expect_code("MPI_Comm_create of MPI_GROUP_NULL",
                MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &(MPI_Comm){0}), MPI_ERR_GROUP,
                group_text);
    expect_code("MPI_Comm_group of MPI_COMM_NULL", MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM,
                "MPI_ERR_COMM: invalid communicator");
    expect_code("MPI_Comm_compare with MPI_COMM_NULL",
                MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &x), MPI_ERR_COMM,
                "MPI_ERR_COMM: invalid communicator");
    /* A group that is not a subset of the communicator (world's group on self's dup, which
     * inherits the handler set below). */
    if (size > 1) {
        MPI_Comm self;
        CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
        CHECK(MPI_Comm_dup(MPI_COMM_SELF, &self));
        expect_code("MPI_Comm_create of world's group over self",
                    MPI_Comm_create(self, world, &(MPI_Comm){0}), MPI_ERR_GROUP, group_text);
        CHECK(MPI_Comm_free(&self));
    }
    CHECK(MPI_Group_free(&world));
}

/* MPI-2.2's MPI_Comm_create with a different, disjoint group on each rank (how a 2-D grid
 * builds its rows and columns): each group becomes a communicator of its own. Checked for rows
 * and columns of an r x c grid (world rank = row * c + col) and for singletons; each new
 * communicator's size, rank order (as in the group, here reversed) and an allreduce over it
 * (the sum of its members' world ranks, computed serially). */
static void t_create_disjoint(int rank, int size)
{
    int cols = size % 2 ? 1 : 2, rows = size / cols, list[8], n;
    MPI_Group world, mine;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    for (int dim = 0; dim < 3; dim++) {
        /* dim 0: my row, highest column first; 1: my column, highest row first; 2: me alone */
        n = 0;
        if (dim == 0)
            for (int c = cols - 1; c >= 0; c--)
                list[n++] = rank / cols * cols + c;
        else if (dim == 1)
            for (int r = rows - 1; r >= 0; r--)
                list[n++] = r * cols + rank % cols;
        else
            list[n++] = rank;
        MPI_Comm nc = MPI_COMM_NULL;
        CHECK(MPI_Group_incl(world, n, list, &mine));
        CHECK(MPI_Comm_create(MPI_COMM_WORLD, mine, &nc));
        CHECK(MPI_Group_free(&mine));
        if (nc == MPI_COMM_NULL) {
            FAIL("disjoint Comm_create (%s): MPI_COMM_NULL for a member",
                 dim == 0 ? "rows" : dim == 1 ? "columns" : "singletons");
            continue;
        }
        int x = -1, want_rank = -1, want_sum = 0, sum = -1;
        for (int i = 0; i < n; i++) {
            want_sum += list[i];
            if (list[i] == rank)
                want_rank = i;
        }
        CHECK(MPI_Comm_size(nc, &x));
        EXPECT_INT(x, n);
        CHECK(MPI_Comm_rank(nc, &x));
        EXPECT_INT(x, want_rank);
        CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, nc));
        EXPECT_INT(sum, want_sum);
        CHECK(MPI_Comm_free(&nc));
    }
    CHECK(MPI_Group_free(&world));
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60);
    if (size > 8) {
        FAIL("mpi_groups runs at n = 1..8, not %d", size);
        return 1;
    }
    t_groups(mc_rank, size);
    t_create_disjoint(mc_rank, size);
    t_errors(mc_rank, size);
    CHECK(MPI_Finalize());
    return mc_done("mpi_groups");
}
