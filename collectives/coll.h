/* coll.h — what the blocking software collectives share: argument checks, the per-call tag,
 * packed views of user buffers (derived types travel as packed bytes), and post-then-wait
 * exchanges over the communicator's collective context. */
#ifndef RMP_COLL_H
#define RMP_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "core.h"

#define COLL_CTXOFF 1 /* collective context: user p2p traffic never matches ours */

typedef struct coll {
    comm_t *comm;
    int rank, size;
    int tag; /* this call's tag, from comm->coll_seq (set by coll_start) */
} coll_t;

/* ---- argument checks (nothing is sent before they pass) ---- */
/* Initialized runtime and a valid communicator: fills cl (not yet started). */
int coll_comm(rmp_comm_t h, coll_t *cl);
/* RMP_ERR_ROOT unless 0 <= root < size. */
int coll_root(const coll_t *cl, int root);
/* A buffer of nblk blocks of `count` elements of a committed type: RMP_ERR_COUNT,
 * RMP_ERR_TYPE or RMP_ERR_BUFFER (NULL or RMP_IN_PLACE with count > 0). *dt_p gets the
 * type and *bytes_p the packed bytes of one block. */
int coll_buf(const void *buf, int count, rmp_datatype_t type, int nblk, const dtype_t **dt_p,
             size_t *bytes_p);
/* Take this call's tag: every rank calls it once per collective, after the checks. */
void coll_start(coll_t *cl);

/* ---- packed views ---- */
enum { COLL_IN = 1, COLL_OUT = 2 };

/* nblk blocks of `count` elements of dt at `user`, as packed bytes at p: the user memory
 * itself for contiguous types, else a temporary. COLL_IN: p holds the buffer's content;
 * COLL_OUT: coll_view_end unpacks p into the buffer. */
typedef struct coll_view {
    char *p;
    char *tmp; /* owned; NULL when p is the user buffer */
    void *user;
    const dtype_t *dt;
    int count, nblk, flags;
    size_t blk; /* packed bytes of one block */
} coll_view_t;

int coll_view(coll_view_t *v, const void *user, int count, int nblk, const dtype_t *dt, int flags);
/* Unpack (COLL_OUT, when ok) and free the temporary. */
void coll_view_end(coll_view_t *v, bool ok);

/* ---- communication ---- */
/* Post the receive (src >= 0) then the send (dst >= 0), wait for both; first error. */
int coll_sendrecv(coll_t *cl, const void *sbuf, size_t sbytes, int dst, void *rbuf, size_t rbytes,
                  int src);
/* Wait for n posted requests; if post_err is set (a post failed), posted receives are
 * cancelled first. Returns post_err or the first completion error. */
int coll_wait(int n, rmp_request_t *reqs, int post_err);

/* Largest power of two <= n (n >= 1). */
int coll_pow2_floor(int n);

#endif
