/* stoppable.c — usage: stoppable <flag file>. Every rank prints "ready <pid>", then the ranks
 * work in lock-step (an allreduce every 10 ms) until one of them sees the flag file; then
 * rank 0 checks the rounds' sums and prints "stoppable: OK n=N". For job control: the job is
 * stopped and continued while it works, and must then end correctly. */
#include <time.h>
#include <unistd.h>

#include "progs.h"

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    int n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    if (argc < 2) {
        FAIL("usage: stoppable <flag file>");
        return prog_exit();
    }
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    long rounds = 0;
    int done = 0;
    /* The watchdog bounds each round, not the whole run (the test stops the job for a while,
     * and its limit bounds that). */
    while (!done) {
        phase("round", 60);
        int mine[2] = {access(argv[1], F_OK) == 0, prog_rank + 1}, all[2];
        CHECK(rmp_allreduce(&mine[0], &all[0], 1, RMP_INT, RMP_MAX, RMP_COMM_WORLD));
        CHECK(rmp_allreduce(&mine[1], &all[1], 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD));
        EXPECT(all[1] == n * (n + 1) / 2, "round %ld: sum %d, expected %d", rounds, all[1],
               n * (n + 1) / 2);
        done = all[0];
        rounds++;
        struct timespec pause = {0, 10000000L};
        nanosleep(&pause, NULL);
    }
    phase("finalize", 30);
    CHECK(rmp_finalize());
    if (prog_rank == 0 && !prog_failures)
        printf("stoppable: OK n=%d\n", n);
    return prog_exit();
}
