/* mpi_session.c — MPI-4 sessions: psets and their info, groups from psets, communicators
 * from groups (an allreduce with exact values on each) and an intercommunicator from two
 * groups, session error handlers and info, session-attached buffers (MPI-4.1), and
 * the runtime shared by the world model and sessions. Modes: `mixed` (MPI_Init, then two
 * sessions, one outliving MPI_Finalize), `only` (sessions and no MPI_Init: MPI_Initialized
 * stays false), `before` (a session first, then MPI_Init and MPI_Finalize inside it). */
#include <stdbool.h>

#include "mpicheck.h"

static int size;

/* An allreduce over a communicator made from the pset's group: sum of (world rank + 1). */
static void comm_from_pset(MPI_Session s, const char *pset, const char *tag, int want_size)
{
    MPI_Group g;
    MPI_Comm c;
    CHECK(MPI_Group_from_session_pset(s, pset, &g));
    int gs = -1, wrank = -1;
    CHECK(MPI_Group_size(g, &gs));
    EXPECT_INT(gs, want_size);
    CHECK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK(MPI_Group_free(&g));
    int cs = -1;
    CHECK(MPI_Comm_size(c, &cs));
    EXPECT_INT(cs, want_size);
    wrank = mc_rank;
    int in[2] = {1, wrank + 1}, sum[2] = {-1, -1};
    CHECK(MPI_Allreduce(in, sum, 2, MPI_INT, MPI_SUM, c));
    EXPECT_INT(sum[0], want_size);
    if (want_size == size) /* the world: ranks 0..size-1 */
        EXPECT_INT(sum[1], size * (size + 1) / 2);
    else if (want_size == 1)
        EXPECT_INT(sum[1], wrank + 1);
    MPI_Errhandler eh;
    CHECK(MPI_Comm_get_errhandler(c, &eh));
    EXPECT_INT(eh, MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_free(&c));
}

static int pset_size(MPI_Session s, const char *name)
{
    MPI_Info info;
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    CHECK(MPI_Session_get_pset_info(s, name, &info));
    CHECK(MPI_Info_get(info, "mpi_size", MPI_MAX_INFO_VAL, v, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Info_free(&info));
    return atoi(v);
}

static void psets(MPI_Session s)
{
    int n = -1;
    CHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    EXPECT_INT(n, 3);
    const char *want[] = {"mpi://WORLD", "mpi://SELF", "rmp://node"};
    for (int i = 0; i < 3 && n == 3; i++) {
        char name[MPI_MAX_PSET_NAME_LEN];
        int len = 0;
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        EXPECT_INT(len, (int)strlen(want[i]) + 1);
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        if (strcmp(name, want[i]))
            FAIL("pset %d is '%s', expected '%s'", i, name, want[i]);
    }
    char cut[6];
    int len = 6;
    CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, cut));
    if (strcmp(cut, "mpi:/"))
        FAIL("a pset name cut to 6 bytes is '%s'", cut);
    EXPECT_INT(pset_size(s, "mpi://WORLD"), size);
    EXPECT_INT(pset_size(s, "mpi://SELF"), 1);
    int node = pset_size(s, "rmp://node");
    if (node < 1 || node > size)
        FAIL("rmp://node has %d members", node);
    comm_from_pset(s, "mpi://WORLD", "org.rmp.test.world", size);
    comm_from_pset(s, "mpi://SELF", "org.rmp.test.self", 1);
    comm_from_pset(s, "rmp://node", "org.rmp.test.node", node);
}

/* An intercommunicator between rank 0 and the others, from the world pset's groups: an
 * allreduce over it gives each side the sum of the other's (world rank + 1). */
static void inter(MPI_Session s)
{
    if (size < 2)
        return;
    MPI_Group world, first, rest;
    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
    int zero = 0;
    CHECK(MPI_Group_incl(world, 1, &zero, &first));
    CHECK(MPI_Group_excl(world, 1, &zero, &rest));
    MPI_Comm ic;
    int me0 = mc_rank == 0;
    CHECK(MPI_Intercomm_create_from_groups(me0 ? first : rest, 0, me0 ? rest : first, 0,
                                           "org.rmp.test.inter", MPI_INFO_NULL,
                                           MPI_ERRORS_RETURN, &ic));
    int flag = 0, rsize = -1, in = mc_rank + 1, sum = -1;
    CHECK(MPI_Comm_test_inter(ic, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Comm_remote_size(ic, &rsize));
    EXPECT_INT(rsize, me0 ? size - 1 : 1);
    CHECK(MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, ic));
    EXPECT_INT(sum, me0 ? size * (size + 1) / 2 - 1 : 1);
    CHECK(MPI_Comm_free(&ic));
    CHECK(MPI_Group_free(&first));
    CHECK(MPI_Group_free(&rest));
    CHECK(MPI_Group_free(&world));
}

static int handled;
static void on_error(MPI_Session *s, int *code, ...)
{
    (void)s;
    handled = *code;
}

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    MPI_Error_class(rc, &got);
    if (got != cls)
        FAIL("%s: error class %d, expected %d", what, got, cls);
}

/* Handlers, info and errors of a session (errors it raises itself: its handler returns). */
static void handlers(MPI_Session s)
{
    MPI_Errhandler eh, got;
    MPI_Group g;
    CHECK(MPI_Session_get_errhandler(s, &got));
    EXPECT_INT(got, MPI_ERRORS_RETURN);
    expect_class("unknown pset", MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g), MPI_ERR_ARG);
    CHECK(MPI_Group_from_session_pset(s, "MPI://self", &g)); /* any case */
    CHECK(MPI_Group_free(&g));
    MPI_Info info;
    expect_class("unknown pset info", MPI_Session_get_pset_info(s, "x", &info), MPI_ERR_ARG);
    int len = 0;
    char name[8];
    expect_class("pset 3 of 3", MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 3, &len, name),
                 MPI_ERR_ARG);
    CHECK(MPI_Session_create_errhandler(on_error, &eh));
    CHECK(MPI_Session_set_errhandler(s, eh));
    CHECK(MPI_Errhandler_free(&eh));
    handled = 0;
    CHECK(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    EXPECT_INT(handled, MPI_ERR_OTHER);
    handled = 0;
    expect_class("unknown pset, user handler", MPI_Group_from_session_pset(s, "", &g), MPI_ERR_ARG);
    expect_class("what the handler saw", handled, MPI_ERR_ARG);
    CHECK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0, provided = -1;
    CHECK(MPI_Session_get_info(s, &info));
    CHECK(MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(MPI_Info_free(&info));
    EXPECT_INT(flag, 1);
    MPI_Query_thread(&provided);
    const char *lv[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                        "MPI_THREAD_MULTIPLE"};
    if (provided >= 0 && provided < 4 && strcmp(v, lv[provided]))
        FAIL("thread_level is '%s', expected '%s'", v, lv[provided]);
}

enum { NB = 500 }; /* ints per buffered message */

/* A bsend of NB ints on c to the right (tag), received from the left: its result. */
static int bsend_ring(MPI_Comm c, int tag)
{
    int rank, n, out[NB], in[NB];
    CHECK(MPI_Comm_rank(c, &rank));
    CHECK(MPI_Comm_size(c, &n));
    for (int i = 0; i < NB; i++)
        out[i] = rank * 10007 + tag * 101 + i, in[i] = -1;
    MPI_Request r;
    CHECK(MPI_Irecv(in, NB, MPI_INT, (rank + n - 1) % n, tag, c, &r));
    int rc = MPI_Bsend(out, NB, MPI_INT, (rank + 1) % n, tag, c);
    if (rc) { /* nothing went: the receive is withdrawn, and each rank failed alike */
        CHECK(MPI_Cancel(&r));
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        return rc;
    }
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    int from = (rank + n - 1) % n;
    for (int i = 0; i < NB; i++)
        if (in[i] != from * 10007 + tag * 101 + i) {
            FAIL("bsend tag %d: element %d is %d", tag, i, in[i]);
            break;
        }
    return rc;
}

/* MPI-4.1 3.6: a bsend on a communicator of the session uses the communicator's buffer, else
 * the session's, else the process's; the session's serves no world-model communicator. */
static void buffers(MPI_Session s, bool world)
{
    MPI_Group g;
    MPI_Comm c, d;
    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK(MPI_Comm_create_from_group(g, "buffers", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK(MPI_Group_free(&g));
    expect_class("bsend with no buffer", bsend_ring(c, 1), MPI_ERR_BUFFER);
    int bsize = NB * (int)sizeof(int) + MPI_BSEND_OVERHEAD; /* one message at a time */
    char *buf = malloc((size_t)bsize), tiny[8 + MPI_BSEND_OVERHEAD];
    CHECK(MPI_Session_attach_buffer(s, buf, bsize));
    expect_class("second session buffer", MPI_Session_attach_buffer(s, buf, bsize),
                 MPI_ERR_BUFFER);
    CHECK(bsend_ring(c, 2));
    CHECK(MPI_Session_flush_buffer(s));
    CHECK(MPI_Comm_dup(c, &d)); /* made from a session's communicator: of the session too */
    CHECK(bsend_ring(d, 3));
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK(MPI_Session_iflush_buffer(s, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (world) {
        MPI_Errhandler was;
        CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &was));
        CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        expect_class("world bsend, session buffer only", bsend_ring(MPI_COMM_WORLD, 4),
                     MPI_ERR_BUFFER);
        CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, was));
        CHECK(MPI_Errhandler_free(&was));
    }
    CHECK(MPI_Comm_attach_buffer(d, tiny, (int)sizeof tiny)); /* the communicator's first */
    expect_class("bsend past the communicator's buffer", bsend_ring(d, 5), MPI_ERR_BUFFER);
    void *addr = NULL;
    int sz = -1;
    CHECK(MPI_Comm_detach_buffer(d, &addr, &sz));
    CHECK(MPI_Session_detach_buffer(s, &addr, &sz));
    if (addr != buf || sz != bsize)
        FAIL("Session_detach_buffer gave %p and %d, expected %p and %d", addr, sz, (void *)buf,
             bsize);
    CHECK(MPI_Session_detach_buffer(s, &addr, &sz)); /* none left */
    if (addr != NULL || sz != 0)
        FAIL("Session_detach_buffer of none gave %p and %d", addr, sz);
    CHECK(MPI_Buffer_attach(buf, bsize)); /* now the process's serves the session's comms */
    CHECK(bsend_ring(d, 6));
    CHECK(MPI_Buffer_detach(&addr, &sz));
    free(buf);
    CHECK(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0)); /* finalize detaches it */
    CHECK(bsend_ring(c, 7));
    expect_class("iflush without a request", MPI_Session_iflush_buffer(s, NULL), MPI_ERR_ARG);
    expect_class("negative size", MPI_Comm_attach_buffer(c, tiny, -1), MPI_ERR_COUNT);
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_free(&c));
}

static MPI_Session open_session(void)
{
    MPI_Session s = MPI_SESSION_NULL;
    MPI_Info info;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_set(info, "thread_level", "MPI_THREAD_SINGLE"));
    CHECK(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
    CHECK(MPI_Info_free(&info));
    return s;
}

static void expect_flags(int init, int fin)
{
    int i = -1, f = -1;
    CHECK(MPI_Initialized(&i));
    CHECK(MPI_Finalized(&f));
    EXPECT_INT(i, init);
    EXPECT_INT(f, fin);
}

/* MPI_Comm_rank of the world as a session sees it (mpi://WORLD's group). */
static void world_rank(MPI_Session s)
{
    MPI_Group g;
    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK(MPI_Group_rank(g, &mc_rank));
    CHECK(MPI_Group_size(g, &size));
    CHECK(MPI_Group_free(&g));
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "mixed";
    mc_watchdog(60);
    if (strcmp(mode, "mixed") == 0) {
        expect_flags(0, 0);
        mc_init(&argc, &argv, 60);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        MPI_Session s1 = open_session(), s2 = open_session(), bad = s1;
        if (s1 == s2)
            FAIL("two sessions with one handle %d", s1);
        psets(s1);
        inter(s1);
        handlers(s1);
        buffers(s1, true);
        CHECK(MPI_Session_finalize(&s1));
        EXPECT_INT(s1, MPI_SESSION_NULL);
        int n;
        expect_class("finalized session", MPI_Session_get_num_psets(bad, MPI_INFO_NULL, &n),
                     MPI_ERR_SESSION);
        expect_class("MPI_SESSION_NULL", MPI_Session_finalize(&s1), MPI_ERR_SESSION);
        expect_flags(1, 0);
        MPI_Finalize(); /* s2 still holds the runtime */
        expect_flags(0, 1);
        psets(s2);
        CHECK(MPI_Session_finalize(&s2));
    } else if (strcmp(mode, "only") == 0) {
        MPI_Session s = open_session(), t = open_session();
        world_rank(s);
        expect_flags(0, 0);
        psets(s);
        inter(t);
        handlers(t);
        buffers(t, false);
        CHECK(MPI_Session_finalize(&s));
        psets(t);
        CHECK(MPI_Session_finalize(&t));
        expect_flags(0, 0);
    } else {
        MPI_Session s = open_session();
        world_rank(s);
        expect_flags(0, 0);
        mc_init(&argc, &argv, 60);
        expect_flags(1, 0);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        psets(s);
        MPI_Finalize();
        expect_flags(0, 1);
        psets(s);
        CHECK(MPI_Session_finalize(&s));
    }
    return mc_done("mpi_session");
}
