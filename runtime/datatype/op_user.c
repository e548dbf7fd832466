/* op_user.c — user-defined reductions (rmp_op_create) and the one entry point the schedules
 * reduce through, op_apply: a builtin op runs its kernel over base elements; a user op is
 * called as MPI calls it, fn(in, inout, &len, &type) computing inout = in op inout over len
 * elements of the call's datatype (len a long long for rmp_op_create_c's), in the type's own
 * memory layout (packed data of a non-contiguous type is unpacked around the call). Whether an op commutes decides whether
 * the collectives may combine in any order (op_commutes). A freed op stays callable by the
 * calls in flight that hold it (op_hold, MPI's rule): its slot is given back when the last of
 * them ends. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define OP_USER_FIRST 64  /* handles below are builtin (rmp.h) */
#define OP_USER_MAX 1024

typedef struct user_op {
    rmp_user_function *fn;
    rmp_user_function_c *fn_c; /* rmp_op_create_c's: called with a long long len, fn NULL */
    bool commute, in_use;
    bool freed; /* by rmp_op_free: no new call takes it, calls in flight still apply it */
    int holds;  /* calls in flight that apply it (op_hold) */
} user_op_t;

static user_op_t user_ops[OP_USER_MAX];
static hpool_t user_op_pool = {.first = 0, .limit = OP_USER_MAX}; /* its indices */

/* The last call holding user op u (freed) let it go: its index is free again. */
static void user_op_release(user_op_t *u)
{
    *u = (user_op_t){0};
    hpool_put(&user_op_pool, (int)(u - user_ops));
}

/* The user op behind handle op that a call already holds (freed since, maybe), or NULL. */
static const user_op_t *user_held(rmp_op_t op)
{
    if (op < OP_USER_FIRST || op >= OP_USER_FIRST + OP_USER_MAX)
        return NULL;
    const user_op_t *u = &user_ops[op - OP_USER_FIRST];
    return u->in_use ? u : NULL;
}

/* The user op for a new call: held and not freed, or NULL. */
static const user_op_t *user_get(rmp_op_t op)
{
    const user_op_t *u = user_held(op);
    return u && !u->freed ? u : NULL;
}

bool op_is_user(rmp_op_t op)
{
    return user_held(op) != NULL;
}

int op_check(rmp_op_t op, dt_base_t base)
{
    return user_get(op) ? RMP_SUCCESS : op_builtin_check(op, base);
}

bool op_commutes(rmp_op_t op)
{
    const user_op_t *u = user_held(op);
    return !u || u->commute;
}

static int op_create(rmp_user_function *fn, rmp_user_function_c *fn_c, int commute, rmp_op_t *op)
{
    int err = ctx_check();
    if (err)
        return err;
    if ((!fn && !fn_c) || !op)
        return RMP_ERR_ARG;
    ctx_lock(&rmp_ctx);
    int i = hpool_get(&user_op_pool);
    if (i < 0) {
        err = RMP_ERR_NO_MEM;
    } else {
        user_ops[i] = (user_op_t){.fn = fn, .fn_c = fn_c, .commute = commute != 0, .in_use = true};
        *op = OP_USER_FIRST + i;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_op_create(rmp_user_function *fn, int commute, rmp_op_t *op)
{
    return op_create(fn, NULL, commute, op);
}

int rmp_op_create_c(rmp_user_function_c *fn, int commute, rmp_op_t *op)
{
    return op_create(NULL, fn, commute, op);
}

int rmp_op_free(rmp_op_t *op)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!op)
        return RMP_ERR_ARG;
    ctx_lock(&rmp_ctx);
    if (!user_get(*op)) {
        err = RMP_ERR_OP; /* builtins and stale handles */
    } else {
        user_op_t *u = &user_ops[*op - OP_USER_FIRST];
        u->freed = true;
        if (u->holds == 0)
            user_op_release(u);
        *op = RMP_OP_NULL;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

void op_hold(rmp_op_t op)
{
    if (user_held(op))
        user_ops[op - OP_USER_FIRST].holds++;
}

void op_unhold(rmp_op_t op)
{
    if (!user_held(op))
        return;
    user_op_t *u = &user_ops[op - OP_USER_FIRST];
    if (--u->holds == 0 && u->freed)
        user_op_release(u); /* the last call that applied a freed op ended */
}

/* n elements of dt at packed p as the type lays them out, in fresh memory covering where
 * their data lies; *base gets the origin to hand the user (NULL: out of memory). */
static char *unpacked(const dtype_t *dt, size_t n, const void *p, char **base)
{
    size_t span = (n - 1) * dt->extent + (size_t)(dt->true_ub - dt->true_lb);
    char *mem = calloc(1, span ? span : 1);
    if (!mem)
        return NULL;
    *base = mem - dt->true_lb;
    dtype_unpack(dt, (int)n, p, n * dt->size, *base);
    return mem;
}

static int user_call(const user_op_t *u, const dtype_t *dt, const void *in, void *inout,
                     size_t n)
{
    rmp_datatype_t h = (rmp_datatype_t)(dt - rmp_ctx.dtypes);
    if (u->fn_c && dt->contig) { /* a long long len: one call whatever n */
        long long len = (long long)n;
        u->fn_c((void *)in, inout, &len, &h);
        return RMP_SUCCESS;
    }
    if (dt->contig) {
        for (size_t done = 0; done < n;) { /* len is an int */
            int len = n - done > INT32_MAX ? INT32_MAX : (int)(n - done);
            u->fn((char *)in + done * dt->size, (char *)inout + done * dt->size, &len, &h);
            done += (size_t)len;
        }
        return RMP_SUCCESS;
    }
    if (n > INT32_MAX)
        return RMP_ERR_COUNT;
    char *bi, *bo, *mi = unpacked(dt, n, in, &bi), *mo = mi ? unpacked(dt, n, inout, &bo) : NULL;
    if (mo) {
        int len = (int)n;
        long long len_c = len;
        if (u->fn_c)
            u->fn_c(bi, bo, &len_c, &h);
        else
            u->fn(bi, bo, &len, &h);
        dtype_pack(dt, len, bo, inout);
    }
    free(mi);
    free(mo);
    return mo ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

int op_apply(rmp_op_t op, const dtype_t *dt, const void *in, void *inout, size_t n)
{
    const user_op_t *u = user_held(op);
    if (!u) {
        op_reduce(op, dt->base, in, inout, n);
        return RMP_SUCCESS;
    }
    return n ? user_call(u, dt, in, inout, n) : RMP_SUCCESS;
}

int op_apply3(rmp_op_t op, const dtype_t *dt, const void *in, const void *in2, void *out,
              size_t n)
{
    if (!user_held(op)) {
        op_reduce3(op, dt->base, in, in2, out, n);
        return RMP_SUCCESS;
    }
    memcpy(out, in2, n * dt->size); /* out overlaps neither input */
    return op_apply(op, dt, in, out, n);
}
