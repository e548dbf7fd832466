/* shm_names.c — usage: shm_names [ROUNDS]. Every rank initializes and meets the others in a
 * barrier (each has then finished rmp_init); rank 0 then prints "names N": how many names of
 * this job's segments /dev/shm still holds (/dev/shm/rmp.<PMIx namespace>-r*), which must be 0
 * once every local rank has mapped them. Then ROUNDS (default 0) allreduces with a check, for a
 * job that is killed while it runs, and "shm_names: rank R OK". */
#include <dirent.h>

#include "progs.h"

static int job_names(void)
{
    const char *ns = getenv("PMIX_NAMESPACE");
    char prefix[300];
    int plen = snprintf(prefix, sizeof prefix, "rmp.%s-r", ns ? ns : "?"), n = 0;
    DIR *d = opendir("/dev/shm");
    if (!d) {
        FAIL("opendir /dev/shm: %s", strerror(errno));
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, prefix, (size_t)plen)) {
            printf("rank 0: still in /dev/shm: %s\n", e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 0;
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    int size;
    MUST(rmp_comm_size(RMP_COMM_WORLD, &size));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (prog_rank == 0) {
        printf("names %d\n", job_names());
        fflush(stdout);
    }
    for (long i = 0; i < rounds; i++) {
        int64_t x = prog_rank + i, sum = 0;
        CHECK(rmp_allreduce(&x, &sum, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
        if (sum != (int64_t)size * (size - 1) / 2 + i * size)
            FAIL("allreduce round %ld: %lld", i, (long long)sum);
    }
    MUST(rmp_finalize());
    if (!prog_failures)
        printf("shm_names: rank %d OK\n", prog_rank);
    return prog_failures ? 1 : 0;
}
