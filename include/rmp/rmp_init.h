/* rmp/rmp_init.h — starting and ending the runtime, thread levels, versions, error strings.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_INIT_H
#define RMP_API_INIT_H

/* ---- Initialization --------------------------------------------------------------------- */
enum {
    RMP_THREAD_SINGLE = 0,     /* one thread only */
    RMP_THREAD_FUNNELED = 1,   /* many threads, only the one that called init calls rmp */
    RMP_THREAD_SERIALIZED = 2, /* many threads call rmp, never two at once */
    RMP_THREAD_MULTIPLE = 3    /* any thread calls anything at any time */
};

/* Start the runtime. argc/argv may be NULL. Under a PMIx launcher (mrun, srun --mpi=pmix,
 * mpirun) the job's ranks connect; with no launcher the program is a singleton of size 1. */
int rmp_init(int *argc, char ***argv);
/* As rmp_init, asking for a thread level; *provided receives the level granted (always the
 * one required: rmp supports all four). */
int rmp_init_thread(int *argc, char ***argv, int required, int *provided);
/* Complete outstanding communication and shut down. Collective over RMP_COMM_WORLD. */
int rmp_finalize(void);
/* *flag = 1 between rmp_init and rmp_finalize. Callable at any time. */
int rmp_initialized(int *flag);
/* *flag = 1 after rmp_finalize. Callable at any time. */
int rmp_finalized(int *flag);
/* Thread level granted by rmp_init_thread. */
int rmp_query_thread(int *provided);
/* End the whole job (all ranks, through the launcher). Never returns. The job's exit status
 * is code & 255, except that an abort never reports success: a code whose low 8 bits are 0
 * gives 1 (-1 -> 255, 300 -> 44, 0 -> 1, 256 -> 1, 7 -> 7). The launcher is asked to end the
 * job with that status and the rank exits with it itself (some launchers' abort returns). */
int rmp_abort(rmp_comm_t comm, int code);
/* Seconds since an arbitrary point in the past (monotonic clock). */
double rmp_wtime(void);
/* The resolution of rmp_wtime, in seconds. */
double rmp_wtick(void);
/* The version of the library the program runs with (which may differ from the
 * RMP_VERSION_* of the header it was built with): "0.1.0"; major/minor/patch may be NULL. */
const char *rmp_get_version(int *major, int *minor, int *patch);
/* A static, human-readable description of an error code. */
const char *rmp_strerror(int err);

#endif
