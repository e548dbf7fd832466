/* output.c: a rank's stdout/stderr pipe cut into lines for its sink (outsink.c): mrun's own
 * stdout/stderr, or its file (--output-filename). Lines of different ranks never interleave:
 * a line moves to the sink only whole, with its "[rank] " prefix under --tag-output.
 *
 * Limits, with what happens beyond them (Open MPI prefixes each chunk it reads, so the ranks'
 * long lines interleave; Slurm cuts lines at its buffer size and labels each piece):
 * - a line is held up to LINE_HOLD bytes for its end. A longer one goes out in pieces, the
 *   first tagged, and its sink is held by that rank until the line ends: the other ranks'
 *   output waits (their pipes are not read), so the line still arrives whole.
 * - a partial line is held HOLD_MS for its end, then goes out as such a first piece (a prompt
 *   or a progress bar must be seen); the pieces that follow wait HOLD_MS each as well.
 * - a rank that holds its sink half-way through a line and writes nothing for OWN_MS while
 *   another rank waits lets go: under --tag-output its line is ended with a newline and the
 *   rest comes later as a new tagged line; untagged, the other rank's lines follow the piece.
 * - a sink holding SINK_BOUND bytes its reader has not taken stops the reading of the pipes
 *   that feed it, so that a stalled reader stops the ranks in their write(), never mrun. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
    OUT_CHUNK = 65536,
    SINK_BOUND = 1 << 20,
    LINE_HOLD = 256 * 1024,
    HOLD_MS = 200,
    OWN_MS = 2000,
};

void out_init(out_stream_t *s, out_sink_t *sink, int rank, bool tag)
{
    *s = (out_stream_t){.fd = -1, .rank = rank, .tag = tag, .sink = sink};
    s->file.fd = -1;
}

void out_init_file(out_stream_t *s, int file_fd, int rank, bool tag)
{
    out_init(s, &s->file, rank, tag);
    out_sink_init(&s->file, file_fd, false);
    s->file.own_fd = true;
}

static size_t queued(const out_sink_t *k) { return k->len - k->off; }

/* Moves the held start of the line, then p[0, n), to the sink; ends: they end the line (else
 * the stream holds the sink until it does). */
static void emit(out_stream_t *s, const char *p, size_t n, bool ends)
{
    out_sink_t *k = s->sink;
    if (s->tag && !s->mid_line) {
        char prefix[80];
        int plen = snprintf(prefix, sizeof prefix, "[%s%s%d] ", s->label ? s->label : "",
                            s->label ? ":" : "", s->rank);
        out_sink_put(k, prefix, (size_t)plen);
    }
    out_sink_put(k, s->line, s->len);
    out_sink_put(k, p, n);
    s->len = 0;
    s->mid_line = !ends;
    if (k->owner != (ends ? NULL : s))
        k->contended = false;
    k->owner = ends ? NULL : s;
    if (s->cap > LINE_HOLD / 4) { /* a long line's memory is not kept for short ones */
        free(s->line);
        s->line = NULL;
        s->cap = 0;
    }
}

/* Adds p[0, n) to the held start of the line; false when out of memory. */
static bool hold(out_stream_t *s, const char *p, size_t n)
{
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->len + n)
            cap *= 2;
        char *l = realloc(s->line, cap);
        if (!l)
            return false;
        s->line = l;
        s->cap = cap;
    }
    if (s->len == 0)
        s->held_since = out_now_ms();
    memcpy(s->line + s->len, p, n);
    s->len += n;
    return true;
}

/* Whole lines go to the sink; the start of the last one is held (out of memory: sent). */
static void feed(out_stream_t *s, const char *p, size_t n)
{
    while (n > 0) {
        const char *nl = memchr(p, '\n', n);
        size_t take = nl ? (size_t)(nl + 1 - p) : n;
        if (nl || s->len + take > LINE_HOLD || !hold(s, p, take))
            emit(s, p, take, nl != NULL);
        p += take;
        n -= take;
    }
}

/* The owner of s's sink stops holding it: a tagged line is ended here (its rest will come
 * with a new tag). */
static void release(out_sink_t *k)
{
    out_stream_t *o = k->owner;
    if (!o)
        return;
    if (o->tag)
        out_sink_put(k, "\n", 1);
    o->mid_line = false;
    k->owner = NULL;
    k->contended = false;
}

bool out_wants_read(out_stream_t *s)
{
    out_sink_t *k = s->sink;
    if (s->fd < 0)
        return false;
    if (k->dead)
        return true; /* to see its end, or to close it */
    if (queued(k) >= SINK_BOUND)
        return false;
    if (k->owner && k->owner != s) {
        int n = 0;
        if (s->len > 0 || (ioctl(s->fd, FIONREAD, &n) == 0 && n > 0))
            k->contended = true;
        return false;
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
    s->len = s->cap = 0;
    if (s->sink->owner == s)
        release(s->sink);
}

/* Reads one chunk, whatever the sink's state. */
static bool pump(out_stream_t *s)
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
    feed(s, buf, (size_t)n);
    if (s->len > 0 || s->mid_line)
        s->quiet_since = out_now_ms();
    out_sink_flush(s->sink, false);
    /* The reader went away (EPIPE): closing the pipe hands the rank a SIGPIPE, as a shell
     * pipeline would. mrun's own stderr pipe (rank -1) is kept and its bytes dropped. */
    if (s->sink->dead && s->rank >= 0) {
        out_drop(s);
        return false;
    }
    return true;
}

bool out_pump(out_stream_t *s)
{
    /* The sink may have been taken since the poll set was built (a held line went out). */
    if (s->fd >= 0 && !out_wants_read(s))
        return true;
    return pump(s);
}

void out_finish(out_stream_t *s)
{
    /* bounded: a process that kept a copy of the pipe's write end would never let it end */
    for (int i = 0; i < 256 && pump(s); i++)
        ;
    out_close(s);
}

int64_t out_tick(out_stream_t *s, int64_t now)
{
    out_sink_t *k = s->sink;
    int64_t next = 0;
    if (s->len > 0 && (!k->owner || k->owner == s)) {
        if (now - s->held_since < HOLD_MS)
            return s->held_since + HOLD_MS;
        emit(s, NULL, 0, false); /* a prompt, or a line written slowly: its start goes out */
        out_sink_flush(k, false);
    }
    if (k->owner == s) {
        if (queued(k) >= SINK_BOUND)
            s->quiet_since = now; /* quiet because its reader is: not the rank's doing */
        if (k->contended && now - s->quiet_since >= OWN_MS) {
            release(k);
            out_sink_flush(k, false);
            return now; /* the streams that waited are to be polled again */
        }
        /* contention is seen by the others' out_wants_read: look again now and then */
        next = s->quiet_since + OWN_MS > now ? s->quiet_since + OWN_MS : now + OWN_MS / 4;
    }
    return next;
}

void out_close(out_stream_t *s)
{
    out_sink_t *k = s->sink;
    if (s->len > 0 || s->mid_line) {
        if (k->owner && k->owner != s)
            release(k); /* the end of the job: nobody waits any more */
        /* the partial last line goes out whole; tagged, with a newline to end it */
        emit(s, "\n", s->tag ? 1 : 0, true);
    }
    out_drop(s);
    out_sink_flush(k, false);
    if (k == &s->file)
        out_sink_close(k);
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
