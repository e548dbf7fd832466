/* stats.h — the per-process performance counters tools read (rmp_stats_get, MPI_T pvars):
 * plain integers in the runtime context and in each peer's and communicator's struct (on the
 * lines the message path touches anyway), bumped with the runtime lock held (or by the one
 * thread there is), so no atomics and no shared cache line on the message path. What a
 * transport alone sees (RDMA READs, its registration cache) it counts in tp_t.stats. */
#ifndef RMP_STATS_H
#define RMP_STATS_H

#include <stdint.h>

#include "transport/transport.h"

enum { STATS_SELF, STATS_SHM, STATS_VERBS, STATS_NTP };
#define STATS_WATCH_MAX 32 /* high-water marks of tools' own (rmp_stats_watch) */

typedef struct stats {
    /* Per transport: what the peers' counters (peer_t) held when they were folded in
     * (stats_fold, as the transports close); while they run, a read adds them up. */
    uint64_t msgs_sent[STATS_NTP], bytes_sent[STATS_NTP];
    uint64_t msgs_recvd[STATS_NTP], bytes_recvd[STATS_NTP];
    uint64_t eager_sent;  /* (computed at a read: messages sent but by rendezvous) */
    uint64_t rndv_sent;   /* RTS sent (the peers' rndv_sent, folded) */
    uint64_t unexp_msgs;  /* arrivals that found no posted receive */
    uint64_t unexp_hwm;   /* the unexpected queue's longest */
    uint64_t wait_ns;     /* time in waits after their first idle poll (progress.c) */
    uint32_t watching;    /* bit w: watch_hwm[w] is in use */
    uint64_t watch_hwm[STATS_WATCH_MAX]; /* the unexpected queue's longest since each was set */
} stats_t;

/* Which of the per-transport slots tp's traffic goes to (NULL, a peer no transport reaches,
 * sends nothing: verbs' slot, as the only one that reaches other nodes). */
static inline int stats_tp(const tp_t *tp)
{
    if (!tp)
        return STATS_VERBS;
    return tp->ops == &tp_shm_ops ? STATS_SHM : tp->ops == &tp_self_ops ? STATS_SELF : STATS_VERBS;
}

/* One more message in the unexpected queue, now `len` long. */
static inline void stats_unexp(stats_t *s, uint64_t len)
{
    s->unexp_msgs++;
    if (len > s->unexp_hwm)
        s->unexp_hwm = len;
    for (uint32_t m = s->watching; m; m &= m - 1) {
        int w = __builtin_ctz(m);
        if (len > s->watch_hwm[w])
            s->watch_hwm[w] = len;
    }
}

/* Adds a transport's counters to *sum (at close, or to read them all). */
static inline void stats_tp_keep(tp_stats_t *sum, const tp_stats_t *t)
{
    sum->rdma_reads += t->rdma_reads;
    sum->mcast_repairs += t->mcast_repairs;
    sum->reg_hits += t->reg_hits;
    sum->reg_misses += t->reg_misses;
}

/* The peers' message counters, added into *s by transport and zeroed (lock held; the
 * transports still open). stats.c. */
struct rmp_ctx;
void stats_fold(struct rmp_ctx *c, stats_t *s);

#endif
