/* errors.c — MPI's error model over rmp's codes: the error codes and classes, the strings,
 * and the error handler of each communicator (MPI_ERRORS_ARE_FATAL unless the program chose
 * MPI_ERRORS_RETURN). The handler table is the MPI layer's only state. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmpi.h"

/* Codes for rmp errors that have no MPI class of their own: RMPI_CODE_BASE - rmp_err, above
 * MPI_ERR_LASTCLASS, so that MPI_Error_string keeps rmp's precise description. */
enum { RMPI_CODE_BASE = 64 };

/* The MPI class of each rmp error, indexed by -rmp_err. MPI_ERR_OTHER: no class of its own. */
static const int rmpi_class_of[-RMP_ERR_LAST] = {
    [0] = MPI_SUCCESS,
    [-RMP_ERR_ARG] = MPI_ERR_ARG,
    [-RMP_ERR_COMM] = MPI_ERR_COMM,
    [-RMP_ERR_RANK] = MPI_ERR_RANK,
    [-RMP_ERR_TAG] = MPI_ERR_TAG,
    [-RMP_ERR_COUNT] = MPI_ERR_COUNT,
    [-RMP_ERR_TYPE] = MPI_ERR_TYPE,
    [-RMP_ERR_OP] = MPI_ERR_OP,
    [-RMP_ERR_BUFFER] = MPI_ERR_BUFFER,
    [-RMP_ERR_TRUNCATE] = MPI_ERR_TRUNCATE,
    [-RMP_ERR_REQUEST] = MPI_ERR_REQUEST,
    [-RMP_ERR_ROOT] = MPI_ERR_ROOT,
    [-RMP_ERR_NOT_INITIALIZED] = MPI_ERR_OTHER,
    [-RMP_ERR_INITIALIZED] = MPI_ERR_OTHER,
    [-RMP_ERR_NO_MEM] = MPI_ERR_NO_MEM,
    [-RMP_ERR_TRANSPORT] = MPI_ERR_OTHER,
    [-RMP_ERR_PEER] = MPI_ERR_OTHER,
    [-RMP_ERR_IN_STATUS] = MPI_ERR_IN_STATUS,
    [-RMP_ERR_THREAD] = MPI_ERR_OTHER,
    [-RMP_ERR_BOOTSTRAP] = MPI_ERR_OTHER,
    [-RMP_ERR_NOT_SUPPORTED] = MPI_ERR_UNSUPPORTED_OPERATION,
    [-RMP_ERR_INTERNAL] = MPI_ERR_INTERN,
    [-RMP_ERR_GROUP] = MPI_ERR_GROUP,
    [-RMP_ERR_TOPOLOGY] = MPI_ERR_TOPOLOGY,
    [-RMP_ERR_DIMS] = MPI_ERR_DIMS,
    [-RMP_ERR_WIN] = MPI_ERR_WIN,
    [-RMP_ERR_KEYVAL] = MPI_ERR_KEYVAL,
    [-RMP_ERR_INFO] = MPI_ERR_INFO,
    [-RMP_ERR_INFO_KEY] = MPI_ERR_INFO_KEY,
    [-RMP_ERR_INFO_VALUE] = MPI_ERR_INFO_VALUE,
    [-RMP_ERR_INFO_NOKEY] = MPI_ERR_INFO_NOKEY,
    [-RMP_ERR_PENDING] = MPI_ERR_PENDING,
};

static const char *const rmpi_class_name[MPI_ERR_LASTCLASS + 1] = {
    "MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE", "MPI_ERR_TAG",
    "MPI_ERR_COMM", "MPI_ERR_RANK", "MPI_ERR_REQUEST", "MPI_ERR_ROOT", "MPI_ERR_GROUP",
    "MPI_ERR_OP", "MPI_ERR_TOPOLOGY", "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN",
    "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN", "MPI_ERR_IN_STATUS",
    "MPI_ERR_PENDING", "MPI_ERR_KEYVAL", "MPI_ERR_NO_MEM", "MPI_ERR_BASE", "MPI_ERR_INFO_KEY",
    "MPI_ERR_INFO_VALUE", "MPI_ERR_INFO_NOKEY", "MPI_ERR_SPAWN", "MPI_ERR_PORT",
    "MPI_ERR_SERVICE", "MPI_ERR_NAME", "MPI_ERR_WIN", "MPI_ERR_SIZE", "MPI_ERR_DISP",
    "MPI_ERR_INFO", "MPI_ERR_LOCKTYPE", "MPI_ERR_ASSERT", "MPI_ERR_RMA_CONFLICT",
    "MPI_ERR_RMA_SYNC", "MPI_ERR_FILE", "MPI_ERR_NOT_SAME", "MPI_ERR_AMODE",
    "MPI_ERR_UNSUPPORTED_DATAREP", "MPI_ERR_UNSUPPORTED_OPERATION", "MPI_ERR_NO_SUCH_FILE",
    "MPI_ERR_FILE_EXISTS", "MPI_ERR_BAD_FILE", "MPI_ERR_ACCESS", "MPI_ERR_NO_SPACE",
    "MPI_ERR_QUOTA", "MPI_ERR_READ_ONLY", "MPI_ERR_FILE_IN_USE", "MPI_ERR_DUP_DATAREP",
    "MPI_ERR_CONVERSION", "MPI_ERR_IO", "MPI_ERR_RMA_RANGE", "MPI_ERR_RMA_ATTACH",
    "MPI_ERR_RMA_SHARED", "MPI_ERR_RMA_FLAVOR",
};

/* Per communicator handle: true when its handler is MPI_ERRORS_RETURN. Grown on demand,
 * locked because communicators may be made by several threads (MPI_THREAD_MULTIPLE). */
static struct {
    pthread_mutex_t lock;
    bool *returns;
    size_t n;
} rmpi_errh = {.lock = PTHREAD_MUTEX_INITIALIZER};

int rmpi_code(int rmp_err)
{
    if (rmp_err >= 0)
        return MPI_SUCCESS;
    if (rmp_err <= RMP_ERR_LAST)
        return MPI_ERR_INTERN; /* not an rmp code: a bug somewhere, never silently success */
    int cls = rmpi_class_of[-rmp_err];
    return cls == MPI_ERR_OTHER ? RMPI_CODE_BASE - rmp_err : cls;
}

/* The rmp error an extra code stands for, or 0 when code is not one. */
static int rmpi_extra_err(int code)
{
    int e = RMPI_CODE_BASE - code;
    if (code <= RMPI_CODE_BASE || e <= RMP_ERR_LAST || rmpi_class_of[-e] != MPI_ERR_OTHER)
        return 0;
    return e;
}

/* The rmp error a class is raised for, or 0 when rmp never raises it. */
static int rmpi_err_of_class(int cls)
{
    if (cls == MPI_ERR_OTHER)
        return 0; /* rmp errors of that class have codes of their own */
    for (int e = -1; e > RMP_ERR_LAST; e--)
        if (rmpi_class_of[-e] == cls)
            return e;
    return 0;
}

/* The handler of comm: MPI_ERRORS_ARE_FATAL unless set (or inherited) otherwise; an invalid
 * handle (MPI_COMM_NULL, a freed one) gets MPI_COMM_WORLD's. */
static bool rmpi_errh_returns(MPI_Comm comm)
{
    int size;
    if (comm != MPI_COMM_WORLD && rmp_comm_size(comm, &size) != RMP_SUCCESS)
        comm = MPI_COMM_WORLD;
    pthread_mutex_lock(&rmpi_errh.lock);
    bool r = (size_t)comm < rmpi_errh.n && rmpi_errh.returns[comm];
    pthread_mutex_unlock(&rmpi_errh.lock);
    return r;
}

/* Sets comm's handler; false when out of memory. */
static bool rmpi_errh_set(MPI_Comm comm, bool returns)
{
    bool ok = true;
    pthread_mutex_lock(&rmpi_errh.lock);
    if ((size_t)comm >= rmpi_errh.n) {
        size_t n = (size_t)comm + 16;
        bool *p = realloc(rmpi_errh.returns, n * sizeof *p);
        if (p) {
            memset(p + rmpi_errh.n, 0, (n - rmpi_errh.n) * sizeof *p);
            rmpi_errh.returns = p;
            rmpi_errh.n = n;
        }
        ok = p != NULL;
    }
    if (ok)
        rmpi_errh.returns[comm] = returns;
    pthread_mutex_unlock(&rmpi_errh.lock);
    return ok;
}

void rmpi_errh_inherit(MPI_Comm parent, MPI_Comm child)
{
    if (child >= 0) /* on no memory the child keeps the default, MPI_ERRORS_ARE_FATAL */
        (void)rmpi_errh_set(child, rmpi_errh_returns(parent));
}

void rmpi_errh_forget(MPI_Comm comm)
{
    if (comm >= 0)
        (void)rmpi_errh_set(comm, false);
}

int rmpi_raise_code(MPI_Comm comm, int code, const char *call)
{
    if (code == MPI_SUCCESS || rmpi_errh_returns(comm))
        return code;
    /* The layer's calls are compiled as PMPI_X (the Makefile's profiling interface), so
     * __func__ says "PMPI_Send": the user called MPI_Send, the name the message gives. */
    if (strncmp(call, "PMPI_", 5) == 0)
        call++;
    char text[MPI_MAX_ERROR_STRING];
    int len, cls = MPI_ERR_INTERN, rank = -1;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error code %d", code);
    (void)MPI_Error_class(code, &cls);
    int up = 0;
    if (rmp_initialized(&up) != RMP_SUCCESS || !up || rmp_comm_rank(RMP_COMM_WORLD, &rank) != 0)
        rank = -1;
    if (rank >= 0)
        fprintf(stderr, "rmp: %s on rank %d: %s\n", call, rank, text);
    else
        fprintf(stderr, "rmp: %s: %s\n", call, text);
    fprintf(stderr, "rmp: MPI_ERRORS_ARE_FATAL ends the job; after MPI_Comm_set_errhandler(comm, "
                    "MPI_ERRORS_RETURN) %s returns %d instead\n", call, code);
    fflush(stderr);
    rmp_abort(RMP_COMM_WORLD, cls);
    abort(); /* rmp_abort never returns */
}

int rmpi_raise(MPI_Comm comm, int rmp_err, const char *call)
{
    return rmpi_raise_code(comm, rmpi_code(rmp_err), call);
}

void rmpi_status_prep(MPI_Status *s, int n)
{
    for (int i = 0; s && i < n; i++)
        s[i].rmp_status_.error = RMP_SUCCESS;
}

void rmpi_status_fix(MPI_Status *s, int n)
{
    for (int i = 0; s && i < n; i++)
        s[i].MPI_ERROR = rmpi_code(s[i].rmp_status_.error);
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    int size;
    int rc = rmp_comm_size(comm, &size); /* is comm valid? */
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    if (errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN)
        return rmpi_raise_code(comm, MPI_ERR_ARG, __func__);
    if (!rmpi_errh_set(comm, errhandler == MPI_ERRORS_RETURN))
        return rmpi_raise(comm, RMP_ERR_NO_MEM, __func__);
    return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    int size;
    int rc = rmp_comm_size(comm, &size);
    if (rc == RMP_SUCCESS && !errhandler)
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rmpi_raise(comm, rc, __func__);
    *errhandler = rmpi_errh_returns(comm) ? MPI_ERRORS_RETURN : MPI_ERRORS_ARE_FATAL;
    return MPI_SUCCESS;
}

/* The predefined handlers are the only ones; freeing a handle only forgets it. */
int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    if (!errhandler ||
        (*errhandler != MPI_ERRORS_ARE_FATAL && *errhandler != MPI_ERRORS_RETURN))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass)
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    if (errorcode >= MPI_SUCCESS && errorcode <= MPI_ERR_LASTCLASS)
        *errorclass = errorcode;
    else if (rmpi_extra_err(errorcode))
        *errorclass = MPI_ERR_OTHER;
    else
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    return MPI_SUCCESS;
}

/* "MPI_ERR_RANK: invalid rank": the class name, then rmp's description of the error. */
int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    int cls, e = rmpi_extra_err(errorcode);
    if (!string || !resultlen)
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    if (e)
        cls = MPI_ERR_OTHER;
    else if (errorcode >= MPI_SUCCESS && errorcode <= MPI_ERR_LASTCLASS)
        cls = errorcode, e = rmpi_err_of_class(cls);
    else
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    const char *text = cls == MPI_SUCCESS     ? "no error"
                       : e                    ? rmp_strerror(e)
                       : cls == MPI_ERR_OTHER ? "other error"
                                              : "an error class rmp never raises";
    int n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", rmpi_class_name[cls], text);
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}
