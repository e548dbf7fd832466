/* procs.h: the mechanics of rank processes: finding the program like a shell, fork/exec with
 * the child's setup (process group, parent-death signal, signal state, stdio), and signalling. */
#ifndef MRUN_PROCS_H
#define MRUN_PROCS_H

#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

/* Finds prog as execvp would: prog itself if it holds a '/', else the first executable file of
 * that name in path_var (NULL: "/bin:/usr/bin"). Returns 0 and a malloc'd path, or ENOENT,
 * EACCES or ENOMEM. */
int procs_resolve(const char *prog, const char *path_var, char **path);

typedef struct procs_spec {
    const char *path;        /* resolved program */
    char *const *argv;       /* its arguments, argv[0] as the user gave it */
    const sigset_t *ignored; /* signals mrun inherited as ignored: they stay ignored */
    int cpu;                 /* bind the process to this CPU; -1: leave its affinity alone */
    const char *cwd;         /* its working directory; NULL: mrun's */
} procs_spec_t;

typedef struct procs_child {
    pid_t pid;
    int out_fd, err_fd; /* read ends of the child's stdout and stderr pipes */
    int stat_fd;        /* read end (non-blocking) of its status channel (rankstat.h) */
    int exec_fd;        /* closes on a successful exec, else delivers the exec errno */
} procs_child_t;

/* Forks and starts executing one rank. stdin_fd becomes its stdin (-1: keep mrun's); with
 * own_group it leads a new process group, so a signal to the group reaches what it forks.
 * Returns 0, or an errno after which no child exists. */
int procs_spawn(const procs_spec_t *spec, char *const envp[], int stdin_fd, bool own_group,
                procs_child_t *child);

/* Waits until the child has exec'd; returns 0, or the errno its exec failed with. */
int procs_exec_result(procs_child_t *child);

/* The open-file limit the ranks are started with (mrun's own may be raised after this). */
void procs_rank_nofile(const struct rlimit *rl);

/* Sends sig to the process, or to its whole process group when group is set. A process or
 * group that is gone already is not an error. */
void procs_kill(pid_t pid, bool group, int sig);

#endif
