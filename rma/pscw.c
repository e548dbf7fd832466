/* pscw.c — general active target (MPI-3.1 11.5.2): post/start/complete/wait/test. Notices are
 * 0-byte messages on the window's own communicator (a dup nobody else sends on), under tags of
 * their own: post sends "may access" to each origin, start waits for them (unless NOCHECK),
 * complete flushes each target and sends "done", wait/test consume the "done"s. */
#include <stdlib.h>

#include "rma.h"

enum { TAG_POST = 1, TAG_DONE = 2 };

/* group's members as ranks of the window (malloc'd *ranks, *n); RMP_ERR_GROUP or RMP_ERR_RANK
 * when one is not in the window. Lock NOT held. */
static int group_ranks(win_t *w, rmp_group_t g, int **ranks, int *n)
{
    rmp_group_t wg;
    int err = rmp_group_size(g, n);
    if (err)
        return err;
    int *in = malloc(sizeof(int) * (size_t)(*n + 1)), *out = malloc(sizeof(int) * (size_t)(*n + 1));
    err = in && out ? rmp_comm_group(w->comm, &wg) : RMP_ERR_NO_MEM;
    if (!err) {
        for (int i = 0; i < *n; i++)
            in[i] = i;
        err = rmp_group_translate_ranks(g, *n, in, wg, out);
        rmp_group_free(&wg);
    }
    for (int i = 0; !err && i < *n; i++)
        if (out[i] < 0 || out[i] >= w->size)
            err = RMP_ERR_RANK;
    free(in);
    if (err) {
        free(out);
        return err;
    }
    *ranks = out;
    return RMP_SUCCESS;
}

int rmp_win_post(rmp_group_t group, int assert_mode, rmp_win_t win)
{
    int err = ctx_check();
    win_t *w = err ? NULL : win_lookup(win);
    if (err || !w)
        return err ? err : RMP_ERR_WIN;
    if (w->exposing)
        return RMP_ERR_RMA_SYNC;
    int *ranks = NULL, n = 0;
    err = group_ranks(w, group, &ranks, &n);
    bool *done = err ? NULL : calloc((size_t)n + 1, sizeof(bool));
    if (!err && !done)
        err = RMP_ERR_NO_MEM;
    if (err) {
        free(ranks);
        return err;
    }
    /* each origin may start accessing once it has my notice (NOCHECK: it does not wait) */
    for (int i = 0; !err && i < n && !(assert_mode & RMP_MODE_NOCHECK); i++)
        err = rmp_send(NULL, 0, RMP_BYTE, ranks[i], TAG_POST, w->comm);
    if (err) {
        free(ranks);
        free(done);
        return err;
    }
    ctx_lock(&rmp_ctx);
    w->post_ranks = ranks;
    w->npost = n;
    w->post_done = done;
    w->exposing = true;
    ctx_unlock(&rmp_ctx);
    return RMP_SUCCESS;
}

int rmp_win_start(rmp_group_t group, int assert_mode, rmp_win_t win)
{
    int err = ctx_check();
    win_t *w = err ? NULL : win_lookup(win);
    if (err || !w)
        return err ? err : RMP_ERR_WIN;
    /* after a fence(0) the fence epoch ends here (MPI's pattern fence then PSCW) */
    if (w->access != RMA_EP_NONE && w->access != RMA_EP_FENCE)
        return RMP_ERR_RMA_SYNC;
    int *ranks, n;
    err = group_ranks(w, group, &ranks, &n);
    if (err)
        return err;
    for (int i = 0; !err && i < n && !(assert_mode & RMP_MODE_NOCHECK); i++)
        err = rmp_recv(NULL, 0, RMP_BYTE, ranks[i], TAG_POST, w->comm, RMP_STATUS_IGNORE);
    if (err) {
        free(ranks);
        return err;
    }
    ctx_lock(&rmp_ctx);
    for (int i = 0; i < n; i++)
        w->t[ranks[i]].in_access_group = true;
    w->start_ranks = ranks;
    w->nstart = n;
    w->access = RMA_EP_PSCW;
    w->fence_open = false;
    ctx_unlock(&rmp_ctx);
    return RMP_SUCCESS;
}

int rmp_win_complete(rmp_win_t win)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    if (w->access != RMA_EP_PSCW) {
        ctx_unlock(&rmp_ctx);
        return RMP_ERR_RMA_SYNC;
    }
    for (int i = 0; i < w->nstart; i++) {
        int e = rma_flush_target(w, w->start_ranks[i], false);
        err = err ? err : e;
        w->t[w->start_ranks[i]].in_access_group = false;
    }
    int *ranks = w->start_ranks, n = w->nstart;
    w->start_ranks = NULL;
    w->nstart = 0;
    w->access = RMA_EP_NONE;
    ctx_unlock(&rmp_ctx);
    /* everything I did there is done: the target's wait may return */
    for (int i = 0; i < n; i++) {
        int e = rmp_send(NULL, 0, RMP_BYTE, ranks[i], TAG_DONE, w->comm);
        err = err ? err : e;
    }
    free(ranks);
    return err;
}

/* Consume the "done" notices that came (block: wait for all). *all: every origin done. */
static int post_collect(win_t *w, bool block, bool *all)
{
    int err = RMP_SUCCESS;
    *all = true;
    for (int i = 0; i < w->npost && !err; i++) {
        if (w->post_done[i])
            continue;
        int flag = 1;
        if (!block)
            err = rmp_iprobe(w->post_ranks[i], TAG_DONE, w->comm, &flag, RMP_STATUS_IGNORE);
        if (!err && flag)
            err = rmp_recv(NULL, 0, RMP_BYTE, w->post_ranks[i], TAG_DONE, w->comm,
                           RMP_STATUS_IGNORE);
        if (!err && flag)
            w->post_done[i] = true;
        else
            *all = false;
    }
    if (!err && *all) {
        ctx_lock(&rmp_ctx);
        free(w->post_ranks);
        free(w->post_done);
        w->post_ranks = NULL;
        w->post_done = NULL;
        w->npost = 0;
        w->exposing = false;
        ctx_unlock(&rmp_ctx);
    }
    return err;
}

int rmp_win_wait(rmp_win_t win)
{
    int err = ctx_check();
    win_t *w = err ? NULL : win_lookup(win);
    if (err || !w)
        return err ? err : RMP_ERR_WIN;
    if (!w->exposing)
        return RMP_ERR_RMA_SYNC;
    bool all;
    return post_collect(w, true, &all);
}

int rmp_win_test(rmp_win_t win, int *flag)
{
    int err = ctx_check();
    win_t *w = err ? NULL : win_lookup(win);
    if (err || !w)
        return err ? err : RMP_ERR_WIN;
    if (!flag)
        return RMP_ERR_ARG;
    if (!w->exposing)
        return RMP_ERR_RMA_SYNC;
    bool all;
    err = post_collect(w, false, &all);
    *flag = !err && all;
    return err;
}
