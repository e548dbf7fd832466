/* sec_common.h — what the security tests' attacker programs share: finding the victim mrun in
 * /proc (as an unprivileged stranger sees it), its owner, bounded waits and exact reporting.
 * Header-only; each attacker is one .c file. */
#ifndef RMP_SEC_COMMON_H
#define RMP_SEC_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double sec_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void sec_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Every line the attacker prints goes out at once: the test reads them while it runs. */
static inline void sec_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* Reads /proc/<pid>/<what> into buf (NUL-terminated); false if unreadable. */
static inline bool sec_read_proc(long pid, const char *what, char *buf, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/%s", pid, what);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    return true;
}

/* The ppid of pid from /proc/<pid>/stat ("pid (comm) state ppid ..."), -1 if gone. */
static inline long sec_ppid(long pid, char *comm, size_t commlen)
{
    char st[512];
    if (!sec_read_proc(pid, "stat", st, sizeof st))
        return -1;
    char *open = strchr(st, '('), *close = strrchr(st, ')');
    if (!open || !close || close < open)
        return -1;
    snprintf(comm, commlen, "%.*s", (int)(close - open - 1), open + 1);
    char state;
    long ppid;
    if (sscanf(close + 1, " %c %ld", &state, &ppid) != 2)
        return -1;
    return ppid;
}

/* A process named "mrun" whose parent is `parent` (the test that started the victim job; a
 * real attacker would take any mrun), or -1. */
static inline long sec_find_mrun(long parent)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    long found = -1;
    struct dirent *e;
    while (found < 0 && (e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        char comm[64];
        if (*end == '\0' && pid > 0 && sec_ppid(pid, comm, sizeof comm) == parent &&
            strcmp(comm, "mrun") == 0)
            found = pid;
    }
    closedir(d);
    return found;
}

/* Waits up to `secs` for the victim mrun to appear. */
static inline long sec_wait_mrun(long parent, double secs)
{
    double until = sec_now() + secs;
    long pid;
    while ((pid = sec_find_mrun(parent)) < 0 && sec_now() < until)
        sec_sleep_ms(5);
    return pid;
}

static inline bool sec_alive(long pid)
{
    char st[512];
    return sec_read_proc(pid, "stat", st, sizeof st);
}

/* The real uid and gid of pid (the "Uid:" and "Gid:" lines of /proc/<pid>/status). */
static inline bool sec_owner(long pid, long *uid, long *gid)
{
    char st[4096];
    if (!sec_read_proc(pid, "status", st, sizeof st))
        return false;
    char *u = strstr(st, "\nUid:"), *g = strstr(st, "\nGid:");
    return u && g && sscanf(u + 5, "%ld", uid) == 1 && sscanf(g + 5, "%ld", gid) == 1;
}

#endif
