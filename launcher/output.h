/* output.h: forwarding of the ranks' stdout/stderr pipes to mrun's stdout/stderr (or to files,
 * --output-filename) without ever blocking mrun's event loop: each destination ("sink") queues
 * what it cannot take yet, and a rank's pipe is not read while its sink holds more than a bound,
 * so a stalled reader stops the ranks in their own write(), never mrun. Output moves in whole
 * lines, optionally prefixed with "[rank] " (--tag-output), so that ranks never interleave
 * mid-line (limits: out_tick). */
#ifndef MRUN_OUTPUT_H
#define MRUN_OUTPUT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct out_stream;

typedef struct out_sink {
    int fd;       /* where the bytes go; -1: nowhere (not set up) */
    int how;      /* how to write without blocking (output.c's SINK_*) */
    bool own_fd;  /* fd was opened here: close it at the end */
    bool dead;    /* the reader went away or writing failed: bytes are counted, dropped */
    char *buf;    /* queued bytes are buf[off, len) */
    size_t off, len, cap;
    size_t dropped;                  /* bytes lost (reader gone, out of memory, given up) */
    struct out_stream *owner;        /* a stream whose line is half written here, or NULL */
    bool contended;                  /* another stream waits for the owner's line to end */
} out_sink_t;

typedef struct out_stream {
    int fd;          /* read end of the rank's pipe; -1 once closed */
    int rank;        /* -1: mrun's own stderr */
    bool tag;        /* prefix every line with "[rank] " */
    const char *label; /* with it, "[label:rank] " (a spawned job's ranks: job_spawn.c) */
    out_sink_t *sink;
    out_sink_t file; /* the sink of --output-filename's file, when this stream has one */
    char *line;      /* the start of a line still waiting for its end */
    size_t len, cap;
    bool mid_line;   /* part of the current line is on the sink already (the sink's owner) */
    int64_t held_since;  /* monotonic ms: the held start of the line began */
    int64_t quiet_since; /* monotonic ms: the held or half-written line last grew */
} out_stream_t;

/* mrun's own stdout and stderr during a job. fd 2 is redirected into a pipe read as one more
 * stream (self), so that mrun's own messages (and PMIx's) never block on a stalled reader
 * either; out_sinks_close puts it back. */
typedef struct out_sinks {
    out_sink_t out, err;
    out_stream_t self; /* self.fd < 0: mrun writes to its stderr directly */
    int saved_err;     /* the real fd 2, or -1 */
} out_sinks_t;

/* Sets up the sinks of fds 1 and 2 (never fails: falls back to plainer ways, see output.c). */
void out_sinks_open(out_sinks_t *o);
/* Gives the sinks up to wait_ms for what they still hold, drops the rest (with one line that
 * says how much), and restores fd 2. */
void out_sinks_close(out_sinks_t *o, int wait_ms);
/* Nothing is queued for mrun's stdout or stderr, nor waiting in the self pipe. */
bool out_sinks_idle(out_sinks_t *o);
/* Adds a POLLOUT entry for each sink with queued bytes to p (room for 2); returns how many. */
int out_sinks_pollfds(out_sinks_t *o, struct pollfd *p);
/* After poll: writes what the sinks take now (p, n: the entries out_sinks_pollfds added). */
void out_sinks_ready(out_sinks_t *o, const struct pollfd *p, int n);

/* A stream to a shared sink (o->out or o->err); fd is set once the rank has started. */
void out_init(out_stream_t *s, out_sink_t *sink, int rank, bool tag);
/* A stream to its own file (taken over: out_close closes it). */
void out_init_file(out_stream_t *s, int file_fd, int rank, bool tag);

/* Whether the stream's pipe should be read now: false while its sink is over its bound or
 * another stream's line is half written there (back-pressure). */
bool out_wants_read(out_stream_t *s);

/* Reads what the pipe holds now and queues it. Returns false once the stream is closed (EOF, a
 * read error, or its reader went away: closing the pipe hands the rank a SIGPIPE). */
bool out_pump(out_stream_t *s);

/* Reads the pipe to its end, whatever the sink holds, and closes it (mrun's own stderr pipe
 * once fd 2 is restored). */
void out_finish(out_stream_t *s);

/* The stream's timers: a held partial line goes out after a pause, a half-written line stops
 * holding its sink after a longer one. Returns the next deadline (monotonic ms), 0: none. */
int64_t out_tick(out_stream_t *s, int64_t now);

/* The sinks (outsink.c), which output.c writes lines to: a sink for fd (reopen: may get a
 * non-blocking description of its own; false for files), queueing bytes, writing what it
 * takes, freeing it. */
void out_sink_init(out_sink_t *k, int fd, bool reopen);
void out_sink_put(out_sink_t *k, const char *p, size_t n);
void out_sink_flush(out_sink_t *k, bool writable);
void out_sink_close(out_sink_t *k);
int64_t out_now_ms(void); /* monotonic */

/* Opens DIR/1/rank.R/NAME for writing, creating the directories, the layout of Open MPI's
 * --output-filename. Returns the fd (close-on-exec), or -1 after printing why. */
int out_open_file(const char *dir, int rank, const char *name);

/* Queues a partial last line (tagged: with a newline added), closes the pipe, and the file
 * of --output-filename. */
void out_close(out_stream_t *s);

#endif
