/* pmix_spawn.h: PMIx_Spawn requests reaching mrun's PMIx server (the spawn upcall, on PMIx's
 * thread), queued for the main thread, which starts the children's job (job_spawn.c) and
 * answers with its namespace or a refusal. */
#ifndef MRUN_PMIX_SPAWN_H
#define MRUN_PMIX_SPAWN_H

#include <pmix_server.h>
#include <stdbool.h>

typedef struct srv_spawn {
    struct srv_spawn *next;
    int rank;          /* the requesting rank of this job */
    char *cmd, *cwd;   /* cwd: NULL for mrun's */
    char **argv;       /* argv[0] the command as given; NULL-terminated */
    char **env;        /* the app's own VAR=VALUE settings, NULL-terminated */
    int maxprocs;
    pmix_spawn_cbfunc_t cbfunc;
    void *cbdata;
} srv_spawn_t;

/* The spawn upcall's work (pmix_srv.c's up_spawn, on PMIx's thread): queues rank's request.
 * PMIX_SUCCESS: queued (the caller then wakes the main thread), else the refusal. */
pmix_status_t srv_spawn_queue(int rank, const pmix_app_t apps[], size_t napps,
                              pmix_spawn_cbfunc_t cbfunc, void *cbdata);

/* The main thread's side: the oldest request not taken yet (NULL: none), and the answer:
 * nspace the children's namespace, or NULL (refused: PMIX_ERR_NOT_SUPPORTED when
 * unsupported, else PMIX_ERR_JOB_FAILED_TO_LAUNCH). Frees q. */
srv_spawn_t *srv_spawn_take(void);
void srv_spawn_answer(srv_spawn_t *q, const char *nspace, bool unsupported);

#endif
