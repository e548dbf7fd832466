/* fail_noinit.c — rank 1 exits 0 without ever calling rmp_init; the others initialize and
 * wait for it. mrun must fail the job clearly (exit 1) instead of hanging in their start-up. */
#include <stdlib.h>

#include "progs.h"

int main(int argc, char **argv)
{
    const char *r = getenv("PMIX_RANK");
    if (r && atoi(r) == 1) {
        printf("rank 1: exiting without rmp_init\n");
        return 0;
    }
    phase("rmp_init while rank 1 never starts (mrun should have ended the job)", 60);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    int x;
    phase("waiting for rank 1, which never called rmp_init", 60);
    rmp_recv(&x, 1, RMP_INT, 1, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    FAIL("the receive from rank 1 returned");
    return 1;
}
