/* job.c: the life of a job: start the ranks, then one poll loop over signals, PMIx events and
 * the ranks' output. The first failure is reported in one line and ends the job (SIGTERM, then
 * SIGKILL after a grace period); deaths that follow are its consequence and go unreported
 * (how each rank's end is judged: job_verdict.c). */
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

#include "job_int.h"
#include "jobctl.h"
#include "output.h"
#include "procs.h"
#include "rankstat.h"

/* A rank's PMIx_Init or rmp_init became known. */
static void on_initialized(job_t *job, int r)
{
    job->any_connected = true;
    if (job->clean_uninit == r) { /* reaped before we heard of its init */
        job->clean_uninit = -1;
        job_judge(job, r, true);
    } else if (job->clean_uninit >= 0) {
        job_fail_uninit(job, job->clean_uninit);
    }
}

static void on_events(job_t *job)
{
    srv_event_t ev;
    while (srv_next_event(job->srv, &ev)) {
        rank_t *rk = &job->ranks[ev.rank];
        switch (ev.kind) {
        case SRV_CONNECTED:
            rk->connected = true;
            job->nattached++;
            on_initialized(job, ev.rank);
            break;
        case SRV_FINALIZED:
        case SRV_DISCONNECTED:
            rk->finalized |= ev.kind == SRV_FINALIZED; /* never undone by a later event */
            if (!rk->released)
                job->nattached--;
            rk->released = true;
            if (rk->late_at)
                job_judge(job, ev.rank, false);
            break;
        case SRV_ABORTED: {
            /* An rmp rank wrote the code it was given before PMIx_Abort (which carries the
             * mapped status): name that one. One that reported a peer's failure first (MPI's
             * fatal error handler) is judged at its reap like any consequence: it exits as
             * soon as PMIx_Abort returns. */
            rankstat_pump(&rk->st, job->nprocs);
            if (rk->st.aborted && rk->st.saw_peer >= 0 && rk->st.saw_peer != ev.rank)
                break;
            int code = rk->st.aborted ? rk->st.abort_code : ev.status;
            job_fail(job, job_abort_status(code),
                     "rank %d called rmp_abort with code %d; terminating the job", ev.rank, code);
            break;
        }
        case SRV_SPAWN:
            job_on_spawn(job);
            break;
        }
    }
}

static void signal_all_cb(void *job, int sig) { job_signal_all(job, sig); }

/* The job was stopped for ms milliseconds: no deadline counts that time (the ranks did not
 * run either). */
static void shift_deadlines(job_t *job, int64_t ms)
{
    int64_t *all[] = {&job->kill_at, &job->timeout_at, &job->drain_until, &job->flush_until};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (*all[i] > 0)
            *all[i] += ms;
    for (int r = 0; r < job->nprocs; r++) {
        if (job->ranks[r].late_at > 0)
            job->ranks[r].late_at += ms;
        if (job->ranks[r].held_at > 0)
            job->ranks[r].held_at += ms;
    }
}

/* Signals mrun forwards to the ranks, as mpirun does; every other one ends the job. */
static bool forwarded(int sig) { return sig == SIGUSR1 || sig == SIGUSR2; }

static void on_signals(job_t *job)
{
    struct signalfd_siginfo si;
    ssize_t n;
    while ((n = read(job->sig_fd, &si, sizeof si)) == (ssize_t)sizeof si) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD)
            continue; /* the loop reaps on every pass */
        if (jobctl_is_stop(sig)) { /* Ctrl-Z: the whole job stops, and later goes on */
            shift_deadlines(job, jobctl_stop(sig, signal_all_cb, job));
            continue;
        }
        if (sig == SIGCONT) { /* mrun was stopped by SIGSTOP, which it cannot see coming */
            job_signal_all(job, SIGCONT);
            continue;
        }
        if (forwarded(sig)) {
            for (int r = 0; r < job->nprocs; r++)
                if (job->ranks[r].alive)
                    procs_kill(job->ranks[r].pid, false, sig);
            continue;
        }
        if (job->failed)
            job->kill_at = job_now_ms(); /* asked again: skip the rest of the grace period */
        if (job->failed && job->nalive == 0)
            job->flush_until = job_now_ms(); /* and stop waiting for a stalled reader */
        job_fail(job, 128 + sig, "received signal %d (%s); terminating the job", sig,
                 strsignal(sig));
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR)
        fprintf(stderr, "mrun: reading signals failed: %s\n", strerror(errno));
}

/* Adds output stream s to pfds (read only while its sink has room: back-pressure) and
 * its timer to job->out_next. */
static void poll_stream(job_t *job, out_stream_t *s, int *n, int64_t now)
{
    int64_t t = out_tick(s, now);
    if (t > 0 && (job->out_next == 0 || t < job->out_next))
        job->out_next = t;
    if (s->fd < 0)
        return;
    bool read = out_wants_read(s);
    job->nblocked += !read;
    job->pstreams[*n] = s;
    job->pstat[*n] = -1;
    /* not -1 but events 0 would still report a hang-up, again and again */
    job->pfds[(*n)++] = (struct pollfd){.fd = read ? s->fd : -1, .events = POLLIN};
}

/* Fills pfds: signals, PMIx events, then each open output stream and status channel, mrun's
 * own stderr pipe, and last the sinks with queued output (from *first_sink).
 * Returns the count; *nout: how many are the ranks' output streams. */
static int build_pollset(job_t *job, int *nout, int *first_sink, int64_t now)
{
    int n = 0;
    *nout = 0;
    job->out_next = 0;
    job->nblocked = 0;
    job->pfds[n++] = (struct pollfd){.fd = job->sig_fd, .events = POLLIN};
    job->pfds[n++] = (struct pollfd){.fd = srv_event_fd(job->srv), .events = POLLIN};
    for (int r = 0; r < job->nprocs; r++) {
        rank_t *rk = &job->ranks[r];
        out_stream_t *s[2] = {&rk->out, &rk->err};
        for (int i = 0; i < 2; i++) {
            *nout += s[i]->fd >= 0;
            poll_stream(job, s[i], &n, now);
        }
        if (rk->st.fd >= 0) {
            job->pstreams[n] = NULL;
            job->pstat[n] = r;
            job->pfds[n++] = (struct pollfd){.fd = rk->st.fd, .events = POLLIN};
        }
    }
    for (int i = 0; i < job->nsubs; i++) {
        out_stream_t *s[2] = {&job->subs[i]->out, &job->subs[i]->err};
        for (int k = 0; k < 2; k++) {
            *nout += s[k]->fd >= 0;
            poll_stream(job, s[k], &n, now);
        }
    }
    poll_stream(job, &job->sinks.self, &n, now);
    *first_sink = n;
    return n + out_sinks_pollfds(&job->sinks, job->pfds + n);
}

static int poll_timeout(const job_t *job, int64_t now)
{
    int64_t next = INT64_MAX;
    /* a past flush_until has done its work (the loop ends): it must not spin the loop */
    int64_t flush = job->flush_until > now ? job->flush_until : 0;
    const int64_t deadlines[] = {job->kill_at, job->timeout_at, job->drain_until, flush,
                                 job->out_next};
    for (size_t i = 0; i < sizeof deadlines / sizeof *deadlines; i++)
        if (deadlines[i] > 0 && deadlines[i] < next)
            next = deadlines[i];
    for (int r = 0; r < job->nprocs; r++) {
        const rank_t *rk = &job->ranks[r];
        if (rk->late_at > 0 && rk->late_at < next)
            next = rk->late_at;
        if (rk->held_at > 0 && rk->held_at < next)
            next = rk->held_at;
    }
    if (next == INT64_MAX)
        return -1;
    return next <= now ? 0 : (int)(next - now < 60000 ? next - now : 60000);
}

/* Deadlines due now: a held verdict, the timeout, the SIGKILL after the grace period, the end
 * of the job. */
static void on_time(job_t *job, int64_t now)
{
    for (int r = 0; r < job->nprocs; r++) /* first: such a verdict may release a hold */
        if (job->ranks[r].late_at > 0 && now >= job->ranks[r].late_at)
            job_judge(job, r, true);
    /* The first held failure whose peer's verdict did not come in time: blamed on the link
     * of its chain nearest the cause (the peer it blamed may be held on another, and so on). */
    int due = -1;
    for (int r = 0; job->nheld > 0 && r < job->nprocs; r++)
        if (job->ranks[r].held_at > 0 && now >= job->ranks[r].held_at &&
            (due < 0 || job->ranks[r].held_at < job->ranks[due].held_at))
            due = r;
    if (due >= 0)
        job_fail_held(job, job_chain_end(job, due));
    if (job->timeout_at > 0 && now >= job->timeout_at && job->nalive > 0 && !job->failed &&
        !job->report_asked) {
        /* First each rank prints where it waits (the runtime's SIGURG handler, runtime/hang.c;
         * the signal is ignored by any other process): their lines name the call, the
         * communicator and the ranks awaited, which is what a hung job's user needs. */
        job->report_asked = true;
        job_signal_all(job, SIGURG);
        job->timeout_at = now + REPORT_MS;
    }
    if (job->timeout_at > 0 && now >= job->timeout_at && job->nalive > 0)
        job_fail(job, 124, "job timed out after %s s; terminating %d ranks",
                 job->opts->timeout_arg, job->nalive);
    else if (job->timeout_at > 0 && now >= job->timeout_at && !out_sinks_idle(&job->sinks))
        job_fail(job, 124, "job timed out after %s s: its ranks have ended, but the reader of "
                 "its output has not taken it all", job->opts->timeout_arg);
    if (job->timeout_at > 0 && now >= job->timeout_at)
        job->timeout_at = 0;
    if (job->kill_at > 0 && now >= job->kill_at) {
        job_signal_all(job, SIGKILL);
        job->kill_at = 0;
    }
    if (job->nalive == 0 && job->drain_until == 0) {
        /* The ranks are gone; what they forked must not outlive the job or hold its pipes. */
        for (int r = 0; r < job->nprocs; r++)
            if (job->ranks[r].own_group)
                procs_kill(job->ranks[r].pid, true, SIGKILL);
        job->drain_until = now + DRAIN_MS;
    }
    if (job->failed && job->nalive == 0 && job->flush_until == 0)
        job->flush_until = now + FLUSH_MS;
}

/* Flushes and closes the output streams that are still open (giving the reader a moment,
 * unless it already had its time), and frees the job. */
static void job_free(job_t *job)
{
    for (int r = 0; job->ranks && r < job->nprocs; r++) {
        out_close(&job->ranks[r].out);
        out_close(&job->ranks[r].err);
        rankstat_close(&job->ranks[r].st);
    }
    job_subs_free(job);
    if (job->sinks_open)
        out_sinks_close(&job->sinks, job->flush_until > 0 ? 0 : DRAIN_MS);
    free(job->ranks);
    free(job->pfds);
    free(job->pstreams);
    free(job->pstat);
    free(job);
}

int job_wait(job_t *job)
{
    for (;;) {
        /* PMIx's upcalls are not ordered before a rank's exit (a "finalized" was measured
         * arriving after the reap): verdicts rest on the ranks' own status channel, read at
         * reap time, and wait a bounded time for PMIx only for clients that lack it. */
        on_events(job);
        job_reap(job);
        int64_t now = job_now_ms();
        on_time(job, now);
        int nout, first_sink, nfds = build_pollset(job, &nout, &first_sink, now);
        /* Done when every verdict is in, the output is drained and, after a clean run, PMIx
         * has let go of every rank's connection: deregistering the namespace while it still
         * handles a dropped client crashes it. A failed job does not wait for PMIx: mrun
         * leaves without tearing PMIx down (srv_stop's quick mode), within moments of the
         * failure. */
        bool judged = true;
        for (int r = 0; r < job->nprocs && judged; r++)
            judged = job->ranks[r].late_at == 0 && job->ranks[r].held_at == 0;
        /* Output held back by a stalled reader is waited for (after a failure, up to
         * flush_until): it is the ranks' last words. */
        bool flushed = job->flush_until > 0 && now >= job->flush_until;
        if (!flushed && job->nblocked > 0 && job->drain_until > 0 && now >= job->drain_until)
            job->drain_until = now + DRAIN_MS;
        if (job->drain_until > 0 && judged &&
            ((nout == 0 && (job->failed || job->nattached == 0)) || now >= job->drain_until) &&
            (flushed || out_sinks_idle(&job->sinks)))
            break;
        int rc = poll(job->pfds, (nfds_t)nfds, poll_timeout(job, now));
        if (rc < 0 && errno != EINTR) {
            fprintf(stderr, "mrun: poll failed: %s; killing the job\n", strerror(errno));
            job_fail(job, 1, "terminating the job after an internal error");
            job_signal_all(job, SIGKILL);
            while (job->nalive > 0 && waitpid(-1, NULL, 0) > 0)
                job->nalive--;
            break;
        }
        if (rc <= 0)
            continue;
        if (job->pfds[0].revents)
            on_signals(job);
        out_sinks_ready(&job->sinks, job->pfds + first_sink, nfds - first_sink);
        for (int i = 2; i < first_sink; i++) {
            if (!job->pfds[i].revents)
                continue;
            if (job->pstreams[i]) {
                out_pump(job->pstreams[i]);
            } else {
                rank_t *rk = &job->ranks[job->pstat[i]];
                bool was_init = rk->st.init;
                rankstat_pump(&rk->st, job->nprocs);
                if (rk->st.init && !was_init)
                    on_initialized(job, job->pstat[i]);
            }
        }
    }
    int status = job->failed ? job->status : 0;
    job_free(job);
    return status;
}

static job_t *job_alloc(const mrun_opts_t *opts, srv_t *srv, int sig_fd)
{
    job_t *job = calloc(1, sizeof *job);
    size_t n = (size_t)opts->nprocs, nfds = 2 + 3 * n + 3; /* + self pipe, 2 sinks */
    if (!job || !(job->ranks = calloc(n, sizeof *job->ranks)) ||
        !(job->pfds = calloc(nfds, sizeof *job->pfds)) ||
        !(job->pstreams = calloc(nfds, sizeof *job->pstreams)) ||
        !(job->pstat = calloc(nfds, sizeof *job->pstat))) {
        fprintf(stderr, "mrun: out of memory for %d ranks\n", opts->nprocs);
        if (job) /* its streams are not set up yet: free by hand */
            free(job->ranks), free(job->pfds), free(job->pstreams);
        free(job);
        return NULL;
    }
    job->opts = opts;
    job->srv = srv;
    job->sig_fd = sig_fd;
    job->nprocs = opts->nprocs;
    job->clean_uninit = -1;
    out_sinks_open(&job->sinks);
    job->sinks_open = true;
    const char *label = job_spawn_label(); /* a spawned job's lines say so */
    for (int r = 0; r < job->nprocs; r++) {
        rankstat_init(&job->ranks[r].st, -1);
        out_init(&job->ranks[r].out, &job->sinks.out, r, opts->tag_output || label);
        out_init(&job->ranks[r].err, &job->sinks.err, r, opts->tag_output || label);
        job->ranks[r].out.label = job->ranks[r].err.label = label;
    }
    for (int r = 0; opts->output_dir && r < job->nprocs; r++) {
        int fd = out_open_file(opts->output_dir, r, "stdout");
        if (fd >= 0)
            out_init_file(&job->ranks[r].out, fd, r, opts->tag_output);
        if (fd < 0 || (fd = out_open_file(opts->output_dir, r, "stderr")) < 0) {
            job_free(job);
            return NULL;
        }
        out_init_file(&job->ranks[r].err, fd, r, opts->tag_output);
    }
    if (opts->timeout_s > 0)
        job->timeout_at = job_now_ms() + (int64_t)(opts->timeout_s * 1000 + 0.999);
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
    rk->st.fd = child->stat_fd;
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
    job->base_env = base_env;
    job->ignored = *ignored;
    procs_spec_t spec = {.path = path, .argv = opts->argv, .ignored = ignored, .cpu = -1};
    bool tty_stdin = isatty(STDIN_FILENO);
    int cpus[CPU_SETSIZE], ncpus = bind_cpus(opts, cpus);
    int started = 0;
    for (; started < opts->nprocs; started++) {
        spec.cpu = ncpus > 0 ? cpus[started % ncpus] : -1;
        if (opts->report_bindings && spec.cpu >= 0)
            fprintf(stderr, "mrun: rank %d bound to CPU %d\n", started, spec.cpu);
        else if (opts->report_bindings)
            fprintf(stderr, "mrun: rank %d not bound (%s)\n", started,
                    opts->bind == BIND_NONE ? "--bind-to none" : "more ranks than CPUs");
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
