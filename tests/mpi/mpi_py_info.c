/* mpi_py_info.c — MPI_Info as mpi4py's test_info.py uses it (its dict methods are calls on
 * the handle): keys in the order they were set (popitem takes the last, nthkey(nkeys-1)),
 * replacing a value keeps the key's place, a dup has the same items in the same order,
 * absent keys (Info_get and Info_get_string flag 0), MPI_INFO_ENV's standard keys readable,
 * MPI_Info_create_env with no arguments and with one, and a freed info is MPI_INFO_NULL. */
#include "mpicheck.h"

/* The key at n and its value, as popitem reads them. */
static void expect_nth(MPI_Info info, int n, const char *key, const char *val)
{
    char k[MPI_MAX_INFO_KEY + 1] = "", v[64] = "";
    int flag = 0;
    CHECK(MPI_Info_get_nthkey(info, n, k));
    CHECK(MPI_Info_get(info, k, sizeof v - 1, v, &flag));
    if (strcmp(k, key) || !flag || strcmp(v, val))
        FAIL("key %d is '%s' = '%s' (flag %d), expected '%s' = '%s'", n, k, v, flag, key, val);
}

static void expect_nkeys(MPI_Info info, int want)
{
    int n = -1;
    CHECK(MPI_Info_get_nkeys(info, &n));
    EXPECT_INT(n, want);
}

static void order(void)
{
    MPI_Info info, dup;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_set(info, "key1", "value1"));
    CHECK(MPI_Info_set(info, "key2", "value2"));
    expect_nth(info, 1, "key2", "value2"); /* popitem: the last set */
    CHECK(MPI_Info_delete(info, "key2"));
    expect_nth(info, 0, "key1", "value1");
    CHECK(MPI_Info_set(info, "key2", "value2"));
    CHECK(MPI_Info_set(info, "key3", "value3"));
    CHECK(MPI_Info_set(info, "key1", "newval1")); /* update: the key keeps its place */
    expect_nkeys(info, 3);
    expect_nth(info, 0, "key1", "newval1");
    expect_nth(info, 2, "key3", "value3");
    CHECK(MPI_Info_dup(info, &dup));
    for (int i = 0; i < 3; i++) {
        char k[MPI_MAX_INFO_KEY + 1], v[64];
        int flag = 0;
        CHECK(MPI_Info_get_nthkey(info, i, k));
        CHECK(MPI_Info_get(info, k, sizeof v - 1, v, &flag));
        expect_nth(dup, i, k, v);
    }
    CHECK(MPI_Info_free(&dup));
    CHECK(MPI_Info_free(&info));
    if (info != MPI_INFO_NULL)
        FAIL("MPI_Info_free did not set MPI_INFO_NULL");
}

static void absent(void)
{
    MPI_Info info;
    char v[16] = "untouched";
    int flag = -1, len = (int)sizeof v;
    CHECK(MPI_Info_create(&info));
    expect_nkeys(info, 0);
    CHECK(MPI_Info_get(info, "key", sizeof v - 1, v, &flag));
    EXPECT_INT(flag, 0);
    flag = -1;
    CHECK(MPI_Info_get_string(info, "key", &len, v, &flag));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Info_set(info, "key", "value"));
    len = 0; /* asks the length: the value and its NUL */
    CHECK(MPI_Info_get_string(info, "key", &len, v, &flag));
    EXPECT_INT(flag, 1);
    EXPECT_INT(len, 6);
    CHECK(MPI_Info_free(&info));
}

static void env(int argc, char **argv)
{
    static const char *const keys[] = {"command", "argv", "maxprocs", "soft", "host",
                                       "arch", "wdir", "file", "thread_level"};
    char v[MPI_MAX_INFO_VAL + 1];
    int flag;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        CHECK(MPI_Info_get(MPI_INFO_ENV, keys[i], MPI_MAX_INFO_VAL, v, &flag));
    MPI_Info e;
    CHECK(MPI_Info_create_env(0, NULL, &e));
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        CHECK(MPI_Info_get(e, keys[i], MPI_MAX_INFO_VAL, v, &flag));
    CHECK(MPI_Info_free(&e));
    CHECK(MPI_Info_create_env(1, argv, &e));
    CHECK(MPI_Info_free(&e));
    CHECK(MPI_Info_create_env(argc, argv, &e));
    CHECK(MPI_Info_free(&e));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 60);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    order();
    absent();
    env(argc, argv);
    MPI_Finalize();
    return mc_done("mpi_py_info");
}
