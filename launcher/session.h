/* session.h: what a job leaves on the file system, and its removal on every exit path: the
 * PMIx temp dir, and shared-memory segments that crashed ranks leave in /dev/shm. */
#ifndef MRUN_SESSION_H
#define MRUN_SESSION_H

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

#endif
