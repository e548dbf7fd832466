/* mpi_py_status.c — statuses and null requests as mpi4py's test_status.py and
 * test_request.py check them: a zeroed status with ANY_SOURCE/ANY_TAG/SUCCESS has count and
 * elements 0 and is not cancelled; set_elements and set_cancelled stick and survive a copy;
 * every completion call on MPI_REQUEST_NULL (alone or five of them) returns at once with the
 * empty status, index MPI_UNDEFINED, outcount MPI_UNDEFINED. */
#include <stdbool.h>

#include "mpicheck.h"

#define NR 5

/* mpi4py's MPI.Status(): zeroed memory, then the three public fields. */
static MPI_Status fresh(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    st.MPI_SOURCE = MPI_ANY_SOURCE;
    st.MPI_TAG = MPI_ANY_TAG;
    st.MPI_ERROR = MPI_SUCCESS;
    return st;
}

/* The empty status (MPI-4.0 3.7.3): what a null request completes with. */
static void expect_empty(const MPI_Status *st, const char *what)
{
    int count = -1, elems = -1, canc = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    MPI_Get_elements(st, MPI_BYTE, &elems);
    MPI_Test_cancelled(st, &canc);
    if (st->MPI_SOURCE != MPI_ANY_SOURCE || st->MPI_TAG != MPI_ANY_TAG ||
        st->MPI_ERROR != MPI_SUCCESS || count != 0 || elems != 0 || canc != 0)
        FAIL("%s: source %d tag %d error %d count %d elements %d cancelled %d, not empty", what,
             st->MPI_SOURCE, st->MPI_TAG, st->MPI_ERROR, count, elems, canc);
}

static void statuses(void)
{
    MPI_Status st = fresh();
    expect_empty(&st, "a fresh status");
    CHECK(MPI_Status_set_elements(&st, MPI_BYTE, 7));
    CHECK(MPI_Status_set_cancelled(&st, 1));
    MPI_Status copy = st; /* Status(status) copies the struct */
    int count = -1, elems = -1, canc = -1;
    CHECK(MPI_Get_count(&copy, MPI_BYTE, &count));
    CHECK(MPI_Get_elements(&copy, MPI_BYTE, &elems));
    CHECK(MPI_Test_cancelled(&copy, &canc));
    EXPECT_INT(count, 7);
    EXPECT_INT(elems, 7);
    EXPECT_INT(canc, 1);
}

/* Statuses that a completion must overwrite with the empty one. */
static void scribble(MPI_Status *st, int n)
{
    for (int i = 0; i < n; i++) {
        memset(&st[i], 0x5a, sizeof st[i]);
        st[i].MPI_ERROR = MPI_SUCCESS;
    }
}

static void null_requests(void)
{
    MPI_Request q = MPI_REQUEST_NULL, qs[NR];
    MPI_Status st, sts[NR];
    int flag = -1, idx = -2, out = -2, idxs[NR];
    for (int i = 0; i < NR; i++)
        qs[i] = MPI_REQUEST_NULL;
    scribble(&st, 1);
    CHECK(MPI_Wait(&q, &st));
    expect_empty(&st, "MPI_Wait(null)");
    scribble(&st, 1);
    CHECK(MPI_Test(&q, &flag, &st));
    EXPECT_INT(flag, 1);
    expect_empty(&st, "MPI_Test(null)");
    scribble(&st, 1);
    flag = -1;
    CHECK(MPI_Request_get_status(q, &flag, &st));
    EXPECT_INT(flag, 1);
    expect_empty(&st, "MPI_Request_get_status(null)");
    scribble(&st, 1);
    CHECK(MPI_Waitany(NR, qs, &idx, &st));
    EXPECT_INT(idx, MPI_UNDEFINED);
    expect_empty(&st, "MPI_Waitany(all null)");
    scribble(&st, 1);
    flag = -1;
    CHECK(MPI_Testany(NR, qs, &idx, &flag, &st));
    EXPECT_INT(idx, MPI_UNDEFINED);
    EXPECT_INT(flag, 1);
    expect_empty(&st, "MPI_Testany(all null)");
    scribble(sts, NR);
    CHECK(MPI_Waitall(NR, qs, sts));
    for (int i = 0; i < NR; i++)
        expect_empty(&sts[i], "MPI_Waitall(all null)");
    scribble(sts, NR);
    flag = -1;
    CHECK(MPI_Testall(NR, qs, &flag, sts));
    EXPECT_INT(flag, 1);
    for (int i = 0; i < NR; i++)
        expect_empty(&sts[i], "MPI_Testall(all null)");
    CHECK(MPI_Waitsome(NR, qs, &out, idxs, sts));
    EXPECT_INT(out, MPI_UNDEFINED);
    out = -2;
    CHECK(MPI_Testsome(NR, qs, &out, idxs, sts));
    EXPECT_INT(out, MPI_UNDEFINED);
    CHECK(MPI_Waitall(0, qs, MPI_STATUSES_IGNORE));
    CHECK(MPI_Waitany(NR, qs, &idx, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 60);
    statuses();
    null_requests();
    MPI_Finalize();
    return mc_done("mpi_py_status");
}
