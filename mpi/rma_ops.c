/* rma_ops.c — MPI's one-sided operations (MPI-3.1 11.3) over rmp's: each call is the rmp call
 * with MPI's handles (which are rmp's) and MPI_Aint displacements (ptrdiff_t, the type rmp
 * takes), its error raised on the window's handler. rmp checks the epoch, the target range,
 * the op and the types, so that the native API and MPI refuse the same things. */
#include "rmpi.h"

int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count,
            MPI_Datatype target_datatype, MPI_Win win)
{
    return rmpi_raise_win(win,
                          rmp_put(origin_addr, origin_count, origin_datatype, target_rank,
                                  target_disp, target_count, target_datatype, win),
                          __func__);
}

int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return rmpi_raise_win(win,
                          rmp_get(origin_addr, origin_count, origin_datatype, target_rank,
                                  target_disp, target_count, target_datatype, win),
                          __func__);
}

int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return rmpi_raise_win(win,
                          rmp_accumulate(origin_addr, origin_count, origin_datatype,
                                         target_rank, target_disp, target_count,
                                         target_datatype, op, win),
                          __func__);
}

int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       void *result_addr, int result_count, MPI_Datatype result_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return rmpi_raise_win(win,
                          rmp_get_accumulate(origin_addr, origin_count, origin_datatype,
                                             result_addr, result_count, result_datatype,
                                             target_rank, target_disp, target_count,
                                             target_datatype, op, win),
                          __func__);
}

int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    return rmpi_raise_win(win,
                          rmp_fetch_and_op(origin_addr, result_addr, datatype, target_rank,
                                           target_disp, op, win),
                          __func__);
}

int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                         MPI_Win win)
{
    return rmpi_raise_win(win,
                          rmp_compare_and_swap(origin_addr, compare_addr, result_addr, datatype,
                                               target_rank, target_disp, win),
                          __func__);
}

int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return rmpi_raise_win(win,
                          rmp_rput(origin_addr, origin_count, origin_datatype, target_rank,
                                   target_disp, target_count, target_datatype, win, request),
                          __func__);
}

int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request *request)
{
    return rmpi_raise_win(win,
                          rmp_rget(origin_addr, origin_count, origin_datatype, target_rank,
                                   target_disp, target_count, target_datatype, win, request),
                          __func__);
}

int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return rmpi_raise_win(win,
                          rmp_raccumulate(origin_addr, origin_count, origin_datatype,
                                          target_rank, target_disp, target_count,
                                          target_datatype, op, win, request),
                          __func__);
}

int MPI_Rget_accumulate(const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, void *result_addr, int result_count,
                        MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                        MPI_Request *request)
{
    return rmpi_raise_win(win,
                          rmp_rget_accumulate(origin_addr, origin_count, origin_datatype,
                                              result_addr, result_count, result_datatype,
                                              target_rank, target_disp, target_count,
                                              target_datatype, op, win, request),
                          __func__);
}
