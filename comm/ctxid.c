/* ctxid.c — the agreement of a new communicator's members on a context id pair free on all of
 * them (ctxid.h has the pieces; comm_ops.c, comm_create_group.c and inter.c run them). Safe
 * when several threads of a process create communicators at once, in any order. */
#include <sched.h>
#include <string.h>

#include "ctxid.h"
#include "inter.h"

/* Bit b of ctx_free stands for the id pair (2b, 2b + 1); set: free in this process. Pairs 0
 * and 1 are RMP_COMM_WORLD's and RMP_COMM_SELF's. As in MPICH, a creation agrees on an id by
 * rounds of an allreduce(BAND) of the members' masks; for the result to be usable, no other
 * thread of the process may take a bit of the mask meanwhile, so one creation at a time
 * holds it (ctx_busy) and the others contribute an empty mask and retry. Every member sees the
 * same reduced mask and so takes the same decision: done (a common free bit: every member held
 * it), exhausted (every member held its mask, no common bit), or retry.
 *
 * Which waiting creation holds the mask is decided by a priority every process agrees on, the
 * parent's context id (lowest first), then a number that tells apart creations on one parent
 * (ctxid.h): without it two processes could each give the mask to a different creation,
 * forever. A creation takes part in that choice only after its first round, which tells that
 * every member has called: a holder whose peers have not called yet would wait for them while
 * they may wait, in another thread or in the program's own lock, for a creation this holder
 * keeps the mask away from (MPICH's comm_dup_deadlock). After it, the holder's peers do
 * nothing but its rounds, so each round ends. The first round is not wasted: it holds a small
 * segment of the mask of its own (ctx_eager_busy, as MPICH's "eager" ids), enough for a
 * program that creates one communicator at a time to need one round while fewer than 128 are
 * alive. rmp_intercomm_create's two groups have parents of their own: its key is the lower
 * of the two parents' keys, which the leaders swap first, marked (ctxid.h's sub) so that it
 * never equals another creation's; otherwise it and a creation over members of both groups,
 * in other threads, could each be preferred on one side, forever (tests/mpi/
 * mpi_icreate_threads showed that livelock). The state is the runtime's, under its lock. */
#define CTX_EAGER_WORDS 4 /* the first words of the mask (1/32 of it): the first rounds' */

static uint32_t ctx_free[CTX_WORDS];
static bool ctx_ready, ctx_busy, ctx_eager_busy;
static ctx_waiter_t *ctx_waiters; /* creations past their first round in this process */

enum { CTX_OWN_MAIN = 1, CTX_OWN_EAGER = 2 };

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
    if (a->parent != b->parent)
        return a->parent < b->parent;
    return a->sub != b->sub ? a->sub < b->sub : a->who < b->who;
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

static void ctx_enter_locked(ctx_waiter_t *w)
{
    w->next = ctx_waiters;
    ctx_waiters = w;
    w->entered = true;
}

static void ctx_leave_locked(ctx_waiter_t *w)
{
    for (ctx_waiter_t **p = &ctx_waiters; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    w->entered = false;
}

/* The lowest bit set in mask, or -1. */
static int ctx_first(const uint32_t *mask)
{
    for (int i = 0; i < CTX_WORDS; i++)
        if (mask[i])
            return i * 32 + __builtin_ctz(mask[i]);
    return -1;
}

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

/* Says that `members` members have no free pair in common. */
static int ctx_exhausted(int members)
{
    core_error(&rmp_ctx,
               "cannot create a communicator: its %d members have no context id free in "
               "common (each process has %d; free unused communicators)",
               members, CTX_BITS - 2);
    return RMP_ERR_NO_MEM;
}

/* Lock held: the eager segment into buf, if no other first round holds it. */
static void ctx_take_eager(ctx_waiter_t *w, uint32_t *buf)
{
    if (ctx_eager_busy)
        return;
    memcpy(buf, ctx_free, sizeof(uint32_t) * CTX_EAGER_WORDS);
    ctx_eager_busy = true;
    w->own |= CTX_OWN_EAGER;
}

void ctx_round_begin_locked(ctx_waiter_t *w, uint32_t *buf)
{
    ctx_mask_init();
    memset(buf, 0, sizeof(uint32_t) * CTX_BUF_WORDS);
    w->own = 0;
    if (!w->entered) { /* the first round */
        ctx_take_eager(w, buf);
        return;
    }
    if (!ctx_my_turn(w))
        return;
    ctx_busy = true;
    w->own = CTX_OWN_MAIN;
    memcpy(buf + CTX_EAGER_WORDS, ctx_free + CTX_EAGER_WORDS,
           sizeof(uint32_t) * (CTX_WORDS - CTX_EAGER_WORDS));
    ctx_take_eager(w, buf); /* (when free: fewer false "exhausted") */
    buf[CTX_WORDS] = 1;
}

int ctx_round_end_locked(ctx_waiter_t *w, int err, const uint32_t *buf, int members,
                         uint32_t *id, bool *done)
{
    if (w->own & CTX_OWN_MAIN)
        ctx_busy = false;
    if (w->own & CTX_OWN_EAGER)
        ctx_eager_busy = false;
    w->own = 0;
    int bit = err ? -1 : ctx_first(buf);
    if (bit >= 0) /* set in every member's contribution, which held it: free on every member */
        ctx_free[bit / 32] &= ~(1u << (bit % 32));
    *done = err || bit >= 0 || buf[CTX_WORDS];
    if (!*done) {
        if (!w->entered) /* every member has called: w may hold the mask from now on */
            ctx_enter_locked(w);
        return RMP_SUCCESS;
    }
    if (w->entered)
        ctx_leave_locked(w);
    if (err)
        return err;
    if (bit < 0)
        return ctx_exhausted(members);
    *id = 2 * (uint32_t)bit;
    return RMP_SUCCESS;
}

int ctx_agree(ctx_waiter_t *w, ctx_reduce_fn *fn, void *arg, int members, uint32_t *id)
{
    uint32_t buf[CTX_BUF_WORDS];
    bool done = false;
    int err = RMP_SUCCESS;
    while (!done) { /* one round: what I hold of the mask (maybe nothing), reduced */
        ctx_lock(&rmp_ctx);
        ctx_round_begin_locked(w, buf);
        ctx_unlock(&rmp_ctx);
        int e = fn(buf, CTX_BUF_WORDS, arg);
        ctx_lock(&rmp_ctx);
        bool held = w->own != 0;
        err = ctx_round_end_locked(w, e, buf, members, id, &done);
        ctx_unlock(&rmp_ctx);
        if (!done && !held)
            sched_yield(); /* another creation holds the mask here: let it run */
    }
    return err;
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
    int err = comm_coll.allreduce(RMP_IN_PLACE, buf, nwords, RMP_UINT32, RMP_BAND, o->parent);
    if (!err && o->combine)
        err = o->combine(o->arg, buf, nwords);
    return err;
}

int comm_agree_ctx(rmp_comm_t parent, ctx_combine_t combine, void *arg, uint32_t *id)
{
    return comm_agree_ctx_keyed(parent, NULL, combine, arg, id);
}

int comm_agree_ctx_keyed(rmp_comm_t parent, const ctx_waiter_t *key, ctx_combine_t combine,
                         void *arg, uint32_t *id)
{
    ctx_lock(&rmp_ctx);
    comm_t *pc = comm_get(parent);
    ctx_waiter_t w = {.parent = pc ? pc->ctx_id : 0, .sub = pc ? pc->coll_seq : 0};
    if (key) {
        w.parent = key->parent;
        w.sub = key->sub;
        w.who = key->who;
    }
    int members = pc ? pc->size : 0;
    ctx_unlock(&rmp_ctx);
    if (!pc)
        return RMP_ERR_COMM;
    agree_over_t over = {.parent = parent, .combine = combine, .arg = arg};
    return ctx_agree(&w, parent_allreduce, &over, members, id);
}
