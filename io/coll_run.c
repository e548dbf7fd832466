/* io/coll_run.c — a collective access after io_cop_begin, as steps that never block: the
 * rounds of two-phase (aggregator's file work, messages, unpacking) or each rank's own I/O,
 * then the agreement on the outcome (every rank's status to rank 0, the worst back). Two
 * drivers: io_cop_wait on the calling thread, or a request that progress advances while the
 * I/O threads do the file work, so that iwrite_all overlaps the program's computation; its
 * end (a read's conversion) runs on an I/O thread too, off the runtime lock. */
#include <stdlib.h>

#include "coll_xch.h"
#include "core.h"

enum { ADV_REQS, ADV_FS, ADV_BUSY, ADV_DONE };

void cop_free(io_cop_t *c)
{
    if (c->two_phase)
        xch_free(&c->x);
    coll_plan_free(&c->pl);
    free(c->areqs), free(c->votes), free(c);
}

/* Ask the driver for file work (phase: of a round), going on at step `next` after it. */
static int ask_fs(io_cop_t *c, int phase, int next)
{
    c->fs_phase = phase;
    c->step = next;
    atomic_store_explicit(&c->fs, COP_FS_ASKED, memory_order_relaxed);
    return ADV_FS;
}

/* The file work asked, on whichever thread: no runtime call, no lock. */
static void fs_work(io_cop_t *c)
{
    if (c->two_phase)
        xch_fs_round(&c->x, c->fs_phase);
    else
        c->st = c->alone ? c->alone(c->alone_arg)
                         : coll_fs_independent(c->pl.fd, c->runs, c->n, c->pl.is_write);
}

static bool wreqs_ready(void *arg)
{
    io_cop_t *c = arg;
    for (int i = 0; i < c->nw; i++)
        if (!atomic_load_explicit(&c->wreqs[i]->done, memory_order_acquire))
            return false;
    return true;
}

/* The step's requests all done (lock held): freed, the first error in *err. One failed (a
 * peer died) while others are posted: the receives are cancelled, as their senders may
 * never send. */
static bool wreqs_done(io_cop_t *c, int *err)
{
    bool all = true;
    for (int i = 0; i < c->nw; i++) {
        struct rmp_request *r = c->wreqs[i];
        if (!atomic_load_explicit(&r->done, memory_order_acquire)) {
            all = false;
        } else if (r->status.error && !r->status.cancelled && !*err) {
            *err = r->status.error;
            for (int j = 0; j < c->nw; j++)
                p2p_cancel_locked(c->wreqs[j]);
        }
    }
    if (!all)
        return false;
    for (int i = 0; i < c->nw; i++)
        req_free(c->wreqs[i]);
    c->nw = 0;
    return true;
}

/* One message of the agreement; a failure to post is this rank's outcome. */
static void agree_msg(io_cop_t *c, int *buf, int peer, int recv)
{
    int rc = recv ? p2p_irecv_locked(c->x.cm, 0, buf, sizeof(int), peer, c->x.tag + 1,
                                     &c->areqs[c->nw])
                  : p2p_isend_locked(c->x.cm, 0, buf, sizeof(int), peer, c->x.tag + 1,
                                     &c->areqs[c->nw]);
    if (rc)
        c->agreed = c->agreed ? c->agreed : rc;
    else
        c->nw++;
}

/* Rank 0 gathers the ranks' status, the lowest (the most severe, as io_agree) goes back. */
static void agree_step(io_cop_t *c)
{
    int size = c->pl.size;
    c->wreqs = c->areqs;
    if (c->step == COP_AGREE) {
        c->votes[0] = c->two_phase ? (c->x.st ? c->x.st : c->st) : c->st;
        c->agreed = c->votes[0];
        for (int s = 1; c->pl.rank == 0 && s < size; s++)
            agree_msg(c, &c->votes[s], s, 1);
        if (c->pl.rank) { /* the receive of the answer, then my vote */
            agree_msg(c, &c->agreed, 0, 1);
            agree_msg(c, &c->votes[0], 0, 0);
        }
        c->step = c->pl.rank ? COP_AGREE_END : COP_AGREE_UP;
        return;
    }
    for (int s = 1; s < size; s++) /* COP_AGREE_UP, the votes in */
        c->agreed = c->votes[s] < c->agreed ? c->votes[s] : c->agreed;
    for (int s = 1; s < size; s++)
        agree_msg(c, &c->agreed, s, 0);
    c->step = COP_AGREE_END;
}

/* One round's messages done: unpack, and the aggregator's write (lock held). */
static int round_xch(io_cop_t *c)
{
    int err = 0;
    if (!wreqs_done(c, &err))
        return ADV_REQS;
    c->step = COP_NEXT;
    if (err) { /* a rank died or a message failed: the window is torn, never written */
        c->x.st = c->x.st ? c->x.st : err;
        if (c->x.locked)
            coll_fs_lock(c->pl.fd, 0, 0, 0), c->x.locked = 0;
        return -1;
    }
    xch_unpack(&c->x, c->agg);
    return c->agg && c->pl.is_write ? ask_fs(c, 1, COP_NEXT) : -1;
}

/* Take steps until one must wait (lock held): for requests, for file work, or the end. */
static int cop_advance(io_cop_t *c)
{
    int fs = atomic_load_explicit(&c->fs, memory_order_acquire);
    if (fs == COP_FS_RUNNING)
        return ADV_BUSY;
    if (fs == COP_FS_ASKED)
        return ADV_FS;
    atomic_store_explicit(&c->fs, COP_FS_IDLE, memory_order_relaxed);
    for (int a = -1;; c->moved++) {
        int err = 0;
        switch (c->step) {
        case COP_ROUND:
            if (c->round >= c->pl.rounds) {
                c->step = COP_AGREE;
                break;
            }
            xch_round_walk(&c->x, c->round);
            c->agg = c->pl.me_agg >= 0 && c->x.whi > c->x.wlo;
            c->step = COP_POST;
            if (c->agg)
                return ask_fs(c, 0, COP_POST);
            break;
        case COP_POST:
            c->wreqs = c->x.reqs;
            c->nw = xch_post(&c->x, c->agg);
            c->step = COP_XCH;
            break;
        case COP_XCH:
            if ((a = round_xch(c)) >= 0)
                return a;
            break;
        case COP_NEXT:
            c->round++;
            c->step = COP_ROUND;
            break;
        case COP_ALONE:
            return ask_fs(c, 0, COP_AGREE);
        case COP_AGREE:
            agree_step(c);
            break;
        case COP_AGREE_UP:
        case COP_AGREE_END:
            if (!wreqs_done(c, &err))
                return ADV_REQS;
            c->agreed = err && !c->agreed ? err : c->agreed;
            if (c->step == COP_AGREE_END)
                return c->step = COP_END, ADV_DONE;
            agree_step(c);
            break;
        default:
            return ADV_DONE;
        }
    }
}

int io_cop_wait(io_cop_t *c)
{
    rmp_ctx_t *cx = &rmp_ctx;
    for (;;) {
        ctx_lock(cx);
        int a = cop_advance(c);
        if (a == ADV_REQS)
            progress_wait_until(cx, wreqs_ready, c);
        ctx_unlock(cx);
        if (a == ADV_DONE)
            break;
        if (a == ADV_FS) {
            fs_work(c);
            atomic_store_explicit(&c->fs, COP_FS_DONE, memory_order_release);
        }
    }
    int st = c->agreed;
    cop_free(c);
    return st;
}

/* ---- As a request ---- */

/* On an I/O thread: the file work, then, when the runtime locks (threads may enter it), a
 * wakeup for whoever sleeps in progress (c may be freed as soon as fs says done: not
 * touched after). */
static void cop_task(io_task_t *t)
{
    io_cop_t *c = (io_cop_t *)((char *)t - offsetof(io_cop_t, task));
    fs_work(c);
    bool locking = rmp_ctx.locking; /* set at init: the runtime may be entered from here */
    atomic_store_explicit(&c->fs, COP_FS_DONE, memory_order_release);
    if (!locking)
        return; /* one thread in the runtime: its wait polls the flag (TSan-clean) */
    rmp_ctx_t *cx = &rmp_ctx;
    ctx_lock(cx);
    progthr_kick(cx);
    progress_kick_for(cx, NULL);
    ctx_unlock(cx);
}

/* The end, off the runtime lock (the done callback converts a read, which may call the
 * program's datarep functions, and those may call rmp): on an I/O thread. */
static void cop_end(io_task_t *t)
{
    io_cop_t *c = (io_cop_t *)((char *)t - offsetof(io_cop_t, task));
    rmp_status_t st = {.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    int err = c->done(c->done_arg, c->agreed, &st);
    struct rmp_request *r = c->req;
    cop_free(c);
    rmp_ctx_t *cx = &rmp_ctx;
    ctx_lock(cx);
    r->status = st;
    req_complete(r, err); /* the last touch of r: a waiting thread may free it now */
    progthr_kick(cx);
    ctx_unlock(cx);
}

/* The request's coll_progress (lock held). */
static int cop_progress(struct rmp_request *r)
{
    io_cop_t *c = r->coll;
    c->moved = 0;
    int a = cop_advance(c);
    if (a == ADV_FS) {
        atomic_store_explicit(&c->fs, COP_FS_RUNNING, memory_order_relaxed);
        c->task.fn = cop_task;
        if (io_pool_submit(&c->task) != RMP_SUCCESS) { /* no I/O thread: here, then */
            fs_work(c);
            atomic_store_explicit(&c->fs, COP_FS_DONE, memory_order_release);
        }
        return c->moved + 1;
    }
    if (a != ADV_DONE)
        return c->moved;
    r->coll = NULL;
    progress_coll_remove(&rmp_ctx, r);
    c->task.fn = cop_end;
    /* Without locking no other thread may enter the runtime, and this one's lock is no lock
     * (the done callback may call rmp): the end runs here. With it, on an I/O thread. */
    if (!rmp_ctx.locking || io_pool_submit(&c->task) != RMP_SUCCESS) {
        rmp_status_t st = {.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
        int err = c->done(c->done_arg, c->agreed, &st);
        cop_free(c);
        r->status = st;
        req_complete(r, err);
    }
    return 1;
}

int io_cop_post(io_cop_t *c, io_cop_done_fn *done, void *arg, rmp_request_t *req)
{
    struct rmp_request *r = req_alloc(REQ_COLL);
    if (!r) { /* the other ranks go on: run it here, then fail */
        int st = io_cop_wait(c);
        return st ? st : RMP_ERR_NO_MEM;
    }
    c->done = done, c->done_arg = arg, c->req = r;
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    r->coll = c;
    r->coll_progress = cop_progress;
    r->freeable = true; /* MPI_Request_free of an I/O request: it ends in the background */
    *req = req_handle(r);
    rmp_ctx_t *cx = &rmp_ctx;
    ctx_lock(cx);
    progress_coll_add(cx, r);
    cop_progress(r);
    ctx_unlock(cx);
    return RMP_SUCCESS;
}
