/* mpi_rma_ops.c — every one-sided operation under every synchronization mode on every window
 * flavor, through mpi.h. Each rank works on its right neighbour's window (rank + 1 mod n) and
 * checks, after the epoch, what its left neighbour did to its own window and what its own
 * gets and fetches returned; the accumulates also run from every rank onto rank 0 at once, so
 * that element-wise atomicity among origins is checked with exact sums. Flavors: create,
 * allocate, allocate_shared, dynamic (addresses exchanged with Allgather); synchronization:
 * fence, post/start/complete/wait, lock exclusive, lock shared, lock_all + flush. The request
 * forms run in the passive-target modes only (MPI requires it). One "FAIL" line per wrong
 * value, "mpi_rma_ops: rank R OK" at the end. */
#include <stdbool.h>

#include "mpicheck.h"

#define N 16 /* ints in each rank's window */

enum { F_CREATE, F_ALLOCATE, F_SHARED, F_DYNAMIC, NFLAVORS };
enum { S_FENCE, S_PSCW, S_LOCK_EXCL, S_LOCK_SHARED, S_LOCK_ALL, NSYNCS };
static const char *flavor_name[] = {"create", "allocate", "shared", "dynamic"};
static const char *sync_name[] = {"fence", "pscw", "lock_exclusive", "lock_shared", "lock_all"};

static int rank, size, left, right;

typedef struct tw {
    MPI_Win win;
    int flavor;
    int *mem;          /* my window's N ints */
    MPI_Aint *addr;    /* dynamic: every rank's attached address */
    MPI_Group gleft, gright;
} tw_t;

/* The displacement of int i at target t. */
static MPI_Aint disp(const tw_t *w, int t, int i)
{
    if (w->flavor == F_DYNAMIC)
        return w->addr[t] + (MPI_Aint)(i * (int)sizeof(int));
    return i;
}

static void win_make(tw_t *w, int flavor)
{
    w->flavor = flavor;
    w->addr = NULL;
    switch (flavor) {
    case F_CREATE:
        CHECK(MPI_Alloc_mem(N * sizeof(int), MPI_INFO_NULL, &w->mem));
        CHECK(MPI_Win_create(w->mem, N * sizeof(int), sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &w->win));
        break;
    case F_ALLOCATE:
        CHECK(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &w->mem, &w->win));
        break;
    case F_SHARED:
        CHECK(MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), MPI_INFO_NULL,
                                      MPI_COMM_WORLD, &w->mem, &w->win));
        break;
    case F_DYNAMIC: {
        w->mem = malloc(N * sizeof(int));
        w->addr = malloc(size * sizeof(MPI_Aint));
        CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win));
        CHECK(MPI_Win_attach(w->win, w->mem, N * sizeof(int)));
        MPI_Aint a;
        CHECK(MPI_Get_address(w->mem, &a));
        CHECK(MPI_Allgather(&a, 1, MPI_AINT, w->addr, 1, MPI_AINT, MPI_COMM_WORLD));
        break;
    }
    }
    CHECK(MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN));
    int *flavor_attr, flag = 0;
    CHECK(MPI_Win_get_attr(w->win, MPI_WIN_CREATE_FLAVOR, &flavor_attr, &flag));
    static const int want[] = {MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE,
                               MPI_WIN_FLAVOR_SHARED, MPI_WIN_FLAVOR_DYNAMIC};
    if (!flag || *flavor_attr != want[flavor])
        FAIL("%s: MPI_WIN_CREATE_FLAVOR flag %d value %d", flavor_name[flavor], flag,
             flag ? *flavor_attr : -1);
    int *model;
    CHECK(MPI_Win_get_attr(w->win, MPI_WIN_MODEL, &model, &flag));
    if (!flag || *model != MPI_WIN_UNIFIED)
        FAIL("%s: MPI_WIN_MODEL flag %d value %d", flavor_name[flavor], flag, flag ? *model : -1);
    MPI_Group g;
    CHECK(MPI_Win_get_group(w->win, &g));
    int gs = -1, cmp = -1;
    MPI_Group wg;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK(MPI_Group_size(g, &gs));
    CHECK(MPI_Group_compare(g, wg, &cmp));
    EXPECT_INT(gs, size);
    EXPECT_INT(cmp, MPI_IDENT);
    CHECK(MPI_Group_incl(wg, 1, &left, &w->gleft));
    CHECK(MPI_Group_incl(wg, 1, &right, &w->gright));
    CHECK(MPI_Group_free(&g));
    CHECK(MPI_Group_free(&wg));
}

static void win_drop(tw_t *w)
{
    CHECK(MPI_Group_free(&w->gleft));
    CHECK(MPI_Group_free(&w->gright));
    if (w->flavor == F_DYNAMIC)
        CHECK(MPI_Win_detach(w->win, w->mem));
    CHECK(MPI_Win_free(&w->win));
    if (w->flavor == F_CREATE)
        CHECK(MPI_Free_mem(w->mem));
    if (w->flavor == F_DYNAMIC) {
        free(w->mem);
        free(w->addr);
    }
}

/* My window holds rank*1000 + i, visible to every origin when this returns. */
static void win_init(tw_t *w)
{
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    for (int i = 0; i < N; i++)
        w->mem[i] = rank * 1000 + i;
    CHECK(MPI_Win_unlock(rank, w->win));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

/* An access epoch to `target` (and, for the active modes, the matching exposure epoch to my
 * own origin), everyone-to-target: target is right, or 0 for the all-to-one accumulates. */
static void epoch_open(tw_t *w, int sync, int target)
{
    switch (sync) {
    case S_FENCE:
        CHECK(MPI_Win_fence(0, w->win));
        break;
    case S_PSCW: /* only ring exchanges use it */
        CHECK(MPI_Win_post(w->gleft, 0, w->win));
        CHECK(MPI_Win_start(w->gright, 0, w->win));
        break;
    case S_LOCK_EXCL:
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, w->win));
        break;
    case S_LOCK_SHARED:
        CHECK(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, w->win));
        break;
    case S_LOCK_ALL:
        CHECK(MPI_Win_lock_all(0, w->win));
        break;
    }
}

static void epoch_close(tw_t *w, int sync, int target)
{
    switch (sync) {
    case S_FENCE:
        CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
        break;
    case S_PSCW:
        CHECK(MPI_Win_complete(w->win));
        CHECK(MPI_Win_wait(w->win));
        break;
    case S_LOCK_EXCL:
    case S_LOCK_SHARED:
        CHECK(MPI_Win_unlock(target, w->win));
        break;
    case S_LOCK_ALL:
        CHECK(MPI_Win_flush(target, w->win)); /* complete at the target before unlock_all */
        CHECK(MPI_Win_unlock_all(w->win));
        break;
    }
    /* Passive target: the targets learn that the origins are done through the barrier. */
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

/* My window's values, read under a lock of my own window (MPI's rule for local loads of
 * memory that others update). */
static void read_mine(tw_t *w, int *out)
{
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win));
    memcpy(out, w->mem, N * sizeof(int));
    CHECK(MPI_Win_unlock(rank, w->win));
}

static void expect_mine(tw_t *w, const int *want, const char *what, int sync)
{
    int got[N];
    read_mine(w, got);
    for (int i = 0; i < N; i++)
        if (got[i] != want[i]) {
            FAIL("%s/%s/%s: my window[%d] = %d, expected %d", flavor_name[w->flavor],
                 sync_name[sync], what, i, got[i], want[i]);
            return;
        }
}

static void expect_buf(tw_t *w, const int *got, const int *want, int n, const char *what,
                       int sync)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            FAIL("%s/%s/%s: result[%d] = %d, expected %d", flavor_name[w->flavor],
                 sync_name[sync], what, i, got[i], want[i]);
            return;
        }
}

static void test_put_get(tw_t *w, int sync, bool req)
{
    int src[N], want[N], dst[N];
    const char *pname = req ? "rput" : "put", *gname = req ? "rget" : "get";
    win_init(w);
    for (int i = 0; i < N; i++)
        src[i] = 100000 + rank * 100 + i;
    epoch_open(w, sync, right);
    if (req) {
        MPI_Request r;
        CHECK(MPI_Rput(src, N, MPI_INT, right, disp(w, right, 0), N, MPI_INT, w->win, &r));
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        CHECK(MPI_Put(src, N, MPI_INT, right, disp(w, right, 0), N, MPI_INT, w->win));
    }
    epoch_close(w, sync, right);
    for (int i = 0; i < N; i++)
        want[i] = 100000 + left * 100 + i;
    expect_mine(w, want, pname, sync);

    win_init(w);
    memset(dst, 0xff, sizeof dst);
    epoch_open(w, sync, right);
    if (req) {
        MPI_Request r;
        CHECK(MPI_Rget(dst, N - 2, MPI_INT, right, disp(w, right, 2), N - 2, MPI_INT, w->win,
                       &r));
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        CHECK(MPI_Get(dst, N - 2, MPI_INT, right, disp(w, right, 2), N - 2, MPI_INT, w->win));
    }
    epoch_close(w, sync, right);
    for (int i = 0; i < N - 2; i++)
        want[i] = right * 1000 + 2 + i;
    want[N - 2] = want[N - 1] = -1;
    expect_buf(w, dst, want, N, gname, sync);
}

static void test_acc(tw_t *w, int sync, bool req)
{
    int src[N], want[N], res[N];
    const char *aname = req ? "raccumulate" : "accumulate";
    const char *gname = req ? "rget_accumulate" : "get_accumulate";
    win_init(w);
    for (int i = 0; i < N; i++)
        src[i] = rank + i;
    epoch_open(w, sync, right);
    if (req) {
        MPI_Request r;
        CHECK(MPI_Raccumulate(src, N, MPI_INT, right, disp(w, right, 0), N, MPI_INT, MPI_SUM,
                              w->win, &r));
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        CHECK(MPI_Accumulate(src, N, MPI_INT, right, disp(w, right, 0), N, MPI_INT, MPI_SUM,
                             w->win));
    }
    epoch_close(w, sync, right);
    for (int i = 0; i < N; i++)
        want[i] = rank * 1000 + i + left + i;
    expect_mine(w, want, aname, sync);

    /* get_accumulate: the target's old values come back, it gets max(old, src). */
    win_init(w);
    for (int i = 0; i < N; i++)
        src[i] = (i % 2) ? 999999 : -1;
    epoch_open(w, sync, right);
    if (req) {
        MPI_Request r;
        CHECK(MPI_Rget_accumulate(src, N, MPI_INT, res, N, MPI_INT, right, disp(w, right, 0), N,
                                  MPI_INT, MPI_MAX, w->win, &r));
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        CHECK(MPI_Get_accumulate(src, N, MPI_INT, res, N, MPI_INT, right, disp(w, right, 0), N,
                                 MPI_INT, MPI_MAX, w->win));
    }
    epoch_close(w, sync, right);
    for (int i = 0; i < N; i++)
        want[i] = right * 1000 + i;
    expect_buf(w, res, want, N, gname, sync);
    for (int i = 0; i < N; i++)
        want[i] = (i % 2) ? 999999 : rank * 1000 + i;
    expect_mine(w, want, gname, sync);
}

/* Every rank adds to rank 0's window at once (not PSCW: its groups here are the ring). */
static void test_acc_all_to_one(tw_t *w, int sync)
{
    if (sync == S_PSCW)
        return;
    int src[N], want[N];
    win_init(w);
    for (int i = 0; i < N; i++)
        src[i] = rank + 1;
    for (int rep = 0; rep < 4; rep++) {
        epoch_open(w, sync, 0);
        CHECK(MPI_Accumulate(src, N, MPI_INT, 0, disp(w, 0, 0), N, MPI_INT, MPI_SUM, w->win));
        epoch_close(w, sync, 0);
    }
    if (rank == 0) {
        for (int i = 0; i < N; i++)
            want[i] = i + 4 * size * (size + 1) / 2;
        expect_mine(w, want, "accumulate all to one", sync);
    }
}

static void test_atomics(tw_t *w, int sync)
{
    int one = 1, res = -1, cmp, swap = 7, want[N];
    win_init(w);
    epoch_open(w, sync, right);
    CHECK(MPI_Fetch_and_op(&one, &res, MPI_INT, right, disp(w, right, 0), MPI_SUM, w->win));
    if (sync != S_FENCE && sync != S_PSCW)
        CHECK(MPI_Win_flush(right, w->win)); /* flush inside the epoch, too */
    epoch_close(w, sync, right);
    EXPECT_INT(res, right * 1000);

    int fetched = -1;
    epoch_open(w, sync, right);
    CHECK(MPI_Fetch_and_op(NULL, &fetched, MPI_INT, right, disp(w, right, 0), MPI_NO_OP,
                           w->win));
    epoch_close(w, sync, right);
    EXPECT_INT(fetched, right * 1000 + 1);

    cmp = right * 1000 + 1; /* matches: swapped */
    epoch_open(w, sync, right);
    CHECK(MPI_Compare_and_swap(&swap, &cmp, &res, MPI_INT, right, disp(w, right, 1), w->win));
    epoch_close(w, sync, right);
    EXPECT_INT(res, right * 1000 + 1);
    cmp = 12345; /* does not match: unchanged */
    int swap2 = 8;
    epoch_open(w, sync, right);
    CHECK(MPI_Compare_and_swap(&swap2, &cmp, &res, MPI_INT, right, disp(w, right, 2), w->win));
    epoch_close(w, sync, right);
    EXPECT_INT(res, right * 1000 + 2);
    for (int i = 0; i < N; i++)
        want[i] = rank * 1000 + i;
    want[0] += 1;
    want[1] = 7;
    expect_mine(w, want, "fetch_and_op/compare_and_swap", sync);
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 80);
    rank = mc_rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    for (int f = 0; f < NFLAVORS; f++) {
        tw_t w;
        win_make(&w, f);
        for (int s = 0; s < NSYNCS; s++) {
            bool passive = s == S_LOCK_EXCL || s == S_LOCK_SHARED || s == S_LOCK_ALL;
            test_put_get(&w, s, false);
            test_acc(&w, s, false);
            test_acc_all_to_one(&w, s);
            test_atomics(&w, s);
            if (passive) {
                test_put_get(&w, s, true);
                test_acc(&w, s, true);
            }
        }
        win_drop(&w);
    }
    MPI_Finalize();
    return mc_done("mpi_rma_ops");
}
