/* inter.c — mpi_ccreate's MPI_Comm_idup of an intercommunicator: several idups in flight
 * and crossed between the groups, many at once, and their lifetimes against the original's. */
#include "mpi_ccreate.h"

/* ---- MPI_Comm_idup of an intercommunicator ---- */
#define ICMAX 64

typedef struct icx {
    MPI_Comm comm, local;
    int color, me, ln, rn;    /* my group, my rank in it, the sizes */
    int lw[ICMAX], rw[ICMAX]; /* world ranks of my group and of the other */
} icx_t;

/* kind 0: even/odd world ranks (uneven when the size is odd); 1: low half/high half; 2: the
 * last rank alone against the rest. Leaders: each group's rank 0. */
static int icx_color(int kind, int r, int size)
{
    return kind == 0 ? r % 2 : kind == 1 ? r >= size / 2 : r == size - 1;
}

static void icx_make(int kind, int rank, int size, icx_t *ic)
{
    memset(ic, 0, sizeof(*ic));
    ic->color = icx_color(kind, rank, size);
    for (int r = 0; r < size; r++) {
        if (icx_color(kind, r, size) != ic->color)
            ic->rw[ic->rn++] = r;
        else if (r == rank)
            ic->me = ic->ln, ic->lw[ic->ln++] = r;
        else
            ic->lw[ic->ln++] = r;
    }
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, ic->color, rank, &ic->local));
    CHECK(MPI_Intercomm_create(ic->local, 0, MPI_COMM_WORLD, ic->rw[0], 300 + kind, &ic->comm));
    CHECK(MPI_Comm_set_errhandler(ic->comm, MPI_ERRORS_RETURN));
}

/* d is a usable copy of ic: an intercommunicator with its groups, point-to-point with every
 * remote rank, then an intercommunicator allgather and allreduce (each group gets the OTHER
 * group's values), a barrier, and the inherited error handler. */
static void expect_inter(const char *what, MPI_Comm d, const icx_t *ic, int rank)
{
    int flag = 0, x = -1, got[ICMAX], sum = -1, want = 0;
    CHECK(MPI_Comm_test_inter(d, &flag));
    if (!flag)
        FAIL("%s: not an intercommunicator", what);
    CHECK(MPI_Comm_size(d, &x));
    if (x != ic->ln)
        FAIL("%s: local size %d, expected %d", what, x, ic->ln);
    CHECK(MPI_Comm_remote_size(d, &x));
    if (x != ic->rn)
        FAIL("%s: remote size %d, expected %d", what, x, ic->rn);
    CHECK(MPI_Comm_rank(d, &x));
    if (x != ic->me)
        FAIL("%s: rank %d, expected %d", what, x, ic->me);
    MPI_Request rr[2 * ICMAX];
    for (int i = 0; i < ic->rn; i++) {
        got[i] = -1;
        CHECK(MPI_Irecv(&got[i], 1, MPI_INT, i, 5, d, &rr[i]));
        CHECK(MPI_Isend(&rank, 1, MPI_INT, i, 5, d, &rr[ic->rn + i]));
    }
    CHECK(MPI_Waitall(2 * ic->rn, rr, MPI_STATUSES_IGNORE));
    for (int i = 0; i < ic->rn; i++)
        if (got[i] != ic->rw[i])
            FAIL("%s: p2p from remote %d gave %d, expected %d", what, i, got[i], ic->rw[i]);
    CHECK(MPI_Allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, d));
    for (int i = 0; i < ic->rn; i++) {
        want += ic->rw[i];
        if (got[i] != ic->rw[i])
            FAIL("%s: allgather[%d] = %d, expected %d", what, i, got[i], ic->rw[i]);
    }
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, d));
    if (sum != want)
        FAIL("%s: allreduce %d, expected %d", what, sum, want);
    CHECK(MPI_Barrier(d));
    MPI_Errhandler eh;
    CHECK(MPI_Comm_get_errhandler(d, &eh));
    if (eh != MPI_ERRORS_RETURN)
        FAIL("%s: error handler not inherited", what);
}

/* The patterns where a blocking idup deadlocks: what one group does right after its idup is
 * matched by the other group only before the other's idup. */
static void idup_inter_crossed(const icx_t *ic, int rank)
{
    MPI_Comm d = MPI_COMM_NULL;
    MPI_Request rq = MPI_REQUEST_NULL;
    int buf = -1;
    /* MPICH's comm_idup: local rank 0 receives from every remote rank but the remote rank 0
     * before its idup; the others idup first, then send to the remote rank 0 synchronously */
    if (ic->me == 0) {
        for (int i = 1; i < ic->rn; i++) {
            CHECK(MPI_Recv(&buf, 1, MPI_INT, i, 0, ic->comm, MPI_STATUS_IGNORE));
            if (buf != ic->rw[i])
                FAIL("crossed: got %d from remote %d, expected %d", buf, i, ic->rw[i]);
        }
        CHECK(MPI_Comm_idup(ic->comm, &d, &rq));
    } else {
        CHECK(MPI_Comm_idup(ic->comm, &d, &rq));
        CHECK(MPI_Ssend(&rank, 1, MPI_INT, 0, 0, ic->comm));
    }
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    if (rq != MPI_REQUEST_NULL)
        FAIL("crossed: the request was not freed by MPI_Wait");
    expect_inter("idup, MPICH's crossed pattern", d, ic, rank);
    CHECK(MPI_Comm_free(&d));

    /* group 0 idups, then sends to every remote rank; group 1 receives all before its idup
     * (completion tested with MPI_Test) */
    if (ic->color == 0) {
        CHECK(MPI_Comm_idup(ic->comm, &d, &rq));
        for (int i = 0; i < ic->rn; i++)
            CHECK(MPI_Send(&rank, 1, MPI_INT, i, 1, ic->comm));
    } else {
        for (int i = 0; i < ic->rn; i++) {
            CHECK(MPI_Recv(&buf, 1, MPI_INT, i, 1, ic->comm, MPI_STATUS_IGNORE));
            if (buf != ic->rw[i])
                FAIL("one way: got %d from remote %d, expected %d", buf, i, ic->rw[i]);
        }
        CHECK(MPI_Comm_idup(ic->comm, &d, &rq));
    }
    for (int flag = 0; !flag;)
        CHECK(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
    expect_inter("idup, one group's sends after it", d, ic, rank);
    CHECK(MPI_Comm_free(&d));
}

/* Several at once: idups of the intercommunicator with an intercommunicator iallreduce and an
 * idup of the local group among them, started in an order that differs between the groups,
 * completed in reverse. */
static void idup_inter_many(const icx_t *ic, int rank)
{
    MPI_Comm d[3] = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL}, l = MPI_COMM_NULL;
    MPI_Request rq[5];
    int v = rank, sum = -1, want = 0;
    for (int i = 0; i < ic->rn; i++)
        want += ic->rw[i];
    if (ic->color == 0)
        CHECK(MPI_Comm_idup(ic->local, &l, &rq[4]));
    CHECK(MPI_Comm_idup(ic->comm, &d[0], &rq[0]));
    CHECK(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic->comm, &rq[1]));
    CHECK(MPI_Comm_idup(ic->comm, &d[1], &rq[2]));
    CHECK(MPI_Comm_idup(ic->comm, &d[2], &rq[3]));
    if (ic->color == 1)
        CHECK(MPI_Comm_idup(ic->local, &l, &rq[4]));
    for (int i = 4; i >= 0; i--)
        CHECK(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
    if (sum != want)
        FAIL("iallreduce among idups: %d, expected %d", sum, want);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < i; j++)
            if (d[i] == d[j])
                FAIL("idups %d and %d are one handle", i, j);
    expect_inter("idup 1 of 3", d[2], ic, rank); /* out of creation order */
    expect_inter("idup 2 of 3", d[0], ic, rank);
    expect_inter("idup 3 of 3", d[1], ic, rank);
    expect_comm("idup of the local group among them", l, ic->lw, ic->ln, rank);
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Comm_free(&d[i]));
    CHECK(MPI_Comm_free(&l));
}

/* The parent freed while its idup is in flight; an idup of the idup; the copy merged into an
 * intracommunicator (the new bridge's groups and order); the argument errors. */
static void idup_inter_lifetimes(const icx_t *ic, int rank, int size)
{
    MPI_Comm p = MPI_COMM_NULL, d = MPI_COMM_NULL, d2 = MPI_COMM_NULL, m = MPI_COMM_NULL;
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK(MPI_Comm_dup(ic->comm, &p));
    CHECK(MPI_Comm_idup(p, &d, &rq));
    CHECK(MPI_Comm_free(&p));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_inter("idup of a freed parent", d, ic, rank);
    CHECK(MPI_Comm_idup(d, &d2, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_free(&d)); /* the parent gone, its copy stays */
    expect_inter("idup of an idup", d2, ic, rank);
    CHECK(MPI_Intercomm_merge(d2, ic->color, &m));
    int members[ICMAX], n = 0;
    for (int c = 0; c < 2; c++) /* color 0 (low) first */
        for (int i = 0; i < (c == ic->color ? ic->ln : ic->rn); i++)
            members[n++] = c == ic->color ? ic->lw[i] : ic->rw[i];
    if (n != size)
        FAIL("merge: %d members, expected %d", n, size);
    CHECK(MPI_Comm_set_errhandler(m, MPI_ERRORS_RETURN));
    expect_comm("merge of an idup", m, members, n, rank);
    CHECK(MPI_Comm_free(&m));
    CHECK(MPI_Comm_free(&d2));

    MPI_Comm c = MPI_COMM_NULL;
    expect_class("inter idup NULL newcomm", MPI_Comm_idup(ic->comm, NULL, &rq), MPI_ERR_ARG);
    expect_class("inter idup NULL request", MPI_Comm_idup(ic->comm, &c, NULL), MPI_ERR_ARG);
    if (c != MPI_COMM_NULL)
        FAIL("inter idup NULL request: a communicator was made");
}

/* Every kind of intercommunicator over world (n >= 2). */
void t_idup_inter(int rank, int size)
{
    if (size < 2 || size > ICMAX)
        return;
    for (int kind = 0; kind < 3; kind++) {
        icx_t ic;
        icx_make(kind, rank, size, &ic);
        idup_inter_crossed(&ic, rank);
        idup_inter_many(&ic, rank);
        idup_inter_lifetimes(&ic, rank, size);
        CHECK(MPI_Comm_free(&ic.comm));
        CHECK(MPI_Comm_free(&ic.local));
    }
}
