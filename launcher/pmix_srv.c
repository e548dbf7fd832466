/* pmix_srv.c: mrun as a PMIx server. Starts the server library, registers the job's namespace
 * (job, virtual-node and per-rank info) and each rank as a client, and turns the upcalls into
 * events on a pipe. Upcalls run on PMIx's progress thread and touch nothing but that pipe. */
#include "pmix_srv.h"

#include <errno.h>
#include <fcntl.h>
#include <pmix.h>
#include <pmix_server.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "admit.h"
#include "guard.h"
#include "layout.h"
#include "pmix_info.h"
#include "pmix_spawn.h"

enum {
    SRV_WAIT_S = 10,      /* PMIx answers registrations in microseconds; beyond this it's stuck */
    SRV_STOP_MS = 2000,   /* the bound on PMIx's own teardown at the end of the job */
    ADMIT_WAIT_MS = 1000, /* a client sends its handshake as it connects: this is generous */
    ADMIT_SAY_MAX = 10,   /* refusals reported one by one; a loop of them must not flood */
};

typedef struct srv_client {
    srv_t *srv;
    int rank;
    atomic_int pid; /* written by the main thread after fork, read by upcalls */
    atomic_bool claimed; /* a process connected as this rank (srv_admit) */
} srv_client_t;

struct srv {
    char nspace[PMIX_MAX_NSLEN + 1];
    layout_t layout;
    int ev_rd, ev_wr;
    srv_client_t *clients;
    bool initialized, registered;
};

/* ---- waiting for PMIx's completion callbacks (they arrive on its progress thread) ---- */

typedef struct srv_wait {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
} srv_wait_t;

static srv_wait_t *wait_new(void)
{
    srv_wait_t *w = malloc(sizeof *w);
    if (w)
        *w = (srv_wait_t){PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, PMIX_SUCCESS};
    return w;
}

static void wait_cb(pmix_status_t status, void *cbdata)
{
    srv_wait_t *w = cbdata;
    pthread_mutex_lock(&w->lock); /* cannot fail on a valid default mutex */
    w->status = status;
    w->done = true;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

/* rc is what the non-blocking call returned: a callback follows only on PMIX_SUCCESS. Frees w
 * unless PMIx never answered (its late callback may still write to it). */
static pmix_status_t wait_for(srv_wait_t *w, pmix_status_t rc)
{
    if (rc == PMIX_SUCCESS) {
        struct timespec until;
        if (clock_gettime(CLOCK_REALTIME, &until) != 0)
            return PMIX_ERROR;
        until.tv_sec += SRV_WAIT_S;
        pthread_mutex_lock(&w->lock);
        int err = 0;
        while (!w->done && err == 0)
            err = pthread_cond_timedwait(&w->cond, &w->lock, &until);
        rc = w->done ? w->status : PMIX_ERR_TIMEOUT;
        pthread_mutex_unlock(&w->lock);
        if (rc == PMIX_ERR_TIMEOUT)
            return rc;
    } else if (rc == PMIX_OPERATION_SUCCEEDED) {
        rc = PMIX_SUCCESS;
    }
    free(w);
    return rc;
}

/* ---- upcalls ---- */

/* The PMIx upcalls get no context pointer of ours that stays valid once a client's connection
 * has dropped (4.2.2 hands over peer data it has already released), so they find the one
 * server of this process here, and the rank from the proc name. */
static srv_t *upcall_srv;

static srv_client_t *client_of(const pmix_proc_t *proc)
{
    srv_t *srv = upcall_srv;
    if (!srv || !proc || strncmp(proc->nspace, srv->nspace, PMIX_MAX_NSLEN) != 0 ||
        proc->rank >= (pmix_rank_t)srv->layout.nprocs)
        return NULL;
    return &srv->clients[proc->rank];
}

static void post(srv_client_t *c, srv_event_kind_t kind, int status)
{
    srv_event_t ev = {.kind = kind, .rank = c->rank, .status = status};
    ssize_t w;
    do /* blocking: the main thread drains the pipe, and an event must never be lost */
        w = write(c->srv->ev_wr, &ev, sizeof ev);
    while (w < 0 && errno == EINTR);
    if (w != (ssize_t)sizeof ev)
        fprintf(stderr, "mrun: internal error: posting an event of rank %d failed: %s\n",
                c->rank, w < 0 ? strerror(errno) : "short write");
}

/* PMIx 4.2 reports a client whose connection dropped through the same client_finalized
 * upcall as a real PMIx_Finalize. During a real one the client waits for our reply; a dropped
 * connection comes from a process that is exiting (PF_EXITING is set before the kernel closes
 * its files) or already gone. */
static bool proc_is_exiting(pid_t pid)
{
    enum { PF_EXITING = 0x4 };
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return true;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return true;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name before it may hold anything */
    char state;
    unsigned long flags;
    if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2)
        return true;
    return state == 'Z' || state == 'X' || (flags & PF_EXITING);
}

/* The guard's admission check (guard.h), on PMIx's listener thread, before PMIx sees the
 * connection: the first process to connect as a rank is that rank (the one mrun started, or
 * the program a wrapper script of it runs); any later one inherited the rank's PMIx variables
 * (a program the rank ran with system(), say). PMIx 4.2.2 would accept it as a second copy of
 * the rank, which then waits in the job's next fence for ever. Refused, its connection closes
 * before any reply, and its PMIx_Init fails at once. (Not with an error status as the reply:
 * PMIx 4.2.2's client then hung in PMIx_Init in 4 runs of 5.) */
static bool srv_admit(int fd)
{
    static atomic_uint said;
    srv_t *srv = upcall_srv;
    char nspace[PMIX_MAX_NSLEN + 1];
    uint32_t rank;
    if (!srv || !admit_peek(fd, ADMIT_WAIT_MS, nspace, sizeof nspace, &rank) ||
        strcmp(nspace, srv->nspace) != 0 || rank >= (uint32_t)srv->layout.nprocs)
        return true; /* not one of our ranks: PMIx's own checks decide */
    srv_client_t *c = &srv->clients[rank];
    if (!atomic_exchange(&c->claimed, true))
        return true;
    unsigned n = atomic_fetch_add(&said, 1);
    if (n < ADMIT_SAY_MAX)
        fprintf(stderr, "mrun: refused a second process as rank %u: rank %u is connected "
                "already (pid %d); " ADMIT_FIX "\n", rank, rank, atomic_load(&c->pid));
    else if (n == ADMIT_SAY_MAX)
        fprintf(stderr, "mrun: refused more second processes; not reporting them any more\n");
    return false;
}

static pmix_status_t up_connected(const pmix_proc_t *proc, void *obj, pmix_op_cbfunc_t cbfunc,
                                  void *cbdata)
{
    (void)obj, (void)cbfunc, (void)cbdata;
    srv_client_t *c = client_of(proc);
    if (c)
        post(c, SRV_CONNECTED, 0);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t up_finalized(const pmix_proc_t *proc, void *obj, pmix_op_cbfunc_t cbfunc,
                                  void *cbdata)
{
    (void)obj, (void)cbfunc, (void)cbdata;
    srv_client_t *c = client_of(proc);
    if (c) {
        int pid = atomic_load(&c->pid);
        post(c, pid > 0 && !proc_is_exiting(pid) ? SRV_FINALIZED : SRV_DISCONNECTED, 0);
    }
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t up_abort(const pmix_proc_t *proc, void *obj, int status, const char msg[],
                              pmix_proc_t procs[], size_t nprocs, pmix_op_cbfunc_t cbfunc,
                              void *cbdata)
{
    /* mrun ends the whole job whatever subset of procs the caller named */
    (void)obj, (void)msg, (void)procs, (void)nprocs, (void)cbfunc, (void)cbdata;
    srv_client_t *c = client_of(proc);
    if (c)
        post(c, SRV_ABORTED, status);
    return PMIX_OPERATION_SUCCEEDED;
}

static void fence_release(void *data)
{
    free(data); /* the contribution blob became ours when PMIx called up_fence */
}

/* Every participant is a client of this one server, so our contribution already is the whole
 * job's: hand it straight back. PMIx only calls this when its local-only shortcut is off. */
static pmix_status_t up_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    (void)procs, (void)nprocs, (void)info, (void)ninfo;
    cbfunc(PMIX_SUCCESS, data, ndata, cbdata, fence_release, data);
    return PMIX_SUCCESS;
}

/* Only our own ranks may spawn (the request is queued for the main thread: pmix_spawn.c). */
static pmix_status_t up_spawn(const pmix_proc_t *proc, const pmix_info_t job_info[],
                              size_t ninfo, const pmix_app_t apps[], size_t napps,
                              pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    (void)job_info, (void)ninfo; /* mapping and binding directives: mrun's defaults apply */
    srv_client_t *c = client_of(proc);
    pmix_status_t rc = c ? srv_spawn_queue(c->rank, apps, napps, cbfunc, cbdata)
                         : PMIX_ERR_NOT_SUPPORTED;
    if (rc == PMIX_SUCCESS)
        post(c, SRV_SPAWN, 0);
    return rc;
}

static pmix_server_module_t srv_module = {
    .client_connected = up_connected,
    .client_finalized = up_finalized,
    .abort = up_abort,
    .fence_nb = up_fence,
    .spawn = up_spawn,
};

/* ---- namespace registration (its info: pmix_info.c) ---- */

static pmix_status_t register_job(srv_t *srv)
{
    pmix_data_array_t arr = {0};
    pmix_status_t rc = pmix_job_info(srv->nspace, &srv->layout, &arr);
    if (rc != PMIX_SUCCESS)
        return rc;
    srv_wait_t *w = wait_new();
    rc = w ? PMIx_server_register_nspace(srv->nspace, srv->layout.nprocs, arr.array, arr.size,
                                         wait_cb, w)
           : PMIX_ERR_NOMEM;
    rc = w ? wait_for(w, rc) : rc;
    PMIx_Data_array_destruct(&arr);
    return rc;
}

/* ---- public ---- */

srv_t *srv_start(const char *nspace, const char *tmpdir, int nprocs, int nnodes)
{
    srv_t *srv = calloc(1, sizeof *srv);
    if (!srv || !(srv->clients = calloc((size_t)nprocs, sizeof *srv->clients))) {
        fprintf(stderr, "mrun: out of memory setting up the PMIx server\n");
        free(srv);
        return NULL;
    }
    srv->ev_rd = srv->ev_wr = -1;
    snprintf(srv->nspace, sizeof srv->nspace, "%s", nspace);
    for (int r = 0; r < nprocs; r++)
        srv->clients[r] = (srv_client_t){.srv = srv, .rank = r};
    if (layout_init(&srv->layout, nprocs, nnodes) != 0) {
        srv_stop(srv, false);
        return NULL;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0 || fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0) {
        fprintf(stderr, "mrun: creating the PMIx event pipe failed: %s\n", strerror(errno));
        srv_stop(srv, false);
        return NULL;
    }
    srv->ev_rd = fds[0], srv->ev_wr = fds[1];

    pmix_info_t info[2];
    memset(info, 0, sizeof info);
    if (!guard_enable()) {
        fprintf(stderr, "mrun: internal error: mrun was built without its accept() exported, "
                "so it cannot check who connects to the job's PMIx server; refusing to run a "
                "job any local user could join\n");
        srv_stop(srv, false);
        return NULL;
    }
    upcall_srv = srv;
    guard_set_admit(srv_admit);
    pmix_status_t rc = PMIx_Info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    if (rc == PMIX_SUCCESS)
        rc = PMIx_Info_load(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    if (rc == PMIX_SUCCESS)
        rc = PMIx_server_init(&srv_module, info, 2);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "mrun: PMIx_server_init failed: %s (check the PMIx installation)\n",
                PMIx_Error_string(rc));
        srv_stop(srv, false);
        return NULL;
    }
    srv->initialized = true;
    rc = register_job(srv);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "mrun: registering namespace %s with PMIx failed: %s\n", srv->nspace,
                PMIx_Error_string(rc));
        srv_stop(srv, false);
        return NULL;
    }
    srv->registered = true;
    return srv;
}

void srv_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}

/* Sets name=value in a malloc'd environment array (PMIx's array conventions). */
static int env_set(char ***envp, const char *name, const char *value)
{
    size_t nlen = strlen(name), i = 0;
    char *entry = malloc(nlen + strlen(value) + 2);
    if (!entry)
        return -1;
    sprintf(entry, "%s=%s", name, value);
    char **env = *envp;
    for (; env[i]; i++) {
        if (strncmp(env[i], name, nlen) == 0 && env[i][nlen] == '=') {
            free(env[i]);
            env[i] = entry;
            return 0;
        }
    }
    char **grown = realloc(env, (i + 2) * sizeof *grown);
    if (!grown) {
        free(entry);
        return -1;
    }
    grown[i] = entry, grown[i + 1] = NULL;
    *envp = grown;
    return 0;
}

static char **env_copy(char *const base[])
{
    size_t n = 0;
    while (base[n])
        n++;
    char **env = calloc(n + 1, sizeof *env);
    for (size_t i = 0; env && i < n; i++) {
        if (!(env[i] = strdup(base[i]))) {
            srv_env_free(env);
            return NULL;
        }
    }
    return env;
}

char **srv_rank_env(srv_t *srv, int rank, char *const base_env[])
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, srv->nspace, (pmix_rank_t)rank);
    srv_wait_t *w = wait_new();
    pmix_status_t rc = w ? PMIx_server_register_client(&proc, getuid(), getgid(), NULL, wait_cb,
                                                       w)
                         : PMIX_ERR_NOMEM;
    rc = w ? wait_for(w, rc) : rc;
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "mrun: registering rank %d with PMIx failed: %s\n", rank,
                PMIx_Error_string(rc));
        return NULL;
    }
    char **env = env_copy(base_env);
    if (!env) {
        fprintf(stderr, "mrun: out of memory building rank %d's environment\n", rank);
        return NULL;
    }
    rc = PMIx_server_setup_fork(&proc, &env);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "mrun: PMIx_server_setup_fork for rank %d failed: %s\n", rank,
                PMIx_Error_string(rc));
        srv_env_free(env);
        return NULL;
    }
    /* The client takes its node's info from the entry for this host name. */
    const char *host = srv->layout.hosts[layout_node_of(&srv->layout, rank)];
    if (env_set(&env, "PMIX_HOSTNAME", host) != 0) {
        fprintf(stderr, "mrun: out of memory building rank %d's environment\n", rank);
        srv_env_free(env);
        return NULL;
    }
    return env;
}

void srv_rank_started(srv_t *srv, int rank, pid_t pid)
{
    atomic_store(&srv->clients[rank].pid, (int)pid);
}

int srv_event_fd(const srv_t *srv) { return srv->ev_rd; }

bool srv_next_event(srv_t *srv, srv_event_t *ev)
{
    ssize_t n;
    do
        n = read(srv->ev_rd, ev, sizeof *ev);
    while (n < 0 && errno == EINTR);
    if (n == (ssize_t)sizeof *ev)
        return ev->rank >= 0 && ev->rank < srv->layout.nprocs;
    if (n < 0 && errno != EAGAIN)
        fprintf(stderr, "mrun: internal error: reading PMIx events failed: %s\n", strerror(errno));
    return false; /* events are written whole (< PIPE_BUF), so a short read cannot happen */
}

/* PMIx's own teardown, on a thread of its own: PMIx 4.2.2 was seen to block for ever in
 * PMIx_server_finalize (after a connection it had refused, and once under load), and mrun must
 * end, clean up and answer signals whatever PMIx does. */
typedef struct srv_stopper {
    srv_t *srv;
    srv_wait_t done;
} srv_stopper_t;

static void *stop_main(void *arg)
{
    srv_stopper_t *st = arg;
    srv_t *srv = st->srv;
    if (srv->registered) {
        srv_wait_t *w = wait_new();
        pmix_status_t rc = PMIX_ERR_NOMEM;
        if (w) {
            PMIx_server_deregister_nspace(srv->nspace, wait_cb, w);
            rc = wait_for(w, PMIX_SUCCESS);
        }
        if (rc != PMIX_SUCCESS)
            fprintf(stderr, "mrun: deregistering namespace %s failed: %s\n", srv->nspace,
                    PMIx_Error_string(rc));
    }
    pmix_status_t rc = PMIx_server_finalize();
    if (rc != PMIX_SUCCESS)
        fprintf(stderr, "mrun: PMIx_server_finalize failed: %s\n", PMIx_Error_string(rc));
    wait_cb(rc, &st->done);
    return NULL;
}

/* Runs stop_main with a time limit; false if PMIx did not finish within it. */
static bool stop_pmix(srv_t *srv)
{
    srv_stopper_t *st = malloc(sizeof *st);
    if (!st)
        return false;
    *st = (srv_stopper_t){.srv = srv,
                          .done = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0}};
    pthread_t t;
    if (pthread_create(&t, NULL, stop_main, st) != 0) {
        free(st);
        return false;
    }
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until); /* cannot fail for CLOCK_REALTIME */
    until.tv_sec += SRV_STOP_MS / 1000;
    until.tv_nsec += (SRV_STOP_MS % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&st->done.lock);
    int err = 0;
    while (!st->done.done && err == 0)
        err = pthread_cond_timedwait(&st->done.cond, &st->done.lock, &until);
    bool done = st->done.done;
    pthread_mutex_unlock(&st->done.lock);
    if (!done) { /* leave it: the process is about to exit */
        pthread_detach(t);
        fprintf(stderr, "mrun: PMIx did not shut down within %d ms; exiting without it\n",
                SRV_STOP_MS);
        return false;
    }
    pthread_join(t, NULL);
    free(st);
    return true;
}

bool srv_stop(srv_t *srv, bool quick)
{
    if (!srv)
        return true;
    if (srv->initialized && (quick || !stop_pmix(srv)))
        return false; /* PMIx's threads still run: srv stays, the caller must _exit */
    /* only now is the progress thread gone and the pipe no longer written */
    guard_set_admit(NULL);
    upcall_srv = NULL;
    if (srv->ev_rd >= 0)
        close(srv->ev_rd);
    if (srv->ev_wr >= 0)
        close(srv->ev_wr);
    layout_free(&srv->layout);
    free(srv->clients);
    free(srv);
    return true;
}
