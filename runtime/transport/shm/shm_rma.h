/* shm_rma.h — shm's one-sided table (shm_rma.c) and the two services of shm.c it builds on:
 * RMA segments are made, locked and named exactly like shm's own (so mrun's sweep knows them
 * and no other user can open or predict them). */
#ifndef RMP_SHM_RMA_H
#define RMP_SHM_RMA_H

#include <stdbool.h>

#include "transport/transport.h"

extern const tp_rma_ops_t shm_rma_ops;

/* shm.c: the job's part of segment names ("rmp.<tag>-r<rank>.l<hex>"). */
const char *shm_job_tag(const tp_t *tp);
/* shm.c: an fd for a new segment called name (with its leading '/'), flocked while this
 * process lives; *named false: unnamed yet (O_TMPFILE), shm_seg_link names it when ready.
 * -1 with errno and *what on failure. */
int shm_seg_fd(tp_t *tp, const char *name, bool *named, const char **what);
/* shm.c: gives fd its name (without the leading '/') in /dev/shm; 0 or an errno. */
int shm_seg_link(int fd, const char *name);

#endif
