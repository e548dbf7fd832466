/* io/io.h — what the files of the I/O layer share: the file object (a duplicated communicator,
 * a POSIX descriptor, the view flattened into runs, the pointers, the hints), the table of
 * open files, and the file-system helpers that turn errno into rmp codes. */
#ifndef RMP_IO_INTERNAL_H
#define RMP_IO_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "rmp.h"
#include "io_coll.h"

/* One run of a filetype element: len data bytes at off from the element's origin; pre: the
 * data bytes of the element before it. */
typedef struct io_frun {
    int64_t off, len, pre;
} io_frun_t;

typedef struct io_view {
    int64_t disp;
    rmp_datatype_t etype, filetype; /* the file's own (dup'd derived types) */
    int64_t esize;                  /* etype's size in bytes */
    int64_t tsize, textent;         /* filetype's data bytes and extent per element */
    io_frun_t *runs;                /* one filetype element, by increasing offset */
    int nruns;
    char datarep[RMP_MAX_DATAREP_STRING];
    int rep; /* IO_REP_* */
    void *rep_user; /* a registered datarep (datarep.c) */
} io_view_t;
enum { IO_REP_NATIVE, IO_REP_EXTERNAL32, IO_REP_USER };

/* io_hints_t's switches (romio_cb_*, ds_*), the values of iocoll's coll_hints.h: 0 not
 * given (automatic), -1 automatic, 1 enable, 2 disable. */
enum { IOH_AUTO = -1, IOH_DEFAULT = 0, IOH_ENABLE = 1, IOH_DISABLE = 2 };

typedef struct io_file {
    rmp_comm_t comm;
    int rank, size;
    int nnodes; /* nodes the ranks are on: the default cb_nodes is 2 per node */
    int fd;
    int amode;
    char *path;
    int atomic;
    io_view_t view;
    int64_t pos;      /* the individual pointer, in etypes */
    int shfd;         /* the shared pointer's side file (one int64 at offset 0) */
    char *shpath;
    io_hints_t hints;
    int64_t ind_rd_buf, ind_wr_buf; /* data sieving buffers */
    rmp_info_t info; /* the hints reported by get_info, with their values */
    bool split;       /* a split collective is open */
    int split_rc;
    rmp_request_t split_req; /* the split collective in flight (async.c) */
    const void *split_buf;
    int busy;         /* nonblocking operations in flight (io_async.c) */
    uint32_t cseq;    /* collective accesses started: their messages' tags (io_coll.h) */
} io_file_t;

/* The I/O threads (pool.c): fn(t) runs on one of them; RMP_ERR_NO_MEM when no thread could
 * be started (the caller then runs it itself). */
typedef struct io_task {
    void (*fn)(struct io_task *t);
    struct io_task *next;
} io_task_t;
int io_pool_submit(io_task_t *t);

/* The table of open files (table.c): the file of a handle (NULL: invalid or closed); a new
 * file's handle; a closed file's handle given back. */
io_file_t *io_file_get(rmp_file_t fh);
int io_file_put(io_file_t *f, rmp_file_t *fh);
void io_file_drop(rmp_file_t fh);

/* errno -> rmp code, and the detail ("what path: strerror (errno N)") kept for
 * rmp_file_error_detail. */
int io_errno(int err, const char *what, const char *path);
/* The errno the calling thread's last io_errno mapped. */
int io_errno_last(void);
/* The same code on every rank of comm: the most severe (lowest) of the ranks' rc. */
int io_agree(rmp_comm_t comm, int rc);

/* Views (view.c): the default view (bytes from 0), the flattening of a filetype, the file
 * position of a view byte. */
int io_view_default(io_view_t *v);
void io_view_free(io_view_t *v);
/* Flatten count elements of type t (origin 0) into runs in typemap order, merged where
 * adjacent; *runs malloc'd. RMP_ERR_TYPE when the order asked is not kept: IO_ORDER_STARTS
 * runs start at nondecreasing offsets (a read-only view may overlap), IO_ORDER_DISJOINT
 * they also do not overlap. */
enum { IO_ORDER_ANY, IO_ORDER_STARTS, IO_ORDER_DISJOINT };
int io_flatten(rmp_datatype_t type, int64_t count, int order, io_frun_t **runs, int *n);
/* The file runs of `len` view bytes from view byte `vpos` (bytes of the data stream after
 * disp): appended to *out (io_run_t with mem = base + data position). */
int io_view_runs(const io_view_t *v, int64_t vpos, int64_t len, char *base, io_run_t **out,
                 size_t *n);

/* The view offset (etypes) of the end of the file: seek's RMP_SEEK_END. */
int io_view_end(io_file_t *f, int64_t *end);

/* Independent I/O of runs (rw.c): data sieving where holes are small, byte-range locks in
 * atomic mode. *done: bytes moved (a read may stop at the end of file). */
int io_runs_rw(io_file_t *f, io_run_t *runs, size_t n, int is_write, int64_t *done);

/* An fcntl byte-range lock (F_OFD_SETLKW, waiting): F_RDLCK, F_WRLCK or F_UNLCK. */
int io_lock(io_file_t *f, int64_t off, int64_t len, int type);

/* Data representations (datarep.c): memory (count of type at buf) <-> the file's bytes in
 * the view's representation. to_file fills *out (malloc'd, or buf itself when no copy is
 * needed: *owned false); from_file writes buf from file bytes. A registered conversion
 * function converts the whole buffer in one call: its position (an index into datatype tiled
 * over the user's buffer, MPI-4.0 14.5.3) is 0, whatever the file offset. */
int io_rep_to_file(const io_view_t *v, const void *buf, int64_t count, rmp_datatype_t type,
                   char **out, int64_t *len, bool *owned);
int io_rep_from_file(const io_view_t *v, const char *in, int64_t len, void *buf,
                     int64_t count, rmp_datatype_t type);
/* The file size of one element of type in representation v (file's extent function). */
int io_rep_size(const io_view_t *v, rmp_datatype_t type, int64_t *size);
int io_rep_lookup(const char *name, int *rep, void **user);
/* rmp's views count file bytes as memory bytes: a type whose size differs in representation
 * v is refused (RMP_ERR_UNSUPPORTED_DATAREP). */
int io_rep_same_size(const io_view_t *v, rmp_datatype_t type);

/* The shared pointer (shared.c): create the side file (collective, in open), fetch-and-add
 * n etypes (old value in *old), set, read, remove. */
int io_shared_open(io_file_t *f);
int io_shared_fetch_add(io_file_t *f, int64_t n, int64_t *old);
int io_shared_set(io_file_t *f, int64_t v);
void io_shared_close(io_file_t *f, bool remove_it);

/* Hints (hints.c): parse info into f's hints, and the info get_info reports. */
int io_hints_set(io_file_t *f, rmp_info_t info);

/* One data access on its way (access.c): prepared (checks, start, memory in the file's
 * representation, runs; pointers moved), run (the I/O), finished (conversion, status). */
typedef struct io_op {
    io_file_t *f;
    void *buf;
    int64_t count;
    rmp_datatype_t type;
    int is_write, coll;
    int64_t start;  /* etypes */
    char *data;     /* the file's bytes in memory */
    int64_t len;
    bool owned;     /* data is a buffer of ours */
    io_run_t *runs;
    size_t n;
    int64_t done;   /* bytes moved */
    int rc;
    bool alone;     /* collective, but each rank its own I/O (io_runs_rw counts done) */
    int (*then)(void *arg, rmp_status_t *st); /* io_coll_post's */
    void *then_arg;
} io_op_t;
int io_op_prepare(io_op_t *op, rmp_file_t fh, rmp_io_pos_t pos, rmp_offset_t offset, void *buf,
                  int64_t count, rmp_datatype_t type, int is_write, int coll);
void io_op_run(io_op_t *op);
int io_op_finish(io_op_t *op, rmp_status_t *status);

/* A collective access of op's runs: the two-phase engine, or each rank alone (access.c).
 * io_coll_run runs it to the end (op->rc, op->done); io_coll_post starts it as a request
 * that progress completes, after which done(arg) runs (lock held) with op->rc and op->done
 * set, and *st (the request's status) to fill. */
void io_coll_run(io_op_t *op);
int io_coll_post(io_op_t *op, int (*then)(void *arg, rmp_status_t *st), void *arg,
                 rmp_request_t *req);

#endif
