/* spawn.c — rmp_comm_spawn and rmp_comm_get_parent. The root opens a port and has the
 * children started as a job of their own with the port's name in RMP_SPAWN_PORT: by the
 * launcher's PMIx server (PMIx_Spawn, runtime/boot/spawn_pmix.c: mrun starts them under a
 * child mrun of its own, launcher/job_spawn.c; Slurm and Open MPI do what they offer, and a
 * refusal is RMP_ERR_SPAWN on every parent), or, in a singleton (no server), by a child mrun
 * it execs itself. The children's first rmp_comm_get_parent (MPI_Init's) connects to the port
 * over their world, and the parents accept (port.c), watching the children's mrun meanwhile:
 * a command that cannot start, children that die or never connect end the accept with
 * RMP_ERR_SPAWN on every parent. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "comm_coll.h"
#include "port.h"
#include "spawn.h"

#define SPAWN_PORT_VAR "RMP_SPAWN_PORT"
#define SPAWN_TAG_VAR "RMP_MRUN_SPAWN_TAG" /* the children's output label (mrun's job_spawn.c) */

typedef struct spawn_req {
    int count, total; /* apps, and children in all */
    spawn_app_t *apps;
    char mrun[PATH_MAX];
    port_child_t watch; /* the children's mrun, while they are awaited */
    char what[320];     /* its name in messages */
} spawn_req_t;

/* The info value of key (false: not set). */
static bool info_str(rmp_info_t info, const char *key, char *v, int len)
{
    int flag = 0;
    return info != RMP_INFO_NULL && rmp_info_get(info, key, len - 1, v, &flag) == 0 && flag;
}

/* name as an executable: itself when it has a '/', else the first dirs entry (':' list) that
 * has it. */
static bool find_exe(const char *name, const char *dirs, char *out)
{
    if (strchr(name, '/'))
        return snprintf(out, PATH_MAX, "%s", name) < PATH_MAX && access(out, X_OK) == 0;
    char *copy = strdup(dirs ? dirs : ""), *save = NULL;
    bool found = false;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        struct stat st;
        found = snprintf(out, PATH_MAX, "%s/%s", d, name) < PATH_MAX && access(out, X_OK) == 0 &&
                stat(out, &st) == 0 && S_ISREG(st.st_mode);
    }
    free(copy);
    return found;
}

/* The launcher of the children: $RMP_MRUN, the mrun that started me, mrun on $PATH, the
 * mrun installed beside this library. */
static bool find_mrun(char *out)
{
    const char *v = getenv("RMP_MRUN");
    if (v && *v)
        return find_exe(v, getenv("PATH"), out);
    char link[64];
    snprintf(link, sizeof link, "/proc/%d/exe", (int)getppid());
    ssize_t n = readlink(link, out, PATH_MAX - 1);
    if (n > 0) {
        out[n] = '\0';
        const char *base = strrchr(out, '/');
        if (base && !strcmp(base + 1, "mrun"))
            return true;
    }
    if (find_exe("mrun", getenv("PATH"), out))
        return true;
    Dl_info dl; /* beside the library: <prefix>/lib/librmp.so -> <prefix>/bin/mrun */
    char dir[PATH_MAX];
    if (!dladdr((void *)find_mrun, &dl) || !dl.dli_fname ||
        snprintf(dir, sizeof dir, "%s", dl.dli_fname) >= (int)sizeof dir || !strrchr(dir, '/'))
        return false;
    *strrchr(dir, '/') = '\0';
    return snprintf(out, PATH_MAX, "%s/../bin/mrun", dir) < PATH_MAX && access(out, X_OK) == 0;
}

/* The largest count soft allows (MPI's "a", "a:b", "a:b:c" triplets, comma-separated) that
 * is at most maxprocs, in *pick; false when soft is not such a list. *pick 0: none fits. */
static bool soft_pick(const char *soft, int maxprocs, int *pick)
{
    *pick = 0;
    for (const char *p = soft; *p;) {
        long v[3] = {0, 0, 1};
        int n = 0;
        for (char *end; n < 3; n++) {
            errno = 0;
            v[n] = strtol(p, &end, 10);
            if (end == p || errno || v[n] < 0 || v[n] > INT_MAX)
                return false;
            p = end;
            if (*p != ':')
                break;
            p++;
        }
        if (n == 0)
            v[1] = v[0];
        if (n == 3 || v[2] < 1 || v[1] < v[0] || (*p && *p++ != ','))
            return false;
        for (long c = v[0]; c <= v[1] && c <= maxprocs; c += v[2])
            *pick = c > *pick ? (int)c : *pick;
    }
    return true;
}

/* The info keys rmp reads, with values it can honour: else RMP_ERR_SPAWN, said. Keys it
 * does not know are ignored, as MPI asks of every call (MPI-4.0 10.1), but for "file" and
 * "arch", reserved for spawn: rmp cannot do what they say. "soft" lowers maxprocs to the
 * largest count it allows. */
static int check_info(spawn_app_t *q)
{
    char v[RMP_MAX_INFO_VAL + 1], me[256] = {0};
    static const char *const refused[] = {"file", "arch"};
    for (size_t k = 0; k < sizeof refused / sizeof *refused; k++)
        if (info_str(q->info, refused[k], v, sizeof v)) {
            core_error(&rmp_ctx, "rmp_comm_spawn %s: info key '%s' is not supported (rmp "
                       "honours wdir, path, host, soft, timeout, rmp_env)", q->command,
                       refused[k]);
            return RMP_ERR_SPAWN;
        }
    int pick = q->maxprocs;
    bool listed = true;
    if (info_str(q->info, "soft", v, sizeof v) && (!(listed = soft_pick(v, q->maxprocs, &pick)) ||
                                                   !pick)) {
        core_error(&rmp_ctx, "rmp_comm_spawn %s: info soft '%s' %s", q->command, v,
                   listed ? "allows no count from 1 to maxprocs" : "is not a list of counts "
                   "a, a:b or a:b:c");
        return RMP_ERR_SPAWN;
    }
    q->maxprocs = pick;
    char *host = v;
    gethostname(me, sizeof me - 1);
    if (info_str(q->info, "host", host, sizeof v) && strcmp(host, "localhost") &&
        strcmp(host, me)) {
        core_error(&rmp_ctx, "rmp_comm_spawn %s: host '%s': children start on this machine "
                   "(%s) only", q->command, host, me);
        return RMP_ERR_SPAWN;
    }
    q->wdir[0] = '\0';
    struct stat st;
    if (info_str(q->info, "wdir", q->wdir, sizeof q->wdir) &&
        (stat(q->wdir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        core_error(&rmp_ctx, "rmp_comm_spawn %s: wdir '%s' is not a directory", q->command,
                   q->wdir);
        return RMP_ERR_SPAWN;
    }
    if (!info_str(q->info, "rmp_env", q->env, sizeof q->env))
        q->env[0] = '\0';
    return RMP_SUCCESS;
}

/* At root: what one app's children need, found and checked before anything starts. */
static int prepare(spawn_app_t *q)
{
    if (!q->command || !*q->command || q->maxprocs < 1) {
        core_error(&rmp_ctx, "rmp_comm_spawn: %s", !q->command || !*q->command
                   ? "no command" : "maxprocs must be at least 1");
        return RMP_ERR_SPAWN;
    }
    int err = check_info(q);
    if (err)
        return err;
    char dirs[2 * PATH_MAX + 2], extra[PATH_MAX] = {0};
    (void)info_str(q->info, "path", extra, sizeof extra);
    snprintf(dirs, sizeof dirs, "%s%s%s", extra, *extra ? ":" : "",
             getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    if (!find_exe(q->command, dirs, q->exe)) {
        core_error(&rmp_ctx, "rmp_comm_spawn: command '%s' not found or not executable",
                   q->command);
        return RMP_ERR_SPAWN;
    }
    if (q->exe[0] != '/') { /* relative to my directory, not the children's */
        char cwd[PATH_MAX], abs[PATH_MAX];
        if (getcwd(cwd, sizeof cwd) && snprintf(abs, sizeof abs, "%s/%s", cwd, q->exe) <
                                           (int)sizeof abs)
            memcpy(q->exe, abs, sizeof abs);
    }
    return RMP_SUCCESS;
}

static int prepare_all(spawn_req_t *q)
{
    for (int i = 0; i < q->count; i++) {
        int err = prepare(&q->apps[i]);
        if (err)
            return err;
        q->total += q->apps[i].maxprocs;
    }
    return RMP_SUCCESS;
}

/* One app's environment (rmp_env) and directory, in the forked child. */
static void app_env(const spawn_app_t *q)
{
    char *env = strdup(q->env), *save = NULL;
    for (char *e = strtok_r(env, "\n", &save); e; e = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(e, '=');
        if (eq) {
            *eq = '\0';
            setenv(e, eq + 1, 1);
        }
    }
    if (q->wdir[0] && chdir(q->wdir) != 0)
        _exit(126);
}

/* In the forked child: the launcher's environment and directory, then exec. Never returns.
 * One app: mrun -n N exe args. Several (spawn_multiple): mrun -n total over spawn_multi.c's
 * script, which execs each rank's app, its directory and environment set. */
static void launch(const spawn_req_t *q, const char *port)
{
    extern char **environ;
    for (int i = 0; environ[i];) /* the parent job's PMIx and mrun settings are not theirs */
        if (!strncmp(environ[i], "PMIX_", 5) || !strncmp(environ[i], "RMP_MRUN_FD=", 12)) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(environ[i], "="), environ[i]);
            unsetenv(name);
        } else {
            i++;
        }
    setenv(SPAWN_PORT_VAR, port, 1);
    char label[96];
    const char *up = getenv(SPAWN_TAG_VAR);
    snprintf(label, sizeof label, "%s%s%d", up ? up : "spawn", up ? "." : "", q->watch.pid);
    setenv(SPAWN_TAG_VAR, label, 1);
    const spawn_app_t *a = &q->apps[0];
    int n = 0;
    while (q->count == 1 && a->argv && a->argv[n])
        n++;
    char np[16], **av = calloc((size_t)n + 7, sizeof(char *));
    snprintf(np, sizeof np, "%d", q->total);
    av[0] = (char *)"mrun", av[1] = (char *)"-n", av[2] = np;
    if (q->count == 1) {
        app_env(a);
        av[3] = (char *)a->exe;
        for (int i = 0; i < n; i++)
            av[4 + i] = a->argv[i];
    } else {
        av[3] = (char *)"/bin/sh", av[4] = (char *)"-c", av[5] = spawn_script(q->apps, q->count);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execv(q->mrun, av);
    fprintf(stderr, "rmp_comm_spawn: cannot execute %s: %s\n", q->mrun, strerror(errno));
    _exit(127);
}

static int pidfd_of(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/* No PMIx server (a singleton): the root execs the children's mrun itself. */
static int start_mrun(spawn_req_t *q, const char *port)
{
    if (!find_mrun(q->mrun)) {
        core_error(&rmp_ctx, "rmp_comm_spawn %s: no mrun to start the children with (set "
                   "RMP_MRUN to its path)", q->apps[0].command);
        return RMP_ERR_SPAWN;
    }
    static int nspawned; /* the label of the children's output: spawn1, spawn2, ... */
    q->watch.pid = ++nspawned;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0)
        launch(q, port);
    if (pid < 0) {
        core_error(&rmp_ctx, "rmp_comm_spawn %s: fork: %s", q->apps[0].command,
                   strerror(errno));
        return RMP_ERR_SPAWN;
    }
    dyn_child_add(&rmp_ctx, pid);
    q->watch = (port_child_t){.fd = pidfd_of(pid), .pid = pid, .mine = true, .what = q->what};
    snprintf(q->what, sizeof q->what, "the children's launcher (mrun, pid %d)", (int)pid);
    return RMP_SUCCESS;
}

/* VAR=VALUE lines (rmp_env) into env from *n on (room for them all: at most len/2). */
static void env_lines(const char *lines, char *buf, char **env, int *n)
{
    strcpy(buf, lines);
    char *save = NULL;
    for (char *e = strtok_r(buf, "\n", &save); e; e = strtok_r(NULL, "\n", &save))
        if (strchr(e, '='))
            env[(*n)++] = e;
}

/* Through the launcher's PMIx server. One app: exe args; several (spawn_multiple): one world
 * over spawn_multi.c's script, which execs each rank's app, its directory and environment
 * set. Under mrun the children's namespace, "mrun-<pid>", names their mrun, watched. */
static int start_pmix(spawn_req_t *q, const char *port)
{
    const spawn_app_t *a = &q->apps[0];
    int n = 0, ne = 0;
    while (q->count == 1 && a->argv && a->argv[n])
        n++;
    char *script = q->count > 1 ? spawn_script(q->apps, q->count) : NULL, var[RMP_MAX_PORT_NAME +
                                                                            32];
    char **argv = calloc((size_t)n + 4, sizeof(char *));
    char **env = calloc(sizeof a->env / 2 + 2, sizeof(char *)), *lines = malloc(sizeof a->env);
    int err = RMP_ERR_NO_MEM;
    if (argv && env && lines && (q->count == 1 || script)) {
        argv[0] = q->count == 1 ? (char *)a->exe : "/bin/sh";
        for (int i = 0; i < n; i++)
            argv[1 + i] = a->argv[i];
        if (q->count > 1)
            argv[1] = "-c", argv[2] = script;
        snprintf(var, sizeof var, "%s=%s", SPAWN_PORT_VAR, port);
        env[ne++] = var;
        if (q->count == 1)
            env_lines(a->env, lines, env, &ne);
        boot_app_t app = {.cmd = argv[0], .argv = argv, .env = env, .maxprocs = q->total,
                          .cwd = q->count == 1 && a->wdir[0] ? a->wdir : NULL};
        char ns[256] = {0};
        err = boot_spawn(&rmp_ctx, &app, ns, sizeof ns);
        int pid = 0, end = 0;
        q->watch = (port_child_t){.fd = -1, .what = q->what};
        snprintf(q->what, sizeof q->what, "the children's job (namespace %s)", ns);
        if (!err && getenv("RMP_MRUN_FD") && sscanf(ns, "mrun-%d%n", &pid, &end) == 1 &&
            !ns[end] && pid > 0)
            q->watch.fd = pidfd_of(pid), q->watch.pid = pid;
    }
    free(script), free(argv), free(env), free(lines);
    return err;
}

/* At root: the port and the children's launcher. */
static int start(spawn_req_t *q, char *port)
{
    int err = prepare_all(q);
    if (!err)
        err = rmp_open_port(RMP_INFO_NULL, port);
    if (err)
        return err == RMP_ERR_PORT ? RMP_ERR_SPAWN : err;
    err = rmp_ctx.singleton ? start_mrun(q, port) : start_pmix(q, port);
    if (err)
        (void)rmp_close_port(port);
    if (err)
        port[0] = '\0';
    return err;
}

/* One code per child asked for, as far as the caller says there is room: err for those
 * started (total in all), RMP_ERR_SPAWN for those "soft" left out (known at root only: apps). */
static void fill_errcodes(const spawn_app_t *apps, int count, int total, int err,
                          int errcodes[], int nerr)
{
    if (!errcodes)
        return;
    if (!apps) { /* not the root: the counts "soft" kept are not known here, only the total */
        for (int i = 0; i < nerr; i++)
            errcodes[i] = i < total ? err : RMP_ERR_SPAWN;
        return;
    }
    for (int a = 0, at = 0; a < count; at += apps[a++].requested)
        for (int i = 0; i < apps[a].requested && at + i < nerr; i++)
            errcodes[at + i] = i < apps[a].maxprocs ? err : RMP_ERR_SPAWN;
}

/* Both entries: the apps (read at root), the rest as rmp_comm_spawn's. */
static int spawn_apps(spawn_app_t *apps, int count, int root, rmp_comm_t comm,
                      rmp_comm_t *intercomm, int errcodes[], int nerr)
{
    intra_t cl;
    int err = comm_intra(comm, &cl);
    if (!err && !intercomm)
        err = RMP_ERR_ARG;
    if (!err)
        err = intra_root(&cl, root);
    if (err)
        return err;
    *intercomm = RMP_COMM_NULL;
    spawn_req_t q = {.count = count, .apps = apps, .watch = {.fd = -1}};
    char port[RMP_MAX_PORT_NAME] = {0};
    int32_t hdr[2] = {RMP_SUCCESS, 0};
    if (cl.rank == root) {
        hdr[0] = count < 1 || !apps ? RMP_ERR_SPAWN : start(&q, port);
        hdr[1] = q.total;
    }
    err = comm_coll.bcast(hdr, 2, RMP_INT32, root, comm); /* the outcome so far, and the children */
    if (!err && !(err = hdr[0]))
        err = port_meet(port, cl.rank == root ? apps[0].info : RMP_INFO_NULL, root, comm, true,
                        cl.rank == root ? &q.watch : NULL, intercomm);
    if (q.watch.fd >= 0)
        close(q.watch.fd);
    if (err == RMP_ERR_PORT)
        err = RMP_ERR_SPAWN; /* the children came and went: not a port's fault */
    if (cl.rank == root && port[0])
        (void)rmp_close_port(port);
    fill_errcodes(cl.rank == root ? apps : NULL, count, hdr[1], err, errcodes, nerr);
    return err;
}

int rmp_comm_spawn(const char *command, char *const argv[], int maxprocs, rmp_info_t info,
                   int root, rmp_comm_t comm, rmp_comm_t *intercomm, int errcodes[])
{
    spawn_app_t *app = calloc(1, sizeof(*app));
    if (!app)
        return RMP_ERR_NO_MEM;
    *app = (spawn_app_t){.command = command, .argv = argv, .maxprocs = maxprocs, .info = info,
                         .requested = maxprocs > 0 ? maxprocs : 0};
    int err = spawn_apps(app, 1, root, comm, intercomm, errcodes, maxprocs);
    free(app);
    return err;
}

int rmp_comm_spawn_multiple(int count, char *const commands[], char *const *const argvs[],
                            const int maxprocs[], const rmp_info_t infos[], int root,
                            rmp_comm_t comm, rmp_comm_t *intercomm, int errcodes[])
{
    spawn_app_t *apps = count > 0 ? calloc((size_t)count, sizeof(*apps)) : NULL;
    int nerr = 0;
    for (int i = 0; apps && commands && maxprocs && i < count; i++) {
        apps[i] = (spawn_app_t){.command = commands[i], .argv = argvs ? argvs[i] : NULL,
                                .maxprocs = maxprocs[i],
                                .requested = maxprocs[i] > 0 ? maxprocs[i] : 0,
                                .info = infos ? infos[i] : RMP_INFO_NULL};
        nerr += maxprocs[i] > 0 ? maxprocs[i] : 0;
    }
    bool bad = !apps || !commands || !maxprocs;
    int err = spawn_apps(bad ? NULL : apps, bad ? 0 : count, root, comm, intercomm, errcodes,
                         nerr);
    free(apps);
    return err;
}

/* The parent intercommunicator, made at the first call (collective then, in a spawned job). */
static rmp_comm_t spawn_parent = RMP_COMM_NULL;
static bool spawn_asked;

int rmp_comm_get_parent(rmp_comm_t *parent)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!parent)
        return RMP_ERR_ARG;
    const char *port = getenv(SPAWN_PORT_VAR);
    if (!spawn_asked && port) {
        spawn_asked = true;
        err = rmp_comm_connect(port, RMP_INFO_NULL, 0, RMP_COMM_WORLD, &spawn_parent);
        unsetenv(SPAWN_PORT_VAR); /* not for the programs a child starts */
    }
    spawn_asked = true;
    int flag;
    if (spawn_parent != RMP_COMM_NULL && rmp_comm_test_inter(spawn_parent, &flag) != 0)
        spawn_parent = RMP_COMM_NULL; /* disconnected since */
    *parent = spawn_parent;
    return err;
}

int rmp_universe_size(int *size)
{
    int err = ctx_check(), world = 0;
    if (!err && !size)
        err = RMP_ERR_ARG;
    if (!err)
        err = rmp_comm_size(RMP_COMM_WORLD, &world);
    if (err)
        return err;
    const knob_val_t *k = knob_lookup(rmp_ctx.cfg.knobs, "RMP_UNIVERSE_SIZE");
    *size = k && k->num > world ? (int)k->num : world;
    return RMP_SUCCESS;
}
