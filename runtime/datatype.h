/* datatype.h — lifetime of the datatype table (datatype.c); rmp_init calls dtype_init after
 * the context is set up, rmp_finalize calls dtype_fini. Lookups, pack and unpack are declared
 * in core.h. */
#ifndef RMP_DATATYPE_H
#define RMP_DATATYPE_H

#include "core.h"

/* Handles: 1..11 builtin (rmp.h), derived from DT_FIRST_DERIVED on. The table is allocated
 * once with room for DT_MAX_DERIVED derived types and never moves, so a dtype_t pointer kept
 * by a pending request stays valid while the table is used by other threads. */
#define DT_FIRST_DERIVED 64
#define DT_MAX_DERIVED   65536
#define DT_TABLE_CAP     (DT_FIRST_DERIVED + DT_MAX_DERIVED)

/* Allocate the table and fill in the builtins. RMP_SUCCESS or RMP_ERR_NO_MEM. */
int dtype_init(rmp_ctx_t *c);
/* Free the table (every handle becomes invalid). */
void dtype_fini(rmp_ctx_t *c);

#endif
