/* mpi_rma_errors.c — the errors of one-sided calls through mpi.h, raised on the window's
 * handler (MPI_ERRORS_RETURN, or a handler of the program's that records what it saw), each
 * checked by class: MPI_ERR_RMA_RANGE (and the target untouched), MPI_ERR_RMA_SYNC (no epoch,
 * a request form in an active-target epoch, double lock, unlock without lock, complete without
 * start), MPI_ERR_LOCKTYPE,
 * MPI_ERR_ASSERT, MPI_ERR_OP (a user op), MPI_ERR_TYPE (compare_and_swap of a double),
 * MPI_ERR_WIN (a freed window, on MPI_COMM_WORLD's handler). After each error the window
 * still works. With argument "fatal": the default handler ends the job on rank 0's put
 * outside an epoch. "mpi_rma_errors: rank R OK" at the end. */
#include "mpicheck.h"

#define M 8

static int rank, size, right;

#define EXPECT_CLASS(call, cls)                                                                \
    do {                                                                                       \
        int rc_ = (call), c_ = -1;                                                             \
        MPI_Error_class(rc_, &c_);                                                             \
        if (c_ != (cls))                                                                       \
            FAIL("%s:%d: %s gave class %d (code %d), expected %s", __FILE__, __LINE__, #call,  \
                 c_, rc_, #cls);                                                               \
    } while (0)

static int seen_code, seen_calls;
static MPI_Win seen_win;

static void recorder(MPI_Win *win, int *code, ...)
{
    seen_win = *win;
    seen_code = *code;
    seen_calls++;
}

static void userop(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mc_rank = rank;
    right = (rank + 1) % size;
    if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
        /* The default handlers: rank 0's put outside an epoch ends the job. */
        int *m, x = 1;
        MPI_Win w;
        MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &m, &w);
        if (rank == 0)
            MPI_Put(&x, 1, MPI_INT, right, 0, 1, MPI_INT, w);
        MPI_Barrier(MPI_COMM_WORLD);
        FAIL("the job outlived MPI_ERRORS_ARE_FATAL");
        return 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int *mem;
    MPI_Win win;
    CHECK(MPI_Win_allocate(M * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                           &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (int i = 0; i < M; i++)
        mem[i] = i;
    CHECK(MPI_Win_unlock(rank, win));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int src[2 * M] = {0}, res[2 * M], one = 1;

    /* No epoch at all. */
    EXPECT_CLASS(MPI_Put(src, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Get(res, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Fetch_and_op(&one, res, MPI_INT, right, 0, MPI_SUM, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC);

    /* Bad arguments of the synchronization calls: nothing opens. */
    EXPECT_CLASS(MPI_Win_lock(12345, right, 0, win), MPI_ERR_LOCKTYPE);
    EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, right, MPI_MODE_NOPUT, win), MPI_ERR_ASSERT);
    EXPECT_CLASS(MPI_Win_lock_all(MPI_MODE_NOSUCCEED, win), MPI_ERR_ASSERT);
    EXPECT_CLASS(MPI_Win_fence(MPI_MODE_NOCHECK, win), MPI_ERR_ASSERT);
    EXPECT_CLASS(MPI_Win_fence(1 << 20, win), MPI_ERR_ASSERT);
    EXPECT_CLASS(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);

    /* Passive target: range, double lock, user op; the window still works after each. */
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
    for (int i = 0; i < 2 * M; i++)
        src[i] = 1000 + i;
    EXPECT_CLASS(MPI_Put(src, 2, MPI_INT, right, M - 1, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Put(src, M + 1, MPI_INT, right, 0, M + 1, MPI_INT, win),
                 MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Put(src, 1, MPI_INT, right, -1, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Get(res, 1, MPI_INT, right, M, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Accumulate(src, 2, MPI_INT, right, M - 1, 2, MPI_INT, MPI_SUM, win),
                 MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Compare_and_swap(src, src, res, MPI_INT, right, M, win),
                 MPI_ERR_RMA_RANGE);
    double d = 1.0, dres; /* compare_and_swap is for integer, byte and bool types */
    EXPECT_CLASS(MPI_Compare_and_swap(&d, &d, &dres, MPI_DOUBLE, right, 0, win), MPI_ERR_TYPE);
    MPI_Datatype far; /* one int, but 2*M ints from its start: the target layout is checked */
    int bl = 1, dl = 2 * M;
    CHECK(MPI_Type_indexed(1, &bl, &dl, MPI_INT, &far));
    CHECK(MPI_Type_commit(&far));
    EXPECT_CLASS(MPI_Put(src, 1, MPI_INT, right, 0, 1, far, win), MPI_ERR_RMA_RANGE);
    CHECK(MPI_Type_free(&far));
    MPI_Op op;
    CHECK(MPI_Op_create(userop, 1, &op));
    EXPECT_CLASS(MPI_Accumulate(src, 1, MPI_INT, right, 0, 1, MPI_INT, op, win), MPI_ERR_OP);
    CHECK(MPI_Op_free(&op));
    CHECK(MPI_Put(src, 1, MPI_INT, right, M - 1, 1, MPI_INT, win)); /* the last one fits */
    CHECK(MPI_Win_unlock(right, win));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < M; i++) {
        int want = i == M - 1 ? 1000 : i;
        if (mem[i] != want)
            FAIL("window[%d] = %d after the refused accesses, expected %d", i, mem[i], want);
    }
    CHECK(MPI_Win_unlock(rank, win));

    /* Request forms need passive target: not inside a fence epoch. */
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK(MPI_Win_fence(0, win));
    EXPECT_CLASS(MPI_Rput(src, 1, MPI_INT, right, 0, 1, MPI_INT, win, &req), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Rget(res, 1, MPI_INT, right, 0, 1, MPI_INT, win, &req), MPI_ERR_RMA_SYNC);
    CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    /* After NOSUCCEED the epoch is closed. */
    EXPECT_CLASS(MPI_Put(src, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);

    /* (Win_shared_query of a create window is no error since MPI-4: mpi_rma_apps.) */
    MPI_Win cw;
    int cbuf[M];
    CHECK(MPI_Win_create(cbuf, sizeof cbuf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cw));
    CHECK(MPI_Win_set_errhandler(cw, MPI_ERRORS_RETURN));

    /* A handler of the program's gets the window and the code. */
    MPI_Errhandler eh;
    CHECK(MPI_Win_create_errhandler(recorder, &eh));
    CHECK(MPI_Win_set_errhandler(cw, eh));
    CHECK(MPI_Errhandler_free(&eh));
    int rc = MPI_Win_lock(0, rank, 0, cw);
    int cls = -1;
    MPI_Error_class(seen_code, &cls);
    if (seen_calls != 1 || seen_win != cw || cls != MPI_ERR_LOCKTYPE || rc != seen_code)
        FAIL("window handler: %d calls, win %d (expected %d), class %d, returned %d", seen_calls,
             (int)seen_win, (int)cw, cls, rc);
    CHECK(MPI_Win_free(&cw));
    CHECK(MPI_Win_free(&win));
    /* A freed window: MPI_ERR_WIN on MPI_COMM_WORLD's handler (ERRORS_RETURN here). */
    EXPECT_CLASS(MPI_Win_fence(0, win), MPI_ERR_WIN);
    EXPECT_CLASS(MPI_Put(src, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_WIN);
    MPI_Finalize();
    return mc_done("mpi_rma_errors");
}
