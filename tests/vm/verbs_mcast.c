/* verbs_mcast: bcast over UD multicast (RMP_MCAST=on), byte-exact. For every size given and
 * every root, the root fills a pattern that depends on (size, root, round) and every rank
 * checks it byte by byte, plus guard bytes after the buffer. Modes:
 *   verbs_mcast [-r ROUNDS] [-R ROOT] SIZE...   sizes in bytes (suffix k/m: KiB/MiB); every
 *                                     root, or only ROOT
 *   verbs_mcast -t SIZE               truncation: receivers pass half the root's count and
 *                                     must get RMP_ERR_TRUNCATE with the half exact
 *   verbs_mcast -k SIZE               rank 1 is SIGKILLed in the middle of an ibcast
 * Rank 0 prints "verbs_mcast: N ranks, ...: ok" when every rank passed. */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rmp.h"

#define GUARD 64
static int rank, n;

static size_t parse_size(const char *s)
{
    char *end;
    size_t v = strtoull(s, &end, 10);
    if (*end == 'k')
        v <<= 10;
    else if (*end == 'm')
        v <<= 20;
    return v;
}

static uint8_t pat(size_t i, size_t size, int root, int round)
{
    uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull ^ (size * 31 + (size_t)root * 7 + round);
    return (uint8_t)(x >> 29);
}

/* One bcast of size bytes from root; count is this rank's count. 0: exact. */
static int one(char *buf, size_t size, size_t count, int root, int round, int want)
{
    for (size_t i = 0; i < count + GUARD; i++)
        buf[i] = rank == root ? (char)pat(i, size, root, round) : (char)0xEE;
    if (rank == root)
        memset(buf + count, 0xEE, GUARD);
    int rc = rmp_bcast(buf, (int)count, RMP_BYTE, root, RMP_COMM_WORLD);
    if (rc != want) {
        printf("FAIL rank %d: bcast of %zu bytes from %d returned %d (%s), expected %d\n", rank,
               size, root, rc, rmp_strerror(rc), want);
        return 1;
    }
    for (size_t i = 0; i < count; i++)
        if ((uint8_t)buf[i] != pat(i, size, root, round)) {
            printf("FAIL rank %d: bcast of %zu bytes from %d, round %d: byte %zu is 0x%02x, "
                   "expected 0x%02x\n", rank, size, root, round, i, (uint8_t)buf[i],
                   pat(i, size, root, round));
            return 1;
        }
    for (size_t i = count; i < count + GUARD; i++)
        if ((uint8_t)buf[i] != 0xEE) {
            printf("FAIL rank %d: bcast of %zu bytes from %d wrote past the buffer (byte %zu)\n",
                   rank, size, root, i);
            return 1;
        }
    return 0;
}

static int kill_mode(size_t size)
{
    char *buf = calloc(size, 1);
    rmp_request_t req;
    if (!buf || rmp_barrier(RMP_COMM_WORLD))
        return 1;
    if (rmp_ibcast(buf, (int)size, RMP_BYTE, 0, RMP_COMM_WORLD, &req))
        return 1;
    if (rank == 1) {
        int flag = 0;
        for (int i = 0; i < 50 && !flag; i++)
            rmp_test(&req, &flag, RMP_STATUS_IGNORE);
        printf("rank 1: raising SIGKILL in the middle of a %zu-byte multicast bcast\n", size);
        fflush(stdout);
        raise(SIGKILL);
    }
    int rc = rmp_wait(&req, RMP_STATUS_IGNORE);
    /* The root may finish before rank 1 dies (it had everything); then the next bcast waits. */
    if (rc == RMP_SUCCESS)
        rc = rmp_bcast(buf, (int)size, RMP_BYTE, 0, RMP_COMM_WORLD);
    printf("rank %d: bcast ended: %s\n", rank, rmp_strerror(rc));
    fflush(stdout);
    pause(); /* mrun ends the job */
    return 1;
}

int main(int argc, char **argv)
{
    if (rmp_init(&argc, &argv))
        return 1;
    rmp_comm_rank(RMP_COMM_WORLD, &rank);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    int rounds = 1, opt, bad = 0, only = -1;
    char mode = 0;
    while ((opt = getopt(argc, argv, "r:R:tk")) != -1) {
        if (opt == 'r')
            rounds = atoi(optarg);
        else if (opt == 'R')
            only = atoi(optarg);
        else
            mode = (char)opt;
    }
    if (optind >= argc) {
        fprintf(stderr, "usage: verbs_mcast [-r ROUNDS] [-R ROOT] [-t|-k] SIZE...\n");
        return 2;
    }
    if (mode == 'k')
        return kill_mode(parse_size(argv[optind]));
    size_t max = 0;
    for (int i = optind; i < argc; i++)
        if (parse_size(argv[i]) > max)
            max = parse_size(argv[i]);
    char *buf = malloc(max + GUARD);
    if (!buf)
        return 1;
    int cases = 0;
    for (int i = optind; i < argc && !bad; i++) {
        size_t size = parse_size(argv[i]);
        for (int root = 0; root < n && !bad; root++)
            for (int r = 0; r < rounds && !bad && (only < 0 || root == only); r++, cases++) {
                bool trunc = mode == 't' && rank != root;
                bad = one(buf, size, trunc ? size / 2 : size, root, r,
                          trunc ? RMP_ERR_TRUNCATE : RMP_SUCCESS);
            }
    }
    int all = 0;
    if (rmp_allreduce(&bad, &all, 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD))
        all = 1;
    if (rank == 0 && !all)
        printf("verbs_mcast: %d ranks, %d bcasts (%d sizes x %d roots x %d rounds)%s: ok\n", n,
               cases, argc - optind, only >= 0 ? 1 : n, rounds,
               mode == 't' ? ", receivers truncating" : "");
    free(buf);
    rmp_finalize();
    return all ? 1 : 0;
}
