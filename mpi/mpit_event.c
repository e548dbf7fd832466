/* mpit_event.c — event types and their source (MPI-4.0 15.3.8): event type i is rmp's native
 * event i (rmp/rmp_event.h), named "rmp_" + its name, its elements MPI_LONG_LONGs side by side; one
 * source, the process's monotonic clock in ns, which stamps every event. An event instance is
 * valid in its callback only (mpit_evreg.c sets it for the calling thread): read, copy,
 * timestamp and source are answered from it, with no lock, so that a restricted callback may
 * call them where the event happens. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mpit.h"

#define SOURCE_NAME "rmp_monotonic"
#define SOURCE_DESC "CLOCK_MONOTONIC of this process, in nanoseconds"

_Thread_local rmpi_t_inst_t rmpi_t_inst;

int MPI_T_source_get_num(int *num_sources)
{
    return rmpi_t_count(num_sources, 1);
}

int MPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc,
                          int *desc_len, MPI_T_source_order *ordering,
                          MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (info && MPI_Info_create(info) != MPI_SUCCESS)
        return MPI_T_ERR_MEMORY;
    rmpi_t_str(SOURCE_NAME, name, name_len);
    rmpi_t_str(SOURCE_DESC, desc, desc_len);
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = LLONG_MAX;
    return MPI_SUCCESS;
}

int MPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (!timestamp)
        return MPI_T_ERR_INVALID;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *timestamp = (MPI_Count)ts.tv_sec * 1000000000 + ts.tv_nsec;
    return MPI_SUCCESS;
}

int MPI_T_event_get_num(int *num_events)
{
    return rmpi_t_count(num_events, rmp_event_count());
}

/* Event i's MPI name ("rmp_" + the native one). */
static const char *event_name(int i)
{
    static _Thread_local char name[64];
    rmp_event_info_t info;
    if (rmp_event_info(i, &info) != RMP_SUCCESS)
        return "";
    snprintf(name, sizeof(name), "rmp_%s", info.name);
    return name;
}

int MPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                         int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                         int *desc_len, int *bind)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    rmp_event_info_t ev;
    if (rmp_event_info(event_index, &ev) != RMP_SUCCESS)
        return MPI_T_ERR_INVALID_INDEX;
    if (info && MPI_Info_create(info) != MPI_SUCCESS)
        return MPI_T_ERR_MEMORY;
    rmpi_t_str(event_name(event_index), name, name_len);
    rmpi_t_str(ev.desc, desc, desc_len);
    rmpi_t_put(verbosity, event_index == RMP_EV_PEER_FAILED ? MPI_T_VERBOSITY_USER_BASIC
                                                            : MPI_T_VERBOSITY_TUNER_DETAIL);
    /* num_elements: in, the arrays' length; out, the type's element count */
    for (int k = 0; num_elements && k < ev.ndata && k < *num_elements; k++) {
        if (array_of_datatypes)
            array_of_datatypes[k] = MPI_LONG_LONG;
        if (array_of_displacements)
            array_of_displacements[k] = (MPI_Aint)(k * sizeof(long long));
    }
    rmpi_t_put(num_elements, ev.ndata);
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    rmpi_t_put(bind, MPI_T_BIND_NO_OBJECT);
    return MPI_SUCCESS;
}

int MPI_T_event_get_index(const char *name, int *event_index)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!name || !event_index)
        return MPI_T_ERR_INVALID;
    int i = rmpi_t_find(name, rmp_event_count(), event_name);
    if (i < 0)
        return MPI_T_ERR_INVALID_NAME;
    *event_index = i;
    return MPI_SUCCESS;
}

/* The instance the calling thread's callback was given, or NULL. */
static const rmp_event_t *instance(MPI_T_event_instance h)
{
    return h > 0 && rmpi_t_inst.id == h ? rmpi_t_inst.ev : NULL;
}

int MPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    const rmp_event_t *ev = instance(event_instance);
    if (!ev)
        return MPI_T_ERR_INVALID_HANDLE;
    if (element_index < 0 || element_index >= ev->ndata)
        return MPI_T_ERR_INVALID_INDEX;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    memcpy(buffer, &ev->data[element_index], sizeof(long long));
    return MPI_SUCCESS;
}

int MPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    const rmp_event_t *ev = instance(event_instance);
    if (!ev)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    memcpy(buffer, ev->data, (size_t)ev->ndata * sizeof(long long));
    return MPI_SUCCESS;
}

int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    const rmp_event_t *ev = instance(event_instance);
    if (!ev)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!event_timestamp)
        return MPI_T_ERR_INVALID;
    *event_timestamp = (MPI_Count)ev->time_ns;
    return MPI_SUCCESS;
}

int MPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    if (!instance(event_instance))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!source_index)
        return MPI_T_ERR_INVALID;
    *source_index = 0;
    return MPI_SUCCESS;
}
