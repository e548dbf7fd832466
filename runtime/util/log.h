/* log.h — the runtime's lines on stderr: errors always, decisions under RMP_VERBOSE, each
 * prefixed "rmp[rank]: " once the rank is known ("rmp: " before). Transports print through
 * tp_error/tp_verbose (transport/tp.c), which reach core_vlog by their env's callback. */
#ifndef RMP_LOG_H
#define RMP_LOG_H

#include <stdarg.h>

struct rmp_ctx;

/* One line, whatever RMP_VERBOSE says. */
void core_vlog(struct rmp_ctx *ctx, const char *fmt, va_list ap);
/* One line if RMP_VERBOSE is set. */
void core_verbose(struct rmp_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* One error line (always). */
void core_error(struct rmp_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line prefixed "rmp: " whatever the state: for what concerns the whole job (a refused
 * RMP_* value), printed by one rank. */
void log_job(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
