/* fail_consequence.c — mrun's hold on a failure that follows a peer's, made deterministic. On
 * n >= 3 ranks, the cause is rank n-2: every rank below it reports on mrun's status channel, as
 * the library does when a transport finds a peer dead, that the cause failed, and exits 3; the
 * cause is still alive and exits 5 once they all have (or, with argument "stays", sleeps 5 s:
 * a peer that did not really fail). mrun must blame the cause's 5 in the first case and the
 * first reporter's 3 (after its bounded wait) in the second. With argument "abort", the
 * reporters end by rmp_abort(3) instead, as MPI's fatal error handler does: still the cause's.
 * With argument "stopped", the last rank stops mrun (SIGSTOP) while the reporters and then the
 * cause exit, one after the other: mrun then reaps them all in one batch, reporters first, and
 * must still blame the cause (it used to blame rank 0, whose peer was no longer alive when it
 * was judged; or, with two reporters, rank 1, since only one failure could be held). */
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

/* Waits up to 10 s for mrun to be stopped; false (after a FAIL line) if it is not. */
static bool await_stopped(pid_t mrun)
{
    for (int i = 0; i < 10000; i++) {
        if (proc_state(mrun) == 'T')
            return true;
        usleep(1000);
    }
    FAIL("mrun (pid %d) was not stopped within 10 s", (int)mrun);
    return false;
}

/* The last rank's part of "stopped": mrun is stopped while ranks 0 .. cause exit in turn. */
static void stop_mrun_around_exits(const int *pids, int cause)
{
    const char *v = getenv("RMP_MRUN_FD");
    const char *colon = v ? strchr(v, ':') : NULL;
    pid_t mrun = colon ? (pid_t)atoi(colon + 1) : 0;
    if (mrun <= 1) {
        FAIL("no mrun pid in RMP_MRUN_FD=%s", v ? v : "unset");
        exit(1);
    }
    bool ok = kill(mrun, SIGSTOP) == 0 && await_stopped(mrun);
    for (int r = 0; ok && r <= cause; r++)
        if (kill(pids[r], SIGUSR1) != 0 || !prog_await_exit(pids[r], 10)) {
            FAIL("rank %d (pid %d) did not exit within 10 s", r, pids[r]);
            ok = false;
        }
    kill(mrun, SIGCONT);
    if (!ok)
        exit(1);
}

int main(int argc, char **argv)
{
    bool stays = argc > 1 && strcmp(argv[1], "stays") == 0;
    bool stopped = argc > 1 && strcmp(argv[1], "stopped") == 0;
    bool aborts = argc > 1 && strcmp(argv[1], "abort") == 0;
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    if (stopped) /* before rmp_init, so that no thread of the library takes it */
        pthread_sigmask(SIG_BLOCK, &usr1, NULL);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    int size;
    MUST(rmp_comm_size(RMP_COMM_WORLD, &size));
    if (size < 3) {
        FAIL("runs on 3 ranks or more, not %d", size);
        exit(1);
    }
    int cause = size - 2, pid = (int)getpid(), *pids = calloc((size_t)size, sizeof *pids);
    if (!pids)
        exit(1);
    MUST(rmp_allgather(&pid, 1, RMP_INT, pids, 1, RMP_INT, RMP_COMM_WORLD));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (stopped && prog_rank == size - 1) {
        stop_mrun_around_exits(pids, cause);
    } else if (stopped) {
        int sig;
        if (sigwait(&usr1, &sig) != 0) { /* the last rank's go */
            FAIL("sigwait failed");
            exit(1);
        }
    }
    if (prog_rank < cause) {
        const char *v = getenv("RMP_MRUN_FD");
        int fd = v ? atoi(v) : -1;
        char line[32];
        int len = snprintf(line, sizeof line, "P %d\n", cause);
        if (fd < 3 || write(fd, line, (size_t)len) != len) {
            FAIL("no mrun status channel (RMP_MRUN_FD=%s)", v ? v : "unset");
            return 1;
        }
        printf("rank %d: %s after rank %d's failure\n", prog_rank,
               aborts ? "calling rmp_abort(3)" : "exiting with status 3", cause);
        fflush(stdout);
        if (aborts)
            rmp_abort(RMP_COMM_WORLD, 3);
        _exit(3);
    }
    if (prog_rank == cause) {
        if (stays)
            usleep(5000 * 1000);
        for (int r = 0; r < cause && !stays && !stopped; r++)
            if (!prog_await_exit(pids[r], 10))
                FAIL("rank %d (pid %d) did not exit within 10 s", r, pids[r]);
        printf("rank %d: exiting with status 5\n", cause);
        fflush(stdout);
        _exit(5);
    }
    sleep(10); /* the others wait to be ended by mrun */
    return 0;
}
