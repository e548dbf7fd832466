/* pmix_spawn.c: the spawn upcall of mrun's PMIx server. PMIx's thread copies the request (one
 * app: rmp's ranks send spawn_multiple's apps as one script, comm/spawn_multi.c) into a queue
 * and wakes the main thread through the server's event pipe; the main thread, which owns every
 * process of the job, starts the children (job_spawn.c) and answers here. */
#include "pmix_spawn.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static srv_spawn_t *queue_head;

static void req_free(srv_spawn_t *q)
{
    if (!q)
        return;
    for (size_t i = 0; q->argv && q->argv[i]; i++)
        free(q->argv[i]);
    for (size_t i = 0; q->env && q->env[i]; i++)
        free(q->env[i]);
    free(q->argv);
    free(q->env);
    free(q->cmd);
    free(q->cwd);
    free(q);
}

/* A NULL-terminated copy of v (NULL: an empty one); NULL when out of memory. */
static char **strv_dup(char *const *v)
{
    size_t n = 0;
    while (v && v[n])
        n++;
    char **c = calloc(n + 1, sizeof *c);
    for (size_t i = 0; c && i < n; i++)
        if (!(c[i] = strdup(v[i]))) {
            for (size_t k = 0; k < i; k++)
                free(c[k]);
            free(c);
            return NULL;
        }
    return c;
}

static srv_spawn_t *req_new(const pmix_app_t *app, pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    srv_spawn_t *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    *q = (srv_spawn_t){.maxprocs = app->maxprocs, .cbfunc = cbfunc, .cbdata = cbdata};
    q->cmd = strdup(app->cmd);
    q->cwd = app->cwd && *app->cwd ? strdup(app->cwd) : NULL;
    q->argv = strv_dup(app->argv);
    q->env = strv_dup(app->env);
    if (!q->cmd || !q->argv || !q->env || (app->cwd && *app->cwd && !q->cwd)) {
        req_free(q);
        return NULL;
    }
    return q;
}

pmix_status_t srv_spawn_queue(int rank, const pmix_app_t apps[], size_t napps,
                              pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    if (napps != 1 || !apps[0].cmd || apps[0].maxprocs < 1) {
        fprintf(stderr, "mrun: refused rank %d's PMIx_Spawn of %zu apps: mrun starts one app of "
                "at least one process per spawn (rmp sends spawn_multiple's apps as one)\n", rank,
                napps);
        return PMIX_ERR_NOT_SUPPORTED;
    }
    srv_spawn_t *q = req_new(&apps[0], cbfunc, cbdata);
    if (!q)
        return PMIX_ERR_NOMEM;
    q->rank = rank;
    pthread_mutex_lock(&queue_lock);
    srv_spawn_t **tail = &queue_head;
    while (*tail)
        tail = &(*tail)->next;
    *tail = q;
    pthread_mutex_unlock(&queue_lock);
    return PMIX_SUCCESS; /* answered by the main thread: srv_spawn_answer */
}

srv_spawn_t *srv_spawn_take(void)
{
    pthread_mutex_lock(&queue_lock);
    srv_spawn_t *q = queue_head;
    if (q)
        queue_head = q->next;
    pthread_mutex_unlock(&queue_lock);
    return q;
}

void srv_spawn_answer(srv_spawn_t *q, const char *nspace, bool unsupported)
{
    pmix_nspace_t ns = {0};
    if (nspace)
        PMIX_LOAD_NSPACE(ns, nspace);
    q->cbfunc(nspace ? PMIX_SUCCESS
                     : unsupported ? PMIX_ERR_NOT_SUPPORTED : PMIX_ERR_JOB_FAILED_TO_LAUNCH,
              ns, q->cbdata);
    req_free(q);
}
