/* sleeper.c — usage: sleeper [ignore-term] [fork]. Every rank initializes, optionally ignores
 * SIGTERM and/or forks a child that sleeps too, prints "ready", then sleeps (outside rmp) for
 * a minute: for signals sent to mrun, which must still end every process of the job. */
#include <sys/wait.h>

#include "progs.h"

int main(int argc, char **argv)
{
    bool ignore_term = false, forks = false;
    for (int i = 1; i < argc; i++) {
        ignore_term |= strcmp(argv[i], "ignore-term") == 0;
        forks |= strcmp(argv[i], "fork") == 0;
    }
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (ignore_term)
        signal(SIGTERM, SIG_IGN);
    if (forks && fork() == 0) {
        sleep(60); /* a grandchild of mrun: must not outlive the job either */
        _exit(0);
    }
    printf("ready\n");
    fflush(stdout);
    sleep(60);
    FAIL("slept a whole minute: nobody ended the job");
    return 1;
}
