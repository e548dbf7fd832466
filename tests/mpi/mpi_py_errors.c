/* mpi_py_errors.c — the error classes mpi4py's test_exceptions.py expects from null and
 * predefined handles (each a call that must fail with one of the classes listed, never
 * succeed, crash or end the job): datatypes, statuses, requests, ops, infos, groups,
 * communicators (intra and inter), windows, error handlers. Errors return on the world and
 * on MPI_COMM_SELF (where MPI-4 raises errors tied to no object). */
#include "mpicheck.h"

/* rc must be an error of class a or b (b = a: only a). */
static void expect2(int rc, int a, int b, const char *what)
{
    int cls = -1;
    if (rc == MPI_SUCCESS) {
        FAIL("%s succeeded, expected class %d", what, a);
        return;
    }
    MPI_Error_class(rc, &cls);
    if (cls != a && cls != b)
        FAIL("%s: class %d, expected %d or %d", what, cls, a, b);
}

#define EXPECT_ERR(call, a) expect2((call), (a), (a), #call)
#define EXPECT_ERR2(call, a, b) expect2((call), (a), (b), #call)

static void datatypes(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, out;
    EXPECT_ERR(MPI_Type_dup(t, &out), MPI_ERR_TYPE);
    EXPECT_ERR(MPI_Type_commit(&t), MPI_ERR_TYPE);
    EXPECT_ERR(MPI_Type_free(&t), MPI_ERR_TYPE);
    MPI_Datatype pre[] = {MPI_BYTE, MPI_PACKED, MPI_CHAR, MPI_WCHAR, MPI_SIGNED_CHAR,
                          MPI_UNSIGNED_CHAR, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT,
                          MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
                          MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE,
                          MPI_SHORT_INT, MPI_2INT, MPI_LONG_INT, MPI_FLOAT_INT,
                          MPI_DOUBLE_INT, MPI_LONG_DOUBLE_INT};
    for (size_t i = 0; i < sizeof pre / sizeof *pre; i++) {
        MPI_Datatype p = pre[i];
        void *v = NULL;
        int flag = 0;
        EXPECT_ERR(MPI_Type_free(&p), MPI_ERR_TYPE);
        if (p != pre[i])
            FAIL("MPI_Type_free of predefined type %zu changed the handle", i);
        EXPECT_ERR2(MPI_Type_get_attr(pre[i], MPI_KEYVAL_INVALID, &v, &flag), MPI_ERR_KEYVAL,
                    MPI_ERR_OTHER);
    }
}

static void statuses(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    int n;
    EXPECT_ERR(MPI_Get_count(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    EXPECT_ERR(MPI_Get_elements(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    EXPECT_ERR(MPI_Status_set_elements(&st, MPI_DATATYPE_NULL, 0), MPI_ERR_TYPE);
}

static void requests_ops(void)
{
    MPI_Request q = MPI_REQUEST_NULL;
    EXPECT_ERR(MPI_Request_free(&q), MPI_ERR_REQUEST);
    q = MPI_REQUEST_NULL;
    EXPECT_ERR(MPI_Cancel(&q), MPI_ERR_REQUEST);
    MPI_Op op = MPI_OP_NULL;
    EXPECT_ERR2(MPI_Op_free(&op), MPI_ERR_OP, MPI_ERR_ARG);
    MPI_Op pre[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
                    MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE};
    for (size_t i = 0; i < sizeof pre / sizeof *pre; i++) {
        op = pre[i];
        EXPECT_ERR2(MPI_Op_free(&op), MPI_ERR_OP, MPI_ERR_ARG);
    }
}

static void infos(void)
{
    MPI_Info n = MPI_INFO_NULL, out;
    char key[MPI_MAX_INFO_KEY + 1], val[8];
    int flag, nk;
    EXPECT_ERR2(MPI_Info_dup(n, &out), MPI_ERR_INFO, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Info_free(&n), MPI_ERR_INFO, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Info_get(n, "key", 7, val, &flag), MPI_ERR_INFO, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Info_set(n, "key", "value"), MPI_ERR_INFO, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Info_delete(n, "key"), MPI_ERR_INFO, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Info_get_nkeys(n, &nk), MPI_ERR_INFO, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Info_get_nthkey(n, 0, key), MPI_ERR_INFO, MPI_ERR_ARG);
    MPI_Info i;
    CHECK(MPI_Info_create(&i));
    EXPECT_ERR(MPI_Info_delete(i, "key"), MPI_ERR_INFO_NOKEY);
    EXPECT_ERR2(MPI_Info_get_nthkey(i, 0, key), MPI_ERR_INFO_KEY, MPI_ERR_ARG);
    CHECK(MPI_Info_free(&i));
}

static void groups(void)
{
    int r;
    EXPECT_ERR(MPI_Group_compare(MPI_GROUP_NULL, MPI_GROUP_NULL, &r), MPI_ERR_GROUP);
    EXPECT_ERR(MPI_Group_compare(MPI_GROUP_NULL, MPI_GROUP_EMPTY, &r), MPI_ERR_GROUP);
    EXPECT_ERR(MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_NULL, &r), MPI_ERR_GROUP);
    EXPECT_ERR(MPI_Group_size(MPI_GROUP_NULL, &r), MPI_ERR_GROUP);
    EXPECT_ERR(MPI_Group_rank(MPI_GROUP_NULL, &r), MPI_ERR_GROUP);
    MPI_Group e = MPI_GROUP_EMPTY; /* mpi4py 3.1 wants MPI_ERR_GROUP; MPICH, Open MPI and
                                    * rmp let it be freed, as groups that come out empty are */
    CHECK(MPI_Group_free(&e));
    if (e != MPI_GROUP_NULL)
        FAIL("MPI_Group_free(MPI_GROUP_EMPTY) did not set MPI_GROUP_NULL");
}

static void comms(void)
{
    MPI_Comm n = MPI_COMM_NULL, out;
    int r;
    MPI_Group g;
    EXPECT_ERR(MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_NULL, &r), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_NULL, &r), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &r), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_size(n, &r), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_rank(n, &r), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_test_inter(n, &r), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_group(n, &g), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Topo_test(n, &r), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_free(&n), MPI_ERR_COMM);
    n = MPI_COMM_NULL;
    EXPECT_ERR(MPI_Comm_disconnect(&n), MPI_ERR_COMM);
    n = MPI_COMM_NULL;
    void *v;
    EXPECT_ERR(MPI_Comm_get_attr(n, MPI_TAG_UB, &v, &r), MPI_ERR_COMM);
    MPI_Errhandler eh;
    EXPECT_ERR2(MPI_Comm_get_errhandler(n, &eh), MPI_ERR_COMM, MPI_ERR_ARG);
    EXPECT_ERR(MPI_Comm_set_errhandler(n, MPI_ERRORS_RETURN), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_dup(n, &out), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_create(n, MPI_GROUP_EMPTY, &out), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_split(n, 0, 0, &out), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_remote_group(n, &g), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Comm_remote_size(n, &r), MPI_ERR_COMM);
    EXPECT_ERR(MPI_Intercomm_merge(n, 1, &out), MPI_ERR_COMM);
    MPI_Comm self = MPI_COMM_SELF, world = MPI_COMM_WORLD;
    EXPECT_ERR2(MPI_Comm_free(&self), MPI_ERR_COMM, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Comm_free(&world), MPI_ERR_COMM, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Comm_get_attr(MPI_COMM_SELF, MPI_KEYVAL_INVALID, &v, &r), MPI_ERR_KEYVAL,
                MPI_ERR_OTHER);
}

static void wins_errhandlers(void)
{
    MPI_Win w = MPI_WIN_NULL;
    MPI_Errhandler eh;
    EXPECT_ERR2(MPI_Win_free(&w), MPI_ERR_WIN, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Win_get_errhandler(w, &eh), MPI_ERR_WIN, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN), MPI_ERR_WIN, MPI_ERR_ARG);
    EXPECT_ERR2(MPI_Win_call_errhandler(w, 0), MPI_ERR_WIN, MPI_ERR_ARG);
    CHECK(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_SELF, &w));
    void *v;
    int flag;
    EXPECT_ERR2(MPI_Win_get_attr(w, MPI_KEYVAL_INVALID, &v, &flag), MPI_ERR_KEYVAL,
                MPI_ERR_OTHER);
    CHECK(MPI_Win_free(&w));
    eh = MPI_ERRHANDLER_NULL;
    EXPECT_ERR(MPI_Errhandler_free(&eh), MPI_ERR_ARG);
    EXPECT_ERR(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    EXPECT_ERR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 60);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    datatypes();
    statuses();
    requests_ops();
    infos();
    groups();
    comms();
    wins_errhandlers();
    MPI_Finalize();
    return mc_done("mpi_py_errors");
}
