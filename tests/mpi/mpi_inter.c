/* mpi_inter.c — intercommunicators, the way MPICH's test/mpi/comm (ic1, icgroup, icm,
 * iccreate, icsplit) and test/mpi/coll (icbcast, icgather(v), icscatter(v), icreduce,
 * icallreduce, icallgather(v), icalltoall(v,w), icbarrier, icredscat) test them: several
 * intercommunicators over MPI_COMM_WORLD (even/odd ranks, low/high halves, the last rank
 * against the rest with a leader that is not local rank 0), and on each: the local and remote
 * groups, point-to-point with remote ranks (ANY_SOURCE, probe, sendrecv, persistent), every
 * collective for every root against serially computed data of the OTHER group, blocking and
 * nonblocking, dup/split/create/merge/compare, and the MPI_ERRORS_RETURN codes. n = 1: only
 * what needs no second rank. Argument: "blocking" or "nonblocking" (the collectives' form). */
#include "mpi_inter/mpi_inter.h"

int nb; /* the collectives' nonblocking forms */

void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* kind 0: even/odd world ranks; 1: low half/high half; 2: the last rank alone against the
 * rest, whose leader is its last member. */
static int color_of(int kind, int r, int size)
{
    return kind == 0 ? r % 2 : kind == 1 ? r >= size / 2 : r == size - 1;
}

static void make_ic(int kind, int rank, int size, ic_t *ic)
{
    memset(ic, 0, sizeof(*ic));
    ic->color = color_of(kind, rank, size);
    for (int r = 0; r < size; r++) {
        if (color_of(kind, r, size) == ic->color) {
            if (r == rank)
                ic->me = ic->ln;
            ic->lw[ic->ln++] = r;
        } else {
            ic->rw[ic->rn++] = r;
        }
    }
    int lleader = kind == 2 ? ic->ln - 1 : 0, rleader = kind == 2 ? ic->rn - 1 : 0;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, ic->color, rank, &ic->local));
    CHECK(MPI_Intercomm_create(ic->local, lleader, MPI_COMM_WORLD, ic->rw[rleader], 100 + kind,
                               &ic->comm));
}

static void free_ic(ic_t *ic)
{
    CHECK(MPI_Comm_free(&ic->comm));
    CHECK(MPI_Comm_free(&ic->local));
    if (ic->comm != MPI_COMM_NULL)
        FAIL("MPI_Comm_free left the handle set");
}

/* The groups and queries. */
static void t_shape(const ic_t *ic)
{
    int x = -1, flag = -1;
    CHECK(MPI_Comm_test_inter(ic->comm, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Comm_size(ic->comm, &x));
    EXPECT_INT(x, ic->ln);
    CHECK(MPI_Comm_rank(ic->comm, &x));
    EXPECT_INT(x, ic->me);
    CHECK(MPI_Comm_remote_size(ic->comm, &x));
    EXPECT_INT(x, ic->rn);
    MPI_Group wg, lg, rg;
    int idx[MAXN], got[MAXN];
    for (int i = 0; i < MAXN; i++)
        idx[i] = i;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK(MPI_Comm_group(ic->comm, &lg));
    CHECK(MPI_Comm_remote_group(ic->comm, &rg));
    CHECK(MPI_Group_size(lg, &x));
    EXPECT_INT(x, ic->ln);
    CHECK(MPI_Group_size(rg, &x));
    EXPECT_INT(x, ic->rn);
    CHECK(MPI_Group_rank(rg, &x));
    EXPECT_INT(x, MPI_UNDEFINED);
    CHECK(MPI_Group_translate_ranks(lg, ic->ln, idx, wg, got));
    for (int i = 0; i < ic->ln; i++)
        EXPECT_INT(got[i], ic->lw[i]);
    CHECK(MPI_Group_translate_ranks(rg, ic->rn, idx, wg, got));
    for (int i = 0; i < ic->rn; i++)
        EXPECT_INT(got[i], ic->rw[i]);
    CHECK(MPI_Group_free(&wg));
    CHECK(MPI_Group_free(&lg));
    CHECK(MPI_Group_free(&rg));
    CHECK(MPI_Comm_compare(ic->comm, MPI_COMM_WORLD, &x));
    EXPECT_INT(x, MPI_UNEQUAL);
    CHECK(MPI_Comm_compare(ic->comm, ic->comm, &x));
    EXPECT_INT(x, MPI_IDENT);
}

/* Point-to-point: ranks are remote ranks. Local rank a sends to remote rank a % rn; I get one
 * message from each remote j with j % ln == me. */
static void t_p2p(const ic_t *ic)
{
    MPI_Comm c = ic->comm;
    int out = ic->lw[ic->me] * 1000 + ic->me, in = -1, expect = 0, flag = 0;
    MPI_Request rq;
    MPI_Status st;
    CHECK(MPI_Isend(&out, 1, MPI_INT, ic->me % ic->rn, 5, c, &rq));
    for (int j = 0; j < ic->rn; j++)
        expect += j % ic->ln == ic->me;
    for (int k = 0; k < expect; k++) {
        CHECK(MPI_Probe(MPI_ANY_SOURCE, 5, c, &st));
        int src = st.MPI_SOURCE;
        if (src < 0 || src >= ic->rn || src % ic->ln != ic->me) {
            FAIL("probe: source %d", src);
            continue;
        }
        CHECK(MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, c, &st));
        EXPECT_INT(st.MPI_SOURCE, src);
        EXPECT_INT(in, ic->rw[src] * 1000 + src);
    }
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Iprobe(MPI_ANY_SOURCE, 5, c, &flag, &st));
    EXPECT_INT(flag, 0);
    /* sendrecv between local rank i and remote rank i, both sides */
    if (ic->me < ic->rn) {
        CHECK(MPI_Sendrecv(&out, 1, MPI_INT, ic->me, 6, &in, 1, MPI_INT, ic->me, 6, c, &st));
        EXPECT_INT(in, ic->rw[ic->me] * 1000 + ic->me);
        EXPECT_INT(st.MPI_SOURCE, ic->me);
    }
    /* persistent send and receive, and mprobe */
    if (ic->me < ic->rn) {
        MPI_Request pr[2];
        MPI_Message msg;
        CHECK(MPI_Send_init(&out, 1, MPI_INT, ic->me, 7, c, &pr[0]));
        CHECK(MPI_Recv_init(&in, 1, MPI_INT, ic->me, 8, c, &pr[1]));
        for (int rep = 0; rep < 2; rep++) {
            in = -1;
            CHECK(MPI_Startall(2, pr));
            CHECK(MPI_Send(&out, 1, MPI_INT, ic->me, 8, c));
            CHECK(MPI_Mprobe(ic->me, 7, c, &msg, &st));
            EXPECT_INT(st.MPI_SOURCE, ic->me);
            int m = -1;
            CHECK(MPI_Mrecv(&m, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
            EXPECT_INT(m, ic->rw[ic->me] * 1000 + ic->me);
            CHECK(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
            EXPECT_INT(in, ic->rw[ic->me] * 1000 + ic->me);
        }
        CHECK(MPI_Request_free(&pr[0]));
        CHECK(MPI_Request_free(&pr[1]));
    }
    /* a rank out of the remote group */
    expect_class("send to remote size", MPI_Send(&out, 1, MPI_INT, ic->rn, 0, c), MPI_ERR_RANK);
}

int main(int argc, char **argv)
{
    int rank, size;
    nb = argc > 1 && strcmp(argv[1], "nonblocking") == 0;
    mc_watchdog(80);
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    mc_rank = rank;

    /* what needs no second rank */
    MPI_Comm bad = MPI_COMM_NULL;
    int flag = -1, x;
    CHECK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    EXPECT_INT(flag, 0);
    expect_class("remote_size of world", MPI_Comm_remote_size(MPI_COMM_WORLD, &x), MPI_ERR_COMM);
    expect_class("local leader out of range",
                 MPI_Intercomm_create(MPI_COMM_WORLD, size, MPI_COMM_WORLD, 0, 0, &bad),
                 MPI_ERR_RANK);
    expect_class("remote leader in the local group",
                 MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 0, &bad),
                 MPI_ERR_RANK);
    expect_class("remote leader out of peer_comm",
                 MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, size, 0, &bad),
                 MPI_ERR_RANK);
    expect_class("null comm", MPI_Comm_test_inter(MPI_COMM_NULL, &flag), MPI_ERR_COMM);

    if (size >= 2) {
        for (int kind = 0; kind < 3; kind++) {
            ic_t ic;
            make_ic(kind, rank, size, &ic);
            if (ic.comm == MPI_COMM_NULL) {
                FAIL("kind %d: no intercommunicator", kind);
                break;
            }
            CHECK(MPI_Comm_set_errhandler(ic.comm, MPI_ERRORS_RETURN));
            t_shape(&ic);
            t_p2p(&ic);
            for (int rcol = 0; rcol < 2; rcol++) {
                int n = rcol == ic.color ? ic.ln : ic.rn;
                for (int ri = 0; ri < n; ri++)
                    t_rooted(&ic, rcol, ri);
            }
            t_all(&ic);
            t_build(&ic, rank, size);
            t_more(&ic);
            t_errors(&ic);
            t_idup_disconnect(&ic);
            t_oneway(&ic);
            free_ic(&ic);
        }
    }
    CHECK(MPI_Finalize());
    return mc_done("mpi_inter");
}
