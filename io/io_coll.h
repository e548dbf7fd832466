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

/* The same in two halves, so that it may overlap computation (io/coll_run.c). io_cop_begin
 * is collective and agrees now on the plan (one allgather, the announcement of the pieces);
 * the rounds (messages and file I/O) and the agreement on the outcome come later, in
 * io_cop_wait (on the calling thread) or in progress after io_cop_post (the file I/O on the
 * I/O threads). seq: the same on every rank, different for accesses in flight at once on
 * comm (it tags their messages). alone: the caller's own I/O when it wants no aggregation
 * (every rank runs alone(arg), then they agree). On failure (every rank's) *cop is NULL. */
typedef struct io_cop io_cop_t;
typedef int io_alone_fn(void *arg);
int io_cop_begin(rmp_comm_t comm, int fd, io_run_t *runs, size_t n, int is_write,
                 const io_hints_t *hints, uint32_t seq, io_alone_fn *alone, void *alone_arg,
                 io_cop_t **cop);
/* Run to the end; the status agreed by every rank; cop freed. */
int io_cop_wait(io_cop_t *cop);
/* Start as a request (*req); done(arg, status, st) runs once, on an I/O thread (runtime
 * lock not held), with the agreed status before the request completes, fills *st (the
 * request's status) and returns the request's error. cop is freed after it. */
typedef int io_cop_done_fn(void *arg, int status, rmp_status_t *st);
int io_cop_post(io_cop_t *cop, io_cop_done_fn *done, void *arg, rmp_request_t *req);

#endif
