/* erroneous.c — programs that break MPI's rules, for the hang report, RMP_CHECK_COLLECTIVES
 * and rmp_finalize's bound (tests/integration/test_hang.c). argv[1] picks the error:
 *   barrier_missing   the last rank never enters the barrier the others wait in (it sleeps)
 *   allreduce_count   rank 1 passes count 2 where the others pass 1
 *   barrier_allreduce rank 0 calls a barrier while the others call an allreduce
 *   ibarrier_count    as allreduce_count, but through iallreduce + wait
 *   finalize_rndv     rank 0 sends 1 MiB to rank 1 (tag 7) that rank 1 never receives
 * Each rank prints what its calls returned, so that a silent success shows. */
#include "progs.h"

static void barrier_missing(int size)
{
    if (prog_rank == size - 1) {
        printf("rank %d: not entering the barrier\n", prog_rank);
        fflush(stdout);
        for (;;)
            sleep(100); /* a report signal ends a sleep early: sleep again */
    }
    printf("rank %d: entering the barrier\n", prog_rank);
    fflush(stdout);
    int rc = rmp_barrier(RMP_COMM_WORLD);
    printf("rank %d: barrier returned %d\n", prog_rank, rc);
}

static void allreduce_count(bool nonblocking)
{
    int in[2] = {prog_rank, prog_rank}, out[2] = {-1, -1};
    int count = prog_rank == 1 ? 2 : 1, rc;
    if (nonblocking) {
        rmp_request_t r;
        rc = rmp_iallreduce(in, out, count, RMP_INT, RMP_SUM, RMP_COMM_WORLD, &r);
        if (rc == RMP_SUCCESS)
            rc = rmp_wait(&r, RMP_STATUS_IGNORE);
    } else {
        rc = rmp_allreduce(in, out, count, RMP_INT, RMP_SUM, RMP_COMM_WORLD);
    }
    printf("rank %d: allreduce of %d returned %d, result %d\n", prog_rank, count, rc, out[0]);
}

static void barrier_allreduce(void)
{
    int in = 1, out = -1, rc;
    if (prog_rank == 0)
        rc = rmp_barrier(RMP_COMM_WORLD);
    else
        rc = rmp_allreduce(&in, &out, 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD);
    printf("rank %d: %s returned %d, result %d\n", prog_rank,
           prog_rank == 0 ? "barrier" : "allreduce", rc, out);
}

static void finalize_rndv(void)
{
    static char big[1 << 20];
    if (prog_rank == 0) {
        rmp_request_t r;
        MUST(rmp_isend(big, sizeof(big), RMP_BYTE, 1, 7, RMP_COMM_WORLD, &r));
        MUST(rmp_request_free(&r));
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    int size;
    MUST(rmp_comm_size(RMP_COMM_WORLD, &size));
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "barrier_missing"))
        barrier_missing(size);
    else if (!strcmp(what, "allreduce_count"))
        allreduce_count(false);
    else if (!strcmp(what, "ibarrier_count"))
        allreduce_count(true);
    else if (!strcmp(what, "barrier_allreduce"))
        barrier_allreduce();
    else if (!strcmp(what, "finalize_rndv"))
        finalize_rndv();
    else
        FAIL("unknown case '%s'", what);
    int rc = rmp_finalize();
    printf("rank %d: rmp_finalize returned %d\n", prog_rank, rc);
    return rc == RMP_SUCCESS ? 0 : 3;
}
