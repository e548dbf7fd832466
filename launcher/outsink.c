/* outsink.c: mrun's output destinations (its stdout, its stderr, --output-filename's files),
 * written without blocking: what a destination cannot take now is queued, and the event loop
 * writes more when poll says it is writable.
 *
 * Why not O_NONBLOCK on fds 1 and 2: that flag lives in the open file description, which mrun
 * shares with whoever else holds it - the shell on a terminal, the other writers of a pipe -
 * and they would get EAGAIN from their own writes while mrun runs (or for ever, if mrun is
 * SIGKILLed before restoring it). Instead a pipe or terminal is reopened through
 * /proc/self/fd/N, which gives mrun a description of its own to make non-blocking; the pipe
 * or terminal and so the order of the bytes are the same. A socket takes send(MSG_DONTWAIT)
 * per call. A regular file never stalls, and is written as it is (reopening it would lose the
 * shared offset of `(mrun ...; echo) > file`). When reopening fails (a terminal mrun may not
 * open), the last resort is the original fd, written only when poll reports it writable and at
 * most PIPE_BUF bytes at a time, which a pipe then takes without blocking. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SINK_PLAIN, SINK_NB, SINK_SEND, SINK_POLL };

enum { SELF_PIPE = 1 << 20 }; /* room for mrun's own messages while its stderr is stalled */

void out_sink_init(out_sink_t *k, int fd, bool reopen)
{
    *k = (out_sink_t){.fd = fd, .how = SINK_PLAIN};
    struct stat st;
    if (!reopen || fd < 0 || fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
        return;
    if (S_ISSOCK(st.st_mode)) {
        k->how = SINK_SEND;
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int nfd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (nfd >= 0) {
        *k = (out_sink_t){.fd = nfd, .how = SINK_NB, .own_fd = true};
        return;
    }
    k->how = SINK_POLL; /* ENXIO: a pipe without reader (the first write says EPIPE); EACCES */
}

static void sink_kill(out_sink_t *k, int err)
{
    if (err != EPIPE && err != ECONNRESET)
        fprintf(stderr, "mrun: writing the job's output to fd %d failed: %s; dropping the rest\n",
                k->fd, strerror(err));
    k->dead = true;
    k->dropped += k->len - k->off;
    k->off = k->len = 0;
}

/* Writes what the sink takes now; writable: poll said so (SINK_POLL writes only then). */
void out_sink_flush(out_sink_t *k, bool writable)
{
    while (!k->dead && k->off < k->len) {
        size_t n = k->len - k->off;
        ssize_t w;
        if (k->how == SINK_SEND) {
            w = send(k->fd, k->buf + k->off, n, MSG_DONTWAIT | MSG_NOSIGNAL);
        } else if (k->how == SINK_POLL) {
            if (!writable)
                return;
            writable = false;
            w = write(k->fd, k->buf + k->off, n < PIPE_BUF ? n : PIPE_BUF);
        } else {
            w = write(k->fd, k->buf + k->off, n);
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (w < 0) {
            sink_kill(k, errno);
            return;
        }
        k->off += (size_t)w;
    }
    k->off = k->len = 0;
}

void out_sink_put(out_sink_t *k, const char *p, size_t n)
{
    if (k->dead || n == 0) {
        k->dropped += n;
        return;
    }
    if (k->off > 0 && k->len + n > k->cap) { /* reuse the written front before growing */
        memmove(k->buf, k->buf + k->off, k->len - k->off);
        k->len -= k->off;
        k->off = 0;
    }
    if (k->len + n > k->cap) {
        size_t cap = k->cap ? k->cap : 65536;
        while (cap < k->len + n)
            cap *= 2;
        char *b = realloc(k->buf, cap);
        if (!b) {
            fprintf(stderr, "mrun: out of memory queueing %zu bytes of output; dropped\n", n);
            k->dropped += n;
            return;
        }
        k->buf = b;
        k->cap = cap;
    }
    memcpy(k->buf + k->len, p, n);
    k->len += n;
}

void out_sink_close(out_sink_t *k)
{
    if (k->own_fd && k->fd >= 0)
        close(k->fd);
    free(k->buf);
    k->buf = NULL;
    k->fd = -1;
    k->off = k->len = k->cap = 0;
}

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

int out_sinks_pollfds(out_sinks_t *o, struct pollfd *p)
{
    int n = 0;
    out_sink_t *k[2] = {&o->out, &o->err};
    for (int i = 0; i < 2; i++)
        if (!k[i]->dead && k[i]->off < k[i]->len && k[i]->how != SINK_PLAIN)
            p[n++] = (struct pollfd){.fd = k[i]->fd, .events = POLLOUT};
    return n;
}

void out_sinks_ready(out_sinks_t *o, const struct pollfd *p, int n)
{
    out_sink_t *k[2] = {&o->out, &o->err};
    for (int i = 0; i < 2; i++) {
        bool writable = false;
        for (int j = 0; j < n; j++)
            writable |= p[j].fd == k[i]->fd && (p[j].revents & (POLLOUT | POLLERR | POLLHUP));
        out_sink_flush(k[i], writable);
    }
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
