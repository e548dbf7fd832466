/* verbs_sizes: every rank sends to its right neighbour and receives from its left one, for
 * message sizes across eager, rendezvous and above the device's max_msg_sz (8 MiB on rxe, so
 * one get needs several RDMA READs), from and into buffers at odd offsets; every byte and the
 * guard bytes around each receive buffer are checked. n = 1 sends to itself.
 *
 * Usage: verbs_sizes [max_bytes]   (default 17 MiB + 5). Exit 0 when every check passed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmp.h"

#define GUARD 64

static uint8_t pat(int rank, size_t size, size_t i)
{
    return (uint8_t)(i * 131u + (i >> 9) * 7u + (unsigned)rank * 29u + size);
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
    size_t max = argc > 1 ? strtoull(argv[1], NULL, 0) : (17u << 20) + 5;
    const size_t sizes[] = {0, 1, 7, 64, 255, 1000, 4095, 8191, 8192, 8193, 12345, 65543,
                            (1u << 20) + 3, 8u << 20, (8u << 20) + 1, (17u << 20) + 5};
    int right = (rank + 1) % n, left = (rank + n - 1) % n, bad = 0;
    char *sbuf = malloc(max + 16), *rbuf = malloc(max + 16 + 2 * GUARD);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]) && !bad; k++) {
        size_t s = sizes[k];
        if (s > max)
            continue;
        for (int off = 0; off < 8 && !bad; off += 3) {
            char *sp = sbuf + off, *rp = rbuf + GUARD + (off + 5) % 8;
            for (size_t i = 0; i < s; i++)
                sp[i] = (char)pat(rank, s, i);
            memset(rbuf, 0xa5, s + 16 + 2 * GUARD);
            rmp_request_t r[2];
            rmp_status_t st[2];
            int tag = (int)k * 8 + off;
            if ((rc = rmp_irecv(rp, (int)s, RMP_BYTE, left, tag, RMP_COMM_WORLD, &r[0])) ||
                (rc = rmp_isend(sp, (int)s, RMP_BYTE, right, tag, RMP_COMM_WORLD, &r[1])) ||
                (rc = rmp_waitall(2, r, st))) {
                fprintf(stderr, "rank %d: size %zu offset %d: %s\n", rank, s, off,
                        rmp_strerror(rc));
                bad = 1;
                break;
            }
            if (st[0].count != s || st[0].source != left) {
                fprintf(stderr, "rank %d: size %zu: got count %zu from %d\n", rank, s,
                        st[0].count, st[0].source);
                bad = 1;
            }
            for (size_t i = 0; i < s && !bad; i++)
                if ((uint8_t)rp[i] != pat(left, s, i)) {
                    fprintf(stderr, "rank %d: size %zu offset %d: byte %zu is %02x, want "
                            "%02x\n", rank, s, off, i, (uint8_t)rp[i], pat(left, s, i));
                    bad = 1;
                }
            for (char *g = rbuf; g < rp && !bad; g++)
                bad = (uint8_t)*g != 0xa5;
            for (char *g = rp + s; g < rp + s + GUARD && !bad; g++)
                bad = (uint8_t)*g != 0xa5;
            if (bad && st[0].count == s)
                fprintf(stderr, "rank %d: size %zu: bytes written outside the buffer\n", rank, s);
        }
    }
    int any = 0;
    rc = rmp_allreduce(&bad, &any, 1, RMP_INT, RMP_MAX, RMP_COMM_WORLD);
    if (rc)
        fprintf(stderr, "rank %d: allreduce: %s\n", rank, rmp_strerror(rc));
    if (rank == 0 && !rc)
        printf("verbs_sizes: %d ranks, sizes up to %zu: %s\n", n, max, any ? "FAILED" : "ok");
    free(sbuf);
    free(rbuf);
    rmp_finalize();
    return rc || any;
}
