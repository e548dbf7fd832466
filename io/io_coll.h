/* io/io_coll.h: the one entry point of two-phase collective buffering (io/coll_*.c).
 * The MPI-IO layer flattens each rank's view into file runs and hands them here; the engine
 * picks aggregators, exchanges the data over rmp point-to-point and does large POSIX I/O. */
#ifndef RMP_IO_COLL_H
#define RMP_IO_COLL_H

#include <stddef.h>
#include <stdint.h>
#include "rmp.h"

/* one rank's part of a collective access: runs sorted by file offset, non-overlapping */
typedef struct { int64_t off; int64_t len; char *mem; } io_run_t;
typedef struct { int cb_nodes; int64_t cb_buffer_size; int romio_cb_write; int romio_cb_read;
                 int64_t striping_unit; int ds_write; int ds_read; } io_hints_t; /* 0/-1: default/auto */
/* Collective on comm: every rank calls with its own runs (n may be 0). Writes (is_write) or reads the
   bytes through POSIX fd, by two-phase aggregation. Returns an rmp status code, the same on every rank. */
int io_coll_access(rmp_comm_t comm, int fd, io_run_t *runs, size_t n, int is_write,
                   const io_hints_t *hints);

#endif
