/* job.h: one mrun job: starting its ranks and watching them until the job ends, with the
 * policy for failures (exit, signal, abort, missing init/finalize), signals and the timeout. */
#ifndef MRUN_JOB_H
#define MRUN_JOB_H

#include <signal.h>

#include "mrun.h"
#include "pmix_srv.h"

typedef struct job job_t;

/* Starts all ranks of path (resolved opts->argv[0]) with base_env plus PMIx's variables.
 * sig_fd is a signalfd for SIGCHLD and the signals that end the job; ignored holds the signals
 * the ranks keep ignored. Returns NULL after printing why. */
job_t *job_start(const mrun_opts_t *opts, srv_t *srv, int sig_fd, const sigset_t *ignored,
                 const char *path, char *const base_env[]);

/* Runs the job until every rank is gone and their output is forwarded; returns mrun's exit
 * status and frees the job. */
int job_wait(job_t *job);

#endif
