/* fail_midjob.c — a job that fails in the middle of its collectives, for the launchers' and
 * the cluster's failure cases. Every rank runs rounds of an allreduce (checked) and a ring
 * exchange of 64 KiB (rendezvous-sized, so across hosts it goes by RDMA READ) until SECS have
 * passed on rank 0, then finalizes; each rank first prints its host and pid and "ready".
 *   fail_midjob SECS              the job runs SECS seconds (something outside breaks it:
 *                                 a link taken down, a device removed, a process killed)
 *   fail_midjob SECS kill R ITER  rank R raises SIGKILL at the start of round ITER, while
 *                                 the others are inside that round's collectives
 * A rank whose call fails prints "rank R: round I: <call> failed: <error>" and exits 3, as a
 * program that checks its calls does: the job must end either way, never hang. Nothing else
 * bounds the job (the launcher's or the test's timeout does: a hang is what is looked for). */
#include <sys/utsname.h>

#include "progs.h"

enum { RING = 64 << 10 };

static int round_no;

static void failed(const char *call, int rc)
{
    printf("rank %d: round %d: %s failed: %s\n", prog_rank, round_no, call, rmp_strerror(rc));
    fflush(stdout);
    exit(3);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    int n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    double secs = argc > 1 ? atof(argv[1]) : 10;
    int victim = -1, at = 0;
    if (argc > 4 && strcmp(argv[2], "kill") == 0) {
        victim = atoi(argv[3]);
        at = atoi(argv[4]);
    }
    if (secs <= 0 || victim >= n) {
        fprintf(stderr, "usage: fail_midjob SECS [kill RANK ROUND] (RANK < %d)\n", n);
        return 2;
    }
    struct utsname u;
    uname(&u);
    char *out = malloc(RING), *in = malloc(RING);
    if (!out || !in)
        return 1;
    printf("rank %d of %d on %s, pid %d\n", prog_rank, n, u.nodename, (int)getpid());
    fflush(stdout);
    int rc = rmp_barrier(RMP_COMM_WORLD);
    if (rc)
        failed("rmp_barrier", rc);
    if (prog_rank == 0) {
        printf("fail_midjob: ready\n");
        fflush(stdout);
    }
    double t0 = rmp_wtime(), last = t0;
    int to = (prog_rank + 1) % n, from = (prog_rank + n - 1) % n;
    for (round_no = 0;; round_no++) {
        if (prog_rank == victim && round_no == at) {
            printf("rank %d: raising SIGKILL at round %d\n", prog_rank, round_no);
            fflush(stdout);
            raise(SIGKILL);
        }
        /* the sum of every rank's (rank + round), and whether rank 0 wants to stop */
        int64_t v[2] = {prog_rank + round_no, prog_rank == 0 && rmp_wtime() - t0 >= secs};
        int64_t r[2];
        if ((rc = rmp_allreduce(v, r, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD)))
            failed("rmp_allreduce", rc);
        if ((rc = rmp_allreduce(v + 1, r + 1, 1, RMP_INT64, RMP_MAX, RMP_COMM_WORLD)))
            failed("rmp_allreduce", rc);
        if (r[0] != (int64_t)n * (n - 1) / 2 + (int64_t)n * round_no) {
            FAIL("round %d: allreduce gave %lld", round_no, (long long)r[0]);
            return 1;
        }
        if (r[1])
            break;
        memset(out, (prog_rank + round_no) & 0xff, RING);
        if ((rc = rmp_sendrecv(out, RING, RMP_BYTE, to, 1, in, RING, RMP_BYTE, from, 1,
                               RMP_COMM_WORLD, RMP_STATUS_IGNORE)))
            failed("rmp_sendrecv", rc);
        if (in[0] != (char)((from + round_no) & 0xff) || in[RING - 1] != in[0]) {
            FAIL("round %d: the ring brought the wrong bytes from rank %d", round_no, from);
            return 1;
        }
        if (prog_rank == 0 && rmp_wtime() - last >= 1) {
            last = rmp_wtime();
            printf("fail_midjob: round %d after %.1f s\n", round_no, last - t0);
            fflush(stdout);
        }
    }
    if (prog_rank == 0)
        printf("fail_midjob: %d ranks, %d rounds in %.1f s: ok\n", n, round_no, rmp_wtime() - t0);
    free(out);
    free(in);
    MUST(rmp_finalize());
    return 0;
}
