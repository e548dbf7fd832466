/* verbs_events: the device's asynchronous events are read and reported while ranks are busy
 * and while they sleep. After a barrier, rank 0 prints "ready" and polls (rmp_iprobe) until the
 * file GO exists; the other ranks block in a receive from rank 0 (asleep on the completion
 * channel, whose epoll set also holds the async event fd). Meanwhile the suite takes the
 * network interface under rxe0 down and up again: every rank must report the port error (and,
 * under RMP_VERBOSE, the port coming back), and traffic must work again afterwards.
 *
 * The link must go down with nothing in flight: an RC send whose acknowledgement has not come
 * back when the port dies fails with a local QP error, and its peer is failed, as it should be.
 * Rank 0 leaving the barrier does not say the others have (one run printed "ready" while rank
 * 2 still waited for rank 1's message of the barrier's first round, and that send failed). So
 * every other rank reports to rank 0 once it is out, and rank 0 prints "ready" only after all
 * reports and a pause long enough for the last acknowledgements (the soft-RoCE VM runs under
 * emulation: milliseconds, not microseconds).
 *
 * Usage: mrun -n N verbs_events GO [max_wait_s]   (default 60 s) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rmp.h"

int main(int argc, char **argv)
{
    int rc = rmp_init(&argc, &argv), rank, n;
    if (rc) {
        fprintf(stderr, "rmp_init: %s\n", rmp_strerror(rc));
        return 1;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: verbs_events GO [max_wait_s]\n");
        return 2;
    }
    rmp_comm_rank(RMP_COMM_WORLD, &rank);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    double max_wait = argc > 2 ? atof(argv[2]) : 60;
    int go = 0, sum = 0;
    if ((rc = rmp_barrier(RMP_COMM_WORLD)))
        goto fail;
    if (rank == 0) {
        for (int p = 1; p < n; p++) {
            int out;
            if ((rc = rmp_recv(&out, 1, RMP_INT, p, 6, RMP_COMM_WORLD, RMP_STATUS_IGNORE)))
                goto fail;
        }
        usleep(500 * 1000); /* the acknowledgements of the reports: see the top */
        printf("verbs_events: ready\n");
        fflush(stdout);
        double t0 = rmp_wtime();
        while (access(argv[1], F_OK) != 0) {
            int flag;
            if ((rc = rmp_iprobe(RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &flag,
                                 RMP_STATUS_IGNORE)))
                goto fail;
            if (rmp_wtime() - t0 > max_wait) {
                fprintf(stderr, "verbs_events: %s never appeared\n", argv[1]);
                return 1;
            }
            usleep(1000);
        }
        go = 1;
        for (int p = 1; p < n; p++)
            if ((rc = rmp_send(&go, 1, RMP_INT, p, 7, RMP_COMM_WORLD)))
                goto fail;
    } else if ((rc = rmp_send(&rank, 1, RMP_INT, 0, 6, RMP_COMM_WORLD)) ||
               (rc = rmp_recv(&go, 1, RMP_INT, 0, 7, RMP_COMM_WORLD, RMP_STATUS_IGNORE))) {
        goto fail;
    }
    /* Eager and rendezvous traffic between every pair after the flap. */
    static char big[1 << 20];
    if ((rc = rmp_allreduce(&go, &sum, 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD)) ||
        (rc = rmp_bcast(big, (int)sizeof(big), RMP_BYTE, 0, RMP_COMM_WORLD)))
        goto fail;
    if (sum != n) {
        fprintf(stderr, "verbs_events: rank %d: allreduce gave %d, expected %d\n", rank, sum, n);
        return 1;
    }
    printf("verbs_events: rank %d: traffic after the link flap: ok\n", rank);
    fflush(stdout);
    return rmp_finalize() ? 1 : 0;
fail:
    fprintf(stderr, "verbs_events: rank %d: %s\n", rank, rmp_strerror(rc));
    return 1;
}
