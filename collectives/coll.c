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
