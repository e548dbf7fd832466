/* mpit.h — what the files of the tools interface (mpi/mpit*.c) share: whether MPI_T is
 * initialized, the one lock its tables take, the string convention of its *_get_info calls,
 * and the categories' view of the variables. The variables themselves are rmp's (rmp_cvar_*,
 * rmp_stats_*): this layer only names, types and groups them. */
#ifndef RMPI_MPIT_H
#define RMPI_MPIT_H

#include "rmpi.h"

/* MPI_SUCCESS between MPI_T_init_thread and the matching MPI_T_finalize, else
 * MPI_T_ERR_NOT_INITIALIZED. */
int rmpi_t_ready(void);
/* Under rmpi_t_lock: the MPI_T_init_thread calls not yet finalized, changed by delta; the
 * count after (mpit_init.c). */
int rmpi_t_refs(int delta);
/* The start of a call that changes MPI_T's tables: MPI_SUCCESS with the lock taken, or why
 * not (MPI_T not initialized, or arg, the call's required pointer, NULL). */
int rmpi_t_enter(const void *arg);
/* Guards the sessions, handles and counts of mpit*.c (MPI_T is thread-safe: MPI_THREAD_MULTIPLE). */
void rmpi_t_lock(void);
void rmpi_t_unlock(void);

/* MPI-4.0 15.3.3: copy src into name, whose room *len gives (0: nothing copied); *len
 * becomes the characters written plus the terminating null, or, when nothing is copied, the
 * full string's length plus one. name or len NULL: nothing is returned there. */
void rmpi_t_str(const char *src, char *name, int *len);
/* The *_get_num calls (and category_changed): *out = n once MPI_T is initialized. */
int rmpi_t_count(int *out, int n);
/* An output argument MPI_T lets the caller leave NULL. */
static inline void rmpi_t_put(int *p, int v)
{
    if (p)
        *p = v;
}
/* How many choices an enumerated cvar has. */
static inline int rmpi_t_enum_items(const rmp_cvar_info_t *info)
{
    int n = 0;
    while (info->choices[n])
        n++;
    return n;
}
/* The index of the entry called name among n, through name_of(i), or -1. */
int rmpi_t_find(const char *name, int n, const char *(*name_of)(int));

/* The pvars: how many, and pvar i's description and binding (MPI_T_BIND_*): MPI_SUCCESS or
 * MPI_T_ERR_INVALID_INDEX (mpit_pvar.c). */
int rmpi_t_pvar_count(void);
int rmpi_t_pvar_info(int i, rmp_stat_info_t *info, int *bind);

/* The category of cvar i and of pvar i (mpit_cat.c). */
int rmpi_t_cvar_cat(int i);
int rmpi_t_pvar_cat(int i);

/* The MPI_T_enum of an enumerated cvar, MPI_T_ENUM_NULL for others (mpit_cvar.c). */
MPI_T_enum rmpi_t_cvar_enum(int i);

/* At the last MPI_T_finalize: every session and its handles go (mpit_pvar.c), with the cvar
 * handles (mpit_cvar.c). Lock held. */
void rmpi_t_pvar_fini(void);
/* Every event registration goes, and rmp's event listeners with them (mpit_evreg.c). */
void rmpi_t_event_fini(void);

/* The event instance the calling thread's callback holds (id 0: none; mpit_evreg.c sets it
 * around each callback, mpit_event.c reads it). */
typedef struct rmpi_t_inst {
    int id;
    const rmp_event_t *ev;
} rmpi_t_inst_t;
extern _Thread_local rmpi_t_inst_t rmpi_t_inst;
void rmpi_t_cvar_fini(void);

#endif
