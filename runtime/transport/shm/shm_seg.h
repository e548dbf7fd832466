/* shm_seg.h — names and creation of the job's files in /dev/shm (shm_seg.c). */
#ifndef RMP_SHM_SEG_H
#define RMP_SHM_SEG_H

#include <stdbool.h>

#include "transport/transport.h"

#define SHM_TAG_MAX 80 /* longest job tag kept verbatim in names */
#define SHM_TAG_BYTES (SHM_TAG_MAX + 24)

/* The job's part of every name, from its PMIx namespace (tag holds SHM_TAG_BYTES). */
void shm_job_tag(const char *nspace, char *tag);
/* /dev/shm opened as a directory (O_CLOEXEC), or -1 with errno. */
int shm_seg_dir(void);
/* Gives the unnamed, locked file fd its name (no leading '/') in dir: 0 or an errno. */
int shm_seg_link(int fd, int dir, const char *name);
/* An fd for a new segment called name (with its leading '/'), flocked (shared) while this
 * process lives; *named false: unnamed yet (O_TMPFILE), shm_seg_link names it once ready.
 * -1 with errno and *what (the call that failed) on failure. */
int shm_seg_new_fd(tp_t *tp, const char *name, bool *named, const char **what);

#endif
