/* mpi_py_comm.c — communicators as mpi4py's test_comm.py checks them, on MPI_COMM_SELF,
 * MPI_COMM_WORLD and a dup of each: compare (IDENT with itself, CONGRUENT with a dup, idup,
 * idup_with_info, create and create_group of its whole group), dup with an info, name set and
 * restored, info set and read back; split_type SHARED (and one rank at a time while the
 * others pass MPI_UNDEFINED), MPI-4.0's HW_GUIDED (MPI_COMM_NULL without a resource rmp knows,
 * the node with "mpi_shared_memory", the info left as it was) and HW_UNGUIDED (each level
 * strictly smaller, the resource named in the info, MPI_COMM_NULL at the end). */
#include "mpicheck.h"

static void expect_cmp(MPI_Comm a, MPI_Comm b, int want, const char *what)
{
    int r = -1;
    CHECK(MPI_Comm_compare(a, b, &r));
    if (r != want)
        FAIL("%s: compare %d, expected %d", what, r, want);
}

static void dups(MPI_Comm comm)
{
    MPI_Comm d;
    MPI_Request q;
    MPI_Info info;
    expect_cmp(comm, comm, MPI_IDENT, "itself");
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Comm_dup_with_info(comm, info, &d));
    expect_cmp(comm, d, MPI_CONGRUENT, "dup_with_info");
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_idup(comm, &d, &q));
    CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    expect_cmp(comm, d, MPI_CONGRUENT, "idup");
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_idup_with_info(comm, info, &d, &q));
    CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    expect_cmp(comm, d, MPI_CONGRUENT, "idup_with_info");
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_set_info(comm, info));
    CHECK(MPI_Info_free(&info));
    CHECK(MPI_Comm_get_info(comm, &info));
    CHECK(MPI_Comm_set_info(comm, info));
    CHECK(MPI_Info_free(&info));
    MPI_Group g;
    CHECK(MPI_Comm_group(comm, &g));
    CHECK(MPI_Comm_create(comm, g, &d));
    expect_cmp(comm, d, MPI_CONGRUENT, "create");
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_create_group(comm, g, 0, &d));
    expect_cmp(comm, d, MPI_CONGRUENT, "create_group");
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Group_free(&g));
    char name[MPI_MAX_OBJECT_NAME], now[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK(MPI_Comm_get_name(comm, name, &len));
    CHECK(MPI_Comm_set_name(comm, "comm"));
    CHECK(MPI_Comm_get_name(comm, now, &len));
    if (strcmp(now, "comm"))
        FAIL("name '%s' after set_name(\"comm\")", now);
    CHECK(MPI_Comm_set_name(comm, name));
    CHECK(MPI_Comm_get_name(comm, now, &len));
    if (strcmp(now, name))
        FAIL("name '%s' after restoring '%s'", now, name);
}

/* Each root alone in turn: its split is itself, the others get MPI_COMM_NULL. */
static void one_at_a_time(MPI_Comm comm, int type, MPI_Info info)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int root = 0; root < size; root++) {
        MPI_Comm c = MPI_COMM_NULL;
        CHECK(MPI_Comm_split_type(comm, rank == root ? type : MPI_UNDEFINED, 0, info, &c));
        if ((rank == root) != (c != MPI_COMM_NULL)) {
            FAIL("split_type %d, root %d: rank %d got %s", type, root, rank,
                 c == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");
        } else if (c != MPI_COMM_NULL) {
            int n = -1, r = -1;
            MPI_Comm_size(c, &n);
            MPI_Comm_rank(c, &r);
            EXPECT_INT(n, 1);
            EXPECT_INT(r, 0);
            CHECK(MPI_Comm_free(&c));
        }
    }
}

static void expect_null_split(MPI_Comm comm, int type, MPI_Info info, const char *what)
{
    MPI_Comm c = MPI_COMM_NULL;
    CHECK(MPI_Comm_split_type(comm, type, 0, info, &c));
    if (c != MPI_COMM_NULL) {
        FAIL("split_type %s: not MPI_COMM_NULL", what);
        MPI_Comm_free(&c);
    }
}

static void expect_resource(MPI_Info info, const char *want)
{
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    CHECK(MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v, &flag));
    if (!flag || strcmp(v, want))
        FAIL("info mpi_hw_resource_type '%s' (flag %d), expected '%s'", v, flag, want);
}

static void hw_guided(MPI_Comm comm)
{
    MPI_Info info;
    expect_null_split(comm, MPI_COMM_TYPE_HW_GUIDED, MPI_INFO_NULL, "HW_GUIDED, no info");
    CHECK(MPI_Info_create(&info));
    expect_null_split(comm, MPI_COMM_TYPE_HW_GUIDED, info, "HW_GUIDED, empty info");
    CHECK(MPI_Info_set(info, "foo", "bar"));
    expect_null_split(comm, MPI_COMM_TYPE_HW_GUIDED, info, "HW_GUIDED, other keys");
    CHECK(MPI_Info_set(info, "mpi_hw_resource_type", "@dont-thread-on-me@"));
    expect_null_split(comm, MPI_COMM_TYPE_HW_GUIDED, info, "HW_GUIDED, unknown resource");
    CHECK(MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory"));
    MPI_Comm c = MPI_COMM_NULL, s = MPI_COMM_NULL;
    CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &s));
    expect_resource(info, "mpi_shared_memory");
    if (c == MPI_COMM_NULL || s == MPI_COMM_NULL)
        FAIL("HW_GUIDED mpi_shared_memory or SHARED gave MPI_COMM_NULL");
    else
        expect_cmp(c, s, MPI_CONGRUENT, "HW_GUIDED mpi_shared_memory vs SHARED");
    if (c != MPI_COMM_NULL)
        CHECK(MPI_Comm_free(&c));
    if (s != MPI_COMM_NULL)
        CHECK(MPI_Comm_free(&s));
    one_at_a_time(comm, MPI_COMM_TYPE_HW_GUIDED, info);
    expect_resource(info, "mpi_shared_memory");
    CHECK(MPI_Info_free(&info));
}

/* Down the levels until MPI_COMM_NULL (at most 32, as mpi4py), each strictly smaller. */
static void hw_unguided(MPI_Comm comm)
{
    MPI_Comm level[33] = {comm};
    int n = 1;
    while (n < 33) {
        MPI_Info info;
        int rank, size, nsize = 0;
        MPI_Comm_rank(level[n - 1], &rank);
        MPI_Comm_size(level[n - 1], &size);
        CHECK(MPI_Info_create(&info));
        MPI_Comm c = MPI_COMM_NULL;
        CHECK(MPI_Comm_split_type(level[n - 1], MPI_COMM_TYPE_HW_UNGUIDED, rank, info, &c));
        if (c != MPI_COMM_NULL) {
            expect_resource(info, "mpi_shared_memory");
            MPI_Comm_size(c, &nsize);
            if (nsize >= size)
                FAIL("HW_UNGUIDED level %d: %d ranks, not fewer than %d", n, nsize, size);
        }
        CHECK(MPI_Info_free(&info));
        if (c == MPI_COMM_NULL)
            break;
        level[n++] = c;
    }
    if (n == 33)
        FAIL("HW_UNGUIDED never ends with MPI_COMM_NULL");
    while (n > 1)
        CHECK(MPI_Comm_free(&level[--n]));
}

static void splits(MPI_Comm comm)
{
    int size;
    MPI_Comm_size(comm, &size);
    MPI_Comm c = MPI_COMM_NULL;
    CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
    if (c == MPI_COMM_NULL)
        FAIL("split_type SHARED gave MPI_COMM_NULL");
    else
        CHECK(MPI_Comm_free(&c));
    one_at_a_time(comm, MPI_COMM_TYPE_SHARED, MPI_INFO_NULL);
    hw_guided(comm);
    hw_unguided(comm);
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm comms[4] = {MPI_COMM_SELF, MPI_COMM_WORLD};
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comms[2]));
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[3]));
    for (int i = 0; i < 4; i++) {
        dups(comms[i]);
        splits(comms[i]);
    }
    CHECK(MPI_Comm_free(&comms[2]));
    CHECK(MPI_Comm_free(&comms[3]));
    MPI_Finalize();
    return mc_done("mpi_py_comm");
}
