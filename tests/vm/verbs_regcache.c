/* verbs_regcache: the registration cache must never hand out a stale registration. Rank 0
 * sends rendezvous-sized messages from buffers it frees and allocates again between sends
 * (malloc/free, then mmap/munmap: the same addresses come back with new pages), rank 1
 * receives into buffers it also frees and reallocates; every message must carry the new data.
 * Then it times a 1 MiB and a 16 MiB rendezvous from one reused buffer, which is what the cache
 * is for: run it with RMP_REG_CACHE=0 and =1 and compare.
 *
 * Usage: mrun -n 2 verbs_regcache [timing_iterations]   (default 20) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rmp.h"

#define SZ ((1u << 20) + 100)

static void *get_buf(int use_mmap, size_t len)
{
    if (!use_mmap)
        return malloc(len);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void put_buf(int use_mmap, void *p, size_t len)
{
    if (use_mmap)
        munmap(p, len);
    else
        free(p);
}

/* 8 sends from malloc'd buffers, 8 from mmap'd ones; each buffer is new and filled anew. */
static int correctness(int rank)
{
    int reused = 0, bad = 0;
    void *last = NULL;
    for (int it = 0; it < 16 && !bad; it++) {
        int use_mmap = it >= 8;
        char *p = get_buf(use_mmap, SZ);
        if (!p)
            return 1;
        reused += p == last;
        last = p;
        int rc;
        if (rank == 0) {
            memset(p, 'a' + it, SZ);
            rc = rmp_send(p, SZ, RMP_BYTE, 1, it, RMP_COMM_WORLD);
        } else {
            memset(p, 0, SZ);
            rc = rmp_recv(p, SZ, RMP_BYTE, 0, it, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
            for (size_t i = 0; i < SZ && !rc && !bad; i++)
                if (p[i] != 'a' + it) {
                    fprintf(stderr, "rank 1: message %d (%s): byte %zu is '%c', want '%c': "
                            "stale registration\n", it, use_mmap ? "mmap" : "malloc", i, p[i],
                            'a' + it);
                    bad = 1;
                }
        }
        if (rc) {
            fprintf(stderr, "rank %d: message %d: %s\n", rank, it, rmp_strerror(rc));
            bad = 1;
        }
        put_buf(use_mmap, p, SZ);
    }
    printf("verbs_regcache: rank %d: 16 buffers freed and reallocated between messages (%d at "
           "the same address): %s\n", rank, reused, bad ? "FAILED" : "ok");
    return bad;
}

/* One message of len bytes 0 -> 1, one byte back: the time of a whole rendezvous. */
static double timing(int rank, size_t len, int iters)
{
    char *buf = malloc(len), ack = 0;
    memset(buf, rank, len);
    double t = 0;
    for (int i = -2; i < iters; i++) { /* two warm-up rounds */
        double t0 = rmp_wtime();
        if (rank == 0) {
            rmp_send(buf, (int)len, RMP_BYTE, 1, 100, RMP_COMM_WORLD);
            rmp_recv(&ack, 1, RMP_BYTE, 1, 101, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        } else {
            rmp_recv(buf, (int)len, RMP_BYTE, 0, 100, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
            rmp_send(&ack, 1, RMP_BYTE, 0, 101, RMP_COMM_WORLD);
        }
        if (i >= 0)
            t += rmp_wtime() - t0;
    }
    free(buf);
    return t / iters * 1e6;
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
    if (n != 2) {
        fprintf(stderr, "verbs_regcache: run with 2 ranks\n");
        return 2;
    }
    int iters = argc > 1 ? atoi(argv[1]) : 20;
    int bad = correctness(rank);
    double t1 = timing(rank, 1u << 20, iters), t16 = timing(rank, 16u << 20, iters / 4 + 1);
    const char *c = getenv("RMP_REG_CACHE");
    if (rank == 0)
        printf("verbs_regcache: cache %s: 1 MiB rendezvous %.0f us, 16 MiB rendezvous %.0f us\n",
               c && !strcmp(c, "1") ? "on" : "off", t1, t16);
    int any = bad;
    rmp_allreduce(&bad, &any, 1, RMP_INT, RMP_MAX, RMP_COMM_WORLD);
    rmp_finalize();
    return any;
}
