/* barrier.c — dissemination barrier: in round k (k = 1, 2, 4, ...) every rank signals rank+k
 * and waits for rank-k, so after ceil(log2 n) rounds each rank has heard, directly or not,
 * from every other. Zero-byte messages; works for any n. */
#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "dissemination", NULL};
static coll_tune_t tune = {.name = "BARRIER", .algs = algs};

/* rmp_ibarrier, and rmp_barrier's start (blocking: see coll_offload). */
static int barrier_start(rmp_comm_t comm, rmp_request_t *req, bool blocking)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_ibarrier(comm, req);
    coll_t cl;
    int alg, err = coll_comm(comm, &cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    sched_t *s;
    coll_sign(&cl, CK_BARRIER, -1, 0, RMP_OP_NULL, NULL);
    if (err || (err = coll_begin_lazy(&cl, &tune, &alg, blocking)))
        return err;
    ofl_args_t a = {.coll = OFL_BARRIER};
    if (alg == 0 && (err = coll_offload(&cl, &a, req)) != RMP_ERR_NOT_SUPPORTED)
        return err;
    if (!(s = coll_sched_tagged(&cl)))
        return RMP_ERR_NO_MEM;
    int n = cl.size, me = cl.rank;
    for (int k = 1; k < n; k <<= 1) {
        sched_recv(s, (me - k + n) % n, NULL, 0);
        sched_send(s, (me + k) % n, NULL, 0);
        sched_round(s);
    }
    return sched_post(s, req);
}

int rmp_ibarrier(rmp_comm_t comm, rmp_request_t *req)
{
    return barrier_start(comm, req, false);
}

int rmp_barrier(rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(barrier_start(comm, &r, true), &r);
}
