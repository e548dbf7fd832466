/* fork_child.c — a child forked after rmp_init is not the rank: in it every rmp call returns
 * RMP_ERR_NOT_INITIALIZED (rmp_init too), rmp_initialized says no, rmp_abort only exits, and
 * its exit(0) neither finalizes nor abandons the rank's shared memory. Each rank forks three
 * children (calls, abort, exit), checks their exit statuses, then talks with every peer:
 * nothing of the job noticed. Rank 0 prints "fork_child: OK n=N". */
#include <sys/wait.h>

#include "progs.h"

/* Runs `child` in a forked child; its exit status (-1: not a plain exit). */
static int in_child(void (*child)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        FAIL("fork failed");
        return -1;
    }
    if (pid == 0)
        child(); /* never returns */
    int ws;
    if (waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws))
        return -1;
    return WEXITSTATUS(ws);
}

/* Exit 0 if every call answered "not initialized", else the number of the first that did not. */
static void child_calls(void)
{
    int up = -1, fin = -1, x = 0, argc = 0;
    char **argv = NULL;
    int rc[] = {
        rmp_send(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD),
        rmp_barrier(RMP_COMM_WORLD),
        rmp_finalize(),
        rmp_init(&argc, &argv),
    };
    for (size_t i = 0; i < sizeof rc / sizeof *rc; i++)
        if (rc[i] != RMP_ERR_NOT_INITIALIZED)
            _exit(10 + (int)i);
    if (rmp_initialized(&up) != RMP_SUCCESS || up != 0 || rmp_finalized(&fin) != RMP_SUCCESS ||
        fin != 0)
        _exit(20);
    _exit(0);
}

static void child_aborts(void)
{
    rmp_abort(RMP_COMM_WORLD, 7);
    _exit(30); /* not reached */
}

static void child_exits(void)
{
    exit(0); /* with atexit handlers: rmp's must not touch the rank's transports */
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    int n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    phase("children", 30);
    int st = in_child(child_calls);
    EXPECT(st == 0, "a forked child's rmp calls: exit status %d (10+i: call i was not refused "
           "as not initialized; 20: rmp_initialized or rmp_finalized)", st);
    st = in_child(child_aborts);
    EXPECT(st == 7, "a forked child's rmp_abort(7): exit status %d", st);
    st = in_child(child_exits);
    EXPECT(st == 0, "a forked child's exit(0): exit status %d", st);
    phase("talk", 30);
    int sum = 0, one = 1;
    CHECK(rmp_allreduce(&one, &sum, 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD));
    EXPECT(sum == n, "allreduce after the children: %d, expected %d", sum, n);
    int right = (prog_rank + 1) % n, left = (prog_rank + n - 1) % n, got = -1;
    CHECK(rmp_sendrecv(&prog_rank, 1, RMP_INT, right, 5, &got, 1, RMP_INT, left, 5,
                       RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    EXPECT(got == left, "ring after the children: got %d from %d", got, left);
    phase("finalize", 30);
    CHECK(rmp_finalize());
    if (prog_rank == 0 && !prog_failures)
        printf("fork_child: OK n=%d\n", n);
    return prog_exit();
}
