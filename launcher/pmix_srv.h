/* pmix_srv.h: mrun as a PMIx server: the job's namespace (with its virtual-node layout), each
 * rank's client registration and environment, and the events the PMIx upcalls report. */
#ifndef MRUN_PMIX_SRV_H
#define MRUN_PMIX_SRV_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct srv srv_t;

typedef enum {
    SRV_CONNECTED = 1, /* the rank's PMIx_Init reached us */
    SRV_FINALIZED,     /* the rank called PMIx_Finalize */
    SRV_DISCONNECTED,  /* the rank's connection dropped without PMIx_Finalize */
    SRV_ABORTED,       /* the rank called PMIx_Abort(status) */
    SRV_SPAWN,         /* the rank called PMIx_Spawn: a request waits (pmix_spawn.h) */
} srv_event_kind_t;

typedef struct srv_event {
    int kind; /* srv_event_kind_t */
    int rank;
    int status;
} srv_event_t;

/* Starts the PMIx server (its files under tmpdir) and registers the namespace with nprocs
 * ranks spread over nnodes virtual nodes. Returns NULL after printing why. */
srv_t *srv_start(const char *nspace, const char *tmpdir, int nprocs, int nnodes);

/* Registers a rank as a client and returns its environment (base_env plus PMIx's variables),
 * a malloc'd array to free with srv_env_free. Returns NULL after printing why. */
char **srv_rank_env(srv_t *srv, int rank, char *const base_env[]);
void srv_env_free(char **env);

/* Tells the upcalls which process is the rank (they look at it to tell a real PMIx_Finalize
 * from a dropped connection). A connected rank gets exactly one of SRV_FINALIZED and
 * SRV_DISCONNECTED; until then PMIx may still be working on its connection. */
void srv_rank_started(srv_t *srv, int rank, pid_t pid);

/* Upcalls post events to a pipe so that the main thread owns all job state: poll this fd,
 * then take events with srv_next_event until it returns false. */
int srv_event_fd(const srv_t *srv);
bool srv_next_event(srv_t *srv, srv_event_t *ev);

/* Stops accepting connections, then deregisters the namespace and finalizes PMIx within a
 * time limit, and frees srv. quick (a failed job): PMIx is not torn down at all. Returns false
 * when PMIx's threads are still running: the caller must then clean up and _exit. */
bool srv_stop(srv_t *srv, bool quick);

#endif
