/* verbs_flood: every rank but 0 blasts many small messages at rank 0, which is slow on
 * purpose: it sleeps before receiving anything, and again now and then. The shared receive
 * queue runs dry (it grows, then senders wait on RNR); nothing may be lost, duplicated,
 * reordered per sender or corrupted, and nobody may fail.
 *
 * Usage: verbs_flood [messages_per_sender] [sleep_ms]   (defaults 3000, 1000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmp.h"

#define WINDOW 32
#define MAXLEN 1024

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Message k of sender s: its length and its bytes (the first 8 carry s and k). */
static size_t msg_len(int k)
{
    return 8 + (size_t)(k * 37 % (MAXLEN - 8));
}

static void msg_fill(char *b, int s, int k)
{
    size_t len = msg_len(k);
    memcpy(b, &s, 4);
    memcpy(b + 4, &k, 4);
    for (size_t i = 8; i < len; i++)
        b[i] = (char)(s * 7 + k + i);
}

static int sender(int rank, int count)
{
    static char bufs[WINDOW][MAXLEN];
    rmp_request_t reqs[WINDOW];
    for (int k = 0; k < count; k += WINDOW) {
        int m = count - k < WINDOW ? count - k : WINDOW;
        for (int j = 0; j < m; j++) {
            msg_fill(bufs[j], rank, k + j);
            int rc = rmp_isend(bufs[j], (int)msg_len(k + j), RMP_BYTE, 0, 7, RMP_COMM_WORLD,
                               &reqs[j]);
            if (rc) {
                fprintf(stderr, "rank %d: isend %d: %s\n", rank, k + j, rmp_strerror(rc));
                return 1;
            }
        }
        int rc = rmp_waitall(m, reqs, RMP_STATUSES_IGNORE);
        if (rc) {
            fprintf(stderr, "rank %d: waitall: %s\n", rank, rmp_strerror(rc));
            return 1;
        }
    }
    return 0;
}

static int receiver(int n, int count, long sleep)
{
    int *next = calloc((size_t)n, sizeof(int));
    char buf[MAXLEN], want[MAXLEN];
    long total = (long)(n - 1) * count;
    sleep_ms(sleep); /* senders fill everything meanwhile */
    for (long got = 0; got < total; got++) {
        rmp_status_t st;
        int rc = rmp_recv(buf, MAXLEN, RMP_BYTE, RMP_ANY_SOURCE, 7, RMP_COMM_WORLD, &st);
        if (rc) {
            fprintf(stderr, "rank 0: recv %ld: %s\n", got, rmp_strerror(rc));
            return 1;
        }
        int s = st.source, k = next[s]++;
        msg_fill(want, s, k);
        if (st.count != msg_len(k) || memcmp(buf, want, st.count)) {
            int gs, gk;
            memcpy(&gs, buf, 4);
            memcpy(&gk, buf + 4, 4);
            fprintf(stderr, "rank 0: from %d expected message %d (%zu bytes), got %d/%d "
                    "(%zu bytes)\n", s, k, msg_len(k), gs, gk, st.count);
            return 1;
        }
        if (got % 1000 == 999)
            sleep_ms(sleep / 10); /* and stay slow */
    }
    free(next);
    printf("verbs_flood: rank 0 received %ld messages from %d senders in order: ok\n", total,
           n - 1);
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
    int count = argc > 1 ? atoi(argv[1]) : 3000;
    long sleep = argc > 2 ? atol(argv[2]) : 1000;
    int bad = rank == 0 ? receiver(n, count, sleep) : sender(rank, count);
    int any = bad;
    if ((rc = rmp_allreduce(&bad, &any, 1, RMP_INT, RMP_MAX, RMP_COMM_WORLD)))
        fprintf(stderr, "rank %d: allreduce: %s\n", rank, rmp_strerror(rc));
    rmp_finalize();
    return bad || any || rc;
}
