/* fail_kill.c — rank 1 kills itself with SIGKILL while the others wait in a receive from it:
 * mrun must end the job promptly, exit 137 (128 + 9) and leave no rank behind. A transport
 * that notices the death first (a broken connection) may fail the receive with RMP_ERR_PEER:
 * that is right too, and the rank then waits for mrun to end it; any other return is wrong. */
#include "progs.h"

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_barrier(RMP_COMM_WORLD)); /* everyone is up and connected */
    if (prog_rank == 1) {
        printf("rank 1: raising SIGKILL\n");
        fflush(stdout);
        raise(SIGKILL);
    }
    int x;
    phase("waiting for rank 1, which was killed (mrun should have ended the job)", 60);
    int rc = rmp_recv(&x, 1, RMP_INT, 1, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    if (rc != RMP_ERR_PEER) {
        FAIL("the receive from the killed rank 1 returned %d (%s), expected RMP_ERR_PEER", rc,
             rmp_strerror(rc));
        return 1;
    }
    printf("rank %d: the receive from rank 1 failed: %s\n", prog_rank, rmp_strerror(rc));
    fflush(stdout);
    pause(); /* mrun ends the job (the watchdog if it does not) */
    return 1;
}
