/* fail_consequence.c — mrun's hold on a failure that follows a peer's, made deterministic:
 * rank 0 reports on mrun's status channel, as the library does when a transport finds a peer
 * dead, that rank 1 failed, and exits 3 at once; rank 1 is still alive and exits 5 after
 * 50 ms (or, with argument "stays", sleeps 5 s: a peer that did not really fail). mrun must
 * blame rank 1's 5 in the first case and rank 0's 3 (after its bounded wait) in the second. */
#include "progs.h"

int main(int argc, char **argv)
{
    bool stays = argc > 1 && strcmp(argv[1], "stays") == 0;
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_barrier(RMP_COMM_WORLD));
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
        usleep(stays ? 5000 * 1000 : 50 * 1000);
        printf("rank 1: exiting with status 5\n");
        fflush(stdout);
        _exit(5);
    }
    sleep(10); /* the others wait to be ended by mrun */
    return 0;
}
