/* procs.c: rank process mechanics. The child runs only async-signal-safe calls between fork
 * and exec (mrun has PMIx's thread running), so everything it needs is prepared beforehand and
 * the program is looked up in the parent. */
#include "procs.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rankstat.h"

/* 0 if path is an executable regular file, else the errno exec would give. */
static int check_exec(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        return EACCES;
    return 0;
}

int procs_resolve(const char *prog, const char *path_var, char **path)
{
    if (*prog == '\0')
        return ENOENT;
    if (strchr(prog, '/')) {
        int err = check_exec(prog);
        if (err == 0 && !(*path = strdup(prog)))
            err = ENOMEM;
        return err;
    }
    int err = ENOENT;
    const char *dir = path_var ? path_var : "/bin:/usr/bin";
    for (;;) {
        const char *end = strchrnul(dir, ':');
        int dlen = (int)(end - dir);
        char *cand;
        /* an empty PATH entry means the current directory, as for the shell */
        if (asprintf(&cand, "%.*s%s%s", dlen, dir, dlen ? "/" : "", prog) < 0)
            return ENOMEM;
        int e = check_exec(cand);
        if (e == 0) {
            *path = cand;
            return 0;
        }
        if (e == EACCES) /* like execvp: remember it, but a later entry may still work */
            err = EACCES;
        free(cand);
        if (*end == '\0')
            return err;
        dir = end + 1;
    }
}

static struct rlimit rank_nofile;
static bool rank_nofile_set;

void procs_rank_nofile(const struct rlimit *rl)
{
    rank_nofile = *rl;
    rank_nofile_set = true;
}

/* In the child: async-signal-safe calls only. Never returns. */
static void child_exec(const procs_spec_t *spec, char *const envp[], int stdin_fd, bool own_group,
                       pid_t parent, int out_w, int err_w, int stat_w, int exec_w)
{
    if ((own_group && setpgid(0, 0) != 0) || (spec->cwd && chdir(spec->cwd) != 0))
        goto fail;
    /* Die with mrun even if it is SIGKILLed; if it died before this took effect, go now. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        goto fail;
    if (getppid() != parent)
        _exit(127);
    if ((stdin_fd >= 0 && dup2(stdin_fd, STDIN_FILENO) < 0) || dup2(out_w, STDOUT_FILENO) < 0 ||
        dup2(err_w, STDERR_FILENO) < 0)
        goto fail;
    /* The rank gets the signal state mrun was started with, not the one mrun runs with. */
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP && !sigismember(spec->ignored, sig))
            (void)sigaction(sig, &dfl, NULL); /* fails only for glibc's reserved signals */
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) != 0)
        goto fail;
    /* PMIx's sockets and other fds of mrun must not leak into the rank (best effort: old
     * kernels lack close_range, and mrun's own fds are close-on-exec anyway). */
    (void)close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    /* The status channel at its agreed number, the one fd we pass on (dup2 onto itself would
     * keep close-on-exec, hence the fcntl). */
    if ((stat_w != RANKSTAT_FD && dup2(stat_w, RANKSTAT_FD) < 0) ||
        fcntl(RANKSTAT_FD, F_SETFD, 0) != 0)
        goto fail;
    /* The limit mrun was started with, not the one mrun raised for itself (a program that
     * uses select() must not see more than it was given). */
    if (rank_nofile_set && setrlimit(RLIMIT_NOFILE, &rank_nofile) != 0)
        goto fail;
    if (spec->cpu >= 0) { /* best effort: a CPU taken away meanwhile only loses the binding */
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(spec->cpu, &set);
        (void)sched_setaffinity(0, sizeof set, &set);
    }
    execve(spec->path, spec->argv, envp);
fail:;
    int err = errno;
    (void)!write(exec_w, &err, sizeof err);
    _exit(err == ENOENT ? 127 : 126);
}

int procs_spawn(const procs_spec_t *spec, char *const envp[], int stdin_fd, bool own_group,
                procs_child_t *child)
{
    int out[2] = {-1, -1}, err[2] = {-1, -1}, st[2] = {-1, -1}, ex[2] = {-1, -1};
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 || pipe2(st, O_CLOEXEC) != 0 ||
        fcntl(st[0], F_SETFL, O_NONBLOCK) != 0 || pipe2(ex, O_CLOEXEC) != 0) {
        int e = errno;
        for (int i = 0; i < 2; i++) /* EBADF on -1 is harmless */
            close(out[i]), close(err[i]), close(st[i]), close(ex[i]);
        return e;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child_exec(spec, envp, stdin_fd, own_group, parent, out[1], err[1], st[1], ex[1]);
    int e = errno;
    close(out[1]), close(err[1]), close(st[1]), close(ex[1]);
    if (pid < 0) {
        close(out[0]), close(err[0]), close(st[0]), close(ex[0]);
        return e;
    }
    /* Also set the group here, so that a kill sent right after fork reaches the whole group;
     * EACCES means the child already exec'd, having set it itself. */
    if (own_group && setpgid(pid, pid) != 0 && errno != EACCES && errno != ESRCH)
        fprintf(stderr, "mrun: setpgid for pid %d failed: %s\n", (int)pid, strerror(errno));
    *child = (procs_child_t){
        .pid = pid, .out_fd = out[0], .err_fd = err[0], .stat_fd = st[0], .exec_fd = ex[0]};
    return 0;
}

int procs_exec_result(procs_child_t *child)
{
    int err = 0;
    ssize_t n;
    do
        n = read(child->exec_fd, &err, sizeof err);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        err = errno;
    else if (n != (ssize_t)sizeof err)
        err = 0; /* EOF: the exec closed the pipe */
    close(child->exec_fd);
    child->exec_fd = -1;
    return err;
}

void procs_kill(pid_t pid, bool group, int sig)
{
    if (pid <= 0)
        return;
    if (kill(group ? -pid : pid, sig) != 0 && errno != ESRCH)
        fprintf(stderr, "mrun: sending signal %d to %s %d failed: %s\n", sig,
                group ? "process group" : "pid", (int)pid, strerror(errno));
}
