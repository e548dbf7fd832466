/* p2p.h — what the point-to-point API files share (p2p.c checks arguments and starts typed
 * sends and receives; sendmodes.c, persist.c and mprobe.c build the other calls on them). */
#ifndef RMP_P2P_H
#define RMP_P2P_H

#include "core.h"
#include "match.h"

/* What p2p_check_args found valid. */
typedef struct p2p_args {
    comm_t *c;
    const dtype_t *t;
    size_t bytes; /* packed size of the buffer */
} p2p_args_t;

/* Checks shared by every p2p call, in this order: runtime, communicator, count, type, the
 * size of the buffer (count * size and count * extent must not wrap), peer, tag, buffer.
 * recv: RMP_ANY_SOURCE and RMP_ANY_TAG are allowed. */
int p2p_check_args(rmp_comm_t comm, p2p_args_t *a, const void *buf, int count,
                   rmp_datatype_t dt, int peer, int tag, bool recv);
/* Typed send/receive of count elements of t (bytes of packed data), arguments checked; a
 * non-contiguous type is packed into (unpacked from) a buffer of the request's own. sync: a
 * synchronous send (rendezvous whatever the size). */
int p2p_send_typed(comm_t *c, int ctxoff, const void *buf, int count, const dtype_t *t,
                   size_t bytes, int dst, int tag, bool sync, struct rmp_request **req);
int p2p_recv_typed(comm_t *c, int ctxoff, void *buf, int count, const dtype_t *t, size_t bytes,
                   int src, int tag, struct rmp_request **req);
/* A buffered send (sendmodes.c, lock held): the packed data copied into the attached buffer
 * and sent from there. RMP_ERR_BUFFER when no buffer is attached or it has no room left.
 * user: the request the program holds for it (its completion is the copy's), which learns
 * the message's peer and number so that rmp_cancel can name it (send_cancel.c). */
int p2p_bsend_locked(comm_t *c, const void *buf, int count, const dtype_t *t, size_t bytes,
                     int dst, int tag, struct rmp_request *user);
/* rmp_isend with `sync` (rmp_issend): arguments checked, the send started, a user handle. */
int p2p_isend_mode(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, bool sync, rmp_request_t *req);
/* Find a message matching (source, tag) on c, a valid source that is not RMP_PROC_NULL
 * (takes the lock): wait for one when block, else poll once; take: remove it from matching
 * (a matched probe). *found is the message or NULL, *status (if not NULL) its status, filled
 * under the lock; returns the failed source's error when nothing of it matches, else
 * RMP_SUCCESS. Without take, *found must not be read after the call (another thread may
 * receive it). */
int p2p_probe(comm_t *c, int source, int tag, bool block, bool take, rmp_status_t *status,
              unexp_t **found);
/* A request that is complete already (RMP_PROC_NULL peers): empty status. */
int p2p_null_request(req_kind_t kind, struct rmp_request **req);

#endif
