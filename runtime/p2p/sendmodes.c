/* sendmodes.c — MPI's other send modes over the standard one: synchronous sends (rendezvous
 * whatever the size, so the send completes only once the receiver matched), ready sends (a
 * standard send is a correct ready send), and sendrecv_replace (the outgoing data copied
 * aside, so the receive may land in the buffer). Buffered sends are in bsend.c. */
#include <stdlib.h>

#include "hang.h"
#include "p2p.h"

/* ---- synchronous and ready ---- */

int rmp_issend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req)
{
    return p2p_isend_mode(buf, count, type, dest, tag, comm, true, req);
}

int rmp_ssend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm)
{
    rmp_request_t r;
    int rc = rmp_issend(buf, count, type, dest, tag, comm, &r);
    if (rc)
        return rc;
    const char *prev = hang_enter(__func__);
    rc = rmp_wait(&r, RMP_STATUS_IGNORE);
    hang_leave(prev);
    return rc;
}

int rmp_irsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req)
{
    return p2p_isend_mode(buf, count, type, dest, tag, comm, false, req);
}

int rmp_rsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm)
{
    return rmp_send(buf, count, type, dest, tag, comm);
}

/* ---- sendrecv_replace ---- */

/* Both halves are checked before anything is posted (as rmp_sendrecv); the outgoing data is
 * packed into a copy first, so the receive may fill the buffer while the copy is sent (a
 * rendezvous reads the sender's buffer until the receiver is done). */
int rmp_sendrecv_replace(void *buf, int count, rmp_datatype_t type, int dest, int sendtag,
                         int source, int recvtag, rmp_comm_t comm, rmp_status_t *status)
{
    p2p_args_t ra, sa;
    int rc = p2p_check_args(comm, &ra, buf, count, type, source, recvtag, true);
    if (!rc)
        rc = p2p_check_args(comm, &sa, buf, count, type, dest, sendtag, false);
    if (rc)
        return rc;
    void *copy = malloc(sa.bytes ? sa.bytes : 1);
    if (!copy)
        return RMP_ERR_NO_MEM;
    dtype_pack(sa.t, count, buf, copy);
    struct rmp_request *rr, *sr;
    if ((rc = p2p_recv_typed(ra.c, 0, buf, count, ra.t, ra.bytes, source, recvtag, &rr))) {
        free(copy);
        return rc;
    }
    rmp_request_t r[2] = {req_handle(rr), RMP_REQUEST_NULL};
    rc = p2p_isend_bytes(sa.c, 0, copy, sa.bytes, dest, sendtag, &sr);
    if (rc) {
        rmp_cancel(&r[0]);
        rmp_wait(&r[0], status);
        free(copy);
        return rc;
    }
    r[1] = req_handle(sr);
    int rc_send = rmp_wait(&r[1], RMP_STATUS_IGNORE);
    rc = rmp_wait(&r[0], status);
    free(copy);
    return rc ? rc : rc_send;
}
