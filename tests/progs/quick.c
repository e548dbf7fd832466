/* quick.c — the shortest correct job: init, one barrier, one line, finalize. For many short
 * jobs in a row (mrun's verdicts) and for launch environments (foreign launchers). */
#include "progs.h"

int main(int argc, char **argv)
{
    int rc = rmp_init(&argc, &argv);
    if (rc != RMP_SUCCESS) {
        fprintf(stderr, "quick: rmp_init failed: %s\n", rmp_strerror(rc));
        return 1;
    }
    int n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    printf("rank %d of %d ok\n", prog_rank, n);
    MUST(rmp_finalize());
    return 0;
}
