/* names.c — mpi_info's object names (set_name/get_name on communicators, datatypes and
 * windows) and the hints communicators and windows keep and report. */
#include "mpi_info.h"

static void expect_name(const char *what, const char *got, int len, const char *want)
{
    if (strcmp(got, want) != 0 || len != (int)strlen(want))
        FAIL("%s: name '%s' (%d), expected '%s'", what, got, len, want);
}

/* commname and the other names. */
void t_names(int rank)
{
    char name[MPI_MAX_OBJECT_NAME], longname[200];
    int len = -1;
    MPI_Comm dup, dup2;
    CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    expect_name("world", name, len, "MPI_COMM_WORLD");
    CHECK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    expect_name("self", name, len, "MPI_COMM_SELF");
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Comm_get_name(dup, name, &len));
    expect_name("new comm", name, len, "");
    snprintf(longname, sizeof longname, "dup of world on rank %d", rank);
    CHECK(MPI_Comm_set_name(dup, longname));
    CHECK(MPI_Comm_get_name(dup, name, &len));
    expect_name("named dup", name, len, longname);
    CHECK(MPI_Comm_dup(dup, &dup2)); /* names are not copied */
    CHECK(MPI_Comm_get_name(dup2, name, &len));
    expect_name("dup of a named comm", name, len, "");
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK(MPI_Comm_set_name(dup2, longname));
    CHECK(MPI_Comm_get_name(dup2, name, &len));
    EXPECT_INT(len, MPI_MAX_OBJECT_NAME - 1);
    EXPECT_INT((int)strlen(name), MPI_MAX_OBJECT_NAME - 1);
    CHECK(MPI_Comm_set_name(dup2, ""));
    CHECK(MPI_Comm_get_name(dup2, name, &len));
    expect_name("renamed empty", name, len, "");
    CHECK(MPI_Comm_free(&dup));
    CHECK(MPI_Comm_free(&dup2));
    for (int i = 0; i < 3; i++) { /* a freed handle's next communicator starts unnamed */
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
        CHECK(MPI_Comm_get_name(dup, name, &len));
        expect_name("comm on a reused handle", name, len, "");
        CHECK(MPI_Comm_set_name(dup, "to be forgotten"));
        CHECK(MPI_Comm_free(&dup));
    }
    expect_class("Comm_set_name bad comm", MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM);
    expect_class("Comm_get_name bad comm", MPI_Comm_get_name(4000, name, &len), MPI_ERR_COMM);
    expect_class("Comm_set_name NULL", MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    expect_class("Comm_get_name NULL", MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &len),
                 MPI_ERR_ARG);
    expect_class("Comm_get_name NULL len", MPI_Comm_get_name(MPI_COMM_WORLD, name, NULL),
                 MPI_ERR_ARG);

    /* types */
    MPI_Datatype t;
    CHECK(MPI_Type_get_name(MPI_INT, name, &len));
    expect_name("MPI_INT", name, len, "MPI_INT");
    CHECK(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK(MPI_Type_get_name(t, name, &len));
    expect_name("derived", name, len, "");
    CHECK(MPI_Type_set_name(t, "three ints"));
    CHECK(MPI_Type_get_name(t, name, &len));
    expect_name("named derived", name, len, "three ints");
    CHECK(MPI_Type_commit(&t));
    CHECK(MPI_Type_get_name(t, name, &len));
    expect_name("committed", name, len, "three ints");
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK(MPI_Type_get_name(t, name, &len));
    expect_name("type on a reused handle", name, len, "");
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_get_name(MPI_DOUBLE, name, &len));
    expect_name("MPI_DOUBLE", name, len, "MPI_DOUBLE");
    CHECK(MPI_Type_set_name(MPI_DOUBLE, "my double"));
    CHECK(MPI_Type_get_name(MPI_DOUBLE, name, &len));
    expect_name("renamed MPI_DOUBLE", name, len, "my double");
    CHECK(MPI_Type_get_name(MPI_FLOAT, name, &len));
    expect_name("MPI_FLOAT", name, len, "MPI_FLOAT");
    expect_class("Type_set_name bad type", MPI_Type_set_name(MPI_DATATYPE_NULL, "x"),
                 MPI_ERR_TYPE);
    expect_class("Type_set_name NULL", MPI_Type_set_name(MPI_INT, NULL), MPI_ERR_ARG);

    /* windows */
    MPI_Win win;
    int mem[4];
    CHECK(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(MPI_Win_get_name(win, name, &len));
    expect_name("new window", name, len, "");
    CHECK(MPI_Win_set_name(win, "my window"));
    CHECK(MPI_Win_get_name(win, name, &len));
    expect_name("named window", name, len, "my window");
    CHECK(MPI_Win_free(&win));
    CHECK(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(MPI_Win_get_name(win, name, &len));
    expect_name("window on a reused handle", name, len, "");
    CHECK(MPI_Win_free(&win));
    expect_class("Win_set_name bad win", MPI_Win_set_name(MPI_WIN_NULL, "x"), MPI_ERR_WIN);
    expect_class("Win_get_name bad win", MPI_Win_get_name(777, name, &len), MPI_ERR_WIN);

    /* renaming the world (last: the name stays) */
    CHECK(MPI_Comm_set_name(MPI_COMM_WORLD, "the world"));
    CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    expect_name("renamed world", name, len, "the world");
    CHECK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    expect_name("self after renaming world", name, len, "MPI_COMM_SELF");
}

/* Hints of communicators and windows, and calls that take an info. */
void t_hints(int rank, int size)
{
    MPI_Info info, info2, got, freed;
    MPI_Comm dup, dup2, dwi, st;
    CHECK(MPI_Info_create(&freed));
    CHECK(MPI_Info_free(&freed));
    freed = 4000;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK(MPI_Info_create(&info2));
    CHECK(MPI_Info_set(info2, "mpi_assert_exact_length", "true"));
    CHECK(MPI_Info_set(info2, "mpi_assert_no_any_tag", "false"));

    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Comm_get_info(dup, &got));
    expect_info("fresh comm's hints", got, 0, NULL, NULL);
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Comm_set_info(dup, info));
    CHECK(MPI_Comm_get_info(dup, &got));
    const char *k1[] = {"mpi_assert_no_any_tag"}, *v1[] = {"true"};
    expect_info("hints set", got, 1, k1, v1);
    CHECK(MPI_Info_set(got, "changed", "x")); /* a new object: the comm's hints stay */
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Comm_get_info(dup, &got));
    expect_info("hints after the returned info changed", got, 1, k1, v1);
    CHECK(MPI_Info_free(&got));

    CHECK(MPI_Comm_dup(dup, &dup2)); /* Comm_dup copies the hints */
    CHECK(MPI_Comm_get_info(dup2, &got));
    expect_info("dup's hints", got, 1, k1, v1);
    CHECK(MPI_Info_free(&got));

    MPI_Info junk;
    CHECK(MPI_Info_create(&junk));
    CHECK(MPI_Info_set(junk, "invalid_test_key", "x")); /* a hint nobody uses: dropped */
    CHECK(MPI_Comm_set_info(dup, junk));
    CHECK(MPI_Info_free(&junk));
    CHECK(MPI_Comm_set_info(dup, info2)); /* an update: keys not named stay */
    CHECK(MPI_Comm_get_info(dup, &got));
    const char *k2[] = {"mpi_assert_no_any_tag", "mpi_assert_exact_length"};
    const char *v2[] = {"false", "true"};
    expect_info("hints updated", got, 2, k2, v2);
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Comm_set_info(dup, MPI_INFO_NULL));

    CHECK(MPI_Comm_dup_with_info(dup2, info2, &dwi)); /* info's hints, not dup2's */
    CHECK(MPI_Comm_get_info(dwi, &got));
    const char *k3[] = {"mpi_assert_exact_length", "mpi_assert_no_any_tag"};
    const char *v3[] = {"true", "false"};
    expect_info("dup_with_info's hints", got, 2, k3, v3);
    CHECK(MPI_Info_free(&got));
    int sum = -1, x = -1;
    CHECK(MPI_Comm_rank(dwi, &x));
    EXPECT_INT(x, rank);
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dwi));
    EXPECT_INT(sum, size * (size - 1) / 2);
    MPI_Errhandler eh;
    CHECK(MPI_Comm_get_errhandler(dwi, &eh));
    EXPECT_INT(eh, MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_free(&dwi));
    CHECK(MPI_Comm_dup_with_info(dup2, MPI_INFO_NULL, &dwi));
    CHECK(MPI_Comm_get_info(dwi, &got));
    expect_info("dup_with_info(MPI_INFO_NULL)'s hints", got, 0, NULL, NULL);
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Comm_free(&dwi));
    expect_class("Comm_dup_with_info bad info", MPI_Comm_dup_with_info(dup, freed, &dwi),
                 MPI_ERR_INFO);
    expect_class("Comm_dup_with_info bad comm", MPI_Comm_dup_with_info(MPI_COMM_NULL, info, &dwi),
                 MPI_ERR_COMM);
    expect_class("Comm_set_info bad info", MPI_Comm_set_info(dup, freed), MPI_ERR_INFO);
    expect_class("Comm_set_info bad comm", MPI_Comm_set_info(MPI_COMM_NULL, info), MPI_ERR_COMM);
    expect_class("Comm_get_info bad comm", MPI_Comm_get_info(MPI_COMM_NULL, &got), MPI_ERR_COMM);
    expect_class("Comm_get_info NULL", MPI_Comm_get_info(dup, NULL), MPI_ERR_ARG);
    CHECK(MPI_Comm_free(&dup));
    CHECK(MPI_Comm_free(&dup2));

    /* calls that take an info: any valid one, MPI_ERR_INFO for a bad handle */
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, info, &st));
    CHECK(MPI_Comm_size(st, &x));
    if (x < 1 || x > size)
        FAIL("split_type with info: size %d", x);
    CHECK(MPI_Comm_free(&st));
    expect_class("Comm_split_type bad info",
                 MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, freed, &st),
                 MPI_ERR_INFO);
    /* a persistent collective's init: the info is checked before anything starts */
    MPI_Request pr = MPI_REQUEST_NULL;
    expect_class("Barrier_init bad info", MPI_Barrier_init(MPI_COMM_WORLD, freed, &pr),
                 MPI_ERR_INFO);
    expect_class("Bcast_init bad info",
                 MPI_Bcast_init(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, freed, &pr), MPI_ERR_INFO);
    if (pr != MPI_REQUEST_NULL)
        FAIL("an init refused for its info made a request");
    void *mem = NULL;
    CHECK(MPI_Alloc_mem(64, info, &mem));
    if (!mem)
        FAIL("Alloc_mem with info gave NULL");
    CHECK(MPI_Free_mem(mem));
    expect_class("Alloc_mem bad info", MPI_Alloc_mem(64, freed, &mem), MPI_ERR_INFO);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Comm ring;
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                         MPI_UNWEIGHTED, info, 0, &ring));
    int got_left = -1;
    CHECK(MPI_Neighbor_allgather(&rank, 1, MPI_INT, &got_left, 1, MPI_INT, ring));
    EXPECT_INT(got_left, left);
    CHECK(MPI_Comm_free(&ring));
    expect_class("Dist_graph_create_adjacent bad info",
                 MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1,
                                                &right, MPI_UNWEIGHTED, freed, 0, &ring),
                 MPI_ERR_INFO);

    /* windows keep the hints they were made with */
    MPI_Win win;
    int buf[2];
    void *base = NULL;
    CHECK(MPI_Win_create(buf, sizeof buf, sizeof(int), info, MPI_COMM_WORLD, &win));
    /* ... followed by the RMA hints' defaults (MPI-3.1 11.2.1) they were not given */
    const char *wk1[] = {k1[0], "accumulate_ordering", "accumulate_ops"};
    const char *wv1[] = {v1[0], "rar,raw,war,waw", "same_op_no_op"};
    CHECK(MPI_Win_get_info(win, &got));
    expect_info("window's hints", got, 3, wk1, wv1);
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Win_set_info(win, info2));
    CHECK(MPI_Win_get_info(win, &got));
    const char *wk2[] = {k2[0], k2[1], "accumulate_ordering", "accumulate_ops"};
    const char *wv2[] = {v2[0], v2[1], "rar,raw,war,waw", "same_op_no_op"};
    expect_info("window's hints updated", got, 4, wk2, wv2);
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Win_free(&win));
    CHECK(MPI_Win_allocate(16, 1, info2, MPI_COMM_WORLD, &base, &win));
    CHECK(MPI_Win_get_info(win, &got));
    const char *k4[] = {"mpi_assert_exact_length", "mpi_assert_no_any_tag", "accumulate_ordering",
                        "accumulate_ops"};
    const char *wv3[] = {v3[0], v3[1], "rar,raw,war,waw", "same_op_no_op"};
    expect_info("allocated window's hints", got, 4, k4, wv3);
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Win_free(&win));
    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Info ord;
    CHECK(MPI_Info_create(&ord));
    CHECK(MPI_Info_set(ord, "accumulate_ordering", "none"));
    CHECK(MPI_Info_set(ord, "rmp_no_such_hint", "true")); /* unknown: not used, not kept */
    CHECK(MPI_Win_set_info(win, ord)); /* a value given replaces the default */
    CHECK(MPI_Info_free(&ord));
    CHECK(MPI_Win_get_info(win, &got));
    const char *k5[] = {"accumulate_ordering", "accumulate_ops"};
    const char *v5[] = {"none", "same_op_no_op"};
    expect_info("dynamic window's hints", got, 2, k5, v5);
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Win_free(&win));
    expect_class("Win_create bad info",
                 MPI_Win_create(buf, sizeof buf, sizeof(int), freed, MPI_COMM_WORLD, &win),
                 MPI_ERR_INFO);
    expect_class("Win_allocate bad info",
                 MPI_Win_allocate(16, 1, freed, MPI_COMM_WORLD, &base, &win), MPI_ERR_INFO);
    expect_class("Win_create_dynamic bad info",
                 MPI_Win_create_dynamic(freed, MPI_COMM_WORLD, &win), MPI_ERR_INFO);
    expect_class("Win_set_info bad win", MPI_Win_set_info(MPI_WIN_NULL, info), MPI_ERR_WIN);
    expect_class("Win_get_info bad win", MPI_Win_get_info(MPI_WIN_NULL, &got), MPI_ERR_WIN);
    CHECK(MPI_Info_free(&info));
    CHECK(MPI_Info_free(&info2));
}
