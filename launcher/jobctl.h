/* jobctl.h: job control of the whole job. A stop signal to mrun (Ctrl-Z's SIGTSTP, SIGTTIN,
 * SIGTTOU) stops every rank and then mrun; when mrun is continued, every rank is too. The
 * ranks run in process groups of their own, so the terminal's signal reaches mrun alone. */
#ifndef MRUN_JOBCTL_H
#define MRUN_JOBCTL_H

#include <stdbool.h>
#include <stdint.h>

/* sig stops a process by default and comes to mrun through its signal loop. */
bool jobctl_is_stop(int sig);

/* Sends SIGSTOP to every rank (signal_all(arg, SIGSTOP)), then stops mrun with sig as its
 * default action would; once mrun is continued, sends SIGCONT to every rank. Returns how many
 * milliseconds mrun was stopped. sig must be blocked, with its default action. */
int64_t jobctl_stop(int sig, void (*signal_all)(void *arg, int sig), void *arg);

#endif
