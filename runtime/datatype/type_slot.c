/* type_slot.c — the lifetime of a derived type's slot in the datatype table. A slot comes
 * from the table's handle pool (hpool.h) and goes back to it once its type was freed and
 * nothing holds it any more (dtype_t.refs): no type built on it or naming it in its record
 * (whose layout or contents still need it), no receive in flight on it (dtype_hold). */
#include <stdlib.h>

#include "datatype.h"
#include "objmeta.h"
#include "type_env.h"

/* Add delta to the refs of every derived type t names: its layout's and its record's. */
static void dt_refs(rmp_ctx_t *c, const dtype_t *t, int delta);

/* Slot h (freed, refs 0) back to the pool, and what it held released in turn. */
static void dt_release(rmp_ctx_t *c, int h)
{
    dtype_t *t = &c->dtypes[h];
    dt_refs(c, t, -1);
    free(t->blocks);
    dtype_env_free(t->env);
    *t = (dtype_t){0};
    hpool_put(&c->dtype_pool, h);
}

static void dt_ref(rmp_ctx_t *c, int h, int delta)
{
    if (h < DT_FIRST_DERIVED)
        return; /* builtins and synonyms live as long as the table */
    dtype_t *o = &c->dtypes[h];
    o->refs += delta;
    if (o->refs == 0 && !o->in_use)
        dt_release(c, h);
}

static void dt_refs(rmp_ctx_t *c, const dtype_t *t, int delta)
{
    if (t->builtin)
        return; /* a named copy (type_match.c) records builtins only */
    for (int i = 0; t->env && i < t->env->nt; i++)
        dt_ref(c, t->env->types[i], delta);
    if (t->nblocks == 0)
        dt_ref(c, t->old, delta);
    for (int b = 0; b < t->nblocks; b++)
        dt_ref(c, t->blocks[b].old, delta);
}

int dtype_store(dtype_t *t, rmp_datatype_t *newtype)
{
    int slot = hpool_get(&rmp_ctx.dtype_pool);
    if (slot < 0)
        return RMP_ERR_NO_MEM;
    t->refs = 0;
    rmp_ctx.dtypes[slot] = *t;
    dt_refs(&rmp_ctx, t, +1);
    *newtype = slot;
    return RMP_SUCCESS;
}

void dtype_set_env(rmp_datatype_t h, struct dt_env *env)
{
    dtype_t *t = &rmp_ctx.dtypes[h];
    struct dt_env *was = t->env;
    t->env = env; /* the new record's types held before the old one's are let go */
    for (int i = 0; i < env->nt; i++)
        dt_ref(&rmp_ctx, env->types[i], +1);
    for (int i = 0; was && i < was->nt; i++)
        dt_ref(&rmp_ctx, was->types[i], -1);
    dtype_env_free(was);
}

/* The user's reference to h is gone (lock held). */
void dtype_drop(rmp_datatype_t h)
{
    dtype_t *t = &rmp_ctx.dtypes[h];
    t->in_use = false;
    t->committed = false;
    objmeta_forget(OBJ_TYPE, h); /* a later type on the handle starts unnamed */
    if (t->refs == 0)
        dt_release(&rmp_ctx, h);
}

void dtype_hold(const dtype_t *t, int delta)
{
    dt_ref(&rmp_ctx, (int)(t - rmp_ctx.dtypes), delta);
}

int rmp_type_free(rmp_datatype_t *type)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!type)
        return RMP_ERR_ARG;
    ctx_lock(&rmp_ctx);
    const dtype_t *t = dtype_get(*type, false);
    if (!t || t->builtin) {
        err = RMP_ERR_TYPE;
    } else {
        dtype_drop(*type);
        *type = RMP_DATATYPE_NULL;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

/* A constructor's record joins its new type, or the type goes (type_env.h): here, beside the
 * slot's other changes of life. */
int dtype_env_attach(int rc, rmp_datatype_t *h, dt_env_t *env)
{
    if (rc != RMP_SUCCESS) {
        free(env);
        return rc;
    }
    ctx_lock(&rmp_ctx);
    if (env) {
        dtype_set_env(*h, env);
    } else { /* no record, no type: undo the constructor (its slot is free again) */
        dtype_drop(*h);
        rc = RMP_ERR_NO_MEM;
    }
    ctx_unlock(&rmp_ctx);
    if (rc)
        *h = RMP_DATATYPE_NULL;
    return rc;
}
