/* test_shm_coll.c — the shared-memory collective backend (runtime/transport/shm/shm_coll.c):
 * tests/progs/shm_coll checks bcast, allreduce (a non-commutative user op included),
 * allgather (in place, from a vector) and barrier against serial results through rotating
 * roots, sizes up to and past a channel, calls in flight on two communicators, channels reused
 * and exhausted, a communicator freed with its call in flight, and broadcasts on communicators
 * made again over the same ranks (the same context pair and sequence numbers: a freed one's
 * tag comes back), and every other collective kind, blocking and nonblocking (completed newest
 * first, or with the communicator freed under them and made again), on communicators made
 * again likewise (tests/progs/shm_coll/again.c). At n = 1 .. 8 on this machine's cores (ranks
 * outnumber them from 3), with waiting ranks that sleep at once (RMP_SPIN_US=0: every hand-off
 * is a futex wake), and with the backend off (the same program on messages). */
#include "run.h"

static void shm_coll(int n, const char *iters, const char *const env[])
{
    run_opts_t o = {.limit = 240, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("shm_coll"), iters, NULL);
    expect_success(r);
    char line[64];
    snprintf(line, sizeof(line), "shm_coll: OK n=%d", n);
    expect_line(r, out, line, 1);
    run_free(&r);
}

RUN_SIZES(shm_coll, n1_to_8, 1, 2, 3, 4, 5, 6, 7, 8)

ParameterizedTest(int *n, shm_coll, n1_to_8, .timeout = 300)
{
    shm_coll(*n, "3000", NULL);
}

Test(shm_coll, sleeping_waiters_n6, .timeout = 300)
{
    const char *env[] = {"RMP_SPIN_US=0", NULL};
    shm_coll(6, "600", env);
}

Test(shm_coll, backend_off_n4, .timeout = 300)
{
    const char *env[] = {"RMP_SHM_COLL=0", NULL};
    shm_coll(4, "600", env);
}
