/* verbs_fast: the RDMA-WRITE eager fast path (runtime/transport/verbs/verbs_fast.c) against
 * the real driver. The runtime's RMP_VERBOSE lines say which peers got rings and how many
 * messages went through them; this program checks every message's bytes and order.
 *
 *   verbs_fast order COUNT SLEEP_MS  every rank but 0 sends COUNT messages to rank 0, sizes
 *       cycling around the slot size (through the ring, and through the SRQ beside it: too
 *       large, rendezvous, ring full), 4 tags; rank 0 receives from any source with any tag,
 *       and sleeps SLEEP_MS first and every 500 messages (its rings fill: credit starvation);
 *       every message in order per sender, byte-exact
 *   verbs_fast starve COUNT SLEEP_MS the same with sizes that all fit a slot: nothing holds the
 *       senders back while rank 0 sleeps, so their rings fill (RMP_VERBOSE counts it) and the
 *       rest goes through the SRQ until credits come back
 *   verbs_fast kill COUNT            rank 1 streams to rank 0 and is SIGKILLed after COUNT sends
 *       with writes in flight: the job must end (mrun's one line), never hang
 *   verbs_fast lat ITERS             ping-pong half round trip, 8 B .. 4 KiB, ranks 0 and 1 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmp.h"

#define WINDOW 16
#define MAXLEN 20000

static const int all_sizes[] = {8, 4000, 64, 4264, 200, 4270, 1000, 4300, 16, 4400, 6000, 8,
                                8000, 4250, 20000, 32};
/* starve: every one fits a slot, and no rendezvous holds a sender back */
static const int slot_sizes[] = {8, 4000, 64, 4264, 200, 1000, 16, 32};
static const int *sizes = all_sizes;
static int nsizes = (int)(sizeof(all_sizes) / sizeof(all_sizes[0]));

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Message k of sender s: its length and bytes (the first 8 carry s and k). */
static int msg_len(int k)
{
    return sizes[k % nsizes];
}

static void msg_fill(char *b, int s, int k)
{
    int len = msg_len(k);
    memcpy(b, &s, 4);
    memcpy(b + 4, &k, 4);
    for (int i = 8; i < len; i++)
        b[i] = (char)(s * 13 + k * 7 + i);
}

static int sender(int rank, int count, int kill_at)
{
    static char bufs[WINDOW][MAXLEN];
    rmp_request_t reqs[WINDOW];
    for (int k = 0; k < count; k += WINDOW) {
        int m = count - k < WINDOW ? count - k : WINDOW;
        for (int j = 0; j < m; j++) {
            msg_fill(bufs[j], rank, k + j);
            int rc = rmp_isend(bufs[j], msg_len(k + j), RMP_BYTE, 0, (k + j) % 4,
                               RMP_COMM_WORLD, &reqs[j]);
            if (rc) {
                printf("FAIL rank %d: isend %d: %s\n", rank, k + j, rmp_strerror(rc));
                return 1;
            }
            if (kill_at && k + j + 1 == kill_at) {
                printf("rank %d: raising SIGKILL after %d sends, writes in flight\n", rank,
                       kill_at);
                fflush(stdout);
                raise(SIGKILL);
            }
        }
        int rc = rmp_waitall(m, reqs, RMP_STATUSES_IGNORE);
        if (rc) {
            printf("FAIL rank %d: waitall: %s\n", rank, rmp_strerror(rc));
            return 1;
        }
    }
    return 0;
}

static int receiver(int n, long total, long sleep)
{
    int *next = calloc((size_t)n, sizeof(int));
    static char buf[MAXLEN], want[MAXLEN];
    sleep_ms(sleep); /* the senders fill the rings meanwhile */
    for (long got = 0; got < total; got++) {
        rmp_status_t st;
        int rc = rmp_recv(buf, MAXLEN, RMP_BYTE, RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD,
                          &st);
        if (rc) {
            printf("FAIL rank 0: recv %ld: %s\n", got, rmp_strerror(rc));
            return 1;
        }
        int s = st.source, k = next[s]++;
        msg_fill(want, s, k);
        if ((int)st.count != msg_len(k) || st.tag != k % 4 || memcmp(buf, want, st.count)) {
            int gs, gk;
            memcpy(&gs, buf, 4);
            memcpy(&gk, buf + 4, 4);
            printf("FAIL rank 0: from %d expected message %d (%d bytes, tag %d), got %d/%d "
                   "(%zu bytes, tag %d)\n", s, k, msg_len(k), k % 4, gs, gk, st.count, st.tag);
            return 1;
        }
        if (got % 500 == 499)
            sleep_ms(sleep);
    }
    free(next);
    printf("verbs_fast: rank 0 received %ld messages from %d senders in order, 8..%d bytes, "
           "any source and tag: ok\n", total, n - 1, sizes == all_sizes ? MAXLEN : 4264);
    return 0;
}

static int latency(int rank, int iters)
{
    static char buf[4096];
    for (int size = 8; size <= 4096; size *= 2) {
        double t0 = 0;
        for (int i = -iters / 10; i < iters; i++) { /* the first tenth warms up (and gets the ring) */
            if (i == 0)
                t0 = now_us();
            int rc = rank == 0
                ? rmp_send(buf, size, RMP_BYTE, 1, 0, RMP_COMM_WORLD) ||
                  rmp_recv(buf, size, RMP_BYTE, 1, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE)
                : rmp_recv(buf, size, RMP_BYTE, 0, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE) ||
                  rmp_send(buf, size, RMP_BYTE, 0, 0, RMP_COMM_WORLD);
            if (rc) {
                printf("FAIL rank %d: ping-pong at %d bytes failed\n", rank, size);
                return 1;
            }
        }
        if (rank == 0)
            printf("verbs_fast: latency %d B: %.2f us\n", size, (now_us() - t0) / iters / 2);
    }
    return 0;
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
    const char *mode = argc > 1 ? argv[1] : "order";
    int count = argc > 2 ? atoi(argv[2]) : 2000;
    long sleep = argc > 3 ? atol(argv[3]) : 200;
    int bad = 0;
    if (!strcmp(mode, "starve")) {
        sizes = slot_sizes;
        nsizes = (int)(sizeof(slot_sizes) / sizeof(slot_sizes[0]));
        mode = "order";
    }
    if (!strcmp(mode, "order"))
        bad = rank == 0 ? receiver(n, (long)(n - 1) * count, sleep) : sender(rank, count, 0);
    else if (!strcmp(mode, "kill"))
        bad = rank == 0 ? receiver(2, 1L << 30, 0) : rank == 1 ? sender(1, 1 << 30, count) : 0;
    else if (!strcmp(mode, "lat"))
        bad = rank < 2 ? latency(rank, count) : 0;
    int any = bad;
    if ((rc = rmp_allreduce(&bad, &any, 1, RMP_INT, RMP_MAX, RMP_COMM_WORLD)))
        printf("FAIL rank %d: allreduce: %s\n", rank, rmp_strerror(rc));
    if (!any && !rc && rank == 0)
        printf("verbs_fast: OK\n");
    rmp_finalize();
    return bad || any || rc;
}
