/* pingpong.c — latency and bandwidth between ranks 0 and 1: the round-trip time of small
 * messages (half of it is the one-way latency) and the rate of large ones.
 *   mrun -n 2 bin/examples/pingpong [ITERATIONS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmp.h"

/* Seconds per round trip of `size` bytes between ranks 0 and 1, after a warm-up. */
static double round_trip(char *buf, int size, int iters, int rank)
{
    double t0 = 0;
    for (int i = -iters / 10 - 1; i < iters; i++) {
        if (i == 0)
            t0 = rmp_wtime();
        if (rank == 0) {
            rmp_send(buf, size, RMP_BYTE, 1, 0, RMP_COMM_WORLD);
            rmp_recv(buf, size, RMP_BYTE, 1, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        } else if (rank == 1) {
            rmp_recv(buf, size, RMP_BYTE, 0, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
            rmp_send(buf, size, RMP_BYTE, 0, 0, RMP_COMM_WORLD);
        }
    }
    return (rmp_wtime() - t0) / iters;
}

int main(int argc, char **argv)
{
    int iters = 1000;
    if (argc > 1) {
        char *end;
        long v = strtol(argv[1], &end, 10);
        if (*end || v < 1 || v > 100000000) {
            fprintf(stderr, "usage: pingpong [ITERATIONS]  (1 to 100000000; got '%s')\n",
                    argv[1]);
            return 2;
        }
        iters = (int)v;
    }
    int rank, size;
    if (rmp_init(&argc, &argv) != RMP_SUCCESS)
        return 1;
    rmp_comm_rank(RMP_COMM_WORLD, &rank);
    rmp_comm_size(RMP_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong: needs 2 ranks (mrun -n 2)\n");
        rmp_finalize();
        return 1;
    }
    const int small = 8, large = 1 << 20;
    char *buf = malloc(large);
    memset(buf, 1, large);

    double t_small = round_trip(buf, small, iters, rank);
    int large_iters = iters / 10 > 10 ? iters / 10 : 10;
    double t_large = round_trip(buf, large, large_iters, rank);
    if (rank == 0) {
        printf("pingpong: %d B: %.2f us one-way latency\n", small, t_small / 2 * 1e6);
        printf("pingpong: %d B: %.0f MB/s (%.1f us one-way)\n", large,
               2.0 * large / t_large / 1e6, t_large / 2 * 1e6);
    }
    free(buf);
    rmp_finalize();
    return 0;
}
