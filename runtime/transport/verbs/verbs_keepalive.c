/* verbs_keepalive.c — a lost link found while nobody sends. An RC QP learns that its peer is
 * unreachable only from a work request that exhausts its retries. A rank that only waits to
 * receive has none in flight: when the other node's link goes down mid-job, every rank that
 * waits for that node waits for ever, and the other node's ranks, which may see the failure,
 * cannot tell the launcher over the same link (seen across two VMs under Slurm: the job
 * ended only when Slurm declared the node dead, 40-90 s later, or never with mrun).
 *
 * So every RMP_VERBS_KEEPALIVE seconds (default 10; 0: never), each connected peer that was
 * not heard from since the last look (no arrival from it, no acknowledged send to it) gets a
 * zero-length RDMA WRITE: no memory of the peer is touched and no receive buffer taken (a
 * zero-byte RDMA operation checks no R_Key, IB spec C9-88); the peer's adapter acknowledges
 * it, even while the peer's process computes. Over a lost link it exhausts its retries like
 * any send, its error completion fails the peer (verbs_on_send: "transport retry counter
 * exceeded"), and the core's fault path ends the job. UCX probes its endpoints the same way
 * (UCX_KEEPALIVE_INTERVAL). The look runs with the event polls of the progress engine, which
 * a waiting rank reaches at least every time its sleep times out. */
#include <time.h>

#include "transport/verbs/verbs.h"

#define KEEPALIVE_DEFAULT_S 10

static uint64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

void verbs_keepalive_open(verbs_tp_t *v)
{
    v->ka_ms = (uint64_t)verbs_env_count(v, "RMP_VERBS_KEEPALIVE", KEEPALIVE_DEFAULT_S, 0, 3600) *
               1000u;
    v->ka_next = now_ms() + v->ka_ms;
}

void verbs_keepalive(verbs_tp_t *v)
{
    if (!v->ka_ms || !v->conns)
        return;
    uint64_t now = now_ms();
    if (now < v->ka_next)
        return;
    v->ka_next = now + v->ka_ms;
    const tp_env_t *env = v->base.env;
    for (int p = 0; p < env->size; p++) {
        verbs_conn_t *c = &v->conns[p];
        bool heard = c->heard;
        c->heard = false;
        /* Not itself; not a peer whose send queue is full: what is in it will time out. */
        if (heard || p == env->rank || c->state != VC_READY || !c->qp || c->sq_free == 0)
            continue;
        struct ibv_send_wr wr = {.wr_id = verbs_send_wrid(p, 0),
                                 .opcode = IBV_WR_RDMA_WRITE, .num_sge = 0};
        if (verbs_post(v, c, &wr, false) == RMP_SUCCESS)
            v->st_probes++;
    }
}
