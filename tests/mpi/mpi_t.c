/* mpi_t.c — the tools interface (MPI_T) apart from counting: MPI_T_init_thread and
 * MPI_T_finalize nest and work before, during and after MPI; every cvar (an RMP_* knob) has a
 * unique name that get_index finds again, reads as its type, and is writable exactly when its
 * scope says so; enumerations, categories (each variable in one), the one source, events;
 * every invalid index, name and handle gets its MPI_T_ERR_* class. Run with RMP_SHM_RING_KB=64
 * set (the test reads it back). */
#include "mpicheck.h"

#define EXPECT_RC(call, want) EXPECT_INT(call, want)

static char name[256], desc[1024];

/* The cvar called s (its index), checked through get_index. */
static int cvar_index(const char *s)
{
    int i = -1;
    CHECK(MPI_T_cvar_get_index(s, &i));
    return i;
}

/* Reads cvar i as an int (booleans, integers, choices) or MPI_Count (sizes). */
static long long cvar_read_num(int i)
{
    MPI_T_cvar_handle h;
    int count;
    long long v = -12345;
    MPI_Datatype dt;
    CHECK(MPI_T_cvar_get_info(i, NULL, NULL, NULL, &dt, NULL, NULL, NULL, NULL, NULL));
    CHECK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
    EXPECT_INT(count, 1);
    if (dt == MPI_COUNT) {
        MPI_Count c;
        CHECK(MPI_T_cvar_read(h, &c));
        v = c;
    } else {
        int x;
        CHECK(MPI_T_cvar_read(h, &x));
        v = x;
    }
    CHECK(MPI_T_cvar_handle_free(&h));
    EXPECT_INT(h, MPI_T_CVAR_HANDLE_NULL);
    return v;
}

/* Nothing works before MPI_T_init_thread; init and finalize nest. */
static void test_init_nesting(void)
{
    int n, provided = -1;
    EXPECT_RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT_RC(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE + 1, &provided), MPI_T_ERR_INVALID);
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    EXPECT_INT(provided, MPI_THREAD_SINGLE);
    CHECK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    EXPECT_INT(provided, MPI_THREAD_MULTIPLE);
    CHECK(MPI_T_finalize());
    CHECK(MPI_T_cvar_get_num(&n)); /* one init left */
}

/* Before MPI_Init: values are what MPI_Init will read; nothing can be written yet. */
static void test_before_mpi(void)
{
    EXPECT_INT(cvar_read_num(cvar_index("RMP_SHM_RING_KB")), 64);
    EXPECT_INT(cvar_read_num(cvar_index("RMP_EAGER_LIMIT")), -1);
    MPI_T_cvar_handle h;
    int count;
    CHECK(MPI_T_cvar_handle_alloc(cvar_index("RMP_EAGER_LIMIT"), NULL, &h, &count));
    MPI_Count v = 100;
    EXPECT_RC(MPI_T_cvar_write(h, &v), MPI_T_ERR_CVAR_SET_NOT_NOW);
    CHECK(MPI_T_cvar_handle_free(&h));
}

/* Every cvar: unique name, found again by get_index, readable as its type, writable exactly
 * when MPI_T_SCOPE_LOCAL (a read-only one refuses with MPI_T_ERR_CVAR_SET_NEVER). */
static void test_every_cvar(void)
{
    int n;
    CHECK(MPI_T_cvar_get_num(&n));
    if (n < 40)
        FAIL("only %d cvars (every RMP_* knob is one)", n);
    static char names[128][sizeof name];
    for (int i = 0; i < n && i < 128; i++) {
        int nl = sizeof name, dl = sizeof desc, verb, bind, scope;
        MPI_Datatype dt;
        MPI_T_enum et;
        CHECK(MPI_T_cvar_get_info(i, name, &nl, &verb, &dt, &et, desc, &dl, &bind, &scope));
        EXPECT_INT(nl, (int)strlen(name) + 1);
        if (strncmp(name, "RMP_", 4) || dl < 10)
            FAIL("cvar %d: name \"%s\", desc \"%s\"", i, name, desc);
        snprintf(names[i], sizeof names[i], "%s", name);
        for (int j = 0; j < i; j++)
            if (!strcmp(names[j], name))
                FAIL("cvars %d and %d are both %s", j, i, name);
        int back = -1;
        CHECK(MPI_T_cvar_get_index(name, &back));
        EXPECT_INT(back, i);
        EXPECT_INT(bind, MPI_T_BIND_NO_OBJECT);
        if (scope != MPI_T_SCOPE_LOCAL && scope != MPI_T_SCOPE_CONSTANT)
            FAIL("%s: scope %d", name, scope);
        if (dt != MPI_INT && dt != MPI_COUNT && dt != MPI_CHAR)
            FAIL("%s: datatype %d", name, (int)dt);
        MPI_T_cvar_handle h;
        int count;
        CHECK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        char buf[256] = {0};
        CHECK(MPI_T_cvar_read(h, buf));
        if (dt == MPI_CHAR && (count < 64 || strlen(buf) >= (size_t)count))
            FAIL("%s: count %d, value \"%s\"", name, count, buf);
        if (et != MPI_T_ENUM_NULL) {
            int items;
            CHECK(MPI_T_enum_get_info(et, &items, NULL, NULL));
            int v = *(int *)buf;
            if (items < 2 || v < 0 || v >= items)
                FAIL("%s: value %d of an enum of %d items", name, v, items);
        }
        if (scope == MPI_T_SCOPE_CONSTANT)
            EXPECT_RC(MPI_T_cvar_write(h, buf), MPI_T_ERR_CVAR_SET_NEVER);
        else
            CHECK(MPI_T_cvar_write(h, buf)); /* its own value back */
        CHECK(MPI_T_cvar_handle_free(&h));
    }
}

/* Known values, the string convention, writing a value the knob refuses. */
static void test_cvar_values(void)
{
    EXPECT_INT(cvar_read_num(cvar_index("RMP_SHM_RING_KB")), 64);
    EXPECT_INT(cvar_read_num(cvar_index("RMP_VERBOSE")), 0);
    EXPECT_INT(cvar_read_num(cvar_index("RMP_FINALIZE_TIMEOUT")), 60);
    int t = cvar_index("RMP_TRANSPORT");
    MPI_T_enum et;
    CHECK(MPI_T_cvar_get_info(t, NULL, NULL, NULL, NULL, &et, NULL, NULL, NULL, NULL));
    int items, value, len = sizeof name;
    CHECK(MPI_T_enum_get_info(et, &items, name, &len));
    EXPECT_INT(items, 3);
    len = sizeof name;
    CHECK(MPI_T_enum_get_item(et, (int)cvar_read_num(t), &value, name, &len));
    if (strcmp(name, "auto"))
        FAIL("RMP_TRANSPORT reads \"%s\", expected auto", name);
    EXPECT_RC(MPI_T_enum_get_item(et, 3, &value, name, &len), MPI_T_ERR_INVALID_ITEM);
    EXPECT_RC(MPI_T_enum_get_item(et, -1, &value, name, &len), MPI_T_ERR_INVALID_ITEM);
    /* a short buffer: cut, null-terminated, the length written */
    char small[4];
    len = sizeof small;
    CHECK(MPI_T_cvar_get_info(t, small, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    EXPECT_INT(len, 4);
    if (strcmp(small, "RMP"))
        FAIL("cut name \"%s\"", small);
    len = 0; /* no room: the full length */
    CHECK(MPI_T_cvar_get_info(t, small, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    EXPECT_INT(len, (int)strlen("RMP_TRANSPORT") + 1);
    /* writable: the runtime reads it at its next use; a refused value leaves it */
    MPI_T_cvar_handle h;
    int count;
    CHECK(MPI_T_cvar_handle_alloc(cvar_index("RMP_HANG_REPORT"), NULL, &h, &count));
    int v = 86401;
    EXPECT_RC(MPI_T_cvar_write(h, &v), MPI_T_ERR_INVALID);
    v = 120;
    CHECK(MPI_T_cvar_write(h, &v));
    v = 0;
    CHECK(MPI_T_cvar_read(h, &v));
    EXPECT_INT(v, 120);
    v = 0;
    CHECK(MPI_T_cvar_write(h, &v));
    CHECK(MPI_T_cvar_handle_free(&h));
}

/* Every cvar and pvar in exactly one category under "rmp"; names found again. */
static void test_categories(void)
{
    int ncat, ncv, npv, changed;
    CHECK(MPI_T_category_get_num(&ncat));
    CHECK(MPI_T_cvar_get_num(&ncv));
    CHECK(MPI_T_pvar_get_num(&npv));
    int cv_seen[128] = {0}, pv_seen[128] = {0}, idx[128];
    for (int c = 0; c < ncat; c++) {
        int nl = sizeof name, dl = sizeof desc, nc, np, nsub, nev, back;
        CHECK(MPI_T_category_get_info(c, name, &nl, desc, &dl, &nc, &np, &nsub));
        CHECK(MPI_T_category_get_index(name, &back));
        EXPECT_INT(back, c);
        CHECK(MPI_T_category_get_num_events(c, &nev));
        EXPECT_INT(nev, 0);
        CHECK(MPI_T_category_get_cvars(c, nc, idx));
        for (int k = 0; k < nc; k++)
            cv_seen[idx[k]]++;
        CHECK(MPI_T_category_get_pvars(c, np, idx));
        for (int k = 0; k < np; k++)
            pv_seen[idx[k]]++;
        CHECK(MPI_T_category_get_categories(c, nsub, idx));
        if (!strcmp(name, "rmp"))
            EXPECT_INT(nsub, ncat - 1);
        CHECK(MPI_T_category_get_events(c, 0, idx));
    }
    for (int i = 0; i < ncv; i++)
        if (cv_seen[i] != 1)
            FAIL("cvar %d is in %d categories", i, cv_seen[i]);
    for (int i = 0; i < npv; i++)
        if (pv_seen[i] != 1)
            FAIL("pvar %d is in %d categories", i, pv_seen[i]);
    CHECK(MPI_T_category_changed(&changed));
    int again;
    CHECK(MPI_T_category_changed(&again));
    EXPECT_INT(again, changed);
}

/* Five event types (tests/mpi/mpi_t_event checks what they carry), invalid indices, names and
 * handles refused; one source, whose clock goes forward. */
static void test_events_sources(void)
{
    int n, i, nev;
    CHECK(MPI_T_event_get_num(&nev));
    EXPECT_INT(nev, 5);
    n = sizeof name;
    EXPECT_RC(MPI_T_event_get_info(nev, name, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                   NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_event_get_info(-1, name, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                   NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_event_get_index("rmp_none", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT_RC(MPI_T_event_get_index(NULL, &i), MPI_T_ERR_INVALID);
    MPI_T_event_registration reg;
    EXPECT_RC(MPI_T_event_handle_alloc(nev, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, NULL), MPI_T_ERR_INVALID);
    EXPECT_RC(MPI_T_event_handle_set_info(1, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
    MPI_Info info;
    EXPECT_RC(MPI_T_event_handle_get_info(1, &info), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_register_callback(1, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, NULL),
              MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_callback_set_info(1, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL),
              MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_callback_get_info(1, MPI_T_CB_REQUIRE_NONE, &info),
              MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_set_dropped_handler(1, NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_handle_free(1, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    char buf[64];
    MPI_Count ts, ts2;
    EXPECT_RC(MPI_T_event_read(1, 0, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_copy(1, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_get_timestamp(1, &ts), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_get_source(1, &i), MPI_T_ERR_INVALID_HANDLE);
    CHECK(MPI_T_source_get_num(&n));
    EXPECT_INT(n, 1);
    MPI_T_source_order order;
    MPI_Count tps, max;
    int nl = sizeof name, dl = sizeof desc;
    CHECK(MPI_T_source_get_info(0, name, &nl, desc, &dl, &order, &tps, &max, &info));
    EXPECT_INT(tps, 1000000000);
    EXPECT_INT(order, MPI_T_SOURCE_ORDERED);
    CHECK(MPI_Info_free(&info));
    EXPECT_RC(MPI_T_source_get_info(1, name, &nl, desc, &dl, &order, &tps, &max, NULL),
              MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_source_get_timestamp(0, &ts));
    CHECK(MPI_T_source_get_timestamp(0, &ts2));
    if (ts2 < ts)
        FAIL("the source's clock went back: %lld then %lld", (long long)ts, (long long)ts2);
    EXPECT_RC(MPI_T_source_get_timestamp(-1, &ts), MPI_T_ERR_INVALID_INDEX);
}

/* Each invalid index, name and handle of the cvar, enum and category calls. */
static void test_invalid(void)
{
    int n, i, count;
    CHECK(MPI_T_cvar_get_num(&n));
    EXPECT_RC(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
              MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
              MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_cvar_get_index("RMP_NO_SUCH", &i), MPI_T_ERR_INVALID_NAME);
    MPI_T_cvar_handle h = 12345;
    EXPECT_RC(MPI_T_cvar_handle_alloc(n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_cvar_read(h, &i), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_cvar_write(h, &i), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE);
    CHECK(MPI_T_cvar_handle_alloc(0, NULL, &h, &count));
    MPI_T_cvar_handle freed = h;
    CHECK(MPI_T_cvar_handle_free(&h));
    EXPECT_RC(MPI_T_cvar_read(freed, &i), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &i, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_enum_get_info(cvar_index("RMP_VERBOSE") + 1, &i, NULL, NULL),
              MPI_T_ERR_INVALID_HANDLE); /* a boolean has no enum */
    CHECK(MPI_T_category_get_num(&n));
    EXPECT_RC(MPI_T_category_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
              MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_category_get_cvars(-1, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_category_get_index("no_such", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT_RC(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
    /* the classes are MPI error classes, with their names */
    int cls, len;
    char s[MPI_MAX_ERROR_STRING];
    CHECK(MPI_Error_class(MPI_T_ERR_CVAR_SET_NEVER, &cls));
    EXPECT_INT(cls, MPI_T_ERR_CVAR_SET_NEVER);
    CHECK(MPI_Error_string(MPI_T_ERR_INVALID_HANDLE, s, &len));
    if (strncmp(s, "MPI_T_ERR_INVALID_HANDLE", 24))
        FAIL("MPI_Error_string(MPI_T_ERR_INVALID_HANDLE): \"%s\"", s);
    if (MPI_T_ERR_NOT_SUPPORTED > MPI_ERR_LASTCLASS)
        FAIL("MPI_T_ERR_NOT_SUPPORTED %d > MPI_ERR_LASTCLASS", MPI_T_ERR_NOT_SUPPORTED);
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    int provided;
    test_init_nesting(); /* leaves one MPI_T_init_thread */
    test_before_mpi();
    mc_init(&argc, &argv, 60);
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    test_every_cvar();
    test_cvar_values();
    test_categories();
    test_events_sources();
    test_invalid();
    CHECK(MPI_T_finalize());
    MPI_Finalize();
    /* after MPI: still readable, then the last finalize ends MPI_T */
    EXPECT_INT(cvar_read_num(cvar_index("RMP_SHM_RING_KB")), 64);
    CHECK(MPI_T_finalize());
    int n;
    EXPECT_RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    return mc_done("mpi_t");
}
