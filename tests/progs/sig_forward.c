/* sig_forward.c — every rank prints "ready" and waits (at most 10 s) for SIGUSR1 or SIGUSR2,
 * which mrun forwards as mpirun does; it then prints which one came and finishes cleanly. */
#include "progs.h"

static volatile sig_atomic_t got;

static void on_signal(int sig) { got = sig; }

int main(int argc, char **argv)
{
    signal(SIGUSR1, on_signal);
    signal(SIGUSR2, on_signal);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    printf("ready\n");
    fflush(stdout);
    for (int i = 0; i < 1000 && !got; i++)
        usleep(10 * 1000);
    if (!got)
        FAIL("no signal forwarded within 10 s");
    else
        printf("rank %d: got %s\n", prog_rank, got == SIGUSR1 ? "SIGUSR1" : "SIGUSR2");
    MUST(rmp_barrier(RMP_COMM_WORLD));
    MUST(rmp_finalize());
    return prog_failures ? 1 : 0;
}
