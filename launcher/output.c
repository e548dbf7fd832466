/* output.c: forwards a rank's stdout/stderr pipe to mrun's stdout/stderr, or to its files
 * (--output-filename). Untagged output is passed through as it arrives; tagged output is cut
 * into whole lines, each written with its "[rank] " prefix in one call so that lines of
 * different ranks never interleave. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

enum { OUT_CHUNK = 65536, OUT_LINE_MAX = 65536 };

void out_init(out_stream_t *s, int fd, int dest_fd, int rank, bool tag)
{
    *s = (out_stream_t){.fd = fd, .dest_fd = dest_fd, .rank = rank, .tag = tag};
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* One writev for prefix and line: a pipe or terminal takes it whole, so concurrent ranks'
 * lines stay intact; a short write is completed by hand. */
static bool write_tagged(out_stream_t *s, const char *p, size_t n)
{
    char prefix[24];
    size_t plen = 0;
    if (!s->mid_line)
        plen = (size_t)snprintf(prefix, sizeof prefix, "[%d] ", s->rank);
    struct iovec iov[2] = {{prefix, plen}, {(void *)p, n}};
    ssize_t w;
    do
        w = writev(s->dest_fd, iov, 2);
    while (w < 0 && errno == EINTR);
    if (w < 0)
        return false;
    size_t done = (size_t)w;
    if (done < plen) {
        if (!write_all(s->dest_fd, prefix + done, plen - done))
            return false;
        done = plen;
    }
    done -= plen;
    return write_all(s->dest_fd, p + done, n - done);
}

/* Cuts the chunk into lines; a line's start may wait in s->line for its end. */
static bool feed_tagged(out_stream_t *s, const char *p, size_t n)
{
    const char *end = p + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t take = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
        if (s->len == 0 && nl) { /* a whole line: no copy needed */
            if (!write_tagged(s, p, take))
                return false;
            s->mid_line = false;
            p += take;
            continue;
        }
        if (!s->line && !(s->line = malloc(OUT_LINE_MAX + 1))) { /* +1: out_close's newline */
            /* out of memory: give up line-buffering this piece rather than losing it */
            if (!write_tagged(s, p, take))
                return false;
            s->mid_line = !nl;
            p += take;
            continue;
        }
        if (take > OUT_LINE_MAX - s->len)
            take = OUT_LINE_MAX - s->len;
        memcpy(s->line + s->len, p, take);
        s->len += take;
        p += take;
        bool complete = s->line[s->len - 1] == '\n';
        if (complete || s->len == OUT_LINE_MAX) { /* an over-long line goes out in pieces */
            if (!write_tagged(s, s->line, s->len))
                return false;
            s->len = 0;
            s->mid_line = !complete;
        }
    }
    return true;
}

static void out_drop(out_stream_t *s)
{
    if (s->fd >= 0 && close(s->fd) != 0 && errno != EINTR)
        fprintf(stderr, "mrun: closing rank %d's output pipe failed: %s\n", s->rank,
                strerror(errno));
    s->fd = -1;
    free(s->line);
    s->line = NULL;
    s->len = 0;
}

bool out_pump(out_stream_t *s)
{
    char buf[OUT_CHUNK];
    if (s->fd < 0)
        return false;
    ssize_t n = read(s->fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (n < 0) {
        fprintf(stderr, "mrun: reading rank %d's output failed: %s; dropping the rest\n", s->rank,
                strerror(errno));
        out_drop(s);
        return false;
    }
    if (n == 0) {
        out_close(s);
        return false;
    }
    bool ok = s->tag ? feed_tagged(s, buf, (size_t)n) : write_all(s->dest_fd, buf, (size_t)n);
    if (!ok) {
        /* Our reader went away (EPIPE) or the disk is full: closing the pipe hands the rank a
         * SIGPIPE, as a shell pipeline would, instead of us discarding its output forever. */
        if (errno != EPIPE)
            fprintf(stderr, "mrun: forwarding rank %d's output failed: %s\n", s->rank,
                    strerror(errno));
        out_drop(s);
        return false;
    }
    return true;
}

void out_close(out_stream_t *s)
{
    if (s->tag && s->len > 0) {
        /* the partial last line still gets its prefix, and a newline to end it */
        s->line[s->len++] = '\n';
        (void)write_tagged(s, s->line, s->len); /* best effort: the stream ends here anyway */
    } else if (s->tag && s->mid_line) {
        (void)write_tagged(s, "\n", 1);
    }
    out_drop(s);
}

/* mkdir that accepts an existing directory. */
static int out_mkdir(const char *path)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "mrun: --output-filename: cannot create directory %s: %s\n", path,
            strerror(errno));
    return -1;
}

int out_open_file(const char *dir, int rank, const char *name)
{
    char path[4096];
    if (out_mkdir(dir) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/1", dir);
    if (out_mkdir(path) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/1/rank.%d", dir, rank);
    if (out_mkdir(path) != 0)
        return -1;
    int n = snprintf(path, sizeof path, "%s/1/rank.%d/%s", dir, rank, name);
    if (n < 0 || (size_t)n >= sizeof path) {
        fprintf(stderr, "mrun: --output-filename: the path under %s is too long\n", dir);
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        fprintf(stderr, "mrun: --output-filename: cannot open %s: %s\n", path, strerror(errno));
    return fd;
}
