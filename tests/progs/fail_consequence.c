/* fail_consequence.c — mrun's hold on a failure that follows a peer's, made deterministic:
 * rank 0 reports on mrun's status channel, as the library does when a transport finds a peer
 * dead, that rank 1 failed, and exits 3 at once; rank 1 is still alive and exits 5 once rank 0
 * has exited (or, with argument "stays", sleeps 5 s: a peer that did not really fail). mrun must
 * blame rank 1's 5 in the first case and rank 0's 3 (after its bounded wait) in the second.
 * With argument "stopped", rank 2 stops mrun (SIGSTOP) until ranks 0 and 1 have both exited,
 * in that order: mrun then reaps the two in one batch, rank 0 first, and must still blame
 * rank 1 (it used to blame rank 0: its peer was no longer alive when rank 0 was judged). */
#include <pthread.h>

#include "progs.h"

/* The state letter of /proc/<pid>/stat ('T': stopped), or 0. */
static char proc_state(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold anything */
    return p && p[1] == ' ' ? p[2] : 0;
}

/* Waits up to 10 s for pid to reach state `want`; false (after a FAIL line) if it does not. */
static bool await_state(pid_t pid, char want, const char *who)
{
    for (int i = 0; i < 10000; i++) {
        if (proc_state(pid) == want)
            return true;
        usleep(1000);
    }
    FAIL("%s (pid %d) never reached state %c (it is in %c)", who, (int)pid, want,
         proc_state(pid) ? proc_state(pid) : '?');
    return false;
}

/* Rank 2's part of "stopped": mrun is stopped while ranks 0, then 1, exit. */
static void stop_mrun_around_exits(const int *pids)
{
    const char *v = getenv("RMP_MRUN_FD");
    const char *colon = v ? strchr(v, ':') : NULL;
    pid_t mrun = colon ? (pid_t)atoi(colon + 1) : 0;
    if (mrun <= 1) {
        FAIL("no mrun pid in RMP_MRUN_FD=%s", v ? v : "unset");
        exit(1);
    }
    if (kill(mrun, SIGSTOP) != 0 || !await_state(mrun, 'T', "mrun"))
        exit(1);
    for (int r = 0; r < 2; r++)
        if (kill(pids[r], SIGUSR1) != 0 || !prog_await_exit(pids[r], 10)) {
            FAIL("rank %d (pid %d) did not exit within 10 s", r, pids[r]);
            kill(mrun, SIGCONT);
            exit(1);
        }
    kill(mrun, SIGCONT);
}

/* Ranks 0 and 1 under "stopped": wait for rank 2's go. */
static void await_go(const sigset_t *usr1)
{
    int sig;
    if (sigwait(usr1, &sig) != 0) {
        FAIL("sigwait failed");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    bool stays = argc > 1 && strcmp(argv[1], "stays") == 0;
    bool stopped = argc > 1 && strcmp(argv[1], "stopped") == 0;
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    if (stopped) /* before rmp_init, so that no thread of the library takes it */
        pthread_sigmask(SIG_BLOCK, &usr1, NULL);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    int size;
    MUST(rmp_comm_size(RMP_COMM_WORLD, &size));
    int pid = (int)getpid(), pids[3] = {0};
    if (size != 3) {
        FAIL("runs on 3 ranks, not %d", size);
        exit(1);
    }
    MUST(rmp_allgather(&pid, 1, RMP_INT, pids, 1, RMP_INT, RMP_COMM_WORLD));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (stopped && prog_rank == 2)
        stop_mrun_around_exits(pids);
    else if (stopped)
        await_go(&usr1);
    if (prog_rank == 0) {
        const char *v = getenv("RMP_MRUN_FD");
        int fd = v ? atoi(v) : -1;
        if (fd < 3 || write(fd, "P 1\n", 4) != 4) {
            FAIL("no mrun status channel (RMP_MRUN_FD=%s)", v ? v : "unset");
            return 1;
        }
        printf("rank 0: exiting with status 3 after rank 1's failure\n");
        fflush(stdout);
        _exit(3);
    }
    if (prog_rank == 1) {
        if (stays)
            usleep(5000 * 1000);
        else if (!stopped && !prog_await_exit(pids[0], 10))
            FAIL("rank 0 (pid %d) did not exit within 10 s", pids[0]);
        printf("rank 1: exiting with status 5\n");
        fflush(stdout);
        _exit(5);
    }
    sleep(10); /* the others wait to be ended by mrun */
    return 0;
}
