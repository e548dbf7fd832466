/* mpi_errcls.c — user error classes, codes and strings, and user error handlers, the way
 * MPICH's test/mpi/errhan does it (adderr, commcall, errstring2, predef_eh, errfatal):
 * classes and codes added, their classes and strings, MPI_LASTUSEDCODE growing; handlers
 * created, set, inherited by a dup, called by MPI_Comm_call_errhandler and by a real failing
 * call with the communicator and the code, kept alive by their communicators after
 * MPI_Errhandler_free; the same on windows; the MPI_ERRORS_RETURN class of every invalid
 * argument; every predefined class with its number, class and string, and the MPI-4 ones where
 * they apply (a bad session, an int-sized result past INT_MAX, a handle that is no handler).
 * "fatal": rank size-1 calls MPI_Comm_call_errhandler(MPI_COMM_WORLD, code) with a
 * user code under MPI_ERRORS_ARE_FATAL, which must end the job with the code's string. */
#include <limits.h>

#include "mpicheck.h"

static int rank, size;

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

static int lastused(void)
{
    int *v = NULL, flag = 0;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    return flag && v ? *v : -1;
}

/* ---- adderr, errstring2 ---- */
enum { NCLASSES = 32, NCODES = 5 };

static void classes(void)
{
    int newclass[NCLASSES], newcode[NCLASSES][NCODES], out, len;
    char want[MPI_MAX_ERROR_STRING], got[MPI_MAX_ERROR_STRING];
    EXPECT_INT(lastused(), MPI_ERR_LASTCODE);
    if (MPI_ERR_LASTCODE < MPI_ERR_LASTCLASS)
        FAIL("MPI_ERR_LASTCODE %d < MPI_ERR_LASTCLASS %d", MPI_ERR_LASTCODE, MPI_ERR_LASTCLASS);
    int last = MPI_ERR_LASTCODE;
    for (int i = 0; i < NCLASSES; i++) {
        CHECK(MPI_Add_error_class(&newclass[i]));
        if (newclass[i] <= last)
            FAIL("class %d is %d, not above %d", i, newclass[i], last);
        last = newclass[i];
        EXPECT_INT(lastused(), last);
        for (int j = 0; j < NCODES; j++) {
            CHECK(MPI_Add_error_code(newclass[i], &newcode[i][j]));
            if (newcode[i][j] <= last)
                FAIL("code %d/%d is %d, not above %d", i, j, newcode[i][j], last);
            last = newcode[i][j];
            snprintf(want, sizeof want, "code for class %d code %d\n", i, j);
            if (j < NCODES - 1) /* the last code of each class gets no string */
                CHECK(MPI_Add_error_string(newcode[i][j], want));
        }
        if (i % 2) {
            snprintf(want, sizeof want, "class %d", i);
            CHECK(MPI_Add_error_string(newclass[i], want));
        }
    }
    EXPECT_INT(lastused(), last);
    for (int i = 0; i < NCLASSES; i++) {
        CHECK(MPI_Error_class(newclass[i], &out));
        EXPECT_INT(out, newclass[i]);
        CHECK(MPI_Error_string(newclass[i], got, &len));
        if (i % 2)
            snprintf(want, sizeof want, "class %d", i);
        else
            want[0] = 0;
        if (strcmp(got, want) || len != (int)strlen(want))
            FAIL("class %d string '%s' (%d), expected '%s'", i, got, len, want);
        for (int j = 0; j < NCODES; j++) {
            CHECK(MPI_Error_class(newcode[i][j], &out));
            EXPECT_INT(out, newclass[i]);
            CHECK(MPI_Error_string(newcode[i][j], got, &len));
            if (j < NCODES - 1)
                snprintf(want, sizeof want, "code for class %d code %d\n", i, j);
            else
                want[0] = 0;
            if (strcmp(got, want) || len != (int)strlen(want))
                FAIL("code %d/%d string '%s', expected '%s'", i, j, got, want);
        }
    }
    /* a string replaced */
    CHECK(MPI_Add_error_string(newcode[0][0], "replaced"));
    CHECK(MPI_Error_string(newcode[0][0], got, &len));
    if (strcmp(got, "replaced"))
        FAIL("replaced string '%s'", got);
    /* a code of a predefined class */
    int c;
    CHECK(MPI_Add_error_code(MPI_ERR_OTHER, &c));
    CHECK(MPI_Error_class(c, &out));
    EXPECT_INT(out, MPI_ERR_OTHER);
    CHECK(MPI_Error_string(c, got, &len));
    if (strcmp(got, ""))
        FAIL("new code's string '%s', expected ''", got);
    EXPECT_INT(lastused(), c);
    /* every rank made the same numbers */
    int mine[2] = {newclass[NCLASSES - 1], c}, maxv[2], minv[2];
    CHECK(MPI_Allreduce(mine, maxv, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK(MPI_Allreduce(mine, minv, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    EXPECT_INT(maxv[0], minv[0]);
    EXPECT_INT(maxv[1], minv[1]);
    /* predefined classes keep their strings */
    CHECK(MPI_Error_string(MPI_ERR_RANK, got, &len));
    if (strcmp(got, "MPI_ERR_RANK: invalid rank"))
        FAIL("MPI_ERR_RANK's string '%s'", got);

    /* invalid arguments */
    char longs[MPI_MAX_ERROR_STRING + 1];
    memset(longs, 'x', sizeof longs - 1);
    longs[sizeof longs - 1] = 0;
    expect_class("Add_error_class NULL", MPI_Add_error_class(NULL), MPI_ERR_ARG);
    expect_class("Add_error_code NULL", MPI_Add_error_code(newclass[0], NULL), MPI_ERR_ARG);
    expect_class("Add_error_code of a code", MPI_Add_error_code(newcode[0][0], &c), MPI_ERR_ARG);
    expect_class("Add_error_code of no class", MPI_Add_error_code(last + 1000, &c),
                 MPI_ERR_ARG);
    expect_class("Add_error_code of -3", MPI_Add_error_code(-3, &c), MPI_ERR_ARG);
    expect_class("Add_error_string predefined", MPI_Add_error_string(MPI_ERR_ARG, "x"),
                 MPI_ERR_ARG);
    expect_class("Add_error_string unknown", MPI_Add_error_string(last + 1000, "x"),
                 MPI_ERR_ARG);
    expect_class("Add_error_string NULL", MPI_Add_error_string(newcode[1][1], NULL),
                 MPI_ERR_ARG);
    expect_class("Add_error_string too long", MPI_Add_error_string(newcode[1][1], longs),
                 MPI_ERR_ARG);
    longs[MPI_MAX_ERROR_STRING - 1] = 0; /* the longest allowed */
    CHECK(MPI_Add_error_string(newcode[1][1], longs));
    CHECK(MPI_Error_string(newcode[1][1], got, &len));
    EXPECT_INT(len, MPI_MAX_ERROR_STRING - 1);
    expect_class("Error_class unknown", MPI_Error_class(last + 1000, &out), MPI_ERR_ARG);
    expect_class("Error_string unknown", MPI_Error_string(last + 1000, got, &len), MPI_ERR_ARG);
    EXPECT_INT(lastused(), c);
}

/* ---- commcall, predef_eh ---- */
static int calls, want_code;
static MPI_Comm want_comm;
static MPI_Win want_win;

static void comm_eh(MPI_Comm *comm, int *code, ...)
{
    if (*code != want_code)
        FAIL("handler got code %d, expected %d", *code, want_code);
    if (*comm != want_comm)
        FAIL("handler got comm %d, expected %d", *comm, want_comm);
    calls++;
}

static void win_eh(MPI_Win *win, int *code, ...)
{
    if (*code != want_code)
        FAIL("win handler got code %d, expected %d", *code, want_code);
    if (*win != want_win)
        FAIL("win handler got win %d, expected %d", *win, want_win);
    calls++;
}

static void handlers(void)
{
    MPI_Errhandler eh, got;
    int usercls, usercode;
    CHECK(MPI_Add_error_class(&usercls));
    CHECK(MPI_Add_error_code(usercls, &usercode));

    /* on a dup of MPI_COMM_WORLD */
    MPI_Comm comm, comm2;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK(MPI_Comm_create_errhandler(comm_eh, &eh));
    CHECK(MPI_Comm_set_errhandler(comm, eh));
    CHECK(MPI_Comm_get_errhandler(comm, &got));
    EXPECT_INT(got, eh);
    CHECK(MPI_Errhandler_free(&got));
    EXPECT_INT(got, MPI_ERRHANDLER_NULL);
    want_comm = comm, want_code = MPI_ERR_OTHER, calls = 0;
    CHECK(MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER));
    EXPECT_INT(calls, 1);
    want_code = usercode;
    CHECK(MPI_Comm_call_errhandler(comm, usercode));
    EXPECT_INT(calls, 2);
    /* a real error: the handler runs, then the call returns the code */
    int x = 0;
    want_code = MPI_ERR_RANK;
    EXPECT_INT(MPI_Send(&x, 1, MPI_INT, size, 0, comm), MPI_ERR_RANK);
    EXPECT_INT(calls, 3);
    want_code = MPI_ERR_ARG;
    EXPECT_INT(MPI_Comm_get_attr(comm, MPI_TAG_UB, &x, NULL), MPI_ERR_ARG);
    EXPECT_INT(calls, 4);
    /* freed by the program, kept by comm; a dup inherits it */
    CHECK(MPI_Errhandler_free(&eh));
    EXPECT_INT(eh, MPI_ERRHANDLER_NULL);
    CHECK(MPI_Comm_dup(comm, &comm2));
    want_comm = comm2, want_code = MPI_ERR_OTHER, calls = 0;
    CHECK(MPI_Comm_call_errhandler(comm2, MPI_ERR_OTHER));
    EXPECT_INT(calls, 1);
    CHECK(MPI_Comm_free(&comm2));
    want_comm = comm;
    CHECK(MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER));
    EXPECT_INT(calls, 2);
    /* back to MPI_ERRORS_RETURN: no call, MPI_SUCCESS */
    CHECK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER));
    EXPECT_INT(calls, 2);
    CHECK(MPI_Comm_free(&comm));

    /* many times over (commcall): slots are reused, nothing leaks */
    for (int i = 0; i < 1000; i++) {
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
        CHECK(MPI_Comm_create_errhandler(comm_eh, &eh));
        CHECK(MPI_Comm_set_errhandler(comm, eh));
        want_comm = comm, want_code = MPI_ERR_OTHER, calls = 0;
        CHECK(MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER));
        CHECK(MPI_Comm_dup(comm, &comm2));
        want_comm = comm2;
        CHECK(MPI_Comm_call_errhandler(comm2, MPI_ERR_OTHER));
        CHECK(MPI_Errhandler_free(&eh));
        EXPECT_INT(calls, 2);
        CHECK(MPI_Comm_free(&comm));
        CHECK(MPI_Comm_free(&comm2));
        if (mc_failures)
            break;
    }

    /* the MPI-1 names */
    CHECK(MPI_Errhandler_create(comm_eh, &eh));
    CHECK(MPI_Errhandler_set(MPI_COMM_SELF, eh));
    CHECK(MPI_Errhandler_get(MPI_COMM_SELF, &got));
    EXPECT_INT(got, eh);
    CHECK(MPI_Errhandler_free(&got));
    want_comm = MPI_COMM_SELF, want_code = usercode, calls = 0;
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_SELF, usercode));
    EXPECT_INT(calls, 1);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK(MPI_Errhandler_free(&eh));

    /* predefined handlers (predef_eh) */
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    EXPECT_INT(got, MPI_ERRORS_RETURN);
    CHECK(MPI_Errhandler_free(&got));
    got = MPI_ERRORS_ARE_FATAL;
    CHECK(MPI_Errhandler_free(&got));
    EXPECT_INT(got, MPI_ERRHANDLER_NULL);

    /* windows */
    static int mem[4];
    MPI_Win win;
    MPI_Errhandler weh;
    CHECK(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    /* no handler of its own yet: MPI_COMM_WORLD's (MPI_ERRORS_RETURN here) takes its errors */
    CHECK(MPI_Win_get_errhandler(win, &got));
    EXPECT_INT(got, MPI_ERRORS_RETURN);
    EXPECT_INT(MPI_Win_attach(win, mem, sizeof mem), MPI_ERR_RMA_FLAVOR);
    CHECK(MPI_Win_create_errhandler(win_eh, &weh));
    CHECK(MPI_Win_set_errhandler(win, weh));
    CHECK(MPI_Win_get_errhandler(win, &got));
    EXPECT_INT(got, weh);
    CHECK(MPI_Errhandler_free(&got));
    CHECK(MPI_Errhandler_free(&weh));
    want_win = win, want_code = usercode, calls = 0;
    CHECK(MPI_Win_call_errhandler(win, usercode));
    EXPECT_INT(calls, 1);
    /* a real error on the window: attaching to a window that is not dynamic */
    want_code = MPI_ERR_RMA_FLAVOR; /* not a dynamic window (MPI-3.1 11.2.4) */
    EXPECT_INT(MPI_Win_attach(win, mem, sizeof mem), MPI_ERR_RMA_FLAVOR);
    EXPECT_INT(calls, 2);
    want_code = MPI_ERR_KEYVAL;
    EXPECT_INT(MPI_Win_set_attr(win, MPI_WIN_BASE, NULL), MPI_ERR_KEYVAL);
    EXPECT_INT(calls, 3);
    /* comm handlers do not go on windows, nor window handlers on comms */
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_create_errhandler(comm_eh, &eh));
    CHECK(MPI_Win_create_errhandler(win_eh, &weh));
    expect_class("comm handler on a window", MPI_Win_set_errhandler(win, eh), MPI_ERR_ARG);
    expect_class("win handler on a comm", MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh),
                 MPI_ERR_ARG);
    CHECK(MPI_Errhandler_free(&eh));
    CHECK(MPI_Errhandler_free(&weh));
    CHECK(MPI_Win_free(&win));
    expect_class("Win_set_errhandler on MPI_WIN_NULL",
                 MPI_Win_set_errhandler(MPI_WIN_NULL, MPI_ERRORS_RETURN), MPI_ERR_WIN);
    expect_class("Win_get_errhandler on MPI_WIN_NULL", MPI_Win_get_errhandler(MPI_WIN_NULL, &got),
                 MPI_ERR_WIN);
    expect_class("Win_call_errhandler on MPI_WIN_NULL",
                 MPI_Win_call_errhandler(MPI_WIN_NULL, MPI_ERR_OTHER), MPI_ERR_WIN);

    /* invalid arguments */
    expect_class("create_errhandler NULL fn", MPI_Comm_create_errhandler(NULL, &eh),
                 MPI_ERR_ARG);
    expect_class("create_errhandler NULL out", MPI_Comm_create_errhandler(comm_eh, NULL),
                 MPI_ERR_ARG);
    /* no handler at all: MPI_ERR_ERRHANDLER (MPI-4.1); MPI_ERRHANDLER_NULL, or a live one of
     * another kind: MPI_ERR_ARG (MPICH, Open MPI and mpi4py 3.1 say so) */
    expect_class("set a freed handler (now MPI_ERRHANDLER_NULL)",
                 MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh), MPI_ERR_ARG);
    CHECK(MPI_Comm_create_errhandler(comm_eh, &eh));
    MPI_Errhandler copy = eh;
    CHECK(MPI_Errhandler_free(&eh));
    expect_class("set a copy of a freed handler", MPI_Comm_set_errhandler(MPI_COMM_WORLD, copy),
                 MPI_ERR_ERRHANDLER);
    expect_class("free a copy of a freed handler", MPI_Errhandler_free(&copy),
                 MPI_ERR_ERRHANDLER);
    expect_class("set handler 12345", MPI_Comm_set_errhandler(MPI_COMM_WORLD, 12345),
                 MPI_ERR_ERRHANDLER);
    expect_class("win set handler 12345", MPI_Win_set_errhandler(MPI_WIN_NULL, 12345),
                 MPI_ERR_WIN);
    expect_class("set MPI_ERRHANDLER_NULL",
                 MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    got = 12345;
    expect_class("free handler 12345", MPI_Errhandler_free(&got), MPI_ERR_ERRHANDLER);
    got = MPI_ERRHANDLER_NULL;
    expect_class("free MPI_ERRHANDLER_NULL", MPI_Errhandler_free(&got), MPI_ERR_ARG);
    expect_class("free NULL", MPI_Errhandler_free(NULL), MPI_ERR_ARG);
    expect_class("call_errhandler on MPI_COMM_NULL",
                 MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER), MPI_ERR_COMM);
    expect_class("set_errhandler on MPI_COMM_NULL",
                 MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
}

/* ---- the predefined classes: MPI-4.1's table (8.3) with the MPI_T ones, each its own number,
 * its class, its name in its string; the four MPI-4 ones raised where they apply ---- */
#define CL(x) {x, #x}
static const struct { int cls; const char *name; } predef[] = {
    CL(MPI_SUCCESS), CL(MPI_ERR_BUFFER), CL(MPI_ERR_COUNT), CL(MPI_ERR_TYPE), CL(MPI_ERR_TAG),
    CL(MPI_ERR_COMM), CL(MPI_ERR_RANK), CL(MPI_ERR_REQUEST), CL(MPI_ERR_ROOT),
    CL(MPI_ERR_GROUP), CL(MPI_ERR_OP), CL(MPI_ERR_TOPOLOGY), CL(MPI_ERR_DIMS), CL(MPI_ERR_ARG),
    CL(MPI_ERR_UNKNOWN), CL(MPI_ERR_TRUNCATE), CL(MPI_ERR_OTHER), CL(MPI_ERR_INTERN),
    CL(MPI_ERR_IN_STATUS), CL(MPI_ERR_PENDING), CL(MPI_ERR_KEYVAL), CL(MPI_ERR_NO_MEM),
    CL(MPI_ERR_BASE), CL(MPI_ERR_INFO_KEY), CL(MPI_ERR_INFO_VALUE), CL(MPI_ERR_INFO_NOKEY),
    CL(MPI_ERR_SPAWN), CL(MPI_ERR_PORT), CL(MPI_ERR_SERVICE), CL(MPI_ERR_NAME), CL(MPI_ERR_WIN),
    CL(MPI_ERR_SIZE), CL(MPI_ERR_DISP), CL(MPI_ERR_INFO), CL(MPI_ERR_LOCKTYPE),
    CL(MPI_ERR_ASSERT), CL(MPI_ERR_RMA_CONFLICT), CL(MPI_ERR_RMA_SYNC), CL(MPI_ERR_FILE),
    CL(MPI_ERR_NOT_SAME), CL(MPI_ERR_AMODE), CL(MPI_ERR_UNSUPPORTED_DATAREP),
    CL(MPI_ERR_UNSUPPORTED_OPERATION), CL(MPI_ERR_NO_SUCH_FILE), CL(MPI_ERR_FILE_EXISTS),
    CL(MPI_ERR_BAD_FILE), CL(MPI_ERR_ACCESS), CL(MPI_ERR_NO_SPACE), CL(MPI_ERR_QUOTA),
    CL(MPI_ERR_READ_ONLY), CL(MPI_ERR_FILE_IN_USE), CL(MPI_ERR_DUP_DATAREP),
    CL(MPI_ERR_CONVERSION), CL(MPI_ERR_IO), CL(MPI_ERR_RMA_RANGE), CL(MPI_ERR_RMA_ATTACH),
    CL(MPI_ERR_RMA_SHARED), CL(MPI_ERR_RMA_FLAVOR), CL(MPI_ERR_SESSION),
    CL(MPI_ERR_PROC_ABORTED), CL(MPI_ERR_VALUE_TOO_LARGE), CL(MPI_ERR_ERRHANDLER),
    CL(MPI_T_ERR_MEMORY), CL(MPI_T_ERR_NOT_INITIALIZED), CL(MPI_T_ERR_CANNOT_INIT),
    CL(MPI_T_ERR_INVALID_INDEX), CL(MPI_T_ERR_INVALID_ITEM), CL(MPI_T_ERR_INVALID_HANDLE),
    CL(MPI_T_ERR_OUT_OF_HANDLES), CL(MPI_T_ERR_OUT_OF_SESSIONS), CL(MPI_T_ERR_INVALID_SESSION),
    CL(MPI_T_ERR_CVAR_SET_NOT_NOW), CL(MPI_T_ERR_CVAR_SET_NEVER), CL(MPI_T_ERR_PVAR_NO_STARTSTOP),
    CL(MPI_T_ERR_PVAR_NO_WRITE), CL(MPI_T_ERR_PVAR_NO_ATOMIC), CL(MPI_T_ERR_INVALID_NAME),
    CL(MPI_T_ERR_INVALID), CL(MPI_T_ERR_NOT_ACCESSIBLE), CL(MPI_T_ERR_NOT_SUPPORTED),
};
#define NPREDEF ((int)(sizeof(predef) / sizeof(predef[0])))

static void predefined(void)
{
    char str[MPI_MAX_ERROR_STRING];
    int seen[MPI_ERR_LASTCLASS + 1] = {0}, out, len;
    EXPECT_INT(NPREDEF, MPI_ERR_LASTCLASS + 1); /* every number up to the last is a class */
    for (int i = 0; i < NPREDEF; i++) {
        int c = predef[i].cls;
        if (c < 0 || c > MPI_ERR_LASTCLASS || seen[c]++) {
            FAIL("%s is %d: outside 0..MPI_ERR_LASTCLASS or another class's", predef[i].name, c);
            continue;
        }
        CHECK(MPI_Error_class(c, &out));
        EXPECT_INT(out, c);
        CHECK(MPI_Error_string(c, str, &len));
        size_t k = strlen(predef[i].name);
        if (len != (int)strlen(str) || strncmp(str, predef[i].name, k) || str[k] != ':')
            FAIL("MPI_Error_string(%s) is '%s' (%d)", predef[i].name, str, len);
    }
    CHECK(MPI_Error_string(MPI_ERR_PROC_ABORTED, str, &len));
    if (!strstr(str, "peer process"))
        FAIL("MPI_ERR_PROC_ABORTED's string '%s' does not say a peer process is gone", str);
}

/* An int cannot say 8 * INT_MAX bytes: MPI_ERR_VALUE_TOO_LARGE, and the _c form can. */
static void too_large(void)
{
    int psize = -7;
    MPI_Count big = 0;
    expect_class("Pack_psize of INT_MAX doubles", MPI_Pack_size(INT_MAX, MPI_DOUBLE,
                 MPI_COMM_WORLD, &psize), MPI_ERR_VALUE_TOO_LARGE);
    EXPECT_INT(psize, -7);
    CHECK(MPI_Pack_size_c(INT_MAX, MPI_DOUBLE, MPI_COMM_WORLD, &big));
    if (big != (MPI_Count)INT_MAX * 8)
        FAIL("Pack_psize_c of INT_MAX doubles is %lld", (long long)big);
    CHECK(MPI_Pack_size(1000, MPI_DOUBLE, MPI_COMM_WORLD, &psize));
    EXPECT_INT(psize, 8000);
}

/* A session handle never made or finalized: MPI_ERR_SESSION (on MPI_COMM_WORLD's handler:
 * the session has none), from every session call; a NULL pointer stays MPI_ERR_ARG. */
static void bad_sessions(void)
{
    MPI_Session s = MPI_SESSION_NULL, old;
    MPI_Errhandler eh;
    MPI_Group g;
    int n;
    char name[32];
    expect_class("num_psets of MPI_SESSION_NULL",
                 MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    old = s;
    CHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(MPI_Session_finalize(&s));
    expect_class("num_psets, finalized", MPI_Session_get_num_psets(old, MPI_INFO_NULL, &n),
                 MPI_ERR_SESSION);
    n = (int)sizeof name;
    expect_class("nth_pset, finalized",
                 MPI_Session_get_nth_pset(old, MPI_INFO_NULL, 0, &n, name), MPI_ERR_SESSION);
    expect_class("group from pset, finalized",
                 MPI_Group_from_session_pset(old, "mpi://WORLD", &g), MPI_ERR_SESSION);
    expect_class("get_errhandler, finalized", MPI_Session_get_errhandler(old, &eh),
                 MPI_ERR_SESSION);
    expect_class("attach_buffer, finalized", MPI_Session_attach_buffer(old, name, 32),
                 MPI_ERR_SESSION);
    expect_class("finalize, finalized", MPI_Session_finalize(&old), MPI_ERR_SESSION);
    expect_class("finalize NULL", MPI_Session_finalize(NULL), MPI_ERR_ARG);
    expect_class("session 12345", MPI_Session_call_errhandler(12345, MPI_ERR_OTHER),
                 MPI_ERR_SESSION);
}

/* ---- errfatal: a user code under MPI_ERRORS_ARE_FATAL ends the job ---- */
static void fatal_mode(void)
{
    int cls, code;
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "a user error: the test's own");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1)
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    else
        sleep(30); /* the job ends first */
    FAIL("still running after a fatal error");
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rank = mc_rank;
    if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
        fatal_mode();
        return 1;
    }
    classes();
    handlers();
    predefined();
    too_large();
    bad_sessions();
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int rc = mc_done("mpi_errcls");
    MPI_Finalize();
    return rc;
}
