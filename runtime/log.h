/* log.h — the runtime's lines on stderr: errors always, decisions under RMP_VERBOSE, each
 * prefixed "rmp[rank]: " once the rank is known ("rmp: " before). Transports see the same
 * core_error/core_verbose through transport/transport.h. */
#ifndef RMP_LOG_H
#define RMP_LOG_H

struct rmp_ctx;

/* One line if RMP_VERBOSE is set. */
void core_verbose(struct rmp_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* One error line (always). */
void core_error(struct rmp_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line prefixed "rmp: " whatever the state: for what concerns the whole job (a refused
 * RMP_* value), printed by one rank. */
void log_job(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
