/* spawn.h — what spawn.c's launcher shares with spawn_multi.c. */
#ifndef RMP_SPAWN_H
#define RMP_SPAWN_H

#include <limits.h>

#include "core.h"

typedef struct spawn_app {
    const char *command;
    char *const *argv;
    int maxprocs;  /* at root: after info "soft" (spawn.c) */
    int requested; /* the caller's maxprocs */
    rmp_info_t info;
    char exe[PATH_MAX], wdir[PATH_MAX];
    char env[RMP_MAX_INFO_VAL + 1]; /* rmp_env: VAR=VALUE lines */
} spawn_app_t;

/* A /bin/sh script that execs, for each child of rmp_comm_spawn_multiple (its world rank in
 * PMIX_RANK, which its launcher sets), its app: the app's number in RMP_APPNUM, its
 * directory and environment set. Malloc'd; NULL when out of memory. */
char *spawn_script(const spawn_app_t *apps, int count);

#endif
