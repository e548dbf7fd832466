/* job_int.h — what job.c (the poll loop, start and wait) and job_verdict.c (reaping the ranks
 * and judging each end: who failed first, and whether the job goes on) share: the job's and
 * the ranks' state, the timing constants, and the calls that end a job. Internal to mrun. */
#ifndef MRUN_JOB_INT_H
#define MRUN_JOB_INT_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "job.h"
#include "output.h"
#include "rankstat.h"

enum {
    GRACE_MS = 1000, /* SIGTERM -> SIGKILL */
    DRAIN_MS = 1000, /* after the last rank: how long its output and PMIx connection may lag */
    BLAME_MS = 500,  /* how long a failure that followed a peer's waits for that peer's verdict */
    LATE_MS = 300,   /* how long a plain PMIx client's late "finalized" upcall is waited for */
    /* After a job that failed (a crash, --timeout, a signal), how long mrun still waits for a
     * stalled reader to take the output it holds before dropping it and exiting: long enough
     * for a pager or a slow pipe to catch up, short enough that mrun does not hang for ever.
     * A second signal drops it at once. A job that ended well waits for its reader as long
     * as it takes (as any program that writes to a pipe does), unless --timeout expires. */
    FLUSH_MS = 10000,
    REPORT_MS = 1000, /* --timeout: how long the ranks' hang reports are waited for; a waiting
                       * thread answers within its sleep's bound (250 ms in the runtime) */
};

typedef struct rank {
    pid_t pid; /* 0: never started */
    bool own_group;
    bool alive; /* started and not reaped yet */
    bool connected, finalized; /* PMIx's upcalls said so */
    bool released; /* PMIx reported its connection done (finalized or dropped) */
    rankstat_t st; /* what the rank itself reported (rmp ranks only) */
    int wstatus;     /* once reaped */
    bool judged;     /* reaped, and its verdict reached (a clean end, or a failure, maybe held) */
    int64_t late_at; /* reaped with status 0, waiting for PMIx's late finalize; 0: not */
    /* A failure it reported as the consequence of a peer's (RMP_ERR_PEER: the P line of its
     * status channel): held until that peer's own verdict is in, so that the first cause is
     * blamed, not the first reaped; until held_at at most. */
    int64_t held_at; /* 0: not held */
    int held_status;
    char held_msg[256];
    out_stream_t out, err;
} rank_t;

typedef enum { RV_OK, RV_FAIL, RV_LATER } rank_verdict_t;

/* A job a rank spawned (job_spawn.c): its own mrun, whose output this one forwards. */
typedef struct subjob {
    pid_t pid;
    bool alive; /* counted in job_t.nalive until reaped */
    out_stream_t out, err;
} subjob_t;

struct job {
    const mrun_opts_t *opts;
    srv_t *srv;
    int sig_fd;
    rank_t *ranks;
    int nprocs, nalive;
    int nattached; /* connected ranks PMIx is not done with yet */
    bool any_connected;
    int clean_uninit; /* the first rank that exited 0 without connecting; -1: none */
    bool failed;      /* a failure was reported: the job is being torn down */
    int status;       /* mrun's exit status once failed */
    int nheld;        /* ranks whose failure is held (rank_t.held_at); 0 again once failed */
    int64_t kill_at, timeout_at, drain_until; /* monotonic ms; 0: not set */
    int64_t flush_until; /* the failed job's output is dropped after it; 0: not set */
    int64_t out_next;    /* the output's next timer (out_tick); 0: none */
    int nblocked;        /* open output streams not read for back-pressure */
    out_sinks_t sinks;   /* mrun's stdout and stderr */
    bool sinks_open;
    bool report_asked; /* --timeout passed: the ranks were asked where they are (SIGURG) */
    struct pollfd *pfds;
    out_stream_t **pstreams; /* the output stream behind pfds[i], or NULL */
    int *pstat;              /* the rank whose status channel is pfds[i], or -1 */
    char *const *base_env;   /* the ranks' environment, which spawned jobs start from */
    sigset_t ignored;        /* the signals the ranks (and spawned jobs) keep ignored */
    subjob_t **subs;         /* spawned jobs, nsubs of them (job_spawn.c) */
    int nsubs, nsubs_alive;
};


int64_t job_now_ms(void);
void job_signal_all(job_t *job, int sig);
/* Reports the job's first failure and starts tearing it down; later calls do nothing. */
__attribute__((format(printf, 3, 4))) void job_fail(job_t *job, int status, const char *fmt,
                                                    ...);
void job_fail_uninit(job_t *job, int r);
/* mrun's status for a rank's abort code (never 0). */
int job_abort_status(int code);
/* The end of the chain of held failures rank r's leads to, and failing the job for it. */
int job_chain_end(const job_t *job, int r);
void job_fail_held(job_t *job, int r);
/* Rank r was reaped (late: its verdict comes after a wait for PMIx or for a peer's). */
void job_judge(job_t *job, int r, bool late);
/* Reaps every rank that exited, and judges it. */
void job_reap(job_t *job);

/* job_spawn.c: the spawned jobs. Starts those requested (SRV_SPAWN) and answers PMIx. */
void job_on_spawn(job_t *job);
/* pid was reaped: true if it was a spawned job's mrun (then no longer alive). */
bool job_sub_reaped(job_t *job, pid_t pid);
void job_subs_signal(job_t *job, int sig);
void job_subs_free(job_t *job);
/* This mrun's own label when it runs a spawned job ("spawn1", nested "spawn1.2"), or NULL:
 * its ranks' lines are then prefixed "[label:rank] ". */
const char *job_spawn_label(void);

#endif
