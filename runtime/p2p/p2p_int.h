/* p2p_int.h — the internal point-to-point calls (p2p.c, protocol.c) the layers above the
 * runtime (comm/, collectives/, rma/) build on: they take and give request structs, not
 * handles, and trust their arguments. */
#ifndef RMP_P2P_INT_H
#define RMP_P2P_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "request.h"

/* These hand out the request itself (*req), not a public handle: req_handle makes one.
 * The arguments are trusted (the public calls check them first).
 * ctxoff 0: the comm's p2p context; 1: its collective context. Lock NOT held by caller. */
int p2p_isend(comm_t *c, int ctxoff, const void *buf, int count, rmp_datatype_t dt, int dst,
              int tag, struct rmp_request **req);
int p2p_irecv(comm_t *c, int ctxoff, void *buf, int count, rmp_datatype_t dt, int src, int tag,
              struct rmp_request **req);
/* Byte variants (no datatype). */
int p2p_isend_bytes(comm_t *c, int ctxoff, const void *buf, size_t bytes, int dst, int tag,
                    struct rmp_request **req);
int p2p_irecv_bytes(comm_t *c, int ctxoff, void *buf, size_t bytes, int src, int tag,
                    struct rmp_request **req);
/* The same with the runtime lock HELD by the caller (the schedule engine posts from inside
 * progress), byte buffers only. */
int p2p_isend_locked(comm_t *c, int ctxoff, const void *buf, size_t bytes, int dst, int tag,
                     struct rmp_request **req);
int p2p_irecv_locked(comm_t *c, int ctxoff, void *buf, size_t bytes, int src, int tag,
                     struct rmp_request **req);
/* Cancel a posted, unmatched receive (lock held): true if it was cancelled (it completes with
 * status.cancelled set); false for sends, matched or completed receives. */
bool p2p_cancel_locked(struct rmp_request *r);

#endif
