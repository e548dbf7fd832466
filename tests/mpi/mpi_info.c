/* mpi_info.c — mpi.h's info objects, object names and hints, the way MPICH's test/mpi/info
 * (infotest, infodup, infodel, infovallen, infoorder, infomany, infoenv) and comm/commname
 * test them: exact keys, values, orders and lengths against what was set, MPI_INFO_ENV's
 * command and maxprocs, names of communicators, types and windows (defaults, truncation,
 * reuse of a freed handle), hints kept by communicators and windows, calls that take an info
 * accepting a real one, and the MPI_ERRORS_RETURN class of every invalid argument. */
#include "mpi_info/mpi_info.h"

void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d of class %d, expected class %d", what, rc, got, cls);
}

/* info holds exactly keys[0..n-1] (in that order) with vals[0..n-1]. */
void expect_info(const char *what, MPI_Info info, int n, const char *const *keys,
                 const char *const *vals)
{
    int nk = -1, flag = -1, len = -1;
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    CHECK(MPI_Info_get_nkeys(info, &nk));
    if (nk != n) {
        FAIL("%s: %d keys, expected %d", what, nk, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        CHECK(MPI_Info_get_nthkey(info, i, key));
        if (strcmp(key, keys[i]) != 0)
            FAIL("%s: key %d is '%s', expected '%s'", what, i, key, keys[i]);
        CHECK(MPI_Info_get(info, keys[i], MPI_MAX_INFO_VAL, val, &flag));
        if (!flag || strcmp(val, vals[i]) != 0)
            FAIL("%s: %s = '%s' (flag %d), expected '%s'", what, keys[i], val, flag, vals[i]);
        CHECK(MPI_Info_get_valuelen(info, keys[i], &len, &flag));
        EXPECT_INT(flag, 1);
        EXPECT_INT(len, (int)strlen(vals[i]));
    }
}

static void t_basic(void)
{
    MPI_Info info;
    char val[64];
    int flag = -1, len = -1, n = -1;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_get_nkeys(info, &n));
    EXPECT_INT(n, 0);
    CHECK(MPI_Info_set(info, "host", "myhost.myorg.org"));
    CHECK(MPI_Info_set(info, "file", "runfile.txt"));
    CHECK(MPI_Info_set(info, "soft", "2:1000:4,3:1000:7"));
    const char *k[] = {"host", "file", "soft"};
    const char *v[] = {"myhost.myorg.org", "runfile.txt", "2:1000:4,3:1000:7"};
    expect_info("basic", info, 3, k, v);

    /* a missing key: flag 0, value untouched */
    strcpy(val, "untouched");
    CHECK(MPI_Info_get(info, "nothere", 63, val, &flag));
    EXPECT_INT(flag, 0);
    if (strcmp(val, "untouched") != 0)
        FAIL("Info_get of a missing key wrote '%s'", val);
    CHECK(MPI_Info_get_valuelen(info, "nothere", &len, &flag));
    EXPECT_INT(flag, 0);

    /* valuelen shorter than the value: that many characters and a NUL */
    memset(val, 'x', sizeof val);
    CHECK(MPI_Info_get(info, "host", 6, val, &flag));
    EXPECT_INT(flag, 1);
    if (strcmp(val, "myhost") != 0)
        FAIL("Info_get valuelen 6 gave '%s', expected 'myhost'", val);
    CHECK(MPI_Info_get(info, "host", 0, val, &flag));
    EXPECT_INT(flag, 1);
    EXPECT_INT(val[0], '\0');

    /* keys are case-sensitive, values kept exactly (spaces too) */
    CHECK(MPI_Info_set(info, "Host", " Other Host "));
    CHECK(MPI_Info_get(info, "Host", 63, val, &flag));
    if (!flag || strcmp(val, " Other Host ") != 0)
        FAIL("Host = '%s', expected ' Other Host '", val);
    CHECK(MPI_Info_get(info, "host", 63, val, &flag));
    if (!flag || strcmp(val, "myhost.myorg.org") != 0)
        FAIL("host changed to '%s'", val);

    /* a key set again: new value, same place */
    CHECK(MPI_Info_set(info, "file", "other.txt"));
    const char *k2[] = {"host", "file", "soft", "Host"};
    const char *v2[] = {"myhost.myorg.org", "other.txt", "2:1000:4,3:1000:7", " Other Host "};
    expect_info("set again", info, 4, k2, v2);
    CHECK(MPI_Info_free(&info));
    EXPECT_INT(info, MPI_INFO_NULL);
}

/* infoorder: keys come back in the order they were first set, whatever their names. */
static void t_order(void)
{
    MPI_Info info;
    const char *k[] = {"zz", "aa", "mm", "bb", "yy"};
    const char *v[] = {"1", "2", "3", "4", "5"};
    CHECK(MPI_Info_create(&info));
    for (int i = 0; i < 5; i++)
        CHECK(MPI_Info_set(info, k[i], v[i]));
    expect_info("order", info, 5, k, v);
    CHECK(MPI_Info_delete(info, "mm"));
    const char *kd[] = {"zz", "aa", "bb", "yy"};
    const char *vd[] = {"1", "2", "4", "5"};
    expect_info("order after delete", info, 4, kd, vd);
    CHECK(MPI_Info_set(info, "mm", "6")); /* back at the end */
    const char *ka[] = {"zz", "aa", "bb", "yy", "mm"};
    const char *va[] = {"1", "2", "4", "5", "6"};
    expect_info("order after re-add", info, 5, ka, va);
    CHECK(MPI_Info_free(&info));
}

/* infodup: a dup is a separate object with the same keys in the same order. */
static void t_dup(void)
{
    MPI_Info a, b, c, e;
    const char *k[] = {"first", "second", "third"};
    const char *v[] = {"one", "two", "three"};
    CHECK(MPI_Info_create(&a));
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Info_set(a, k[i], v[i]));
    CHECK(MPI_Info_dup(a, &b));
    if (a == b)
        FAIL("Info_dup returned the same handle");
    expect_info("dup", b, 3, k, v);
    CHECK(MPI_Info_set(a, "fourth", "four"));
    CHECK(MPI_Info_delete(a, "first"));
    expect_info("dup after the original changed", b, 3, k, v);
    CHECK(MPI_Info_free(&a));
    expect_info("dup after the original was freed", b, 3, k, v);
    CHECK(MPI_Info_dup(b, &c));
    CHECK(MPI_Info_free(&b));
    expect_info("dup of a dup", c, 3, k, v);
    CHECK(MPI_Info_free(&c));
    CHECK(MPI_Info_create(&e));
    CHECK(MPI_Info_dup(e, &a));
    expect_info("dup of empty", a, 0, k, v);
    CHECK(MPI_Info_free(&a));
    CHECK(MPI_Info_free(&e));
}

/* infodel: delete every key, in an order unlike the insertion's. */
static void t_del(void)
{
    MPI_Info info;
    char key[MPI_MAX_INFO_KEY + 1], val[32];
    int n = -1;
    CHECK(MPI_Info_create(&info));
    for (int i = 0; i < 10; i++) {
        snprintf(key, sizeof key, "key%d", i);
        snprintf(val, sizeof val, "value%d", i);
        CHECK(MPI_Info_set(info, key, val));
    }
    for (int i = 0; i < 10; i += 2) {
        snprintf(key, sizeof key, "key%d", i);
        CHECK(MPI_Info_delete(info, key));
    }
    CHECK(MPI_Info_get_nkeys(info, &n));
    EXPECT_INT(n, 5);
    for (int i = 0; i < 5; i++) {
        char want[32];
        snprintf(want, sizeof want, "key%d", 2 * i + 1);
        CHECK(MPI_Info_get_nthkey(info, i, key));
        if (strcmp(key, want) != 0)
            FAIL("after deletes key %d is '%s', expected '%s'", i, key, want);
    }
    for (int i = 9; i >= 1; i -= 2) {
        snprintf(key, sizeof key, "key%d", i);
        CHECK(MPI_Info_delete(info, key));
    }
    CHECK(MPI_Info_get_nkeys(info, &n));
    EXPECT_INT(n, 0);
    expect_class("Info_delete of a deleted key", MPI_Info_delete(info, "key3"),
                 MPI_ERR_INFO_NOKEY);
    CHECK(MPI_Info_free(&info));
}

/* infovallen: values of every length class up to MPI_MAX_INFO_VAL, keys up to
 * MPI_MAX_INFO_KEY. */
static void t_lengths(void)
{
    static char big[MPI_MAX_INFO_VAL + 2], got[MPI_MAX_INFO_VAL + 1];
    char key[MPI_MAX_INFO_KEY + 2];
    MPI_Info info;
    int flag = -1, len = -1;
    CHECK(MPI_Info_create(&info));
    const int lens[] = {1, 2, 31, 32, 33, 255, 256, 1000, MPI_MAX_INFO_VAL};
    for (int i = 0; i < (int)(sizeof lens / sizeof lens[0]); i++) {
        for (int j = 0; j < lens[i]; j++)
            big[j] = (char)('a' + (j + i) % 26);
        big[lens[i]] = '\0';
        snprintf(key, sizeof key, "len%d", lens[i]);
        CHECK(MPI_Info_set(info, key, big));
        CHECK(MPI_Info_get_valuelen(info, key, &len, &flag));
        EXPECT_INT(flag, 1);
        EXPECT_INT(len, lens[i]);
        CHECK(MPI_Info_get(info, key, len, got, &flag));
        if (!flag || strcmp(got, big) != 0)
            FAIL("value of length %d came back wrong", lens[i]);
    }
    memset(key, 'k', MPI_MAX_INFO_KEY);
    key[MPI_MAX_INFO_KEY] = '\0';
    CHECK(MPI_Info_set(info, key, "longest key"));
    CHECK(MPI_Info_get(info, key, 20, got, &flag));
    if (!flag || strcmp(got, "longest key") != 0)
        FAIL("the longest key's value is '%s'", got);

    /* too long, empty */
    key[MPI_MAX_INFO_KEY] = 'k';
    key[MPI_MAX_INFO_KEY + 1] = '\0';
    expect_class("Info_set key of MPI_MAX_INFO_KEY+1", MPI_Info_set(info, key, "v"),
                 MPI_ERR_INFO_KEY);
    expect_class("Info_get key of MPI_MAX_INFO_KEY+1", MPI_Info_get(info, key, 5, got, &flag),
                 MPI_ERR_INFO_KEY);
    expect_class("Info_get_valuelen long key", MPI_Info_get_valuelen(info, key, &len, &flag),
                 MPI_ERR_INFO_KEY);
    expect_class("Info_delete long key", MPI_Info_delete(info, key), MPI_ERR_INFO_KEY);
    expect_class("Info_set empty key", MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY);
    memset(big, 'v', MPI_MAX_INFO_VAL + 1);
    big[MPI_MAX_INFO_VAL + 1] = '\0';
    expect_class("Info_set value of MPI_MAX_INFO_VAL+1", MPI_Info_set(info, "k", big),
                 MPI_ERR_INFO_VALUE);
    expect_class("Info_set empty value", MPI_Info_set(info, "k", ""), MPI_ERR_INFO_VALUE);
    CHECK(MPI_Info_get(info, "k", 5, got, &flag)); /* nothing was set by the failures */
    EXPECT_INT(flag, 0);
    CHECK(MPI_Info_free(&info));
}

/* infomany: many objects alive at once, then freed, then again (handles reused). */
static void t_many(void)
{
    enum { N = 300 };
    static MPI_Info infos[N];
    char key[32], val[48], got[48];
    int flag;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < N; i++) {
            CHECK(MPI_Info_create(&infos[i]));
            snprintf(key, sizeof key, "k%d", i % 7);
            snprintf(val, sizeof val, "r%d-%d", round, i);
            CHECK(MPI_Info_set(infos[i], key, val));
        }
        for (int i = 0; i < N; i++) {
            snprintf(key, sizeof key, "k%d", i % 7);
            snprintf(val, sizeof val, "r%d-%d", round, i);
            flag = 0;
            CHECK(MPI_Info_get(infos[i], key, 47, got, &flag));
            if (!flag || strcmp(got, val) != 0)
                FAIL("infomany round %d info %d: '%s' (flag %d), expected '%s'", round, i, got,
                     flag, val);
            int n = -1;
            CHECK(MPI_Info_get_nkeys(infos[i], &n));
            EXPECT_INT(n, 1);
        }
        for (int i = 0; i < N; i++)
            CHECK(MPI_Info_free(&infos[i]));
    }
}

static void t_env(int size, int argc, char **argv)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0, n = -1;
    CHECK(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, val, &flag));
    const char *base = strrchr(val, '/');
    if (!flag || strcmp(base ? base + 1 : val, "mpi_info") != 0)
        FAIL("MPI_INFO_ENV command is '%s' (flag %d), expected .../mpi_info", val, flag);
    CHECK(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, val, &flag));
    if (!flag || atoi(val) != size)
        FAIL("MPI_INFO_ENV maxprocs is '%s' (flag %d), expected %d", val, flag, size);
    char want[MPI_MAX_INFO_VAL + 1] = ""; /* the arguments, space-separated */
    for (int i = 1; i < argc; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i > 1 ? " " : "",
                 argv[i]);
    flag = -1;
    CHECK(MPI_Info_get(MPI_INFO_ENV, "argv", MPI_MAX_INFO_VAL, val, &flag));
    if (argc > 1 && (!flag || strcmp(val, want) != 0))
        FAIL("MPI_INFO_ENV argv is '%s' (flag %d), expected '%s'", val, flag, want);
    if (argc <= 1 && flag != 0)
        FAIL("MPI_INFO_ENV has argv '%s' without arguments", val);
    CHECK(MPI_Info_get(MPI_INFO_ENV, "thread_level", MPI_MAX_INFO_VAL, val, &flag));
    if (!flag || strcmp(val, "MPI_THREAD_SINGLE") != 0)
        FAIL("MPI_INFO_ENV thread_level is '%s' (flag %d)", val, flag);
    CHECK(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    if (n < 3)
        FAIL("MPI_INFO_ENV has %d keys", n);
    expect_class("Info_set on MPI_INFO_ENV", MPI_Info_set(MPI_INFO_ENV, "a", "b"), MPI_ERR_INFO);
    expect_class("Info_delete on MPI_INFO_ENV", MPI_Info_delete(MPI_INFO_ENV, "command"),
                 MPI_ERR_INFO);
    MPI_Info env = MPI_INFO_ENV, copy;
    expect_class("Info_free of MPI_INFO_ENV", MPI_Info_free(&env), MPI_ERR_INFO);
    CHECK(MPI_Info_dup(MPI_INFO_ENV, &copy)); /* a copy may change */
    int m = -1;
    CHECK(MPI_Info_get_nkeys(copy, &m));
    EXPECT_INT(m, n);
    CHECK(MPI_Info_set(copy, "command", "changed"));
    CHECK(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, val, &flag));
    if (strcmp(val, "changed") == 0)
        FAIL("changing a dup of MPI_INFO_ENV changed it");
    CHECK(MPI_Info_free(&copy));
}

static void t_info_errors(void)
{
    MPI_Info info, freed;
    char key[MPI_MAX_INFO_KEY + 1], val[8];
    int n, flag;
    CHECK(MPI_Info_create(&freed));
    CHECK(MPI_Info_free(&freed));
    freed = 2; /* the first handle given out, freed above (whatever it was: invalid now) */
    const MPI_Info bad[] = {MPI_INFO_NULL, 12345, -7};
    for (int i = 0; i < 3; i++) {
        expect_class("Info_set bad", MPI_Info_set(bad[i], "k", "v"), MPI_ERR_INFO);
        expect_class("Info_get bad", MPI_Info_get(bad[i], "k", 7, val, &flag), MPI_ERR_INFO);
        expect_class("Info_get_nkeys bad", MPI_Info_get_nkeys(bad[i], &n), MPI_ERR_INFO);
        expect_class("Info_get_nthkey bad", MPI_Info_get_nthkey(bad[i], 0, key), MPI_ERR_INFO);
        expect_class("Info_get_valuelen bad", MPI_Info_get_valuelen(bad[i], "k", &n, &flag),
                     MPI_ERR_INFO);
        expect_class("Info_delete bad", MPI_Info_delete(bad[i], "k"), MPI_ERR_INFO);
        expect_class("Info_dup bad", MPI_Info_dup(bad[i], &info), MPI_ERR_INFO);
        MPI_Info b = bad[i];
        expect_class("Info_free bad", MPI_Info_free(&b), MPI_ERR_INFO);
    }
    CHECK(MPI_Info_create(&info));
    MPI_Info again = info;
    CHECK(MPI_Info_free(&again));
    expect_class("Info_set on a freed info", MPI_Info_set(info, "k", "v"), MPI_ERR_INFO);
    expect_class("Info_free twice", MPI_Info_free(&info), MPI_ERR_INFO);
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_set(info, "a", "1"));
    expect_class("Info_get_nthkey n = nkeys", MPI_Info_get_nthkey(info, 1, key), MPI_ERR_ARG);
    expect_class("Info_get_nthkey n < 0", MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
    expect_class("Info_get valuelen < 0", MPI_Info_get(info, "a", -1, val, &flag), MPI_ERR_ARG);
    expect_class("Info_get NULL key", MPI_Info_get(info, NULL, 7, val, &flag), MPI_ERR_ARG);
    expect_class("Info_set NULL value", MPI_Info_set(info, "a", NULL), MPI_ERR_ARG);
    expect_class("Info_create NULL", MPI_Info_create(NULL), MPI_ERR_ARG);
    expect_class("Info_delete missing", MPI_Info_delete(info, "b"), MPI_ERR_INFO_NOKEY);
    CHECK(MPI_Info_free(&info));
}

int main(int argc, char **argv)
{
    int rank, size;
    mc_watchdog(60);
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mc_rank = rank;
    t_basic();
    t_order();
    t_dup();
    t_del();
    t_lengths();
    t_many();
    t_env(size, argc, argv);
    t_info_errors();
    t_names(rank);
    t_hints(rank, size);
    MPI_Finalize();
    return mc_done("mpi_info");
}
