/* transports.c — the core's side of transport/transport.h: which transport may serve which
 * peer (decided here, once, from RMP_TRANSPORT and the node map, and handed to each transport
 * in its tp_env_t before open), the callbacks transports reach the core by, opening and
 * publishing in the modex, wire-up and per-peer selection, closing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static const tp_ops_t *const tp_all[] = {&tp_self_ops, &tp_shm_ops, &tp_verbs_ops};
#define TP_NALL (int)(sizeof(tp_all) / sizeof(tp_all[0]))
_Static_assert(sizeof(tp_all) / sizeof(tp_all[0]) <= RMP_MAX_TRANSPORTS, "RMP_MAX_TRANSPORTS");

/* ---- the callbacks ------------------------------------------------------------------------ */

static void up_deliver(void *core, int src, const void *data, size_t len)
{
    core_deliver(core, src, data, len);
}

static void up_get_done(void *core, void *cookie, int status)
{
    core_get_done(core, cookie, status);
}

static void up_peer_failed(void *core, int peer, int status, const char *why)
{
    core_peer_failed(core, peer, status, why);
}

static int up_modex_get(void *core, int peer, const char *name, const void **blob_p,
                        size_t *len_p)
{
    return core_modex_get(core, peer, name, blob_p, len_p);
}

static void up_vlog(void *core, tp_log_t level, const char *fmt, va_list ap)
{
    rmp_ctx_t *c = core;
    if (level == TP_LOG_VERBOSE && !c->cfg.verbose)
        return;
    if (level == TP_LOG_EXPLAIN || level == TP_LOG_QUIET)
        c->cfg.explained = true; /* rmp_init adds no generic line */
    if (level == TP_LOG_QUIET) {
        c->cfg.quiet_failure = true;
        return;
    }
    core_vlog(c, fmt, ap);
}

static const char *up_knob(void *core, const char *name)
{
    rmp_ctx_t *c = core;
    const knob_val_t *v = knob_lookup(c->cfg.knobs, name);
    return v && v->set ? v->text : NULL;
}

static int up_peer_error(void *core, int peer)
{
    rmp_ctx_t *c = core;
    return peer >= 0 && peer < c->npeers ? c->peers[peer].failed : RMP_ERR_RANK;
}

static int up_peer_by_addr(void *core, const char *addr)
{
    rmp_ctx_t *c = core;
    return c->dyn_peer_by_addr ? c->dyn_peer_by_addr(c, addr) : -1;
}

static const tp_upcalls_t tp_upcalls = {
    .deliver = up_deliver,
    .get_done = up_get_done,
    .peer_failed = up_peer_failed,
    .modex_get = up_modex_get,
    .vlog = up_vlog,
    .knob = up_knob,
    .peer_error = up_peer_error,
    .peer_by_addr = up_peer_by_addr,
};

/* ---- routes: the one rule ----------------------------------------------------------------- */

static bool is_local(const rmp_ctx_t *c, int w)
{
    for (int i = 0; i < c->local_size; i++)
        if (c->local_ranks[i] == w)
            return true;
    return false;
}

/* Whether the core may pick transport `name` for world rank w: self for me, shm for the other
 * ranks of my node, verbs for the ranks of other nodes; RMP_TRANSPORT=verbs puts everyone (me
 * included: loopback through the device) on verbs, RMP_TRANSPORT=shm nobody. */
static bool route_ok(const rmp_ctx_t *c, const char *name, int w)
{
    bool force_verbs = !strcmp(c->cfg.transport, "verbs");
    bool local = is_local(c, w);
    if (!strcmp(name, "self"))
        return w == c->rank && !force_verbs;
    if (!strcmp(name, "shm"))
        return local && w != c->rank && !force_verbs;
    return force_verbs || (!local && strcmp(c->cfg.transport, "shm"));
}

/* Why no peer goes to transport `name`: for its "not opened" line. */
static const char *no_route_why(const rmp_ctx_t *c, const char *name)
{
    if (!strcmp(c->cfg.transport, "shm") && !strcmp(name, "verbs"))
        return "RMP_TRANSPORT=shm";
    if (!strcmp(c->cfg.transport, "verbs"))
        return "RMP_TRANSPORT=verbs";
    return !strcmp(name, "verbs") ? "every rank is on this node (RMP_TRANSPORT=verbs forces it)"
                                  : "no peer for it";
}

static void env_init(rmp_ctx_t *c, int i)
{
    tp_env_t *e = &c->tp_env[i];
    bool *route = c->routes + (size_t)i * (size_t)c->size;
    int n = 0;
    for (int w = 0; w < c->size; w++)
        n += route[w] = route_ok(c, tp_all[i]->name, w);
    *e = (tp_env_t){
        .rank = c->rank, .size = c->size, .local_rank = c->local_rank,
        .local_size = c->local_size, .local_ranks = c->local_ranks, .node = c->node,
        .nspace = c->nspace, .oversubscribed = c->oversubscribed,
        .verbose = c->cfg.verbose != 0, .use_cma = c->cfg.use_cma != 0,
        .shm_ring_bytes = c->cfg.shm_ring_bytes, .route = route, .nroute = n,
        .no_route = n ? NULL : no_route_why(c, tp_all[i]->name), .up = &tp_upcalls, .core = c,
    };
}

/* ---- life cycle --------------------------------------------------------------------------- */

static int publish(rmp_ctx_t *c, tp_t *tp)
{
    const void *blob;
    size_t len;
    int rc = tp->ops->addr_pack(tp, &blob, &len);
    if (rc != RMP_SUCCESS || !blob)
        return rc;
    char key[64];
    snprintf(key, sizeof(key), "rmp.%s", tp->ops->name);
    return boot_put(c, key, blob, len);
}

int tps_open(rmp_ctx_t *c)
{
    c->node = malloc((size_t)c->size * sizeof(int));
    c->routes = calloc((size_t)TP_NALL * (size_t)c->size, sizeof(bool));
    if (!c->node || !c->routes)
        return RMP_ERR_NO_MEM;
    boot_node_map(c, c->node);
    for (int i = 0; i < TP_NALL; i++) {
        env_init(c, i);
        tp_t *tp = NULL;
        int rc = tp_all[i]->open(&c->tp_env[i], &tp);
        if (rc == RMP_ERR_NOT_SUPPORTED) {
            core_verbose(c, "transport %s: not used", tp_all[i]->name);
            continue;
        }
        if (rc != RMP_SUCCESS)
            return rc;
        c->tps[c->ntps++] = tp; /* closed with the others, whatever follows */
        if ((rc = tp_caps_check(tp)) != RMP_SUCCESS || (rc = publish(c, tp)) != RMP_SUCCESS)
            return rc;
    }
    return RMP_SUCCESS;
}

int tps_open_late(rmp_ctx_t *c, const tp_ops_t *ops, tp_t **tp_p)
{
    _Static_assert(TP_NALL < RMP_MAX_TRANSPORTS, "RMP_MAX_TRANSPORTS: room for a late one");
    if (c->ntps >= RMP_MAX_TRANSPORTS)
        return RMP_ERR_INTERNAL;
    tp_env_t *e = &c->tp_env[TP_NALL]; /* the slot after tp_all's (one late transport) */
    *e = c->tp_env[0]; /* the job as every transport saw it... */
    e->route = NULL;   /* ...but no rank of the world goes to this one */
    e->nroute = 0;
    e->no_route = "only for dynamic peers";
    int rc = ops->open(e, tp_p);
    if (rc == RMP_SUCCESS) {
        c->tps[c->ntps++] = *tp_p;
        rc = tp_caps_check(*tp_p);
    }
    return rc;
}

/* Each peer's transport: the first open one routed to it (routes never overlap but for
 * nobody). A peer no transport reaches is refused here rather than at the first send: a rank
 * that only waits for it would otherwise wait forever. */
static int select_peers(rmp_ctx_t *c)
{
    bool force_verbs = !strcmp(c->cfg.transport, "verbs");
    int unreachable = -1, nunreachable = 0;
    bool have_verbs = false;
    for (int i = 0; i < c->ntps; i++)
        have_verbs |= c->tps[i]->ops == &tp_verbs_ops;
    if (force_verbs && !have_verbs && c->size > 1) {
        core_error(c, "RMP_TRANSPORT=verbs but no verbs device is usable (RMP_VERBOSE=1 says why)");
        return RMP_ERR_NOT_SUPPORTED;
    }
    for (int w = 0; w < c->size; w++) {
        peer_t *p = &c->peers[w];
        bool local = is_local(c, w);
        p->node = c->node[w];
        for (int i = 0; i < c->ntps && !p->tp; i++)
            if (c->tps[i]->env->route[w])
                p->tp = c->tps[i];
        if (w != c->rank || force_verbs)
            core_verbose(c, "rank %d (%s node): %s", w, local ? "same" : "other",
                         p->tp ? p->tp->ops->name : "UNREACHABLE (no transport)");
        if (!p->tp && unreachable < 0)
            unreachable = w;
        nunreachable += !p->tp;
    }
    if (unreachable < 0)
        return RMP_SUCCESS;
    bool local = is_local(c, unreachable);
    core_error(c, "rank %d%s on %s node: no transport reaches it: %s", unreachable,
               nunreachable > 1 ? " and others are" : " is", local ? "this" : "another",
               local ? "shared memory is not usable (see above; RMP_VERBOSE=1 says why)"
               : !strcmp(c->cfg.transport, "shm")
                   ? "RMP_TRANSPORT=shm forbids verbs (unset it, or run every rank on one node)"
                   : "no usable RDMA device (see above; RMP_VERBOSE=1 says why)");
    return RMP_ERR_NOT_SUPPORTED;
}

int tps_wireup(rmp_ctx_t *c)
{
    for (int i = 0; i < c->ntps; i++) {
        int rc = c->tps[i]->ops->wireup(c->tps[i]);
        if (rc != RMP_SUCCESS)
            return rc;
    }
    return select_peers(c);
}

void tps_abandon(rmp_ctx_t *c)
{
    for (int i = 0; i < c->ntps; i++)
        c->tps[i]->ops->abandon(c->tps[i]);
}

void tps_close(rmp_ctx_t *c, bool orderly)
{
    if (!orderly)
        tps_abandon(c);
    stats_fold(c, &c->stats); /* the peers' counts, by transport, while tp_t says which */
    for (int i = c->ntps - 1; i >= 0; i--) {
        stats_tp_keep(&c->tp_closed, &c->tps[i]->stats); /* read after rmp_finalize too */
        c->tps[i]->ops->close(c->tps[i]);
    }
    c->ntps = 0;
    free(c->routes);
    c->routes = NULL;
    free(c->node);
    c->node = NULL;
}
