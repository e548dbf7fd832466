/* coll.c — what every collective shares (see coll.h): argument checks, the per-call tag and
 * schedule, packed views of typed user buffers, and the algorithm choice from the RMP_COLL_* knobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "hang.h"

int coll_comm(rmp_comm_t h, coll_t *cl)
{
    intra_t in;
    int err = comm_intra(h, &in);
    if (!err)
        *cl = (coll_t){.comm = in.comm, .rank = in.rank, .size = in.size};
    return err;
}

int coll_root(const coll_t *cl, int root)
{
    return root < 0 || root >= cl->size ? RMP_ERR_ROOT : RMP_SUCCESS;
}

int coll_rooted(rmp_comm_t h, const rmp_request_t *req, int root, bool in_place, coll_t *cl,
                bool *am_root)
{
    int err = coll_comm(h, cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err)
        err = coll_root(cl, root);
    *am_root = !err && cl->rank == root;
    if (!err && in_place && !*am_root)
        err = RMP_ERR_BUFFER; /* RMP_IN_PLACE is for the root only */
    return err;
}

int coll_allred_args(rmp_comm_t h, const rmp_request_t *req, const void *sendbuf,
                     const void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                     coll_t *cl, const dtype_t **dt_p, size_t *bytes_p)
{
    int err = coll_comm(h, cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err)
        err = coll_reduction(count, type, op, dt_p);
    if (!err)
        err = coll_buf(recvbuf, count, type, 1, dt_p, bytes_p);
    if (!err && sendbuf != RMP_IN_PLACE)
        err = coll_buf(sendbuf, count, type, 1, dt_p, bytes_p);
    if (!err && count > 0)
        err = coll_alias(sendbuf, recvbuf, 0);
    return err;
}

int coll_buf(const void *buf, int count, rmp_datatype_t type, int nblk, const dtype_t **dt_p,
             size_t *bytes_p)
{
    if (count < 0)
        return RMP_ERR_COUNT;
    const dtype_t *dt = dtype_get(type, true);
    if (!dt)
        return RMP_ERR_TYPE;
    size_t blk, n, total;
    /* the whole buffer's packed size and span must be representable: temporaries hold all of
     * it, and packing steps through it by extent */
    if (dtype_bytes(dt, (size_t)count, &blk) ||
        __builtin_mul_overflow((size_t)count, (size_t)nblk, &n) || dtype_bytes(dt, n, &total))
        return RMP_ERR_COUNT;
    if (count > 0 && !dtype_buf_ok(buf, dt))
        return RMP_ERR_BUFFER;
    *dt_p = dt;
    *bytes_p = blk;
    return RMP_SUCCESS;
}

int coll_alias(const void *in, const void *out, ptrdiff_t off)
{
    if (!in || !out || in == RMP_IN_PLACE || out == RMP_IN_PLACE) /* RMP_BOTTOM: types place */
        return RMP_SUCCESS;
    return (const char *)out + off == (const char *)in ? RMP_ERR_BUFFER : RMP_SUCCESS;
}

int coll_reduction(int count, rmp_datatype_t type, rmp_op_t op, const dtype_t **dt_p)
{
    size_t bytes;
    int err = coll_buf(NULL, 0, type, 1, dt_p, &bytes); /* the type alone */
    if (!err && count < 0)
        err = RMP_ERR_COUNT;
    if (!err)
        err = op_check(op, (*dt_p)->base);
    return err;
}

/* The tag separates consecutive collectives on one communicator; all ranks call collectives
 * in the same order (as MPI requires, nonblocking ones included), so their counters agree. */
/* This call's tag into cl->tag; false in a persistent init's dry run (nothing runs). */
static bool coll_tag(coll_t *cl)
{
    if (coll_pmode.mode == PCOLL_DRY) { /* a persistent collective's init: checks only */
        coll_pmode.reached = true;
        return false;
    }
    if (coll_pmode.mode == PCOLL_START) { /* its start: the tag every rank took at init */
        cl->tag = coll_pmode.tag;
    } else {
        ctx_lock(&rmp_ctx);
        cl->tag = (int)(cl->comm->coll_seq++ & RMP_TAG_UB);
        ctx_unlock(&rmp_ctx);
    }
    return true;
}

sched_t *coll_sched(coll_t *cl)
{
    return coll_tag(cl) ? coll_sched_tagged(cl) : NULL;
}

sched_t *coll_sched_tagged(coll_t *cl)
{
    sched_t *s = sched_new(cl->comm, cl->tag);
    if (s)
        sched_label(s, coll_kind_name(cl->sig.kind));
    /* RMP_CHECK_COLLECTIVES: one predictable branch when off */
    if (__builtin_expect(rmp_ctx.cfg.check_coll, 0) && s && cl->sig.kind != CK_NONE)
        coll_check_build(s, cl);
    return s;
}

int coll_begin(coll_t *cl, coll_tune_t *t, int *alg, sched_t **s)
{
    int err = coll_algorithm(t, alg);
    if (err)
        return err;
    *s = coll_sched(cl);
    return *s ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

int coll_begin_lazy(coll_t *cl, coll_tune_t *t, int *alg, bool blocking)
{
    cl->blocking = blocking;
    int err = coll_algorithm(t, alg);
    if (err)
        return err;
    return coll_tag(cl) ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

int coll_block_named(const char *call, int err, rmp_request_t *req)
{
    if (err || *req == RMP_REQUEST_NULL) /* failed, or done without a request */
        return err;
    const char *prev = hang_enter(call);
    err = rmp_wait(req, RMP_STATUS_IGNORE);
    hang_leave(prev);
    return err;
}

/* ---- packed views ---- */

static void pack_blocks(const dtype_t *dt, int count, int nblk, const void *user, char *p)
{
    size_t blk = (size_t)count * dt->size;
    for (int i = 0; i < nblk; i++) /* block by block: count * nblk may not fit in an int */
        dtype_pack(dt, count, (const char *)user + (size_t)i * count * dt->extent, p + i * blk);
}

const char *coll_in(sched_t *s, const void *user, int count, int nblk, const dtype_t *dt)
{
    if (dt->contig)
        return user;
    char *p = sched_tmp(s, (size_t)count * dt->size * (size_t)nblk);
    if (p)
        pack_blocks(dt, count, nblk, user, p);
    return p;
}

typedef struct out_view {
    char *p;
    void *user;
    const dtype_t *dt;
    int count, nblk;
} out_view_t;

static void out_unpack(void *arg, int err)
{
    out_view_t *v = arg;
    if (err != RMP_SUCCESS && err != RMP_ERR_TRUNCATE) /* truncated: the blocks that fit count */
        return;
    size_t blk = (size_t)v->count * v->dt->size;
    for (int i = 0; i < v->nblk; i++)
        dtype_unpack(v->dt, v->count, v->p + i * blk, blk,
                     (char *)v->user + (size_t)i * v->count * v->dt->extent);
}

char *coll_out(sched_t *s, void *user, int count, int nblk, const dtype_t *dt, bool fill)
{
    if (dt->contig)
        return user;
    out_view_t *v = sched_tmp(s, sizeof(*v));
    char *p = sched_tmp(s, (size_t)count * dt->size * (size_t)nblk);
    if (!v || !p)
        return NULL;
    *v = (out_view_t){.p = p, .user = user, .dt = dt, .count = count, .nblk = nblk};
    sched_hold_type(s, dt);
    if (fill)
        pack_blocks(dt, count, nblk, user, p);
    sched_on_done(s, out_unpack, v);
    return p;
}

/* ---- vector views (the v-collectives) ---- */

int coll_vbuf(const void *buf, const int *counts, const int *displs, int n, rmp_datatype_t type,
              const dtype_t **dt_p)
{
    const dtype_t *dt = dtype_get(type, true);
    if (!counts || !displs)
        return RMP_ERR_ARG;
    if (!dt)
        return RMP_ERR_TYPE;
    size_t bytes, total = 0;
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0)
            return RMP_ERR_COUNT;
        if (dt->neg_extent && counts[i] > 0 && displs[i] != 0)
            return RMP_ERR_COUNT; /* a displacement in negative extents (dtype_t.neg_extent) */
        /* each block's span, and the offsets, must be representable (see coll_buf) */
        if (dtype_bytes(dt, (size_t)counts[i], &bytes) ||
            __builtin_add_overflow(total, bytes, &total) || total > PTRDIFF_MAX ||
            (size_t)(displs[i] < 0 ? -(long long)displs[i] : displs[i]) >
                PTRDIFF_MAX / (dt->extent ? dt->extent : 1))
            return RMP_ERR_COUNT;
        if (counts[i] > 0 && !dtype_block_ok(buf, (ptrdiff_t)displs[i] * dt->extent, dt))
            return RMP_ERR_BUFFER;
    }
    *dt_p = dt;
    return RMP_SUCCESS;
}

/* The blocks of a view: block i is counts[i] elements of dts[i] at user + offs[i] bytes
 * (copies in schedule memory: an output view unpacks from them when the schedule ends). */
typedef struct vblocks {
    void *user;
    const int *counts;
    const ptrdiff_t *offs;
    const dtype_t **dts;
    int n;
} vblocks_t;

typedef struct vview_out {
    vview_t v;
    vblocks_t b;
} vview_out_t;

/* Fills v for the blocks; blocks of contiguous types point into user memory, the others into
 * one packed buffer (packed from the user's blocks when fill). false: out of memory. */
static bool vview_make(sched_t *s, const vblocks_t *b, bool fill, vview_t *v)
{
    v->at = sched_tmp(s, sizeof(char *) * (size_t)b->n);
    v->bytes = sched_tmp(s, sizeof(size_t) * (size_t)b->n);
    if (!v->at || !v->bytes)
        return false;
    size_t packed = 0;
    for (int i = 0; i < b->n; i++) {
        v->bytes[i] = (size_t)b->counts[i] * b->dts[i]->size;
        packed += b->dts[i]->contig ? 0 : v->bytes[i];
    }
    char *p = packed ? sched_tmp(s, packed) : NULL;
    if (packed && !p)
        return false;
    for (int i = 0; i < b->n; i++) {
        char *u = (char *)b->user + b->offs[i];
        if (b->dts[i]->contig) {
            v->at[i] = u;
            continue;
        }
        v->at[i] = p;
        if (fill && b->counts[i] > 0)
            dtype_pack(b->dts[i], b->counts[i], u, p);
        p += v->bytes[i];
    }
    return true;
}

/* The blocks in schedule memory: byte offsets from displacements in extents (displs) or in
 * bytes (bdispls), one type for all (dt) or one per block (dts). false: out of memory. */
static bool vblocks_make(sched_t *s, void *user, const int *counts, const int *displs,
                         const int *bdispls, const dtype_t *dt, const dtype_t *const *dts, int n,
                         vblocks_t *b)
{
    int *c = sched_tmp(s, sizeof(int) * (size_t)n);
    ptrdiff_t *o = sched_tmp(s, sizeof(ptrdiff_t) * (size_t)n);
    const dtype_t **t = sched_tmp(s, sizeof(dtype_t *) * (size_t)n);
    if (!c || !o || !t)
        return false;
    for (int i = 0; i < n; i++) {
        c[i] = counts[i];
        t[i] = dts ? dts[i] : dt;
        if (i == 0 || dts)
            sched_hold_type(s, t[i]);
        o[i] = bdispls ? bdispls[i] : (ptrdiff_t)displs[i] * (ptrdiff_t)t[i]->extent;
    }
    *b = (vblocks_t){.user = user, .counts = c, .offs = o, .dts = t, .n = n};
    return true;
}

static void vout_unpack(void *arg, int err)
{
    vview_out_t *o = arg;
    if (err != RMP_SUCCESS && err != RMP_ERR_TRUNCATE)
        return;
    for (int i = 0; i < o->b.n; i++)
        if (o->b.counts[i] > 0 && !o->b.dts[i]->contig)
            dtype_unpack(o->b.dts[i], o->b.counts[i], o->v.at[i], o->v.bytes[i],
                         (char *)o->b.user + o->b.offs[i]);
}

static bool vview_in(sched_t *s, const vblocks_t *b, vview_t *v)
{
    return vview_make(s, b, true, v);
}

static bool vview_out(sched_t *s, const vblocks_t *b, bool fill, vview_t *v)
{
    if (!vview_make(s, b, fill, v))
        return false;
    vview_out_t *o = sched_tmp(s, sizeof(*o));
    if (!o)
        return false;
    *o = (vview_out_t){.v = *v, .b = *b};
    sched_on_done(s, vout_unpack, o);
    return true;
}

bool coll_vin(sched_t *s, const void *user, const int *counts, const int *displs, int n,
              const dtype_t *dt, vview_t *v)
{
    vblocks_t b;
    return vblocks_make(s, (void *)user, counts, displs, NULL, dt, NULL, n, &b) &&
           vview_in(s, &b, v);
}

bool coll_vout(sched_t *s, void *user, const int *counts, const int *displs, int n,
               const dtype_t *dt, bool fill, vview_t *v)
{
    vblocks_t b;
    return vblocks_make(s, user, counts, displs, NULL, dt, NULL, n, &b) &&
           vview_out(s, &b, fill, v);
}

int coll_wbuf(const void *buf, const int *counts, const int *bdispls,
              const rmp_datatype_t *types, int n, const dtype_t **dts)
{
    if (!counts || !bdispls || !types)
        return RMP_ERR_ARG;
    size_t bytes, total = 0;
    for (int i = 0; i < n; i++) {
        if (!(dts[i] = dtype_get(types[i], true)))
            return RMP_ERR_TYPE;
        if (counts[i] < 0)
            return RMP_ERR_COUNT;
        if (dtype_bytes(dts[i], (size_t)counts[i], &bytes) ||
            __builtin_add_overflow(total, bytes, &total) || total > PTRDIFF_MAX)
            return RMP_ERR_COUNT;
        if (counts[i] > 0 && !dtype_block_ok(buf, bdispls[i], dts[i]))
            return RMP_ERR_BUFFER;
    }
    return RMP_SUCCESS;
}

bool coll_win(sched_t *s, const void *user, const int *counts, const int *bdispls,
              const dtype_t *const *dts, int n, vview_t *v)
{
    vblocks_t b;
    return vblocks_make(s, (void *)user, counts, NULL, bdispls, NULL, dts, n, &b) &&
           vview_in(s, &b, v);
}

bool coll_wout(sched_t *s, void *user, const int *counts, const int *bdispls,
               const dtype_t *const *dts, int n, bool fill, vview_t *v)
{
    vblocks_t b;
    return vblocks_make(s, user, counts, NULL, bdispls, NULL, dts, n, &b) &&
           vview_out(s, &b, fill, v);
}

/* ---- algorithm choice ---- */

/* The knob's set (runtime/knobs.c) must list the collective's algs[] names: a name the
 * collective does not know means the two lists drifted apart, which no user can fix. */
int coll_algorithm(coll_tune_t *t, int *alg)
{
    int f = atomic_load_explicit(&t->forced, memory_order_acquire);
    if (f == 0) {
        char var[64];
        snprintf(var, sizeof(var), "RMP_COLL_%s", t->name);
        const knob_val_t *v = knob_lookup(rmp_ctx.cfg.knobs, var); /* validated at rmp_init */
        f = v && !v->set ? 1 : -1;
        for (int k = 0; v && v->set && f < 0 && t->algs[k]; k++)
            if (!strcmp(v->text, t->algs[k]))
                f = k + 1;
        int expected = 0;
        if (atomic_compare_exchange_strong(&t->forced, &expected, f) && f < 0)
            core_error(&rmp_ctx, "internal error: %s=%s: %s", var, v ? v->text : "",
                       v ? "runtime/knobs.c accepts an algorithm this collective lacks"
                         : "runtime/knobs.c has no such knob");
        f = atomic_load(&t->forced);
    }
    if (f < 0)
        return RMP_ERR_INTERNAL;
    *alg = f - 1;
    if (__builtin_expect(rmp_prof_on, 0))
        prof_alg(t->name, t->algs[*alg]);
    return RMP_SUCCESS;
}

long coll_threshold(atomic_long *cache, const char *name, long dflt)
{
    long c = atomic_load_explicit(cache, memory_order_relaxed);
    if (c >= 0)
        return c;
    char var[64];
    snprintf(var, sizeof(var), "RMP_COLL_%s", name);
    const knob_val_t *v = knob_lookup(rmp_ctx.cfg.knobs, var); /* validated at rmp_init */
    long x = v && v->set ? (long)v->num : dflt;
    if (!v)
        core_error(&rmp_ctx, "internal error: runtime/knobs.c has no knob %s", var);
    atomic_store_explicit(cache, x, memory_order_relaxed);
    return x;
}

size_t coll_segment(size_t dflt)
{
    static atomic_long seg = -1;
    long v = coll_threshold(&seg, "SEGMENT", 0);
    return v > 0 ? (size_t)v : dflt;
}

int coll_pow2_floor(int n)
{
    int p = 1;
    while (p <= n / 2)
        p <<= 1;
    return p;
}
