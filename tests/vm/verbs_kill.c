/* verbs_kill: a peer dies in the middle of a rendezvous. Rank 0 starts sending 64 MiB to
 * rank 1 (which RDMA-READs it), then kills itself with SIGKILL while the reads are in flight.
 * The job must end with mrun's error, never hang. Rank 1 ignores SIGTERM so that it lives
 * through mrun's grace period and can say whether its transport reported the failure (its
 * receive must end with an error, not wait forever).
 *
 * Usage: mrun -n 2 verbs_kill [delay_ms]   (default 200) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rmp.h"

#define LEN (64u << 20)

int main(int argc, char **argv)
{
    int rc = rmp_init(&argc, &argv), rank, n;
    if (rc) {
        fprintf(stderr, "rmp_init: %s\n", rmp_strerror(rc));
        return 1;
    }
    rmp_comm_rank(RMP_COMM_WORLD, &rank);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    double delay = (argc > 1 ? atof(argv[1]) : 200) / 1000;
    char *buf = malloc(LEN);
    memset(buf, rank, LEN);
    rmp_barrier(RMP_COMM_WORLD);
    rmp_request_t req;
    double t0 = rmp_wtime();
    if (rank == 0) {
        rmp_isend(buf, LEN, RMP_BYTE, 1, 1, RMP_COMM_WORLD, &req);
        int flag = 0;
        while (rmp_wtime() - t0 < delay)
            rmp_test(&req, &flag, RMP_STATUS_IGNORE);
        printf("verbs_kill: rank 0: killing myself %.0f ms into the rendezvous (send %s)\n",
               delay * 1000, flag ? "already complete" : "in flight");
        fflush(stdout);
        raise(SIGKILL);
    }
    if (rank == 1) {
        signal(SIGTERM, SIG_IGN);
        rmp_irecv(buf, LEN, RMP_BYTE, 0, 1, RMP_COMM_WORLD, &req);
        rc = rmp_wait(&req, RMP_STATUS_IGNORE);
        printf("verbs_kill: rank 1: receive ended after %.2f s: %s\n", rmp_wtime() - t0,
               rc ? rmp_strerror(rc) : "complete (the sender died after the data was read)");
        fflush(stdout);
        _exit(rc ? 3 : 0); /* no finalize: a peer is gone */
    }
    pause(); /* other ranks wait for mrun to end the job */
    return 0;
}
