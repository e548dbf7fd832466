/* soak_victim.c — the job of tests/soak/kill-soak: every rank loops over collectives and
 * point-to-point (allreduce, bcast, a ring sendrecv with checked payloads) until one rank, the
 * victim, dies at a chosen moment. Environment:
 *   RMP_SOAK_VICTIM    the rank that dies (default 1)
 *   RMP_SOAK_ACTION    "kill" (SIGKILL itself) or an exit code 1..255 (default kill)
 *   RMP_SOAK_DELAY_US  microseconds after the first barrier (default 50000)
 * Just before dying the victim prints "soak: rank V of NSPACE dies at T" (T: CLOCK_REALTIME in
 * microseconds, for the script's end-time figure). A survivor that gets an error (the dead peer)
 * prints it and exits 3, as a real program would — mrun must still blame the victim. The
 * watchdog ends a rank that is never stopped. */
#include <time.h>

#include "progs.h"

#define BLOCK 8192
#define TAG 31

static long long usec(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* A survivor's reaction to the dead peer: report and leave with 3. */
static void on_error(int rc, const char *what)
{
    if (rc == RMP_SUCCESS)
        return;
    printf("soak: rank %d: %s failed: %s; exiting 3\n", prog_rank, what, rmp_strerror(rc));
    fflush(stdout);
    exit(3);
}

static void die(const char *action)
{
    printf("soak: rank %d of %s dies at %lld\n", prog_rank,
           getenv("PMIX_NAMESPACE") ? getenv("PMIX_NAMESPACE") : "?", usec(CLOCK_REALTIME));
    fflush(stdout);
    if (strcmp(action, "kill") == 0)
        raise(SIGKILL);
    _exit((int)strtol(action, NULL, 10));
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    int n;
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    int victim = (int)env_long("RMP_SOAK_VICTIM", 1);
    long delay = env_long("RMP_SOAK_DELAY_US", 50000);
    const char *action = getenv("RMP_SOAK_ACTION") ? getenv("RMP_SOAK_ACTION") : "kill";
    static unsigned char out[BLOCK], in[BLOCK];
    phase("the soak loop (the victim should have died and mrun ended the job)", 60);
    on_error(rmp_barrier(RMP_COMM_WORLD), "barrier");
    long long t_die = usec(CLOCK_MONOTONIC) + delay;
    int right = (prog_rank + 1) % n, left = (prog_rank + n - 1) % n;
    for (long it = 0;; it++) {
        if (prog_rank == victim && usec(CLOCK_MONOTONIC) >= t_die)
            die(action);
        uint64_t one = 1, sum = 0;
        on_error(rmp_allreduce(&one, &sum, 1, RMP_UINT64, RMP_SUM, RMP_COMM_WORLD), "allreduce");
        EXPECT(sum == (uint64_t)n, "iteration %ld: allreduce gave %llu, expected %d", it,
               (unsigned long long)sum, n);
        fill(out, BLOCK, (uint64_t)it * 64 + (uint64_t)prog_rank);
        on_error(rmp_sendrecv(out, BLOCK, RMP_BYTE, right, TAG, in, BLOCK, RMP_BYTE, left, TAG,
                              RMP_COMM_WORLD, RMP_STATUS_IGNORE),
                 "sendrecv");
        size_t bad = first_mismatch(in, BLOCK, (uint64_t)it * 64 + (uint64_t)left);
        EXPECT(bad == BLOCK, "iteration %ld: block from rank %d differs at byte %zu", it, left, bad);
        int64_t word = it;
        on_error(rmp_bcast(&word, 1, RMP_INT64, (int)(it % n), RMP_COMM_WORLD), "bcast");
    }
}
