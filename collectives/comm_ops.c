/* comm_ops.c — communicator construction (dup, split) and rmp_comm_free. A new communicator
 * needs a context id free on every member: the members agree on one with an allreduce over
 * the parent of their masks of free ids, safe when several threads create communicators at
 * once (see agree_ctx_id). Ids come in pairs (p2p, collective). */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "ctxid.h"
#include "inter.h"
#include "match.h"
#include "objmeta.h"
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
 * agrees on, the parent's context id (lowest first), then a number that tells apart creations
 * on one parent (ctxid.h): without it two processes could each give the mask to a different
 * creation, forever. So concurrent creations must be able to complete in that order, as in
 * MPICH: a thread must not wait for a creation on a parent with a higher id before starting
 * one on a lower. All of it under the runtime lock. The pieces are in ctxid.h, for
 * comm_create_group.c's creations, which reduce the masks their own way. */
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

static bool ctx_before(const ctx_waiter_t *a, const ctx_waiter_t *b)
{
    return a->parent != b->parent ? a->parent < b->parent : a->sub < b->sub;
}

/* May w hold the mask now? Only the waiter with the lowest priority key, when nobody holds
 * it. */
static bool ctx_my_turn(const ctx_waiter_t *w)
{
    if (ctx_busy)
        return false;
    for (const ctx_waiter_t *o = ctx_waiters; o; o = o->next)
        if (ctx_before(o, w))
            return false;
    return true;
}

void ctx_enter_locked(ctx_waiter_t *w)
{
    ctx_mask_init();
    w->next = ctx_waiters;
    ctx_waiters = w;
}

void ctx_leave_locked(ctx_waiter_t *w)
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
void ctx_release_locked(uint32_t id)
{
    uint32_t b = id / 2;
    if (id >= 4 && b < CTX_BITS)
        ctx_free[b / 32] |= 1u << (b % 32);
}

void ctx_release(uint32_t id)
{
    ctx_lock(&rmp_ctx);
    ctx_release_locked(id);
    ctx_unlock(&rmp_ctx);
}

bool ctx_round_begin_locked(ctx_waiter_t *w, uint32_t *buf)
{
    bool own = ctx_my_turn(w);
    if (own)
        memcpy(buf, ctx_free, sizeof(ctx_free));
    else
        memset(buf, 0, sizeof(ctx_free));
    buf[CTX_WORDS] = own;
    ctx_busy |= own;
    return own;
}

int ctx_round_end_locked(bool own, int err, const uint32_t *buf, bool *all)
{
    if (own)
        ctx_busy = false;
    *all = !err && buf[CTX_WORDS];
    int bit = *all ? ctx_first(buf) : -1;
    if (bit >= 0) /* every member held its mask, so this pair is free on every member */
        ctx_free[bit / 32] &= ~(1u << (bit % 32));
    return bit;
}

int ctx_exhausted(int members)
{
    core_error(&rmp_ctx,
               "cannot create a communicator: its %d members have no context id free in "
               "common (each process has %d; free unused communicators)",
               members, CTX_BITS - 2);
    return RMP_ERR_NO_MEM;
}

int ctx_agree(ctx_waiter_t *w, ctx_reduce_fn *fn, void *arg, int members, uint32_t *id)
{
    uint32_t buf[CTX_BUF_WORDS];
    ctx_lock(&rmp_ctx);
    ctx_enter_locked(w);
    ctx_unlock(&rmp_ctx);
    int bit = -1, err;
    bool all;
    for (;;) { /* one round: my mask (or nothing, when it is not my turn) reduced */
        ctx_lock(&rmp_ctx);
        bool own = ctx_round_begin_locked(w, buf);
        ctx_unlock(&rmp_ctx);
        err = fn(buf, CTX_BUF_WORDS, arg);
        ctx_lock(&rmp_ctx);
        bit = ctx_round_end_locked(own, err, buf, &all);
        ctx_unlock(&rmp_ctx);
        if (err || all)
            break;
        sched_yield(); /* another creation holds the mask here or on a member: let it finish */
    }
    ctx_lock(&rmp_ctx);
    ctx_leave_locked(w);
    ctx_unlock(&rmp_ctx);
    if (err)
        return err;
    if (bit < 0)
        return ctx_exhausted(members);
    *id = 2 * (uint32_t)bit;
    return RMP_SUCCESS;
}

/* A round's reduction over the parent; for an intercommunicator's creation, combine then
 * brings in the other group's reduced mask (through the leaders). */
typedef struct agree_over {
    rmp_comm_t parent;
    ctx_combine_t combine;
    void *arg;
} agree_over_t;

static int parent_allreduce(uint32_t *buf, int nwords, void *arg)
{
    const agree_over_t *o = arg;
    int err = rmp_allreduce(RMP_IN_PLACE, buf, nwords, RMP_UINT32, RMP_BAND, o->parent);
    if (!err && o->combine)
        err = o->combine(o->arg, buf, nwords);
    return err;
}

/* Collective over `parent`: a context id pair free on every member, now taken (ctx_release
 * gives it back). RMP_ERR_NO_MEM when the members have no free pair in common. */
int comm_agree_ctx(rmp_comm_t parent, ctx_combine_t combine, void *arg, uint32_t *id)
{
    ctx_lock(&rmp_ctx);
    comm_t *pc = comm_get(parent);
    ctx_waiter_t w = {.parent = pc ? pc->ctx_id : 0, .sub = pc ? pc->coll_seq : 0};
    int members = pc ? pc->size : 0;
    ctx_unlock(&rmp_ctx);
    if (!pc)
        return RMP_ERR_COMM;
    agree_over_t over = {.parent = parent, .combine = combine, .arg = arg};
    return ctx_agree(&w, parent_allreduce, &over, members, id);
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
        ctx_release(id);
    if (!err && (err = topo_dup(cl.comm, comm_get(*newcomm)))) /* MPI: the topology too */
        rmp_comm_free(newcomm);
    if (!err && (err = objmeta_copy_info(OBJ_COMM, comm, *newcomm))) /* and the hints */
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
        ctx_release(id);
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

int rmp_comm_disconnect(rmp_comm_t *comm)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!comm)
        return RMP_ERR_ARG;
    int size;
    if (*comm == RMP_COMM_WORLD || *comm == RMP_COMM_SELF || rmp_comm_size(*comm, &size))
        return RMP_ERR_COMM;
    if ((err = rmp_barrier(*comm)))
        return err;
    return rmp_comm_free(comm);
}
