/* fail_exit.c — rank 1 exits with status 3 after rmp_init while the others wait in a receive
 * from it that never comes: mrun must end the job and exit 3. */
#include "progs.h"

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    if (prog_rank == 1) {
        printf("rank 1: exiting with status 3\n");
        fflush(stdout);
        exit(3);
    }
    int x;
    phase("waiting for rank 1, which exits (mrun should have ended the job)", 60);
    rmp_recv(&x, 1, RMP_INT, 1, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    FAIL("the receive from the dead rank 1 returned");
    return 1;
}
