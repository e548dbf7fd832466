/* comm_info.c — MPI's communicator and window names and hints, and the communicator creations
 * of MPI-3 and 4 (Comm_dup_with_info, Comm_idup(_with_info), Comm_create_group) over rmp's.
 * A new communicator inherits its parent's error handler (MPI-3.1 8.3); an idup's at the
 * call, as its handle exists from then on. (Attribute copying, where another part of the
 * layer adds it to MPI_Comm_dup, is in MPI_Comm_dup_with_info and MPI_Comm_idup below too.) */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "rmpi.h"

/* MPI_COMM_WORLD and MPI_COMM_SELF answer with their MPI names until the program renames
 * them: rmp's own defaults are "RMP_COMM_WORLD" and "RMP_COMM_SELF". */
static atomic_bool world_renamed, self_renamed;

int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    int rc = rmp_comm_set_name(comm, comm_name);
    if (rc == RMP_SUCCESS && comm == MPI_COMM_WORLD)
        atomic_store(&world_renamed, true);
    else if (rc == RMP_SUCCESS && comm == MPI_COMM_SELF)
        atomic_store(&self_renamed, true);
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    int rc = resultlen ? rmp_comm_get_name(comm, comm_name, resultlen) : RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    const char *mpi = comm == MPI_COMM_WORLD && !atomic_load(&world_renamed) ? "MPI_COMM_WORLD"
                      : comm == MPI_COMM_SELF && !atomic_load(&self_renamed) ? "MPI_COMM_SELF"
                                                                             : NULL;
    if (mpi) {
        size_t n = strlen(mpi);
        memcpy(comm_name, mpi, n + 1);
        *resultlen = (int)n;
    }
    return MPI_SUCCESS;
}

int MPI_Win_set_name(MPI_Win win, const char *win_name)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_win_set_name(win, win_name), __func__);
}

int MPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    int rc = resultlen ? rmp_win_get_name(win, win_name, resultlen) : RMP_ERR_ARG;
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    return rmpi_raise(comm, rmp_comm_set_info(comm, info), __func__);
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    return rmpi_raise(comm, rmp_comm_get_info(comm, info_used), __func__);
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    return rmpi_raise_win(win, rmp_win_set_info(win, info), __func__);
}

/* MPI-3.1 11.2.1 gives these two hints defaults, and MPI_Win_get_info reports the hints in
 * use: rmp does what the defaults say (accumulates from one origin to one location apply in
 * order; same op or MPI_NO_OP is atomic), so a window that was not given them says so. */
static const char *const win_hint_defaults[][2] = {
    {"accumulate_ordering", "rar,raw,war,waw"},
    {"accumulate_ops", "same_op_no_op"},
};

int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    int rc = rmp_win_get_info(win, info_used);
    size_t n = sizeof win_hint_defaults / sizeof *win_hint_defaults;
    for (size_t i = 0; rc == RMP_SUCCESS && i < n; i++) {
        int len, flag = 0;
        rc = rmp_info_get_valuelen(*info_used, win_hint_defaults[i][0], &len, &flag);
        if (rc == RMP_SUCCESS && !flag)
            rc = rmp_info_set(*info_used, win_hint_defaults[i][0], win_hint_defaults[i][1]);
    }
    if (rc != RMP_SUCCESS && info_used && *info_used != MPI_INFO_NULL)
        (void)rmp_info_free(info_used); /* no half-filled object on failure */
    return rmpi_raise_win(win, rc, __func__);
}

/* As MPI_Comm_dup: the error handler and the attributes (through their copy callbacks) come
 * along; a copy callback's error undoes the new communicator. */
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    int rc = rmp_comm_dup_with_info(comm, info, newcomm);
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    rmpi_errh_inherit(comm, *newcomm);
    int code = rmpi_attr_copy(RMPI_KIND_COMM, comm, *newcomm);
    if (code != MPI_SUCCESS) {
        rmpi_errh_forget(*newcomm);
        (void)rmp_comm_free(newcomm);
        *newcomm = MPI_COMM_NULL;
    }
    return rmpi_raise_code(comm, code, __func__);
}

/* The handle exists from the call on, so the handler and the attributes are copied then. A
 * copy callback's error first lets the duplication finish (the other members take part in
 * it), then undoes it: the request is then MPI_REQUEST_NULL. rc: the idup's. */
static int idup_finish(MPI_Comm comm, int rc, MPI_Comm *newcomm, MPI_Request *request,
                       const char *call)
{
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, call);
    if (*newcomm == MPI_COMM_NULL) /* failed: the request completes with the error */
        return MPI_SUCCESS;
    rmpi_errh_inherit(comm, *newcomm);
    int code = rmpi_attr_copy(RMPI_KIND_COMM, comm, *newcomm);
    if (code != MPI_SUCCESS) {
        (void)rmp_wait(request, RMP_STATUS_IGNORE);
        rmpi_errh_forget(*newcomm);
        (void)rmp_comm_free(newcomm);
        *newcomm = MPI_COMM_NULL;
        *request = MPI_REQUEST_NULL;
    }
    return rmpi_raise_code(comm, code, call);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup_finish(comm, rmp_comm_idup(comm, newcomm, request), newcomm, request, __func__);
}

/* As MPI_Comm_idup, with info's hints (MPI-4.0). */
int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                            MPI_Request *request)
{
    return idup_finish(comm, rmp_comm_idup_with_info(comm, info, newcomm, request), newcomm,
                       request, __func__);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    int rc = rmp_comm_create_group(comm, group, tag, newcomm);
    if (rc == RMP_SUCCESS && *newcomm != MPI_COMM_NULL)
        rmpi_errh_inherit(comm, *newcomm);
    return rmpi_raise(comm, rc, __func__);
}
