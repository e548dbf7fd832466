/* status.c — mpi_mpi4's status and error calls: MPI_Status fields, the get-status arrays,
 * removed error classes and codes, the value-index types, and the hardware and ABI queries. */
#include "mpi_mpi4.h"

void test_status_fields(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    int v = -1;
    CHECK(MPI_Status_set_source(&st, 3));
    CHECK(MPI_Status_set_tag(&st, 77));
    CHECK(MPI_Status_set_error(&st, MPI_ERR_TAG));
    EXPECT_INT(st.MPI_SOURCE, 3);
    EXPECT_INT(st.MPI_TAG, 77);
    EXPECT_INT(st.MPI_ERROR, MPI_ERR_TAG);
    CHECK(MPI_Status_get_source(&st, &v));
    EXPECT_INT(v, 3);
    CHECK(MPI_Status_get_tag(&st, &v));
    EXPECT_INT(v, 77);
    CHECK(MPI_Status_get_error(&st, &v));
    EXPECT_INT(v, MPI_ERR_TAG);
    CHECK(PMPI_Status_get_tag(&st, &v)); /* the profiling twins exist */
    EXPECT_INT(v, 77);
    EXPECT_INT(MPI_Status_get_source(NULL, &v), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_get_tag(&st, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_get_error(&st, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_set_source(NULL, 1), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_set_tag(NULL, 1), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_set_error(NULL, 1), MPI_ERR_ARG);
}

static void expect_empty(const MPI_Status *s, const char *what)
{
    if (s->MPI_SOURCE != MPI_ANY_SOURCE || s->MPI_TAG != MPI_ANY_TAG || s->MPI_ERROR)
        FAIL("%s: status (%d, %d, %d) is not empty", what, s->MPI_SOURCE, s->MPI_TAG, s->MPI_ERROR);
}

/* The receive (request 0) beside a null request and an inactive persistent one: nothing is
 * complete until the left neighbour sends (after the barrier); then every call sees it, as
 * often as asked, and the request stays for MPI_Wait. */
void test_get_status_arrays(void)
{
    int x = -1, y = 0, idx = -2, flag = -2, n = -2, ind[3];
    MPI_Request r[3];
    MPI_Status st[3], s1;
    CHECK(MPI_Irecv(&x, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &r[0]));
    r[1] = MPI_REQUEST_NULL;
    CHECK(MPI_Recv_init(&y, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &r[2]));
    CHECK(MPI_Request_get_status_all(3, r, &flag, st));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Request_get_status_any(3, r, &idx, &flag, &s1));
    EXPECT_INT(flag, 0);
    EXPECT_INT(idx, MPI_UNDEFINED);
    CHECK(MPI_Request_get_status_some(3, r, &n, ind, st));
    EXPECT_INT(n, 0);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int v = 1000 + mc_rank;
    CHECK(MPI_Send(&v, 1, MPI_INT, right, 11, MPI_COMM_WORLD));
    st[0].MPI_ERROR = -7; /* MPI-4.1 3.2.5: left alone unless MPI_ERR_IN_STATUS */
    do                    /* until the message is in (the watchdog ends a hang) */
        CHECK(MPI_Request_get_status_all(3, r, &flag, st));
    while (!flag);
    EXPECT_INT(st[0].MPI_SOURCE, left);
    EXPECT_INT(st[0].MPI_TAG, 11);
    EXPECT_INT(st[0].MPI_ERROR, -7);
    expect_empty(&st[1], "get_status_all, null request");
    expect_empty(&st[2], "get_status_all, inactive request");
    for (int rep = 0; rep < 2; rep++) { /* nothing is freed: the same answer again */
        CHECK(MPI_Request_get_status_any(3, r, &idx, &flag, &s1));
        EXPECT_INT(flag, 1);
        EXPECT_INT(idx, 0);
        EXPECT_INT(s1.MPI_SOURCE, left);
        CHECK(MPI_Request_get_status_some(3, r, &n, ind, st));
        EXPECT_INT(n, 1);
        EXPECT_INT(ind[0], 0);
        EXPECT_INT(st[0].MPI_TAG, 11);
    }
    if (r[0] == MPI_REQUEST_NULL)
        FAIL("Request_get_status_* freed the request");
    MPI_Request stale = r[0];
    CHECK(MPI_Wait(&r[0], &s1));
    EXPECT_INT(x, 1000 + left);
    EXPECT_INT(s1.MPI_SOURCE, left);
    /* only null and inactive requests left: the "none active" answers */
    CHECK(MPI_Request_get_status_any(3, r, &idx, &flag, &s1));
    EXPECT_INT(flag, 1);
    EXPECT_INT(idx, MPI_UNDEFINED);
    expect_empty(&s1, "get_status_any, none active");
    CHECK(MPI_Request_get_status_some(3, r, &n, ind, st));
    EXPECT_INT(n, MPI_UNDEFINED);
    CHECK(MPI_Request_get_status_all(0, NULL, &flag, MPI_STATUSES_IGNORE));
    EXPECT_INT(flag, 1);
    /* invalid arguments */
    EXPECT_INT(MPI_Request_get_status_all(-1, r, &flag, st), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Request_get_status_all(3, r, NULL, st), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_all(1, NULL, &flag, st), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_any(3, r, NULL, &flag, &s1), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_any(3, r, &idx, NULL, &s1), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_some(3, r, NULL, ind, st), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_some(3, r, &n, NULL, st), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_some(-1, r, &n, ind, st), MPI_ERR_COUNT);
    r[1] = stale; /* a completed and freed request's handle */
    EXPECT_INT(MPI_Request_get_status_all(3, r, &flag, st), MPI_ERR_REQUEST);
    EXPECT_INT(MPI_Request_get_status_any(3, r, &idx, &flag, &s1), MPI_ERR_REQUEST);
    EXPECT_INT(MPI_Request_get_status_some(3, r, &n, ind, st), MPI_ERR_REQUEST);
    CHECK(MPI_Request_free(&r[2]));
}

void test_remove_error(void)
{
    int cls, code, got, len;
    char s[MPI_MAX_ERROR_STRING];
    CHECK(MPI_Add_error_class(&cls));
    CHECK(MPI_Add_error_code(cls, &code));
    CHECK(MPI_Add_error_string(code, "my code"));
    EXPECT_INT(MPI_Remove_error_class(cls), MPI_ERR_ARG);  /* a code is attached */
    EXPECT_INT(MPI_Remove_error_code(cls), MPI_ERR_ARG);   /* a class, not a code */
    EXPECT_INT(MPI_Remove_error_string(cls), MPI_ERR_ARG); /* it has no string */
    CHECK(MPI_Remove_error_string(code));
    CHECK(MPI_Error_string(code, s, &len));
    EXPECT_INT(len, 0);
    EXPECT_INT(MPI_Remove_error_string(code), MPI_ERR_ARG); /* gone already */
    CHECK(MPI_Remove_error_code(code));
    EXPECT_INT(MPI_Error_class(code, &got), MPI_ERR_ARG); /* no such code any more */
    EXPECT_INT(MPI_Remove_error_code(code), MPI_ERR_ARG);
    CHECK(MPI_Add_error_string(cls, "my class"));
    CHECK(MPI_Remove_error_class(cls)); /* its string goes with it */
    EXPECT_INT(MPI_Error_class(cls, &got), MPI_ERR_ARG);
    EXPECT_INT(MPI_Add_error_code(cls, &code), MPI_ERR_ARG);
    EXPECT_INT(MPI_Remove_error_class(cls), MPI_ERR_ARG);
    /* predefined ones never go */
    EXPECT_INT(MPI_Remove_error_class(MPI_ERR_ARG), MPI_ERR_ARG);
    EXPECT_INT(MPI_Remove_error_code(MPI_ERR_OTHER), MPI_ERR_ARG);
    EXPECT_INT(MPI_Remove_error_string(MPI_ERR_OTHER), MPI_ERR_ARG);
    EXPECT_INT(MPI_Remove_error_class(MPI_SUCCESS), MPI_ERR_ARG);
    int next; /* a removed number is not given out again */
    CHECK(MPI_Add_error_class(&next));
    if (next == cls || next == code)
        FAIL("Add_error_class reused %d", next);
    CHECK(MPI_Remove_error_class(next));
}

void test_value_index(void)
{
    static const MPI_Datatype t[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_FLOAT, MPI_LONG, MPI_DATATYPE_NULL},
        {MPI_INT, MPI_FLOAT, MPI_DATATYPE_NULL},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL},
        {MPI_INT32_T, MPI_INT, MPI_DATATYPE_NULL},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        MPI_Datatype p = (MPI_Datatype)-5;
        CHECK(MPI_Type_get_value_index(t[i][0], t[i][1], &p));
        if (p != t[i][2])
            FAIL("Type_get_value_index case %zu gave %d, expected %d", i, (int)p, (int)t[i][2]);
    }
    MPI_Datatype c, p;
    CHECK(MPI_Type_contiguous(2, MPI_INT, &c));
    CHECK(MPI_Type_commit(&c));
    CHECK(MPI_Type_get_value_index(c, MPI_INT, &p));
    if (p != MPI_DATATYPE_NULL)
        FAIL("Type_get_value_index of a derived type gave %d", (int)p);
    CHECK(MPI_Type_free(&c));
    EXPECT_INT(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &p), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_get_value_index(MPI_FLOAT, MPI_DATATYPE_NULL, &p), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, NULL), MPI_ERR_ARG);
}

void test_hw_and_abi(void)
{
    MPI_Info info;
    char host[MPI_MAX_PROCESSOR_NAME];
    int len, maj = 0, min = 0;
    CHECK(MPI_Get_hw_resource_info(&info));
    expect_info(info, "mpi_hw_resource_type", "mpi_shared_memory");
    CHECK(MPI_Get_processor_name(host, &len));
    expect_info(info, "rmp_host", host);
    expect_info_int(info, "rmp_ncpus", sysconf(_SC_NPROCESSORS_ONLN));
    CHECK(MPI_Info_free(&info));
    EXPECT_INT(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG);
    CHECK(MPI_Abi_get_version(&maj, &min)); /* not the standard ABI */
    EXPECT_INT(maj, -1);
    EXPECT_INT(min, -1);
    CHECK(MPI_Abi_get_info(&info));
    expect_info(info, "mpi_abi", "rmp");
    expect_info(info, "mpi_abi_standard", "false");
    expect_info_int(info, "mpi_aint_size", (long)sizeof(MPI_Aint));
    expect_info_int(info, "mpi_count_size", (long)sizeof(MPI_Count));
    expect_info_int(info, "mpi_offset_size", (long)sizeof(MPI_Offset));
    CHECK(MPI_Info_free(&info));
    CHECK(MPI_Abi_get_fortran_info(&info));
    expect_info(info, "mpi_fortran_bindings", "none");
    expect_info_int(info, "mpi_fint_size", (long)sizeof(MPI_Fint));
    CHECK(MPI_Info_free(&info));
    EXPECT_INT(MPI_Abi_get_version(NULL, &min), MPI_ERR_ARG);
    EXPECT_INT(MPI_Abi_get_version(&maj, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Abi_get_info(NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Abi_get_fortran_info(NULL), MPI_ERR_ARG);
}
