/* type_env.h — what a derived type remembers of how it was built (its MPI "envelope" and
 * "contents": the combiner, the integer, address and datatype arguments), for
 * rmp_type_get_envelope / rmp_type_get_contents (type_ctor.c). The constructors of
 * datatype.c and type_ctor.c record it; the table's slot owns it (freed when the slot is
 * reused, or at rmp_finalize). The datatypes it names are held by the type as its layout's
 * are (type_slot.c: a freed type keeps its slot while another one names it). */
#ifndef RMP_TYPE_ENV_H
#define RMP_TYPE_ENV_H

#include "core.h"

typedef struct dt_env {
    int combiner; /* RMP_COMBINER_* */
    int ni, na, nt;
    int *ints;
    ptrdiff_t *addrs;
    rmp_datatype_t *types;
} dt_env_t;

/* One allocation for the record and its three arrays (uninitialized), NULL when out of
 * memory. */
dt_env_t *dtype_env_alloc(int combiner, int ni, int na, int nt);
/* A copy of e (NULL for NULL or no memory). */
dt_env_t *dtype_env_copy(const dt_env_t *e);
void dtype_env_free(dt_env_t *e);
/* (type_slot.c) After a constructor made *h (rc its result): gives the type env (replacing
 * the one it has). env NULL (no memory) frees the new type and returns RMP_ERR_NO_MEM;
 * rc != RMP_SUCCESS frees env and returns rc. Takes the runtime lock. */
int dtype_env_attach(int rc, rmp_datatype_t *h, dt_env_t *env);
/* A copy of builtin b under a handle of its own that records env (the F90 types: builtin,
 * never freed by the user). Caller holds the runtime lock; on error env is not taken. */
int dtype_named_copy(rmp_datatype_t b, dt_env_t *env, rmp_datatype_t *out);

#endif
