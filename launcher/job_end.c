/* job_end.c — how a job is ended: the clock the launcher's deadlines use, signalling every
 * rank (and the process groups they lead), and failing the job once, with the one line that
 * says why. Called by job.c's loop and by job_verdict.c's judgements; calls only procs.c. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "job_int.h"
#include "procs.h"

int64_t job_now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        fprintf(stderr, "mrun: clock_gettime failed: %s\n", strerror(errno));
        return 0;
    }
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Signals every rank, and the process group of every rank that leads one (even after it
 * exited: its children may still be in there). */
void job_signal_all(job_t *job, int sig)
{
    for (int r = 0; r < job->nprocs; r++) {
        rank_t *rk = &job->ranks[r];
        if (rk->pid > 0 && (rk->alive || rk->own_group))
            procs_kill(rk->pid, rk->own_group, sig);
    }
    job_subs_signal(job, sig); /* a spawned job's mrun ends its ranks itself */
}

__attribute__((format(printf, 3, 4))) void job_fail(job_t *job, int status,
                                                           const char *fmt, ...)
{
    if (job->failed)
        return;
    job->failed = true;
    job->status = status;
    for (int r = 0; r < job->nprocs; r++) /* nothing more is blamed: no verdict is waited for */
        job->ranks[r].late_at = job->ranks[r].held_at = 0;
    job->nheld = 0;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *label = job_spawn_label(); /* a spawned job's mrun: say whose job this is */
    fprintf(stderr, "mrun%s%s%s: %s\n", label ? " [" : "", label ? label : "", label ? "]" : "",
            msg);
    job_signal_all(job, SIGTERM);
    job->kill_at = job_now_ms() + GRACE_MS;
}
