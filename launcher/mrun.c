/* mrun.c: the command line and the order of things: parse options, take the ranks'
 * environment, find the program, set up signals, then PMIx server -> job -> cleanup, which
 * runs however the job ends (signals arrive through the job's loop, never as handlers). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "fdlimit.h"
#include "job.h"
#include "mrun.h"
#include "pmix_srv.h"
#include "procs.h"
#include "rankstat.h"
#include "session.h"

extern char **environ;

static char *env_find(char *const *env, const char *name, size_t len)
{
    for (; *env; env++)
        if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
            return *env;
    return NULL;
}

/* The ranks' environment: mrun's, as mrun was started, with the -x settings applied. Taken
 * before mrun sets variables meant for its own PMIx server only. */
static char **build_base_env(const mrun_opts_t *o)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + (size_t)o->nexports + 3, sizeof *env);
    if (!env) {
        fprintf(stderr, "mrun: out of memory\n");
        return NULL;
    }
    memcpy(env, environ, n * sizeof *env);
    for (int i = 0; i < o->nexports; i++) {
        const char *x = o->exports[i], *eq = strchr(x, '=');
        size_t len = eq ? (size_t)(eq - x) : strlen(x);
        char **slot = env;
        while (*slot && !(strncmp(*slot, x, len) == 0 && (*slot)[len] == '='))
            slot++;
        if (eq)
            *slot = (char *)x; /* replaces the variable, or appends it */
        else if (!*slot)
            fprintf(stderr, "mrun: warning: -x %s: %s is not set in mrun's environment\n", x, x);
    }
    /* Where a rank finds its status channel (rankstat.h), with our pid so that a process the
     * rank starts, which inherits the variable but is not our child, ignores it. */
    char **slot = env;
    while (*slot && strncmp(*slot, "RMP_MRUN_FD=", 12) != 0)
        slot++;
    *slot = (char *)o->stat_env;
    /* What /dev/shm and the memory hold before any rank creates anything (session.h), after
     * removing what killed jobs left there. */
    static char room[128];
    session_shm_sweep_dead();
    session_shm_room(o->nprocs, room, sizeof room);
    for (slot = env; *slot && strncmp(*slot, "RMP_MRUN_SHM_ROOM=", 18) != 0;)
        slot++;
    *slot = room;
    return env;
}

/* Was a profile report (summary.txt, written last but report.html) written in dir since t0? */
static bool prof_written(const char *dir, time_t t0)
{
    char path[4300];
    struct stat st;
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    return stat(path, &st) == 0 && st.st_mtime >= t0;
}

/* RMP_PROFILE asked for a report and a failed job left none: one line says why (a job that
 * ends before rank 0 gathers at rmp_finalize has nothing to report; one that got there wrote
 * a partial report naming the missing ranks, or its own line). */
static void prof_explain(char *const *env, int status, time_t t0)
{
    const char *v = env_find(env, "RMP_PROFILE", 11);
    v = v ? v + 12 : "";
    if (status == 0 || !*v || !strcmp(v, "0"))
        return;
    bool found = false;
    if (!strcmp(v, "1")) {
        DIR *d = opendir(".");
        for (struct dirent *e; d && !found && (e = readdir(d));)
            found = !strncmp(e->d_name, "rmp-profile-", 12) && prof_written(e->d_name, t0);
        if (d)
            closedir(d);
    } else
        found = prof_written(v, t0);
    if (!found)
        fprintf(stderr, "mrun: RMP_PROFILE: no report written: the job failed (status %d) "
                        "before rank 0 reached rmp_finalize to gather the ranks' counters\n",
                status);
}

/* Makes sure fds 0-2 are open, so that no pipe of ours can land on them. */
static int ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        if (open("/dev/null", O_RDWR) != fd) {
            fprintf(stderr, "mrun: cannot open /dev/null for closed fd %d\n", fd);
            return -1;
        }
    }
    return 0;
}

/* Blocks SIGCHLD and the signals that end the job, before PMIx starts its thread (which then
 * inherits the mask), and returns a signalfd for them. Records in *ignored the signals mrun
 * was started with ignored (nohup, background jobs): those stay ignored, for mrun and ranks. */
static int signals_setup(sigset_t *ignored)
{
    sigemptyset(ignored);
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa;
        if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
            sigaddset(ignored, sig);
    }
    sigdelset(ignored, SIGCHLD); /* an ignored SIGCHLD reaps children behind waitpid's back */
    struct sigaction dfl = {.sa_handler = SIG_DFL}, ign = {.sa_handler = SIG_IGN};
    /* SIGPIPE ignored: a closed stdout must not kill mrun before it cleans up */
    if (sigaction(SIGCHLD, &dfl, NULL) != 0 || sigaction(SIGPIPE, &ign, NULL) != 0) {
        fprintf(stderr, "mrun: sigaction failed: %s\n", strerror(errno));
        return -1;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    /* Every catchable signal that would end mrun comes through the loop instead (which ends
     * the job cleanly, or forwards SIGUSR1/2 to the ranks): a signal must never kill mrun and
     * orphan its ranks. So do the stop signals and SIGCONT (jobctl.c: the whole job stops and
     * continues; a blocked SIGCONT still continues mrun). Those ignored by default keep their
     * defaults. */
    for (int sig = 1; sig <= SIGRTMAX; sig++) {
        switch (sig) {
        case SIGKILL: case SIGSTOP: case SIGCHLD: case SIGPIPE: case SIGURG: case SIGWINCH:
            continue;
        }
        if ((sig > 31 && sig < SIGRTMIN) || sigismember(ignored, sig))
            continue; /* glibc's own real-time signals; or inherited as ignored */
        sigaddset(&set, sig);
    }
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) {
        fprintf(stderr, "mrun: sigprocmask failed: %s\n", strerror(errno));
        return -1;
    }
    int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd < 0)
        fprintf(stderr, "mrun: signalfd failed: %s\n", strerror(errno));
    return fd;
}

/* Server, job, cleanup: every way out of the job passes through the cleanup here. */
static int run(const mrun_opts_t *opts, int sig_fd, const sigset_t *ignored, const char *path,
               char *const base_env[])
{
    char nspace[32];
    snprintf(nspace, sizeof nspace, "mrun-%d", (int)getpid());
    session_sweep_stale();
    char *tmpdir = session_tmpdir_create();
    if (!tmpdir)
        return 1;
    int status = 1;
    bool pmix_done = true;
    time_t t0 = time(NULL);
    srv_t *srv = srv_start(nspace, tmpdir, opts->nprocs, opts->nnodes);
    if (srv) {
        job_t *job = job_start(opts, srv, sig_fd, ignored, path, base_env);
        if (job)
            status = job_wait(job);
        /* A failed job's ranks are gone: PMIx is not torn down at all (it may still be
         * handling their dropped connections, and the failure is to be reported now). */
        pmix_done = srv_stop(srv, status != 0);
    }
    session_tmpdir_remove(tmpdir);
    session_shm_sweep(nspace); /* segments of ranks that crashed before removing them */
    session_shm_sweep_dead();  /* and of killed jobs whose ranks were still dying at our start */
    free(tmpdir);
    prof_explain(base_env, status, t0);
    if (!pmix_done) { /* PMIx's threads still run: leave without running its destructors */
        fflush(stdout);
        fflush(stderr);
        _exit(status);
    }
    return status;
}

int main(int argc, char **argv)
{
    mrun_opts_t opts;
    int status = args_parse(argc, argv, &opts);
    if (status >= 0)
        goto out;
    status = 1;
    if (ensure_std_fds() != 0)
        goto out;
    char **base_env = build_base_env(&opts);
    if (!base_env)
        goto out;
    char *path = NULL;
    char *path_var = env_find(base_env, "PATH", 4);
    int err = procs_resolve(opts.argv[0], path_var ? path_var + 5 : NULL, &path);
    if (err != 0) {
        fprintf(stderr, "mrun: cannot execute '%s': %s\n", opts.argv[0], strerror(err));
        status = err == ENOENT ? 127 : 126;
        goto out_env;
    }
    sigset_t ignored;
    int sig_fd = signals_setup(&ignored);
    if (sig_fd < 0)
        goto out_path;
    /* For mrun's own PMIx server: no hwloc I/O discovery (3x faster start), no shared-memory
     * files that a killed mrun would leak, and none of PMIx's own error lines ("PMIX ERROR:
     * UNREACHABLE in file ...ptl_base_connection_hdlr.c" when a rank dies while connecting):
     * they name PMIx's source files, not the cause, and mrun reports every failure in a line
     * of its own (PMIX_OUTPUT_STDERR_FD=2 shows them). The ranks' environment is taken. */
    int quiet = open("/dev/null", O_WRONLY | O_CLOEXEC);
    char quiet_fd[16];
    snprintf(quiet_fd, sizeof quiet_fd, "%d", quiet);
    if (setenv("HWLOC_COMPONENTS", "-pci,-opencl,-gl,-linuxio", 0) != 0 ||
        setenv("PMIX_MCA_gds", "hash", 0) != 0 ||
        (quiet >= 0 && setenv("PMIX_OUTPUT_STDERR_FD", quiet_fd, 0) != 0)) {
        fprintf(stderr, "mrun: setenv failed: %s\n", strerror(errno));
        goto out_sig;
    }
    if (!fdlimit_prepare(opts.nprocs, opts.output_dir != NULL))
        goto out_sig;
    status = run(&opts, sig_fd, &ignored, path, base_env);
out_sig:
    if (quiet >= 0)
        close(quiet);
    close(sig_fd);
out_path:
    free(path);
out_env:
    free(base_env);
out:
    args_free(&opts);
    return status;
}
