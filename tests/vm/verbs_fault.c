/* verbs_fault: the traffic under the injected failures of tests/vm/suite-faults.sh. Rank 0
 * starts COUNT nonblocking sends of SIZE bytes to every other rank; they sleep SLEEP_MS first
 * (so arrivals pile up in the completion queue), receive them and check every byte, then
 * answer rank 0 with one message each. The first error ends the rank with one line
 * "verbs_fault: rank R: <call> with rank P: <error>" and status 3 (the failure is what the
 * case expects, so the line does not start with FAIL); without one, "verbs_fault: rank R: ok".
 *
 * Usage: mrun -n N verbs_fault COUNT SIZE [SLEEP_MS]   (COUNT <= 4096) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rmp.h"

static int rank;

/* The rank lingers 3 s before it exits, so that its peers' transports report what they saw
 * before mrun ends the job. */
static int failed(const char *call, int peer, int rc)
{
    printf("verbs_fault: rank %d: %s with rank %d: %s\n", rank, call, peer, rmp_strerror(rc));
    fflush(stdout);
    sleep(3);
    return 3;
}

static int sender(int n, int count, int size, char *buf)
{
    static rmp_request_t req[4096];
    for (int p = 1; p < n; p++) {
        for (int i = 0; i < count; i++) {
            int rc = rmp_isend(buf, size, RMP_BYTE, p, i, RMP_COMM_WORLD, &req[i]);
            if (rc)
                return failed("rmp_isend", p, rc);
        }
        for (int i = 0; i < count; i++) {
            int rc = rmp_wait(&req[i], RMP_STATUS_IGNORE);
            if (rc)
                return failed("rmp_wait (send)", p, rc);
        }
    }
    for (int p = 1; p < n; p++) {
        int rc = rmp_recv(buf, 1, RMP_BYTE, p, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        if (rc)
            return failed("rmp_recv (answer)", p, rc);
    }
    return 0;
}

static int receiver(int count, int size, char *buf, int sleep_ms)
{
    usleep((useconds_t)sleep_ms * 1000);
    for (int i = 0; i < count; i++) {
        memset(buf, 0, (size_t)size);
        int rc = rmp_recv(buf, size, RMP_BYTE, 0, i, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        if (rc)
            return failed("rmp_recv", 0, rc);
        for (int b = 0; b < size; b++)
            if (buf[b] != (char)(b * 7 + 1)) {
                printf("FAIL rank %d: message %d byte %d is %d\n", rank, i, b, buf[b]);
                return 1;
            }
    }
    int rc = rmp_send(buf, 1, RMP_BYTE, 0, 0, RMP_COMM_WORLD);
    return rc ? failed("rmp_send (answer)", 0, rc) : 0;
}

int main(int argc, char **argv)
{
    int rc = rmp_init(&argc, &argv), n;
    if (rc) {
        fprintf(stderr, "rmp_init: %s\n", rmp_strerror(rc));
        return 1;
    }
    rmp_comm_rank(RMP_COMM_WORLD, &rank);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    int count = argc > 1 ? atoi(argv[1]) : 100, size = argc > 2 ? atoi(argv[2]) : 64;
    int sleep_ms = argc > 3 ? atoi(argv[3]) : 0;
    if (count < 1 || count > 4096 || size < 1) {
        fprintf(stderr, "usage: verbs_fault COUNT(1..4096) SIZE [SLEEP_MS]\n");
        return 2;
    }
    char *buf = malloc((size_t)size);
    if (!buf)
        return 1;
    for (int b = 0; b < size; b++)
        buf[b] = (char)(b * 7 + 1);
    rc = rank == 0 ? sender(n, count, size, buf) : receiver(count, size, buf, sleep_ms);
    if (rc)
        return rc; /* no finalize: the peer is gone */
    printf("verbs_fault: rank %d: ok\n", rank);
    free(buf);
    return rmp_finalize() ? 1 : 0;
}
