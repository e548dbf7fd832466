/* tp.c — what every transport shares: its logging (through the core's vlog callback, so that
 * lines carry the rank and obey RMP_VERBOSE) and the default operations a transport with
 * nothing to do there puts in its ops table (transport.h: no operation is ever NULL). */
#include <stdarg.h>

#include "transport/transport.h"

static void tp_vlog(const tp_t *tp, tp_log_t level, const char *fmt, va_list ap)
{
    tp->env->up->vlog(tp->env->core, level, fmt, ap);
}

void tp_error(const tp_t *tp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tp_vlog(tp, TP_LOG_ERROR, fmt, ap);
    va_end(ap);
}

void tp_verbose(const tp_t *tp, const char *fmt, ...)
{
    if (!tp->env->verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    tp_vlog(tp, TP_LOG_VERBOSE, fmt, ap);
    va_end(ap);
}

void tp_explain(const tp_t *tp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tp_vlog(tp, TP_LOG_EXPLAIN, fmt, ap);
    va_end(ap);
}

static void tp_quiet(const tp_t *tp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tp_vlog(tp, TP_LOG_QUIET, fmt, ap);
    va_end(ap);
}

void tp_quiet_failure(const tp_t *tp)
{
    tp_quiet(tp, "%s", ""); /* nothing is printed at this level */
}

int tp_no_addr(tp_t *tp, const void **blob_p, size_t *len_p)
{
    *blob_p = NULL;
    *len_p = 0;
    return RMP_SUCCESS;
}

int tp_no_wireup(tp_t *tp)
{
    return RMP_SUCCESS;
}

int tp_no_connect(tp_t *tp, int peer)
{
    return RMP_SUCCESS;
}

int tp_no_wait_fd(tp_t *tp)
{
    return -1;
}

void tp_no_disarm(tp_t *tp)
{
}

void tp_no_abandon(tp_t *tp)
{
}

/* A capability bit is a promise that its operations are there (transport.h): a transport that
 * sets one without them is a bug caught at open, not a NULL call later. */
int tp_caps_check(tp_t *tp)
{
    const tp_ops_t *o = tp->ops;
    const char *missing = NULL;
    if ((tp->caps & TP_CAP_GET) && (!o->mem_reg || !o->get))
        missing = "TP_CAP_GET without mem_reg and get";
    else if ((tp->caps & TP_CAP_SLEEP_ALONE) &&
             (!o->arm_alone || !o->wait_alone || !o->wake_alone))
        missing = "TP_CAP_SLEEP_ALONE without arm_alone, wait_alone and wake_alone";
    else if ((tp->caps & TP_CAP_ASLEEP) && !o->asleep)
        missing = "TP_CAP_ASLEEP without asleep";
    else if ((tp->caps & TP_CAP_DROP) && !o->drop)
        missing = "TP_CAP_DROP without drop";
    if (!missing)
        return RMP_SUCCESS;
    tp_error(tp, "transport %s: %s (a bug in the transport)", o->name, missing);
    return RMP_ERR_INTERNAL;
}
