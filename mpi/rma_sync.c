/* rma_sync.c — MPI's RMA synchronization (MPI-3.1 11.5) over rmp's: fence, general active
 * target (post/start/complete/wait/test), passive target (lock/unlock, lock_all, flush*) and
 * Win_sync. The layer checks what MPI names and rmp does not: the assert bits each call
 * accepts (MPI_ERR_ASSERT) and the lock type's value (MPI_ERR_LOCKTYPE), before rmp sees the
 * call, so a bad argument changes no epoch. MPI_PROC_NULL in lock, unlock, flush and
 * flush_local is a no-op once the window is known valid, as MPICH treats it (the standard
 * allows MPI_PROC_NULL as a target of every RMA call). Errors go to the window's handler. */
#include "rmpi.h"

enum {
    FENCE_MODES = MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED,
    POST_MODES = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT,
    START_MODES = MPI_MODE_NOCHECK,
    LOCK_MODES = MPI_MODE_NOCHECK,
};

/* MPI_ERR_WIN for an invalid window (checked first, as every call does), MPI_ERR_ASSERT for a
 * bit outside `allowed`, else MPI_SUCCESS. */
static int check_assert(MPI_Win win, int assert, int allowed)
{
    if (!rmpi_win_valid(win))
        return MPI_ERR_WIN;
    return (assert & ~allowed) ? MPI_ERR_ASSERT : MPI_SUCCESS;
}

int MPI_Win_fence(int assert, MPI_Win win)
{
    int code = check_assert(win, assert, FENCE_MODES);
    if (code != MPI_SUCCESS)
        return rmpi_raise_win_code(win, code, __func__);
    return rmpi_raise_win(win, rmp_win_fence(assert, win), __func__);
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    int code = check_assert(win, assert, POST_MODES);
    if (code != MPI_SUCCESS)
        return rmpi_raise_win_code(win, code, __func__);
    return rmpi_raise_win(win, rmp_win_post(group, assert, win), __func__);
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    int code = check_assert(win, assert, START_MODES);
    if (code != MPI_SUCCESS)
        return rmpi_raise_win_code(win, code, __func__);
    return rmpi_raise_win(win, rmp_win_start(group, assert, win), __func__);
}

int MPI_Win_complete(MPI_Win win)
{
    return rmpi_raise_win(win, rmp_win_complete(win), __func__);
}

int MPI_Win_wait(MPI_Win win)
{
    return rmpi_raise_win(win, rmp_win_wait(win), __func__);
}

int MPI_Win_test(MPI_Win win, int *flag)
{
    return rmpi_raise_win(win, rmp_win_test(win, flag), __func__);
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    int code = check_assert(win, assert, LOCK_MODES);
    if (code == MPI_SUCCESS && lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        code = MPI_ERR_LOCKTYPE;
    if (code != MPI_SUCCESS)
        return rmpi_raise_win_code(win, code, __func__);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return rmpi_raise_win(win, rmp_win_lock(lock_type, rank, assert, win), __func__);
}

/* The passive-target calls that name one target: MPI_PROC_NULL does nothing. */
static int one_target(int (*fn)(int, rmp_win_t), int rank, MPI_Win win, const char *call)
{
    if (rank == MPI_PROC_NULL)
        return rmpi_win_valid(win) ? MPI_SUCCESS : rmpi_raise_win_code(win, MPI_ERR_WIN, call);
    return rmpi_raise_win(win, fn(rank, win), call);
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
    return one_target(rmp_win_unlock, rank, win, __func__);
}

int MPI_Win_flush(int rank, MPI_Win win)
{
    return one_target(rmp_win_flush, rank, win, __func__);
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
    return one_target(rmp_win_flush_local, rank, win, __func__);
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
    int code = check_assert(win, assert, LOCK_MODES);
    if (code != MPI_SUCCESS)
        return rmpi_raise_win_code(win, code, __func__);
    return rmpi_raise_win(win, rmp_win_lock_all(assert, win), __func__);
}

int MPI_Win_unlock_all(MPI_Win win)
{
    return rmpi_raise_win(win, rmp_win_unlock_all(win), __func__);
}

int MPI_Win_flush_all(MPI_Win win)
{
    return rmpi_raise_win(win, rmp_win_flush_all(win), __func__);
}

int MPI_Win_flush_local_all(MPI_Win win)
{
    return rmpi_raise_win(win, rmp_win_flush_local_all(win), __func__);
}

int MPI_Win_sync(MPI_Win win)
{
    return rmpi_raise_win(win, rmp_win_sync(win), __func__);
}
