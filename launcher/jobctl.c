/* jobctl.c: stopping and continuing the whole job. mrun receives its signals through a
 * signalfd (all blocked), so a stop signal does nothing by itself: mrun stops the ranks with
 * SIGSTOP (which no rank can catch or ignore), then lets the same signal take its default
 * action on itself, so that the shell sees the job stopped as by Ctrl-Z and `fg`/`bg` work. */
#include "jobctl.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool jobctl_is_stop(int sig) { return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU; }

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* cannot fail for CLOCK_MONOTONIC */
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Takes the SIGCONT that continuing mrun queued (SIGCONT stays blocked: it continues a
 * stopped process all the same); false if none is pending: mrun was not stopped. */
static bool take_cont(void)
{
    sigset_t cont;
    sigemptyset(&cont);
    sigaddset(&cont, SIGCONT);
    const struct timespec now = {0, 0};
    int got;
    while ((got = sigtimedwait(&cont, NULL, &now)) < 0 && errno == EINTR)
        ;
    return got == SIGCONT;
}

int64_t jobctl_stop(int sig, void (*signal_all)(void *arg, int sig), void *arg)
{
    signal_all(arg, SIGSTOP);
    int64_t t0 = mono_ms();
    (void)take_cont(); /* an old one would make the check below believe mrun had stopped */
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    /* Pending on this thread while blocked; unblocked, it is delivered before the call
     * returns, and its default action stops the whole process, PMIx's threads too. */
    if (raise(sig) != 0 || pthread_sigmask(SIG_UNBLOCK, &one, NULL) != 0)
        fprintf(stderr, "mrun: stopping itself with signal %d failed: %s\n", sig,
                strerror(errno));
    pthread_sigmask(SIG_BLOCK, &one, NULL); /* cannot fail with a valid set */
    /* The kernel discards SIGTSTP, SIGTTIN and SIGTTOU in a process group that no shell
     * controls (an orphaned one): the ranks are stopped, so mrun stops too, with SIGSTOP. */
    if (!take_cont()) {
        kill(getpid(), SIGSTOP);
        (void)take_cont();
    }
    signal_all(arg, SIGCONT);
    return mono_ms() - t0;
}
