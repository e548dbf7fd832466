/* rmp/rmp_info.h — info objects: (key, value) hints, usable before rmp_init.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_INFO_H
#define RMP_API_INFO_H

/* Info objects (MPI-3.1 ch. 9): ordered (key, value) string pairs carrying hints; local
 * objects, thread-safe, usable before rmp_init. Keys are 1..RMP_MAX_INFO_KEY characters
 * (else RMP_ERR_INFO_KEY), values 1..RMP_MAX_INFO_VAL (else RMP_ERR_INFO_VALUE), both compared
 * exactly; setting a key again replaces its value and keeps its place in the order of
 * rmp_info_get_nthkey (the order keys were first set). An invalid or freed handle (and
 * RMP_INFO_NULL) gives RMP_ERR_INFO. RMP_INFO_ENV is read-only (set, delete and free give
 * RMP_ERR_INFO; it needs rmp_init): "command" (argv[0]), "argv" (the other arguments,
 * space-separated, when there are some), "maxprocs" (the world size), "host", "arch",
 * "wdir" and "thread_level" ("MPI_THREAD_SINGLE" ...). */
typedef int rmp_info_t;
#define RMP_INFO_NULL ((rmp_info_t)0)
#define RMP_INFO_ENV ((rmp_info_t)1)
#define RMP_MAX_INFO_KEY 255
#define RMP_MAX_INFO_VAL 1024
int rmp_info_create(rmp_info_t *info);
int rmp_info_set(rmp_info_t info, const char *key, const char *value);
/* *flag = 1 if key is set: value gets at most valuelen characters of its value and a NUL
 * (value holds valuelen + 1 bytes); *flag = 0 leaves value untouched. */
int rmp_info_get(rmp_info_t info, const char *key, int valuelen, char *value, int *flag);
/* *valuelen = strlen of key's value, when *flag = 1. */
int rmp_info_get_valuelen(rmp_info_t info, const char *key, int *valuelen, int *flag);
int rmp_info_get_nkeys(rmp_info_t info, int *nkeys);
/* The n-th key (0 <= n < nkeys, else RMP_ERR_ARG); key holds RMP_MAX_INFO_KEY + 1 bytes. */
int rmp_info_get_nthkey(rmp_info_t info, int n, char *key);
int rmp_info_delete(rmp_info_t info, const char *key); /* RMP_ERR_INFO_NOKEY: not set */
int rmp_info_dup(rmp_info_t info, rmp_info_t *newinfo);
int rmp_info_free(rmp_info_t *info); /* *info becomes RMP_INFO_NULL */
/* A new info with the keys of RMP_INFO_ENV that do not depend on rmp_init, so that it is the
 * same before, during and after (MPICH's infocreateenv checks it): command and argv, taken
 * from argv's first argc words when given (argc > 0, argv non-NULL), else from the process's
 * command line; host, arch, wdir. (maxprocs and thread_level: RMP_INFO_ENV.) */
int rmp_info_create_env(int argc, char *argv[], rmp_info_t *info);

#endif
