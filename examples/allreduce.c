/* allreduce.c — the README's demo: every rank contributes rank+1, rmp_allreduce sums them,
 * and every rank checks the sum against n(n+1)/2.
 *   mrun -n 4 bin/examples/allreduce */
#include <stdio.h>

#include "rmp.h"

int main(int argc, char **argv)
{
    int err = rmp_init(&argc, &argv);
    if (err != RMP_SUCCESS) {
        fprintf(stderr, "allreduce: rmp_init failed: %s\n", rmp_strerror(err));
        return 1;
    }
    int rank, size;
    rmp_comm_rank(RMP_COMM_WORLD, &rank);
    rmp_comm_size(RMP_COMM_WORLD, &size);

    long mine = rank + 1, sum = 0, expected = (long)size * (size + 1) / 2;
    err = rmp_allreduce(&mine, &sum, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD);
    if (err != RMP_SUCCESS) {
        fprintf(stderr, "allreduce: rank %d: rmp_allreduce failed: %s\n", rank,
                rmp_strerror(err));
        rmp_abort(RMP_COMM_WORLD, 1);
    }
    printf("rank %d of %d: allreduce sum = %ld (expected %ld)\n", rank, size, sum, expected);
    fflush(stdout);

    /* Rank 0 reports once everyone has checked: the lowest "ok" over all ranks. */
    int ok = sum == expected, all_ok = 0;
    rmp_allreduce(&ok, &all_ok, 1, RMP_INT, RMP_MIN, RMP_COMM_WORLD);
    if (rank == 0)
        printf(all_ok ? "allreduce OK\n" : "allreduce FAILED\n");
    rmp_finalize();
    return all_ok ? 0 : 1;
}
