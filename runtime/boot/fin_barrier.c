/* fin_barrier.c — the barrier rmp_finalize runs over the transports before its PMIx fence.
 * The fence does not progress rmp's traffic, so a rank in it answers nothing: a peer that
 * cancelled a send to it and waits for the answer (send_cancel.c; MPI says that wait is
 * local, and Example 8.8 of MPI-3.1 cancels a send to a rank that just finalizes) would wait
 * forever, and the fence with it. This barrier progresses while it waits, until every rank
 * entered rmp_finalize, which a rank does only once its cancels were answered (finalize
 * waits for them first): no CANCEL can come after it. No rank closes a transport before the
 * fence that follows, so nothing here sees a peer go. A dissemination barrier (log2 n rounds
 * of empty messages) on COMM_WORLD's collective context, with a tag no collective uses. */
#include "core.h"

#define FIN_TAG (RMP_TAG_UB + 1) /* collectives' tags are at most RMP_TAG_UB */

int fin_barrier(rmp_ctx_t *c)
{
    comm_t *w = comm_get(RMP_COMM_WORLD);
    int n = c->size, me = c->rank, rc = RMP_SUCCESS;
    if (!w)
        return RMP_ERR_COMM;
    for (int k = 1; k < n; k *= 2) {
        struct rmp_request *r, *s;
        char in, out = 0;
        int e = p2p_irecv_bytes(w, 1, &in, 0, (me - k + n) % n, FIN_TAG, &r);
        if (e) /* out of memory: the fence alone, as before */
            return e;
        rmp_request_t h[2] = {req_handle(r), RMP_REQUEST_NULL};
        e = p2p_isend_bytes(w, 1, &out, 0, (me + k) % n, FIN_TAG, &s);
        if (e == RMP_SUCCESS)
            h[1] = req_handle(s);
        else
            rc = e; /* a failed peer: its receive below fails as well */
        /* a failed peer's operations end with its error: go on, the fence decides */
        int e2 = rmp_waitall(2, h, RMP_STATUSES_IGNORE);
        if (e2 && !rc)
            rc = e2;
    }
    return rc;
}
