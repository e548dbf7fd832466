/* rmp/mpi_tool.h — the MPI binding's Fortran handle conversion types and the tools interface
 * (MPI_T) constants.
 * Part of mpi.h, which includes it after the handle types, constants and error classes
 * (never on its own). */
#ifndef RMP_MPI_TOOL_H
#define RMP_MPI_TOOL_H

/* ---- Handle conversion for Fortran (MPI-3.1 17.2.4) ----------------------------------------- */
/* rmp has no Fortran bindings, but C code that hands handles to Fortran, or keeps them as
 * integers, converts them: a communicator, datatype, group, info, op, errhandler or window is
 * an int already (c2f and f2c are the identity); a request or message (a pointer here) gets
 * a small integer of its own, the same one each time (0 for the null handle), held until
 * the program ends. A status is MPI_STATUS_SIZE integers. */
#define MPI_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
/* mpif.h's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are these COMMON blocks (mpi/fsentinel.c):
 * C code handed a Fortran status knows them by their addresses. */
extern MPI_Fint rmpi_status_ignore_[];
extern MPI_Fint rmpi_statuses_ignore_[];
#define MPI_F_STATUS_IGNORE (rmpi_status_ignore_)
#define MPI_F_STATUSES_IGNORE (rmpi_statuses_ignore_)

/* ---- The tools interface, MPI_T (MPI-4.0 chapter 15; mpi/mpit*.c) ----------------------
 * Usable before MPI_Init, after MPI_Finalize and without them; MPI_T_init_thread and
 * MPI_T_finalize nest (reference-counted). Control variables are the RMP_* knobs (rmp_cvar_*),
 * performance variables the runtime's counters (rmp_stats_*), in categories by concern; rmp
 * defines no events (every event call works and refuses each index and handle it is given)
 * and one source, the process's monotonic clock. Handles are ints. */
typedef int MPI_T_enum;
typedef int MPI_T_cvar_handle;
typedef int MPI_T_pvar_handle;
typedef int MPI_T_pvar_session;
typedef int MPI_T_event_instance;
typedef int MPI_T_event_registration;
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order { MPI_T_SOURCE_ORDERED = 0, MPI_T_SOURCE_UNORDERED } MPI_T_source_order;
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration event_registration,
                                     MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
                                             MPI_T_event_registration event_registration,
                                             int source_index, MPI_T_cb_safety cb_safety,
                                             void *user_data);
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_EVENT_REGISTRATION_NULL ((MPI_T_event_registration)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)-1)
enum {
    MPI_T_VERBOSITY_USER_BASIC = 221, MPI_T_VERBOSITY_USER_DETAIL, MPI_T_VERBOSITY_USER_ALL,
    MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL, MPI_T_VERBOSITY_MPIDEV_ALL
};
enum {
    MPI_T_BIND_NO_OBJECT = 9700, MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE,
    MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP, MPI_T_BIND_MPI_OP,
    MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN, MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO,
    MPI_T_BIND_MPI_SESSION
};
enum {
    MPI_T_SCOPE_CONSTANT = 60438, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL, MPI_T_SCOPE_GROUP,
    MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL, MPI_T_SCOPE_ALL_EQ
};
enum {
    MPI_T_PVAR_CLASS_STATE = 240, MPI_T_PVAR_CLASS_LEVEL, MPI_T_PVAR_CLASS_SIZE,
    MPI_T_PVAR_CLASS_PERCENTAGE, MPI_T_PVAR_CLASS_HIGHWATERMARK,
    MPI_T_PVAR_CLASS_LOWWATERMARK, MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_AGGREGATE,
    MPI_T_PVAR_CLASS_TIMER, MPI_T_PVAR_CLASS_GENERIC
};

#endif
