/* datatype.h — lifetime of the datatype table (datatype.c); rmp_init calls dtype_init after
 * the context is set up, rmp_finalize calls dtype_fini. Lookups, pack and unpack are declared
 * in dtype.h. */
#ifndef RMP_DATATYPE_H
#define RMP_DATATYPE_H

#include "core.h"

/* The table's layout (DT_FIRST_DERIVED, DT_TABLE_CAP) is in dtype.h, dtype_get in ctx.h. */

/* Allocate the table and fill in the builtins. RMP_SUCCESS or RMP_ERR_NO_MEM. */
int dtype_init(rmp_ctx_t *c);
/* Free the table (every handle becomes invalid). */
void dtype_fini(rmp_ctx_t *c);
/* A new handle for derived type h, live or freed (its descriptor and construction record
 * copied, committed): what rmp_type_get_contents returns for a derived old type.
 * RMP_SUCCESS or RMP_ERR_NO_MEM. */
int dtype_clone(rmp_datatype_t h, rmp_datatype_t *out);

/* Slots (type_slot.c; lock held). A new slot for t, its blocks and record now owned by the
 * table, and what it names held: RMP_SUCCESS or RMP_ERR_NO_MEM (no slot left). */
int dtype_store(dtype_t *t, rmp_datatype_t *newtype);
/* h's record becomes env (its types held, the old record's let go). */
struct dt_env;
void dtype_set_env(rmp_datatype_t h, struct dt_env *env);
/* The user's handle h is freed: its slot goes back once nothing holds it. */
void dtype_drop(rmp_datatype_t h);

/* n blocks: counts[i] elements of types[i] (or of one type, all the same) at disps[i] bytes,
 * or at idisps[i] extents of that type. Optionally resized to (lb, extent). */
/* The block kind (type_blocks.c, lock held). */
typedef struct dt_spec {
    int n;
    const int *counts;
    const ptrdiff_t *disps;   /* bytes, or NULL */
    const int *idisps;        /* in extents of the type, when disps is NULL */
    const rmp_datatype_t *types; /* one per block, or NULL */
    rmp_datatype_t type;      /* when types is NULL and not a struct */
    bool structure;           /* a type per block: none needed when there are no blocks */
    bool resize;
    ptrdiff_t lb, extent;
} dt_spec_t;

/* t's blocks (t->blocks, t->nblocks, owned by t even on error) from sp. RMP_ERR_COUNT,
 * RMP_ERR_TYPE, RMP_ERR_NO_MEM. */
int dtype_blocks_fill(const dt_spec_t *sp, dtype_t *t);
/* The rest of t from its blocks: size, bounds, base, contiguity. */
int dtype_blocks_layout(dtype_t *t);

/* The size of a pair type's value member (MINLOC/MAXLOC records), 0 for other bases. */
size_t dtype_pair_value_size(dt_base_t b);

#endif
