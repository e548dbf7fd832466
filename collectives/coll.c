/* coll.c — what every collective shares (see coll.h): argument checks, the per-call tag and
 * schedule, packed views of typed user buffers, and the algorithm choice from the RMP_COLL_* knobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int coll_comm(rmp_comm_t h, coll_t *cl)
{
    int err = ctx_check();
    if (err)
        return err;
    ctx_lock(&rmp_ctx);
    comm_t *c = comm_get(h);
    if (c)
        *cl = (coll_t){.comm = c, .rank = c->rank, .size = c->size};
    ctx_unlock(&rmp_ctx);
    return c ? RMP_SUCCESS : RMP_ERR_COMM;
}

int coll_root(const coll_t *cl, int root)
{
    return root < 0 || root >= cl->size ? RMP_ERR_ROOT : RMP_SUCCESS;
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
    if (count > 0 && (!buf || buf == RMP_IN_PLACE))
        return RMP_ERR_BUFFER;
    *dt_p = dt;
    *bytes_p = blk;
    return RMP_SUCCESS;
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
sched_t *coll_sched(coll_t *cl)
{
    ctx_lock(&rmp_ctx);
    cl->tag = (int)(cl->comm->coll_seq++ & RMP_TAG_UB);
    ctx_unlock(&rmp_ctx);
    return sched_new(cl->comm, cl->tag);
}

int coll_begin(coll_t *cl, coll_tune_t *t, int *alg, sched_t **s)
{
    int err = coll_algorithm(t, alg);
    if (err)
        return err;
    *s = coll_sched(cl);
    return *s ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

int coll_block(int err, rmp_request_t *req)
{
    return err ? err : rmp_wait(req, RMP_STATUS_IGNORE);
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
        /* each block's span, and the offsets, must be representable (see coll_buf) */
        if (dtype_bytes(dt, (size_t)counts[i], &bytes) ||
            __builtin_add_overflow(total, bytes, &total) || total > PTRDIFF_MAX ||
            (size_t)(displs[i] < 0 ? -(long long)displs[i] : displs[i]) >
                PTRDIFF_MAX / (dt->extent ? dt->extent : 1))
            return RMP_ERR_COUNT;
        if (counts[i] > 0 && (!buf || buf == RMP_IN_PLACE))
            return RMP_ERR_BUFFER;
    }
    *dt_p = dt;
    return RMP_SUCCESS;
}

typedef struct vview_out {
    vview_t v;
    void *user;
    const int *counts, *displs; /* copies in schedule memory */
    const dtype_t *dt;
    int n;
} vview_out_t;

static const char *vblock_user(const void *user, const int *displs, int i, const dtype_t *dt)
{
    return (const char *)user + (ptrdiff_t)displs[i] * (ptrdiff_t)dt->extent;
}

/* Fills v for n blocks; contiguous types point into user memory, others into one packed
 * buffer (packed from the user's blocks when fill). false: out of memory. */
static bool vview_make(sched_t *s, const void *user, const int *counts, const int *displs, int n,
                       const dtype_t *dt, bool fill, vview_t *v)
{
    v->at = sched_tmp(s, sizeof(char *) * (size_t)n);
    v->bytes = sched_tmp(s, sizeof(size_t) * (size_t)n);
    if (!v->at || !v->bytes)
        return false;
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += v->bytes[i] = (size_t)counts[i] * dt->size;
    char *p = dt->contig ? NULL : sched_tmp(s, total);
    if (!dt->contig && !p)
        return false;
    for (int i = 0; i < n; i++) {
        if (dt->contig) {
            v->at[i] = (char *)vblock_user(user, displs, i, dt);
            continue;
        }
        v->at[i] = p;
        if (fill && counts[i] > 0)
            dtype_pack(dt, counts[i], vblock_user(user, displs, i, dt), p);
        p += v->bytes[i];
    }
    return true;
}

bool coll_vin(sched_t *s, const void *user, const int *counts, const int *displs, int n,
              const dtype_t *dt, vview_t *v)
{
    return vview_make(s, user, counts, displs, n, dt, true, v);
}

static void vout_unpack(void *arg, int err)
{
    vview_out_t *o = arg;
    if (err != RMP_SUCCESS && err != RMP_ERR_TRUNCATE)
        return;
    for (int i = 0; i < o->n; i++)
        if (o->counts[i] > 0)
            dtype_unpack(o->dt, o->counts[i], o->v.at[i], o->v.bytes[i],
                         (char *)vblock_user(o->user, o->displs, i, o->dt));
}

bool coll_vout(sched_t *s, void *user, const int *counts, const int *displs, int n,
               const dtype_t *dt, bool fill, vview_t *v)
{
    if (!vview_make(s, user, counts, displs, n, dt, fill, v))
        return false;
    if (dt->contig)
        return true;
    vview_out_t *o = sched_tmp(s, sizeof(*o));
    int *cp = sched_tmp(s, sizeof(int) * 2 * (size_t)n);
    if (!o || !cp)
        return false;
    memcpy(cp, counts, sizeof(int) * (size_t)n);
    memcpy(cp + n, displs, sizeof(int) * (size_t)n);
    *o = (vview_out_t){.v = *v, .user = user, .counts = cp, .displs = cp + n, .dt = dt, .n = n};
    sched_on_done(s, vout_unpack, o);
    return true;
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

int coll_pow2_floor(int n)
{
    int p = 1;
    while (p <= n / 2)
        p <<= 1;
    return p;
}
