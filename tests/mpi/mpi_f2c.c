/* mpi_f2c.c — the Fortran handle conversions: every kind of handle converts to an integer and
 * back to itself (the null handles too), a request and a message convert to the same integer
 * each time and still work after the round trip (the message is received, the request
 * waited), distinct requests get distinct integers, a status survives Status_c2f/f2c and the
 * mpi_f08 conversions (c2f08, f082f, f2f08, f082c; NULL and IGNORE refused), and a session
 * converts too; 100000 live requests convert in O(1) each. */
#include "mpicheck.h"

/* NLIVE live requests (persistent, never started) converted to distinct integers, each the
 * same the second time and back to its request, in well under NLIVE_SECONDS: a search through
 * every request converted before (as c2f once did) takes NLIVE^2 / 2 steps, many seconds. */
#define NLIVE 100000
#define NLIVE_SECONDS 3.0
static void many_live_requests(void)
{
    static MPI_Request r[NLIVE];
    static MPI_Fint f[NLIVE];
    static char buf[1];
    for (int i = 0; i < NLIVE; i++)
        CHECK(MPI_Recv_init(buf, 1, MPI_CHAR, 0, i % 1000, MPI_COMM_SELF, &r[i]));
    double t = MPI_Wtime();
    int bad = 0;
    for (int i = 0; i < NLIVE; i++)
        f[i] = MPI_Request_c2f(r[i]);
    for (int i = 0; i < NLIVE; i++)
        bad += MPI_Request_c2f(r[i]) != f[i] || MPI_Request_f2c(f[i]) != r[i] || f[i] <= 0 ||
               (i > 0 && f[i] == f[i - 1]);
    t = MPI_Wtime() - t;
    EXPECT_INT(bad, 0);
    if (t > NLIVE_SECONDS)
        FAIL("%d live requests converted in %.1f s (more than %.0f s: not O(1) each)", NLIVE,
             t, NLIVE_SECONDS);
    for (int i = 0; i < NLIVE; i++)
        CHECK(MPI_Request_free(&r[i]));
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    int size;
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Comm dup;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    EXPECT_INT(MPI_Comm_f2c(MPI_Comm_c2f(dup)), dup);
    EXPECT_INT(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)), MPI_COMM_NULL);
    EXPECT_INT(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)), MPI_DOUBLE);
    EXPECT_INT(MPI_Op_f2c(MPI_Op_c2f(MPI_MAXLOC)), MPI_MAXLOC);
    EXPECT_INT(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)), MPI_ERRORS_RETURN);
    MPI_Group g;
    CHECK(MPI_Comm_group(dup, &g));
    EXPECT_INT(MPI_Group_f2c(MPI_Group_c2f(g)), g);
    MPI_Info info;
    CHECK(MPI_Info_create(&info));
    EXPECT_INT(MPI_Info_f2c(MPI_Info_c2f(info)), info);
    EXPECT_INT(MPI_Request_c2f(MPI_REQUEST_NULL), 0);
    if (MPI_Request_f2c(0) != MPI_REQUEST_NULL)
        FAIL("MPI_Request_f2c(0) is not MPI_REQUEST_NULL");

    /* a message probed, converted both ways, then received through the converted handle */
    int to = (mc_rank + 1) % size, from = (mc_rank + size - 1) % size, out = 40 + mc_rank, in = -1;
    MPI_Request sr, rr;
    CHECK(MPI_Isend(&out, 1, MPI_INT, to, 3, dup, &sr));
    MPI_Message m;
    MPI_Status st;
    CHECK(MPI_Mprobe(from, 3, dup, &m, &st));
    MPI_Fint fm = MPI_Message_c2f(m);
    EXPECT_INT(MPI_Message_c2f(m), fm);
    MPI_Message back = MPI_Message_f2c(fm);
    if (back != m)
        FAIL("a message does not come back from its integer");
    CHECK(MPI_Mrecv(&in, 1, MPI_INT, &back, &st));
    EXPECT_INT(in, 40 + from);
    /* a request: the same integer twice, a different one for another request */
    CHECK(MPI_Irecv(&in, 1, MPI_INT, from, 4, dup, &rr));
    MPI_Fint fs = MPI_Request_c2f(sr), fr = MPI_Request_c2f(rr);
    EXPECT_INT(MPI_Request_c2f(sr), fs);
    if (fs == fr || fs <= 0 || fr <= 0)
        FAIL("requests' integers %d and %d", fs, fr);
    MPI_Request r2 = MPI_Request_f2c(fr);
    CHECK(MPI_Send(&out, 1, MPI_INT, to, 4, dup));
    CHECK(MPI_Wait(&r2, &st));
    EXPECT_INT(st.MPI_SOURCE, from);
    MPI_Request s2 = MPI_Request_f2c(fs);
    CHECK(MPI_Wait(&s2, MPI_STATUS_IGNORE));

    /* a status, both ways */
    MPI_Fint f[MPI_STATUS_SIZE];
    MPI_Status c2;
    CHECK(MPI_Status_c2f(&st, f));
    CHECK(MPI_Status_f2c(f, &c2));
    EXPECT_INT(c2.MPI_SOURCE, from);
    EXPECT_INT(c2.MPI_TAG, 4);
    int cnt = -1;
    CHECK(MPI_Get_count(&c2, MPI_INT, &cnt));
    EXPECT_INT(cnt, 1);
    /* mpif.h's IGNORE sentinels (MPI_F_STATUS_IGNORE: their COMMON blocks) are no status */
    int cls_ign = -1;
    MPI_Error_class(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &c2), &cls_ign);
    EXPECT_INT(cls_ign, MPI_ERR_ARG);
    MPI_Error_class(MPI_Status_c2f(&st, MPI_F_STATUSES_IGNORE), &cls_ign);
    EXPECT_INT(cls_ign, MPI_ERR_ARG);

    int cls = -1;
    MPI_Error_class(MPI_Status_c2f(MPI_STATUS_IGNORE, f), &cls);
    EXPECT_INT(cls, MPI_ERR_ARG);

    /* mpi_f08's status, from C, from mpif.h's integers and back: exact fields and count */
    MPI_F08_status f08, f08b;
    memset(&f08, 0x5a, sizeof f08);
    CHECK(MPI_Status_c2f08(&st, &f08));
    EXPECT_INT(f08.MPI_SOURCE, from);
    EXPECT_INT(f08.MPI_TAG, 4);
    EXPECT_INT(f08.MPI_ERROR, st.MPI_ERROR);
    MPI_Fint f2[MPI_STATUS_SIZE];
    CHECK(MPI_Status_f082f(&f08, f2));
    if (memcmp(f2, f, sizeof f2))
        FAIL("Status_f082f differs from Status_c2f");
    CHECK(MPI_Status_f2f08(f2, &f08b));
    MPI_Status c3;
    CHECK(MPI_Status_f082c(&f08b, &c3));
    EXPECT_INT(c3.MPI_SOURCE, from);
    EXPECT_INT(c3.MPI_TAG, 4);
    cnt = -1;
    CHECK(MPI_Get_count(&c3, MPI_INT, &cnt));
    EXPECT_INT(cnt, 1);
    /* NULL and the IGNORE sentinels are no status to convert */
    if (!MPI_F08_STATUS_IGNORE || !MPI_F08_STATUSES_IGNORE ||
        MPI_F08_STATUS_IGNORE == MPI_F08_STATUSES_IGNORE)
        FAIL("MPI_F08_STATUS_IGNORE %p MPI_F08_STATUSES_IGNORE %p", (void *)MPI_F08_STATUS_IGNORE,
             (void *)MPI_F08_STATUSES_IGNORE);
    MPI_Error_class(MPI_Status_c2f08(&st, MPI_F08_STATUS_IGNORE), &cls);
    EXPECT_INT(cls, MPI_ERR_ARG);
    MPI_Error_class(MPI_Status_f082c(MPI_F08_STATUSES_IGNORE, &c3), &cls);
    EXPECT_INT(cls, MPI_ERR_ARG);
    MPI_Error_class(MPI_Status_f082f(&f08, MPI_F_STATUS_IGNORE), &cls);
    EXPECT_INT(cls, MPI_ERR_ARG);
    MPI_Error_class(MPI_Status_f2f08(NULL, &f08), &cls);
    EXPECT_INT(cls, MPI_ERR_ARG);
    /* a session is an integer handle like the others */
    EXPECT_INT(MPI_Session_f2c(MPI_Session_c2f(MPI_SESSION_NULL)), MPI_SESSION_NULL);
    MPI_Session ses;
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &ses));
    MPI_Session ses2 = MPI_Session_f2c(MPI_Session_c2f(ses));
    EXPECT_INT(ses2, ses);
    int npsets = -1;
    CHECK(MPI_Session_get_num_psets(ses2, MPI_INFO_NULL, &npsets));
    if (npsets < 2)
        FAIL("a converted session gives %d psets", npsets);
    CHECK(MPI_Session_finalize(&ses2));

    if (mc_rank == 0)
        many_live_requests();

    CHECK(MPI_Info_free(&info));
    CHECK(MPI_Group_free(&g));
    CHECK(MPI_Comm_free(&dup));
    CHECK(MPI_Finalize());
    return mc_done("mpi_f2c");
}
