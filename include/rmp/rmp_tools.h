/* rmp/rmp_tools.h — tools: control variables and performance counters (runtime/cvar.c, runtime/stats.c).
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_TOOLS_H
#define RMP_API_TOOLS_H

/* ---- Tools: control variables and performance counters (runtime/cvar.c, runtime/stats.c) --
 * What MPI_T shows a tool, for programs without MPI too. The control variables are the RMP_*
 * knobs (README.md's table); the counters are kept per process by the runtime. */
enum { RMP_CVAR_BOOL, RMP_CVAR_INT, RMP_CVAR_SIZE, RMP_CVAR_ENUM, RMP_CVAR_STRING };
typedef struct rmp_cvar_info {
    const char *name;            /* "RMP_EAGER_LIMIT" */
    const char *desc;            /* one line */
    int type;                    /* RMP_CVAR_* */
    long long min, max;          /* INT, SIZE: the accepted range */
    const char *const *choices;  /* ENUM: the accepted values, NULL-terminated */
    int writable;                /* 1: rmp_cvar_write may change it after rmp_init (the
                                  * runtime reads it at each use); 0: fixed at rmp_init */
    int same_everywhere;         /* 1: must be equal on every rank of the job */
} rmp_cvar_info_t;
/* How many there are; the description of number `index` (RMP_ERR_ARG out of range). */
int rmp_cvar_count(void);
int rmp_cvar_info(int index, rmp_cvar_info_t *info);
/* The value in effect: as a number (BOOL, INT, SIZE: the value, -1 for "the runtime decides";
 * ENUM: the index in choices; STRING: 0) and as text ("" for unset; text may be NULL).
 * Before rmp_init: what rmp_init would take from the environment. */
int rmp_cvar_read(int index, long long *num, char *text, size_t len);
/* Sets a writable one from text, checked as its RMP_* variable would be: RMP_ERR_ARG for a
 * refused value or a knob fixed at rmp_init, RMP_ERR_NOT_INITIALIZED outside rmp_init ..
 * rmp_finalize. Changes this process only. */
int rmp_cvar_write(int index, const char *text);

/* Counters: COUNTER only grows, LEVEL goes up and down, HIGHWATERMARK is a LEVEL's largest
 * value since rmp_init, TIMER is nanoseconds. Every value is an unsigned long long. */
enum { RMP_STAT_COUNTER, RMP_STAT_LEVEL, RMP_STAT_HIGHWATERMARK, RMP_STAT_TIMER };
typedef struct rmp_stat_info {
    const char *name;            /* "shm_bytes_sent" */
    const char *desc;            /* one line */
    int cls;                     /* RMP_STAT_* */
} rmp_stat_info_t;
int rmp_stats_count(void);
int rmp_stats_info(int index, rmp_stat_info_t *info);
/* A high-water mark of the caller's own over the HIGHWATERMARK counter `index`, for a tool
 * that measures a phase: it starts at the level now and follows the level up; set puts it at
 * value, or at the level now if that is higher (0: the level). At most 32 at once
 * (RMP_ERR_NO_MEM beyond); RMP_ERR_ARG for another counter or an invalid watch; only between
 * rmp_init and rmp_finalize. */
int rmp_stats_watch(int index, int *watch);
int rmp_stats_watch_set(int watch, unsigned long long value);
int rmp_stats_watch_read(int watch, unsigned long long *value);
int rmp_stats_unwatch(int watch);
/* The messages and bytes sent on comm since it was made (its collectives' messages too; an
 * intercommunicator's collectives count on its hidden bridge). RMP_ERR_COMM for an invalid one. */
int rmp_comm_stats(rmp_comm_t comm, unsigned long long *msgs_sent,
                   unsigned long long *bytes_sent);
/* values[i] for the first n counters (n <= rmp_stats_count()), all read at one instant.
 * Zeros before rmp_init; after rmp_finalize the final values. */
int rmp_stats_get(unsigned long long *values, int n);

#endif
