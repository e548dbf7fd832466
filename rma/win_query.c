/* win_query.c — what a program may ask a window (MPI-3.1 11.2.6, 11.2.3): a peer's base, size
 * and displacement unit, shared_query's address of a peer's memory mapped here, the flavor,
 * the memory model and the group. Nothing here changes a window. */
#include "rma.h"

int rmp_win_get_peer(rmp_win_t win, int rank, intptr_t *base, ptrdiff_t *size, int *disp_unit)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (rank < 0 || rank >= w->size)
        err = RMP_ERR_RANK;
    else if (!base || !size || !disp_unit)
        err = RMP_ERR_ARG;
    else {
        *base = (intptr_t)w->t[rank].base;
        *size = (ptrdiff_t)w->t[rank].size;
        *disp_unit = w->t[rank].disp_unit;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_win_shared_query(rmp_win_t win, int rank, ptrdiff_t *size, int *disp_unit,
                         void **baseptr)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (rank == RMP_PROC_NULL) { /* the first rank with memory this process maps */
        rank = 0;
        while (rank < w->size - 1 && (w->t[rank].size == 0 || !w->t[rank].mapped))
            rank++;
    }
    if (!size || !disp_unit || !baseptr)
        err = RMP_ERR_ARG;
    else if (rank < 0 || rank >= w->size)
        err = RMP_ERR_RANK;
    else { /* MPI-4: any flavor. Memory this process does not map (a peer's in a created or
            * dynamic window, one on another node) is 0 bytes at NULL */
        const char *mapped = w->t[rank].mapped;
        *size = mapped ? (ptrdiff_t)w->t[rank].size : 0;
        *disp_unit = w->t[rank].disp_unit;
        /* no bytes, no address: MPI names none for a 0-byte segment (PROC_NULL with every size
         * 0: "as if MPI_ALLOC_MEM was called with size 0", which may give NULL); NULL lets no
         * one store through it by mistake (MPICH's win_shared_noncontig_put expects it) */
        *baseptr = *size ? (void *)mapped : NULL;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_win_get_flavor(rmp_win_t win, int *flavor)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (flavor)
        *flavor = w->flavor;
    ctx_unlock(&rmp_ctx);
    return flavor ? RMP_SUCCESS : RMP_ERR_ARG;
}

int rmp_win_get_model(rmp_win_t win, int *model)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (model)
        *model = w->model;
    ctx_unlock(&rmp_ctx);
    return model ? RMP_SUCCESS : RMP_ERR_ARG;
}

int rmp_win_get_group(rmp_win_t win, rmp_group_t *group)
{
    int err = ctx_check();
    if (err)
        return err;
    win_t *w = win_lookup(win);
    if (!w)
        return RMP_ERR_WIN;
    return group ? rmp_comm_group(w->comm, group) : RMP_ERR_ARG;
}
