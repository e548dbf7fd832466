/* sysrun.c — usage: sysrun <command>. Rank 0 runs the command with system() (it inherits the
 * rank's environment, PMIx's variables included), prints "sysrun: child exit N", then every
 * rank does a barrier and rank 0 prints "sysrun: OK n=N". An rmp program run that way is not
 * a rank of the job: mrun must refuse it at once, and the job must go on. */
#include <sys/wait.h>

#include "progs.h"

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    int n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    if (argc < 2) {
        FAIL("usage: sysrun <command>");
        return prog_exit();
    }
    phase("child", 30);
    if (prog_rank == 0) {
        fflush(stdout);
        int ws = system(argv[1]);
        printf("sysrun: child exit %d\n", ws != -1 && WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
        fflush(stdout);
    }
    phase("barrier", 30);
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    phase("finalize", 30);
    CHECK(rmp_finalize());
    if (prog_rank == 0 && !prog_failures)
        printf("sysrun: OK n=%d\n", n);
    return prog_exit();
}
