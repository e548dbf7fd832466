/* ctx.c — the one runtime context (the check every public call starts with, ctx_check, is
 * inline in core.h). A file of its own so that the modules every call reaches (comm.c,
 * datatype.c, ...) depend on it, not on init.c, which calls them. */
#include "core.h"

rmp_ctx_t rmp_ctx;
