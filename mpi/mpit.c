/* mpit.c — the tools interface's state (initialized or not, its one lock), its enumerations
 * (the choices of the RMP_* knobs that take one of a set of words), and the helpers mpit.h
 * declares; entry and exit (MPI_T_init_thread, MPI_T_finalize) are mpit_init.c's. */
#include <pthread.h>
#include <string.h>

#include "mpit.h"

static struct {
    pthread_mutex_t lock;
    int refs; /* MPI_T_init_thread calls not yet finalized */
} mpit = {.lock = PTHREAD_MUTEX_INITIALIZER};

void rmpi_t_lock(void)
{
    pthread_mutex_lock(&mpit.lock);
}

void rmpi_t_unlock(void)
{
    pthread_mutex_unlock(&mpit.lock);
}

int rmpi_t_enter(const void *arg)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!arg)
        return MPI_T_ERR_INVALID;
    rmpi_t_lock();
    return MPI_SUCCESS;
}

int rmpi_t_refs(int delta)
{
    mpit.refs += delta;
    return mpit.refs;
}

int rmpi_t_ready(void)
{
    rmpi_t_lock();
    int ok = mpit.refs > 0;
    rmpi_t_unlock();
    return ok ? MPI_SUCCESS : MPI_T_ERR_NOT_INITIALIZED;
}

void rmpi_t_str(const char *src, char *name, int *len)
{
    if (!len)
        return;
    int full = (int)strlen(src);
    if (!name || *len <= 0) {
        *len = full + 1;
        return;
    }
    int n = full < *len - 1 ? full : *len - 1;
    memcpy(name, src, (size_t)n);
    name[n] = '\0';
    *len = n + 1;
}

int rmpi_t_count(int *out, int n)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!out)
        return MPI_T_ERR_INVALID;
    *out = n;
    return MPI_SUCCESS;
}

int rmpi_t_find(const char *name, int n, const char *(*name_of)(int))
{
    for (int i = 0; name && i < n; i++)
        if (!strcmp(name, name_of(i)))
            return i;
    return -1;
}

/* ---- enumerations: MPI_T_enum k + 1 is the choices of cvar k (an RMP_* knob of type enum) */

/* The knob behind an enum handle: MPI_SUCCESS with its description, or why not. */
static int enum_cvar(MPI_T_enum e, rmp_cvar_info_t *info)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (e < 1 || rmp_cvar_info(e - 1, info) != RMP_SUCCESS || info->type != RMP_CVAR_ENUM)
        return MPI_T_ERR_INVALID_HANDLE;
    return MPI_SUCCESS;
}

int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    rmp_cvar_info_t info;
    int rc = enum_cvar(enumtype, &info);
    if (rc)
        return rc;
    if (!num)
        return MPI_T_ERR_INVALID;
    *num = rmpi_t_enum_items(&info);
    rmpi_t_str(info.name, name, name_len);
    return MPI_SUCCESS;
}

int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    rmp_cvar_info_t info;
    int rc = enum_cvar(enumtype, &info);
    if (rc)
        return rc;
    if (index < 0 || index >= rmpi_t_enum_items(&info))
        return MPI_T_ERR_INVALID_ITEM;
    if (!value)
        return MPI_T_ERR_INVALID;
    *value = index; /* what the cvar reads for this choice */
    rmpi_t_str(info.choices[index], name, name_len);
    return MPI_SUCCESS;
}
