/* op.h — reduction operations (op.c: the builtin kernels; op_user.c: user ops and op_apply,
 * the one entry the schedules reduce through). */
#ifndef RMP_OP_H
#define RMP_OP_H

#include <stdbool.h>
#include <stddef.h>

#include "dtype.h"

/* RMP_SUCCESS, RMP_ERR_OP (bad op or op undefined for the base type). */
int op_check(rmp_op_t op, dt_base_t base); /* op_user.c: user ops fit every type */
int op_builtin_check(rmp_op_t op, dt_base_t base); /* op.c: the builtin ops' table */
/* inout[i] = in[i] (op) inout[i] for n base elements. */
void op_reduce(rmp_op_t op, dt_base_t base, const void *in, void *inout, size_t n);
/* out = in op in2, elementwise; out must not overlap either input. */
void op_reduce3(rmp_op_t op, dt_base_t base, const void *in, const void *in2, void *out,
                size_t n);

/* The reduction steps of the schedules (op_user.c): a builtin op over n base elements of
 * dt->base, a user op (rmp_op_create) over n elements of dt. RMP_SUCCESS, or RMP_ERR_NO_MEM
 * when a user op on a non-contiguous type found no memory to unpack into. */
int op_apply(rmp_op_t op, const dtype_t *dt, const void *in, void *inout, size_t n);
int op_apply3(rmp_op_t op, const dtype_t *dt, const void *in, const void *in2, void *out,
              size_t n);
bool op_is_user(rmp_op_t op);
bool op_commutes(rmp_op_t op); /* builtins do; a user op as created */
/* A collective in flight that applies op (a user op) holds it, so that rmp_op_free meanwhile
 * does not take it away (lock held; builtins: nothing). */
void op_hold(rmp_op_t op);
void op_unhold(rmp_op_t op);

#endif
