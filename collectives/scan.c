/* scan.c — prefix reductions: rank r gets the reduction of ranks 0..r (scan, inclusive) or of
 * ranks 0..r-1 (exscan, exclusive; rank 0's recvbuf is left as it was, as MPI leaves it
 * undefined). Recursive doubling: in round k (k = 1, 2, 4, ...) rank r sends the reduction of
 * ranks r-k+1..r it covers so far (partial) to r + k and receives the partial of r - k, which
 * covers the ranks just below its own: ceil(log2 n) rounds. Operands are always combined lower
 * ranks first (in op out), so the order MPI defines is kept. */
#include "coll.h"

static int scan_start(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                      rmp_op_t op, rmp_comm_t comm, rmp_request_t *req, bool exclusive)
{
    coll_t cl;
    const dtype_t *dt = NULL;
    size_t bytes;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int err = coll_allred_args(comm, req, sendbuf, recvbuf, count, type, op, &cl, &dt, &bytes);
    if (!err)
        coll_sign(&cl, exclusive ? CK_EXSCAN : CK_SCAN, -1, (long long)bytes, op, dt);
    sched_t *s = err ? NULL : coll_sched(&cl);
    if (err || !s)
        return err ? err : RMP_ERR_NO_MEM;
    int n = cl.size, me = cl.rank;
    red_t rd = red_of(op, dt);
    size_t elems = rd.esz ? bytes / rd.esz : 0;
    /* my contribution, the user's result buffer (filled with its content: in place it holds
     * my contribution, and exscan leaves rank 0's as it was) */
    char *out = coll_out(s, recvbuf, count, 1, dt, in_place || exclusive);
    const char *mine = in_place ? NULL : coll_in(s, sendbuf, count, 1, dt);
    /* two receive buffers, alternating: a round never receives into what it reads */
    char *partial = sched_tmp(s, bytes), *got2 = sched_tmp(s, 2 * bytes);
    if (out && partial && got2 && (in_place || mine)) {
        sched_copy(s, partial, in_place ? out : mine, bytes);
        if (!exclusive && !in_place)
            sched_copy(s, out, mine, bytes);
        bool have = !exclusive; /* out holds a result so far */
        for (int k = 1, round = 0; k < n; k <<= 1, round++) {
            char *got = got2 + (round & 1) * bytes;
            if (me + k < n)
                sched_send(s, me + k, partial, bytes);
            if (me - k >= 0)
                sched_recv(s, me - k, got, bytes);
            sched_round(s);
            if (me - k < 0)
                continue;
            /* got covers the ranks just below partial's: got op partial, got op out */
            if (have)
                sched_reduce(s, op, dt, got, out, elems);
            else
                sched_copy(s, out, got, bytes);
            have = true;
            if (me + 2 * k < n) /* partial is sent again only if a later round has a target */
                sched_reduce(s, op, dt, got, partial, elems);
        }
    }
    return sched_post(s, req);
}

int rmp_iscan(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
              rmp_comm_t comm, rmp_request_t *req)
{
    return scan_start(sendbuf, recvbuf, count, type, op, comm, req, false);
}

int rmp_iexscan(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    return scan_start(sendbuf, recvbuf, count, type, op, comm, req, true);
}

int rmp_scan(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
             rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_iscan(sendbuf, recvbuf, count, type, op, comm, &r), &r);
}

int rmp_exscan(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
               rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_iexscan(sendbuf, recvbuf, count, type, op, comm, &r), &r);
}
