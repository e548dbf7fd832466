/* ctxid.h — the agreement on a new communicator's context id (comm_ops.c), in pieces, so that
 * creations whose members are not a whole communicator (rmp_comm_create_group) and
 * nonblocking ones (rmp_comm_idup) can run it over their own exchange. See comm_ops.c for the
 * protocol: rounds of a BAND-reduction of the members' masks of free ids, a round counting
 * only when every member held its mask; one creation per process holds it at a time, chosen
 * by a priority every member agrees on. */
#ifndef RMP_CTXID_H
#define RMP_CTXID_H

#include <stdbool.h>
#include <stdint.h>

#include "core.h"

#define CTX_BITS RMP_MAX_COMMS
#define CTX_WORDS (CTX_BITS / 32)
#define CTX_BUF_WORDS (CTX_WORDS + 1) /* the mask and the "every member held it" word */

/* A creation in progress in this process. Priority: (parent, sub), lowest first; sub tells
 * apart creations on one parent: the parent's collective sequence number at the call for
 * dup, split and idup (the same on every member), 2^32 + tag for create_group. */
typedef struct ctx_waiter {
    uint32_t parent;
    uint64_t sub;
    struct ctx_waiter *next;
} ctx_waiter_t;

/* Lock held: w takes part in the choice of who holds the mask (enter), or leaves it. */
void ctx_enter_locked(ctx_waiter_t *w);
void ctx_leave_locked(ctx_waiter_t *w);
/* Lock held: my contribution to a round in buf[CTX_BUF_WORDS] (my mask if it is my turn, else
 * nothing); returns whether I hold the mask (then round_end must follow). */
bool ctx_round_begin_locked(ctx_waiter_t *w, uint32_t *buf);
/* Lock held: after the reduction of buf over the members (err: it failed): *all says the round
 * counted; returns the pair taken (its bit), or -1. */
int ctx_round_end_locked(bool own, int err, const uint32_t *buf, bool *all);
/* Give back a pair taken (a communicator freed, or a creation that failed). */
void ctx_release(uint32_t id);
void ctx_release_locked(uint32_t id);
/* Says that `members` members have no free pair in common; returns RMP_ERR_NO_MEM. */
int ctx_exhausted(int members);

/* The blocking agreement: rounds of fn (a BAND-reduction in place of nwords uint32 over the
 * members; lock NOT held) until one counts. *id: the pair's first id. */
typedef int ctx_reduce_fn(uint32_t *buf, int nwords, void *arg);
int ctx_agree(ctx_waiter_t *w, ctx_reduce_fn *fn, void *arg, int members, uint32_t *id);

#endif
