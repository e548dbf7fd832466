/* op_local.c — reductions without communication: rmp_reduce_local (MPI_Reduce_local) applies
 * a builtin or user op to two local buffers through the same kernels the collectives use
 * (op_apply), and rmp_op_commutative says whether an op commutes. */
#include <stdlib.h>

#include "core.h"

/* inout = in op inout over count elements of t (bytes of packed data, > 0). A contiguous
 * type is reduced where it lies; any other is packed, reduced, and unpacked back (which
 * writes only the type's data, never its gaps). */
static int local_apply(rmp_op_t op, const dtype_t *t, const void *in, void *inout, int count,
                       size_t bytes)
{
    bool user = op_is_user(op);
    /* a builtin op runs over base elements, a user op over elements of the type */
    size_t n = user ? (size_t)count : bytes / dtype_base_size(t->base);
    if (t->contig)
        return op_apply(op, t, in, inout, n);
    char *pin = malloc(bytes), *pio = pin ? malloc(bytes) : NULL;
    int err = RMP_ERR_NO_MEM;
    if (pio) {
        dtype_pack(t, count, in, pin);
        dtype_pack(t, count, inout, pio);
        err = op_apply(op, t, pin, pio, n);
        if (!err)
            dtype_unpack(t, count, pio, bytes, inout);
    }
    free(pin);
    free(pio);
    return err;
}

int rmp_reduce_local(const void *inbuf, void *inoutbuf, int count, rmp_datatype_t type,
                     rmp_op_t op)
{
    int err = ctx_check();
    if (err)
        return err;
    if (count < 0)
        return RMP_ERR_COUNT;
    const dtype_t *t = dtype_get(type, true);
    if (!t)
        return RMP_ERR_TYPE;
    size_t bytes;
    err = dtype_bytes(t, (size_t)count, &bytes);
    if (err)
        return err;
    /* MPI_IN_PLACE means nothing here, and in and inout may not be one buffer (the kernels
     * read one while writing the other) */
    if (count > 0 && (!dtype_buf_ok(inbuf, t) || !dtype_buf_ok(inoutbuf, t) || inbuf == inoutbuf))
        return RMP_ERR_BUFFER;
    ctx_lock(&rmp_ctx);
    err = op_check(op, t->base); /* a user op fits every type; a builtin its table's pairs */
    if (!err)
        op_hold(op); /* a concurrent rmp_op_free leaves the op callable until we are done */
    ctx_unlock(&rmp_ctx);
    if (err)
        return err;
    if (bytes > 0)
        err = local_apply(op, t, inbuf, inoutbuf, count, bytes);
    ctx_lock(&rmp_ctx);
    op_unhold(op);
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_op_commutative(rmp_op_t op, int *commute)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!commute)
        return RMP_ERR_ARG;
    if (op >= RMP_SUM && op <= RMP_LXOR) {
        *commute = 1;
        return RMP_SUCCESS;
    }
    if (op == RMP_REPLACE || op == RMP_NO_OP) { /* a op b = a (b): the order matters */
        *commute = 0;
        return RMP_SUCCESS;
    }
    ctx_lock(&rmp_ctx);
    /* outside the builtins' range, op_check succeeds exactly for a live user op */
    err = op_check(op, DT_NONE);
    if (!err)
        *commute = op_commutes(op) ? 1 : 0;
    ctx_unlock(&rmp_ctx);
    return err;
}
