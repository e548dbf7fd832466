/* ops.c — the one-sided operations: put, get, accumulate, get_accumulate, fetch_and_op,
 * compare_and_swap and their request forms. Every call checks everything before anything
 * moves (handles, types and their signatures, op, buffers, the epoch, the target's range),
 * then takes the target's path (rma.h):
 *   RMA_DIRECT  the target's memory is mapped here: pack/unpack straight into it
 *   RMA_TP      one transport write or read per contiguous piece of the target layout, from
 *               or into a packed buffer; a transport that refuses falls back to RMA_AM
 *   RMA_AM      the target's progress applies it (am.c)
 * Accumulates go through rma_amo (amo.c) on the window's atomic domain whatever the data path,
 * so that every origin updates a location the same way.
 * Completion: transport operations count themselves (rma_issued / rma_completed) and flush
 * waits for the counts (flush.c). What must happen after data arrived later (unpacking a get
 * into a noncontiguous buffer, completing a request) waits in w->defer until everything
 * issued to that target completed: a conservative rule (it may wait for later operations
 * too) that needs no per-operation identity from the active-message path. */
#include <stdlib.h>
#include <string.h>

#include "rma.h"

typedef enum { K_PUT, K_GET, K_ACC, K_GACC, K_CAS } kind_t;

typedef struct args {
    kind_t kind;
    const void *origin;
    int ocount;
    rmp_datatype_t otype;
    void *result;
    int rcount;
    rmp_datatype_t rtype;
    const void *compare;
    int target;
    ptrdiff_t tdisp;
    int tcount;
    rmp_datatype_t ttype;
    rmp_op_t op;
    rmp_win_t win;
    rmp_request_t *req;
} args_t;

/* ---- the transport path ---- */
typedef struct tp_piece {
    tp_rma_cb_t cb;
    struct tp_op *op;
} tp_piece_t;

typedef struct tp_op {
    int left;  /* pieces in flight, plus the issuer's hold */
    void *tmp; /* the packed source of writes: lives until the last piece is done */
    win_t *w;
    int r;
    tp_piece_t p[];
} tp_op_t;

static void tp_op_drop(tp_op_t *o)
{
    if (--o->left == 0) {
        free(o->tmp);
        free(o);
    }
}

static void piece_done(tp_rma_cb_t *cb, int status)
{
    tp_op_t *o = ((tp_piece_t *)cb)->op;
    rma_completed(o->w, o->r, status, false);
    tp_op_drop(o);
}

/* Write (wr) or read the pieces of target r at off from or into buf (packed, bytes); tmp
 * (the packed source, may be NULL) is owned from here on. *async: something completes later. */
static int tp_pieces(win_t *w, int r, bool wr, uint64_t off, const rma_piece_t *pcs, int n,
                     char *buf, size_t bytes, void *tmp, bool *async)
{
    rma_target_t *t = &w->t[r];
    tp_t *tp = t->data_tp;
    tp_op_t *o = malloc(sizeof(*o) + sizeof(tp_piece_t) * (size_t)n);
    if (!o) {
        free(tmp);
        return RMP_ERR_NO_MEM;
    }
    *o = (tp_op_t){.left = 1, .tmp = tmp, .w = w, .r = r};
    size_t pos = 0;
    int err = RMP_SUCCESS;
    for (int i = 0; i < n && !err; i++) {
        uint64_t toff;
        const tp_rkey_t *key = win_key(w, r, tp, off + (uint64_t)pcs[i].off, pcs[i].len, &toff);
        o->p[i] = (tp_piece_t){.cb.done = piece_done, .op = o};
        err = key ? RMP_AGAIN : RMP_ERR_NOT_SUPPORTED;
        while (err == RMP_AGAIN) {
            err = wr ? tp->rma->write(tp, t->world, buf + pos, pcs[i].len, key, toff, &o->p[i].cb)
                     : tp->rma->read(tp, t->world, buf + pos, pcs[i].len, key, toff,
                                     &o->p[i].cb);
            if (err == RMP_AGAIN)
                progress_poll(&rmp_ctx); /* out of resources: let completions free some */
        }
        if (err == RMP_INPROGRESS) {
            rma_issued(w, r);
            o->left++;
            *async = true;
            err = RMP_SUCCESS;
        } else if (err == RMP_ERR_NOT_SUPPORTED) {
            /* not for this peer or memory (CMA refused, ...): this and the rest by messages */
            err = wr ? rma_am_put(w, r, off, pcs + i, n - i, buf + pos, bytes - pos)
                     : rma_am_get(w, r, off, pcs + i, n - i, buf + pos, bytes - pos);
            *async = true;
            break;
        }
        pos += pcs[i].len;
    }
    tp_op_drop(o);
    return err;
}

/* ---- checks ---- */

/* A buffer of count elements of type h: its type (committed) and packed size. */
static int buf_check(const void *buf, int count, rmp_datatype_t h, const dtype_t **dt,
                     size_t *bytes)
{
    *dt = dtype_get(h, true);
    if (!*dt)
        return RMP_ERR_TYPE;
    if (count < 0)
        return RMP_ERR_COUNT;
    int err = dtype_bytes(*dt, (size_t)count, bytes);
    if (!err && count > 0 && !dtype_buf_ok(buf, *dt))
        err = RMP_ERR_BUFFER;
    return err;
}

static int args_check(const args_t *a, const dtype_t **od, const dtype_t **td,
                      const dtype_t **rd, size_t *tb)
{
    size_t ob = 0, rb = 0;
    bool acc = a->kind == K_ACC || a->kind == K_GACC || a->kind == K_CAS;
    bool use_origin = a->kind != K_GACC || a->op != RMP_NO_OP;
    int err = buf_check(NULL, 0, a->ttype, td, tb); /* the target's buffer is not here */
    if (!err && a->tcount < 0)
        err = RMP_ERR_COUNT;
    if (!err)
        err = dtype_bytes(*td, (size_t)a->tcount, tb);
    if (!err && use_origin)
        err = buf_check(a->origin, a->ocount, a->otype, od, &ob);
    if (!err && use_origin && ob != *tb)
        err = RMP_ERR_TYPE; /* the signatures differ */
    if (!err && (a->kind == K_GACC || a->kind == K_CAS)) {
        err = buf_check(a->result, a->rcount, a->rtype, rd, &rb);
        if (!err && rb != *tb)
            err = RMP_ERR_TYPE;
    }
    if (err || !acc)
        return err;
    if (*tb == 0) /* nothing moves (count 0, a zero-size type): any type will do */
        return op_is_user(a->op) ? RMP_ERR_OP : RMP_SUCCESS;
    dt_base_t b = (*td)->base;
    if (b == DT_NONE || (use_origin && (*od)->base != b) || (*rd && (*rd)->base != b))
        return RMP_ERR_TYPE; /* accumulates: one builtin on every side */
    if (a->kind == K_CAS) {
        if (!a->compare)
            return RMP_ERR_BUFFER;
        /* MPI-3.1 11.3.4: one predefined integer, logical or byte element, not a type
         * derived from one (as MPICH checks) */
        bool pre = (*td)->builtin && (*od)->builtin && (*rd)->builtin;
        return pre && rma_cas_type(b) ? RMP_SUCCESS : RMP_ERR_TYPE;
    }
    if (op_is_user(a->op))
        return RMP_ERR_OP; /* MPI-3.1 11.3.4: predefined ops only */
    if (a->op == RMP_REPLACE || (a->op == RMP_NO_OP && a->kind == K_GACC))
        return RMP_SUCCESS;
    if (a->op == RMP_NO_OP)
        return RMP_ERR_OP;
    return op_builtin_check(a->op, b);
}

/* The span of the target layout, from its buffer's address: [*lo, *hi). */
static void target_span(const dtype_t *td, int count, size_t tb, ptrdiff_t *lo, ptrdiff_t *hi)
{
    *lo = *hi = 0;
    if (count <= 0 || tb == 0)
        return;
    *lo = td->true_lb;
    *hi = (ptrdiff_t)(count - 1) * (ptrdiff_t)td->extent + td->true_ub;
}

static char *direct_addr(win_t *w, int r, uint64_t off)
{
    if (w->flavor == RMP_WIN_FLAVOR_DYNAMIC)
        return (char *)(uintptr_t)off;
    return w->t[r].mapped + off;
}

/* count elements of dt at buf as one contiguous buffer: buf itself or a packed copy (*tmp). */
static int packed_src(const void *buf, int count, const dtype_t *dt, size_t bytes,
                      const void **src, void **tmp)
{
    *tmp = NULL;
    *src = buf;
    if (!dt || dt->contig || !bytes)
        return RMP_SUCCESS;
    if (!(*tmp = malloc(bytes)))
        return RMP_ERR_NO_MEM;
    dtype_pack(dt, count, buf, *tmp);
    *src = *tmp;
    return RMP_SUCCESS;
}

/* Where bytes for count elements of dt at buf land: buf itself or a buffer to unpack (*tmp). */
static int packed_dst(void *buf, const dtype_t *dt, size_t bytes, void **dst, void **tmp)
{
    *tmp = NULL;
    *dst = buf;
    if (dt->contig || !bytes)
        return RMP_SUCCESS;
    if (!(*tmp = malloc(bytes)))
        return RMP_ERR_NO_MEM;
    *dst = *tmp;
    return RMP_SUCCESS;
}

static int do_put(win_t *w, const args_t *a, const dtype_t *od, const dtype_t *td, size_t tb,
                  uint64_t off, const rma_piece_t *pcs, int n, bool *async)
{
    const void *src;
    void *tmp;
    int err = packed_src(a->origin, a->ocount, od, tb, &src, &tmp);
    if (err)
        return err;
    rma_target_t *t = &w->t[a->target];
    if (t->data_path == RMA_DIRECT) {
        dtype_unpack(td, a->tcount, src, tb, direct_addr(w, a->target, off));
        free(tmp);
        return RMP_SUCCESS;
    }
    if (t->data_path == RMA_TP)
        return tp_pieces(w, a->target, true, off, pcs, n, (char *)src, tb, tmp, async);
    *async = true;
    err = rma_am_put(w, a->target, off, pcs, n, src, tb); /* sent: the data is copied */
    free(tmp);
    return err;
}

static int do_get(win_t *w, const args_t *a, const dtype_t *od, const dtype_t *td, size_t tb,
                  uint64_t off, const rma_piece_t *pcs, int n, bool *async, void **later)
{
    void *dst, *tmp;
    int err = packed_dst((void *)a->origin, od, tb, &dst, &tmp);
    if (err)
        return err;
    rma_target_t *t = &w->t[a->target];
    if (t->data_path == RMA_DIRECT)
        dtype_pack(td, a->tcount, direct_addr(w, a->target, off), dst);
    else if (t->data_path == RMA_TP)
        err = tp_pieces(w, a->target, false, off, pcs, n, dst, tb, NULL, async);
    else {
        *async = true;
        err = rma_am_get(w, a->target, off, pcs, n, dst, tb);
    }
    if (t->completed != t->issued)
        *async = true;
    if (tmp && !err && !*async)
        dtype_unpack(od, a->ocount, tmp, tb, (void *)a->origin);
    if (tmp && !err && *async)
        *later = tmp; /* unpacked once it arrived */
    else
        free(tmp);
    return err;
}

static int do_acc(win_t *w, const args_t *a, const dtype_t *od, const dtype_t *td,
                  const dtype_t *rd, size_t tb,
                  uint64_t off, const rma_piece_t *pcs, int n, bool *async, void **later)
{
    const void *src = NULL;
    void *stmp = NULL, *dst = NULL, *rtmp = NULL;
    bool use_origin = a->kind != K_GACC || a->op != RMP_NO_OP;
    int err = use_origin ? packed_src(a->origin, a->ocount, od, tb, &src, &stmp) : RMP_SUCCESS;
    if (!err && rd)
        err = packed_dst(a->result, rd, tb, &dst, &rtmp);
    if (!err)
        err = rma_amo(w, a->target, off, pcs, n, td->base, a->op, src, tb, dst, a->compare);
    free(stmp); /* blocking, or copied into the active message */
    rma_target_t *t = &w->t[a->target];
    if (t->completed != t->issued) /* an active message (amo.c's choice), or a transport's */
        *async = true;
    if (rtmp && !err && !*async)
        dtype_unpack(rd, a->rcount, rtmp, tb, a->result);
    if (rtmp && !err && *async)
        *later = rtmp;
    else
        free(rtmp);
    return err;
}

static int rma_do(args_t *a)
{
    int err = ctx_check();
    if (err)
        return err;
    win_t *w = win_lookup(a->win);
    if (!w)
        return RMP_ERR_WIN;
    const dtype_t *od = NULL, *td = NULL, *rd = NULL;
    size_t tb = 0;
    err = args_check(a, &od, &td, &rd, &tb);
    if (err)
        return err;
    if (a->target == RMP_PROC_NULL)
        return rma_req_done_now(a->req, RMP_SUCCESS); /* MPI-3.1 11.3: nothing happens */
    if (a->target < 0 || a->target >= w->size)
        return RMP_ERR_RANK;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    uint64_t off = 0;
    ptrdiff_t lo, hi;
    target_span(td, a->tcount, tb, &lo, &hi);
    err = rma_epoch_check(w, a->target, a->req != NULL);
    if (!err)
        err = w->t[a->target].error ? w->t[a->target].error : RMP_SUCCESS;
    if (!err)
        err = c->peers[w->t[a->target].world].failed;
    if (!err)
        err = win_range(w, a->target, a->tdisp, lo, hi, &off);
    rma_target_t *t = &w->t[a->target];
    if (!err && __builtin_expect(c->prof != NULL, 0))
        prof_msg(c->prof, t->world, t->data_path == RMA_TP ? PROF_RDMA : PROF_ONESIDED, tb);
    if (!err && a->kind <= K_GET && !a->req && t->data_path == RMA_DIRECT && td->contig &&
        od->contig) { /* the common small case (OSU's loops): one copy, nothing to track */
        char *there = direct_addr(w, a->target, off);
        if (tb == 0)
            ; /* nothing moves (a NULL buffer is fine then) */
        else if (a->kind == K_PUT)
            memcpy(there, a->origin, tb);
        else
            memcpy((void *)a->origin, there, tb);
        ctx_unlock(c);
        return RMP_SUCCESS;
    }
    rma_piece_t one, *pcs = NULL;
    int n = 0;
    if (!err && tb)
        err = rma_flatten(td, a->tcount, &one, &pcs, &n);
    bool async = false;
    void *later = NULL;
    if (!err && tb) {
        switch (a->kind) {
        case K_PUT:
            err = do_put(w, a, od, td, tb, off, pcs, n, &async);
            break;
        case K_GET:
            err = do_get(w, a, od, td, tb, off, pcs, n, &async, &later);
            break;
        default:
            err = do_acc(w, a, od, td, rd, tb, off, pcs, n, &async, &later);
        }
        rma_pieces_free(&one, pcs);
    }
    if (!err && (later || (async && a->req))) {
        const dtype_t *dt = !later ? NULL : a->kind == K_GET ? od : rd;
        void *user = a->kind == K_GET ? (void *)a->origin : a->result;
        int count = a->kind == K_GET ? a->ocount : a->rcount;
        err = rma_defer(w, a->target, later, dt, count, user, tb, a->req);
    } else if (!err) {
        err = rma_req_done_now(a->req, RMP_SUCCESS);
    }
    ctx_unlock(c);
    return err;
}

int rmp_put(const void *origin, int origin_count, rmp_datatype_t origin_type, int target,
            ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type, rmp_win_t win)
{
    int err;
    if (rma_fast_move(true, (void *)origin, origin_count, origin_type, target, target_disp,
                      target_count, target_type, win, &err))
        return err;
    args_t a = {K_PUT, origin, origin_count, origin_type, NULL, 0, 0, NULL, target, target_disp,
                target_count, target_type, RMP_REPLACE, win, NULL};
    return rma_do(&a);
}

int rmp_get(void *origin, int origin_count, rmp_datatype_t origin_type, int target,
            ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type, rmp_win_t win)
{
    int err;
    if (rma_fast_move(false, origin, origin_count, origin_type, target, target_disp,
                      target_count, target_type, win, &err))
        return err;
    args_t a = {K_GET, origin, origin_count, origin_type, NULL, 0, 0, NULL, target, target_disp,
                target_count, target_type, RMP_NO_OP, win, NULL};
    return rma_do(&a);
}

int rmp_accumulate(const void *origin, int origin_count, rmp_datatype_t origin_type, int target,
                   ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type,
                   rmp_op_t op, rmp_win_t win)
{
    int err;
    if (origin_type == target_type && origin_count == target_count &&
        rma_fast_acc(origin, NULL, NULL, origin_count, origin_type, target, target_disp, op, win,
                     &err))
        return err;
    args_t a = {K_ACC, origin, origin_count, origin_type, NULL, 0, 0, NULL, target, target_disp,
                target_count, target_type, op, win, NULL};
    return rma_do(&a);
}

int rmp_get_accumulate(const void *origin, int origin_count, rmp_datatype_t origin_type,
                       void *result, int result_count, rmp_datatype_t result_type, int target,
                       ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type,
                       rmp_op_t op, rmp_win_t win)
{
    int err; /* the origin's type and count do not matter with NO_OP */
    bool same = result_type == target_type && result_count == target_count &&
                (op == RMP_NO_OP || (origin_type == target_type && origin_count == target_count));
    if (same && result && rma_fast_acc(origin, result, NULL, target_count, target_type, target,
                                       target_disp, op, win, &err))
        return err;
    args_t a = {K_GACC, origin, origin_count, origin_type, result, result_count, result_type,
                NULL, target, target_disp, target_count, target_type, op, win, NULL};
    return rma_do(&a);
}

int rmp_fetch_and_op(const void *origin, void *result, rmp_datatype_t type, int target,
                     ptrdiff_t target_disp, rmp_op_t op, rmp_win_t win)
{
    int err;
    if (result && rma_fast_acc(origin, result, NULL, 1, type, target, target_disp, op, win, &err))
        return err;
    args_t a = {K_GACC, origin, 1, type, result, 1, type, NULL, target, target_disp, 1, type,
                op, win, NULL};
    return rma_do(&a);
}

int rmp_compare_and_swap(const void *origin, const void *compare, void *result,
                         rmp_datatype_t type, int target, ptrdiff_t target_disp, rmp_win_t win)
{
    int err;
    if (result && compare &&
        rma_fast_acc(origin, result, compare, 1, type, target, target_disp, RMP_REPLACE, win, &err))
        return err;
    args_t a = {K_CAS, origin, 1, type, result, 1, type, compare, target, target_disp, 1, type,
                RMP_REPLACE, win, NULL};
    return rma_do(&a);
}

int rmp_rput(const void *origin, int origin_count, rmp_datatype_t origin_type, int target,
             ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type, rmp_win_t win,
             rmp_request_t *req)
{
    args_t a = {K_PUT, origin, origin_count, origin_type, NULL, 0, 0, NULL, target, target_disp,
                target_count, target_type, RMP_REPLACE, win, req};
    return req ? rma_do(&a) : RMP_ERR_ARG;
}

int rmp_rget(void *origin, int origin_count, rmp_datatype_t origin_type, int target,
             ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type, rmp_win_t win,
             rmp_request_t *req)
{
    args_t a = {K_GET, origin, origin_count, origin_type, NULL, 0, 0, NULL, target, target_disp,
                target_count, target_type, RMP_NO_OP, win, req};
    return req ? rma_do(&a) : RMP_ERR_ARG;
}

int rmp_raccumulate(const void *origin, int origin_count, rmp_datatype_t origin_type,
                    int target, ptrdiff_t target_disp, int target_count,
                    rmp_datatype_t target_type, rmp_op_t op, rmp_win_t win, rmp_request_t *req)
{
    args_t a = {K_ACC, origin, origin_count, origin_type, NULL, 0, 0, NULL, target, target_disp,
                target_count, target_type, op, win, req};
    return req ? rma_do(&a) : RMP_ERR_ARG;
}

int rmp_rget_accumulate(const void *origin, int origin_count, rmp_datatype_t origin_type,
                        void *result, int result_count, rmp_datatype_t result_type, int target,
                        ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type,
                        rmp_op_t op, rmp_win_t win, rmp_request_t *req)
{
    args_t a = {K_GACC, origin, origin_count, origin_type, result, result_count, result_type,
                NULL, target, target_disp, target_count, target_type, op, win, req};
    return req ? rma_do(&a) : RMP_ERR_ARG;
}
