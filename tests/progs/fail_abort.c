/* fail_abort.c — usage: fail_abort [CODE [RANK]] (default 7 and 1). RANK calls
 * rmp_abort(RMP_COMM_WORLD, CODE) while the others wait in a receive from it: the job must end
 * with status CODE & 255 (1 if that is 0), through mrun or as a singleton (RANK 0). */
#include "progs.h"

int main(int argc, char **argv)
{
    /* strtol, not atoi: codes down to INT_MIN and up to INT_MAX are part of the test */
    int code = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 7;
    int who = argc > 2 ? atoi(argv[2]) : 1;
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    if (prog_rank == who) {
        printf("rank %d: calling rmp_abort with code %d\n", who, code);
        fflush(stdout);
        rmp_abort(RMP_COMM_WORLD, code);
        FAIL("rmp_abort returned");
        return 1;
    }
    int x;
    phase("waiting for the aborting rank (mrun should have ended the job)", 60);
    rmp_recv(&x, 1, RMP_INT, who, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    FAIL("the receive from the aborting rank returned");
    return 1;
}
