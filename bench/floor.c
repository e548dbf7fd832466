/* floor.c — the one-way latency floor of shared memory on this machine: two processes, each
 * pinned to its own core, bounce a counter through two cache lines (one per direction), with
 * nothing else in the loop. No message-passing library does better than this between the same
 * two cores; bench/compare records it with every run, since on a VM it tells which placement
 * the host gave the vCPUs (measured here: 55-60 ns, 125 ns, 250 ns on different days, which
 * moves every small-message number by the same amount).
 *
 *   build/bench/floor [round trips]      prints "floor: one-way N ns (cores A and B)" */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity */
#endif
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    return sched_setaffinity(0, sizeof(s), &s);
}

/* The first two cores this process may run on (-1 when it has fewer than two). */
static void two_cores(int *a, int *b)
{
    cpu_set_t s;
    *a = *b = -1;
    if (sched_getaffinity(0, sizeof(s), &s) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE && *b < 0; c++)
        if (CPU_ISSET(c, &s)) {
            if (*a < 0)
                *a = c;
            else
                *b = c;
        }
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 1000000;
    if (iters <= 0) {
        fprintf(stderr, "usage: floor [round trips > 0]\n");
        return 2;
    }
    int ca, cb;
    two_cores(&ca, &cb);
    if (cb < 0) {
        fprintf(stderr, "floor: needs two cores\n");
        return 1;
    }
    /* two lines, one written by each side: the same traffic as a ping-pong's two fast boxes */
    _Atomic long *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                             -1, 0);
    if (mem == MAP_FAILED) {
        perror("floor: mmap");
        return 1;
    }
    _Atomic long *ping = mem, *pong = mem + 64 / sizeof(long);
    pid_t child = fork();
    if (child < 0) {
        perror("floor: fork");
        return 1;
    }
    if (child == 0) {
        if (pin(cb) != 0)
            _exit(1);
        for (long i = 1; i <= iters; i++) {
            while (atomic_load_explicit(ping, memory_order_acquire) != i)
                ;
            atomic_store_explicit(pong, i, memory_order_release);
        }
        _exit(0);
    }
    if (pin(ca) != 0) {
        perror("floor: sched_setaffinity");
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 1; i <= iters; i++) {
        atomic_store_explicit(ping, i, memory_order_release);
        while (atomic_load_explicit(pong, memory_order_acquire) != i)
            ;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int st;
    waitpid(child, &st, 0);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
                (double)iters / 2;
    printf("floor: one-way %.1f ns (cores %d and %d)\n", ns, ca, cb);
    return 0;
}
