/* shm_scale.c — many ranks on one node: hello, an allreduce, two alltoalls (8 bytes and 2 KiB
 * per peer), each result checked; then, while every rank is alive, rank 0 sums the shared
 * memory this job holds (the rmp segments mapped in its own process: its own and every local
 * peer's) and the ranks' resident set sizes. Prints "hello from rank R of N" per rank and
 * "shm_scale: n=N segments=S shm_bytes=B rss_max_kb=X rss_avg_kb=Y rss_shmem_max_kb=Z"
 * on rank 0. */
#include <errno.h>

#include "progs.h"

#define RED_COUNT 1000
#define A2A_BIG 256 /* int64 per peer: 2 KiB */

/* Sum of the sizes of the distinct /dev/shm/rmp.* files mapped here; *nseg_p: how many. The
 * rank's own segment was created unnamed (O_TMPFILE, named once ready): its mapping shows the
 * name it was created with, /dev/shm/#<inode>. */
static uint64_t shm_mapped(int *nseg_p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) {
        FAIL("fopen /proc/self/maps: %s", strerror(errno));
        return 0;
    }
    char line[1024];
    uint64_t total = 0;
    static char names[4096][160]; /* distinct names: a segment may be mapped in parts */
    int nnames = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char path[512] = "";
        if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %511s", &lo, &hi, path) < 2 ||
            (strncmp(path, "/dev/shm/rmp.", 13) && strncmp(path, "/dev/shm/#", 10)))
            continue;
        total += hi - lo;
        int known = 0;
        for (int i = 0; i < nnames && !known; i++)
            known = !strncmp(names[i], path, sizeof names[i] - 1);
        if (!known && nnames < 4096)
            snprintf(names[nnames++], sizeof names[0], "%.159s", path);
    }
    fclose(f);
    *nseg_p = nnames;
    return total;
}

/* A "<field>: N kB" line of /proc/self/status (VmRSS, RssShmem), -1 if absent. */
static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':' && sscanf(line + n + 1, "%ld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static void check_alltoall(int me, int n, int count)
{
    int64_t *s = calloc((size_t)n * (size_t)count, sizeof(int64_t));
    int64_t *r = malloc((size_t)n * (size_t)count * sizeof(int64_t));
    if (!s || !r) {
        FAIL("out of memory");
        exit(1);
    }
    for (int j = 0; j < n; j++)
        for (int k = 0; k < count; k++)
            s[(size_t)j * (size_t)count + (size_t)k] = ((int64_t)me << 32) | (j << 12) | k;
    CHECK(rmp_alltoall(s, count, RMP_INT64, r, count, RMP_INT64, RMP_COMM_WORLD));
    for (int j = 0; j < n; j++)
        for (int k = 0; k < count; k++) {
            int64_t want = ((int64_t)j << 32) | (me << 12) | k;
            if (r[(size_t)j * (size_t)count + (size_t)k] != want) {
                FAIL("alltoall(%d): element %d from rank %d is %lld, want %lld", count, k, j,
                     (long long)r[(size_t)j * (size_t)count + (size_t)k], (long long)want);
                j = n;
                break;
            }
        }
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    phase("rmp_init", 240);
    MUST(rmp_init(&argc, &argv));
    int me, n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &me));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = me;
    printf("hello from rank %d of %d\n", me, n);
    fflush(stdout);

    phase("allreduce", 240);
    int64_t v[RED_COUNT], sum[RED_COUNT];
    for (int i = 0; i < RED_COUNT; i++)
        v[i] = (int64_t)me * i + 1;
    CHECK(rmp_allreduce(v, sum, RED_COUNT, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    for (int i = 0; i < RED_COUNT; i++) {
        int64_t want = (int64_t)n * (n - 1) / 2 * i + n;
        if (sum[i] != want) {
            FAIL("allreduce: element %d is %lld, want %lld", i, (long long)sum[i],
                 (long long)want);
            break;
        }
    }
    phase("alltoall", 240);
    check_alltoall(me, n, 1);
    check_alltoall(me, n, A2A_BIG);

    /* Measured while every rank is alive and has mapped every segment: the barrier after it
     * keeps them all until rank 0 is done. */
    phase("measure", 240);
    int64_t rss[3] = {status_kb("VmRSS"), status_kb("VmRSS"), status_kb("RssShmem")}, rmax[3];
    CHECK(rmp_allreduce(&rss[0], &rmax[0], 1, RMP_INT64, RMP_MAX, RMP_COMM_WORLD));
    CHECK(rmp_allreduce(&rss[1], &rmax[1], 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    CHECK(rmp_allreduce(&rss[2], &rmax[2], 1, RMP_INT64, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0) {
        int nseg = 0;
        uint64_t bytes = shm_mapped(&nseg);
        printf("shm_scale: n=%d segments=%d shm_bytes=%llu rss_max_kb=%lld rss_avg_kb=%lld "
               "rss_shmem_max_kb=%lld\n", n, nseg, (unsigned long long)bytes,
               (long long)rmax[0], (long long)(rmax[1] / n), (long long)rmax[2]);
        fflush(stdout);
    }
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    phase("finalize", 240);
    MUST(rmp_finalize());
    return prog_failures ? 1 : 0;
}
