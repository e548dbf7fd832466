/* mpi_handles.c — every handle reads the same as an integer both ways: cast to uintptr_t, and
 * its bytes read as an unsigned integer of its size (what mpi4py compares). So no handle of an
 * int kind may be negative: predefined, null, and allocated ones of each kind (communicator,
 * group, datatype, op, errhandler, info, window, request, message), and the null a free or a
 * call that makes nothing leaves behind. */
#include <stdint.h>

#include "mpicheck.h"

static void same(const char *what, const void *h, size_t size, uintptr_t cast)
{
    uint64_t bytes = 0;
    if (size == sizeof(uint32_t)) {
        uint32_t v;
        memcpy(&v, h, sizeof v);
        bytes = v;
    } else if (size == sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, h, sizeof v);
        bytes = v;
    } else {
        FAIL("%s: a handle of %zu bytes", what, size);
        return;
    }
    if (bytes != (uint64_t)cast)
        FAIL("%s: its bytes read %llu, (uintptr_t) of it is %llu", what,
             (unsigned long long)bytes, (unsigned long long)cast);
}

#define SAME(h)                                                                                \
    do {                                                                                       \
        __typeof__(h) h_ = (h);                                                                \
        same(#h, &h_, sizeof h_, (uintptr_t)h_);                                               \
    } while (0)

static void comms_groups(int rank)
{
    MPI_Comm dup, none;
    MPI_Group g, empty;
    SAME(MPI_COMM_WORLD);
    SAME(MPI_COMM_SELF);
    SAME(MPI_COMM_NULL);
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    SAME(dup);
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &none));
    SAME(none);
    EXPECT_INT(none == MPI_COMM_NULL, 1);
    CHECK(MPI_Comm_group(dup, &g));
    SAME(g);
    CHECK(MPI_Group_incl(g, 0, NULL, &empty));
    SAME(empty);
    SAME(MPI_GROUP_EMPTY);
    SAME(MPI_GROUP_NULL);
    CHECK(MPI_Group_free(&g));
    SAME(g);
    EXPECT_INT(g == MPI_GROUP_NULL, 1);
    /* the null handles are still refused where a real one is needed */
    int size = -1, cls = -1;
    MPI_Error_class(MPI_Comm_size(MPI_COMM_NULL, &size), &cls);
    EXPECT_INT(cls, MPI_ERR_COMM);
    MPI_Error_class(MPI_Group_size(MPI_GROUP_NULL, &size), &cls);
    EXPECT_INT(cls, MPI_ERR_GROUP);
    CHECK(MPI_Comm_free(&dup));
    SAME(dup);
    EXPECT_INT(dup == MPI_COMM_NULL, 1);
}

static void noop(void *in, void *inout, int *len, MPI_Datatype *t) {}
static void on_error(MPI_Comm *c, int *code, ...) {}

static void types_ops_errh_info(void)
{
    MPI_Datatype t;
    MPI_Op op;
    MPI_Errhandler eh;
    MPI_Info info;
    SAME(MPI_INT);
    SAME(MPI_DOUBLE);
    SAME(MPI_DATATYPE_NULL);
    CHECK(MPI_Type_contiguous(3, MPI_INT, &t));
    SAME(t);
    CHECK(MPI_Type_free(&t));
    SAME(t);
    SAME(MPI_SUM);
    SAME(MPI_MAXLOC);
    SAME(MPI_OP_NULL);
    CHECK(MPI_Op_create(noop, 1, &op));
    SAME(op);
    CHECK(MPI_Op_free(&op));
    SAME(op);
    SAME(MPI_ERRORS_RETURN);
    SAME(MPI_ERRORS_ARE_FATAL);
    SAME(MPI_ERRHANDLER_NULL);
    CHECK(MPI_Comm_create_errhandler(on_error, &eh));
    SAME(eh);
    CHECK(MPI_Errhandler_free(&eh));
    SAME(eh);
    SAME(MPI_INFO_NULL);
    SAME(MPI_INFO_ENV);
    CHECK(MPI_Info_create(&info));
    SAME(info);
    CHECK(MPI_Info_free(&info));
    SAME(info);
}

static void wins_requests_messages(int rank)
{
    int buf[4] = {0}, x = rank, y = -1, flag = 0;
    MPI_Win win;
    MPI_Request r;
    MPI_Message m;
    SAME(MPI_WIN_NULL);
    CHECK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    SAME(win);
    CHECK(MPI_Win_free(&win));
    SAME(win);
    SAME(MPI_REQUEST_NULL);
    CHECK(MPI_Irecv(&y, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r));
    SAME(r);
    SAME(MPI_MESSAGE_NULL);
    SAME(MPI_MESSAGE_NO_PROC);
    CHECK(MPI_Send(&x, 1, MPI_INT, 0, 6, MPI_COMM_SELF));
    CHECK(MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_SELF));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    SAME(r);
    while (!flag)
        CHECK(MPI_Improbe(0, 6, MPI_COMM_SELF, &flag, &m, MPI_STATUS_IGNORE));
    SAME(m);
    CHECK(MPI_Mrecv(&y, 1, MPI_INT, &m, MPI_STATUS_IGNORE));
    SAME(m);
    EXPECT_INT(y, rank);
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    comms_groups(mc_rank);
    types_ops_errh_info();
    wins_requests_messages(mc_rank);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Finalize());
    return mc_done("mpi_handles");
}
