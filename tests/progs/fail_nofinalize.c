/* fail_nofinalize.c — rank 1 returns 0 from main after rmp_init without rmp_finalize, the
 * others wait for it in a receive: mrun must fail the job (exit 1). */
#include "progs.h"

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    if (prog_rank == 1) {
        printf("rank 1: leaving without rmp_finalize\n");
        return 0;
    }
    int x;
    phase("waiting for rank 1, which left without finalizing", 60);
    rmp_recv(&x, 1, RMP_INT, 1, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    FAIL("the receive from rank 1 returned");
    return 1;
}
