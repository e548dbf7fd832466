/* mpit_cvar.c — control variables (MPI-4.0 15.3.6): cvar i is RMP_* knob i (rmp_cvar_*). A
 * boolean or integer knob reads as an MPI_INT, a size as an MPI_COUNT (bytes; -1: the runtime
 * decides), a choice as an MPI_INT with its MPI_T_enum (the choice's index), a text as up to
 * CVAR_TEXT MPI_CHARs. Knobs fixed at MPI_Init are MPI_T_SCOPE_CONSTANT; the few the runtime
 * reads at each use are MPI_T_SCOPE_LOCAL and writable once MPI is initialized. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit.h"

#define CVAR_TEXT 128 /* chars of a text knob's value, with its null (knobs.h: KNOB_TEXT_MAX) */

/* Handles: hd[h - 1] is the cvar of handle h, -1 for a free slot. */
static struct {
    int *hd;
    int n;
} cvh;

static const char *cvar_name(int i)
{
    rmp_cvar_info_t info;
    return rmp_cvar_info(i, &info) == RMP_SUCCESS ? info.name : "";
}

MPI_T_enum rmpi_t_cvar_enum(int i)
{
    rmp_cvar_info_t info;
    return rmp_cvar_info(i, &info) == RMP_SUCCESS && info.type == RMP_CVAR_ENUM ? i + 1
                                                                               : MPI_T_ENUM_NULL;
}

static MPI_Datatype cvar_type(int type)
{
    return type == RMP_CVAR_SIZE ? MPI_COUNT : type == RMP_CVAR_STRING ? MPI_CHAR : MPI_INT;
}

/* Who would change it: the user for what sets up the job, a tuner for protocols and
 * algorithms, rmp's developers for what exists to test rmp. */
static int cvar_verbosity(const char *name)
{
    static const char *const basic[] = {"RMP_VERBOSE", "RMP_TRANSPORT", "RMP_EAGER_LIMIT",
                                        "RMP_PROGRESS_THREAD", "RMP_HANG_REPORT",
                                        "RMP_DEVICE", NULL};
    for (int i = 0; basic[i]; i++)
        if (!strcmp(name, basic[i]))
            return MPI_T_VERBOSITY_USER_BASIC;
    if (!strcmp(name, "RMP_MCAST_DROP") || !strcmp(name, "RMP_RMA_PATH"))
        return MPI_T_VERBOSITY_MPIDEV_ALL;
    return MPI_T_VERBOSITY_TUNER_DETAIL;
}

/* cvar i's description once MPI_T is initialized: MPI_SUCCESS, or why not. */
static int cvar_info(int i, rmp_cvar_info_t *info)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    return rmp_cvar_info(i, info) == RMP_SUCCESS ? MPI_SUCCESS : MPI_T_ERR_INVALID_INDEX;
}

int MPI_T_cvar_get_num(int *num_cvar)
{
    return rmpi_t_count(num_cvar, rmp_cvar_count());
}

int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                        MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                        int *bind, int *scope)
{
    rmp_cvar_info_t info;
    int rc = cvar_info(cvar_index, &info);
    if (rc)
        return rc;
    rmpi_t_str(info.name, name, name_len);
    rmpi_t_str(info.desc, desc, desc_len);
    rmpi_t_put(verbosity, cvar_verbosity(info.name));
    rmpi_t_put(datatype, cvar_type(info.type));
    rmpi_t_put(enumtype, rmpi_t_cvar_enum(cvar_index));
    rmpi_t_put(bind, MPI_T_BIND_NO_OBJECT);
    rmpi_t_put(scope, info.writable ? MPI_T_SCOPE_LOCAL : MPI_T_SCOPE_CONSTANT);
    return MPI_SUCCESS;
}

int MPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!name || !cvar_index)
        return MPI_T_ERR_INVALID;
    int i = rmpi_t_find(name, rmp_cvar_count(), cvar_name);
    if (i < 0)
        return MPI_T_ERR_INVALID_NAME;
    *cvar_index = i;
    return MPI_SUCCESS;
}

int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                            int *count)
{
    rmp_cvar_info_t info;
    int rc = cvar_info(cvar_index, &info);
    if (rc)
        return rc;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    rmpi_t_lock();
    int h = 0;
    while (h < cvh.n && cvh.hd[h] >= 0)
        h++;
    if (h == cvh.n) {
        int *p = realloc(cvh.hd, sizeof(*p) * (size_t)(cvh.n + 16));
        if (!p) {
            rmpi_t_unlock();
            return MPI_T_ERR_MEMORY;
        }
        for (int i = cvh.n; i < cvh.n + 16; i++)
            p[i] = -1;
        cvh.hd = p;
        cvh.n += 16;
    }
    cvh.hd[h] = cvar_index;
    rmpi_t_unlock();
    *handle = h + 1;
    *count = info.type == RMP_CVAR_STRING ? CVAR_TEXT : 1;
    return MPI_SUCCESS;
}

/* The cvar of handle h, or -1 (lock held). */
static int cvar_of(MPI_T_cvar_handle h)
{
    return h >= 1 && h <= cvh.n ? cvh.hd[h - 1] : -1;
}

int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    int rc = rmpi_t_enter(handle);
    if (rc)
        return rc;
    int i = cvar_of(*handle);
    if (i >= 0)
        cvh.hd[*handle - 1] = -1;
    rmpi_t_unlock();
    if (i < 0)
        return MPI_T_ERR_INVALID_HANDLE;
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

void rmpi_t_cvar_fini(void)
{
    free(cvh.hd);
    cvh.hd = NULL;
    cvh.n = 0;
}

/* The cvar of a live handle, with its description, for a read or write of buf: MPI_SUCCESS
 * or an MPI_T error. */
static int cvar_get(MPI_T_cvar_handle handle, const void *buf, int *i, rmp_cvar_info_t *info)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    rmpi_t_lock();
    *i = cvar_of(handle);
    rmpi_t_unlock();
    if (*i < 0 || rmp_cvar_info(*i, info) != RMP_SUCCESS)
        return MPI_T_ERR_INVALID_HANDLE;
    return buf ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    int i;
    rmp_cvar_info_t info;
    int rc = cvar_get(handle, buf, &i, &info);
    if (rc)
        return rc;
    long long num;
    char text[CVAR_TEXT];
    if (rmp_cvar_read(i, &num, text, sizeof(text)) != RMP_SUCCESS)
        return MPI_T_ERR_INVALID;
    if (info.type == RMP_CVAR_STRING)
        memcpy(buf, text, strlen(text) + 1);
    else if (info.type == RMP_CVAR_SIZE)
        *(MPI_Count *)buf = num;
    else
        *(int *)buf = (int)num;
    return MPI_SUCCESS;
}

int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    int i;
    rmp_cvar_info_t info;
    int rc = cvar_get(handle, buf, &i, &info);
    if (rc)
        return rc;
    if (!info.writable)
        return MPI_T_ERR_CVAR_SET_NEVER;
    char text[CVAR_TEXT];
    if (info.type == RMP_CVAR_STRING)
        snprintf(text, sizeof(text), "%s", (const char *)buf);
    else if (info.type == RMP_CVAR_SIZE && *(const MPI_Count *)buf < 0)
        text[0] = '\0'; /* -1, as it reads when unset: the runtime decides again */
    else if (info.type == RMP_CVAR_SIZE)
        snprintf(text, sizeof(text), "%lld", (long long)*(const MPI_Count *)buf);
    else if (info.type == RMP_CVAR_ENUM) {
        int k = *(const int *)buf;
        if (k < 0 || k >= rmpi_t_enum_items(&info))
            return MPI_T_ERR_INVALID;
        snprintf(text, sizeof(text), "%s", info.choices[k]);
    } else
        snprintf(text, sizeof(text), "%d", *(const int *)buf);
    rc = rmp_cvar_write(i, text);
    return rc == RMP_SUCCESS               ? MPI_SUCCESS
           : rc == RMP_ERR_NOT_INITIALIZED ? MPI_T_ERR_CVAR_SET_NOT_NOW
                                           : MPI_T_ERR_INVALID;
}
