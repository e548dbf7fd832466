/* job.c: the life of a job: start the ranks, then one poll loop over signals, PMIx events and
 * the ranks' output. The first failure is reported in one line and ends the job (SIGTERM, then
 * SIGKILL after a grace period); deaths that follow are its consequence and go unreported. */
#include "job.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "output.h"
#include "procs.h"

enum {
    GRACE_MS = 1000, /* SIGTERM -> SIGKILL */
    DRAIN_MS = 1000, /* after the last rank: how long its output and PMIx connection may lag */
};

typedef struct rank {
    pid_t pid; /* 0: never started */
    bool own_group;
    bool alive; /* started and not reaped yet */
    bool connected, finalized;
    bool released; /* PMIx reported its connection done (finalized or dropped) */
    out_stream_t out, err;
} rank_t;

struct job {
    const mrun_opts_t *opts;
    srv_t *srv;
    int sig_fd;
    rank_t *ranks;
    int nprocs, nalive;
    int nattached; /* connected ranks PMIx is not done with yet */
    bool any_connected;
    int clean_uninit; /* the first rank that exited 0 without connecting; -1: none */
    bool failed;      /* a failure was reported: the job is being torn down */
    int status;       /* mrun's exit status once failed */
    int64_t kill_at, timeout_at, drain_until; /* monotonic ms; 0: not set */
    struct pollfd *pfds;
    out_stream_t **pstreams; /* the stream behind pfds[i] */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        fprintf(stderr, "mrun: clock_gettime failed: %s\n", strerror(errno));
        return 0;
    }
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Signals every rank, and the process group of every rank that leads one (even after it
 * exited: its children may still be in there). */
static void signal_all(job_t *job, int sig)
{
    for (int r = 0; r < job->nprocs; r++) {
        rank_t *rk = &job->ranks[r];
        if (rk->pid > 0 && (rk->alive || rk->own_group))
            procs_kill(rk->pid, rk->own_group, sig);
    }
}

/* Reports the job's first failure and starts tearing it down; later calls do nothing. */
__attribute__((format(printf, 3, 4))) static void job_fail(job_t *job, int status,
                                                           const char *fmt, ...)
{
    if (job->failed)
        return;
    job->failed = true;
    job->status = status;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "mrun: %s\n", msg);
    signal_all(job, SIGTERM);
    job->kill_at = now_ms() + GRACE_MS;
}

static void fail_uninit(job_t *job, int r)
{
    job_fail(job, 1, "rank %d exited without calling rmp_init while other ranks did; "
             "terminating the job", r);
}

static void fail_unfinalized(job_t *job, int r)
{
    job_fail(job, 1, "rank %d exited without calling rmp_finalize; terminating the job", r);
}

static void on_rank_exit(job_t *job, int r, int wstatus)
{
    rank_t *rk = &job->ranks[r];
    if (job->failed)
        return;
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        job_fail(job, 128 + sig, "rank %d (pid %d) killed by signal %d (%s); terminating the job",
                 r, (int)rk->pid, sig, strsignal(sig));
    } else if (WEXITSTATUS(wstatus) != 0) {
        job_fail(job, WEXITSTATUS(wstatus),
                 "rank %d (pid %d) exited with status %d; terminating the job", r, (int)rk->pid,
                 WEXITSTATUS(wstatus));
    } else if (rk->connected && !rk->finalized) {
        /* its peers would wait for it in their next fence forever */
        fail_unfinalized(job, r);
    } else if (!rk->connected && job->any_connected) {
        /* PMIx fences hang when a participant dies before PMIx_Init */
        fail_uninit(job, r);
    } else if (!rk->connected && job->clean_uninit < 0) {
        job->clean_uninit = r; /* fine for a plain program, a failure once any rank connects */
    }
}

static void reap(job_t *job)
{
    for (;;) {
        int wstatus;
        pid_t pid = waitpid(-1, &wstatus, WNOHANG);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid < 0 && errno != ECHILD)
            fprintf(stderr, "mrun: waitpid failed: %s\n", strerror(errno));
        if (pid <= 0)
            return;
        for (int r = 0; r < job->nprocs; r++) {
            rank_t *rk = &job->ranks[r];
            if (rk->pid == pid && rk->alive) {
                rk->alive = false;
                job->nalive--;
                on_rank_exit(job, r, wstatus);
                break;
            }
        }
    }
}

/* An abort code becomes mrun's status; one that isn't a valid failure status becomes 1. */
static int abort_status(int code) { return code > 0 && code < 256 ? code : 1; }

static void on_events(job_t *job)
{
    srv_event_t ev;
    while (srv_next_event(job->srv, &ev)) {
        rank_t *rk = &job->ranks[ev.rank];
        switch (ev.kind) {
        case SRV_CONNECTED:
            rk->connected = job->any_connected = true;
            job->nattached++;
            if (job->clean_uninit == ev.rank) /* reaped before we heard its PMIx_Init */
                fail_unfinalized(job, ev.rank);
            else if (job->clean_uninit >= 0)
                fail_uninit(job, job->clean_uninit);
            break;
        case SRV_FINALIZED:
        case SRV_DISCONNECTED:
            rk->finalized = ev.kind == SRV_FINALIZED;
            if (!rk->released)
                job->nattached--;
            rk->released = true;
            break;
        case SRV_ABORTED:
            job_fail(job, abort_status(ev.status),
                     "rank %d called rmp_abort with code %d; terminating the job", ev.rank,
                     ev.status);
            break;
        }
    }
}

static void on_signals(job_t *job)
{
    struct signalfd_siginfo si;
    ssize_t n;
    while ((n = read(job->sig_fd, &si, sizeof si)) == (ssize_t)sizeof si) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD)
            continue; /* the loop reaps on every pass */
        if (job->failed)
            job->kill_at = now_ms(); /* asked again: skip the rest of the grace period */
        job_fail(job, 128 + sig, "received signal %d (%s); terminating the job", sig,
                 strsignal(sig));
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR)
        fprintf(stderr, "mrun: reading signals failed: %s\n", strerror(errno));
}

/* Fills pfds: signals, PMIx events, then each open output stream. Returns the count. */
static int build_pollset(job_t *job)
{
    int n = 0;
    job->pfds[n++] = (struct pollfd){.fd = job->sig_fd, .events = POLLIN};
    job->pfds[n++] = (struct pollfd){.fd = srv_event_fd(job->srv), .events = POLLIN};
    for (int r = 0; r < job->nprocs; r++) {
        out_stream_t *s[2] = {&job->ranks[r].out, &job->ranks[r].err};
        for (int i = 0; i < 2; i++) {
            if (s[i]->fd < 0)
                continue;
            job->pstreams[n] = s[i];
            job->pfds[n++] = (struct pollfd){.fd = s[i]->fd, .events = POLLIN};
        }
    }
    return n;
}

static int poll_timeout(const job_t *job, int64_t now)
{
    int64_t next = INT64_MAX;
    const int64_t deadlines[] = {job->kill_at, job->timeout_at, job->drain_until};
    for (size_t i = 0; i < sizeof deadlines / sizeof *deadlines; i++)
        if (deadlines[i] > 0 && deadlines[i] < next)
            next = deadlines[i];
    if (next == INT64_MAX)
        return -1;
    return next <= now ? 0 : (int)(next - now < 60000 ? next - now : 60000);
}

/* Deadlines due now: the timeout, the SIGKILL after the grace period, the end of the job. */
static void on_time(job_t *job, int64_t now)
{
    if (job->timeout_at > 0 && now >= job->timeout_at && job->nalive > 0)
        job_fail(job, 124, "job timed out after %s s; terminating %d ranks",
                 job->opts->timeout_arg, job->nalive);
    if (job->timeout_at > 0 && now >= job->timeout_at)
        job->timeout_at = 0;
    if (job->kill_at > 0 && now >= job->kill_at) {
        signal_all(job, SIGKILL);
        job->kill_at = 0;
    }
    if (job->nalive == 0 && job->drain_until == 0) {
        /* The ranks are gone; what they forked must not outlive the job or hold its pipes. */
        for (int r = 0; r < job->nprocs; r++)
            if (job->ranks[r].own_group)
                procs_kill(job->ranks[r].pid, true, SIGKILL);
        job->drain_until = now + DRAIN_MS;
    }
}

/* Flushes and closes the output streams that are still open, and frees the job. */
static void job_free(job_t *job)
{
    for (int r = 0; job->ranks && r < job->nprocs; r++) {
        out_close(&job->ranks[r].out);
        out_close(&job->ranks[r].err);
    }
    free(job->ranks);
    free(job->pfds);
    free(job->pstreams);
    free(job);
}

int job_wait(job_t *job)
{
    for (;;) {
        /* Events before exits: a rank's PMIx_Init/Finalize/Abort upcall is posted before
         * that call returns to the rank, so it is in the pipe before the rank can exit. */
        on_events(job);
        reap(job);
        int64_t now = now_ms();
        on_time(job, now);
        int nfds = build_pollset(job);
        /* Done when the output is drained and PMIx has let go of every rank's connection:
         * deregistering the namespace while it still handles a dropped client crashes it. */
        if (job->drain_until > 0 && ((nfds == 2 && job->nattached == 0) || now >= job->drain_until))
            break;
        int rc = poll(job->pfds, (nfds_t)nfds, poll_timeout(job, now));
        if (rc < 0 && errno != EINTR) {
            fprintf(stderr, "mrun: poll failed: %s; killing the job\n", strerror(errno));
            job_fail(job, 1, "terminating the job after an internal error");
            signal_all(job, SIGKILL);
            while (job->nalive > 0 && waitpid(-1, NULL, 0) > 0)
                job->nalive--;
            break;
        }
        if (rc <= 0)
            continue;
        if (job->pfds[0].revents)
            on_signals(job);
        for (int i = 2; i < nfds; i++)
            if (job->pfds[i].revents)
                out_pump(job->pstreams[i]);
    }
    int status = job->failed ? job->status : 0;
    job_free(job);
    return status;
}

static job_t *job_alloc(const mrun_opts_t *opts, srv_t *srv, int sig_fd)
{
    job_t *job = calloc(1, sizeof *job);
    size_t n = (size_t)opts->nprocs, nfds = 2 + 2 * n;
    if (!job || !(job->ranks = calloc(n, sizeof *job->ranks)) ||
        !(job->pfds = calloc(nfds, sizeof *job->pfds)) ||
        !(job->pstreams = calloc(nfds, sizeof *job->pstreams))) {
        fprintf(stderr, "mrun: out of memory for %d ranks\n", opts->nprocs);
        if (job) /* its streams are not set up yet: free by hand */
            free(job->ranks), free(job->pfds);
        free(job);
        return NULL;
    }
    job->opts = opts;
    job->srv = srv;
    job->sig_fd = sig_fd;
    job->nprocs = opts->nprocs;
    job->clean_uninit = -1;
    for (int r = 0; r < job->nprocs; r++) {
        out_init(&job->ranks[r].out, -1, STDOUT_FILENO, r, opts->tag_output);
        out_init(&job->ranks[r].err, -1, STDERR_FILENO, r, opts->tag_output);
    }
    if (opts->timeout_s > 0)
        job->timeout_at = now_ms() + (int64_t)(opts->timeout_s * 1000 + 0.999);
    return job;
}

/* The CPUs ranks are bound to, in order (rank i gets cpus[i % n]); 0: no binding. Like Open
 * MPI, ranks are bound to cores by default only when they fit the CPUs mrun may use: a rank
 * that keeps its CPU keeps its caches, and two ranks never share one by accident (on this
 * kind of machine an unbound ping-pong pair often lands on one CPU: 2x the latency). With more
 * ranks than CPUs, binding would only stop the scheduler from balancing them. */
static int bind_cpus(const mrun_opts_t *opts, int *cpus)
{
    cpu_set_t set;
    if (opts->bind == BIND_NONE || sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            cpus[n++] = c;
    if (opts->bind == BIND_AUTO && opts->nprocs > n)
        return 0;
    return n;
}

/* Starts rank r; returns 0 or -1 after printing why. */
static int start_rank(job_t *job, int r, const procs_spec_t *spec, char *const base_env[],
                      int devnull, bool tty_stdin, procs_child_t *child)
{
    char **env = srv_rank_env(job->srv, r, base_env);
    if (!env)
        return -1;
    /* Rank 0 reads mrun's stdin. On a terminal it has to stay in mrun's (foreground) process
     * group, or its reads would stop it with SIGTTIN; the others get a group of their own. */
    bool own_group = !(r == 0 && tty_stdin);
    int err = procs_spawn(spec, env, r == 0 ? -1 : devnull, own_group, child);
    srv_env_free(env);
    if (err != 0) {
        fprintf(stderr, "mrun: starting rank %d failed: %s\n", r, strerror(err));
        return -1;
    }
    srv_rank_started(job->srv, r, child->pid);
    rank_t *rk = &job->ranks[r];
    rk->pid = child->pid;
    rk->own_group = own_group;
    rk->alive = true;
    rk->out.fd = child->out_fd;
    rk->err.fd = child->err_fd;
    job->nalive++;
    return 0;
}

job_t *job_start(const mrun_opts_t *opts, srv_t *srv, int sig_fd, const sigset_t *ignored,
                 const char *path, char *const base_env[])
{
    job_t *job = job_alloc(opts, srv, sig_fd);
    procs_child_t *kids = calloc((size_t)opts->nprocs, sizeof *kids);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (!job || !kids || devnull < 0) {
        if (devnull < 0)
            fprintf(stderr, "mrun: cannot open /dev/null: %s\n", strerror(errno));
        else if (job && !kids)
            fprintf(stderr, "mrun: out of memory for %d ranks\n", opts->nprocs);
        if (devnull >= 0)
            close(devnull);
        free(kids);
        if (job)
            job_free(job);
        return NULL;
    }
    procs_spec_t spec = {.path = path, .argv = opts->argv, .ignored = ignored, .cpu = -1};
    bool tty_stdin = isatty(STDIN_FILENO);
    int cpus[CPU_SETSIZE], ncpus = bind_cpus(opts, cpus);
    int started = 0;
    for (; started < opts->nprocs; started++) {
        spec.cpu = ncpus > 0 ? cpus[started % ncpus] : -1;
        if (start_rank(job, started, &spec, base_env, devnull, tty_stdin, &kids[started]) != 0)
            break;
    }
    close(devnull);
    /* Exec results are collected only now, so that the ranks start in parallel. */
    for (int r = 0; r < started; r++) {
        int err = procs_exec_result(&kids[r]);
        if (err != 0)
            job_fail(job, err == ENOENT ? 127 : 126, "cannot execute '%s': %s", opts->argv[0],
                     strerror(err));
    }
    if (started < opts->nprocs)
        job_fail(job, 1, "could not start all %d ranks; terminating the job", opts->nprocs);
    free(kids);
    return job;
}
