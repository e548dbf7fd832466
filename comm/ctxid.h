/* ctxid.h — the agreement on a new communicator's context id (ctxid.c), in pieces, so that
 * creations whose members are not a whole communicator (rmp_comm_create_group) and
 * nonblocking ones (rmp_comm_idup) can run it over their own exchange. See ctxid.c for the
 * protocol: rounds of a BAND-reduction of the members' masks of free ids; the first round
 * holds a segment of its own, the later ones the rest, one creation per process at a time,
 * chosen by a priority every member agrees on. */
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
 * dup, split and idup (the same on every member), 2^32 + tag for create_group, and for an
 * intercommunicator's creation the lower of its two local parents' (parent, sequence
 * number) with CTX_SUB_INTER set, and `who`, the lowest world rank of that parent's group:
 * two disjoint communicators may have one context id and one sequence number, so without it
 * two intercommunicator creations in one process could tie and each process break the tie
 * its own way, forever (seen at n = 2 in tests/mpi/mpi_icreate_threads). Zero otherwise.
 * The rest is the agreement's (zero at the start). */
#define CTX_SUB_INTER (1ull << 63)
typedef struct ctx_waiter {
    uint32_t parent;
    uint64_t sub;
    uint32_t who;
    bool entered; /* past the first round: takes part in the choice of who holds the mask */
    int own;      /* what of the mask the current round holds */
    struct ctx_waiter *next;
} ctx_waiter_t;

/* Lock held: my contribution to a round in buf[CTX_BUF_WORDS] (what I hold of the mask, maybe
 * nothing); ctx_round_end_locked must follow. */
void ctx_round_begin_locked(ctx_waiter_t *w, uint32_t *buf);
/* Lock held: after the reduction of buf over the members (err: it failed). *done says the
 * agreement is over: then the result is err, RMP_ERR_NO_MEM (the `members` members have no
 * free pair in common), or RMP_SUCCESS with the pair taken in *id (its first id). */
int ctx_round_end_locked(ctx_waiter_t *w, int err, const uint32_t *buf, int members,
                         uint32_t *id, bool *done);
/* Give back a pair taken (a communicator freed, or a creation that failed). */
void ctx_release(uint32_t id);
void ctx_release_locked(uint32_t id);

/* The blocking agreement: rounds of fn (a BAND-reduction in place of nwords uint32 over the
 * members; lock NOT held) until it is over. *id: the pair's first id. */
typedef int ctx_reduce_fn(uint32_t *buf, int nwords, void *arg);
int ctx_agree(ctx_waiter_t *w, ctx_reduce_fn *fn, void *arg, int members, uint32_t *id);

#endif
