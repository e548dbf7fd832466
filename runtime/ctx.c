/* ctx.c — the one runtime context and the check every public call starts with. A file of its
 * own so that the modules every call reaches (comm.c, datatype.c, ...) depend on it, not on
 * init.c, which calls them. */
#include "core.h"

rmp_ctx_t rmp_ctx;

int ctx_check(void)
{
    return atomic_load(&rmp_ctx.state) == 1 ? RMP_SUCCESS : RMP_ERR_NOT_INITIALIZED;
}
