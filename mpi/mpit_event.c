/* mpit_event.c — events and their sources (MPI-4.0 15.3.8): rmp defines no event types, so
 * every index is MPI_T_ERR_INVALID_INDEX, every name MPI_T_ERR_INVALID_NAME, and no
 * registration or event instance can exist (MPI_T_ERR_INVALID_HANDLE). One source is there
 * for tools that time their own records: the process's monotonic clock, in nanoseconds. */
#include <limits.h>
#include <time.h>

#include "mpit.h"

#define SOURCE_NAME "rmp_monotonic"
#define SOURCE_DESC "CLOCK_MONOTONIC of this process, in nanoseconds"

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
    return rmpi_t_count(num_events, 0);
}

/* Every call that names an event type by index: there is none. */
static int no_index(void)
{
    int rc = rmpi_t_ready();
    return rc ? rc : MPI_T_ERR_INVALID_INDEX;
}

/* Every call on a registration or an event instance: none can exist. */
static int no_handle(void)
{
    int rc = rmpi_t_ready();
    return rc ? rc : MPI_T_ERR_INVALID_HANDLE;
}

int MPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                         int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                         int *desc_len, int *bind)
{
    return no_index();
}

int MPI_T_event_get_index(const char *name, int *event_index)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    return !name || !event_index ? MPI_T_ERR_INVALID : MPI_T_ERR_INVALID_NAME;
}

int MPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                             MPI_T_event_registration *event_registration)
{
    return no_index();
}

int MPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    return no_handle();
}

int MPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                MPI_Info *info_used)
{
    return no_handle();
}

int MPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                  MPI_T_event_cb_function *event_cb_function)
{
    return no_handle();
}

int MPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info info)
{
    return no_handle();
}

int MPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    return no_handle();
}

int MPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                            MPI_T_event_free_cb_function *free_cb_function)
{
    return no_handle();
}

int MPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                    MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    return no_handle();
}

int MPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    return no_handle();
}

int MPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    return no_handle();
}

int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    return no_handle();
}

int MPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    return no_handle();
}
