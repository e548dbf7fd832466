/* mpi_rma_dtype.c — one-sided operations with derived datatypes on either side, MPI_PROC_NULL
 * targets and zero counts, through mpi.h, on an allocate window of doubles (and a create window
 * for the strided accumulates). The target layouts are described by the target datatype (read
 * at the origin); every value moved is checked exactly. "mpi_rma_dtype: rank R OK" at the end. */
#include "mpicheck.h"

#define M 64 /* doubles in each window */

static int rank, size, left, right;

static double val(int r, int i)
{
    return r * 1000.0 + i + 0.5;
}

static void init(MPI_Win win, double *mem)
{
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (int i = 0; i < M; i++)
        mem[i] = val(rank, i);
    CHECK(MPI_Win_unlock(rank, win));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

static void snapshot(MPI_Win win, const double *mem, double *out)
{
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    memcpy(out, mem, M * sizeof(double));
    CHECK(MPI_Win_unlock(rank, win));
}

static void expect_arr(const double *got, const double *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            FAIL("%s: [%d] = %g, expected %g", what, i, got[i], want[i]);
            return;
        }
}

/* Put: contiguous origin into a vector at the target (every third element from 1), then a
 * vector origin into an indexed target under a fence epoch. */
static void put_strided(MPI_Win win, double *mem)
{
    MPI_Datatype vec, idx, ovec;
    CHECK(MPI_Type_vector(8, 1, 3, MPI_DOUBLE, &vec));
    CHECK(MPI_Type_commit(&vec));
    double src[M], got[M], want[M];
    for (int i = 0; i < M; i++)
        src[i] = -(rank * 100.0 + i);
    init(win, mem);
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    CHECK(MPI_Put(src, 8, MPI_DOUBLE, right, 1, 1, vec, win));
    CHECK(MPI_Win_unlock(right, win));
    snapshot(win, mem, got);
    for (int i = 0; i < M; i++)
        want[i] = val(rank, i);
    for (int k = 0; k < 8; k++)
        want[1 + 3 * k] = -(left * 100.0 + k);
    expect_arr(got, want, M, "put contiguous -> vector");

    /* origin: 2 blocks of 3 with stride 5; target: blocks of 2, 1, 3 at 40, 50, 55 */
    int bl[] = {2, 1, 3}, dl[] = {40, 50, 55};
    CHECK(MPI_Type_indexed(3, bl, dl, MPI_DOUBLE, &idx));
    CHECK(MPI_Type_commit(&idx));
    CHECK(MPI_Type_vector(2, 3, 5, MPI_DOUBLE, &ovec));
    CHECK(MPI_Type_commit(&ovec));
    init(win, mem);
    CHECK(MPI_Win_fence(0, win));
    CHECK(MPI_Put(src, 1, ovec, right, 0, 1, idx, win));
    CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    snapshot(win, mem, got);
    for (int i = 0; i < M; i++)
        want[i] = val(rank, i);
    const double o[] = {-(left * 100.0), -(left * 100.0 + 1), -(left * 100.0 + 2),
                        -(left * 100.0 + 5), -(left * 100.0 + 6), -(left * 100.0 + 7)};
    int at[] = {40, 41, 50, 55, 56, 57};
    for (int k = 0; k < 6; k++)
        want[at[k]] = o[k];
    expect_arr(got, want, M, "put vector -> indexed");

    /* Get the indexed layout back into a vector origin. */
    init(win, mem);
    double dst[M];
    for (int i = 0; i < M; i++)
        dst[i] = -1;
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    CHECK(MPI_Get(dst, 1, ovec, right, 0, 1, idx, win));
    CHECK(MPI_Win_unlock(right, win));
    for (int i = 0; i < M; i++)
        want[i] = -1;
    int dpos[] = {0, 1, 2, 5, 6, 7};
    for (int k = 0; k < 6; k++)
        want[dpos[k]] = val(right, at[k]);
    expect_arr(dst, want, M, "get indexed -> vector");
    CHECK(MPI_Type_free(&vec));
    CHECK(MPI_Type_free(&idx));
    CHECK(MPI_Type_free(&ovec));
}

/* Accumulate and get_accumulate with a struct of doubles (a single builtin: allowed) and a
 * resized vector, every rank onto rank 0, so the atomicity of each element is checked too. */
static void acc_strided(MPI_Win win, double *mem)
{
    MPI_Datatype vec, rvec, st;
    CHECK(MPI_Type_vector(4, 2, 4, MPI_DOUBLE, &vec)); /* 0,1, 4,5, 8,9, 12,13 */
    CHECK(MPI_Type_create_resized(vec, 0, 16 * sizeof(double), &rvec));
    CHECK(MPI_Type_commit(&rvec));
    int bl[] = {1, 2};
    MPI_Aint dl[] = {0, 3 * sizeof(double)};
    MPI_Datatype tl[] = {MPI_DOUBLE, MPI_DOUBLE};
    CHECK(MPI_Type_create_struct(2, bl, dl, tl, &st)); /* 0, 3, 4 */
    CHECK(MPI_Type_commit(&st));
    double src[M], got[M], want[M];
    for (int i = 0; i < M; i++)
        src[i] = 1.0 + rank;
    init(win, mem);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK(MPI_Accumulate(src, 16, MPI_DOUBLE, 0, 0, 2, rvec, MPI_SUM, win)); /* 2 blocks of 16 */
    CHECK(MPI_Win_unlock(0, win));
    snapshot(win, mem, got);
    if (rank == 0) {
        double add = size * (size + 1) / 2.0;
        for (int i = 0; i < M; i++)
            want[i] = val(0, i) + ((i < 32 && (i % 4) < 2) ? add : 0);
        expect_arr(got, want, M, "accumulate contiguous -> resized vector");
    }

    /* get_accumulate with MPI_REPLACE into a struct target: every rank swaps in its own
     * values at 0, 3, 4 one after the other; each sees what the one before left. */
    init(win, mem);
    double mine[3] = {rank + 0.25, rank + 0.5, rank + 0.75}, old[3];
    for (int r = 0; r < size; r++) {
        if (r == rank) {
            CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            CHECK(MPI_Get_accumulate(mine, 3, MPI_DOUBLE, old, 3, MPI_DOUBLE, 0, 0, 1, st,
                                     MPI_REPLACE, win));
            CHECK(MPI_Win_unlock(0, win));
            double w0[3];
            if (rank == 0) {
                w0[0] = val(0, 0), w0[1] = val(0, 3), w0[2] = val(0, 4);
            } else {
                w0[0] = rank - 1 + 0.25, w0[1] = rank - 1 + 0.5, w0[2] = rank - 1 + 0.75;
            }
            expect_arr(old, w0, 3, "get_accumulate replace struct");
        }
        CHECK(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK(MPI_Type_free(&vec));
    CHECK(MPI_Type_free(&rvec));
    CHECK(MPI_Type_free(&st));
}

/* MPI_PROC_NULL targets and zero counts move nothing and succeed in every epoch kind. */
static void nulls(MPI_Win win, double *mem)
{
    double src[4] = {9, 9, 9, 9}, res[4] = {-2, -2, -2, -2}, got[M], want[M];
    MPI_Request r;
    init(win, mem);
    CHECK(MPI_Win_fence(0, win));
    CHECK(MPI_Put(src, 4, MPI_DOUBLE, MPI_PROC_NULL, 0, 4, MPI_DOUBLE, win));
    CHECK(MPI_Get(res, 4, MPI_DOUBLE, MPI_PROC_NULL, 0, 4, MPI_DOUBLE, win));
    CHECK(MPI_Accumulate(src, 4, MPI_DOUBLE, MPI_PROC_NULL, 0, 4, MPI_DOUBLE, MPI_SUM, win));
    CHECK(MPI_Put(src, 0, MPI_DOUBLE, right, 0, 0, MPI_DOUBLE, win));
    CHECK(MPI_Get(res, 0, MPI_DOUBLE, right, 0, 0, MPI_DOUBLE, win));
    CHECK(MPI_Accumulate(src, 0, MPI_DOUBLE, right, 0, 0, MPI_DOUBLE, MPI_SUM, win));
    CHECK(MPI_Get_accumulate(src, 0, MPI_DOUBLE, res, 0, MPI_DOUBLE, right, 0, 0, MPI_DOUBLE,
                             MPI_SUM, win));
    /* A zero count may name a displacement past the window: nothing is accessed. */
    CHECK(MPI_Put(src, 0, MPI_DOUBLE, right, 10 * M, 0, MPI_DOUBLE, win));
    CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win));
    CHECK(MPI_Win_unlock(MPI_PROC_NULL, win));
    CHECK(MPI_Win_lock_all(0, win));
    CHECK(MPI_Fetch_and_op(src, res, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_SUM, win));
    long lv = 3, lres = -2; /* compare_and_swap takes integer types only */
    CHECK(MPI_Compare_and_swap(&lv, &lv, &lres, MPI_LONG, MPI_PROC_NULL, 0, win));
    EXPECT_INT(lres, -2);
    CHECK(MPI_Rput(src, 4, MPI_DOUBLE, MPI_PROC_NULL, 0, 4, MPI_DOUBLE, win, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Rget(res, 4, MPI_DOUBLE, MPI_PROC_NULL, 0, 4, MPI_DOUBLE, win, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Raccumulate(src, 4, MPI_DOUBLE, MPI_PROC_NULL, 0, 4, MPI_DOUBLE, MPI_SUM, win,
                          &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Rget_accumulate(src, 4, MPI_DOUBLE, res, 4, MPI_DOUBLE, MPI_PROC_NULL, 0, 4,
                              MPI_DOUBLE, MPI_SUM, win, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Rput(src, 0, MPI_DOUBLE, right, 0, 0, MPI_DOUBLE, win, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Win_flush(MPI_PROC_NULL, win));
    CHECK(MPI_Win_flush_local(MPI_PROC_NULL, win));
    CHECK(MPI_Win_flush_all(win));
    CHECK(MPI_Win_flush_local_all(win));
    CHECK(MPI_Win_unlock_all(win));
    snapshot(win, mem, got);
    for (int i = 0; i < M; i++)
        want[i] = val(rank, i);
    expect_arr(got, want, M, "window after MPI_PROC_NULL and zero counts");
    const double untouched[4] = {-2, -2, -2, -2};
    expect_arr(res, untouched, 4, "results of MPI_PROC_NULL and zero counts");
}

/* Types on a window with disp_unit 1 made by MPI_Win_create over a struct array: a put of
 * one field of every element (an hvector at the target). */
static void create_bytes(void)
{
    typedef struct {
        int id;
        double x;
    } elem_t;
    elem_t arr[10];
    for (int i = 0; i < 10; i++)
        arr[i] = (elem_t){rank * 10 + i, -1.0};
    MPI_Win win;
    CHECK(MPI_Win_create(arr, sizeof arr, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Datatype field;
    CHECK(MPI_Type_create_hvector(10, 1, sizeof(elem_t), MPI_DOUBLE, &field));
    CHECK(MPI_Type_commit(&field));
    double xs[10];
    for (int i = 0; i < 10; i++)
        xs[i] = rank + i / 10.0;
    CHECK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    CHECK(MPI_Put(xs, 10, MPI_DOUBLE, right, offsetof(elem_t, x), 1, field, win));
    CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE, win));
    for (int i = 0; i < 10; i++) {
        if (arr[i].id != rank * 10 + i || arr[i].x != left + i / 10.0) {
            FAIL("create/bytes: elem %d = {%d, %g}, expected {%d, %g}", i, arr[i].id, arr[i].x,
                 rank * 10 + i, left + i / 10.0);
            break;
        }
    }
    CHECK(MPI_Type_free(&field));
    CHECK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 80);
    rank = mc_rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    double *mem;
    MPI_Win win;
    CHECK(MPI_Win_allocate(M * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                           &mem, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    put_strided(win, mem);
    acc_strided(win, mem);
    nulls(win, mem);
    CHECK(MPI_Win_free(&win));
    create_bytes();
    MPI_Finalize();
    return mc_done("mpi_rma_dtype");
}
