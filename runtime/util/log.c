/* log.c — the runtime's lines on stderr (see log.h): one fprintf per line, so that lines of
 * different ranks and threads never interleave within a line. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

#include "core.h"

void core_vlog(rmp_ctx_t *c, const char *fmt, va_list ap)
{
    char line[1024];
    vsnprintf(line, sizeof(line), fmt, ap);
    if (atomic_load(&c->state) == 0 && c->size == 0)
        fprintf(stderr, "rmp: %s\n", line);
    else
        fprintf(stderr, "rmp[%d]: %s\n", c->rank, line);
}

void core_verbose(rmp_ctx_t *c, const char *fmt, ...)
{
    if (!c->cfg.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    core_vlog(c, fmt, ap);
    va_end(ap);
}

void core_error(rmp_ctx_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    core_vlog(c, fmt, ap);
    va_end(ap);
}

void log_job(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "rmp: %s\n", line);
}
