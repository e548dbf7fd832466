/* comm_ops.c — communicator construction (dup, split) and rmp_comm_free. A new communicator
 * needs a context id free on every member: the members agree on one with an allreduce over
 * the parent of their masks of free ids, safe when several threads create communicators at
 * once (see agree_ctx_id). Ids come in pairs (p2p, collective). */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "inter.h"
#include "match.h"
#include "topo.h"

/* ---- context ids -------------------------------------------------------------------------
 * Bit b of ctx_free stands for the id pair (2b, 2b + 1); set: free in this process. Pairs 0
 * and 1 are RMP_COMM_WORLD's and RMP_COMM_SELF's. As in MPICH, a creation agrees on an id by
 * an allreduce(BAND) of the members' masks; for the result to be usable, no other thread of
 * the process may take a bit of the mask meanwhile, so one creation at a time holds it
 * (ctx_busy) and the others contribute an empty mask and retry. Every member sees the same
 * reduced mask and so takes the same decision: done (a common free bit, every member held its
 * mask), exhausted (every member held its mask, no common bit), or retry (someone did not hold
 * its mask). Which waiting creation may hold the mask is decided by a priority every process
 * agrees on, the parent's context id (lowest first): without it two processes could each give
 * the mask to a different creation, forever. So concurrent creations must be able to complete
 * in that order, as in MPICH: a thread must not wait for a creation on a parent with a higher
 * id before starting one on a lower. All of it under the runtime lock. */
#define CTX_BITS RMP_MAX_COMMS
#define CTX_WORDS (CTX_BITS / 32)

typedef struct ctx_waiter {
    uint32_t parent; /* the parent's context id: the priority */
    struct ctx_waiter *next;
} ctx_waiter_t;

static uint32_t ctx_free[CTX_WORDS];
static bool ctx_ready, ctx_busy;
static ctx_waiter_t *ctx_waiters; /* creations in progress in this process */

static void ctx_mask_init(void)
{
    if (ctx_ready)
        return;
    memset(ctx_free, 0xff, sizeof(ctx_free));
    ctx_free[0] &= ~3u; /* WORLD (ids 0, 1) and SELF (2, 3) */
    ctx_ready = true;
}

/* May w hold the mask now? Only the waiter with the lowest parent id, when nobody holds it. */
static bool ctx_my_turn(const ctx_waiter_t *w)
{
    if (ctx_busy)
        return false;
    for (const ctx_waiter_t *o = ctx_waiters; o; o = o->next)
        if (o->parent < w->parent)
            return false;
    return true;
}

static void ctx_unwait(ctx_waiter_t *w)
{
    for (ctx_waiter_t **p = &ctx_waiters; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            return;
        }
}

/* The lowest bit set in mask, or -1. */
static int ctx_first(const uint32_t *mask)
{
    for (int i = 0; i < CTX_WORDS; i++)
        if (mask[i])
            return i * 32 + __builtin_ctz(mask[i]);
    return -1;
}

/* Give back a pair taken by ctx_agree (a communicator freed, or not created here). */
static void ctx_release_locked(uint32_t id)
{
    uint32_t b = id / 2;
    if (id >= 4 && b < CTX_BITS)
        ctx_free[b / 32] |= 1u << (b % 32);
}

void comm_ctx_release(uint32_t id)
{
    ctx_lock(&rmp_ctx);
    ctx_release_locked(id);
    ctx_unlock(&rmp_ctx);
}

/* One round: my mask (or nothing, when it is not my turn) reduced over the parent. The last
 * word says whether every member held its mask. *bit: the pair taken, -1 for none. */
static int ctx_round(rmp_comm_t parent, ctx_waiter_t *w, uint32_t *buf, int *bit, bool *all,
                     ctx_combine_t combine, void *arg)
{
    ctx_lock(&rmp_ctx);
    bool own = ctx_my_turn(w);
    if (own)
        memcpy(buf, ctx_free, sizeof(ctx_free));
    else
        memset(buf, 0, sizeof(ctx_free));
    buf[CTX_WORDS] = own;
    ctx_busy |= own;
    ctx_unlock(&rmp_ctx);
    int err = rmp_allreduce(RMP_IN_PLACE, buf, CTX_WORDS + 1, RMP_UINT32, RMP_BAND, parent);
    if (!err && combine) /* an intercommunicator: the other group's reduced mask too */
        err = combine(arg, buf, CTX_WORDS + 1);
    ctx_lock(&rmp_ctx);
    if (own)
        ctx_busy = false;
    *all = !err && buf[CTX_WORDS];
    *bit = *all ? ctx_first(buf) : -1;
    if (*bit >= 0) /* every member held its mask, so this pair is free on every member */
        ctx_free[*bit / 32] &= ~(1u << (*bit % 32));
    ctx_unlock(&rmp_ctx);
    return err;
}

/* Collective over `parent`: a context id pair free on every member, now taken (ctx_release
 * gives it back). RMP_ERR_NO_MEM when the members have no free pair in common. */
int comm_agree_ctx(rmp_comm_t parent, ctx_combine_t combine, void *arg, uint32_t *id)
{
    uint32_t buf[CTX_WORDS + 1];
    comm_t *pc = comm_get(parent);
    if (!pc)
        return RMP_ERR_COMM;
    ctx_waiter_t w = {.parent = pc->ctx_id};
    int members = pc->size;
    ctx_lock(&rmp_ctx);
    ctx_mask_init();
    w.next = ctx_waiters;
    ctx_waiters = &w;
    ctx_unlock(&rmp_ctx);
    int bit = -1, err;
    bool all;
    while (!(err = ctx_round(parent, &w, buf, &bit, &all, combine, arg)) && !all)
        sched_yield(); /* another creation holds the mask here or on a member: let it finish */
    ctx_lock(&rmp_ctx);
    ctx_unwait(&w);
    ctx_unlock(&rmp_ctx);
    if (err)
        return err;
    if (bit < 0) {
        core_error(&rmp_ctx,
                   "cannot create a communicator: its %d members have no context id free in "
                   "common (each process has %d; free unused communicators)",
                   members, CTX_BITS - 2);
        return RMP_ERR_NO_MEM;
    }
    *id = 2 * (uint32_t)bit;
    return RMP_SUCCESS;
}

static int agree_ctx_id(const coll_t *cl, rmp_comm_t parent, uint32_t *id)
{
    (void)cl;
    return comm_agree_ctx(parent, NULL, NULL, id);
}

int rmp_comm_dup(rmp_comm_t comm, rmp_comm_t *newcomm)
{
    coll_t cl;
    uint32_t id;
    if (comm_is_inter(comm))
        return inter_comm_dup(comm, newcomm);
    int err = coll_comm(comm, &cl);
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err)
        err = agree_ctx_id(&cl, comm, &id);
    if (!err && (err = comm_create(cl.comm->world, cl.size, cl.rank, id, newcomm)))
        comm_ctx_release(id);
    if (!err && (err = topo_dup(cl.comm, comm_get(*newcomm)))) /* MPI: the topology too */
        rmp_comm_free(newcomm);
    return err;
}

typedef struct split_member {
    int key, rank; /* rank in the parent */
} split_member_t;

static int split_cmp(const void *pa, const void *pb)
{
    const split_member_t *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* From everyone's (color, key) pairs: the members of my color in new-rank order, as world
 * ranks; *me_p gets my position. */
static int split_members(const coll_t *cl, const int *ck, int color, int *world, int *n_p,
                         int *me_p)
{
    split_member_t *m = malloc(sizeof(*m) * (size_t)cl->size);
    if (!m)
        return RMP_ERR_NO_MEM;
    int n = 0;
    for (int r = 0; r < cl->size; r++)
        if (ck[2 * r] == color)
            m[n++] = (split_member_t){.key = ck[2 * r + 1], .rank = r};
    qsort(m, (size_t)n, sizeof(*m), split_cmp);
    for (int i = 0; i < n; i++) {
        world[i] = cl->comm->world[m[i].rank];
        if (m[i].rank == cl->rank)
            *me_p = i;
    }
    *n_p = n;
    free(m);
    return RMP_SUCCESS;
}

int rmp_comm_split(rmp_comm_t comm, int color, int key, rmp_comm_t *newcomm)
{
    coll_t cl;
    uint32_t id;
    if (comm_is_inter(comm))
        return inter_comm_split(comm, color, key, newcomm);
    int err = coll_comm(comm, &cl);
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err && color < 0 && color != RMP_UNDEFINED)
        err = RMP_ERR_ARG;
    if (err)
        return err;
    int mine[2] = {color, key}, *ck = malloc(sizeof(int) * 2 * (size_t)cl.size);
    int *world = malloc(sizeof(int) * (size_t)cl.size), n = 0, me = 0;
    if (!ck || !world)
        err = RMP_ERR_NO_MEM;
    bool have_id = false;
    if (!err)
        have_id = !(err = agree_ctx_id(&cl, comm, &id)); /* RMP_UNDEFINED ranks take part too */
    if (!err)
        err = rmp_allgather(mine, 2, RMP_INT32, ck, 2, RMP_INT32, comm);
    if (!err && color != RMP_UNDEFINED)
        err = split_members(&cl, ck, color, world, &n, &me);
    if (!err) {
        *newcomm = RMP_COMM_NULL;
        if (color != RMP_UNDEFINED)
            err = comm_create(world, n, me, id, newcomm);
    }
    /* each color's communicator has the same id (their members are disjoint); a rank in none
     * of them, or whose creation failed, does not use it */
    if (have_id && (err || color == RMP_UNDEFINED))
        comm_ctx_release(id);
    free(ck);
    free(world);
    return err;
}

/* Lock held: everything of c goes, its context pair last (no new communicator can have
 * taken it: until here the pair stays out of this process's free mask). Messages that
 * arrived for it and were never received go too: a later communicator on the same pair must
 * not find them. */
static void comm_teardown(comm_t *c)
{
    uint32_t id = c->ctx_id;
    /* (an intercommunicator's collective context is its bridge's, whose collectives may be
     * in flight still: the bridge's own teardown drops what is left there) */
    size_t lost = match_drop_ctx(rmp_ctx.mq, id) +
                  (c->lworld ? 0 : match_drop_ctx(rmp_ctx.mq, id + 1));
    if (lost)
        core_verbose(&rmp_ctx, "a freed communicator had %zu message%s nobody received: dropped",
                     lost, lost == 1 ? "" : "s");
    if (!c->lworld) /* an intercommunicator never offloads; its pair's state is the bridge's */
        coll_offload_comm_free(c);
    /* an intercommunicator's bridge owns the pair: it goes with it, when its last collective
     * ends */
    comm_t *bridge = c->lworld ? &rmp_ctx.comms[c->bridge] : NULL;
    comm_release_locked(c);
    if (bridge && bridge->busy)
        bridge->freed = comm_teardown;
    else if (bridge)
        comm_teardown(bridge);
    else
        ctx_release_locked(id);
}

int rmp_comm_free(rmp_comm_t *comm)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!comm)
        return RMP_ERR_ARG;
    if (*comm == RMP_COMM_WORLD || *comm == RMP_COMM_SELF)
        return RMP_ERR_COMM;
    ctx_lock(&rmp_ctx);
    comm_t *c = comm_get(*comm); /* NULL for RMP_COMM_NULL and invalid or freed handles */
    if (c && c->busy)
        c->freed = comm_teardown; /* its last collective or posted receive finishes the job */
    else if (c)
        comm_teardown(c);
    ctx_unlock(&rmp_ctx);
    if (!c)
        return RMP_ERR_COMM;
    *comm = RMP_COMM_NULL;
    return RMP_SUCCESS;
}
