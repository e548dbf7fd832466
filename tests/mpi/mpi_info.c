/* mpi_info.c — mpi.h's info objects, object names and hints, the way MPICH's test/mpi/info
 * (infotest, infodup, infodel, infovallen, infoorder, infomany, infoenv) and comm/commname
 * test them: exact keys, values, orders and lengths against what was set, MPI_INFO_ENV's
 * command and maxprocs, names of communicators, types and windows (defaults, truncation,
 * reuse of a freed handle), hints kept by communicators and windows, calls that take an info
 * accepting a real one, and the MPI_ERRORS_RETURN class of every invalid argument. */
#include "mpicheck.h"

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d of class %d, expected class %d", what, rc, got, cls);
}

/* info holds exactly keys[0..n-1] (in that order) with vals[0..n-1]. */
static void expect_info(const char *what, MPI_Info info, int n, const char *const *keys,
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

static void expect_name(const char *what, const char *got, int len, const char *want)
{
    if (strcmp(got, want) != 0 || len != (int)strlen(want))
        FAIL("%s: name '%s' (%d), expected '%s'", what, got, len, want);
}

/* commname and the other names. */
static void t_names(int rank)
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
static void t_hints(int rank, int size)
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
