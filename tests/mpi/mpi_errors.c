/* mpi_errors.c — MPI's error model through mpi.h. "return": under MPI_ERRORS_RETURN each bad
 * call returns its MPI error code (exact class and string), a dup'ed communicator inherits
 * the handler, truncation is reported with the data cut, collectives whose ranks disagree on
 * the count fail with MPI_ERR_TRUNCATE; the job ends well. "fatal <call>":
 * with the default MPI_ERRORS_ARE_FATAL, the bad call (on rank 1, or 0 alone) ends the job
 * with a message naming the call. */
#include <stdbool.h>

#include "mpicheck.h"

static void expect_code(const char *what, int rc, int cls, const char *text)
{
    int got_cls = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING] = "";
    if (MPI_Error_class(rc, &got_cls) != MPI_SUCCESS || got_cls != cls)
        FAIL("%s: returned %d of class %d, expected class %d", what, rc, got_cls, cls);
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS || strcmp(s, text) != 0 ||
        len != (int)strlen(text))
        FAIL("%s: error string '%s' (%d), expected '%s'", what, s, len, text);
}

/* rc is MPI_SUCCESS (want_err false) or of class MPI_ERR_TRUNCATE (true). */
static void expect_trunc(const char *what, int count, int rc, bool want_err)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (want_err ? cls != MPI_ERR_TRUNCATE : rc != MPI_SUCCESS)
        FAIL("%s (%d ints): returned class %d, expected %s", what, count, cls,
             want_err ? "MPI_ERR_TRUNCATE" : "MPI_SUCCESS");
}

/* Ranks that disagree on a collective's count (MPICH's errors/coll *length tests): a rank
 * that receives fewer or more bytes than its count says fails with MPI_ERR_TRUNCATE, and the
 * error travels with the data (a forwarding rank passes it on), so every rank whose result
 * depends on the odd block fails, whichever algorithm or backend runs it; nobody hangs, and
 * the next collective works. Small counts run on the shared-memory backend, large ones on the
 * software schedules. */
static void lengths(int rank, int size)
{
    /* k = 1024: past the backend's 2 KiB, under every threshold where the automatic choice
     * of algorithm changes (a rank whose count crosses one runs another algorithm, whose
     * messages do not pair with its peers': that hangs, as in other MPIs) */
    static int a[4 * 1024], b[8 * 4 * 1024];
    for (int k = 1; k <= 1024; k *= 1024) {
        int big = 4 * k, small = k;
        /* bcast: the root's count smaller, then larger, than everyone else's */
        int rc = MPI_Bcast(a, rank == 0 ? small : big, MPI_INT, 0, MPI_COMM_WORLD);
        expect_trunc("bcast, root's count smaller", k, rc, rank != 0);
        rc = MPI_Bcast(a, rank == 0 ? big : small, MPI_INT, 0, MPI_COMM_WORLD);
        expect_trunc("bcast, root's count larger", k, rc, rank != 0);
        MPI_Request r;
        rc = MPI_Ibcast(a, rank == 0 ? small : big, MPI_INT, 0, MPI_COMM_WORLD, &r);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        expect_trunc("ibcast, root's count smaller", k, rc, rank != 0);
        /* allgather: rank 0's block smaller than the slots */
        rc = MPI_Allgather(a, rank == 0 ? small : big, MPI_INT, b, big, MPI_INT, MPI_COMM_WORLD);
        expect_trunc("allgather, rank 0's block smaller", k, rc, true);
        /* scatter: the root's blocks smaller than the receivers' counts */
        rc = MPI_Scatter(b, small, MPI_INT, a, big, MPI_INT, 0, MPI_COMM_WORLD);
        expect_trunc("scatter, the root's blocks smaller", k, rc, true);
        /* reduce: the root's count larger than the others' (only it can tell) */
        rc = MPI_Reduce(b, a, rank == 0 ? big : small, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            expect_trunc("reduce, the root's count larger", k, rc, true);
        int one = 1, sum = 0;
        CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        EXPECT_INT(sum, size);
    }
}

static void return_mode(int rank, int size)
{
    int x[4] = {1, 2, 3, 4}, y[2];
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    EXPECT_INT(eh, MPI_ERRORS_ARE_FATAL); /* the default */
    CHECK(MPI_Errhandler_free(&eh));
    EXPECT_INT(eh, MPI_ERRHANDLER_NULL);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    EXPECT_INT(eh, MPI_ERRORS_RETURN);

    expect_code("MPI_Send to rank size", MPI_Send(x, 1, MPI_INT, size, 0, MPI_COMM_WORLD),
                MPI_ERR_RANK, "MPI_ERR_RANK: invalid rank");
    expect_code("MPI_Send with tag -5", MPI_Send(x, 1, MPI_INT, rank, -5, MPI_COMM_WORLD),
                MPI_ERR_TAG, "MPI_ERR_TAG: invalid tag");
    expect_code("MPI_Send of count -1", MPI_Send(x, -1, MPI_INT, rank, 0, MPI_COMM_WORLD),
                MPI_ERR_COUNT, "MPI_ERR_COUNT: invalid count");
    expect_code("MPI_Send of type 999", MPI_Send(x, 1, (MPI_Datatype)999, rank, 0, MPI_COMM_WORLD),
                MPI_ERR_TYPE, "MPI_ERR_TYPE: invalid datatype");
    /* An invalid communicator raises on MPI_COMM_WORLD's handler. */
    expect_code("MPI_Barrier on MPI_COMM_NULL", MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM,
                "MPI_ERR_COMM: invalid communicator");
    expect_code("MPI_Bcast from root size", MPI_Bcast(x, 1, MPI_INT, size, MPI_COMM_WORLD),
                MPI_ERR_ROOT, "MPI_ERR_ROOT: invalid root");
    expect_code("MPI_Allreduce with MPI_OP_NULL",
                MPI_Allreduce(x, y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
                "MPI_ERR_OP: invalid reduction operation");
    expect_code("MPI_Comm_set_errhandler(99)", MPI_Comm_set_errhandler(MPI_COMM_WORLD, 99),
                MPI_ERR_ERRHANDLER, "MPI_ERR_ERRHANDLER: invalid error handler (never made, or "
                "freed)");

    /* Truncation: 4 ints into room for 2; the first 2 arrive, the status says so. */
    MPI_Comm dup;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Comm_get_errhandler(dup, &eh));
    EXPECT_INT(eh, MPI_ERRORS_RETURN); /* inherited */
    MPI_Request r;
    MPI_Status st;
    CHECK(MPI_Isend(x, 4, MPI_INT, rank, 5, dup, &r));
    y[0] = y[1] = 0;
    st.MPI_ERROR = MPI_ERR_DIMS; /* MPI-3.1 3.2.5: a single-status call leaves it alone */
    expect_code("MPI_Recv of 4 ints into 2", MPI_Recv(y, 2, MPI_INT, rank, 5, dup, &st),
                MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE: message truncated: receive buffer too small");
    EXPECT_INT(st.MPI_ERROR, MPI_ERR_DIMS);
    EXPECT_INT(y[0], 1);
    EXPECT_INT(y[1], 2);
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    /* In a Waitall, the failed request's status holds the error. */
    MPI_Request rs[2];
    MPI_Status sts[2];
    CHECK(MPI_Irecv(y, 1, MPI_INT, rank, 6, dup, &rs[0]));
    CHECK(MPI_Isend(x, 3, MPI_INT, rank, 6, dup, &rs[1]));
    sts[0].MPI_ERROR = sts[1].MPI_ERROR = MPI_ERR_DIMS; /* both set: MPI_ERR_IN_STATUS */
    int rc = MPI_Waitall(2, rs, sts);
    EXPECT_INT(rc, MPI_ERR_IN_STATUS);
    EXPECT_INT(sts[0].MPI_ERROR, MPI_ERR_TRUNCATE);
    EXPECT_INT(sts[1].MPI_ERROR, MPI_SUCCESS);
    CHECK(MPI_Comm_free(&dup));
    /* Handlers belong to communicators: MPI_COMM_SELF kept the default, a split of world
     * inherits world's, a dup of self self's (even when it reuses the freed dup's handle). */
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh));
    EXPECT_INT(eh, MPI_ERRORS_ARE_FATAL);
    MPI_Comm split, selfdup;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split));
    CHECK(MPI_Comm_get_errhandler(split, &eh));
    EXPECT_INT(eh, MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_free(&split));
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &selfdup));
    CHECK(MPI_Comm_get_errhandler(selfdup, &eh));
    EXPECT_INT(eh, MPI_ERRORS_ARE_FATAL);
    CHECK(MPI_Comm_set_errhandler(selfdup, MPI_ERRORS_RETURN));
    expect_code("MPI_Send to rank 1 of MPI_COMM_SELF's dup",
                MPI_Send(x, 1, MPI_INT, 1, 0, selfdup), MPI_ERR_RANK,
                "MPI_ERR_RANK: invalid rank");
    CHECK(MPI_Comm_free(&selfdup));

    /* Codes with no class of their own keep rmp's description, of class MPI_ERR_OTHER. */
    expect_code("MPI_Init twice", MPI_Init(NULL, NULL), MPI_ERR_OTHER,
                "MPI_ERR_OTHER: rmp is already initialized");
    expect_code("class MPI_ERR_FILE", MPI_ERR_FILE, MPI_ERR_FILE,
                "MPI_ERR_FILE: invalid file handle"); /* raised by MPI-IO (io/) */
    expect_code("class MPI_ERR_WIN", MPI_ERR_WIN, MPI_ERR_WIN, "MPI_ERR_WIN: invalid window");
    expect_code("MPI_SUCCESS", MPI_SUCCESS, MPI_SUCCESS, "MPI_SUCCESS: no error");
    int cls = -1;
    EXPECT_INT(MPI_Error_class(1000, &cls), MPI_ERR_ARG);
    EXPECT_INT(MPI_Error_class(-3, &cls), MPI_ERR_ARG);
    if (size > 1)
        lengths(rank, size);
}

/* Makes one bad call under the default handler; never returns if all goes as it should. */
static void fatal_mode(const char *call, int size)
{
    int x = 0;
    if (strcmp(call, "MPI_Send") == 0)
        MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    else if (strcmp(call, "MPI_Sendrecv") == 0) /* truncation: 2 ints into 1 */
        MPI_Sendrecv(&(int[2]){7, 8}, 2, MPI_INT, 0, 1, &x, 1, MPI_INT, 0, 1, MPI_COMM_SELF,
                     MPI_STATUS_IGNORE);
    else if (strcmp(call, "MPI_Comm_split") == 0)
        MPI_Comm_split(MPI_COMM_SELF, -7, 0, &(MPI_Comm){0});
    else if (strcmp(call, "MPI_Group_incl") == 0) { /* a group error: world's handler */
        MPI_Group world, g;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 1, &size, &g);
    }
    FAIL("%s returned under MPI_ERRORS_ARE_FATAL", call);
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    int size = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: mpi_errors return | fatal "
                        "MPI_Send|MPI_Sendrecv|MPI_Comm_split|MPI_Group_incl\n");
        return 2;
    }
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (strcmp(argv[1], "return") == 0)
        return_mode(mc_rank, size);
    else if (argc > 2 && mc_rank == (size > 1 ? 1 : 0))
        fatal_mode(argv[2], size);
    CHECK(MPI_Finalize()); /* the other ranks wait here for the one that ends the job */
    return mc_done("mpi_errors");
}
