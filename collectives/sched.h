/* sched.h — the collective schedule engine. A collective is compiled, before it starts, into a
 * schedule: rounds of steps (send, receive, local copy, local reduce). The progress engine
 * advances it without blocking: a round starts by running its local steps in order, then posts
 * its receives and sends (then runs the local steps added after sched_overlap); when all of
 * them have completed, the next round starts. Blocking collectives are the nonblocking ones
 * plus a wait.
 *
 * Rules an algorithm follows when it builds a schedule:
 * - a step that reads data received in round k goes in round k+1 or later (sched_round ends a
 *   round);
 * - within one round, no buffer is both received into and sent from or read by a local step;
 * - buffers are packed bytes (collectives pack derived types before and unpack after);
 * - scratch memory comes from sched_tmp and lives as long as the schedule.
 * Building never fails half-way for the caller: an allocation failure is remembered and
 * reported by sched_post. */
#ifndef RMP_SCHED_H
#define RMP_SCHED_H

#include <stdbool.h>
#include <stddef.h>

#include "core.h"

typedef struct sched sched_t;

/* A new empty schedule for one collective call on comm with this call's tag; NULL: no memory. */
sched_t *sched_new(comm_t *comm, int tag);
/* Scratch memory owned by the schedule (NULL after a failure, which sched_post reports). */
void *sched_tmp(sched_t *s, size_t bytes);

void sched_send(sched_t *s, int peer, const void *buf, size_t bytes);
void sched_recv(sched_t *s, int peer, void *buf, size_t bytes);
void sched_copy(sched_t *s, void *dst, const void *src, size_t bytes);
/* inout[i] = in[i] (op) inout[i] for n elements: base elements of dt for a builtin op, dt
 * elements for a user op (see op_apply, red_esz). */
void sched_reduce(sched_t *s, rmp_op_t op, const dtype_t *dt, const void *in, void *inout,
                  size_t n);
/* out = in op in2 (n elements as above); out overlaps neither input. */
void sched_reduce3(sched_t *s, rmp_op_t op, const dtype_t *dt, const void *in, const void *in2,
                   void *out, size_t n);
/* A local step that calls fn(arg); an error it returns ends the schedule with it (the round
 * posts no transfer). */
void sched_local(sched_t *s, int (*fn)(void *arg), void *arg);
/* What the schedule runs ("barrier"), for the hang report (a static string). */
void sched_label(sched_t *s, const char *label);
/* Rounds ended so far; the first `rounds` of them check the ranks' arguments (coll_check.c). */
int sched_rounds(const sched_t *s);
void sched_checked(sched_t *s, int rounds);
/* Local steps added after this call, up to the round's end, run after the round's receives
 * and sends are posted, so they overlap the transfers in flight (a peer copies from or into
 * this rank's memory meanwhile): a pipeline reduces one segment while the next one moves.
 * They may touch no buffer that one of the round's transfers uses. */
void sched_overlap(sched_t *s);
/* End the current round: steps added later start when everything before has completed. */
void sched_round(sched_t *s);

/* Data did not fit in this rank's buffer (found while building): the schedule still runs all
 * its rounds, ends with RMP_ERR_TRUNCATE, and passes the error on (see sched.c). A truncated
 * receive while running does the same. */
void sched_truncated(sched_t *s);

/* Run once when the schedule ends (err: its outcome), before the request completes: unpacks
 * results into users' buffers. arg is freed with the schedule if owned (sched_tmp memory). */
void sched_on_done(sched_t *s, void (*fn)(void *arg, int err), void *arg);
/* dt is read while the schedule runs (a view's unpack, a reduction): it is held from the
 * post to the end, so that a type freed meanwhile keeps its layout and its handle. */
void sched_hold_type(sched_t *s, const dtype_t *dt);

/* Start the schedule as a collective request (*req); on failure (no memory while building)
 * the schedule is freed and *req untouched. Lock NOT held. A schedule with no steps
 * completes at once. */
int sched_post(sched_t *s, rmp_request_t *req);
/* Free a schedule that was never posted. */
void sched_free(sched_t *s);

#endif
