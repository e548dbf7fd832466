/* job_spawn.c — the children a rank asks for with PMIx_Spawn (pmix_spawn.c): a job of their
 * own, run by a child mrun of this one, so that they get what any job gets: a PMIx server and
 * namespace ("mrun-<its pid>") of their own, a rank table, the same isolation, and its failure
 * handling (a child that fails ends the children's job, not the parents': they see it through
 * MPI, as MPI_ERR_SPAWN when it happens before the children connect). Its output comes through
 * this mrun's sinks, its ranks' lines prefixed "[spawnN:rank] "; this mrun ends only when every
 * spawned job has ended, and ends them with its own. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job_int.h"
#include "pmix_spawn.h"
#include "procs.h"

#define SPAWN_TAG_VAR "RMP_MRUN_SPAWN_TAG"

const char *job_spawn_label(void) { return getenv(SPAWN_TAG_VAR); }

/* Room in the poll arrays for every rank's 3 fds, the self pipe, 2 sinks and 2 per sub-job. */
static bool grow_polls(job_t *job)
{
    size_t n = 2 + 3 * (size_t)job->nprocs + 3 + 2 * (size_t)(job->nsubs + 1);
    struct pollfd *p = realloc(job->pfds, n * sizeof *p);
    if (p)
        job->pfds = p;
    out_stream_t **s = p ? realloc(job->pstreams, n * sizeof *s) : NULL;
    if (s)
        job->pstreams = s;
    int *t = s ? realloc(job->pstat, n * sizeof *t) : NULL;
    if (t)
        job->pstat = t;
    subjob_t **subs = t ? realloc(job->subs, (size_t)(job->nsubs + 1) * sizeof *subs) : NULL;
    if (subs)
        job->subs = subs;
    return subs != NULL;
}

/* Whether q's app sets the variable of entry e (VAR=...) itself. */
static bool app_sets(const srv_spawn_t *q, const char *e)
{
    size_t len = strcspn(e, "=");
    for (size_t i = 0; q->env[i]; i++)
        if (!strncmp(q->env[i], e, len) && q->env[i][len] == '=')
            return true;
    return false;
}

/* The children's launcher's environment: the ranks', without this job's PMIx settings, with
 * the app's own (they win: a nested spawn's port is not its parent's) and the children's
 * output label. Malloc'd strings; NULL when out of memory. */
static char **sub_env(const job_t *job, const srv_spawn_t *q, const char *label)
{
    size_t n = 0, k = 0, ne = 0;
    while (job->base_env[n])
        n++;
    while (q->env[ne])
        ne++;
    char **env = calloc(n + ne + 2, sizeof *env);
    if (!env)
        return NULL;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++)
        if (strncmp(job->base_env[i], "PMIX_", 5) && !app_sets(q, job->base_env[i]) &&
            strncmp(job->base_env[i], SPAWN_TAG_VAR "=", sizeof SPAWN_TAG_VAR))
            ok = (env[k++] = strdup(job->base_env[i])) != NULL;
    for (size_t i = 0; i < ne && ok; i++)
        ok = (env[k++] = strdup(q->env[i])) != NULL;
    if (ok && asprintf(&env[k], "%s=%s", SPAWN_TAG_VAR, label) < 0)
        env[k] = NULL, ok = false;
    if (!ok)
        srv_env_free(env);
    return ok ? env : NULL;
}

/* mrun -n maxprocs cmd args...: the arguments of the children's launcher (NULL: no memory). */
static char **sub_argv(const srv_spawn_t *q, char *np, size_t len)
{
    size_t n = 0;
    while (q->argv[n])
        n++;
    char **av = calloc(n + 5, sizeof *av);
    if (!av)
        return NULL;
    snprintf(np, len, "%d", q->maxprocs);
    av[0] = "mrun", av[1] = "-n", av[2] = np, av[3] = q->cmd;
    for (size_t i = 1; i < n; i++)
        av[3 + i] = q->argv[i];
    return av;
}

/* Takes the started launcher into the job: reaped, signalled and its output read like a
 * rank's, from now on. */
static void sub_add(job_t *job, subjob_t *sub, const procs_child_t *child)
{
    close(child->stat_fd); /* a launcher reports through its exit status, not the channel */
    *sub = (subjob_t){.pid = child->pid, .alive = true};
    out_init(&sub->out, &job->sinks.out, -2 - job->nsubs, false);
    out_init(&sub->err, &job->sinks.err, -2 - job->nsubs, false);
    sub->out.fd = child->out_fd, sub->err.fd = child->err_fd;
    job->subs[job->nsubs++] = sub;
    job->nalive++, job->nsubs_alive++;
}

/* Starts q's children; their namespace in nspace. Returns 0, or -1 after saying why. */
static int start_sub(job_t *job, const srv_spawn_t *q, char *nspace, size_t len)
{
    char self[PATH_MAX], np[16], label[64];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    const char *up = job_spawn_label();
    snprintf(label, sizeof label, "%s%s%d", up ? up : "spawn", up ? "." : "", job->nsubs + 1);
    subjob_t *sub = calloc(1, sizeof *sub);
    char **av = sub_argv(q, np, sizeof np), **env = sub_env(job, q, label);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC), err = sl > 0 ? ENOMEM : errno;
    procs_child_t child = {0};
    if (sl > 0 && sub && av && env && devnull >= 0 && grow_polls(job)) {
        self[sl] = '\0';
        procs_spec_t spec = {.path = self, .argv = av, .ignored = &job->ignored, .cpu = -1,
                             .cwd = q->cwd};
        err = procs_spawn(&spec, env, devnull, true, &child);
    } else if (devnull < 0) {
        err = errno;
    }
    if (devnull >= 0)
        close(devnull);
    free(av);
    srv_env_free(env);
    if (!err) {
        sub_add(job, sub, &child);
        err = procs_exec_result(&child);
    } else {
        free(sub);
    }
    if (err) {
        fprintf(stderr, "mrun: rank %d's spawn of '%s': starting the children's mrun failed: "
                "%s\n", q->rank, q->cmd, strerror(err));
        return -1;
    }
    snprintf(nspace, len, "mrun-%d", (int)child.pid);
    return 0;
}

void job_on_spawn(job_t *job)
{
    for (srv_spawn_t *q; (q = srv_spawn_take());) {
        char nspace[64];
        bool ok = !job->failed && start_sub(job, q, nspace, sizeof nspace) == 0;
        srv_spawn_answer(q, ok ? nspace : NULL, false);
    }
}

bool job_sub_reaped(job_t *job, pid_t pid)
{
    for (int i = 0; i < job->nsubs; i++)
        if (job->subs[i]->pid == pid && job->subs[i]->alive) {
            job->subs[i]->alive = false;
            job->nalive--, job->nsubs_alive--;
            return true;
        }
    return false;
}

void job_subs_signal(job_t *job, int sig)
{
    for (int i = 0; i < job->nsubs; i++)
        if (job->subs[i]->alive)
            procs_kill(job->subs[i]->pid, false, sig);
}

void job_subs_free(job_t *job)
{
    for (int i = 0; i < job->nsubs; i++) {
        out_close(&job->subs[i]->out);
        out_close(&job->subs[i]->err);
        free(job->subs[i]);
    }
    free(job->subs);
}
