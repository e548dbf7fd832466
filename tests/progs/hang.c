/* hang.c — every rank initializes, says so, then waits forever in a receive nobody sends:
 * for mrun --timeout. */
#include "progs.h"

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    printf("rank %d: waiting forever\n", prog_rank);
    fflush(stdout);
    int x;
    rmp_recv(&x, 1, RMP_INT, RMP_ANY_SOURCE, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    FAIL("a receive nobody sends to returned");
    return 1;
}
