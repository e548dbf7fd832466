/* stats.c — the counters' public face (rmp_stats_*): one table naming each counter, its class
 * and where its value lives (the runtime's stats_t, the transports' tp_stats_t, a queue's
 * length); the runtime's paths bump them (stats.h), this file only reads. */
#include <stddef.h>

#include "core.h"
#include "match.h"

typedef enum { SRC_CTX, SRC_TP, SRC_UNEXP_LEN, SRC_POSTED_LEN } stat_src_t;

typedef struct stat_def {
    rmp_stat_info_t info;
    stat_src_t src;
    size_t off; /* SRC_CTX: in stats_t; SRC_TP: in tp_stats_t */
} stat_def_t;

#define TP_STATS(t, T)                                                                         \
    {{#t "_msgs_sent", "messages sent to peers reached by " #t, RMP_STAT_COUNTER}, SRC_CTX,    \
     offsetof(stats_t, msgs_sent[STATS_##T])},                                                 \
    {{#t "_bytes_sent", "bytes of the messages sent by " #t, RMP_STAT_COUNTER}, SRC_CTX,       \
     offsetof(stats_t, bytes_sent[STATS_##T])},                                                \
    {{#t "_msgs_recvd", "messages that arrived by " #t, RMP_STAT_COUNTER}, SRC_CTX,            \
     offsetof(stats_t, msgs_recvd[STATS_##T])},                                                \
    {{#t "_bytes_recvd", "bytes of the messages that arrived by " #t, RMP_STAT_COUNTER},       \
     SRC_CTX, offsetof(stats_t, bytes_recvd[STATS_##T])}

static const stat_def_t stat_defs[] = {
    TP_STATS(self, SELF),
    TP_STATS(shm, SHM),
    TP_STATS(verbs, VERBS),
    {{"eager_sent", "messages sent eagerly (data with the envelope)", RMP_STAT_COUNTER},
     SRC_CTX, offsetof(stats_t, eager_sent)},
    {{"rndv_sent", "messages sent by rendezvous (above the eager limit, or synchronous)",
      RMP_STAT_COUNTER}, SRC_CTX, offsetof(stats_t, rndv_sent)},
    {{"unexpected_msgs", "messages that arrived before their receive was posted",
      RMP_STAT_COUNTER}, SRC_CTX, offsetof(stats_t, unexp_msgs)},
    {{"unexpected_queue", "messages waiting in the unexpected queue now", RMP_STAT_LEVEL},
     SRC_UNEXP_LEN, 0},
    {{"unexpected_queue_hwm", "the unexpected queue's longest since rmp_init",
      RMP_STAT_HIGHWATERMARK}, SRC_CTX, offsetof(stats_t, unexp_hwm)},
    {{"posted_queue", "receives posted and not matched yet, now", RMP_STAT_LEVEL},
     SRC_POSTED_LEN, 0},
    {{"wait_time", "nanoseconds spent in waits that did not complete at their first poll",
      RMP_STAT_TIMER}, SRC_CTX, offsetof(stats_t, wait_ns)},
    {{"rdma_reads", "RDMA READ work requests posted (rendezvous, one-sided gets, multicast "
      "repairs)", RMP_STAT_COUNTER}, SRC_TP, offsetof(tp_stats_t, rdma_reads)},
    {{"mcast_repairs", "multicast fragments fetched again from the root by RDMA READ",
      RMP_STAT_COUNTER}, SRC_TP, offsetof(tp_stats_t, mcast_repairs)},
    {{"reg_cache_hits", "memory registrations found in the cache (RMP_REG_CACHE=1)",
      RMP_STAT_COUNTER}, SRC_TP, offsetof(tp_stats_t, reg_hits)},
    {{"reg_cache_misses", "memory registrations made (not cached, or cache off)",
      RMP_STAT_COUNTER}, SRC_TP, offsetof(tp_stats_t, reg_misses)},
};
#define NSTATS (int)(sizeof(stat_defs) / sizeof(stat_defs[0]))

int rmp_stats_count(void)
{
    return NSTATS;
}

int rmp_stats_info(int index, rmp_stat_info_t *info)
{
    if (index < 0 || index >= NSTATS || !info)
        return RMP_ERR_ARG;
    *info = stat_defs[index].info;
    return RMP_SUCCESS;
}

static unsigned long long stat_value(const rmp_ctx_t *c, const stats_t *st,
                                     const stat_def_t *d, const tp_stats_t *tps)
{
    switch (d->src) {
    case SRC_CTX:
        return *(const uint64_t *)((const char *)st + d->off);
    case SRC_TP:
        return *(const uint64_t *)((const char *)tps + d->off);
    case SRC_UNEXP_LEN:
        return c->mq ? match_unexp_count(c->mq) : 0;
    case SRC_POSTED_LEN:
        return c->mq ? match_posted_count(c->mq) : 0;
    }
    return 0;
}

/* ---- watches (lock held while they change: the unexpected path reads them) ---- */

/* Is watch in use? (lock held) */
static bool watch_ok(int watch)
{
    return watch >= 0 && watch < STATS_WATCH_MAX && (rmp_ctx.stats.watching >> watch & 1u);
}

static unsigned long long unexp_level(const rmp_ctx_t *c)
{
    return c->mq ? match_unexp_count(c->mq) : 0;
}

int rmp_stats_watch(int index, int *watch)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (index < 0 || index >= NSTATS || !watch ||
        stat_defs[index].info.cls != RMP_STAT_HIGHWATERMARK)
        return RMP_ERR_ARG;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    uint32_t free_bits = ~c->stats.watching;
    if (free_bits) {
        *watch = __builtin_ctz(free_bits);
        c->stats.watching |= 1u << *watch;
        c->stats.watch_hwm[*watch] = unexp_level(c);
    }
    ctx_unlock(c);
    return free_bits ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

/* The three calls on a watch: set (to value, or the level if higher), read, or drop it. */
typedef enum { WATCH_SET, WATCH_READ, WATCH_DROP } watch_op_t;

static int watch_do(int watch, watch_op_t op, unsigned long long *value)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (op != WATCH_DROP && !value)
        return RMP_ERR_ARG;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    rc = watch_ok(watch) ? RMP_SUCCESS : RMP_ERR_ARG;
    uint64_t *w = rc ? NULL : &c->stats.watch_hwm[watch];
    if (w && op == WATCH_SET)
        *w = *value > unexp_level(c) ? *value : unexp_level(c);
    else if (w && op == WATCH_READ)
        *value = *w;
    else if (w)
        c->stats.watching &= ~(1u << watch);
    ctx_unlock(c);
    return rc;
}

int rmp_stats_watch_set(int watch, unsigned long long value)
{
    return watch_do(watch, WATCH_SET, &value);
}

int rmp_stats_watch_read(int watch, unsigned long long *value)
{
    return watch_do(watch, WATCH_READ, value);
}

int rmp_stats_unwatch(int watch)
{
    return watch_do(watch, WATCH_DROP, NULL);
}

int rmp_comm_stats(rmp_comm_t comm, unsigned long long *msgs_sent,
                   unsigned long long *bytes_sent)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!msgs_sent || !bytes_sent)
        return RMP_ERR_ARG;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    comm_t *cm = comm_get(comm);
    if (cm) {
        *msgs_sent = cm->msgs_sent;
        *bytes_sent = cm->bytes_sent;
    }
    ctx_unlock(c);
    return cm ? RMP_SUCCESS : RMP_ERR_COMM;
}

/* The peers' message counters added into *s by transport; zeroed with zero. */
static void peers_add(rmp_ctx_t *c, stats_t *s, bool zero)
{
    for (int i = 0; c->peers && i < c->npeers; i++) {
        peer_t *p = &c->peers[i];
        int t = stats_tp(p->tp);
        s->msgs_sent[t] += p->msgs_sent;
        s->bytes_sent[t] += p->bytes_sent;
        s->msgs_recvd[t] += p->msgs_recvd;
        s->bytes_recvd[t] += p->bytes_recvd;
        s->rndv_sent += p->rndv_sent;
        if (zero)
            p->msgs_sent = p->bytes_sent = p->msgs_recvd = p->bytes_recvd = p->rndv_sent =
                p->rndv_bytes = 0;
    }
}

void stats_fold(rmp_ctx_t *c, stats_t *s)
{
    peers_add(c, s, true);
}

int rmp_stats_get(unsigned long long *values, int n)
{
    if (n < 0 || n > NSTATS || (n && !values))
        return RMP_ERR_ARG;
    rmp_ctx_t *c = &rmp_ctx;
    bool live = ctx_check() == RMP_SUCCESS; /* else: zeros, or what finalize left */
    if (live)
        ctx_lock(c);
    tp_stats_t tps = c->tp_closed;
    for (int i = 0; live && i < c->ntps; i++)
        stats_tp_keep(&tps, &c->tps[i]->stats);
    stats_t st = c->stats; /* the totals so far, and the running peers' counts */
    if (live)
        peers_add(c, &st, false);
    uint64_t all = 0;
    for (int t = 0; t < STATS_NTP; t++)
        all += st.msgs_sent[t];
    st.eager_sent = all - st.rndv_sent;
    for (int i = 0; i < n; i++)
        values[i] = stat_value(c, &st, &stat_defs[i], &tps);
    if (live)
        ctx_unlock(c);
    return RMP_SUCCESS;
}
