/* outsinks.c: mrun's two destinations as a set (out_sinks_t): opened with mrun's own stderr
 * turned into a stream of its own (a pipe read like a rank's, so that mrun's messages never
 * cut a rank's line), waited for and closed. The top of the output module: it uses the
 * streams (output.c) and the sinks (outsink.c), neither of which calls it, nor each other
 * back (output.c -> outsink.c only). */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

enum { SELF_PIPE = 1 << 20 }; /* room for mrun's own messages while its stderr is stalled */

void out_sinks_open(out_sinks_t *o)
{
    out_sink_init(&o->out, STDOUT_FILENO, true);
    out_init(&o->self, &o->err, -1, false);
    o->saved_err = -1;
    int p[2];
    int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved < 0 || pipe2(p, O_CLOEXEC) != 0) {
        if (saved >= 0)
            close(saved);
        out_sink_init(&o->err, STDERR_FILENO, true);
        return;
    }
    /* The write end stays blocking (a full pipe must not lose a message), fd 2 inherits no
     * close-on-exec (the ranks get their own fd 2 anyway); the read end never blocks mrun. */
    (void)fcntl(p[0], F_SETPIPE_SZ, SELF_PIPE); /* best effort: 64 KiB is also enough */
    if (fcntl(p[0], F_SETFL, O_NONBLOCK) != 0 || dup2(p[1], STDERR_FILENO) < 0) {
        close(p[0]);
        close(p[1]);
        close(saved);
        out_sink_init(&o->err, STDERR_FILENO, true);
        return;
    }
    close(p[1]);
    o->saved_err = saved;
    o->self.fd = p[0];
    out_sink_init(&o->err, saved, true);
}

bool out_sinks_idle(out_sinks_t *o)
{
    int queued = 0;
    if (o->self.fd >= 0 && (ioctl(o->self.fd, FIONREAD, &queued) != 0 || queued > 0 ||
                            o->self.len > 0))
        return false;
    return o->out.off == o->out.len && o->err.off == o->err.len;
}

/* Waits up to wait_ms for the sinks to take what they hold. */
static void sinks_wait(out_sinks_t *o, int wait_ms)
{
    int64_t end = out_now_ms() + wait_ms;
    for (;;) {
        struct pollfd p[2];
        out_sinks_ready(o, p, 0);
        int n = out_sinks_pollfds(o, p);
        int64_t left = end - out_now_ms();
        if (n == 0 || left <= 0)
            return;
        if (poll(p, (nfds_t)n, (int)left) < 0 && errno != EINTR)
            return;
        out_sinks_ready(o, p, n);
    }
}

void out_sinks_close(out_sinks_t *o, int wait_ms)
{
    if (o->saved_err >= 0) {
        /* mrun's messages go straight to fd 2 again; then the pipe has no writer left, and
         * what it holds is taken to the end. */
        if (dup2(o->saved_err, STDERR_FILENO) < 0)
            o->err.dead = true; /* cannot happen for valid fds; do not print into the void */
        out_finish(&o->self);
    }
    sinks_wait(o, wait_ms);
    size_t lost = 0;
    out_sink_t *k[2] = {&o->out, &o->err};
    for (int i = 0; i < 2; i++)
        lost += k[i]->dropped + (k[i]->dead ? 0 : k[i]->len - k[i]->off);
    if (lost > 0 && !o->out.dead && !o->err.dead) {
        /* only when the reader was still there: a vanished one is the user's choice (| head) */
        char msg[256];
        int m = snprintf(msg, sizeof msg, "mrun: %zu bytes of the job's output were dropped "
                         "(and what the ranks' pipes still held): its reader did not take them "
                         "in time\n", lost);
        o->err.off = o->err.len = 0;
        out_sink_put(&o->err, msg, (size_t)m);
        out_sink_flush(&o->err, false); /* never wait: the reader is the one that stalled */
    }
    out_sink_close(&o->out);
    out_sink_close(&o->err);
    if (o->saved_err >= 0)
        close(o->saved_err);
    o->saved_err = -1;
}
