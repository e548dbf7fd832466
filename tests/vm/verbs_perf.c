/* verbs_perf: the two numbers the VM suite sets next to perftest's: 8-byte one-way latency
 * (the median half round trip, like ib_send_lat's "typical") and 1 MiB streaming bandwidth (a
 * window of sends, acknowledged per window, like ib_read_bw's stream of reads) between ranks 0
 * and 1.
 *
 * Usage: mrun -n 2 verbs_perf [latency_iterations] [bandwidth_windows] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmp.h"

#define WIN 8
#define BW_LEN (1u << 20)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median one-way latency: under an emulated CPU a few slow round trips dominate the mean. */
static double latency(int rank, int iters)
{
    char b[8] = {0};
    double *rt = malloc((size_t)iters * sizeof(double));
    for (int i = -100; i < iters; i++) {
        double t0 = rmp_wtime();
        if (rank == 0) {
            rmp_send(b, 8, RMP_BYTE, 1, 1, RMP_COMM_WORLD);
            rmp_recv(b, 8, RMP_BYTE, 1, 1, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        } else {
            rmp_recv(b, 8, RMP_BYTE, 0, 1, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
            rmp_send(b, 8, RMP_BYTE, 0, 1, RMP_COMM_WORLD);
        }
        if (i >= 0)
            rt[i] = rmp_wtime() - t0;
    }
    qsort(rt, (size_t)iters, sizeof(double), cmp_double);
    double med = rt[iters / 2] / 2 * 1e6;
    free(rt);
    return med;
}

static double bandwidth(int rank, int windows)
{
    char *buf = malloc((size_t)WIN * BW_LEN), ack = 0;
    memset(buf, 1, (size_t)WIN * BW_LEN);
    rmp_request_t r[WIN];
    double t0 = 0;
    for (int w = -1; w < windows; w++) {
        if (w == 0)
            t0 = rmp_wtime();
        for (int i = 0; i < WIN; i++) {
            char *p = buf + (size_t)i * BW_LEN;
            if (rank == 0)
                rmp_isend(p, BW_LEN, RMP_BYTE, 1, 2, RMP_COMM_WORLD, &r[i]);
            else
                rmp_irecv(p, BW_LEN, RMP_BYTE, 0, 2, RMP_COMM_WORLD, &r[i]);
        }
        rmp_waitall(WIN, r, RMP_STATUSES_IGNORE);
        if (rank == 0)
            rmp_recv(&ack, 1, RMP_BYTE, 1, 3, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        else
            rmp_send(&ack, 1, RMP_BYTE, 0, 3, RMP_COMM_WORLD);
    }
    double t = rmp_wtime() - t0;
    free(buf);
    return (double)windows * WIN * BW_LEN / t / 1e6;
}

int main(int argc, char **argv)
{
    int rc = rmp_init(&argc, &argv), rank, n;
    if (rc) {
        fprintf(stderr, "rmp_init: %s\n", rmp_strerror(rc));
        return 1;
    }
    rmp_comm_rank(RMP_COMM_WORLD, &rank);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    int li = argc > 1 ? atoi(argv[1]) : 1000, bw = argc > 2 ? atoi(argv[2]) : 10;
    if (n == 2) {
        double lat = latency(rank, li), mbs = bandwidth(rank, bw);
        if (rank == 0)
            printf("verbs_perf: 8 B latency %.2f us (median), "
                   "1 MiB streaming bandwidth %.1f MB/s\n", lat, mbs);
    } else if (rank == 0) {
        fprintf(stderr, "verbs_perf: run with 2 ranks\n");
    }
    rmp_finalize();
    return n != 2;
}
