/* mpit_init.c — the tools interface's entry and exit: MPI_T_init_thread and MPI_T_finalize,
 * nested and independent of MPI_Init; the last finalize frees what each part holds (pvar
 * sessions, event registrations, cvar handles). Above mpit.c and the parts, called by none. */
#include "mpit.h"

/* Every thread level is provided: the tables are under one lock, the runtime's counters and
 * knobs under its own. */
int MPI_T_init_thread(int required, int *provided)
{
    if (!provided || required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    rmpi_t_lock();
    (void)rmpi_t_refs(1);
    rmpi_t_unlock();
    *provided = required;
    return MPI_SUCCESS;
}

int MPI_T_finalize(void)
{
    rmpi_t_lock();
    int refs = rmpi_t_refs(0);
    int rc = refs > 0 ? MPI_SUCCESS : MPI_T_ERR_NOT_INITIALIZED;
    if (refs > 0 && rmpi_t_refs(-1) == 0) {
        rmpi_t_pvar_fini();
        rmpi_t_event_fini();
        rmpi_t_cvar_fini();
    }
    rmpi_t_unlock();
    return rc;
}
