/* run.c — the integration tests' job runner (see run.h). The command runs in its own process
 * group with a private TMPDIR and a marker variable in its environment; the marker finds every
 * process of the job afterwards (ranks live in their own groups), and this process becomes a
 * child subreaper so that orphaned ranks are reparented here, not to init. */
#include "run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define DRAIN_SECS 2.0    /* after the job exits: how long its pipes may stay open */
#define SURVIVOR_SECS 1.0 /* after the job exits: how long its processes may take to vanish */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct buf {
    char *data;
    size_t len, cap;
} buf_t;

static void buf_add(buf_t *b, const char *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = realloc(b->data, b->cap);
        if (!b->data)
            abort();
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

/* Reads what is available on fd into b; false at EOF or error (then closes fd). */
static bool drain(int *fd, buf_t *b)
{
    char chunk[65536];
    ssize_t n = read(*fd, chunk, sizeof chunk);
    if (n > 0) {
        buf_add(b, chunk, (size_t)n);
        return true;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    close(*fd);
    *fd = -1;
    return false;
}

/* ---- the child's environment -------------------------------------------------------------- */

static bool same_name(const char *a, const char *b)
{
    size_t la = strcspn(a, "="), lb = strcspn(b, "=");
    return la == lb && strncmp(a, b, la) == 0;
}

/* environ, minus the names that `extra` sets, plus `extra`. */
static char **child_env(const char *const extra[])
{
    size_t n = 0, m = 0;
    while (environ[n])
        n++;
    while (extra[m])
        m++;
    char **env = calloc(n + m + 1, sizeof(char *));
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool overridden = false;
        for (size_t j = 0; j < m && !overridden; j++)
            overridden = same_name(environ[i], extra[j]);
        if (!overridden)
            env[k++] = environ[i];
    }
    for (size_t j = 0; j < m; j++)
        env[k++] = (char *)extra[j];
    return env;
}

/* ---- what the job left behind ------------------------------------------------------------- */

static void note(run_result_t *r, const char *fmt, ...)
{
    size_t used = strlen(r->leftovers);
    if (used + 2 >= sizeof r->leftovers)
        return;
    if (used)
        r->leftovers[used++] = ';', r->leftovers[used++] = ' ';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->leftovers + used, sizeof r->leftovers - used, fmt, ap);
    va_end(ap);
}

/* true if /proc/<pid> is a live (not zombie) process whose environment holds `marker`. */
static bool has_marker(const char *pid, const char *marker, char *comm, size_t commlen)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *close_paren = strrchr(stat, ')');
    if (!close_paren || close_paren[1] == '\0' || close_paren[2] == 'Z' || close_paren[2] == 'X')
        return false;
    const char *open_paren = strchr(stat, '(');
    snprintf(comm, commlen, "%.*s", (int)(close_paren - open_paren - 1), open_paren + 1);

    snprintf(path, sizeof path, "/proc/%s/environ", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    buf_t env = {0};
    char chunk[8192];
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) > 0)
        buf_add(&env, chunk, (size_t)got);
    close(fd);
    bool found = false;
    size_t mlen = strlen(marker);
    for (size_t i = 0; env.data && i < env.len && !found; i += strlen(env.data + i) + 1)
        found = strncmp(env.data + i, marker, mlen) == 0 && env.data[i + mlen] == '\0';
    free(env.data);
    return found;
}

/* Sends sig to every live process carrying the marker; returns how many; names them in r if r
 * is not NULL. */
static int signal_marked(const char *marker, int sig, run_result_t *r)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char comm[64];
        if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
            !has_marker(e->d_name, marker, comm, sizeof comm))
            continue;
        found++;
        if (r)
            note(r, "process %s (%s) still running after the job ended", e->d_name, comm);
        kill((pid_t)atoi(e->d_name), sig);
    }
    closedir(d);
    return found;
}

static int kill_marked(const char *marker, run_result_t *r)
{
    return signal_marked(marker, SIGKILL, r);
}

int run_signal_marked(const char *marker, int sig)
{
    return signal_marked(marker, sig, NULL);
}

static void reap_orphans(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

static void check_survivors(const char *marker, run_result_t *r)
{
    double until = now() + SURVIVOR_SECS;
    while (kill_marked(marker, NULL) > 0 && now() < until) {
        reap_orphans();
        usleep(20000);
    }
    kill_marked(marker, r); /* names the ones that outlived the grace period */
    usleep(10000);
    reap_orphans();
}

/* /dev/shm/rmp.mrun-<pid>*: the job's segments (mrun names the namespace after its pid). */
static void check_shm(pid_t mrun_pid, run_result_t *r)
{
    char prefix[64];
    int plen = snprintf(prefix, sizeof prefix, "rmp.mrun-%d", (int)mrun_pid);
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, (size_t)plen) != 0 ||
            (e->d_name[plen] >= '0' && e->d_name[plen] <= '9'))
            continue;
        note(r, "/dev/shm/%s", e->d_name);
        char path[300];
        snprintf(path, sizeof path, "/dev/shm/%s", e->d_name);
        unlink(path);
    }
    closedir(d);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    remove(path);
    return 0;
}

/* The private TMPDIR must be empty again; it is removed either way. */
static void check_tmpdir(const char *dir, run_result_t *r)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                note(r, "temp file %s/%s", dir, e->d_name);
        closedir(d);
    }
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- running -------------------------------------------------------------------------------- */

static void child(const char *const argv[], char **env, int out_fd, int err_fd)
{
    setpgid(0, 0);
    int in_fd = open("/dev/null", O_RDONLY);
    if (in_fd < 0 || dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        _exit(126);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* A suite started in the background (nohup, `cmd &` without job control) ignores SIGINT
     * and SIGQUIT, and mrun keeps ignoring what it was started with (as nohup asks): the
     * cases that send mrun those signals need it to start as a terminal would start it. */
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    execve(argv[0], (char *const *)argv, env);
    dprintf(2, "run: cannot execute %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

static int status_code(int wstatus)
{
    return WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
}

run_result_t run_cmd(const run_opts_t *opts, const char *const argv[])
{
    static int serial;
    run_result_t r = {.code = -1, .signalled_at = -1, .marked_at = -1};
    double limit = opts && opts->limit > 0 ? opts->limit : 30;

    const char *base = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char tmpdir[512], tmpvar[600], marker[128];
    snprintf(tmpdir, sizeof tmpdir, "%s/rmp-test.XXXXXX", base);
    if (!mkdtemp(tmpdir))
        cr_assert_fail("mkdtemp %s: %s", tmpdir, strerror(errno));
    snprintf(tmpvar, sizeof tmpvar, "TMPDIR=%s", tmpdir);
    snprintf(marker, sizeof marker, "RMP_TEST_RUN=%d.%d", (int)getpid(), ++serial);

    const char *extra[64];
    size_t ne = 0;
    extra[ne++] = tmpvar;
    extra[ne++] = marker;
    for (size_t i = 0; opts && opts->env && opts->env[i] && ne < 63; i++)
        extra[ne++] = opts->env[i];
    extra[ne] = NULL;
    char **env = child_env(extra);

    prctl(PR_SET_CHILD_SUBREAPER, 1);
    int outp[2], errp[2];
    if (pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
        cr_assert_fail("pipe: %s", strerror(errno));
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        cr_assert_fail("fork: %s", strerror(errno));
    if (pid == 0)
        child(argv, env, outp[1], errp[1]);
    setpgid(pid, pid); /* also here: no race with the kill below */
    free(env);
    close(outp[1]);
    close(errp[1]);

    buf_t out = {0}, err = {0};
    buf_add(&out, "", 0);
    buf_add(&err, "", 0);
    int fds[2] = {outp[0], errp[0]};
    bool exited = false, signalled = false;
    double exit_time = 0;
    while (fds[0] >= 0 || fds[1] >= 0 || !exited) {
        struct pollfd pfd[2] = {{.fd = fds[0], .events = POLLIN}, {.fd = fds[1], .events = POLLIN}};
        poll(pfd, 2, 20);
        if (pfd[0].revents && fds[0] >= 0)
            drain(&fds[0], &out);
        if (pfd[1].revents && fds[1] >= 0)
            drain(&fds[1], &err);

        if (opts && opts->signal && !signalled && !exited &&
            count_lines(out.data, opts->signal_when) >= opts->signal_after_lines) {
            kill(pid, opts->signal);
            signalled = true;
            r.signalled_at = now() - t0;
        }
        if (opts && opts->mark_when && r.marked_at < 0 && count_prefix(out.data, opts->mark_when))
            r.marked_at = now() - t0;
        int wstatus;
        if (!exited && waitpid(pid, &wstatus, WNOHANG) == pid) {
            exited = true;
            exit_time = now();
            r.elapsed = exit_time - t0;
            r.code = status_code(wstatus);
        }
        double t = now();
        if (!exited && t - t0 > limit) {
            r.timed_out = true;
            kill(-pid, SIGKILL);
            kill_marked(marker, NULL);
            waitpid(pid, &wstatus, 0);
            exited = true;
            exit_time = now();
            r.elapsed = exit_time - t0;
            r.code = -1;
        }
        if (exited && t - exit_time > DRAIN_SECS) {
            note(&r, "output pipes still open %.0f s after the job ended", DRAIN_SECS);
            break;
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);

    check_survivors(marker, &r);
    check_shm(pid, &r);
    check_tmpdir(tmpdir, &r);
    r.out = out.data;
    r.err = err.data;
    return r;
}

void run_size_filter(int n, const char *var)
{
    const char *ns = getenv(var);
    if (!ns)
        return;
    for (const char *p = ns;;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p)
            break;
        if (v == n)
            return;
        p = end;
    }
    cr_skip_test("n = %d is not among %s (%s) in this run", n, var, ns);
}

/* The sanitizer passes run the tests/mpi programs at the sizes RMP_TEST_MPI_NS lists ("2 5
 * 8" under ASan, as RMP_TEST_ALGO_NS does for the algorithm tests), and every other job at
 * the sizes RMP_TEST_NS lists (under ASan the small ones: a rank under ASan costs several
 * times its release self, and the jobs of 64 and 100 ranks alone took minutes of CI). Every
 * size still runs in the release pass; a size not listed is skipped, and says so. */
static void mpi_size_filter(int n, const char *prog)
{
    size_t dl = strlen(RMP_TEST_MPIPROGS);
    if (strncmp(prog, RMP_TEST_MPIPROGS, dl) == 0 && prog[dl] == '/')
        run_size_filter(n, "RMP_TEST_MPI_NS");
    else
        run_size_filter(n, "RMP_TEST_NS");
}

run_result_t run_mrun(const run_opts_t *opts, int n, const char *prog, ...)
{
    mpi_size_filter(n, prog);
    const char *argv[64];
    char nbuf[16];
    int k = 0;
    snprintf(nbuf, sizeof nbuf, "%d", n);
    argv[k++] = RMP_TEST_MRUN;
    argv[k++] = "-n";
    argv[k++] = nbuf;
    argv[k++] = prog;
    va_list ap;
    va_start(ap, prog);
    const char *a;
    while ((a = va_arg(ap, const char *)) && k < 63)
        argv[k++] = a;
    va_end(ap);
    argv[k] = NULL;
    return run_cmd(opts, argv);
}

double run_since_cause(const run_result_t *r)
{
    double from = r->signalled_at >= 0 ? r->signalled_at : r->marked_at >= 0 ? r->marked_at : 0;
    return r->elapsed > from ? r->elapsed - from : 0; /* a mark read just after the exit */
}

void run_free(run_result_t *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

/* ---- looking at output ---------------------------------------------------------------------- */

/* Calls fn on each line of text (without its newline) until fn returns true. */
static const char *each_line(const char *text, bool (*fn)(const char *line, size_t len,
                                                          const void *arg), const void *arg)
{
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (fn(p, len, arg))
            return p;
        p = nl ? nl + 1 : NULL;
    }
    return NULL;
}

typedef struct line_count {
    const char *prefix, *suffix; /* suffix NULL: the whole line must equal prefix */
    int n;
} line_count_t;

static bool count_one(const char *line, size_t len, const void *arg)
{
    line_count_t *c = (line_count_t *)arg;
    size_t pl = strlen(c->prefix), sl = c->suffix ? strlen(c->suffix) : 0;
    bool ok = c->suffix ? len >= pl + sl && strncmp(line, c->prefix, pl) == 0 &&
                              strncmp(line + len - sl, c->suffix, sl) == 0
                        : len == pl && strncmp(line, c->prefix, len) == 0;
    c->n += ok;
    return false;
}

int count_lines(const char *text, const char *line)
{
    line_count_t c = {.prefix = line};
    each_line(text, count_one, &c);
    return c.n;
}

int count_prefix(const char *text, const char *prefix)
{
    return count_like(text, prefix, "");
}

int count_like(const char *text, const char *prefix, const char *suffix)
{
    line_count_t c = {.prefix = prefix, .suffix = suffix};
    each_line(text, count_one, &c);
    return c.n;
}

static bool starts(const char *line, size_t len, const void *arg)
{
    size_t pl = strlen((const char *)arg);
    return len >= pl && strncmp(line, (const char *)arg, pl) == 0;
}

const char *find_prefix(const char *text, const char *prefix, char *buf, size_t len)
{
    const char *p = each_line(text, starts, prefix);
    if (!p)
        return NULL;
    size_t l = strcspn(p, "\n");
    snprintf(buf, len, "%.*s", (int)l, p);
    return buf;
}

const char *tail(const char *text)
{
    size_t n = text ? strlen(text) : 0;
    return n > 3000 ? text + n - 3000 : (text ? text : "");
}

void run_mpi_ok(int n, const char *prog, const char *label, const char *arg,
                const char *const *env, double limit)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, prog);
    run_opts_t o = {.limit = limit > 0 ? limit : 90, .env = env};
    run_result_t r = run_mrun(&o, n, path, arg, NULL);
    expect_ranks_ok(r, label ? label : prog, n);
    run_free(&r);
}

void run_prog_ok(int n, const char *prog, const char *const *env, double limit)
{
    char path[512], verdict[160];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_PROGS, prog);
    snprintf(verdict, sizeof verdict, "%s: OK", prog);
    run_opts_t o = {.limit = limit, .env = env};
    run_result_t r = run_mrun(&o, n, path, NULL);
    expect_success(r);
    expect_like(r, out, verdict, "", 1);
    run_free(&r);
}

/* Absolute path of Open MPI's mpirun in PATH, or NULL: mpirun.openmpi (Debian's name, which
 * stays Open MPI's when MPICH is installed too and owns the plain name), else mpirun. */
const char *run_find_mpirun(char *buf, size_t len)
{
    const char *path = getenv("PATH"), *names[] = {"mpirun.openmpi", "mpirun"};
    const char *found = NULL;
    for (int i = 0; i < 2 && !found; i++) {
        char *copy = strdup(path ? path : "/usr/bin:/bin"), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
            snprintf(buf, len, "%s/%s", d, names[i]);
            if (access(buf, X_OK) == 0)
                found = buf;
        }
        free(copy);
    }
    return found;
}
