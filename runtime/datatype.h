/* datatype.h — lifetime of the datatype table (datatype.c); rmp_init calls dtype_init after
 * the context is set up, rmp_finalize calls dtype_fini. Lookups, pack and unpack are declared
 * in core.h. */
#ifndef RMP_DATATYPE_H
#define RMP_DATATYPE_H

#include "core.h"

/* The table's layout (DT_FIRST_DERIVED, DT_TABLE_CAP) and dtype_get are in core.h. */

/* Allocate the table and fill in the builtins. RMP_SUCCESS or RMP_ERR_NO_MEM. */
int dtype_init(rmp_ctx_t *c);
/* Free the table (every handle becomes invalid). */
void dtype_fini(rmp_ctx_t *c);
/* A new handle for derived type h, live or freed (its descriptor and construction record
 * copied, committed): what rmp_type_get_contents returns for a derived old type.
 * RMP_SUCCESS or RMP_ERR_NO_MEM. */
int dtype_clone(rmp_datatype_t h, rmp_datatype_t *out);

#endif
