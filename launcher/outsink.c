/* outsink.c: one output destination of mrun (its stdout, its stderr, a --output-filename
 * file: the bytes, not the lines, which are output.c's), written without blocking: what a
 * destination cannot take now is queued, and the event loop writes more when poll says it is
 * writable.
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
#include <time.h>
#include <unistd.h>

enum { SINK_PLAIN, SINK_NB, SINK_SEND, SINK_POLL };

int64_t out_now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
