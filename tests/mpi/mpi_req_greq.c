/* mpi_req_greq.c — MPI_Testany, MPI_Test_cancelled, the status setters, and generalized
 * requests (MPI_Grequest_start/complete) as MPICH's test/mpi/pt2pt greq1 and cancelrecv test
 * them: the query callback fills the status at every completion call (Wait, Test, Waitall,
 * Waitany, Waitsome, Testall, Testany, Testsome), the free callback runs exactly once when the
 * request is freed (also by MPI_Request_free, before or after completion), the cancel callback
 * at MPI_Cancel with the right `complete` flag, and the callbacks' error codes come back. */
#include <pthread.h>
#include <time.h>

#include "mpicheck.h"

typedef struct gstate {
    int id;
    int queries, frees, cancels, last_complete;
    int query_rc;      /* what the query callback returns */
    int complete_in_cancel;
    MPI_Request self;  /* for completing from the cancel callback */
} gstate_t;

static int q_fn(void *extra, MPI_Status *st)
{
    gstate_t *g = extra;
    g->queries++;
    st->MPI_SOURCE = g->id;
    st->MPI_TAG = 100 + g->id;
    MPI_Status_set_elements(st, MPI_INT, g->id + 1);
    MPI_Status_set_cancelled(st, g->cancels > 0 && g->complete_in_cancel);
    return g->query_rc;
}

static int f_fn(void *extra)
{
    ((gstate_t *)extra)->frees++;
    return MPI_SUCCESS;
}

static int c_fn(void *extra, int complete)
{
    gstate_t *g = extra;
    g->cancels++;
    g->last_complete = complete;
    if (g->complete_in_cancel && !complete)
        MPI_Grequest_complete(g->self);
    return MPI_SUCCESS;
}

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

static void start(gstate_t *g, int id, MPI_Request *r)
{
    memset(g, 0, sizeof(*g));
    g->id = id;
    CHECK(MPI_Grequest_start(q_fn, f_fn, c_fn, g, r));
    g->self = *r;
}

static void expect_status(const char *what, const MPI_Status *st, int id)
{
    int n = -1, c = -1;
    if (st->MPI_SOURCE != id || st->MPI_TAG != 100 + id)
        FAIL("%s: status source %d tag %d, expected %d and %d", what, st->MPI_SOURCE,
             st->MPI_TAG, id, 100 + id);
    CHECK(MPI_Get_count(st, MPI_INT, &n));
    if (n != id + 1)
        FAIL("%s: count %d, expected %d", what, n, id + 1);
    CHECK(MPI_Test_cancelled(st, &c));
    EXPECT_INT(c, 0);
}

static void expect_once(const char *what, const gstate_t *g, int queries)
{
    if (g->queries != queries || g->frees != 1)
        FAIL("%s: %d queries and %d frees, expected %d and 1", what, g->queries, g->frees,
             queries);
}

static void t_greq(void)
{
    gstate_t g[4];
    MPI_Request r[4];
    MPI_Status st[4];
    int flag = -1, idx = -1, out = -1, ids[4];

    /* Wait after completion */
    start(&g[0], 0, &r[0]);
    CHECK(MPI_Grequest_complete(r[0]));
    CHECK(MPI_Wait(&r[0], &st[0]));
    if (r[0] != MPI_REQUEST_NULL)
        FAIL("Wait left the generalized request's handle");
    expect_status("wait", &st[0], 0);
    expect_once("wait", &g[0], 1);

    /* Test before and after: nothing called before */
    start(&g[1], 1, &r[1]);
    CHECK(MPI_Test(&r[1], &flag, &st[1]));
    EXPECT_INT(flag, 0);
    if (g[1].queries || g[1].frees)
        FAIL("a test of an incomplete request called back");
    CHECK(MPI_Grequest_complete(r[1]));
    CHECK(MPI_Test(&r[1], &flag, &st[1]));
    EXPECT_INT(flag, 1);
    expect_status("test", &st[1], 1);
    expect_once("test", &g[1], 1);

    /* Waitall of greqs and a self send/recv; statuses in place */
    int sbuf = 42, rbuf = 0, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Request all[4];
    start(&g[0], 2, &all[0]);
    start(&g[1], 3, &all[1]);
    CHECK(MPI_Irecv(&rbuf, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &all[2]));
    CHECK(MPI_Isend(&sbuf, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &all[3]));
    CHECK(MPI_Grequest_complete(all[1]));
    CHECK(MPI_Grequest_complete(all[0]));
    CHECK(MPI_Waitall(4, all, st));
    expect_status("waitall 0", &st[0], 2);
    expect_status("waitall 1", &st[1], 3);
    EXPECT_INT(rbuf, 42);
    EXPECT_INT(st[2].MPI_SOURCE, rank);
    expect_once("waitall 0", &g[0], 1);
    expect_once("waitall 1", &g[1], 1);

    /* Waitany / Testany / Waitsome / Testsome / Testall: only completed ones reaped */
    for (int i = 0; i < 3; i++)
        start(&g[i], 4 + i, &r[i]);
    r[3] = MPI_REQUEST_NULL;
    CHECK(MPI_Testany(4, r, &idx, &flag, &st[0]));
    EXPECT_INT(flag, 0);
    EXPECT_INT(idx, MPI_UNDEFINED);
    CHECK(MPI_Grequest_complete(r[1]));
    CHECK(MPI_Testany(4, r, &idx, &flag, &st[0]));
    EXPECT_INT(flag, 1);
    EXPECT_INT(idx, 1);
    expect_status("testany", &st[0], 5);
    expect_once("testany", &g[1], 1);
    CHECK(MPI_Testall(4, r, &flag, st));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Testsome(4, r, &out, ids, st));
    EXPECT_INT(out, 0);
    CHECK(MPI_Grequest_complete(r[2]));
    CHECK(MPI_Waitany(4, r, &idx, &st[0]));
    EXPECT_INT(idx, 2);
    expect_status("waitany", &st[0], 6);
    expect_once("waitany", &g[2], 1);
    CHECK(MPI_Grequest_complete(r[0]));
    CHECK(MPI_Waitsome(4, r, &out, ids, st));
    EXPECT_INT(out, 1);
    EXPECT_INT(ids[0], 0);
    expect_status("waitsome", &st[0], 4);
    expect_once("waitsome", &g[0], 1);
    /* all null now: Testany says so, Testall is true */
    CHECK(MPI_Testany(4, r, &idx, &flag, &st[0]));
    EXPECT_INT(flag, 1);
    EXPECT_INT(idx, MPI_UNDEFINED);
    CHECK(MPI_Testall(4, r, &flag, st));
    EXPECT_INT(flag, 1);

    /* Testall and Testsome that complete */
    start(&g[0], 8, &r[0]);
    start(&g[1], 9, &r[1]);
    CHECK(MPI_Grequest_complete(r[0]));
    CHECK(MPI_Grequest_complete(r[1]));
    CHECK(MPI_Testall(2, r, &flag, st));
    EXPECT_INT(flag, 1);
    expect_status("testall 0", &st[0], 8);
    expect_status("testall 1", &st[1], 9);
    start(&g[2], 10, &r[2]);
    CHECK(MPI_Grequest_complete(r[2]));
    CHECK(MPI_Testsome(3, r, &out, ids, st));
    EXPECT_INT(out, 1);
    EXPECT_INT(ids[0], 2);
    expect_status("testsome", &st[0], 10);
    for (int i = 0; i < 3; i++)
        expect_once("testall/testsome", &g[i], 1);

    /* Request_free before completion: free at Grequest_complete, never a query */
    start(&g[0], 11, &r[0]);
    MPI_Request copy = r[0];
    CHECK(MPI_Request_free(&r[0]));
    if (r[0] != MPI_REQUEST_NULL)
        FAIL("Request_free left the handle");
    EXPECT_INT(g[0].frees, 0);
    CHECK(MPI_Grequest_complete(copy));
    EXPECT_INT(g[0].frees, 1);
    EXPECT_INT(g[0].queries, 0);
    /* ... and after: free at once */
    start(&g[1], 12, &r[1]);
    CHECK(MPI_Grequest_complete(r[1]));
    CHECK(MPI_Request_free(&r[1]));
    EXPECT_INT(g[1].frees, 1);
    EXPECT_INT(g[1].queries, 0);

    /* Cancel: the callback is told whether it completed; one that completes in the callback
     * makes the Wait return with a cancelled status */
    start(&g[0], 13, &r[0]);
    g[0].complete_in_cancel = 1;
    CHECK(MPI_Cancel(&r[0]));
    EXPECT_INT(g[0].cancels, 1);
    EXPECT_INT(g[0].last_complete, 0);
    CHECK(MPI_Wait(&r[0], &st[0]));
    CHECK(MPI_Test_cancelled(&st[0], &flag));
    EXPECT_INT(flag, 1);
    expect_once("cancel", &g[0], 1);
    start(&g[1], 14, &r[1]);
    CHECK(MPI_Grequest_complete(r[1]));
    CHECK(MPI_Cancel(&r[1]));
    EXPECT_INT(g[1].last_complete, 1);
    CHECK(MPI_Wait(&r[1], &st[1]));
    expect_status("cancel after completion", &st[1], 14);

    /* a query that fails: Wait returns its class; Waitall MPI_ERR_IN_STATUS with it */
    start(&g[0], 15, &r[0]);
    g[0].query_rc = MPI_ERR_TYPE;
    CHECK(MPI_Grequest_complete(r[0]));
    expect_class("failing query", MPI_Wait(&r[0], &st[0]), MPI_ERR_TYPE);
    expect_once("failing query", &g[0], 1);
    start(&g[0], 16, &r[0]);
    start(&g[1], 17, &r[1]);
    g[1].query_rc = MPI_ERR_COUNT;
    CHECK(MPI_Grequest_complete(r[0]));
    CHECK(MPI_Grequest_complete(r[1]));
    st[0].MPI_ERROR = st[1].MPI_ERROR = -1;
    expect_class("waitall with a failing query", MPI_Waitall(2, r, st), MPI_ERR_IN_STATUS);
    EXPECT_INT(st[0].MPI_ERROR, MPI_SUCCESS);
    int cls = -1;
    MPI_Error_class(st[1].MPI_ERROR, &cls);
    EXPECT_INT(cls, MPI_ERR_COUNT);

    /* a query returning a class and a code the program added: the wait returns that very
     * code, not one of its class (MPICH's errcallback) */
    int ucls = -1, ucode = -1;
    CHECK(MPI_Add_error_class(&ucls));
    CHECK(MPI_Add_error_code(MPI_ERR_ARG, &ucode));
    start(&g[0], 19, &r[0]);
    g[0].query_rc = ucls;
    CHECK(MPI_Grequest_complete(r[0]));
    EXPECT_INT(MPI_Wait(&r[0], &st[0]), ucls);
    start(&g[0], 20, &r[0]);
    g[0].query_rc = ucode;
    CHECK(MPI_Grequest_complete(r[0]));
    EXPECT_INT(MPI_Wait(&r[0], &st[0]), ucode);
    start(&g[0], 21, &r[0]);
    start(&g[1], 22, &r[1]);
    g[1].query_rc = ucode;
    CHECK(MPI_Grequest_complete(r[0]));
    CHECK(MPI_Grequest_complete(r[1]));
    expect_class("waitall with a user code", MPI_Waitall(2, r, st), MPI_ERR_IN_STATUS);
    EXPECT_INT(st[1].MPI_ERROR, ucode);

    /* errors */
    start(&g[0], 18, &r[0]);
    CHECK(MPI_Grequest_complete(r[0]));
    expect_class("complete twice", MPI_Grequest_complete(r[0]), MPI_ERR_REQUEST);
    CHECK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    expect_class("complete freed", MPI_Grequest_complete(g[0].self), MPI_ERR_REQUEST);
    expect_class("complete null", MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    expect_class("start without request", MPI_Grequest_start(q_fn, f_fn, c_fn, NULL, NULL),
                 MPI_ERR_ARG);
    expect_class("start without query", MPI_Grequest_start(NULL, f_fn, c_fn, NULL, &r[0]),
                 MPI_ERR_ARG);
}

static void t_status(void)
{
    MPI_Status st;
    int n = -1, e = -1;
    memset(&st, 0, sizeof st);
    CHECK(MPI_Status_set_elements(&st, MPI_INT, 5));
    CHECK(MPI_Get_count(&st, MPI_INT, &n));
    EXPECT_INT(n, 5);
    CHECK(MPI_Get_elements(&st, MPI_INT, &e));
    EXPECT_INT(e, 5);
    CHECK(MPI_Get_count(&st, MPI_BYTE, &n));
    EXPECT_INT(n, 5 * (int)sizeof(int));
    /* set_elements counts whole elements of the type (count * size bytes), as MPICH and
     * Open MPI do (MPICH's own tests expect it): a pair type's 3 are 3 pairs, 6 basic
     * elements; earlier rmp counted basic elements, and Get_count gave MPI_UNDEFINED */
    CHECK(MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 3));
    CHECK(MPI_Get_elements(&st, MPI_DOUBLE_INT, &e));
    EXPECT_INT(e, 6);
    CHECK(MPI_Get_count(&st, MPI_DOUBLE_INT, &n));
    EXPECT_INT(n, 3);
    /* a derived type of 3 ints with a gap: 7 of them are 21 ints */
    MPI_Datatype v;
    CHECK(MPI_Type_vector(3, 1, 2, MPI_INT, &v));
    CHECK(MPI_Type_commit(&v));
    CHECK(MPI_Status_set_elements(&st, v, 7));
    CHECK(MPI_Get_elements(&st, v, &e));
    EXPECT_INT(e, 21);
    CHECK(MPI_Get_count(&st, v, &n));
    EXPECT_INT(n, 7);
    CHECK(MPI_Status_set_elements_x(&st, v, 9));
    CHECK(MPI_Get_count(&st, v, &n));
    EXPECT_INT(n, 9);
    /* a contiguous(4, MPI_INT): 1 element, 4 basic ones (MPICH's test) */
    MPI_Datatype c4;
    CHECK(MPI_Type_contiguous(4, MPI_INT, &c4));
    CHECK(MPI_Type_commit(&c4));
    CHECK(MPI_Status_set_elements(&st, c4, 1));
    CHECK(MPI_Get_count(&st, c4, &n));
    EXPECT_INT(n, 1);
    CHECK(MPI_Get_elements(&st, c4, &e));
    EXPECT_INT(e, 4);
    CHECK(MPI_Type_free(&c4));
    /* a huge vector (8 GiB extent, 2 GiB of ints): set and read back at once */
    MPI_Datatype big;
    MPI_Count ex = -1;
    CHECK(MPI_Type_vector(1 << 29, 1, 4, MPI_INT, &big));
    CHECK(MPI_Type_commit(&big));
    CHECK(MPI_Status_set_elements_x(&st, big, 1));
    CHECK(MPI_Get_elements_x(&st, big, &ex));
    if (ex != (MPI_Count)1 << 29)
        FAIL("huge vector: Get_elements_x %lld, want %lld", (long long)ex, 1LL << 29);
    CHECK(MPI_Status_set_elements_x(&st, big, 3));
    CHECK(MPI_Get_elements_x(&st, big, &ex));
    if (ex != (MPI_Count)3 << 29)
        FAIL("huge vector x3: Get_elements_x %lld", (long long)ex);
    CHECK(MPI_Get_count(&st, big, &n));
    EXPECT_INT(n, 3);
    CHECK(MPI_Type_free(&big));
    CHECK(MPI_Type_free(&v));
    CHECK(MPI_Status_set_elements(&st, MPI_INT, 0));
    CHECK(MPI_Get_count(&st, MPI_INT, &n));
    EXPECT_INT(n, 0);
    /* cancelled */
    CHECK(MPI_Status_set_cancelled(&st, 1));
    CHECK(MPI_Test_cancelled(&st, &n));
    EXPECT_INT(n, 1);
    CHECK(MPI_Status_set_cancelled(&st, 0));
    CHECK(MPI_Test_cancelled(&st, &n));
    EXPECT_INT(n, 0);
    expect_class("set_elements negative", MPI_Status_set_elements(&st, MPI_INT, -1),
                 MPI_ERR_COUNT);
    expect_class("set_elements bad type", MPI_Status_set_elements(&st, MPI_DATATYPE_NULL, 1),
                 MPI_ERR_TYPE);
    expect_class("set_elements no status",
                 MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG);
    expect_class("test_cancelled no flag", MPI_Test_cancelled(&st, NULL), MPI_ERR_ARG);

    /* a cancelled receive says so; a received one does not */
    int rank, buf = 0, flag = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Request r;
    CHECK(MPI_Irecv(&buf, 1, MPI_INT, rank, 77, MPI_COMM_WORLD, &r));
    CHECK(MPI_Cancel(&r));
    CHECK(MPI_Wait(&r, &st));
    CHECK(MPI_Test_cancelled(&st, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Sendrecv(&rank, 1, MPI_INT, rank, 78, &buf, 1, MPI_INT, rank, 78, MPI_COMM_WORLD,
                       &st));
    CHECK(MPI_Test_cancelled(&st, &flag));
    EXPECT_INT(flag, 0);
    /* Testany on receives from the left neighbour, one at a time */
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank - 1 + size) % size, right = (rank + 1) % size, in[2] = {-1, -1};
    MPI_Request rr[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    CHECK(MPI_Irecv(&in[0], 1, MPI_INT, left, 80, MPI_COMM_WORLD, &rr[0]));
    CHECK(MPI_Irecv(&in[1], 1, MPI_INT, left, 81, MPI_COMM_WORLD, &rr[2]));
    int v81 = rank * 10 + 1;
    CHECK(MPI_Send(&v81, 1, MPI_INT, right, 81, MPI_COMM_WORLD));
    int idx = -1;
    do
        CHECK(MPI_Testany(3, rr, &idx, &flag, &st));
    while (!flag);
    EXPECT_INT(idx, 2);
    EXPECT_INT(in[1], left * 10 + 1);
    EXPECT_INT(st.MPI_TAG, 81);
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* nobody sends tag 80 before everyone tested */
    CHECK(MPI_Testany(3, rr, &idx, &flag, &st));
    if (flag)
        FAIL("Testany: a receive completed with nothing sent");
    EXPECT_INT(idx, MPI_UNDEFINED);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int v80 = rank * 10;
    CHECK(MPI_Send(&v80, 1, MPI_INT, right, 80, MPI_COMM_WORLD));
    do
        CHECK(MPI_Testany(3, rr, &idx, &flag, &st));
    while (!flag);
    EXPECT_INT(idx, 0);
    EXPECT_INT(in[0], left * 10);
    expect_class("testany no flag", MPI_Testany(3, rr, &idx, NULL, &st), MPI_ERR_ARG);
    expect_class("testany negative count", MPI_Testany(-1, rr, &idx, &flag, &st),
                 MPI_ERR_COUNT);
}

/* MPI_THREAD_MULTIPLE: another thread completes the request while this one waits in
 * MPI_Wait (and in MPI_Waitany over it and a receive that never comes). */
static void *completer(void *arg)
{
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    CHECK(MPI_Grequest_complete(*(MPI_Request *)arg));
    return NULL;
}

static void t_threads(void)
{
    for (int k = 0; k < 2; k++) {
        gstate_t g;
        MPI_Request r[2], copy;
        MPI_Status st;
        int idx = -1, dummy;
        start(&g, 20 + k, &r[0]);
        copy = r[0];
        pthread_t t;
        if (pthread_create(&t, NULL, completer, &copy)) {
            FAIL("pthread_create");
            return;
        }
        if (k == 0) {
            CHECK(MPI_Wait(&r[0], &st));
        } else {
            CHECK(MPI_Irecv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &r[1]));
            CHECK(MPI_Waitany(2, r, &idx, &st));
            EXPECT_INT(idx, 0);
            CHECK(MPI_Cancel(&r[1]));
            CHECK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
        }
        pthread_join(t, NULL);
        expect_status("threaded", &st, 20 + k);
        expect_once("threaded", &g, 1);
    }
}

/* MPI_Request_get_status: the answer of MPI_Test without completing anything: on a pending
 * receive (flag 0), on the same one once a message came (flag 1 and its status, the request
 * still live: a second call answers the same and MPI_Wait then completes it), on
 * MPI_REQUEST_NULL and an inactive persistent request (flag 1, an empty status), and on a
 * generalized request (its query callback asked each time, freed once by the wait). */
static void t_get_status(void)
{
    int rank, size, flag = -1, in = -1, out;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Status st;
    MPI_Request r = MPI_REQUEST_NULL;
    int from = (rank + size - 1) % size, to = (rank + 1) % size;
    CHECK(MPI_Irecv(&in, 1, MPI_INT, from, 77, MPI_COMM_WORLD, &r));
    CHECK(MPI_Request_get_status(r, &flag, &st));
    EXPECT_INT(flag, 0); /* nobody sent yet: each rank sends only after this barrier */
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    out = 1000 + rank;
    CHECK(MPI_Send(&out, 1, MPI_INT, to, 77, MPI_COMM_WORLD));
    flag = 0;
    for (int spins = 0; !flag && spins < 10000000; spins++)
        CHECK(MPI_Request_get_status(r, &flag, &st));
    EXPECT_INT(flag, 1);
    EXPECT_INT(st.MPI_SOURCE, from);
    EXPECT_INT(st.MPI_TAG, 77);
    if (r == MPI_REQUEST_NULL)
        FAIL("MPI_Request_get_status freed the request");
    CHECK(MPI_Request_get_status(r, &flag, &st)); /* again: the same answer */
    EXPECT_INT(flag, 1);
    EXPECT_INT(st.MPI_SOURCE, from);
    CHECK(MPI_Wait(&r, &st));
    EXPECT_INT(in, 1000 + from);
    EXPECT_INT(st.MPI_SOURCE, from);
    flag = 0;
    st.MPI_ERROR = MPI_ERR_DIMS; /* an empty status has MPI_SUCCESS there (MPICH's rqstatus) */
    CHECK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
    EXPECT_INT(flag, 1);
    EXPECT_INT(st.MPI_SOURCE, MPI_ANY_SOURCE);
    EXPECT_INT(st.MPI_ERROR, MPI_SUCCESS);
    MPI_Request nul = MPI_REQUEST_NULL;
    st.MPI_ERROR = MPI_ERR_DIMS;
    CHECK(MPI_Wait(&nul, &st));
    EXPECT_INT(st.MPI_TAG, MPI_ANY_TAG);
    EXPECT_INT(st.MPI_ERROR, MPI_SUCCESS);
    CHECK(MPI_Recv_init(&in, 1, MPI_INT, from, 78, MPI_COMM_WORLD, &r));
    flag = 0;
    CHECK(MPI_Request_get_status(r, &flag, &st)); /* inactive */
    EXPECT_INT(flag, 1);
    EXPECT_INT(st.MPI_TAG, MPI_ANY_TAG);
    CHECK(MPI_Request_free(&r));

    gstate_t g;
    MPI_Request gr;
    start(&g, 5, &gr);
    CHECK(MPI_Request_get_status(gr, &flag, &st));
    EXPECT_INT(flag, 0);
    EXPECT_INT(g.queries, 0);
    CHECK(MPI_Grequest_complete(gr));
    CHECK(MPI_Request_get_status(gr, &flag, &st));
    EXPECT_INT(flag, 1);
    expect_status("get_status of a generalized request", &st, 5);
    EXPECT_INT(g.queries, 1);
    EXPECT_INT(g.frees, 0);
    CHECK(MPI_Wait(&gr, &st));
    expect_status("wait after get_status", &st, 5);
    expect_once("get_status then wait", &g, 2);

    int cls = -1;
    MPI_Error_class(MPI_Request_get_status(r, NULL, &st), &cls);
    EXPECT_INT(cls, MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    int rank, provided = -1;
    mc_watchdog(60);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mc_rank = rank;
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    t_status();
    t_greq();
    t_get_status();
    if (provided == MPI_THREAD_MULTIPLE)
        t_threads();
    else
        FAIL("MPI_THREAD_MULTIPLE not provided (%d)", provided);
    MPI_Finalize();
    return mc_done("mpi_req_greq");
}
