/* errhandler.c — the MPI calls that set, get, create and call the error handlers of
 * communicators and windows (and their MPI-1 names); the handlers themselves, and how an error
 * reaches one, are errors.c's. */
#include "rmpi.h"

/* MPI_Comm_set_errhandler and its MPI-1 name (no MPI call calls another: a profiling layer
 * sees each once). */
static int comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler, const char *call)
{
    int size;
    int rc = rmp_comm_size(comm, &size); /* is comm valid? */
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, call);
    return rmpi_raise_code(comm, rmpi_errh_set(RMPI_EH_COMM, comm, errhandler), call);
}

static int comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler, const char *call)
{
    int size;
    int rc = rmp_comm_size(comm, &size);
    if (rc == RMP_SUCCESS && !errhandler)
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, call);
    *errhandler = rmpi_errh_get(RMPI_EH_COMM, comm);
    return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return comm_set_errhandler(comm, errhandler, __func__);
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return comm_get_errhandler(comm, errhandler, __func__);
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
    int rc = rmpi_errh_create(RMPI_EH_COMM, (void (*)(void))comm_errhandler_fn, errhandler);
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

/* The handler runs as if an MPI call on comm had failed with errorcode; MPI_SUCCESS once it
 * returned (MPI_ERRORS_ARE_FATAL ends the job). */
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    int size;
    int rc = rmp_comm_size(comm, &size);
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    if (errorcode != MPI_SUCCESS)
        (void)rmpi_raise_on(RMPI_EH_COMM, comm, errorcode, __func__);
    return MPI_SUCCESS;
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                              MPI_Errhandler *errhandler)
{
    int rc = rmpi_errh_create(RMPI_EH_WIN, (void (*)(void))win_errhandler_fn, errhandler);
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    if (!rmpi_win_valid(win))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_WIN, __func__);
    return rmpi_raise_win_code(win, rmpi_errh_set(RMPI_EH_WIN, win, errhandler), __func__);
}

/* A window with no handler of its own reports MPI_COMM_WORLD's (which takes its errors). */
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    if (!rmpi_win_valid(win))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_WIN, __func__);
    if (!errhandler)
        return rmpi_raise_win_code(win, MPI_ERR_ARG, __func__);
    *errhandler = rmpi_win_has_errh(win) ? rmpi_errh_get(RMPI_EH_WIN, win)
                                         : rmpi_errh_get(RMPI_EH_COMM, MPI_COMM_WORLD);
    return MPI_SUCCESS;
}

int MPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    if (!rmpi_win_valid(win))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_WIN, __func__);
    if (errorcode != MPI_SUCCESS)
        (void)rmpi_raise_win_code(win, errorcode, __func__);
    return MPI_SUCCESS;
}

int MPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    int rc = rmpi_errh_create(RMPI_EH_COMM, (void (*)(void))function, errhandler);
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return comm_set_errhandler(comm, errhandler, __func__);
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return comm_get_errhandler(comm, errhandler, __func__);
}
