/* win.c — MPI's window life cycle over rmp's windows (the operations and their
 * synchronization: rma_ops.c, rma_sync.c), the queries of a window (shared memory, group),
 * and MPI_Get_address. info carries hints only: any valid one is accepted (an invalid handle
 * raises MPI_ERR_INFO), kept as the window's hints (MPI_Win_get_info), and none changes
 * anything. Creation errors are raised on the communicator's handler, the others on the
 * window's (on MPI_COMM_WORLD's for an invalid window). */
#include <string.h>

#include "rmpi.h"

/* A window just made: its MPI_WIN_* attributes (the model as rmp reports it) and its hints. */
static void born(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor,
                 MPI_Info info)
{
    int model = MPI_WIN_UNIFIED; /* rmp's memory is coherent wherever it does not say */
    (void)rmp_win_get_model(win, &model);
    rmpi_win_born(win, base, size, disp_unit, flavor, model);
    (void)rmp_win_set_info(win, info); /* hints: losing them (no memory) is harmless */
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win)
{
    if (rmpi_info_check(info) != MPI_SUCCESS)
        return rmpi_raise_code(comm, MPI_ERR_INFO, __func__);
    int rc = rmp_win_create(base, size, disp_unit, comm, win);
    if (rc == RMP_SUCCESS)
        born(*win, base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, info);
    return rmpi_raise(comm, rc, __func__);
}

/* baseptr is a void ** passed as void *, as in MPI_Alloc_mem. */
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                     MPI_Win *win)
{
    if (rmpi_info_check(info) != MPI_SUCCESS)
        return rmpi_raise_code(comm, MPI_ERR_INFO, __func__);
    void *p = NULL;
    int rc = baseptr ? rmp_win_allocate(size, disp_unit, comm, &p, win) : RMP_ERR_ARG;
    if (rc == RMP_SUCCESS) {
        memcpy(baseptr, &p, sizeof p);
        born(*win, p, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, info);
    }
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                            void *baseptr, MPI_Win *win)
{
    if (rmpi_info_check(info) != MPI_SUCCESS)
        return rmpi_raise_code(comm, MPI_ERR_INFO, __func__);
    void *p = NULL;
    int rc = baseptr ? rmp_win_allocate_shared(size, disp_unit, comm, &p, win) : RMP_ERR_ARG;
    if (rc == RMP_SUCCESS) {
        memcpy(baseptr, &p, sizeof p);
        born(*win, p, size, disp_unit, MPI_WIN_FLAVOR_SHARED, info);
    }
    return rmpi_raise(comm, rc, __func__);
}

/* baseptr: a void ** passed as void *, as in MPI_Win_allocate. */
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    void *p = NULL;
    int rc = baseptr ? rmp_win_shared_query(win, rank, size, disp_unit, &p) : RMP_ERR_ARG;
    if (rc == RMP_SUCCESS)
        memcpy(baseptr, &p, sizeof p);
    return rmpi_raise_win(win, rc, __func__);
}

int MPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    return rmpi_raise_win(win, rmp_win_get_group(win, group), __func__);
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    if (rmpi_info_check(info) != MPI_SUCCESS)
        return rmpi_raise_code(comm, MPI_ERR_INFO, __func__);
    int rc = rmp_win_create_dynamic(comm, win);
    if (rc == RMP_SUCCESS)
        born(*win, NULL, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, info);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    return rmpi_raise_win(win, rmp_win_attach(win, base, size), __func__);
}

int MPI_Win_detach(MPI_Win win, const void *base)
{
    return rmpi_raise_win(win, rmp_win_detach(win, base), __func__);
}

/* The delete callbacks of the window's attributes run first; one that fails makes the free
 * fail with its error, the window still valid. */
int MPI_Win_free(MPI_Win *win)
{
    MPI_Win old = win ? *win : MPI_WIN_NULL;
    intptr_t b;
    ptrdiff_t sz;
    int du;
    if (rmp_win_get_peer(old, 0, &b, &sz, &du) == RMP_SUCCESS) {
        int code = rmpi_attr_delete_all(RMPI_KIND_WIN, old);
        if (code != MPI_SUCCESS)
            return rmpi_raise_win_code(old, code, __func__);
    }
    int rc = rmp_win_free(win);
    if (rc != RMP_SUCCESS)
        return rmpi_raise_win(old, rc, __func__);
    rmpi_win_errh_forget(old); /* the handle may be reused: its next owner starts fatal */
    return MPI_SUCCESS;
}

int MPI_Get_address(const void *location, MPI_Aint *address)
{
    if (!address)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    *address = (MPI_Aint)(intptr_t)location;
    return MPI_SUCCESS;
}
