/* session.h: what a job leaves on the file system, and its removal on every exit path: the
 * PMIx temp dir, and shared-memory segments that crashed ranks leave in /dev/shm. */
#ifndef MRUN_SESSION_H
#define MRUN_SESSION_H

#include <stddef.h>

/* Creates $TMPDIR/mrun.XXXXXX (or under /tmp), locked for as long as mrun lives; returns it
 * malloc'd, or NULL after printing why. */
char *session_tmpdir_create(void);

/* Removes the temp dirs, ours (uid), of mrun processes that died without cleaning up
 * (SIGKILL): those whose lock nobody holds. */
void session_sweep_stale(void);

/* Removes the directory and everything PMIx left in it. */
void session_tmpdir_remove(const char *dir);

/* Removes /dev/shm/rmp.<nspace>* segments of this job (not those of another job whose pid
 * merely starts with the same digits). */
void session_shm_sweep(const char *nspace);

/* Removes the /dev/shm/rmp.* segments, ours (uid), of jobs that died before their ranks had
 * mapped them all (mrun and ranks SIGKILLed during start-up): those whose creator's lock nobody
 * holds. A live job's segments are never touched, whoever started it. */
void session_shm_sweep_dead(void);

/* "RMP_MRUN_SHM_ROOM=<mrun's pid>:<nprocs>:<free bytes of /dev/shm>:<MemAvailable bytes>" into
 * env, measured now, before any rank starts: every rank of the machine then judges the job's
 * shared memory against the same figures, which none of them has changed (shm.c, shm_fits). */
void session_shm_room(int nprocs, char *env, size_t len);

#endif
