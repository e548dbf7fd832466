/* io/coll.h — inside the two-phase engine (io/coll_*.c): the plan every rank derives alike
 * from one allgather (aggregators, file domains, rounds), the exchange that runs it, and the
 * POSIX helpers both use. Only io_coll.h is seen by the rest of io/. */
#ifndef RMP_IO_COLL_INT_H
#define RMP_IO_COLL_INT_H

#include <stdint.h>

#include "io.h"

/* The tags of an access's messages on the file's communicator, which is rmp's private
 * duplicate (user traffic never shares it): COLL_TAG + 2 * (seq % COLL_SEQS) for the
 * exchange, one more for the agreement on the outcome. One message per pair and direction
 * per round, so the non-overtaking rule alone keeps rounds apart; the seq keeps accesses in
 * flight at once apart (io_cop_begin). */
#define COLL_TAG 0x10c00000
#define COLL_SEQS 0x10000

/* The collective buffer when cb_buffer_size is not given (ROMIO's), and at most (one
 * exchange message stays below INT_MAX bytes); aggregators per node when cb_nodes is not. */
#define IO_CB_BUFFER_DEFAULT ((int64_t)16 << 20)
#define IO_CB_BUFFER_MAX ((int64_t)1 << 30)
#define IO_AGGS_PER_NODE 2

/* Below this many bytes, copying costs about what one more system call does: the unit of
 * the sieving decision (coll_sieve). */
#define COLL_SYSCALL_BYTES ((int64_t)8192)

typedef struct coll_plan {
    rmp_comm_t comm;
    int rank, size, fd, is_write;
    int naggs;
    int *aggs;      /* [naggs] the comm rank serving domain i, ascending */
    int me_agg;     /* my domain, -1 when I aggregate none */
    int64_t *dom;   /* [naggs + 1]: domain i is [dom[i], dom[i + 1]) */
    int64_t cb;     /* bytes an aggregator moves per round (its collective buffer) */
    int64_t rounds; /* rounds every rank runs: the longest domain's */
    int sieve;      /* ds_write / ds_read: IOH_* */
} coll_plan_t;

/* coll_plan.c: the plan from every rank's record (coll_rec_*), or 1 in *indep when the
 * accesses are better done by each rank alone. */
enum { REC_STATUS, REC_WRITE, REC_NODE, REC_LO, REC_HI, REC_NRUNS, REC_BLOCK, REC_CB_NODES,
       REC_CB_SIZE, REC_CB, REC_STRIPE, REC_DS, REC_N };
int coll_plan_make(coll_plan_t *p, const int64_t *all, int *indep);
void coll_plan_free(coll_plan_t *p);

/* coll_exchange.c: the rounds of the plan (every rank), runs being mine. */
int coll_exchange(const coll_plan_t *p, io_run_t *runs, size_t n);

/* coll_fs.c: whole transfers despite short counts and EINTR. A read stops at the end of the
 * file and zero-fills the rest. Errors are printed with the file's path and errno and come
 * back as an rmp status. */
int coll_fs_write(int fd, const char *buf, int64_t len, int64_t off);
int coll_fs_read(int fd, char *buf, int64_t len, int64_t off);
/* The file system's block size (statfs), 0 if unknown. */
int64_t coll_fs_block(int fd);
/* A write lock on [off, off + len) held across a read-modify-write (F_OFD_SETLKW, so that it
 * excludes the independent writers' sieving of other ranks); 0 when taken. */
int coll_fs_lock(int fd, int64_t off, int64_t len, int lock);
/* Every run of mine on my own (romio_cb_* disabled, or nothing interleaves). */
int coll_fs_independent(int fd, const io_run_t *runs, size_t n, int is_write);
/* Whether to cover the holes between nseg segments with one sieved extent. */
int coll_sieve(int sw, int is_write, int64_t extent, int64_t covered, size_t nseg);

#endif
